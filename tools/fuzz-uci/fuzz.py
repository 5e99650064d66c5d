#!/usr/bin/env python3
"""UCI fuzzer: random and mutated command sessions against `ENGINE uci`.

Each session starts a fresh engine process and sends it commands from a grammar of real UCI
(grammar.py), possibly mutated (mutate.py). The engine must never panic or crash, answer
every `isready` within the deadline (also mid-search), answer every `go` it accepts with one
`bestmove` in time (bounded searches by themselves, infinite and ponder searches after
`stop`), and exit promptly after `quit` or at the end of its input (session.py has the
rules). Failing sessions are saved to --out as replayable transcripts (transcript.py) with
the engine's time-stamped output; a failure is run again --retries times to tell a
reproducible one from a timing accident on a loaded machine.

  ./fuzz.py /tmp/estuary --sessions 10000 --jobs 2 --seed 1 --out fuzz-failures
  ./fuzz.py /tmp/estuary --replay regressions/*.txt
  ./fuzz.py /tmp/estuary --minimise fuzz-failures/1-42-readyok-timeout.txt

Python 3.11 standard library only (make_corpus.py, which wrote corpus.txt, needs
python-chess).
"""

import argparse
from collections import Counter
import concurrent.futures as cf
import os
import random
import sys
import tempfile
import threading
import time
import traceback

import grammar
import mutate
import nets
import session
import transcript

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SHAPES = ["game", "interleave", "garbage", "mutated"]


def build(seed, index, corpus, shape=None):
    """The steps of session `index` of run `seed`, and its shape (same on every machine)."""
    rng = random.Random(f"{seed}/{index}")
    g = grammar.Grammar(rng, corpus)
    shape = shape or rng.choice(["game"] * 3 + ["interleave"] * 3 + ["garbage"] * 2 +
                                ["mutated"] * 3)
    if shape != "mutated":
        return g.session(shape), shape
    steps = g.session()
    donor = g.session()
    return mutate.mutate(rng, steps, donor), shape


def run_once(steps, args):
    o = session.run(steps, args.argv, args.deadlines, args.nets_dir)
    if o.ended == "utf8" and args.strict_utf8:
        o.failures.append(session.Failure("utf8-exit", "the engine stopped reading at a line "
                                          "that is not UTF-8"))
    return o


def reproduce(steps, args, kind):
    """How many of --retries runs fail with `kind` again."""
    return sum(any(f.kind == kind for f in run_once(steps, args).failures)
               for _ in range(args.retries))


def save(args, name, steps, outcome, header):
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, name)
    with open(path + ".txt", "w") as f:
        f.write(transcript.dumps(steps, header))
    with open(path + ".log", "w") as f:
        f.write("\n".join("# " + h for h in header) + "\n" + outcome.log())
    return path + ".txt"


def fuzz(args):
    corpus = grammar.Corpus()
    lock = threading.Lock()
    totals = Counter()
    kinds = Counter()  # sessions failing by kind
    reproduced = Counter()
    saved = []
    slowest = []  # (seconds, index)
    start = time.monotonic()
    done = [0]

    def one(index):
        steps, shape = build(args.seed, index, corpus, args.shape)
        try:
            o = run_once(steps, args)
        except Exception:  # a bug of the fuzzer: keep the session to look at
            o = session.Outcome()
            o.failures.append(session.Failure("fuzzer-error", traceback.format_exc()))
        rep = {}
        for kind in {f.kind for f in o.failures}:
            rep[kind] = reproduce(steps, args, kind) if args.retries and \
                kind != "fuzzer-error" else 0
        with lock:
            totals["sessions"] += 1
            totals["commands"] += o.commands
            totals["go"] += o.gos
            totals["refused"] += o.refused
            totals["bestmove"] += o.bestmoves
            totals["utf8-ends"] += o.ended == "utf8"
            totals["shape " + shape] += 1
            slowest.append((o.seconds, index))
            slowest.sort(reverse=True)
            del slowest[5:]
            for kind, n in rep.items():
                kinds[kind] += 1
                reproduced[kind] += n > 0
            done[0] += 1
            n = done[0]
        if o.failures:
            first = o.failures[0]
            header = [f"estuary fuzz-uci: seed {args.seed}, session {index} ({shape})",
                      f"engine: {' '.join(args.argv)}"]
            header += [f"failure {f.kind}: {f.detail}".replace("\n", " | ")
                       for f in o.failures]
            header += [f"{kind}: again in {n} of {args.retries} runs" for kind, n in
                       rep.items()]
            path = save(args, f"{args.seed}-{index}-{first.kind}", steps, o, header)
            with lock:
                saved.append(path)
                print(f"session {index}: {first.kind}: {first.detail} -> {path}",
                      flush=True)
        if n % args.progress == 0:
            with lock:
                print(f"[{n}/{args.sessions}] {time.monotonic() - start:.0f} s, "
                      f"{totals['commands']} commands, failures {dict(kinds) or 0}",
                      flush=True)

    with cf.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for fut in [ex.submit(one, i) for i in range(args.first, args.first + args.sessions)]:
            fut.result()
    seconds = time.monotonic() - start
    print()
    print(f"engine     {' '.join(args.argv)}")
    print(f"seed       {args.seed} (sessions {args.first}..{args.first + args.sessions - 1}, "
          f"jobs {args.jobs})")
    print(f"sessions   {totals['sessions']} (" + ", ".join(
        f"{s} {totals['shape ' + s]}" for s in SHAPES if totals["shape " + s]) + ")")
    print(f"commands   {totals['commands']} lines sent; go {totals['go']} "
          f"({totals['refused']} refused), bestmove {totals['bestmove']}, "
          f"input ended by a non-UTF-8 line in {totals['utf8-ends']} sessions")
    if kinds:
        print("failures   " + ", ".join(
            f"{k} {n} (reproduced {reproduced[k]})" for k, n in sorted(kinds.items())))
    else:
        print("failures   none")
    print(f"time       {seconds:.0f} s ({totals['sessions'] / seconds:.1f} sessions/s); slowest "
          + ", ".join(f"#{i} {s:.1f} s" for s, i in slowest))
    return 1 if kinds else 0


def replay(args):
    bad = 0
    for path in args.replay:
        with open(path) as f:
            steps = transcript.loads(f.read())
        for r in range(args.repeat):
            o = run_once(steps, args)
            verdict = "; ".join(f"{f.kind}: {f.detail}" for f in o.failures) or "ok"
            print(f"{path} [{r + 1}/{args.repeat}] {o.seconds:.2f} s, {o.commands} lines, "
                  f"ended by {o.ended}: {verdict}", flush=True)
            if o.failures:
                bad += 1
                if args.verbose:
                    print(o.log())
    return 1 if bad else 0


def ddmin(items, fails):
    """Delta debugging: a smallest-found sublist of `items` for which `fails` holds."""
    n = 2
    while len(items) >= 2:
        chunk = max(1, len(items) // n)
        for start in range(0, len(items), chunk):
            rest = items[:start] + items[start + chunk:]
            if rest and fails(rest):
                items, n = rest, max(n - 1, 2)
                break
        else:
            if chunk == 1:
                break
            n = min(len(items), 2 * n)
    return items


def minimise(args):
    with open(args.minimise) as f:
        steps = transcript.loads(f.read())
    kind = args.kind
    if kind is None:
        o = run_once(steps, args)
        if not o.failures:
            print("the session does not fail")
            return 1
        kind = o.failures[0].kind
    tries = [0]

    def fails(candidate):
        tries[0] += 1
        return any(any(f.kind == kind for f in run_once(candidate, args).failures)
                   for _ in range(max(1, args.retries)))

    print(f"minimising {args.minimise} ({len(steps)} steps) for {kind}", flush=True)
    steps = ddmin(steps, fails)
    # Then the tokens of each line.
    for i in range(len(steps)):
        s = steps[i]
        if not isinstance(s, transcript.Send) or b" " not in s.data:
            continue
        toks = ddmin(s.data.split(b" "), lambda t: fails(
            steps[:i] + [transcript.Send(b" ".join(t), s.raw)] + steps[i + 1:]))
        steps[i] = transcript.Send(b" ".join(toks), s.raw)
    out = args.out_file or os.path.splitext(args.minimise)[0] + ".min.txt"
    with open(out, "w") as f:
        f.write(transcript.dumps(steps, [f"minimised from {args.minimise}: {kind}",
                                         f"{tries[0]} trial runs"]))
    print(f"{len(steps)} steps -> {out}")
    print(transcript.dumps(steps))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", nargs="?", default=os.path.join(ROOT, "target", "release",
                                                              "estuary"))
    ap.add_argument("--sessions", type=int, default=10000)
    ap.add_argument("--first", type=int, default=0, help="index of the first session")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--shape", choices=SHAPES, help="only sessions of this shape")
    ap.add_argument("--out", default="fuzz-uci-failures", help="where failing sessions go")
    ap.add_argument("--replay", nargs="+", metavar="FILE", help="run these transcripts")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each --replay file")
    ap.add_argument("--minimise", metavar="FILE", help="shrink a failing transcript")
    ap.add_argument("--kind", help="failure kind --minimise keeps (default: the first seen)")
    ap.add_argument("--out-file", help="--minimise result (default FILE.min.txt)")
    ap.add_argument("--retries", type=int, default=2,
                    help="reruns of a failing session to see whether it reproduces")
    ap.add_argument("--deadline", type=float, default=2.0,
                    help="seconds for readyok after isready and bestmove after stop")
    ap.add_argument("--slack", type=float, default=2.0,
                    help="seconds added to twice a bounded search's limit")
    ap.add_argument("--strict-utf8", action="store_true",
                    help="count the engine stopping at a non-UTF-8 line as a failure")
    ap.add_argument("--progress", type=int, default=500, help="report every N sessions")
    ap.add_argument("--nets-dir", default=os.path.join(
        tempfile.gettempdir(), f"estuary-fuzz-uci-nets-{os.getuid()}"))
    ap.add_argument("-v", "--verbose", action="store_true", help="--replay: print the logs")
    args = ap.parse_args()
    if not os.access(args.engine, os.X_OK):
        sys.exit(f"{args.engine}: not an executable (build it or give its path)")
    args.argv = [args.engine, "uci"]
    args.deadlines = session.Deadlines(readyok=args.deadline, stop=args.deadline,
                                       slack=args.slack)
    nets.write_nets(args.nets_dir)
    if args.replay:
        return replay(args)
    if args.minimise:
        return minimise(args)
    return fuzz(args)


if __name__ == "__main__":
    sys.exit(main())

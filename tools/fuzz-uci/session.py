"""Runs one session against the engine and judges it.

While the session runs, every `isready` must be answered (`readyok`) within the deadline, and
the engine must keep reading its input. Unless the session ends itself (`quit`, end of input,
a line that is not UTF-8), it ends with `isready`, a wait for the searches that must end by
themselves, `stop`, `isready` and `quit`. The process must then exit promptly.

Afterwards, from the time-stamped input and output:
- no `panicked` on stderr, no exit by signal or with an error code;
- every `go` the engine accepted answered by exactly one `bestmove` (a `go` is refused with an
  `info string error:` line when a search runs or its parameters are wrong);
- each search reported by its deadline: a bounded `go` (depth, nodes, movetime, both clocks)
  within twice its bound plus the slack, any search within the stop deadline of the next
  `stop`, `quit` or `ucinewgame`, a `go ponder` within its bound after `ponderhit`. Which
  `go` a refusal belongs to is not visible in the output, so the check is by counting: by
  each deadline, the `bestmove`s received must be at least the searches due minus all
  refusals of the session;
- one `uciok` per `uci`, `bestmove` lines well formed.
"""

from dataclasses import dataclass, field
import math
import time

from engine import Engine
from protocol import STOPPING, command, parse_go, search_bound, spin_option
from transcript import Eof, Send, Sleep, Wait


@dataclass
class Deadlines:
    readyok: float = 2.0  # isready -> readyok, also mid-search
    stop: float = 2.0  # stop/quit/ucinewgame -> bestmove
    exit: float = 3.0  # quit or end of input -> process gone
    slack: float = 2.0  # added to twice a search's bound
    write: float = 5.0  # the engine must take a line within this


@dataclass
class Failure:
    kind: str
    detail: str


@dataclass
class Outcome:
    failures: list = field(default_factory=list)
    commands: int = 0
    sent: list = field(default_factory=list)  # (t, bytes)
    received: list = field(default_factory=list)  # (t, bytes)
    stderr: bytes = b""
    returncode: int = None
    seconds: float = 0.0
    ended: str = ""  # quit, eof, utf8, epilogue, died, hang
    gos: int = 0
    refused: int = 0
    bestmoves: int = 0

    def log(self):
        """Input and output merged by time, for the failure report."""
        rows = [(t, ">", d) for t, d in self.sent] + [(t, "<", d) for t, d in self.received]
        rows.sort(key=lambda r: (r[0], r[1] == "<"))
        text = [f"{1000 * t:9.1f} {arrow} {d.decode('utf-8', 'backslashreplace')[:2000]}"
                for t, arrow, d in rows]
        text.append(f"exit status {self.returncode}, ended by {self.ended}")
        if self.stderr:
            text += ["stderr:", self.stderr.decode("utf-8", "backslashreplace")]
        return "\n".join(text) + "\n"


class _Go:
    def __init__(self, t, rest, multipv, threads):
        self.t = t
        self.limits = parse_go(rest)
        self.multipv, self.threads = multipv, threads


def search_deadlines(gos, stops, ponderhits, dl):
    """(deadline, why) of each `go`: `why` is `bound` or `stop`; infinite when neither
    applies yet."""
    out = []
    for g in gos:
        first_stop = next((s for s in stops if s >= g.t), None)
        by_stop = first_stop + dl.stop if first_stop is not None else math.inf
        lim = g.limits
        by_bound = math.inf
        if lim is not None and not lim.infinite:
            b = search_bound(lim, g.multipv, g.threads)
            if b is not None and not lim.ponder:
                by_bound = g.t + 2 * b + dl.slack
            elif b is not None:
                hit = next((p for p in ponderhits if p >= g.t), None)
                if hit is not None:
                    by_bound = hit + 2 * b + dl.slack
        out.append((by_bound, "bound") if by_bound < by_stop else (by_stop, "stop"))
    return out


class _Run:
    def __init__(self, argv, dl, nets):
        self.eng = Engine(argv)
        self.dl = dl
        self.nets = nets
        self.out = Outcome()
        self.gos, self.stops, self.ponderhits = [], [], []
        self.uci = 0
        # The largest MultiPV and Threads set so far (a depth takes longer with them).
        self.multipv = self.threads = 1
        self.isready = 0
        self.pending = b""  # sent without a newline, not yet a line for the engine
        self.ended = None

    def fail(self, kind, detail):
        self.out.failures.append(Failure(kind, detail))

    def handled(self, line, t):
        """Bookkeeping for one line the engine reads. Returns False when the engine stops
        reading after it."""
        cmd = command(line)
        if cmd is None:
            self.stops.append(t)
            self.ended = "utf8"
            return False
        word, rest = cmd
        if word == "uci":
            self.uci += 1
        elif word == "go":
            self.gos.append(_Go(t, rest, self.multipv, self.threads))
        elif word == "setoption":
            name, value = spin_option(rest) or (None, 0)
            if name == "multipv" and 1 <= value <= 256:
                self.multipv = max(self.multipv, value)
            elif name == "threads" and 1 <= value <= 256:
                self.threads = max(self.threads, value)
        elif word == "ponderhit":
            self.ponderhits.append(t)
        if word in STOPPING:
            self.stops.append(t)
        if word == "quit":
            self.ended = "quit"
            return False
        if word == "isready":
            self.isready += 1
            want = self.isready
            if not self.eng.wait_for(lambda: self.eng.readyok >= want or self.eng.eof,
                                     self.dl.readyok):
                self.fail("readyok-timeout",
                          f"isready #{want} sent at {1000 * t:.0f} ms: no readyok within "
                          f"{self.dl.readyok:g} s")
                self.ended = "hang"
                return False
        return True

    def send(self, data, raw=False):
        data = data.replace(b"{nets}", self.nets)
        t = self.eng.now()
        self.out.sent.append((t, data + (b"" if not raw else b" (no newline)")))
        self.out.commands += 1
        if not self.eng.write(data + (b"" if raw else b"\n"), self.dl.write):
            if self.eng.alive():
                self.fail("input-stall", f"the engine took no input for {self.dl.write:g} s")
                self.ended = "hang"
            else:
                self.ended = "died"
            return False
        if raw:
            self.pending += data
            return True
        lines = (self.pending + data).split(b"\n")
        self.pending = b""
        for line in lines:
            if not self.handled(line, t):
                return False
        if not self.eng.alive() and self.eng.wait_for(lambda: self.eng.eof, 0.5):
            self.ended = "died"
            return False
        return True

    def due(self):
        """Searches accepted so far that have not reported."""
        with self.eng.cond:
            return len(self.gos) - self.eng.rejections - len(self.eng.bestmoves)

    def running_go(self):
        """The `go` whose search most likely runs now, or None. Each refusal is put on the
        newest `go` sent before it arrived: a guess (the engine may lag behind its input),
        used only to decide how long to wait, never to judge."""
        with self.eng.cond:
            refusals = list(self.eng.rejection_times)
            if len(self.gos) - len(refusals) - len(self.eng.bestmoves) <= 0:
                return None
        refused = set()
        for r in refusals:
            sent = [i for i, g in enumerate(self.gos) if g.t <= r and i not in refused]
            if sent:
                refused.add(sent[-1])
        accepted = [g for i, g in enumerate(self.gos) if i not in refused]
        return accepted[-1] if accepted else None

    def wait_searches(self):
        """Waits, as a GUI waits for `bestmove`, until the running search reports or its
        deadline passes; at once when none runs or it has no deadline yet (infinite, ponder)
        or when a refusal comes in meanwhile (the newest `go` was refused after all)."""
        g = self.running_go()
        if g is None:
            return
        deadline, _ = search_deadlines([g], self.stops, self.ponderhits, self.dl)[0]
        if deadline == math.inf:
            return
        with self.eng.cond:
            refusals = len(self.eng.rejection_times)
        self.eng.wait_for(lambda: self.due() <= 0 or self.eng.eof
                          or len(self.eng.rejection_times) > refusals,
                          max(0.0, deadline - self.eng.now()))

    def steps(self, steps):
        for s in steps:
            if isinstance(s, Send):
                if not self.send(s.data, s.raw):
                    return
            elif isinstance(s, Sleep):
                time.sleep(s.ms / 1000)
            elif isinstance(s, Wait):
                self.wait_searches()
            elif isinstance(s, Eof):
                t = self.eng.now()
                self.out.sent.append((t, b"(end of input)"))
                self.eng.close_input()
                if self.pending:
                    self.handled(self.pending, t)
                self.stops.append(t)
                self.ended = self.ended or "eof"
                return

    def epilogue(self):
        for step in (b"isready", None, b"stop", b"isready", None, b"quit"):
            if step is None:
                self.wait_searches()
            elif not self.send(step):
                return
        self.ended = "quit"

    def judge(self, killed):
        eng, out, dl = self.eng, self.out, self.dl
        if b"panicked" in out.stderr:
            self.fail("panic", out.stderr.decode("utf-8", "backslashreplace").strip()[:500])
        rc = out.returncode
        if not killed and rc is not None and rc < 0:
            self.fail("crash", f"killed by signal {-rc}")
        elif not killed and rc not in (0, None):
            self.fail("crash", f"exit status {rc}")
        if self.ended == "died" and not out.failures:
            self.fail("early-exit", f"the engine exited (status {rc}) before quit or end of input")
        if eng.uciok < self.uci and self.ended not in ("hang", "died"):
            self.fail("uciok-missing", f"{self.uci} uci, {eng.uciok} uciok")
        for line in eng.bad_bestmoves[:1]:
            self.fail("bad-bestmove", line.decode("utf-8", "backslashreplace"))
        if self.ended in ("hang", "died"):
            return
        dls = search_deadlines(self.gos, self.stops, self.ponderhits, dl)
        order = sorted(range(len(dls)), key=lambda i: dls[i][0])
        for k, i in enumerate(order, 1):
            d, why = dls[i]
            need = k - eng.rejections
            if d == math.inf or need <= 0:
                continue
            got = sum(1 for b in eng.bestmoves if b <= d)
            if got < need:
                g = self.gos[i]
                self.fail("bestmove-timeout" if why == "bound" else "stop-timeout",
                          f"{need} bestmove(s) due by {1000 * d:.0f} ms ({why}; go sent at "
                          f"{1000 * g.t:.0f} ms), {got} received")
                break
        accepted = len(self.gos) - eng.rejections
        if not killed:
            if len(eng.bestmoves) < accepted:
                self.fail("bestmove-missing", f"{len(self.gos)} go, {eng.rejections} refused, "
                          f"{len(eng.bestmoves)} bestmove")
            elif len(eng.bestmoves) > accepted:
                self.fail("bestmove-extra", f"{len(self.gos)} go, {eng.rejections} refused, "
                          f"{len(eng.bestmoves)} bestmove")


def run(steps, argv, dl=None, nets=b""):
    """Plays `steps` to the engine started as `argv` and returns the judged Outcome."""
    dl = dl or Deadlines()
    r = _Run(argv, dl, nets if isinstance(nets, bytes) else str(nets).encode())
    start = time.monotonic()
    killed = False
    try:
        r.steps(steps)
        if r.ended is None:
            r.epilogue()
        if r.ended in ("quit", "eof", "utf8"):
            if not r.eng.wait_exit(dl.exit):
                r.fail("exit-timeout", f"still running {dl.exit:g} s after {r.ended}")
                killed = True
        killed = killed or r.ended == "hang" or r.eng.alive()
    finally:
        r.out.returncode = r.eng.finish()
    o = r.out
    o.seconds = time.monotonic() - start
    o.ended = r.ended
    o.received = list(r.eng.out)
    o.stderr = bytes(r.eng.err)
    o.gos, o.refused, o.bestmoves = len(r.gos), r.eng.rejections, len(r.eng.bestmoves)
    r.judge(killed)
    return o

#!/usr/bin/env python3
"""Estuary's df-pn and cshogi's DfPn side by side on a tsume TSV, problem by problem.

The file is sfen<TAB>plies<TAB>id[<TAB>line] (../shared/data/tsume/*.tsv). Both solvers get
the same node limit per problem. For each problem the table gives, for both, whether a mate
was proven (Estuary: its line replays to mate; cshogi: `search` true and `get_pv` non-empty),
the plies of that line, the nodes, and the time to the proven mate: Estuary's `first-time`
(proof plus the first line read from it, `estuary tsume --first`), cshogi's `search` plus
`get_pv` (in a worker process that is replaced after any search of over 1M nodes). The ratio is Estuary's time over cshogi's (below 1: Estuary is faster). Each solver
runs the whole file RUNS times, alternating; a problem's time is its fastest run (node
counts are deterministic).

usage: compare-tsume.py --estuary BIN --file FILE [--nodes N] [--hash MB] [--runs R]
                        [--depth D] [--polish] [--table]
  --depth   cshogi's maximum depth (default: 31, or 2^k - 1 above the longest recorded line)
  --polish  Estuary also improves each line to the conventional one; its total time is
            reported beside the time to the first line
  --table   print the per-problem table (the summary is always printed)
"""
import argparse
import statistics
import subprocess
import sys
import time


def read_problems(path):
    problems = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            plies = int(fields[1]) if len(fields) > 1 and fields[1].strip().isdigit() else None
            pid = fields[2] if len(fields) > 2 else "-"
            problems.append((fields[0], plies, pid))
    return problems


def field(tokens, name, conv=int, default=None):
    try:
        return conv(tokens[tokens.index(name) + 1])
    except (ValueError, IndexError):
        return default


def run_estuary(binary, path, nodes, hash_mb, polish):
    """Per problem id: (solved, plies, nodes to the first line, ms to the first line, ms in all)."""
    cmd = [binary, "tsume", "--file", path, "--nodes", str(nodes), "--hash", str(hash_mb)]
    if not polish:
        cmd.append("--first")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    result = {}
    for line in out.splitlines():
        t = line.split()
        if "id" not in t:
            continue
        pid = field(t, "id", str)
        solved = t[0] == "checkmate" and "line-incomplete" not in t
        total_ms = field(t, "time-us", float, 0.0) / 1000
        first_ms = field(t, "first-time-us", float, total_ms * 1000) / 1000
        first_nodes = field(t, "first-nodes", int, field(t, "nodes"))
        plies = field(t, "first-plies", int, field(t, "plies")) if solved else 0
        result[pid] = (solved, plies, first_nodes, first_ms, total_ms)
    return result


def cshogi_worker(nodes, depth):
    """Solves the SFEN lines of stdin with one cshogi DfPn, a line `solved plies nodes ms`
    for each."""
    import cshogi

    board = cshogi.Board()
    dfpn = cshogi.DfPn()
    dfpn.set_max_search_node(nodes)
    dfpn.set_max_depth(depth)
    for line in sys.stdin:
        board.set_sfen(line.strip())
        t = time.perf_counter()
        found = dfpn.search(board)
        pv = dfpn.get_pv(board) if found else []
        ms = (time.perf_counter() - t) * 1000
        print(int(bool(pv)), len(pv), dfpn.searched_node, ms, flush=True)


# A cshogi worker is replaced after a search of more nodes than this: cshogi's table outlives
# its DfPn objects and grows with every search (3 GB after one of 20M nodes), and the problems
# after a large one then run several times slower (musou-003: 0.5 s fresh, 1.1 s after
# musou-002's 1.5M nodes). A fresh process for every problem would cost the small ones the
# first touch of the table's pages instead (tanuki in all: 230 ms against 90).
CSHOGI_RESTART_NODES = 1_000_000


def run_cshogi(problems, nodes, depth):
    """Per problem id: (solved, plies, nodes, ms)."""
    result = {}
    worker = None
    for sfen, _, pid in problems:
        if worker is None:
            worker = subprocess.Popen([sys.executable, __file__, "--cshogi-worker", str(nodes),
                                       str(depth)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
        worker.stdin.write(sfen + "\n")
        worker.stdin.flush()
        solved, plies, n, ms = worker.stdout.readline().split()
        result[pid] = (solved == "1", int(plies), int(n), float(ms))
        if int(n) > CSHOGI_RESTART_NODES:
            worker.stdin.close()
            worker.wait()
            worker = None
    if worker is not None:
        worker.stdin.close()
        worker.wait()
    return result


def fastest(runs, time_index):
    best = {}
    for r in runs:
        for pid, v in r.items():
            if pid not in best or v[time_index] < best[pid][time_index]:
                best[pid] = v
    return best


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--cshogi-worker":
        cshogi_worker(int(sys.argv[2]), int(sys.argv[3]))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--estuary", required=True)
    ap.add_argument("--file", required=True)
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--hash", type=int, default=512)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--polish", action="store_true")
    ap.add_argument("--table", action="store_true")
    a = ap.parse_args()
    problems = read_problems(a.file)
    if not problems:
        sys.exit(f"compare-tsume: no problems in {a.file}")
    longest = max((p for _, p, _ in problems if p), default=0)
    depth = a.depth
    if depth is None:
        depth = 31
        while depth <= longest:
            depth = 2 * depth + 1

    est_runs, csh_runs = [], []
    for _ in range(a.runs):
        est_runs.append(run_estuary(a.estuary, a.file, a.nodes, a.hash, a.polish))
        csh_runs.append(run_cshogi(problems, a.nodes, depth))
    est = fastest(est_runs, 3)
    est_all = fastest(est_runs, 4)
    csh = fastest(csh_runs, 3)

    rows = []
    for _, plies, pid in problems:
        e = est.get(pid, (False, 0, 0, 0.0, 0.0))
        c = csh[pid]
        rows.append((pid, plies, e, est_all.get(pid, e)[4], c))

    if a.table:
        print(f"{'id':<14} {'rec':>4} | {'estuary':>7} {'plies':>5} {'nodes':>10} {'ms':>10}"
              f" | {'cshogi':>6} {'plies':>5} {'nodes':>10} {'ms':>10} | {'ratio':>6}")
        for pid, plies, e, _, c in rows:
            ratio = f"{e[3] / c[3]:6.2f}" if e[0] and c[0] and c[3] > 0 else "     -"
            print(f"{pid:<14} {plies or '-':>4} | {'mate' if e[0] else 'no':>7} {e[1]:>5}"
                  f" {e[2]:>10} {e[3]:>10.1f} | {'mate' if c[0] else 'no':>6} {c[1]:>5}"
                  f" {c[2]:>10} {c[3]:>10.1f} | {ratio}")

    both = [(e, c) for _, _, e, _, c in rows if e[0] and c[0]]
    n = len(rows)
    es = sum(1 for _, _, e, _, _ in rows if e[0])
    cs = sum(1 for _, _, _, _, c in rows if c[0])
    print(f"file {a.file}: {n} problems, {a.nodes} nodes a problem, Estuary hash {a.hash} MiB, "
          f"cshogi depth {depth}, {a.runs} run(s), fastest kept")
    print(f"solved: estuary {es}/{n}, cshogi {cs}/{n}, both {len(both)}")
    e_all = sum(e[3] for _, _, e, _, _ in rows)
    c_all = sum(c[3] for _, _, _, _, c in rows)
    print(f"time to a proven mate, all problems (unsolved ones at their time to the limit): "
          f"estuary {e_all / 1000:.2f} s, cshogi {c_all / 1000:.2f} s, "
          f"ratio {e_all / max(c_all, 1e-9):.3f}")
    if both:
        e_t = sum(e[3] for e, _ in both)
        c_t = sum(c[3] for _, c in both)
        ratios = sorted(e[3] / max(c[3], 1e-3) for e, c in both)
        worst = max(((e[3] / max(c[3], 1e-3), pid) for pid, _, e, _, c in rows
                     if e[0] and c[0]))
        slower = sum(1 for r in ratios if r > 2)
        print(f"time to a proven mate, the {len(both)} both solve: estuary {e_t / 1000:.2f} s, "
              f"cshogi {c_t / 1000:.2f} s, ratio {e_t / max(c_t, 1e-9):.3f}; "
              f"median estuary {statistics.median(e[3] for e, _ in both):.1f} ms, "
              f"cshogi {statistics.median(c[3] for _, c in both):.1f} ms")
        print(f"per problem estuary/cshogi: median {statistics.median(ratios):.3f}, "
              f"worst {worst[0]:.2f} ({worst[1]}), more than 2x slower on {slower}")
        e_n = sum(e[2] for e, _ in both)
        c_n = sum(c[2] for _, c in both)
        print(f"nodes, the {len(both)} both solve: estuary {e_n}, cshogi {c_n}")
    if a.polish:
        p_all = sum(t for _, _, _, t, _ in rows)
        print(f"estuary with the conventional lines: {p_all / 1000:.2f} s in all")


if __name__ == "__main__":
    main()

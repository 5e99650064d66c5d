#!/usr/bin/env python3
"""cshogi's DfPn on a tsume TSV (sfen<TAB>plies<TAB>id[<TAB>line]), for tools/compare-tsume.

Prints one summary line in the same form as `estuary tsume --file`:
solved S/T, length-matched L/T, nodes N, time MS
"""
import sys
import time

import cshogi


def main():
    path = sys.argv[1]
    max_nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    max_depth = int(sys.argv[3]) if len(sys.argv) > 3 else 31
    dfpn = cshogi.DfPn()
    dfpn.set_max_search_node(max_nodes)
    dfpn.set_max_depth(max_depth)
    board = cshogi.Board()
    total = solved = matched = nodes = 0
    elapsed = 0.0
    for line in open(path, encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        if len(f) < 2 or not f[0]:
            continue
        total += 1
        board.set_sfen(f[0])
        t = time.perf_counter()
        found = dfpn.search(board)
        pv = dfpn.get_pv(board) if found else []
        elapsed += time.perf_counter() - t
        nodes += dfpn.searched_node
        if found:
            solved += 1
            if len(pv) == int(f[1]):
                matched += 1
    print(f"solved {solved}/{total}, length-matched {matched}/{total}, "
          f"nodes {nodes}, time {int(elapsed * 1000)}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Where a design's routing is congested: reads the per-net file of nextpnr's router2 heatmap
(`--router router2 --router2-heatmap PREFIX` writes PREFIX_congestion_by_net_N.csv for each
iteration N: a net's name and how many of its wires were overused) and adds the overuse up
by unit (the instance path's first levels) and by net group (the name with its bit and
copy indices taken out), largest first.

usage: hw/synth/congestion.py PREFIX_congestion_by_net_N.csv [DEPTH] [ROWS]
    DEPTH: instance levels that name a unit (3 by default: chip.core.eval)
    ROWS:  rows of each table (15 by default)
"""
import collections
import csv
import re
import sys


def main(path, depth=3, rows=15):
    by_unit = collections.Counter()
    by_group = collections.Counter()
    nets = 0
    for row in csv.reader(open(path)):
        if len(row) < 2 or not row[1].strip().isdigit():
            continue
        name, over = row[0], int(row[1])
        nets += 1
        # The hierarchy: dotted instance names before the net's own (nextpnr keeps yosys's
        # flattened names, `chip.core.eval.acc.q_a[12]`).
        parts = re.sub(r'\[[^\]]*\]', '', name).split('.')
        by_unit['.'.join(parts[:min(depth, max(1, len(parts) - 1))])] += over
        # The group: indices and yosys's numbered suffixes taken out.
        group = re.sub(r'\[\d+\]', '[]', name)
        group = re.sub(r'_\d+', '_N', group)
        by_group[group[:100]] += over
    total = sum(by_unit.values())
    print('%s: %d nets with overused wires, %d overused wire uses' % (path, nets, total))
    for title, table in (('by unit', by_unit), ('by net group', by_group)):
        print('\n%s:' % title)
        for key, n in table.most_common(rows):
            print('  %7d %5.1f%%  %s' % (n, 100.0 * n / max(total, 1), key))


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], *(int(a) for a in sys.argv[2:4]))

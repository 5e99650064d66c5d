#!/usr/bin/env python3
"""Which units sit where the routing is congested: reads a placed netlist (nextpnr's
`--write placed.json`, whose cells carry their sites in NEXTPNR_BEL) and one per-tile file of
router2's heatmap (`--router2-heatmap PREFIX` writes PREFIX_congestion_by_coordinate_N.csv
for iteration N: overused wires by tile, a row for each x and a column for each y), both of
the same netlist and placement (same JSON, seed and options). It prints, for blocks of
8 x 6 tiles, the hottest blocks and the units whose logic cells and flip-flops fill them,
and then each unit's share of the overuse, each block's overuse shared out by the unit's
share of its cells.

Unit: the instance path's first levels (chip.core.gen.stream ...), with DEPTH levels inside
chip.core.gen and chip.core.eval and one level below chip.core elsewhere.

usage: hw/synth/hotspots.py PLACED.json PREFIX_congestion_by_coordinate_N.csv [ROWS]
"""
import collections
import csv
import json
import re
import sys

BLOCK_X, BLOCK_Y = 8, 6
LOGIC = ('TRELLIS_COMB', 'TRELLIS_FF')


def unit_of(name):
    parts = re.sub(r'\[[^\]]*\]', '', name.lstrip('\\')).split('.')
    if parts[:2] == ['chip', 'core'] and len(parts) > 3 and parts[2] in ('gen', 'eval'):
        # A cell named after its net: keep the unit, drop the mapped suffix.
        return parts[2] + '.' + re.sub(r'_TRELLIS.*|_LUT4.*|_CCU2C.*', '', parts[3])
    if parts[:2] == ['chip', 'core'] and len(parts) > 2:
        return parts[2]
    return parts[1] if len(parts) > 1 else parts[0]


def main(placed, heat, rows=12):
    d = json.load(open(placed))
    top = next(m for m in d['modules'].values() if m.get('attributes', {}).get('top'))
    cells = collections.defaultdict(collections.Counter)
    total = collections.Counter()
    for name, c in top['cells'].items():
        bel = c.get('attributes', {}).get('NEXTPNR_BEL')
        if c['type'] not in LOGIC or not bel:
            continue
        m = re.match(r'X(\d+)/Y(\d+)/', bel)
        if not m:
            continue
        u = unit_of(name)
        cells[(int(m.group(1)) // BLOCK_X, int(m.group(2)) // BLOCK_Y)][u] += 1
        total[u] += 1
    if not total:
        sys.exit('%s: no placed cells (write it with --write after placement)' % placed)
    over = collections.Counter()
    for x, row in enumerate(csv.reader(open(heat))):
        for y, v in enumerate(row):
            if v.strip():
                over[(x // BLOCK_X, y // BLOCK_Y)] += int(v)
    all_over = sum(over.values())
    print('overused wires in all: %d; hottest blocks of %d x %d tiles:' % (all_over, BLOCK_X, BLOCK_Y))
    for (bx, by), v in over.most_common(rows):
        units = ', '.join('%s %d' % uv for uv in cells[(bx, by)].most_common(4))
        print('  x %3d-%3d y %3d-%3d  %5d (%4.1f%%)  %s' % (
            bx * BLOCK_X, bx * BLOCK_X + BLOCK_X - 1, by * BLOCK_Y, by * BLOCK_Y + BLOCK_Y - 1,
            v, 100.0 * v / max(all_over, 1), units))
    share = collections.Counter()
    for block, v in over.items():
        n = sum(cells[block].values())
        for u, k in cells[block].items():
            share[u] += v * k / n
    print('each unit\'s share of the overuse:')
    for u, v in share.most_common(rows * 2):
        print('  %-24s %5.1f%%  %6d cells' % (u, 100.0 * v / max(all_over, 1), total[u]))


if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], *(int(a) for a in sys.argv[3:4]))

#!/usr/bin/env python3
"""Floorplan of the evaluation unit's matrix on the LFE5U-85F: fixed sites for its multipliers
and weight RAM slices, written into the yosys netlist before nextpnr places the rest.

Left to itself the placer scatters the 16 multipliers of one row of cells over a whole DSP
row (and the weight slice that feeds them over another), so every stage of the matrix
pipeline crosses the device. Here row r of cells gets 16 neighbouring MULT18X18D sites (its
sums of 4 on four adjacent sites) and its weight slice the 4 block RAMs nearest them in the
next EBR row:

    DSP row Y10: cell rows 0, 1, 2   weight slices in EBR row Y22
    DSP row Y34: cell rows 3, 4, 5   weight slices in EBR row Y46
    DSP row Y58: cell rows 6, 7      weight slices in EBR row Y70

With --board (the ULX3S design, hw/synth.sh ulx3s) rows 6 and 7 take the right part of Y58
(sites 20-51 instead of 10-41), so that its left part stays free for the move generator, which
the placer puts on the device's left and whose routing is the board's most congested
(docs/results/hw-synthesis.md: it stalled lower that way at seed 2 on two netlists).

The sites are the 85F's (13 tile columns of 4 MULT18 and of 4 EBR in each row; nextpnr's
BEL names). Cells are found by the names yosys gives them (`mat.s3_prod[i]`: the product of
row i / 16, column i % 16; `mat.wslice[r].wram`), so the script works on the unit alone and
inside a larger design. nextpnr keeps a cell's `BEL` attribute as a fixed placement.

With --area-scale SPEC ("PREFIX=K;PREFIX=K") the netlist also carries the setting
`static/areaScale` for the patched nextpnr-ecp5 (hw/synth/nextpnr/build.sh): its static placer
counts the logic cells whose names start with PREFIX K times their area, so it spreads them
wider. The yowasp nextpnr-ecp5 keeps the setting and ignores it.

usage: hw/synth/floorplan.py [--board] [--area-scale SPEC] NETLIST.json
       (rewritten in place; prints what it fixed)
"""
import json
import re
import sys

# First tile column of each group of four sites, and the offsets and BEL suffixes in it.
GROUPS = [4, 13, 22, 31, 40, 49, 58, 69, 78, 87, 96, 105, 114]
DSP_SITES = [(x + dx, 'MULT18_%d' % s) for x in GROUPS for dx, s in ((0, 0), (1, 1), (4, 4), (5, 5))]
EBR_SITES = [(x + dx, 'EBR%d' % s) for x in GROUPS for dx, s in ((0, 0), (2, 1), (4, 2), (6, 3))]
# Cell row -> (DSP row, first site in it, EBR row).
PLAN = {0: (10, 2, 22), 1: (10, 18, 22), 2: (10, 34, 22),
        3: (34, 2, 46), 4: (34, 18, 46), 5: (34, 34, 46),
        6: (58, 10, 70), 7: (58, 26, 70)}
BOARD_PLAN = {**PLAN, 6: (58, 20, 70), 7: (58, 36, 70)}
COLS = 16


def area_scale(spec):
    """Checks SPEC ("PREFIX=K;..."; K a number from 0.5 to 4) and returns it."""
    for item in spec.split(';'):
        prefix, eq, k = item.partition('=')
        try:
            ok = eq and prefix and 0.5 <= float(k) <= 4
        except ValueError:
            ok = False
        if not ok:
            sys.exit('floorplan: --area-scale %r: expected PREFIX=K;... with K from 0.5 to 4' % item)
    return spec


def main(path, plan=PLAN, scale=None):
    d = json.load(open(path))
    top = next(m for m in d['modules'].values() if m.get('attributes', {}).get('top'))
    if scale:
        top.setdefault('settings', {})['static/areaScale'] = scale
        print('floorplan: static/areaScale = %s' % scale)
    cells = top['cells']
    fixed = {'MULT18X18D': 0, 'DP16KD': 0}
    slices = {}
    for name, c in cells.items():
        if c['type'] == 'MULT18X18D':
            m = re.search(r'mat\.s3_prod\[(\d+)\]', name)
            if not m:
                continue
            i = int(m.group(1))
            y, first, _ = plan[i // COLS]
            x, bel = DSP_SITES[first + i % COLS]
            c.setdefault('attributes', {})['BEL'] = 'X%d/Y%d/%s' % (x, y, bel)
            fixed['MULT18X18D'] += 1
        elif c['type'] == 'DP16KD':
            m = re.search(r'mat\.wslice\[(\d+)\]\.wram', name)
            if m:
                slices.setdefault(int(m.group(1)), []).append(name)
    for r, names in slices.items():
        y, first, ey = plan[r]
        # The EBR sites nearest the middle of the row's multipliers.
        mid = (DSP_SITES[first][0] + DSP_SITES[first + COLS - 1][0]) / 2
        near = sorted(EBR_SITES, key=lambda s: abs(s[0] - mid))[:len(names)]
        for name, (x, bel) in zip(sorted(names), sorted(near)):
            cells[name].setdefault('attributes', {})['BEL'] = 'X%d/Y%d/%s' % (x, ey, bel)
            fixed['DP16KD'] += 1
    json.dump(d, open(path, 'w'))
    print('floorplan: fixed %d MULT18X18D and %d DP16KD of the matrix' % (fixed['MULT18X18D'], fixed['DP16KD']))
    if fixed['MULT18X18D'] not in (0, 8 * COLS):
        sys.exit('floorplan: expected %d matrix multipliers' % (8 * COLS))


if __name__ == '__main__':
    args = sys.argv[1:]
    board = '--board' in args
    args = [a for a in args if a != '--board']
    scale = None
    if '--area-scale' in args:
        i = args.index('--area-scale')
        if i + 1 >= len(args):
            sys.exit(__doc__)
        scale = area_scale(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    main(args[0], BOARD_PLAN if board else PLAN, scale)

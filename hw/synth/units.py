#!/usr/bin/env python3
"""Where the board's logic goes: reads a yosys `stat` report of a hierarchical (-noflatten)
synth_ecp5 run and prints each module's own cells (not its submodules'), largest first, with
its share of the LUT4.

usage: hw/synth/units.py UNITS.stat
"""
import re
import sys

KINDS = ('LUT4', 'TRELLIS_FF', 'CCU2C', 'PFUMX', 'DP16KD', 'MULT18X18D')


def main(path):
    counts = {}
    module = None
    for line in open(path):
        m = re.match(r'=== (.*) ===', line.strip())
        if m:
            if m.group(1) == 'design hierarchy':
                break
            # A module with parameters is $paramod[$hash]\name\PARAM=...: its copies
            # (dup_reg of several widths) add up under the name.
            parts = m.group(1).split('\\')
            module = parts[1] if parts[0].startswith('$paramod') else parts[0]
            counts.setdefault(module, dict.fromkeys(KINDS, 0))
            continue
        m = re.match(r'\s+(\d+)\s+(\S+)$', line)
        if module and m and m.group(2) in KINDS:
            counts[module][m.group(2)] += int(m.group(1))
    if not counts:
        sys.exit('%s: no modules (a yosys stat report of a -noflatten run?)' % path)
    total = sum(c['LUT4'] for c in counts.values()) or 1
    print('%-34s %7s %6s %7s %6s %6s %5s %5s' % ('module', 'LUT4', 'share', 'FF', 'CCU2C', 'PFUMX', 'EBR', 'MULT'))
    for name, c in sorted(counts.items(), key=lambda kv: -kv[1]['LUT4']):
        print('%-34s %7d %5.1f%% %7d %6d %6d %5d %5d' % (
            name[:34], c['LUT4'], 100.0 * c['LUT4'] / total, c['TRELLIS_FF'], c['CCU2C'],
            c['PFUMX'], c['DP16KD'], c['MULT18X18D']))
    print('%-34s %7d' % ('all modules', total))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

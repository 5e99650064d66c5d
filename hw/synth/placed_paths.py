#!/usr/bin/env python3
"""Slowest register-to-register paths of a placed (unrouted) nextpnr-ecp5 design.

nextpnr-ecp5 0.11 reports only Fmax and a slack histogram after `--no-route`, no critical path.
This reads the placed netlist it writes with `--write placed.json` and times it the way its
placement estimate does: each net arc with nextpnr's ECP5 `predictDelay` (0.12 ns x (3 +
2 x min(d, 5) + max(d - 5, 0)) per axis from the cells' tile locations; carry, FXA/FXB and
LUT-to-own-FF arcs free) and each cell with rough -6 grade delays (LUT 0.40 ns, wide mux 0.25,
carry 0.06 a slice, clock-to-out 0.45, block RAM without output register 3.0). The absolute
numbers are approximate; the ranking and the net distances point at what the placer could not
bring together. Each hop names its net (yosys' shortest alias of it, which may belong to
another unit) and its driver cell's first source line, which says where the logic is.

usage: hw/synth/placed_paths.py placed.json [N paths]
"""
import collections
import json
import re
import sys

d = json.load(open(sys.argv[1]))
m = list(d['modules'].values())[0]
cells = m['cells']
names = {}
for n, v in m['netnames'].items():
    for i, b in enumerate(v['bits']):
        if isinstance(b, int) and (b not in names or len(n) < len(names[b][0])):
            names[b] = (n, i)


def loc(cn):
    bel = cells[cn].get('attributes', {}).get('NEXTPNR_BEL', '')
    mm = re.match(r'X(\d+)/Y(\d+)/(\w+)\.?(\w*)', bel)
    return (int(mm.group(1)), int(mm.group(2)), mm.group(3), mm.group(4)) if mm else (0, 0, '', '')


drv = {}
loads = collections.defaultdict(list)
for cn, c in cells.items():
    for p, bits in c['connections'].items():
        for b in bits:
            if not isinstance(b, int):
                continue
            if c['port_directions'].get(p) == 'output':
                drv[b] = (cn, p)
            else:
                loads[b].append((cn, p))


def arc(src, sp, dst, dp):
    """nextpnr-ecp5's predictDelay, in ns."""
    if (sp == 'FCO' and dp == 'FCI') or dp in ('FXA', 'FXB') or (sp == 'F' and dp == 'DI'):
        return 0.0
    a, b = loc(src), loc(dst)
    if a[:2] == b[:2] and dp in ('A', 'B', 'C', 'D'):
        if sp == 'Q' and a[2] == b[2] and a[3][-1:] == b[3][-1:]:
            return 0.0
        if sp == 'F':
            return 0.0
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return 0.12 * (3 + max(dx - 5, 0) + max(dy - 5, 0) + 2 * (min(dx, 5) + min(dy, 5)))


def cell_delay(t, ip, op, c):
    if t == 'TRELLIS_COMB':
        if ip == 'FCI':
            return 0.06 if op == 'FCO' else 0.3
        if ip in ('FXA', 'FXB', 'F1', 'M'):
            return 0.25
        return 0.55 if op == 'OFX' else 0.40
    if t == 'TRELLIS_RAMW':
        return 0.0
    return 0.3


COMB_IN = ('A', 'B', 'C', 'D', 'FCI', 'M', 'F1', 'FXA', 'FXB')


def constant(b):
    """A net driven by a LUT without inputs (nextpnr ignores it in timing)."""
    if b not in drv:
        return True
    c = cells[drv[b][0]]
    return c['type'] == 'TRELLIS_COMB' and not any(
        isinstance(x, int) for p in COMB_IN for x in c['connections'].get(p, []))


arr, prev = {}, {}


def net_arr(b):
    """Latest arrival at the driver output of net bit b, and its start."""
    if b in arr:
        return arr[b]
    arr[b] = None   # not clocked: a top-level input (out of context, untimed) or a constant
    if b not in drv:
        return None
    cn, p = drv[b]
    c = cells[cn]
    t = c['type']
    if t == 'TRELLIS_FF' or (t == 'DP16KD'):
        a = 0.45 if t == 'TRELLIS_FF' else (
            3.0 if c['parameters'].get('REGMODE_A', 'NOREG') == 'NOREG' else 1.0)
        arr[b] = a
        prev[b] = None
        return a
    best, pb = None, None
    for ip, bits in c['connections'].items():
        if c['port_directions'].get(ip) != 'input' or ip in ('WCK', 'CLK'):
            continue
        if t == 'TRELLIS_COMB' and ip in ('WD', 'WAD0', 'WAD1', 'WAD2', 'WAD3', 'WRE', 'DI0', 'DI1'):
            continue
        for x in bits:
            if not isinstance(x, int) or constant(x):
                continue
            sc, sp = drv[x]
            a = net_arr(x)
            if a is None:
                continue
            a += arc(sc, sp, cn, ip) + cell_delay(t, ip, p, c)
            if best is None or a > best:
                best, pb = a, (x, sc, sp, cn, ip)
    arr[b] = best
    prev[b] = pb
    return best


sys.setrecursionlimit(1000000)
ends = []
for cn, c in cells.items():
    t = c['type']
    for p, bits in c['connections'].items():
        if c['port_directions'].get(p) != 'input' or p in ('CLK', 'WCK', 'CLKA', 'CLKB'):
            continue
        if t == 'TRELLIS_FF' or t == 'DP16KD' or (t == 'TRELLIS_COMB' and p in ('WD', 'WAD0', 'WAD1', 'WAD2', 'WAD3', 'WRE')):
            for b in bits:
                if isinstance(b, int) and not constant(b) and net_arr(b) is not None:
                    sc, sp = drv[b]
                    ends.append((net_arr(b) + arc(sc, sp, cn, p) + 0.1, cn, p, b))
ends.sort(reverse=True)


def nm(b):
    n = names.get(b, ('?', 0))
    return '%s[%d]' % n


def src(cn):
    """The driver cell's first source line, as ' (file:line)' (yosys keeps it in `src`)."""
    s = cells[cn].get('attributes', {}).get('src', '')
    m = re.match(r'([^|:]+):(\d+)', s)
    return ' (%s:%s)' % (m.group(1).split('/')[-1], m.group(2)) if m else ''


def base(s):
    return re.split(r'_TRELLIS_FF|_LUT4|_PFUMX|_L6MUX|_CCU2C|_DP16KD|_TRELLIS_DPR|\$', s)[0]


print('endpoints by ns:', sorted(collections.Counter(int(e[0]) for e in ends).items()))
seen = set()
shown = 0
for a, cn, p, b in ends:
    key = base(cn)
    if key in seen:
        continue
    seen.add(key)
    shown += 1
    hops = []
    x = b
    while x is not None and prev.get(x) is not None:
        xb, sc, sp, dc, dp = prev[x]
        hops.append('%s@%d,%d%s' % (base(nm(xb).split('[')[0])[-40:], loc(sc)[0], loc(sc)[1], src(sc)))
        x = xb
    e = loc(cn)
    print('%.2f ns -> %s.%s @%d,%d (%d hops)' % (a, key, p, e[0], e[1], len(hops)))
    print('     ' + ' <- '.join(hops[:16]))
    if shown >= int(sys.argv[2] if len(sys.argv) > 2 else 25):
        break
print('==== by endpoint / start register ====')
groups = {}
for a, cn, p, b in ends:
    x = b
    st = b
    while x is not None and prev.get(x) is not None:
        x = prev[x][0]
        st = x
    k = (base(cn), base(nm(st).split('[')[0]))
    if k not in groups:
        groups[k] = [a, 0]
    groups[k][1] += 1
for k, v in sorted(groups.items(), key=lambda kv: -kv[1][0])[:40]:
    print('%.2f %4d  %s <- %s' % (v[0], v[1], k[0], k[1]))

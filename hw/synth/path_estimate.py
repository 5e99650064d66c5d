#!/usr/bin/env python3
"""Rough register-to-register path estimate over a yosys synth_ecp5 JSON netlist.

nextpnr-ecp5 0.11 prints a critical path only after routing, and routing the whole generator
takes longer than a working session on the shared machine; its placement estimate gives only
Fmax and a slack histogram. This walks the netlist instead, with a crude delay model (LUT4
0.38 ns, PFUMX/L6MUX 0.2 ns, carry 0.06 ns a CCU2C, DP16KD without output register 5.8 ns,
net 0.55 ns + 0.12 ns per doubling of fan-out), and lists the slowest endpoints grouped by
endpoint and start register. It ranks paths; it does not predict nextpnr's numbers (its
worst path was 11.4 ns where nextpnr placed v4 at 15.3 ns, and 11.3 ns where it placed a
v5 step at 11.7 ns). Names are yosys' derived net names: the register name comes first.

usage: hw/synth/path_estimate.py hw/synth/out/ecp5_estuary_movegen.json [N paths to print]
"""
import json, sys, math, collections
d = json.load(open(sys.argv[1]))
m = d['modules']['estuary_movegen']
names = {}
for n, v in m['netnames'].items():
    for i, b in enumerate(v['bits']):
        if isinstance(b, int):
            if b not in names or (n.count('_') < names[b][0].count('_')):
                names[b] = (n, i)
cells = m['cells']
drv = {}; loads = collections.defaultdict(list)
for cn, c in cells.items():
    for p, bits in c['connections'].items():
        dirn = c['port_directions'].get(p, 'input')
        for b in bits:
            if not isinstance(b, int): continue
            if dirn == 'output': drv[b] = (cn, p)
            else: loads[b].append((cn, p))
def netdelay(b):
    f = len(loads[b]); return 0.55 + 0.12 * math.log2(max(f, 1))
SEQ = {'TRELLIS_FF', 'DP16KD'}
def ctype(cn): return cells[cn]['type'].split('\\')[-1]
# arrival at each net bit
arr = {}; prev = {}
import sys as _s; _s.setrecursionlimit(100000)
def cell_arr(cn, outp):
    t = ctype(cn); c = cells[cn]
    if 'TRELLIS_FF' in t: return 0.45, None
    if t == 'DP16KD': return 5.8 if c['parameters'].get('REGMODE_A','NOREG') in ('NOREG',) else 1.0, None
    best = (-1, None)
    for p, bits in c['connections'].items():
        if c['port_directions'].get(p) != 'input': continue
        if 'TRELLIS_DPR16X4' in t and p not in ('RAD',): continue
        if t == 'CCU2C' and outp in ('S0','S1','COUT') : pass
        for b in bits:
            if not isinstance(b, int): continue
            a = net_arr(b)
            if t == 'CCU2C':
                dl = 0.06 if p == 'CIN' else 0.35
                if outp in ('S0', 'S1') and p == 'CIN': dl = 0.25
            elif t == 'LUT4': dl = 0.38
            elif t in ('PFUMX', 'L6MUX21'): dl = 0.2
            elif 'DPR16X4' in t: dl = 0.45
            else: dl = 0.3
            if a + dl > best[0]: best = (a + dl, b)
    return (max(best[0], 0.0), best[1])
def net_arr(b):
    if b in arr: return arr[b]
    if b not in drv: arr[b] = 0.0; prev[b] = None; return 0.0
    cn, p = drv[b]
    arr[b] = 0.0
    a, pb = cell_arr(cn, p)
    nd = 0.0 if (ctype(cn) == 'CCU2C' and p == 'COUT') else netdelay(b)
    arr[b] = a + nd; prev[b] = pb
    return arr[b]
ends = []
for cn, c in cells.items():
    t = ctype(cn)
    if 'TRELLIS_FF' in t or t == 'DP16KD' or 'DPR16X4' in t:
        for p, bits in c['connections'].items():
            if c['port_directions'].get(p) != 'input' or p in ('CLK', 'WCK', 'CLKA', 'CLKB'): continue
            for b in bits:
                if isinstance(b, int): ends.append((net_arr(b) + 0.1, cn, p, b))
ends.sort(reverse=True)
def nm(b): n = names.get(b, ('?', 0)); return '%s[%d]' % n
seen = set(); shown = 0
hist = collections.Counter(int(e[0]) for e in ends)
print('endpoints by ns:', sorted(hist.items()))
for a, cn, p, b in ends:
    key = nm(b).split('[')[0][:60]
    if key in seen: continue
    seen.add(key); shown += 1
    path = []; x = b
    while x is not None:
        path.append('%s(%.1f)' % (nm(x), arr.get(x, 0))); x = prev.get(x)
    print('%.2f ns  -> %s.%s' % (a, key, p))
    print('     ' + ' <- '.join(path[:14]))
    if shown >= int(sys.argv[2] if len(sys.argv) > 2 else 30): break
print('==== grouped by endpoint register / start register ====')
import re
def base(s): return re.split(r'_TRELLIS_FF|_LUT4|_PFUMX|_L6MUX|_CCU2C|_DP16KD|_TRELLIS_DPR', s)[0]
groups = {}
for a, cn, p, b in ends:
    x = b; st = None
    while x is not None:
        st = x; x = prev.get(x)
    k = (base(nm(b).split('[')[0]), base(nm(st).split('[')[0]))
    if k not in groups: groups[k] = [a, 0]
    groups[k][1] += 1
for k, v in sorted(groups.items(), key=lambda kv: -kv[1][0])[:60]:
    print('%.2f %4d  %s <- %s' % (v[0], v[1], k[0], k[1]))

#!/usr/bin/env python3
"""Self-test of match.py's fault detection: stand-in engines (fake_engine.py) that play an
illegal move, `0000`, `(none)` or no move at all, overrun their clock, hang or crash must each
lose the game, be counted under the right fault and make `--strict` exit with status 1; two
well-behaved ones must not. An engine whose clock is charged the device time it reports
(--device-time1) may overrun its clock in wall time without losing.

  ./run.sh --help >/dev/null && .venv/bin/python test_match.py     (about 40 s)
"""

import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = f"{sys.executable} {os.path.join(HERE, 'fake_engine.py')}"
FINAL = re.compile(r"Final: Games (\d+): .* time losses e1=(\d+) e2=(\d+)  illegal e1=(\d+) "
                   r"e2=(\d+)  crashes e1=(\d+) e2=(\d+)")


def match(fault, tc="2+0.05", games=2, extra1="", flags=()):
    e1 = FAKE + (f" --fault {fault}" if fault else "") + extra1
    p = subprocess.run([sys.executable, os.path.join(HERE, "match.py"), "--engine1", e1,
                        "--engine2", FAKE, "--games", str(games), "--tc", tc,
                        "--concurrency", "2", "--max-plies", "80", "--hang-timeout", "2",
                        "--strict", *flags], capture_output=True, text=True, timeout=120)
    m = FINAL.search(p.stdout)
    if not m:
        raise AssertionError(f"no summary:\n{p.stdout}\n{p.stderr}")
    games, *counts = map(int, m.groups())
    return p.returncode, games, dict(zip(["time1", "time2", "illegal1", "illegal2",
                                          "crash1", "crash2"], counts)), p.stdout


class Faults(unittest.TestCase):
    def expect(self, fault, counter, tc="2+0.05"):
        rc, games, counts, out = match(fault, tc)
        self.assertEqual(games, 2, out)
        want = {k: 0 for k in counts}
        want[counter] = 2
        self.assertEqual(counts, want, out)
        self.assertEqual(rc, 1, out)
        self.assertIn("score 0.0%", out)

    def test_healthy(self):
        rc, games, counts, out = match(None)
        self.assertEqual((rc, games, sum(counts.values())), (0, 2, 0), out)

    def test_illegal_move(self):
        self.expect("illegal", "illegal1")

    def test_null_move(self):
        self.expect("null", "illegal1")

    def test_no_move(self):
        self.expect("none", "illegal1")

    def test_garbage_move(self):
        self.expect("garbage", "illegal1")

    def test_clock_overrun(self):
        self.expect("slow", "time1", tc="1+0.01")

    def test_device_time_is_charged(self):
        # Slow in wall time from ply 70 on (a whole clock and more), but charged 10 us a move.
        rc, games, counts, out = match("slow", tc="1+0.01", extra1=" --at 70 --device-time",
                                       flags=("--device-time1",))
        self.assertEqual((rc, games, sum(counts.values())), (0, 2, 0), out)
        # Reporting no device time: charged the wall time, and loses on time.
        rc, games, counts, out = match("slow", tc="1+0.01", extra1=" --at 70",
                                       flags=("--device-time1",))
        self.assertEqual(counts["time1"], 2, out)
        self.assertIn("no device time reported", out)

    def test_hang(self):
        self.expect("hang", "time1", tc="1+0.01")

    def test_crash(self):
        self.expect("crash", "crash1")


if __name__ == "__main__":
    unittest.main()

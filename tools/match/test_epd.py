#!/usr/bin/env python3
"""Self-test of epd.py with the random mover (fake_engine.py): in a position with one legal
move the engine plays it, so a `bm` of that move is solved and an `am` of it is missed
whatever the engine; a suite line that is not EPD, or has no bm / am, is refused with its
line number.

  ./run.sh --help >/dev/null && .venv/bin/python test_epd.py     (a few seconds)
"""

import os
import subprocess
import sys
import tempfile
import unittest

import chess

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = f"{sys.executable} {os.path.join(HERE, 'fake_engine.py')}"
# White's king on a1 can only take the rook on b2.
ONLY = "k7/8/8/8/8/8/1r6/K7 w - -"


def run(suite_text, *extra):
    with tempfile.NamedTemporaryFile("w", suffix=".epd", delete=False) as f:
        f.write(suite_text)
    try:
        return subprocess.run([sys.executable, os.path.join(HERE, "epd.py"), "--suite", f.name,
                               "--nodes", "100", "--engine", FAKE, *extra],
                              capture_output=True, text=True, timeout=60)
    finally:
        os.unlink(f.name)


class Epd(unittest.TestCase):
    def test_one_legal_move(self):
        self.assertEqual([m.uci() for m in chess.Board(ONLY + " 0 1").legal_moves], ["a1b2"])
        p = run(f'{ONLY} bm Kxb2; id "solved";\n{ONLY} am Kxb2; id "missed";\n')
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(": 1/2 solved", p.stdout)

    def test_fails_file(self):
        with tempfile.NamedTemporaryFile("r", suffix=".txt") as fails:
            p = run(f'{ONLY} am Kxb2; id "missed";\n', "--fails", fails.name)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertTrue(fails.read().endswith("\tmissed\n"))

    def test_bad_suite(self):
        p = run(f'{ONLY} bm Kxb2;\nnot a position\n')
        self.assertNotEqual(p.returncode, 0)
        self.assertIn(":2: not an EPD position", p.stderr)
        p = run(f'{ONLY} id "x";\n')
        self.assertNotEqual(p.returncode, 0)
        self.assertIn(":1: no bm or am operation", p.stderr)


if __name__ == "__main__":
    unittest.main()

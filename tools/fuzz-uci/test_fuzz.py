#!/usr/bin/env python3
"""Tests of the fuzzer itself: transcripts round-trip, the protocol mirror agrees with the
engine's parsing, a well-behaved stand-in engine passes, and each broken stand-in
(fake_engine.py --fault) is caught with the right failure kind.

  python3 test_fuzz.py        (about a minute)
"""

import os
import random
import stat
import tempfile
import unittest

import fuzz
import grammar
import nets
import protocol
import session
import transcript

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = grammar.Corpus()
NETS = os.path.join(tempfile.gettempdir(), f"estuary-fuzz-uci-nets-{os.getuid()}")
SCRATCH = tempfile.TemporaryDirectory(prefix="fuzz-uci-test-")  # removed at exit


def fake(fault=None):
    """An executable that starts fake_engine.py with `fault`."""
    path = os.path.join(SCRATCH.name, f"fake-{fault or 'ok'}")
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\nexec python3 {os.path.join(HERE, 'fake_engine.py')} "
                f"{'--fault ' + fault if fault else ''} \"$@\"\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


def run_sessions(engine, n, seed, shape=None, stop_at_failure=True):
    kinds = []
    for i in range(n):
        steps, _ = fuzz.build(seed, i, CORPUS, shape)
        o = session.run(steps, [engine, "uci"], session.Deadlines(), NETS)
        kinds += [f.kind for f in o.failures]
        if kinds and stop_at_failure:
            break
    return kinds


class Transcripts(unittest.TestCase):
    def test_round_trip(self):
        rng = random.Random(3)
        for i in range(200):
            steps, _ = fuzz.build("rt", i, CORPUS)
            steps.append(transcript.Send(bytes(rng.getrandbits(8) for _ in range(40))
                                         .replace(b"\n", b""), raw=rng.random() < 0.5))
            steps.append(transcript.Send(b"\\x41 # @sleep  "))
            steps.append(transcript.Send(b""))
            self.assertEqual(transcript.loads(transcript.dumps(steps, ["header"])), steps)


class Protocol(unittest.TestCase):
    def test_commands_split_as_the_engine_does(self):
        self.assertEqual(protocol.command(b"  isready \r"), ("isready", ""))
        self.assertEqual(protocol.command("\u3000go\u00a0depth 3 ".encode()),
                         ("go", "depth 3"))
        # U+001F is whitespace to Python, not to Rust.
        self.assertEqual(protocol.command(b"\x1fisready"), ("\x1fisready", ""))
        self.assertEqual(protocol.command(b"go \xff"), ("go", "\ufffd"))

    def test_go_parameters_as_go_rs(self):
        lim = protocol.parse_go("wtime -5 btime 0 winc 10 binc 20 movestogo 1 depth 7 "
                                "nodes 1000 movetime 50 mate 3 infinite ponder searchmoves "
                                "e2e4 d2d4")
        self.assertEqual((lim.wtime, lim.btime, lim.depth, lim.searchmoves), (-5, 0, 7, 2))
        self.assertTrue(lim.infinite and lim.ponder)
        for bad in ["depth x", "depth", "foo", "perft 3", "movetime 99999999999999999999",
                    "depth 2.5", "depth \u0663"]:
            self.assertIsNone(protocol.parse_go(bad), bad)
        self.assertEqual(protocol.parse_go("depth +2").depth, 2)

    def test_bounds(self):
        b = protocol.search_bound
        self.assertIsNone(b(protocol.parse_go("")))
        self.assertIsNone(b(protocol.parse_go("wtime 100")))  # clock of one side only
        self.assertAlmostEqual(b(protocol.parse_go("movetime 50 depth 3")), 0.05)
        self.assertAlmostEqual(b(protocol.parse_go("wtime 100 btime 300")), 0.3)
        self.assertGreater(b(protocol.parse_go("mate 3")), 10)


class Judgement(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        nets.write_nets(NETS)

    def test_a_well_behaved_engine_passes(self):
        self.assertEqual(run_sessions(fake(), 120, "ok", stop_at_failure=False), [])

    def caught(self, fault, expected, shape=None, n=80):
        kinds = run_sessions(fake(fault), n, "bad-" + fault, shape)
        self.assertTrue(kinds, f"{fault}: no failure found")
        self.assertIn(kinds[0], expected, f"{fault}: {kinds}")

    def test_panic(self):
        self.caught("panic", {"panic"})

    def test_deaf_mid_search(self):
        self.caught("deaf", {"readyok-timeout"}, "interleave")

    def test_search_that_never_ends(self):
        self.caught("no-bestmove", {"bestmove-timeout"}, "game")

    def test_stop_ignored(self):
        # ucinewgame waits for the search: the next isready goes unanswered.
        self.caught("ignore-stop", {"stop-timeout", "exit-timeout", "readyok-timeout"},
                    "interleave")

    def test_quit_ignored(self):
        self.caught("no-exit", {"exit-timeout"}, "game")

    def test_bestmove_twice(self):
        self.caught("twice", {"bestmove-extra"}, "game")

    def test_silent_exit(self):
        self.caught("vanish", {"early-exit"}, "game")


if __name__ == "__main__":
    unittest.main()

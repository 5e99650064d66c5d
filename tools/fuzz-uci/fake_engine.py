#!/usr/bin/env python3
"""A stand-in UCI engine for testing the fuzzer's judgement (test_fuzz.py): it follows the
same rules as crates/uci (refusals included) and "searches" by sleeping, and with --fault it
breaks one rule on purpose:

  panic        on `go`, writes a Rust-style panic message and exits with status 101
  deaf         stops answering isready while a search runs
  no-bestmove  a search that ends by itself never reports
  ignore-stop  `stop` (and quit, ucinewgame) does not end a search early
  no-exit      `quit` answers nothing and the process stays
  twice        every bestmove is written twice
  vanish       exits silently (status 0) on `ucinewgame`

Usage: fake_engine.py [--fault NAME] uci
"""

import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol import command, parse_go  # noqa: E402

FAULT = sys.argv[sys.argv.index("--fault") + 1] if "--fault" in sys.argv else None
lock = threading.Lock()


def say(line):
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


class Search:
    def __init__(self):
        self.thread = None
        self.stop = threading.Event()
        self.ponder = False

    def running(self):
        return self.thread is not None and self.thread.is_alive()

    def start(self, lim):
        self.stop.clear()
        self.ponder = lim.ponder
        seconds = 0.01
        if lim.movetime is not None:
            seconds = max(lim.movetime, 1) / 1000
        elif lim.depth is not None or lim.nodes is not None:
            seconds = 0.005
        # A bare go (or one clock only) runs until stop, like the engine's.
        bare = not (lim.movetime is not None or lim.depth is not None or lim.nodes is not None
                    or lim.mate is not None or (lim.wtime is not None and lim.btime is not None))

        def run():
            end = time.monotonic() + seconds
            while True:
                if self.stop.is_set() and FAULT != "ignore-stop":
                    break
                held = lim.infinite or self.ponder or bare
                if not held and time.monotonic() >= end and FAULT != "no-bestmove":
                    break
                time.sleep(0.001)
            self.stop.set()
            say("bestmove e2e4")
            if FAULT == "twice":
                say("bestmove e2e4")

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def halt(self):
        self.stop.set()

    def wait(self):
        if self.thread:
            self.thread.join()


def main():
    search = Search()
    while True:
        raw = sys.stdin.buffer.readline()
        if not raw:
            break
        cmd = command(raw.rstrip(b"\n"))
        if cmd is None:
            break
        word, rest = cmd
        if word == "uci":
            say("id name Fake")
            say("uciok")
        elif word == "isready":
            if FAULT == "deaf" and search.running():
                continue
            say("readyok")
        elif word == "go":
            if FAULT == "panic":
                sys.stderr.write("thread 'main' panicked at crates/uci/src/lib.rs:1:1:\n"
                                 "fake panic\n")
                sys.exit(101)
            if search.running() and search.stop.is_set():
                search.wait()
            if search.running():
                say("info string error: already searching; send stop first")
                continue
            lim = parse_go(rest)
            if lim is None:
                say(f"info string error: unknown go parameter '{rest}'")
                continue
            search.start(lim)
        elif word == "stop":
            search.halt()
        elif word == "ponderhit":
            search.ponder = False
        elif word == "ucinewgame":
            if FAULT == "vanish":
                sys.exit(0)
            search.halt()
            search.wait()
        elif word == "quit":
            if FAULT == "no-exit":
                time.sleep(3600)
            search.halt()
            search.wait()
            return
        elif word:
            say(f"info string error: unknown command '{word}'")
    search.halt()
    search.wait()


if __name__ == "__main__":
    main()

"""The engine process of one session: input written with a time limit (an engine that stops
reading must not hang the fuzzer), output lines read on their own threads and time-stamped.
"""

import os
import select
import subprocess
import threading
import time

from protocol import BESTMOVE, GO_REJECTIONS


class Engine:
    def __init__(self, argv):
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0)
        os.set_blocking(self.proc.stdin.fileno(), False)
        self.cond = threading.Condition()
        self.out = []  # (seconds since start, line without newline)
        self.err = bytearray()
        self.readyok = 0
        self.uciok = 0
        self.bestmoves = []  # arrival times
        self.bad_bestmoves = []
        self.rejections = 0
        self.rejection_times = []
        self.eof = False  # stdout closed
        self.readers = [threading.Thread(target=self._read_out, daemon=True),
                        threading.Thread(target=self._read_err, daemon=True)]
        for r in self.readers:
            r.start()

    def now(self):
        return time.monotonic() - self.t0

    def _read_out(self):
        for raw in iter(self.proc.stdout.readline, b""):
            line = raw.rstrip(b"\r\n")
            with self.cond:
                t = self.now()
                self.out.append((t, line))
                if line == b"readyok":
                    self.readyok += 1
                elif line == b"uciok":
                    self.uciok += 1
                elif line.startswith(b"bestmove"):
                    self.bestmoves.append(t)
                    if not BESTMOVE.match(line):
                        self.bad_bestmoves.append(line)
                elif line.startswith(GO_REJECTIONS):
                    self.rejections += 1
                    self.rejection_times.append(t)
                self.cond.notify_all()
        with self.cond:
            self.eof = True
            self.cond.notify_all()

    def _read_err(self):
        for chunk in iter(lambda: self.proc.stderr.read(4096), b""):
            with self.cond:
                self.err.extend(chunk)

    def wait_for(self, predicate, timeout):
        """Waits until `predicate()` (called under the lock) holds; false on timeout."""
        with self.cond:
            return self.cond.wait_for(predicate, timeout)

    def write(self, data, timeout):
        """Writes all of `data`; false when the engine has not taken it within `timeout`
        seconds or its input is closed."""
        fd = self.proc.stdin.fileno()
        end = time.monotonic() + timeout
        view = memoryview(data)
        while view:
            left = end - time.monotonic()
            if left <= 0:
                return False
            _, ready, _ = select.select([], [fd], [], left)
            if not ready:
                continue
            try:
                n = os.write(fd, view)
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                return False
            view = view[n:]
        return True

    def close_input(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def alive(self):
        return self.proc.poll() is None

    def wait_exit(self, timeout):
        try:
            self.proc.wait(timeout)
            return True
        except subprocess.TimeoutExpired:
            return False

    def kill(self):
        if self.alive():
            self.proc.kill()
            self.proc.wait()

    def finish(self):
        """Kills the process if it still runs and collects the rest of its output."""
        self.kill()
        self.close_input()
        for r in self.readers:
            r.join(5)
        for f in (self.proc.stdout, self.proc.stderr):
            f.close()
        return self.proc.returncode

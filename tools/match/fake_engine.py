#!/usr/bin/env python3
"""A random-mover UCI engine for testing match.py (test_match.py); with --fault it breaks a
rule once the game reaches ply --at (default 10, after the 6-ply openings):

  illegal   answers a move that is not legal (its king onto one of its own pieces)
  null      answers `bestmove 0000` although it has legal moves
  none      answers `bestmove (none)` although it has legal moves
  garbage   answers `bestmove xyz`
  slow      answers only after its whole clock (plus 300 ms) has gone
  hang      never answers
  crash     exits with status 1 instead of answering

With --device-time it reports, before each answer, the device time a stand-in for a modelled
chip would: `info string chip nodes 1 clocks 1000 (0.0 ms at 100 MHz)` (10 microseconds).

Needs python-chess (run it with the match tool's .venv python).
"""

import argparse
import random
import sys
import time

import chess


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fault")
    ap.add_argument("--at", type=int, default=10)
    ap.add_argument("--device-time", action="store_true")
    args, _ = ap.parse_known_args()
    rng = random.Random(1)
    board = chess.Board()

    def say(s):
        sys.stdout.write(s + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        toks = line.split()
        if not toks:
            continue
        cmd = toks[0]
        if cmd == "uci":
            say("id name Fake")
            say("uciok")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "position":
            rest = line.split(None, 1)[1]
            spec, _, moves = rest.partition(" moves ")
            board = chess.Board() if spec.strip() == "startpos" else \
                chess.Board(spec.strip()[4:].strip())
            for m in moves.split():
                board.push_uci(m)
        elif cmd == "go":
            clock = {"wtime": None, "btime": None}
            for k in clock:
                if k in toks:
                    clock[k] = int(toks[toks.index(k) + 1])
            mine = clock["wtime" if board.turn == chess.WHITE else "btime"]
            fault = args.fault if board.ply() >= args.at else None
            if fault == "crash":
                sys.exit(1)
            if fault == "hang":
                time.sleep(3600)
            if fault == "slow":
                time.sleep((mine or 1000) / 1000 + 0.3)
            legal = list(board.legal_moves)
            move = rng.choice(legal).uci() if legal else "0000"
            if fault == "illegal":
                k = board.king(board.turn)
                own = [t for t in chess.SQUARES if t != k and board.color_at(t) == board.turn]
                move = chess.Move(k, own[0]).uci()
            elif fault == "null":
                move = "0000"
            elif fault == "none":
                move = "(none)"
            elif fault == "garbage":
                move = "xyz"
            if args.device_time:
                say("info string chip nodes 1 clocks 1000 (0.0 ms at 100 MHz)")
            say(f"bestmove {move}")
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()

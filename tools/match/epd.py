#!/usr/bin/env python3
"""Solve rate of UCI engines on an EPD test suite: each position's `bm` (best move: one of
them played) or `am` (avoid move: none of them played), at a node or time budget a move.
A benchmark, not a pass/fail test (../shared/data/README.md): it prints the count each
engine solved, side by side, in one run.

  tools/match/run.sh is the match tool; this runs in its venv:
  tools/match/.venv/bin/python tools/match/epd.py --suite ../shared/data/chess/wac.epd \
      --nodes 30000 --engine "estuary uci" --engine "estuary uci --device chip-model" \
      --option2 "SDRAM Table=true"

Engines run one after the other, each in one process for the whole suite (its table and
history carry over from position to position, as in a game); `ucinewgame` is not sent.
--fails FILE writes the ids of the positions each engine missed (`engine<TAB>id`).
"""

import argparse
import shlex
import sys

import chess
import chess.engine

import match  # beside this file: its option parser


def parse_suite(path):
    """The suite's positions as (id, board, best moves, avoid moves); exits with a message
    naming the line for a line that is not EPD or has neither `bm` nor `am`."""
    out = []
    with open(path) as f:
        for no, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                board, ops = chess.Board.from_epd(line)
            except ValueError as err:
                sys.exit(f"{path}:{no}: not an EPD position: {err}")
            bm, am = ops.get("bm", []), ops.get("am", [])
            if not bm and not am:
                sys.exit(f"{path}:{no}: no bm or am operation")
            out.append((str(ops.get("id", f"line {no}")), board, set(bm), set(am)))
    if not out:
        sys.exit(f"{path}: no positions")
    return out


def parse_options(items):
    """match.py's option parser, after refusing an item that is not NAME=VALUE."""
    for item in items or []:
        if "=" not in item:
            sys.exit(f"option {item!r}: expected NAME=VALUE")
    return match.parse_options(items)


def solve(cmd, options, suite, limit, fails):
    """Plays the suite's positions on one engine; returns the count solved."""
    try:
        engine = chess.engine.SimpleEngine.popen_uci(shlex.split(cmd))
    except Exception as err:  # the engine did not start or did not speak UCI
        sys.exit(f"{cmd}: failed to start: {type(err).__name__} {err}")
    solved = 0
    try:
        if options:
            engine.configure(options)
        for pid, board, bm, am in suite:
            try:
                move = engine.play(board, limit).move
            except chess.engine.EngineError as err:
                sys.exit(f"{cmd}: position {pid}: {err}")
            except chess.engine.EngineTerminatedError:
                sys.exit(f"{cmd}: died at position {pid}")
            ok = move is not None and (not bm or move in bm) and move not in am
            solved += ok
            if not ok and fails is not None:
                fails.write(f"{cmd}\t{pid}\n")
    finally:
        try:
            engine.quit()
        except chess.engine.EngineTerminatedError:
            pass
    return solved


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", required=True, help="EPD file with bm / am operations")
    ap.add_argument("--engine", action="append", required=True, help="UCI command (repeatable)")
    for i in range(1, 5):
        ap.add_argument(f"--option{i}", action="append", help=f"NAME=VALUE for engine {i}")
    budget = ap.add_mutually_exclusive_group(required=True)
    budget.add_argument("--nodes", type=int, help="nodes a move")
    budget.add_argument("--movetime", type=float, help="seconds a move")
    ap.add_argument("--fails", help="write the missed positions' ids here")
    args = ap.parse_args()
    if len(args.engine) > 4:
        sys.exit("at most 4 engines")
    if args.nodes is not None and args.nodes < 1 or args.movetime is not None and args.movetime <= 0:
        sys.exit("the budget must be positive")
    suite = parse_suite(args.suite)
    limit = chess.engine.Limit(nodes=args.nodes) if args.nodes else chess.engine.Limit(time=args.movetime)
    fails = open(args.fails, "w") if args.fails else None
    try:
        for i, cmd in enumerate(args.engine, 1):
            opts = parse_options(getattr(args, f"option{i}"))
            n = solve(cmd, opts, suite, limit, fails)
            print(f"{cmd}: {n}/{len(suite)} solved", flush=True)
    finally:
        if fails:
            fails.close()


if __name__ == "__main__":
    main()

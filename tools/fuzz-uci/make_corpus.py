#!/usr/bin/env python3
"""Writes corpus.txt, the legal positions and move sequences the UCI fuzzer draws from.

The fuzzer itself needs only the Python standard library; this generator uses python-chess to
play random legal games and list legal moves. Run it through the match tool's environment:

  ../match/run.sh --help >/dev/null   # creates ../match/.venv with python-chess
  ../match/.venv/bin/python make_corpus.py > corpus.txt

Each line is `kind<TAB>fen<TAB>moves<TAB>moves960<TAB>legal`: the start position, a legal
move sequence from it (UCI, standard castling notation), the same sequence in Chess960
notation (king takes rook; `=` when identical), and the legal moves at its end.
`kind` is `game` (standard chess), `game960` (a Chess960 start, moves in king-takes-rook
notation only) or `fen` (a position worth searching as it is: mate, stalemate, fifty-move
counter, en passant, promotions, 218 legal moves...).
"""

import random
import sys

import chess

# Positions searched as they are. Each is checked by python-chess (a FEN it rejects stops the
# script: the fuzzer's broken FENs live in grammar.py).
SPECIAL_FENS = [
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",  # White is mated
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",  # mate in 1
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",  # mate in 1
    "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",  # mate in 2
    "1k5r/pP3ppp/3p2b1/1BN1n3/1Q2P3/P1B5/KP3P1P/7q w - - 1 0",  # mate in 3
    "8/8/8/4k3/8/8/8/4K3 w - - 0 1",  # bare kings
    "8/8/8/4k3/8/8/8/3NK3 w - - 0 1",  # KN v K
    "8/8/8/4k3/8/8/R7/4K3 w - - 99 80",  # fifty-move rule on the next ply
    "8/8/8/4k3/8/8/R7/4K3 b - - 100 80",
    "8/8/8/4k3/8/8/R7/4K3 w - - 150 1",
    "8/8/8/4k3/8/8/R7/4K3 w - - 65535 65535",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",  # en passant
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 1",  # en passant pinned along the rank
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",  # perft position 3
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  # kiwipete
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",  # perft position 4
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",  # perft position 5
    "8/P1P3k1/8/8/8/8/1p3pK1/8 w - - 0 1",  # promotions both sides
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",  # promotions with captures
    "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",  # 218 legal moves
    "3k4/3P4/3K4/8/8/8/8/8 b - - 0 1",  # stalemate with a pawn
    "4k3/8/8/8/8/8/8/r3K2R w K - 0 1",  # castling through nothing, rook attacked
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "8/8/1k6/8/2pP4/8/8/3K4 b - d3 0 1",  # en passant capture available to Black
    "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",  # one legal move
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",  # mate in 1 on the edge
    "8/8/8/8/8/5k2/5p2/5K2 w - - 0 1",  # no legal move? (stalemate)
    "7k/8/8/8/8/8/8/K6q w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",  # Black to move at the start
]

# Chess960 starts (Shredder-FEN castling letters, from the Chess960 perft suite).
FENS_960 = [
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
    "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "rkrnbqnb/pppppppp/8/8/8/8/PPPPPPPP/RKRNBQNB w CAca - 0 1",
    "rknbrqnb/pppppppp/8/8/8/8/PPPPPPPP/RKNBRQNB w EAea - 0 1",
]


def random_game(rng, board, plies, capture_bias):
    """Plays up to `plies` random legal moves (preferring captures, promotions and castling
    with probability `capture_bias`) and returns the moves."""
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        sharp = [m for m in legal if board.is_capture(m) or m.promotion or board.is_castling(m)]
        m = rng.choice(sharp if sharp and rng.random() < capture_bias else legal)
        moves.append(m)
        board.push(m)
    return moves


def line(kind, start, moves, chess960):
    board = chess.Board(None if start == "startpos" else start, chess960=chess960)
    if start == "startpos":
        board.reset()
    std, c960 = [], []
    for m in moves:
        std.append(board.uci(m, chess960=False))
        c960.append(board.uci(m, chess960=True))
        board.push(m)
    legal = " ".join(board.uci(m, chess960=chess960) for m in board.legal_moves)
    s960 = "=" if c960 == std else " ".join(c960)
    return "\t".join([kind, start, " ".join(std), s960, legal])


def main():
    rng = random.Random(17)
    out = []
    for i in range(48):
        b = chess.Board()
        plies = rng.choice([8, 20, 40, 80, 160, 300])
        out.append(line("game", "startpos", random_game(rng, b, plies, rng.choice([0.0, 0.5, 0.9])), False))
    for fen in SPECIAL_FENS:
        b = chess.Board(fen)
        if not b.is_valid():
            sys.exit(f"invalid special FEN: {fen} ({b.status()})")
        out.append(line("fen", fen, [], False))
        if not b.is_game_over():
            moves = random_game(rng, b, rng.choice([4, 12, 40]), 0.5)
            out.append(line("game", fen, moves, False))
    for fen in FENS_960:
        b = chess.Board(fen, chess960=True)
        if not b.is_valid():
            sys.exit(f"invalid Chess960 FEN: {fen} ({b.status()})")
        moves = random_game(rng, b, rng.choice([10, 30, 80]), 0.7)
        out.append(line("game960", fen, moves, True))
    print("# Generated by make_corpus.py; see its docstring for the format.")
    print("\n".join(out))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Engine-vs-engine matches over UCI with python-chess.

Each opening is played twice with colours reversed. Clocks are kept here (time + increment,
losses on time are scored), games go to a PGN file, and the summary gives the score, Elo with a
95% error bar, LOS and, when --sprt is given, the log-likelihood ratio of a GSPRT.

Run through ./run.sh, which creates the virtual environment with python-chess first.
Example (Estuary against Stockfish limited to 1800 Elo):

  ./run.sh --engine1 ../../target/release/estuary --engine2 /usr/games/stockfish \
      --option2 UCI_LimitStrength=true --option2 UCI_Elo=1800 --option2 Threads=1 \
      --games 40 --tc 5+0.05 --concurrency 1 --pgn ladder.pgn
"""

import argparse
import concurrent.futures as cf
import math
import random
import shlex
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn

# Short, balanced opening lines (SAN), each played with both colours.
OPENINGS = [
    "e4 e5 Nf3 Nc6 Bb5 a6", "e4 e5 Nf3 Nc6 Bc4 Bc5", "e4 e5 Nf3 Nf6 Nxe5 d6", "e4 e5 Nf3 Nc6 d4 exd4",
    "e4 e5 Nc3 Nf6 f4 d5", "e4 c5 Nf3 d6 d4 cxd4", "e4 c5 Nf3 Nc6 d4 cxd4", "e4 c5 Nf3 e6 d4 cxd4",
    "e4 c5 Nc3 Nc6 g3 g6", "e4 c5 c3 Nf6 e5 Nd5", "e4 e6 d4 d5 Nc3 Bb4", "e4 e6 d4 d5 Nd2 c5",
    "e4 e6 d4 d5 e5 c5", "e4 c6 d4 d5 Nc3 dxe4", "e4 c6 d4 d5 e5 Bf5", "e4 d5 exd5 Qxd5 Nc3 Qa5",
    "e4 d6 d4 Nf6 Nc3 g6", "e4 Nf6 e5 Nd5 d4 d6", "e4 g6 d4 Bg7 Nc3 d6", "d4 d5 c4 e6 Nc3 Nf6",
    "d4 d5 c4 c6 Nf3 Nf6", "d4 d5 c4 dxc4 Nf3 Nf6", "d4 Nf6 c4 e6 Nc3 Bb4", "d4 Nf6 c4 e6 Nf3 b6",
    "d4 Nf6 c4 g6 Nc3 Bg7", "d4 Nf6 c4 g6 Nc3 d5", "d4 Nf6 c4 c5 d5 e6", "d4 Nf6 c4 e6 g3 d5",
    "d4 d5 Nf3 Nf6 Bf4 e6", "d4 f5 g3 Nf6 Bg2 g6", "c4 e5 Nc3 Nf6 Nf3 Nc6", "c4 c5 Nc3 Nc6 g3 g6",
    "c4 Nf6 Nc3 e6 e4 d5", "Nf3 d5 g3 Nf6 Bg2 c6", "Nf3 Nf6 c4 b6 g3 Bb7", "g3 d5 Bg2 Nf6 Nf3 c6",
    "b3 e5 Bb2 Nc6 e3 Nf6", "f4 d5 Nf3 Nf6 e3 g6", "e4 e5 f4 exf4 Nf3 g5", "d4 d5 e4 dxe4 Nc3 Nf6",
]


def parse_options(items):
    opts = {}
    for it in items or []:
        name, _, value = it.partition("=")
        v = value
        if value.lower() in ("true", "false"):
            v = value.lower() == "true"
        else:
            try:
                v = int(value)
            except ValueError:
                pass
        opts[name] = v
    return opts


def parse_tc(tc):
    base, _, inc = tc.partition("+")
    return float(base), float(inc or 0)


class Result:
    def __init__(self):
        self.lock = threading.Lock()
        self.w = self.d = self.l = 0
        self.time_losses = [0, 0]
        self.pairs = []  # pentanomial-free: per-game scores for engine1

    def add(self, score, time_loss_by=None):
        with self.lock:
            if score == 1:
                self.w += 1
            elif score == 0:
                self.l += 1
            else:
                self.d += 1
            if time_loss_by is not None:
                self.time_losses[time_loss_by] += 1

    @property
    def n(self):
        return self.w + self.d + self.l


def elo_from_score(s):
    s = min(max(s, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / s - 1)


def summary(r):
    n = r.n
    if n == 0:
        return "no games"
    s = (r.w + 0.5 * r.d) / n
    # Trinomial variance of a game's score.
    var = (r.w * (1 - s) ** 2 + r.d * (0.5 - s) ** 2 + r.l * (0 - s) ** 2) / n
    se = math.sqrt(var / n) if n > 1 else 0.5
    lo, hi = s - 1.96 * se, s + 1.96 * se
    elo = elo_from_score(s)
    err = (elo_from_score(min(hi, 0.999999)) - elo_from_score(max(lo, 0.000001))) / 2
    los = 0.5 * (1 + math.erf((r.w - r.l) / math.sqrt(2 * (r.w + r.l)))) if r.w + r.l else 0.5
    return (f"Games {n}: +{r.w} ={r.d} -{r.l}  score {100 * s:.1f}%  "
            f"Elo {elo:+.1f} +/- {err:.1f} (95%)  LOS {100 * los:.1f}%  "
            f"time losses e1={r.time_losses[0]} e2={r.time_losses[1]}")


def sprt_llr(r, elo0, elo1):
    """Log-likelihood ratio of the GSPRT (normal approximation, trinomial)."""
    n = r.n
    if n == 0 or r.w + r.l == 0:
        return 0.0
    s = (r.w + 0.5 * r.d) / n
    var = (r.w * (1 - s) ** 2 + r.d * (0.5 - s) ** 2 + r.l * s ** 2) / n
    if var <= 0:
        return 0.0
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    return (s1 - s0) * (2 * s - s0 - s1) * n / (2 * var)


def move_comment(info, used):
    """cutechess-style comment: the mover's last score (White's view, pawns) / depth, then the
    seconds the move took, e.g. `+0.35/14 0.412s`; `+M5` / `-M3` for mate scores."""
    parts = []
    score = info.get("score")
    if score is not None:
        pov = score.pov(chess.WHITE)
        if pov.is_mate():
            m = pov.mate()
            text = f"+M{m}" if m > 0 else f"-M{-m}"
        else:
            text = f"{pov.score() / 100:+.2f}"
        depth = info.get("depth")
        parts.append(f"{text}/{depth}" if depth is not None else text)
    parts.append(f"{used:.3f}s")
    return " ".join(parts)


def play_game(args, idx, opening, e1_white, result, pgn_lock, pgn_file):
    base, inc = parse_tc(args.tc)
    cmds = [args.engine1, args.engine2]
    opts = [parse_options(args.option1), parse_options(args.option2)]
    names = [args.name1 or cmds[0].split("/")[-1], args.name2 or cmds[1].split("/")[-1]]
    engines = []
    try:
        for c, o in zip(cmds, opts):
            e = chess.engine.SimpleEngine.popen_uci(shlex.split(c))
            if o:
                e.configure(o)
            engines.append(e)
        board = chess.Board()
        for san in opening.split():
            board.push_san(san)
        # engine index playing white/black
        white, black = (0, 1) if e1_white else (1, 0)
        clocks = {chess.WHITE: base, chess.BLACK: base}
        game = chess.pgn.Game()
        game.headers["Event"] = f"match {args.tc}"
        game.headers["Round"] = str(idx + 1)
        game.headers["White"] = names[white]
        game.headers["Black"] = names[black]
        game.headers["TimeControl"] = f"{base:g}+{inc:g}"
        node = game
        for mv in board.move_stack:
            node = node.add_variation(mv)
        termination = None
        time_loser = None
        while not board.is_game_over(claim_draw=True) and board.ply() < args.max_plies:
            side = board.turn
            eng = engines[white if side == chess.WHITE else black]
            if args.nodes:
                limit = chess.engine.Limit(nodes=args.nodes)
            else:
                limit = chess.engine.Limit(white_clock=max(clocks[chess.WHITE], 0.001), black_clock=max(clocks[chess.BLACK], 0.001),
                                           white_inc=inc, black_inc=inc)
            t0 = time.monotonic()
            res = eng.play(board, limit, info=chess.engine.INFO_BASIC | chess.engine.INFO_SCORE)
            used = time.monotonic() - t0
            clocks[side] -= used
            if clocks[side] < 0 and not args.nodes:
                termination = "time forfeit"
                time_loser = side
                break
            clocks[side] += inc
            if res.move is None:
                termination = "no move"
                time_loser = side
                break
            board.push(res.move)
            node = node.add_variation(res.move, comment=move_comment(res.info, used))
        if time_loser is not None:
            res_str = "0-1" if time_loser == chess.WHITE else "1-0"
        elif board.ply() >= args.max_plies and not board.is_game_over(claim_draw=True):
            res_str = "1/2-1/2"
            termination = "max plies"
        else:
            res_str = board.result(claim_draw=True)
        game.headers["Result"] = res_str
        if termination:
            game.headers["Termination"] = termination
        if res_str == "1/2-1/2":
            score = 0.5
        else:
            white_won = res_str == "1-0"
            score = 1 if white_won == e1_white else 0
        loser_idx = None
        if time_loser is not None:
            loser_idx = white if time_loser == chess.WHITE else black
        result.add(score, loser_idx)
        with pgn_lock:
            if pgn_file:
                print(game, file=pgn_file, end="\n\n")
                pgn_file.flush()
        return score
    finally:
        for e in engines:
            try:
                e.quit()
            except Exception:
                pass


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine1", required=True)
    ap.add_argument("--engine2", required=True)
    ap.add_argument("--name1")
    ap.add_argument("--name2")
    ap.add_argument("--option1", action="append", help="NAME=VALUE for engine 1 (repeatable)")
    ap.add_argument("--option2", action="append", help="NAME=VALUE for engine 2 (repeatable)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--tc", default="10+0.1", help="seconds+increment")
    ap.add_argument("--nodes", type=int, help="fixed nodes a move instead of a clock (load-independent)")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--pgn")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"))
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--log", help="write the UCI traffic (python-chess debug log) to this file")
    args = ap.parse_args()
    if args.log:
        import logging
        logging.basicConfig(filename=args.log, level=logging.DEBUG, format="%(asctime)s %(message)s")

    rng = random.Random(args.seed)
    openings = OPENINGS[:]
    rng.shuffle(openings)
    schedule = [(i, openings[(i // 2) % len(openings)], i % 2 == 0) for i in range(args.games)]
    result = Result()
    pgn_lock = threading.Lock()
    pgn_file = open(args.pgn, "a") if args.pgn else None
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    stop = threading.Event()

    def job(item):
        if stop.is_set():
            return
        i, op, e1w = item
        play_game(args, i, op, e1w, result, pgn_lock, pgn_file)
        line = summary(result)
        if args.sprt:
            llr = sprt_llr(result, *args.sprt)
            line += f"  LLR {llr:.2f} [{lower:.2f}, {upper:.2f}]"
            if llr >= upper or llr <= lower:
                stop.set()
                line += "  SPRT: " + ("H1 accepted" if llr >= upper else "H0 accepted")
        print(line, flush=True)

    with cf.ThreadPoolExecutor(max_workers=args.concurrency) as ex:
        list(ex.map(job, schedule))
    print("Final: " + summary(result))
    if pgn_file:
        pgn_file.close()


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Engine-vs-engine matches over UCI with python-chess.

Each opening is played twice with colours reversed. Clocks are kept here (time + increment,
losses on time are scored), games go to a PGN file, and the summary gives the score, Elo with a
95% error bar, LOS and, when --sprt is given, the log-likelihood ratio of a GSPRT.

Faults of an engine lose the game and are counted and reported, each as it happens: a loss on
time (its clock ran out, or it gave no answer within --hang-timeout seconds past its clock), an
illegal move (a move that is not legal, `0000` or `(none)` when it has legal moves, or text
that is no move), a crash or disconnect (the process died, would not start, or did not quit
cleanly: no exit within 10 s of `quit`, or a non-zero exit status). With --strict the exit
status is 1 when any occurred (see reliability.sh).

Run through ./run.sh, which creates the virtual environment with python-chess first.
Example (Estuary against Stockfish limited to 1800 Elo):

  ./run.sh --engine1 ../../target/release/estuary --engine2 /usr/games/stockfish \
      --option2 UCI_LimitStrength=true --option2 UCI_Elo=1800 --option2 Threads=1 \
      --games 40 --tc 5+0.05 --concurrency 1 --pgn ladder.pgn

An engine that models hardware slower than the hardware would run (`estuary uci --device
chip-model` with `Wall Clock` off) plays at its projected speed with --device-time1/2: its
clock is charged the device time it reports for each move (the last `info string ... clocks C
(... at M MHz)` before `bestmove`: C / M microseconds), not the wall time; it may take up to
--device-slowdown times its clock plus --hang-timeout in wall time before it is called hung.

reliability.sh runs the engine against itself this way and fails on any fault; test_match.py
checks the fault detection against stand-in engines (fake_engine.py).
"""

import argparse
import asyncio
import re
import concurrent.futures as cf
import math
import random
import shlex
import sys
import threading
import time
import traceback

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
        self.illegal = [0, 0]
        self.crashes = [0, 0]
        self.errors = 0  # games the match tool itself failed on
        self.pairs = []  # pentanomial-free: per-game scores for engine1

    def add(self, score):
        with self.lock:
            if score == 1:
                self.w += 1
            elif score == 0:
                self.l += 1
            else:
                self.d += 1

    def flag(self, engine, kind, message):
        """Counts a fault of engine `engine` (0 or 1): kind `time`, `illegal` or `crash`."""
        with self.lock:
            {"time": self.time_losses, "illegal": self.illegal, "crash": self.crashes}[kind][
                engine] += 1
            print(message, flush=True)

    def faults(self):
        return sum(self.time_losses) + sum(self.illegal) + sum(self.crashes) + self.errors

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
            f"time losses e1={r.time_losses[0]} e2={r.time_losses[1]}  "
            f"illegal e1={r.illegal[0]} e2={r.illegal[1]}  "
            f"crashes e1={r.crashes[0]} e2={r.crashes[1]}"
            + (f"  match errors {r.errors}" if r.errors else ""))


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


DEVICE_TIME = re.compile(r"clocks (\d+) \(.* at (\d+) MHz\)")


def device_seconds(info):
    """The device time a move took, from the engine's last `info string` (`... clocks C (...
    at M MHz)`), in seconds; None when it reported none."""
    m = DEVICE_TIME.search(info.get("string", ""))
    return int(m.group(1)) / (int(m.group(2)) * 1e6) if m else None


def play_move(eng, board, limit, timeout):
    """Asks `eng` for a move in `board`. Returns (PlayResult, None), or (None, (kind,
    message)) with kind `illegal` (not a legal move; also `0000` or `(none)` with legal moves
    left, and text that is no move), `hang` (no answer within `timeout` seconds) or `crash`
    (the process died). SimpleEngine.play with a timeout for clock limits, which it lacks."""
    coro = asyncio.wait_for(
        eng.protocol.play(board, limit, info=chess.engine.INFO_BASIC | chess.engine.INFO_SCORE),
        timeout)
    future = asyncio.run_coroutine_threadsafe(coro, eng.protocol.loop)
    try:
        res = future.result()
    except TimeoutError:
        return None, ("hang", f"no bestmove within {timeout:.1f} s")
    except chess.engine.EngineTerminatedError as e:
        return None, ("crash", str(e))
    except chess.engine.EngineError as e:
        return None, ("illegal", f"bestmove not legal: {e}")
    if not res.move or res.move not in board.legal_moves:
        text = res.move.uci() if res.move is not None else "(none)"
        return None, ("illegal", f"bestmove {text} is not legal in {board.fen()}")
    return res, None


def close_engine(e, name, idx, result, quit_cleanly):
    """Quits (or, after a fault, kills) an engine; a failed quit or a non-zero exit status
    counts as a crash."""
    if quit_cleanly:
        try:
            e.quit()
            rc = e.protocol.returncode
            if rc.done() and rc.result() != 0:
                result.flag(idx, "crash", f"{name}: exit status {rc.result()} after quit")
        except chess.engine.EngineTerminatedError as err:
            result.flag(idx, "crash", f"{name}: died at quit ({err})")
        except Exception as err:
            result.flag(idx, "crash", f"{name}: did not quit ({type(err).__name__} {err})")
    try:
        e.close()
    except Exception:
        pass


def play_game(args, idx, opening, e1_white, result, pgn_lock, pgn_file):
    base, inc = parse_tc(args.tc)
    cmds = [args.engine1, args.engine2]
    opts = [parse_options(args.option1), parse_options(args.option2)]
    names = [args.name1 or cmds[0].split("/")[-1], args.name2 or cmds[1].split("/")[-1]]
    engines = [None, None]
    faulty = [False, False]
    device = [args.device_time1, args.device_time2]
    try:
        # engine index playing white/black
        white, black = (0, 1) if e1_white else (1, 0)
        for i, (c, o) in enumerate(zip(cmds, opts)):
            try:
                engines[i] = chess.engine.SimpleEngine.popen_uci(shlex.split(c))
                if o:
                    engines[i].configure(o)
            except Exception as err:
                faulty[i] = True
                result.flag(i, "crash", f"game {idx + 1}: {names[i]} failed to start: "
                            f"{type(err).__name__} {err}")
        if any(faulty):
            # Nothing to play: the engine that failed loses (a draw if both did).
            result.add(0.5 if all(faulty) else (0 if faulty[0] else 1))
            return None
        board = chess.Board()
        for san in opening.split():
            board.push_san(san)
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
        loser = None  # the side that lost by a fault
        while not board.is_game_over(claim_draw=True) and board.ply() < args.max_plies:
            side = board.turn
            mover = white if side == chess.WHITE else black
            colour = "white" if side == chess.WHITE else "black"
            if args.nodes:
                limit = chess.engine.Limit(nodes=args.nodes)
                timeout = args.hang_timeout
            else:
                limit = chess.engine.Limit(white_clock=max(clocks[chess.WHITE], 0.001), black_clock=max(clocks[chess.BLACK], 0.001),
                                           white_inc=inc, black_inc=inc)
                timeout = max(clocks[side], 0) + args.hang_timeout
                if device[mover]:
                    timeout = max(clocks[side], 0) * args.device_slowdown + args.hang_timeout
            t0 = time.monotonic()
            res, fault = play_move(engines[mover], board, limit, timeout)
            used = time.monotonic() - t0
            who = f"game {idx + 1}, move {board.fullmove_number}: {names[mover]} ({colour})"
            if fault is not None:
                kind, message = fault
                faulty[mover] = True
                loser = side
                termination = {"hang": "time forfeit", "illegal": "rules infraction",
                               "crash": "abandoned"}[kind]
                result.flag(mover, "time" if kind == "hang" else kind, f"{who}: {message}")
                node.comment = f"{names[mover]}: {message}"
                break
            if device[mover]:
                seconds = device_seconds(res.info)
                if seconds is None:
                    print(f"{who}: no device time reported; charged the wall time", flush=True)
                else:
                    used = seconds
            clocks[side] -= used
            if clocks[side] < 0 and not args.nodes:
                termination = "time forfeit"
                loser = side
                result.flag(mover, "time", f"{who}: lost on time, {used:.3f} s used with "
                            f"{clocks[side] + used:.3f} s on the clock")
                break
            clocks[side] += inc
            board.push(res.move)
            node = node.add_variation(res.move, comment=move_comment(res.info, used))
        if loser is not None:
            res_str = "0-1" if loser == chess.WHITE else "1-0"
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
        result.add(score)
        with pgn_lock:
            if pgn_file:
                print(game, file=pgn_file, end="\n\n")
                pgn_file.flush()
        return score
    finally:
        for i, e in enumerate(engines):
            if e is not None:
                close_engine(e, f"game {idx + 1}: {names[i]}", i, result, not faulty[i])


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
    ap.add_argument("--hang-timeout", type=float, default=5.0,
                    help="seconds past its clock (or a whole move with --nodes: 60 at least) "
                         "an engine may take to answer before it loses on time and is killed")
    ap.add_argument("--device-time1", action="store_true",
                    help="charge engine 1 the device time it reports, not the wall time")
    ap.add_argument("--device-time2", action="store_true",
                    help="charge engine 2 the device time it reports, not the wall time")
    ap.add_argument("--device-slowdown", type=float, default=10.0,
                    help="with --device-time1/2: how many times its clock an engine may take in "
                         "wall time (plus --hang-timeout) before it loses as hung")
    ap.add_argument("--strict", action="store_true",
                    help="exit status 1 when any game had a time loss, illegal move or crash")
    args = ap.parse_args()
    if args.nodes:
        args.hang_timeout = max(args.hang_timeout, 60.0)
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
        try:
            play_game(args, i, op, e1w, result, pgn_lock, pgn_file)
        except Exception:
            with result.lock:
                result.errors += 1
                print(f"game {i + 1}: match tool error\n{traceback.format_exc()}", flush=True)
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
    if args.strict and result.faults():
        print(f"FAILED: {result.faults()} fault(s) (time losses, illegal moves, crashes or "
              "match errors)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

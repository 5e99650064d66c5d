"""Random sessions from a grammar of UCI commands.

The commands and option names are the engine's own (crates/uci/src/lib.rs `handle` and
`setoption`, go.rs), each also in broken forms. Positions come from corpus.txt (legal games,
special positions and their legal moves, see make_corpus.py) or are broken on purpose.
Searches are kept short (small depths, nodes and move times) so a session lasts a fraction
of a second.

Session shapes:
- game: what a GUI does (uci, options, ucinewgame, position/go/bestmove in turn, quit);
- interleave: searches with commands sent during them (isready, position, go, stop,
  ponderhit, setoption, ucinewgame, quit, end of input) and commands with no search to act on;
- garbage: grammar commands mixed with unknown words, empty, long, truncated and binary lines.
Mutations of these are in mutate.py.
"""

import os

from transcript import Eof, Send, Sleep, Wait

HERE = os.path.dirname(os.path.abspath(__file__))

STARTPOS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

BROKEN_FENS = [
    "",
    "8/8/8/8/8/8/8/8 w - - 0 1",  # no kings
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1",  # two white kings
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",  # ep on the wrong rank
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",  # fine, for contrast
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 70000 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 abc",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",  # 7 ranks
    "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # 9 ranks
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
    "Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # pawn on the last rank
    "4k3/8/8/8/8/8/R7/4K3 b - - 0 1",
    "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",  # side not to move in check
    "4k3/8/5N2/1B6/8/8/4R3/4K3 b - - 0 1",  # triple check
    "QQQQQQQQ/QQQQQQQQ/8/8/k7/8/8/K7 w - - 0 1",  # 17 white pieces
    "4k3/8/8/8/8/8/8/4K2R w Q - 0 1",  # castling right with no rook
    "4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1",  # black rights, no black rooks
    "4k3/8/8/8/8/8/8/R3K2R w AHah - 0 1",
    "4k3/8/8/8/8/8/8/RR2K2R w KQBA - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw\tKQkq\t-\t0\t1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 65536",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kqKQ - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - \u00bd 1",
    "//////// w - - 0 1",
    "8/8/8/8/8/8/8/8",
    "k7/8/8/8/8/8/8/K7 w - a3 0 1",
    "k7/8/8/8/8/8/8/K7 w - h6 0 1",  # ep square with no pawn
]

BAD_MOVES = ["e2e5", "e7e5", "e1g1", "e1c1", "e8g8", "a1a1", "e2e4e5", "e2", "e", "z9z9",
             "0000", "e7e8k", "e2e4q", "E2E4", "e2-e4", "O-O", "Nf3", "a7a8q", "h2h1n", "i2i4",
             "e0e1", "\u00e92e4", "moves", "startpos", "fen", "-", "e2e4\x00"]

OPTIONS = {
    # name: (valid values, bogus values)
    "Hash": (["1", "2", "4", "8", "16", "32", "64"],
             ["0", "65537", "-1", "99999999999999999999", "16MB", "", "abc", "1.5", "+8"]),
    "Threads": (["1", "1", "2", "3", "4"], ["0", "257", "-2", "many", "", "2.0"]),
    "MultiPV": (["1", "1", "2", "3", "4", "5", "8", "256"], ["0", "257", "x", "-3"]),
    "Move Overhead": (["0", "10", "50", "100", "1000", "5000"], ["5001", "-1", "abc", ""]),
    "Ponder": (["true", "false"], ["yes", "1", "", "TRUE", "False"]),
    "UCI_Chess960": (["true", "false"], ["on", "0", "", "True"]),
    "Clear Hash": ([None], ["now", "true"]),
    "Use NNUE": (["true", "false"], ["maybe", ""]),
    "EvalFile": (["<embedded>", "{nets}/real.nnue", "{nets}/random.nnue",
                  "{nets}/random-hybrid.nnue", "{nets}/extreme-max.nnue",
                  "{nets}/extreme-min.nnue", "{nets}/flipped.nnue", "{nets}/zero.nnue"],
                 ["{nets}/short.nnue", "{nets}/truncated.nnue", "{nets}/long.nnue",
                  "{nets}/bad-magic.nnue", "{nets}/bad-shape.nnue", "{nets}/empty.nnue",
                  "{nets}/missing.nnue", "{nets}", "/dev/null", "", "<embedded> ",
                  "{nets}/real.nnue value {nets}/random.nnue"]),
}
BOGUS_OPTIONS = ["Hashh", "Style", "Skill Level", "UCI_Elo", "SyzygyPath", "name", "value",
                 "", "Threads Hash", "Contempt", "UCI_AnalyseMode", "OwnBook"]

UNKNOWN_WORDS = ["hello", "go!", "isready?", "ISREADY", "Uci", "position!", "perft 3", "bench",
                 "flip", "help", "xboard", "protover 2", "new", "usi", "usinewgame", "?",
                 "setoptions name Hash value 1", "stopp", "quitt", "register later",
                 "register name Estuary code 1234", "register", "debug", "debug on",
                 "debug off", "debug maybe", "d", "eval", "position startposs", "go go",
                 "ucinewgame now", "stop now", "isready now", "uci uci"]

UNICODE_BITS = ["\u00e9", "\u2603", "\u3000", "\u00a0", "\u2028", "\u0085", "\x1c", "\x1f",
                "\u200b", "\ufeff", "\U0001f600", "\x00", "\x07", "\x1b[31m", "\r", "\t",
                "\x0b", "\x0c", "\x7f"]

GO_WORDS = ["wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate",
            "movetime", "infinite", "ponder", "searchmoves", "perft"]


class Corpus:
    def __init__(self, path=os.path.join(HERE, "corpus.txt")):
        self.entries = []
        with open(path) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                kind, fen, moves, moves960, legal = line.rstrip("\n").split("\t")
                moves = moves.split()
                self.entries.append({
                    "kind": kind, "fen": fen, "moves": moves,
                    "moves960": moves if moves960 == "=" else moves960.split(),
                    "legal": legal.split(),
                })


class Grammar:
    """Builds sessions; `rng` is a random.Random, so a seed gives the same sessions."""

    def __init__(self, rng, corpus):
        self.rng = rng
        self.corpus = corpus
        self.chess960 = False
        self.known_legal = ["e2e4", "d2d4", "g1f3", "b1c3"]  # moves legal in the position set

    # -- small pieces -------------------------------------------------------------------------

    def pick(self, items):
        return self.rng.choice(items)

    def chance(self, p):
        return self.rng.random() < p

    def number(self, lo, hi):
        """An integer in [lo, hi], small values likelier (log-uniform)."""
        if lo >= 1:
            return int(round(lo * (hi / lo) ** self.rng.random()))
        return self.rng.randint(lo, hi)

    def spaces(self):
        return self.pick([" "] * 12 + ["  ", "\t", " \t "])

    # -- commands ------------------------------------------------------------------------------

    def setoption(self, name=None, value=None):
        r = self.rng
        if name is None:
            name = self.pick(list(OPTIONS) * 3 + BOGUS_OPTIONS)
        if value is None:
            valid, bogus = OPTIONS.get(name, ([None, "1", "true"], ["x"]))
            value = self.pick(valid if self.chance(0.75) else bogus)
        if name == "UCI_Chess960" and value == "true":
            self.chess960 = True
        elif name == "UCI_Chess960" and value == "false":
            self.chess960 = False
        shown = name
        if self.chance(0.1):
            shown = self.pick([name.lower(), name.upper(), name.replace(" ", "  ")])
        s = self.spaces
        if value is None:
            line = f"setoption{s()}name {shown}"
        else:
            line = f"setoption{s()}name {shown} value {value}"
        if self.chance(0.08):
            line = self.pick([
                f"setoption {shown} value {value}", "setoption", "setoption name",
                f"setoption value {value} name {shown}", f"setoption name {shown} value",
                f"setoption name {shown} value {value} value {value}",
                f"setoption name value {value}", f"setoption  name  {shown}  value  {value}  ",
            ])
        return line

    def moves_of(self, entry):
        if entry["kind"] == "game960" or (self.chess960 and entry["moves960"] != entry["moves"]):
            return entry["moves960"]
        return entry["moves"]

    def position(self):
        """A `position` line (with the setoption lines it needs first)."""
        r = self.rng
        pre = []
        if self.chance(0.08):
            return pre, self.broken_position()
        if self.chance(0.04):
            # A long history of knight moves back and forth (repetitions, fifty-move counter,
            # a game far longer than any search stack).
            n = self.pick([2, 3, 10, 60, 250, 600])
            cycle = "g1f3 g8f6 f3g1 f6g8"
            tail = " g1f3" if self.chance(0.5) else ""
            self.known_legal = ["e2e4", "d2d4"] if not tail else ["e7e5", "d7d5"]
            return pre, f"position startpos moves {' '.join([cycle] * n)}{tail}"
        e = self.pick(self.corpus.entries)
        if e["kind"] == "game960" and not self.chess960 and self.chance(0.9):
            pre.append(self.setoption("UCI_Chess960", "true"))
        moves = self.moves_of(e)
        k = len(moves) if self.chance(0.4) else r.randint(0, len(moves))
        used = moves[:k]
        self.known_legal = e["legal"] if k == len(moves) else [moves[k]]
        s = self.spaces
        head = "startpos" if e["fen"] == "startpos" and self.chance(0.9) else \
            f"fen{s()}{STARTPOS if e['fen'] == 'startpos' else e['fen']}"
        if self.chance(0.1) and used:
            i = r.randrange(len(used) + 1)
            used = used[:i] + [self.pick(BAD_MOVES + moves)] + used[i:]
            self.known_legal = []
        if used or self.chance(0.1):
            return pre, f"position{s()}{head}{s()}moves{s()}{' '.join(used)}".rstrip(" ")
        return pre, f"position{s()}{head}"

    def broken_position(self):
        self.known_legal = []
        r = self.rng
        form = r.randrange(6)
        if form == 0:
            return f"position fen {self.pick(BROKEN_FENS)}"
        if form == 1:
            return f"position fen {self.mutated_fen()}"
        if form == 2:
            return self.pick(["position", "position startpos moves", "position fen",
                              "position moves e2e4", "position startpos e2e4",
                              "position startpos moves e2e4 moves e7e5", "position fen moves",
                              "position startposmoves e2e4", "position STARTPOS",
                              "position fen startpos", "position startpos fen " + STARTPOS])
        if form == 3:
            e = self.pick(self.corpus.entries)
            head = "startpos" if e["fen"] == "startpos" else f"fen {e['fen']}"
            bad = " ".join(self.pick(BAD_MOVES) for _ in range(r.randint(1, 3)))
            return f"position {head} moves {' '.join(self.moves_of(e)[:r.randint(0, 6)])} {bad}"
        if form == 4:
            # A legal game with standard castling while Chess960 is on or the reverse.
            e = self.pick([e for e in self.corpus.entries if e["moves960"] != e["moves"]])
            moves = e["moves"] if self.chess960 else e["moves960"]
            head = "startpos" if e["fen"] == "startpos" else f"fen {e['fen']}"
            return f"position {head} moves {' '.join(moves)}"
        return f"position fen {STARTPOS} moves " + " ".join(
            self.pick(BAD_MOVES + ["e2e4", "e7e5", "g1f3"]) for _ in range(r.randint(1, 5)))

    def mutated_fen(self):
        r = self.rng
        e = self.pick([e for e in self.corpus.entries if e["fen"] != "startpos"])
        fields = e["fen"].split(" ")
        op = r.randrange(5)
        if op == 0:
            del fields[r.randrange(len(fields))]
        elif op == 1:
            fields.insert(r.randrange(len(fields) + 1), self.pick(fields))
        elif op == 2:
            i, j = r.randrange(len(fields)), r.randrange(len(fields))
            fields[i], fields[j] = fields[j], fields[i]
        fen = " ".join(fields)
        if op >= 3 and fen:
            chars = list(fen)
            for _ in range(r.randint(1, 3)):
                chars[r.randrange(len(chars))] = self.pick("pnbrqkPNBRQK12345678/ -wb0e3Kq")
            fen = "".join(chars)
        return fen

    def go(self, kind=None):
        """A `go` line. `kind`: bounded (ends by itself), open (ends with stop: infinite,
        ponder, bare), or None for any, broken forms included."""
        r = self.rng
        if kind is None:
            kind = self.pick(["bounded"] * 7 + ["open"] * 2 + ["broken"])
        params = []
        if kind == "broken":
            return self.pick([
                "go depth", "go depth x", "go nodes -5", "go movetime", "go foo", "go perft 3",
                "go movetime 99999999999999999999", "go wtime 10 btime", "go depth 3 depth",
                "go searchmoves e2e5", "go searchmoves", "go depth 2 searchmoves e2e4 e2e4",
                "go mate", "go winc 10", "go movestogo 5 depth", "go depth 2.5",
                "go depth 2 nodes 100 movetime 10 wtime 10 btime 10 winc 1 binc 1 movestogo 1",
                "go depth -3", "go depth 0", "go nodes 0", "go mate 0 nodes 1000",
                "go mate -1 depth 2", "go movestogo 0 wtime 100 btime 100",
                "go movestogo 4294967296 wtime 100 btime 100",
                "go wtime 9223372036854775807 btime 9223372036854775807 movetime 20",
                "go wtime -9223372036854775808 btime -9223372036854775808",
                "go wtime 100 btime 100 winc 9223372036854775807 binc 9223372036854775807",
                "go movetime -9223372036854775808", "go nodes 9223372036854775807 depth 2",
                "go depth 9223372036854775807 nodes 2000", "go mate 4294967296 nodes 500",
                "go depth +2", "go depth 02", "go DEPTH 2", "go depth 2 ponder ponder",
            ])
        if kind == "open":
            form = r.randrange(5)
            if form == 0:
                params = ["infinite"]
            elif form == 1:
                params = ["ponder"] + self.clocks()
            elif form == 2:
                params = ["ponder"] + self.pick([["depth", str(self.number(1, 6))],
                                                 ["movetime", str(self.number(1, 100))],
                                                 ["infinite"], []])
            elif form == 3:
                params = []  # bare go: no limit at all
            else:
                params = ["infinite"] + self.pick([["depth", "3"], ["mate", "3"],
                                                   ["nodes", "1000"], ["searchmoves"] +
                                                   self.searchmoves()])
        else:
            chosen = r.sample(["depth", "nodes", "movetime", "clocks", "mate"],
                              r.choice([1, 1, 1, 2, 2, 3]))
            if "mate" in chosen and not {"nodes", "movetime", "clocks"} & set(chosen):
                # The mate solver with no node or time limit takes 2M nodes (many seconds):
                # only now and then.
                chosen.append(self.pick(["nodes", "movetime", "clocks"]) if self.chance(0.99)
                              else "depth")
            for c in chosen:
                if c == "depth":
                    params += ["depth", str(self.number(1, 6) if self.chance(0.95)
                                            else r.randint(7, 9))]
                elif c == "nodes":
                    params += ["nodes", str(self.number(1, 20000))]
                elif c == "movetime":
                    params += ["movetime", str(self.pick([-10, 0, 1, 5]) if self.chance(0.1)
                                               else self.number(10, 120))]
                elif c == "clocks":
                    params += self.clocks(both=True)
                elif c == "mate":
                    params += ["mate", str(r.randint(1, 5))]
        if self.chance(0.15):
            params += ["searchmoves"] + self.searchmoves()
        if self.chance(0.1):
            r.shuffle(params)  # keywords out of order (numbers may now be missing)
        return "go" + "".join(self.spaces() + p for p in params)

    def clocks(self, both=None):
        r = self.rng
        out = []
        if both is None:
            both = self.chance(0.9)
        sides = ["w", "b"] if both else [self.pick(["w", "b"])]
        for side in sides:
            t = self.pick([-100, 0, 1, 10]) if self.chance(0.1) else self.number(20, 1500)
            out += [f"{side}time", str(t)]
            if self.chance(0.6):
                out += [f"{side}inc", str(self.pick([0, 1, 10, 30, 100]))]
        if self.chance(0.3):
            out += ["movestogo", str(self.pick([0, 1, 2, 5, 20, 40, 60]))]
        return out

    def searchmoves(self):
        r = self.rng
        legal = self.known_legal
        if legal and self.chance(0.8):
            return r.sample(legal, min(len(legal), r.randint(1, 4)))
        return [self.pick(BAD_MOVES[:12] + ["e2e4", "d2d4", "g1f3"])
                for _ in range(r.randint(1, 3))]

    def any_command(self):
        """One command of any kind, as a GUI or a confused user might send it."""
        r = self.rng
        w = r.random()
        if w < 0.15:
            return self.go()
        if w < 0.3:
            pre, line = self.position()
            return line
        if w < 0.45:
            return self.setoption()
        return self.pick(["uci", "isready", "ucinewgame", "stop", "ponderhit", "quit",
                          "debug on", "debug off", "d", "eval", "isready", "isready",
                          "register later", "stop", "ucinewgame"] + UNKNOWN_WORDS)

    def garbage(self):
        """An unknown, empty, long, truncated or binary line (bytes)."""
        r = self.rng
        form = r.randrange(9)
        if form == 0:
            return self.pick(UNKNOWN_WORDS).encode()
        if form == 1:
            return self.pick([b"", b" ", b"\t", b"   \t  ", b"\r", b"\x0b\x0c"])
        if form == 2:
            unit = self.pick(["a", "go ", "isready ", "e2e4 ", "\u2603", "position startpos "])
            return (unit * r.randint(1000, 30000)).encode()[: r.randint(5000, 200000)]
        if form == 3:
            line = self.any_command().encode()
            return line[: r.randrange(len(line) + 1)]
        if form == 4:
            return "".join(self.pick(UNICODE_BITS + list("abcxyz 0123")) for _ in
                           range(r.randint(1, 40))).encode()
        if form == 5:
            # A real command wrapped in Unicode whitespace (Rust's trim removes some of it).
            cmd = self.pick(["isready", "stop", "uci", "go depth 1", "ucinewgame"])
            return (self.pick(UNICODE_BITS) + cmd + self.pick(UNICODE_BITS)).encode()
        if form == 6:
            return (self.any_command() + self.pick(["\r", " \r", "\x00", " junk"])).encode()
        if form == 7 and self.chance(0.15):
            # Not UTF-8: the engine's line reader stops there as at end of input.
            return bytes(r.getrandbits(8) for _ in range(r.randint(1, 60))).replace(b"\n", b"")
        return bytes(self.pick(list(range(0x20, 0x7f)) + [0, 9, 13, 27]) for _ in
                     range(r.randint(1, 80)))

    # -- sessions ------------------------------------------------------------------------------

    def session(self, shape=None):
        """Steps of one session; `shape` is game, interleave or garbage (random if None)."""
        self.chess960 = False
        shape = shape or self.pick(["game"] * 4 + ["interleave"] * 4 + ["garbage"] * 2)
        steps = getattr(self, "_" + shape)()
        return [Send(s.encode()) if isinstance(s, str) else s for s in steps]

    def _sleep(self):
        return Sleep(self.pick([0, 1, 2, 5, 10, 20, 40]))

    def _ending(self, steps):
        w = self.rng.random()
        if w < 0.6:
            steps.append("quit")
        elif w < 0.7:
            steps.append(Eof())
        elif w < 0.75:
            steps += [Send(self.pick([b"quit", b"isready", b"stop", b"go depth 1"]), raw=True),
                      Eof()]
        return steps  # otherwise the runner's epilogue (isready, stop, quit)

    def _game(self):
        r = self.rng
        steps = []
        if self.chance(0.9):
            steps.append("uci")
        for _ in range(r.choice([0, 0, 1, 2, 3])):
            steps.append(self.setoption())
        steps.append("isready")
        for _ in range(r.randint(1, 4)):
            if self.chance(0.7):
                steps.append("ucinewgame")
            if self.chance(0.5):
                steps.append("isready")
            for _ in range(r.randint(1, 3)):
                pre, line = self.position()
                steps += pre + [line]
                if self.chance(0.15):
                    steps.append(self.pick(["d", "eval"]))
                if self.chance(0.2):
                    steps += [self.go("open"), self._sleep(),
                              self.pick(["ponderhit", "stop", "ponderhit", "isready"]), Wait()]
                    if self.chance(0.5):
                        steps.append("stop")
                else:
                    steps += [self.go("bounded"), Wait()]
        return self._ending(steps)

    def _interleave(self):
        r = self.rng
        steps = ["uci"] if self.chance(0.5) else []
        for _ in range(r.randint(2, 8)):
            steps += self.snippet()
            if self.chance(0.5):
                steps.append(self._sleep())
        return self._ending(steps)

    def snippet(self):
        """Commands around one search or with none to act on."""
        r = self.rng
        go_open = self.go("open")
        pre, pos = self.position()
        s = self._sleep()
        return self.pick([
            [go_open, s, "isready", pos, "isready", "stop"],
            [go_open, s, "stop", "stop", "isready"],
            [go_open, s, "ponderhit", s, "stop"],
            [self.go("open"), s, pos, self.go(), s, "stop"],
            ["stop"], ["ponderhit"], ["stop", "ponderhit", "isready"],
            [self.go("bounded"), self.go("bounded"), "isready"],
            [self.go("bounded"), s, self.go("bounded"), Wait()],
            [go_open, s, "quit"],
            [go_open, Eof()],
            [self.go("bounded"), "quit"],
            [go_open, s, "ucinewgame", "isready"],
            [go_open, s, self.setoption("Hash"), "isready", "stop"],
            [go_open, s, self.setoption("Threads"), "stop", self.setoption("Threads"),
             self.go("bounded"), Wait()],
            [self.setoption("Threads"), self.setoption("MultiPV"), *pre, pos,
             self.go("bounded"), Wait()],
            [go_open, s, self.setoption("EvalFile"), "isready", "stop", self.go("bounded")],
            [self.setoption("EvalFile"), self.setoption("Use NNUE"), pos, self.go("bounded"),
             Wait()],
            [go_open, s, self.setoption("UCI_Chess960"), *pre, pos, "stop",
             self.go("bounded")],
            [self.setoption("UCI_Chess960", "true"), pos,
             self.setoption("UCI_Chess960", "false"), self.go("bounded"), Wait()],
            ["setoption name Clear Hash", go_open, s, "setoption name Clear Hash", "stop"],
            [self.setoption("Move Overhead"), self.go("bounded"), Wait()],
            [go_open, s, "d", "eval", "stop"],
            ["debug on", self.go(), s, "isready", "stop", "debug off"],
            [*pre, pos, f"go mate {r.randint(1, 4)} nodes {self.number(10, 5000)}", s, "stop"],
            [*pre, pos, self.go(), s, self.go(), "isready", "stop"],
            [go_open, s, "ucinewgame", self.go("bounded"), Wait()],
            [self.go("broken"), self.go("broken"), "isready"],
            [*pre, pos, "go ponder", s, "ponderhit", s, "ponderhit", "stop"],
            [go_open, "stop", go_open, "stop", go_open, "stop"],
            [go_open, "isready", "isready", "isready", "stop", "isready"],
        ])

    def _garbage(self):
        r = self.rng
        steps = []
        for _ in range(r.randint(3, 15)):
            w = r.random()
            if w < 0.4:
                steps.append(Send(self.garbage()))
            elif w < 0.85:
                steps.append(self.any_command())
            else:
                steps.append("isready")
            if self.chance(0.2):
                steps.append(self._sleep())
        return self._ending(steps)

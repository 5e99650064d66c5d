"""How the engine reads a line, mirrored from crates/uci/src (lib.rs `handle`, go.rs
`parse_go`) closely enough to know which command a line is and how long a `go` may take.

Rust's `str::trim` and `char::is_whitespace` use Unicode's White_Space property, which is not
Python's `str.isspace` (that one also counts U+001C..U+001F), hence the explicit set.
"""

from dataclasses import dataclass
import re

RUST_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)

GO_KEYWORDS = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate",
               "movetime", "infinite", "ponder", "searchmoves", "perft")

# Commands after which a running search must report its best move promptly: all of them
# call `stop` on the pool (`ucinewgame` also waits for it).
STOPPING = ("stop", "quit", "ucinewgame")

# `info string error:` texts of a `go` that starts no search (go in lib.rs, parse_go).
GO_REJECTIONS = (
    b"info string error: already searching",
    b"info string error: unknown go parameter",
    b"info string error: go ",
    b"info string error: searchmoves:",
)

_I64 = re.compile(r"[+-]?[0-9]+\Z")


def rust_trim(s: str) -> str:
    i, j = 0, len(s)
    while i < j and s[i] in RUST_WHITESPACE:
        i += 1
    while j > i and s[j - 1] in RUST_WHITESPACE:
        j -= 1
    return s[i:j]


def rust_split(s: str):
    """`str::split_whitespace`."""
    out, cur = [], []
    for ch in s:
        if ch in RUST_WHITESPACE:
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


def command(data: bytes):
    """The command word and the rest of a line as `handle` splits it. A line that is not
    UTF-8 is read with replacement characters, as the engine's reader does (`uci::lossy_lines`;
    before 63d3850 it stopped reading there, which `None` modelled)."""
    line = rust_trim(data.decode("utf-8", errors="replace"))
    for i, ch in enumerate(line):
        if ch in RUST_WHITESPACE:
            return line[:i], rust_trim(line[i + 1:])
    return line, ""


def parse_i64(tok):
    if tok is None or not _I64.match(tok):
        return None
    v = int(tok)
    return v if -(1 << 63) <= v < (1 << 63) else None


@dataclass
class GoLimits:
    wtime: int = None
    btime: int = None
    winc: int = None
    binc: int = None
    movestogo: int = None
    depth: int = None
    nodes: int = None
    mate: int = None
    movetime: int = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: int = 0


def parse_go(rest: str):
    """The limits of `go <rest>`, or `None` where parse_go rejects it (searchmoves are not
    checked for legality here)."""
    toks = rust_split(rest)
    lim = GoLimits()
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in ("infinite", "ponder"):
            setattr(lim, t, True)
            i += 1
        elif t == "searchmoves":
            i += 1
            while i < len(toks) and toks[i] not in GO_KEYWORDS:
                lim.searchmoves += 1
                i += 1
        elif t in ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate",
                   "movetime"):
            v = parse_i64(toks[i + 1] if i + 1 < len(toks) else None)
            if v is None:
                return None
            setattr(lim, t, v)
            i += 2
        else:
            return None
    return lim


# Speeds assumed for the deadlines, deliberately slow (a loaded two-core machine): the
# engine does about 400k nodes a second on one such core. A depth's time grows with MultiPV
# lines and with more threads than the two cores.
SLOW_NPS = 20_000
DEPTH_SECONDS = [(6, 1.0), (9, 5.0), (12, 15.0)]  # depth <= d: at most this long
FREE_MATE_SECONDS = 60.0  # `go mate` with no other limit: 2M solver nodes (~15 s) + 2M


def search_bound(lim: GoLimits, multipv=1, threads=1):
    """Seconds a search under `lim` may take before it must report, ignoring `ponder` and
    `infinite`; `None` when nothing bounds it (a bare `go`, a clock for one side only, a
    deep `depth`): such a search ends only with `stop`."""
    bounds = []
    if lim.movetime is not None:
        bounds.append(max(lim.movetime, 1) / 1000)
    if lim.wtime is not None and lim.btime is not None:
        # The plan's hard limit is at most 80% of the side to move's clock.
        bounds.append(max(lim.wtime, lim.btime, 1) / 1000)
    if lim.nodes is not None:
        bounds.append(max(lim.nodes, 1) / SLOW_NPS)
    if lim.depth is not None:
        d = min(max(lim.depth, 1), 127)
        scale = multipv * max(1.0, threads / 2)
        bounds += [s * scale for limit, s in DEPTH_SECONDS if d <= limit][:1]
    b = min(bounds) if bounds else None
    if lim.mate is not None:
        # The df-pn solver runs first on its share of the limits, alpha-beta after it; with
        # only a depth (or nothing) the solver takes up to 2M nodes.
        if lim.movetime is None and lim.nodes is None and not (
                lim.wtime is not None and lim.btime is not None):
            one_clock = max(lim.wtime or 0, lim.btime or 0, 0) / 1000
            b = FREE_MATE_SECONDS + one_clock + (b or 0)
    return b


_U64 = re.compile(r"\+?[0-9]+\Z")


def spin_option(rest: str):
    """(lowercase name, value) of `setoption <rest>` when the value is a number the engine
    takes (`setoption` in lib.rs), else None."""
    if not rest.startswith("name "):
        return None
    body = rest[5:]
    name, sep, value = body.partition(" value ")
    name, value = rust_trim(name), rust_trim(value) if sep else ""
    if not _U64.match(value):
        return None
    return "".join(c.lower() if c.isascii() else c for c in name), int(value)


BESTMOVE = re.compile(rb"bestmove ([a-h][1-8][a-h][1-8][qrbn]?|0000)( ponder [a-h][1-8][a-h][1-8][qrbn]?)?\Z")

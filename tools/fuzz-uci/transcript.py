"""Sessions as data and as replayable text files.

A session is a list of steps: `Send` (one input line, sent with a newline unless `raw`),
`Sleep` (pause), `Wait` (let the engine finish its search, as a GUI waits for `bestmove`) and
`Eof` (close the engine's input).

The text form (what `--out` saves and `--replay` reads) has one step a line:

    isready                 a line sent as it is (printable ASCII, no edge spaces)
    \\x00garbage\\xff         a line with other bytes, escaped (`\\\\` for a backslash);
    \\                       alone: an empty line
    @sleep 30               pause 30 ms
    @wait                   wait for the next bestmove (at most the search's deadline)
    @raw go dep             send `go dep` (escaped as above) with no newline
    @eof                    close the engine's input
    # ...                   comment; blank lines are ignored

The token `{nets}` in a line is replaced, when sent, by the directory of generated net files
(see `nets.py`), so transcripts that load them replay on any machine.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Send:
    data: bytes
    raw: bool = False  # no newline after it


@dataclass(frozen=True)
class Sleep:
    ms: int


@dataclass(frozen=True)
class Wait:
    pass


@dataclass(frozen=True)
class Eof:
    pass


def _plain(data: bytes) -> bool:
    """True when `data` can be written as it is: printable ASCII, no edge spaces, not
    starting with a character the format gives a meaning."""
    if not data or data[:1] in (b"#", b"@", b"\\") or data != data.strip(b" "):
        return False
    return all(0x20 <= c < 0x7F for c in data)


def escape(data: bytes) -> str:
    out = []
    for c in data:
        if c == 0x5C:
            out.append("\\\\")
        elif 0x20 <= c < 0x7F:
            out.append(chr(c))
        else:
            out.append(f"\\x{c:02x}")
    return "".join(out)


def unescape(text: str) -> bytes:
    out = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and text[i + 1:i + 2] == "\\":
            out.append(0x5C)
            i += 2
        elif ch == "\\" and text[i + 1:i + 2] == "x":
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        else:
            out.extend(ch.encode())
            i += 1
    return bytes(out)


def dumps(steps, header=()):
    lines = [f"# {h}" for h in header]
    for s in steps:
        if isinstance(s, Send) and s.raw:
            lines.append("@raw " + escape(s.data))
        elif isinstance(s, Send):
            lines.append(s.data.decode() if _plain(s.data) else "\\" + escape(s.data))
        elif isinstance(s, Sleep):
            lines.append(f"@sleep {s.ms}")
        elif isinstance(s, Wait):
            lines.append("@wait")
        elif isinstance(s, Eof):
            lines.append("@eof")
    return "\n".join(lines) + "\n"


def loads(text):
    steps = []
    for n, line in enumerate(text.split("\n"), 1):
        if line.endswith("\r"):
            line = line[:-1]
        if not line or line.startswith("#"):
            continue
        if line.startswith("@"):
            word, _, arg = line.partition(" ")
            if word == "@sleep":
                steps.append(Sleep(int(arg)))
            elif word == "@wait":
                steps.append(Wait())
            elif word == "@eof":
                steps.append(Eof())
            elif word == "@raw":
                steps.append(Send(unescape(arg), raw=True))
            else:
                raise ValueError(f"line {n}: unknown directive {word}")
        elif line.startswith("\\"):
            steps.append(Send(unescape(line[1:])))
        else:
            steps.append(Send(line.encode()))
    return steps

"""Mutations of a valid session: tokens deleted, duplicated, swapped or replaced within a
line; lines deleted, duplicated, swapped or spliced in from another session; bytes flipped,
inserted, deleted or cut off. Byte flips stay within ASCII nine times in ten, so most
mutated lines remain UTF-8 (a line that is not ends the engine's input)."""

from grammar import GO_WORDS
from transcript import Send

KEYWORDS = GO_WORDS + ["name", "value", "moves", "startpos", "fen", "position", "go", "stop",
                       "isready", "setoption", "quit", "ponderhit", "ucinewgame", "0", "-1",
                       "99999999999"]


def _tokens(rng, steps):
    """Index of a random Send step with tokens, or None."""
    idx = [i for i, s in enumerate(steps) if isinstance(s, Send) and s.data.split(b" ")]
    return rng.choice(idx) if idx else None


def _retoken(step, fn):
    toks = step.data.split(b" ")
    toks = fn(toks)
    return Send(b" ".join(toks), step.raw)


def mutate_once(rng, steps, donor):
    steps = list(steps)
    if not steps:
        return steps
    op = rng.randrange(12)
    i = _tokens(rng, steps)
    if op <= 3 and i is not None:
        def edit(toks):
            j = rng.randrange(len(toks))
            if op == 0 and len(toks) > 1:
                del toks[j]
            elif op == 1:
                toks.insert(j, toks[j])
            elif op == 2:
                k = rng.randrange(len(toks))
                toks[j], toks[k] = toks[k], toks[j]
            else:
                toks[j] = rng.choice(KEYWORDS).encode()
            return toks
        steps[i] = _retoken(steps[i], edit)
    elif op == 4:
        del steps[rng.randrange(len(steps))]
    elif op == 5:
        j = rng.randrange(len(steps))
        steps.insert(j, steps[j])
    elif op == 6 and len(steps) > 1:
        j = rng.randrange(len(steps) - 1)
        steps[j], steps[j + 1] = steps[j + 1], steps[j]
    elif op == 7 and donor:
        a = rng.randrange(len(donor))
        chunk = donor[a:a + rng.randint(1, 4)]
        j = rng.randrange(len(steps) + 1)
        steps[j:j] = chunk
    elif i is not None:
        data = bytearray(steps[i].data)
        if op == 8 and data:
            # Cut the line short (a truncated command).
            del data[rng.randrange(len(data)):]
        elif op == 9 and data:
            j = rng.randrange(len(data))
            data[j] ^= 1 << (rng.randrange(7) if rng.random() < 0.9 else 7)
        elif op == 10:
            data.insert(rng.randrange(len(data) + 1), rng.choice(b" 0123456789-\t\x00\rabz"))
        elif data:
            del data[rng.randrange(len(data))]
        steps[i] = Send(bytes(data).replace(b"\n", b" "), steps[i].raw)
    return steps


def mutate(rng, steps, donor=None, n=None):
    """`steps` with `n` (1 to 4 if None) mutations; `donor`: another session to splice."""
    for _ in range(n or rng.randint(1, 4)):
        steps = mutate_once(rng, steps, donor)
    return steps

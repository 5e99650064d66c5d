"""Net files for `setoption name EvalFile`: the real one, well-formed nets with random or
extreme weights (the search must survive any evaluation) and malformed files (the loader must
refuse them). The same bytes every time, so transcripts naming them replay anywhere.

Layout (crates/eval/src/nnue/mod.rs): 8-byte magic, inputs and hidden size (u32 LE), i16
weights, i32 output bias.
"""

import os
import random
import struct

MAGIC, MAGIC_HYBRID = b"ESTNNUE1", b"ESTNNUH1"
REAL_NET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "crates", "eval",
                        "nets", "estuary.nnue")

NAMES = ["real.nnue", "random.nnue", "random-hybrid.nnue", "extreme-max.nnue",
         "extreme-min.nnue", "flipped.nnue", "zero.nnue", "short.nnue", "truncated.nnue",
         "long.nnue", "bad-magic.nnue", "bad-shape.nnue", "empty.nnue"]


def write_nets(directory):
    """Writes the files of NAMES into `directory` (created if needed)."""
    os.makedirs(directory, exist_ok=True)
    rng = random.Random(17)
    try:
        with open(REAL_NET, "rb") as f:
            real = f.read()
        inputs, hidden = struct.unpack_from("<II", real, 8)
    except OSError:
        inputs, hidden = 768, 128
        real = None
    body = 2 * (inputs * hidden + hidden + 2 * hidden) + 4
    header = MAGIC + struct.pack("<II", inputs, hidden)
    randbody = bytes(rng.getrandbits(8) for _ in range(body))
    if real is None:
        real = header + randbody
    flipped = bytearray(real)
    for _ in range(len(flipped) // 100):
        flipped[rng.randrange(16, len(flipped))] = rng.getrandbits(8)
    files = {
        "real.nnue": real,
        "random.nnue": header + randbody,
        "random-hybrid.nnue": MAGIC_HYBRID + header[8:] + randbody,
        "extreme-max.nnue": header + b"\xff\x7f" * ((body - 4) // 2) + b"\xff\xff\xff\x7f",
        "extreme-min.nnue": header + b"\x00\x80" * ((body - 4) // 2) + b"\x00\x00\x00\x80",
        "flipped.nnue": bytes(flipped),
        "zero.nnue": header + bytes(body),
        "short.nnue": real[:10],
        "truncated.nnue": real[: len(real) // 2],
        "long.nnue": real + b"\x00",
        "bad-magic.nnue": b"ESTNNUE9" + real[8:],
        "bad-shape.nnue": MAGIC + struct.pack("<II", inputs + 1, hidden) + real[16:],
        "empty.nnue": b"",
    }
    for name, data in files.items():
        path = os.path.join(directory, name)
        try:
            with open(path, "rb") as f:
                if f.read() == data:
                    continue
        except OSError:
            pass
        with open(path, "wb") as f:
            f.write(data)

#!/bin/sh
# Rebuilds the opening book shipped with `estuary play` and `estuary serve`
# (crates/book/books/estuary.bin, embedded at compile time; see docs/book.md):
# the engine's own games against itself from tools/match's 40 openings, each played with
# both colours at a fixed node count a move, then `estuary book build` over their first plies.
#
#   tools/book/build-shipped.sh [NODES] [MAX_PLY]     (defaults 20000 and 10)
#
# Needs a release build (cargo build --release -p estuary-cli) and Python 3 for
# tools/match (it installs python-chess into tools/match/.venv on first use).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
nodes=${1:-20000}
max_ply=${2:-10}
engine="$here/target/release/estuary"
out="$here/crates/book/books/estuary.bin"
games=$(mktemp -d)
trap 'rm -rf "$games"' EXIT
"$here/tools/match/run.sh" --engine1 "$engine" --engine2 "$engine" \
    --name1 "Estuary A" --name2 "Estuary B" \
    --nodes "$nodes" --games 80 --max-plies 300 --pgn "$games/selfplay.pgn" >"$games/match.log"
tail -n 3 "$games/match.log"
"$engine" book build "$games/selfplay.pgn" --out "$out" --max-ply "$max_ply" --min-games 1
ls -l "$out"

#!/usr/bin/env bash
# Times Estuary's perft and Debian's Stockfish (`go perft`) on the same positions, one thread
# each, in the same run, and prints nodes/s for both and the ratio.
#
#   tools/compare-perft.sh [REPEATS]        (default 3; the best time of the repeats is kept)
#
# Needs: cargo, and stockfish (apt-get install stockfish; it lives in /usr/games).
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS="${1:-3}"
SF="$(command -v stockfish || echo /usr/games/stockfish)"
[ -x "$SF" ] || { echo "stockfish not found: apt-get install stockfish" >&2; exit 2; }
cargo build --release -q -p estuary-cli
EST=target/release/estuary

POSITIONS=(
  "startpos|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6"
  "kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5"
  "position3|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|7"
  "position4|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|5"
)

now() { date +%s.%N; }
best() { sort -g | head -n1; }

printf '%-10s %5s %12s %14s %14s %7s\n' position depth nodes "estuary n/s" "stockfish n/s" ratio
for entry in "${POSITIONS[@]}"; do
  IFS='|' read -r name fen depth <<<"$entry"
  est_times=(); sf_times=()
  for _ in $(seq "$REPEATS"); do
    t0=$(now); out=$("$EST" perft "$depth" --fen "$fen"); t1=$(now)
    est_nodes=$(echo "$out" | awk '/^nodes /{print $2}')
    est_times+=("$(echo "$t1 - $t0" | bc -l)")
    t0=$(now)
    sf_out=$(printf 'setoption name Threads value 1\nposition fen %s\ngo perft %s\nquit\n' "$fen" "$depth" | "$SF")
    t1=$(now)
    sf_nodes=$(echo "$sf_out" | awk '/^Nodes searched/{print $3}')
    sf_times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  if [ "$est_nodes" != "$sf_nodes" ]; then
    echo "MISMATCH on $name: estuary $est_nodes, stockfish $sf_nodes" >&2; exit 1
  fi
  te=$(printf '%s\n' "${est_times[@]}" | best); ts=$(printf '%s\n' "${sf_times[@]}" | best)
  printf '%-10s %5s %12s %14.0f %14.0f %6.2fx\n' "$name" "$depth" "$est_nodes" \
    "$(echo "$est_nodes / $te" | bc -l)" "$(echo "$sf_nodes / $ts" | bc -l)" "$(echo "$ts / $te" | bc -l)"
done
echo "(wall time per process, best of $REPEATS, process start-up included for both)"

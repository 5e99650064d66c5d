#!/bin/sh
# Reliability match: ENGINE against itself (or against BASELINE, e.g. the previous build) at a
# fast clock, through match.py. The summary gives games, results, time losses, illegal moves
# and crashes/disconnects per engine, each fault also reported as it happens; the exit status
# is 1 when there was any (match.py --strict).
#
#   tools/match/reliability.sh [ENGINE [BASELINE]]
#
# ENGINE defaults to target/release/estuary, BASELINE to ENGINE. Both are run as `PATH uci`.
# Settings from the environment (defaults in brackets): GAMES [1000], TC [1+0.01],
# CONCURRENCY [2], SEED [1], PGN [reliability.pgn, appended to], HANG_TIMEOUT [5: seconds past
# its clock before a silent engine loses and is killed]. Extra match.py arguments can follow
# after `--`, e.g. `-- --option1 Hash=64`.
#
# Example, 10-game smoke test on a shared machine:
#   GAMES=10 nice -n 10 tools/match/reliability.sh /tmp/estuary-a98866b
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
engine=$root/target/release/estuary
if [ $# -gt 0 ] && [ "$1" != "--" ]; then engine=$1; shift; fi
baseline=$engine
if [ $# -gt 0 ] && [ "$1" != "--" ]; then baseline=$1; shift; fi
[ "${1:-}" = "--" ] && shift
for e in "$engine" "$baseline"; do
    [ -x "$e" ] || { echo "reliability.sh: $e is not an executable" >&2; exit 2; }
done
name1=$(basename "$engine")
name2=$(basename "$baseline")
[ "$name1" = "$name2" ] && name2="$name2-b"
echo "reliability: $engine vs $baseline, ${GAMES:-1000} games at ${TC:-1+0.01}," \
    "concurrency ${CONCURRENCY:-2}, seed ${SEED:-1}, pgn ${PGN:-reliability.pgn}"
status=0
"$here/run.sh" --engine1 "$engine uci" --engine2 "$baseline uci" --name1 "$name1" \
    --name2 "$name2" --games "${GAMES:-1000}" --tc "${TC:-1+0.01}" \
    --concurrency "${CONCURRENCY:-2}" --seed "${SEED:-1}" --pgn "${PGN:-reliability.pgn}" \
    --hang-timeout "${HANG_TIMEOUT:-5}" --strict "$@" || status=$?
if [ $status -eq 0 ]; then
    echo "reliability: PASS (no time loss, illegal move or crash)"
else
    echo "reliability: FAIL (exit status $status)"
fi
exit $status

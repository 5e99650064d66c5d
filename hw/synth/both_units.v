// Synthesis harness: the move generator and the evaluation unit side by side on one chip, as
// a search sequencer would drive them (hw/synth.sh with UNIT=both). Both take their commands
// from one stream (cmd, cmd_addr, cmd_data); `to_movegen` and `to_evalunit` say which unit a
// word is for (a make, unmake, load or null goes to both; GEN to the generator; EVAL and
// WRITE to the evaluation unit). Every output of both units is a port, so nothing is trimmed.
module both_units (
    input  wire        clk,
    input  wire        rst,
    input  wire        cmd_valid,
    input  wire        to_movegen,
    input  wire        to_evalunit,
    input  wire [2:0]  cmd,
    input  wire [4:0]  cmd_addr,
    input  wire [31:0] cmd_data,
    output wire        ready,          // both units ready
    output wire        in_check,
    output wire        move_valid,
    output wire [15:0] move,
    output wire        gen_done,
    output wire [7:0]  move_count,
    output wire        result_valid,
    output wire [31:0] score
);
    wire mg_ready, ev_ready;
    assign ready = mg_ready && ev_ready;

    estuary_movegen movegen (
        .clk(clk), .rst(rst), .cmd_valid(cmd_valid && to_movegen), .cmd(cmd),
        .cmd_addr(cmd_addr), .cmd_data(cmd_data), .ready(mg_ready), .in_check(in_check),
        .move_valid(move_valid), .move(move), .gen_done(gen_done), .move_count(move_count));

    estuary_evalunit evalunit (
        .clk(clk), .rst(rst), .cmd_valid(cmd_valid && to_evalunit), .cmd(cmd),
        .cmd_addr(cmd_addr), .cmd_data(cmd_data), .ready(ev_ready),
        .result_valid(result_valid), .score(score));
endmodule

// Top level of the Estuary move generator: a command port (load / make / unmake / null /
// generate), a move port (one legal move per clock while generating) and an in-check flag.
//
//   board_state  -> king_safety -> (register) -> move_sets -> move_stream -> move port
//   (make/unmake)   checks, pins,                 per-piece      MVV-LVA priority,
//                   attack map                    generators     origin, flags
//
// Commands (cmd, with cmd_addr / cmd_data), accepted when `ready`:
//   1 LOAD   write load word cmd_addr (see board_state)   2 MAKE    cmd_data[15:0] = move
//   3 UNMAKE cmd_data = unmake word                        4 NULL    pass the turn
//   5 GEN    cmd_data[0] = captures only: two cycles of analysis, then one move per cycle on
//            move_valid/move, then a gen_done pulse.
module estuary_movegen (
    input  wire        clk,
    input  wire        rst,
    input  wire        cmd_valid,
    input  wire [2:0]  cmd,
    input  wire [4:0]  cmd_addr,
    input  wire [31:0] cmd_data,
    output wire        ready,
    output wire        in_check,
    output wire        move_valid,
    output wire [15:0] move,
    output wire        gen_done
);
    localparam [2:0] CMD_LOAD = 3'd1, CMD_MAKE = 3'd2, CMD_UNMAKE = 3'd3, CMD_NULL = 3'd4, CMD_GEN = 3'd5;
    localparam [1:0] S_IDLE = 2'd0, S_ANALYZE = 2'd1, S_STREAM = 2'd2;

    reg [1:0] state;
    reg       captures_only;
    assign ready = state == S_IDLE;
    wire accept = cmd_valid && ready;

    wire [383:0] kinds;
    wire [127:0] colors;
    wire         side;
    wire [6:0]   ep;
    wire [3:0]   rights;
    wire [23:0]  rook_sqs;
    board_state board (
        .clk(clk),
        .load(accept && cmd == CMD_LOAD), .load_addr(cmd_addr), .load_data(cmd_data),
        .make(accept && cmd == CMD_MAKE), .make_null(accept && cmd == CMD_NULL),
        .unmake(accept && cmd == CMD_UNMAKE), .word(cmd_data),
        .kinds(kinds), .colors(colors), .side(side), .ep(ep), .rights(rights), .rook_sqs(rook_sqs));

    wire [63:0]  ours_c, them_c, enemy_attacks_c, checkers_c, check_mask_c;
    wire [5:0]   king_sq_c;
    wire         double_check_c;
    wire [255:0] pinned_axis_c;
    king_safety safety (
        .kinds(kinds), .colors(colors), .side(side),
        .ours(ours_c), .them(them_c), .king_sq(king_sq_c), .enemy_attacks(enemy_attacks_c),
        .checkers(checkers_c), .double_check(double_check_c), .check_mask(check_mask_c),
        .pinned_axis(pinned_axis_c));

    // Pipeline register between the analysis and the generators.
    reg [63:0]  ours, them, enemy_attacks, checkers, check_mask;
    reg [5:0]   king_sq;
    reg         double_check;
    reg [255:0] pinned_axis;
    always @(posedge clk) begin
        ours <= ours_c;
        them <= them_c;
        enemy_attacks <= enemy_attacks_c;
        checkers <= checkers_c;
        check_mask <= check_mask_c;
        king_sq <= king_sq_c;
        double_check <= double_check_c;
        pinned_axis <= pinned_axis_c;
    end
    assign in_check = checkers_c != 64'd0;   // straight from the board registers

    wire [2303:0] sets;
    wire          finishing;
    move_sets generators (
        .kinds(kinds), .side(side), .ep(ep), .rights(rights), .rook_sqs(rook_sqs),
        .ours(ours), .them(them), .king_sq(king_sq), .enemy_attacks(enemy_attacks),
        .checkers(checkers), .double_check(double_check), .check_mask(check_mask),
        .pinned_axis(pinned_axis), .sets(sets));

    move_stream stream (
        .clk(clk), .rst(rst), .start(state == S_ANALYZE), .captures_only(captures_only),
        .sets(sets), .side(side), .ours(ours), .them(them), .kinds(kinds), .king_sq(king_sq),
        .move_valid(move_valid), .move(move), .done(gen_done), .finishing(finishing));

    always @(posedge clk) begin
        if (rst) begin
            state <= S_IDLE;
            captures_only <= 1'b0;
        end else begin
            case (state)
                S_IDLE:
                    if (accept && cmd == CMD_GEN) begin
                        state <= S_ANALYZE;
                        captures_only <= cmd_data[0];
                    end
                S_ANALYZE: state <= S_STREAM;
                default: if (finishing) state <= S_IDLE;
            endcase
        end
    end
endmodule

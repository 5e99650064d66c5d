// Top level of the Estuary move generator: a command port (load / make / unmake / null /
// generate), a move port (one legal move per clock while streaming) and an in-check flag.
//
//   board_state -+-> king_analysis (4 stages) -+-> pawn_king_sets --+
//   (make/unmake)|   checks, pins               |   pawns, king,      |
//                |                              |   castling          +-> move_stream -> moves
//                +-> enemy_attacks (fill) ------+                     |   selector, fetch,
//                +-> piece_sets (one piece a clock, 4 stages) --------+   queue, emitter
//                +-> check_flags (fills from their king) -> move_check, with each move
//
// Commands (cmd, with cmd_addr / cmd_data), accepted when `ready`:
//   1 LOAD   write load word cmd_addr (see board_state)   2 MAKE    cmd_data = make word
//   3 UNMAKE cmd_data = unmake word                        4 NULL    pass the turn
//   5 GEN    cmd_data[0] = captures only, cmd_data[1] = count only: the sets are built
//            (max(11, 10 + the number of knights, bishops, rooks and queens) clocks), then moves
//            stream out one per clock on move_valid/move, then a gen_done pulse (with or after
//            the last move). Count only: no moves; move_count is valid with gen_done.
// in_check describes the board as of ANALYSIS_LATENCY (10) clocks earlier: read it 10 clocks
// after the last command (one to decode it, nine of analysis). GEN may follow a command at once.
// Every unit registers the words it derives from the board registers (stage 0, free-running),
// so the board registers' wide fan-out ends in flip-flops; the units that start on the GEN
// (the enemy fill, the piece iterator) start one and three clocks after it. Synthesis merges
// the units' identical words (their opponent's pieces, the victim sets): one register then
// feeds several units (a copy that must stay apart needs its own instance, as dup_reg in the
// evaluation unit).
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
    output wire        move_check,     // with `move`: it gives check (check_flags: exact for
                                       // quiet moves, castling always flagged)
    output wire        gen_done,
    output wire [7:0]  move_count,     // count-only GEN: the number of legal moves, with gen_done
    output wire [11:0] next_squares,   // the squares of the move on `move` next clock, if any
    output wire [63:0] enemy_map,      // the squares the opponent attacks, our king lifted (valid
                                       // from 5 clocks after a GEN while the board stands)
    output wire        many_checks     // more than two checkers (an illegal position), as in_check
);
    localparam [2:0] CMD_LOAD = 3'd1, CMD_MAKE = 3'd2, CMD_UNMAKE = 3'd3, CMD_NULL = 3'd4, CMD_GEN = 3'd5;
    // Clock (after the GEN edge) in which the pawn, king and castling sets are valid (the
    // analysis from clock 8, the enemy attack map from 5, two stages in pawn_king_sets), and
    // from which every flag of move_stream is.
    localparam [4:0] T_SETS = 5'd10, T_FLAGS = 5'd11;

    reg       busy;
    reg [4:0] t;
    // ready = !busy && !start, as a register of its own: its next value is computed from the
    // next values of busy and start below, so it is a flip-flop that yosys does not merge
    // with busy, and the command enables in board_state see one register, not busy's net
    // across the device through two LUTs.
    reg       ready_r;
    assign ready = ready_r;
    wire accept = cmd_valid && ready_r;
    wire release_next;
    // Every command takes effect a clock after it is accepted (board_state decodes it first),
    // so the GEN starts a clock later too: `start` is that clock.
    reg  start, start1, start2, start3;   // start, one, two and three clocks later
    reg  [1:0] gen_mode;          // {count only, captures only}
    always @(posedge clk) begin
        ready_r <= rst || (!(accept && cmd == CMD_GEN) && !start && !(busy && !release_next));
        start <= accept && cmd == CMD_GEN && !rst;
        start1 <= start && !rst;
        start2 <= start1 && !rst;
        start3 <= start2 && !rst;
        if (accept && cmd == CMD_GEN) gen_mode <= cmd_data[1:0];
    end

    wire [383:0] kinds;
    wire [127:0] colors;
    wire         side;
    wire [6:0]   ep;
    wire [3:0]   rights;
    wire [23:0]  rook_sqs;
    board_state board (
        .clk(clk),
        .accept(accept),
        .load(cmd == CMD_LOAD), .load_addr(cmd_addr), .load_data(cmd_data),
        .make(cmd == CMD_MAKE), .make_null(cmd == CMD_NULL),
        .unmake(cmd == CMD_UNMAKE), .word(cmd_data),
        .kinds(kinds), .colors(colors), .side(side), .ep(ep), .rights(rights), .rook_sqs(rook_sqs));

    wire [5:0]   king_sq;
    wire [63:0]  check_mask, leaper_checkers;
    wire [255:0] pinned_axis;
    wire         double_check;
    king_analysis safety (
        .clk(clk), .kinds(kinds), .colors(colors), .side(side),
        .king_sq(king_sq), .check_mask(check_mask), .pinned_axis(pinned_axis),
        .leaper_checkers(leaper_checkers), .in_check(in_check), .double_check(double_check),
        .many_checks(many_checks));

    wire [63:0] enemy_att;
    assign enemy_map = enemy_att;
    enemy_attacks enemy (
        .clk(clk), .seed(start1), .kinds(kinds), .colors(colors), .side(side), .attacks(enemy_att));

    wire        wr_valid, pieces_done;
    wire [3:0]  wr_slot;
    wire [5:0]  wr_sq;
    wire [63:0] wr_set;
    piece_sets pieces (
        .clk(clk), .rst(rst), .start(start3), .kinds(kinds), .colors(colors), .side(side),
        .check_mask(check_mask), .pinned_axis(pinned_axis), .double_check(double_check),
        .wr_valid(wr_valid), .wr_slot(wr_slot), .wr_sq(wr_sq), .wr_set(wr_set), .done(pieces_done));

    wire [575:0] pawn_sets;
    wire [63:0]  king_set;
    wire [1:0]   castle_ok;
    wire [11:0]  castle_sq;
    pawn_king_sets pawns_king (
        .clk(clk), .kinds(kinds), .colors(colors), .side(side), .ep(ep), .rights(rights), .rook_sqs(rook_sqs),
        .check_mask(check_mask), .pinned_axis(pinned_axis),
        .in_check(in_check), .double_check(double_check), .enemy_attacks(enemy_att),
        .pawn_sets(pawn_sets), .king_set(king_set), .castle_ok(castle_ok), .castle_sq(castle_sq));

    reg  streaming;
    wire go = busy && t >= T_FLAGS && pieces_done && !streaming;
    move_stream stream (
        .clk(clk), .rst(rst), .start(start), .captures_only(gen_mode[0]), .count_only(gen_mode[1]), .go(go),
        .kinds(kinds), .colors(colors), .side(side), .king_sq(king_sq),
        .load_sets(busy && t == T_SETS), .pawn_sets(pawn_sets), .king_set(king_set), .castle_ok(castle_ok), .castle_sq(castle_sq),
        .wr_valid(wr_valid), .wr_slot(wr_slot), .wr_sq(wr_sq), .wr_set(wr_set),
        .move_valid(move_valid), .move(move), .done(gen_done), .count(move_count),
        .next_squares(next_squares),
        .release_next(release_next));

    check_flags checks (
        .clk(clk), .seed(start1), .kinds(kinds), .colors(colors), .side(side),
        .squares(next_squares), .gives_check(move_check));

    // Ready again with gen_done.
    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0;
            streaming <= 1'b0;
            t <= 5'd0;
        end else begin
            if (start) begin
                busy <= 1'b1;
                streaming <= 1'b0;
                t <= 5'd0;
            end else if (busy) begin
                if (t != 5'd31) t <= t + 5'd1;
                if (go) streaming <= 1'b1;
                if (release_next) busy <= 1'b0;
            end
        end
    end
endmodule

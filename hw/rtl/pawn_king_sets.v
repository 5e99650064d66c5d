// Set-wise generators for the pieces whose origin follows from the destination: pawns (one set
// per move kind, as channels) and the king (its square is known), plus castling. All legal:
// pins by axis, the check mask, the enemy attack map for the king, en passant re-checking the
// rank the two pawns leave (line ROM), castling checking its path with the rook lifted.
//
// Pawn channels (source numbers of move_stream): 0-1 captures west/east (no promotion),
// 2-3 promotion captures west/east, 4-5 en passant from west/east (the ep square), 6 push,
// 7 double push, 8 promotion push.
//
// Free-running, two register stages: the en-passant rank test and the castling rank fill
// first, then the sets. With the analysis valid from clock T and the enemy attack map from
// clock T + 1, the outputs are valid from clock T + 2.
module pawn_king_sets (
    input  wire         clk,
    input  wire [383:0] kinds,
    input  wire [127:0] colors,
    input  wire         side,
    input  wire [6:0]   ep,
    input  wire [3:0]   rights,
    input  wire [23:0]  rook_sqs,
    input  wire [5:0]   king_sq,
    input  wire [63:0]  check_mask,
    input  wire [255:0] pinned_axis,
    input  wire [63:0]  leaper_checkers,
    input  wire         in_check,
    input  wire         double_check,
    input  wire [63:0]  enemy_attacks,
    output reg  [575:0] pawn_sets,      // channel c at [64c +: 64]
    output reg  [63:0]  king_set,
    output wire [1:0]   castle_ok,      // short, long
    output wire [11:0]  castle_sq       // rook square (king takes rook): short [5:0], long [11:6]
);
`include "estuary_defs.vh"
`include "gen/estuary_consts.vh"
`include "gen/estuary_tables.vh"

    wire [63:0] ours = (side ? colors[127:64] : colors[63:0]);
    wire [63:0] them = (side ? colors[63:0] : colors[127:64]);
    wire [63:0] occ = ours | them;
    wire [63:0] empty = ~occ;
    wire [63:0] pinned = pinned_axis[0 +: 64] | pinned_axis[64 +: 64] | pinned_axis[128 +: 64] | pinned_axis[192 +: 64];
    // Pieces free to move along axis a: unpinned, or pinned along a.
    wire [63:0] free_file = ~(pinned & ~pinned_axis[64 * AXIS_FILE +: 64]);
    wire [63:0] free_diag = ~(pinned & ~pinned_axis[64 * AXIS_DIAG +: 64]);
    wire [63:0] free_anti = ~(pinned & ~pinned_axis[64 * AXIS_ANTI +: 64]);
    wire [63:0] pawns = kinds[64 * KIND_PAWN +: 64] & ours;

    // ---- king ----
    always @(posedge clk) king_set <= rom_king_attacks(king_sq) & ~ours & ~enemy_attacks;

    // ---- pawns (directions relative to the side to move) ----
    // White captures west along the anti-diagonal (NW), east along the diagonal (NE); black
    // the other way round (SW on the diagonal, SE on the anti-diagonal).
    wire [2:0]  up = side ? DIR_S : DIR_N;
    wire [2:0]  cap_w = side ? DIR_SW : DIR_NW;
    wire [2:0]  cap_e = side ? DIR_SE : DIR_NE;
    wire [63:0] free_w = side ? free_diag : free_anti;
    wire [63:0] free_e = side ? free_anti : free_diag;
    wire [63:0] last_rank = side ? RANK_1 : RANK_8;
    wire [63:0] third_rank = side ? RANK_6 : RANK_3;
    wire [63:0] single = step(pawns & free_file, up) & empty;
    wire [63:0] pawn_target = double_check ? 64'd0 : check_mask;
    wire [63:0] west = step(pawns & free_w, cap_w);
    wire [63:0] east = step(pawns & free_e, cap_e);
    always @(posedge clk) begin
        pawn_sets[64 * 0 +: 64] <= west & them & pawn_target & ~last_rank;
        pawn_sets[64 * 1 +: 64] <= east & them & pawn_target & ~last_rank;
        pawn_sets[64 * 2 +: 64] <= west & them & pawn_target & last_rank;
        pawn_sets[64 * 3 +: 64] <= east & them & pawn_target & last_rank;
        pawn_sets[64 * 4 +: 64] <= (ep_w_ok && (west & ep_bb_r) != 64'd0) ? ep_bb_r : 64'd0;
        pawn_sets[64 * 5 +: 64] <= (ep_e_ok && (east & ep_bb_r) != 64'd0) ? ep_bb_r : 64'd0;
        pawn_sets[64 * 6 +: 64] <= single & pawn_target & ~last_rank;
        pawn_sets[64 * 7 +: 64] <= step(single & third_rank, up) & empty & pawn_target;
        pawn_sets[64 * 8 +: 64] <= single & pawn_target & last_rank;
    end

    // ---- en passant ----
    // Legal when the capturer may move along that diagonal (pin), when it answers the check
    // (captures the checking pawn or blocks on the ep square), and when lifting both pawns off
    // their rank does not open a rook line to our king (the horizontal pin, via the line ROM).
    wire        has_ep = !ep[6] && !double_check;
    wire [63:0] ep_bb = has_ep ? square_bb(ep[5:0]) : 64'd0;
    wire [5:0]  victim_sq = side ? ep[5:0] + 6'd8 : ep[5:0] - 6'd8;
    wire [63:0] victim_bb = square_bb(victim_sq);
    wire        answers_check = !in_check || (check_mask & ep_bb) != 64'd0 || (leaper_checkers & victim_bb) != 64'd0;
    wire        same_rank = king_sq[5:3] == victim_sq[5:3];
    wire [7:0]  rank_occ = occ[8 * victim_sq[5:3] +: 8];
    wire [7:0]  rank_their_orth = ((kinds[64 * KIND_ROOK +: 64] | kinds[64 * KIND_QUEEN +: 64]) & them) >> (8 * victim_sq[5:3]);
    function automatic ep_exposes(input [2:0] from_file, input [2:0] victim_file, input [2:0] king_file,
                                  input [7:0] occ8, input [7:0] orth8);
        // rank attacks from the king once both pawns have left, against rooks/queens there
        ep_exposes = (rom_rank_attacks(king_file, occ8 & ~(8'd1 << from_file) & ~(8'd1 << victim_file)) & orth8) != 8'd0;
    endfunction
    // A west capture comes from the file east of the ep square, an east capture from the west.
    // Registered (first stage); the pawn on the capturing square is checked in the second.
    reg        ep_w_ok, ep_e_ok;
    reg [63:0] ep_bb_r;
    always @(posedge clk) begin
        ep_bb_r <= ep_bb;
        ep_w_ok <= answers_check &&
                   !(same_rank && ep_exposes(victim_sq[2:0] + 3'd1, victim_sq[2:0], king_sq[2:0], rank_occ, rank_their_orth));
        ep_e_ok <= answers_check &&
                   !(same_rank && ep_exposes(victim_sq[2:0] - 3'd1, victim_sq[2:0], king_sq[2:0], rank_occ, rank_their_orth));
    end

    // ---- castling ----
    wire [2:0]  back = king_sq[5:3];
    wire [7:0]  back_occ = occ[8 * back +: 8];
    wire [7:0]  back_attacked = enemy_attacks[8 * back +: 8];
    wire [7:0]  back_their_orth = ((kinds[64 * KIND_ROOK +: 64] | kinds[64 * KIND_QUEEN +: 64]) & them) >> (8 * back);
    // Rank attacks of the opponent's rooks and queens `src` over the rank occupancy `occ8`.
    function automatic [7:0] rank_fill(input [7:0] src, input [7:0] occ8);
        integer j;
        reg [7:0] e, w;
        begin
            e = src;
            w = src;
            for (j = 0; j < 7; j = j + 1) begin
                e = e | ((e << 1) & ~occ8);
                w = w | ((w >> 1) & ~occ8);
            end
            rank_fill = (e << 1) | (w >> 1);
        end
    endfunction
    // First stage: the right, the empty squares and the rank fill (all from the board and the
    // king square); second: the king's path against the enemy attack map.
    genvar s;
    generate
        for (s = 0; s < 2; s = s + 1) begin : castle
            wire        right = (side ? rights[2 + s] : rights[s]) && !in_check;
            wire [5:0]  rook_sq = side ? rook_sqs[6 * (2 + s) +: 6] : rook_sqs[6 * s +: 6];
            wire [7:0]  movers = (8'd1 << king_sq[2:0]) | (8'd1 << rook_sq[2:0]);
            wire [7:0]  lifted = back_occ & ~movers;
            wire [7:0]  must_be_empty = rom_castle_empty(s[0], king_sq[2:0], rook_sq[2:0]);
            reg         free;
            reg  [7:0]  king_path, fill;
            reg         ok;
            reg  [5:0]  sq;
            always @(posedge clk) begin
                free <= right && (lifted & must_be_empty) == 8'd0;
                king_path <= rom_castle_king_path(s[0], king_sq[2:0]);
                fill <= rank_fill(back_their_orth, lifted);
                ok <= free && (king_path & (back_attacked | fill)) == 8'd0;
                sq <= rook_sq;
            end
            assign castle_ok[s] = ok;
            assign castle_sq[6 * s +: 6] = sq;
        end
    endgenerate
endmodule

// The per-piece generators: for each move "channel" (a piece type moving in one direction),
// the set of legal destination squares. Every set bit of a channel is exactly one move, whose
// origin follows from the destination and the channel (see move_stream). Legality is applied
// here with the masks from king_safety: pinned pieces keep only the channels along their pin
// axis, non-king moves must land in check_mask, the king avoids enemy_attacks, en passant
// re-checks the rank the two pawns leave, castling checks its path with the rook lifted.
//
// Channels (index: contents), attackers in MVV-LVA order, least valuable first:
//   0-1 pawn captures west/east (no promotion)   2-3 promotion captures west/east
//   4-5 en passant from west/east (the ep square) 6-13 knight jumps 0-7
//   14-17 bishop NE NW SE SW   18-21 rook N S E W   22-29 queen N S E W NE NW SE SW
//   30 king   31 pawn push   32 double push   33 promotion push
//   34-35 castling short/long (the rook's square: king takes rook)
module move_sets (
    input  wire [383:0]  kinds,
    input  wire          side,
    input  wire [6:0]    ep,
    input  wire [3:0]    rights,
    input  wire [23:0]   rook_sqs,
    input  wire [63:0]   ours,
    input  wire [63:0]   them,
    input  wire [5:0]    king_sq,
    input  wire [63:0]   enemy_attacks,
    input  wire [63:0]   checkers,
    input  wire          double_check,
    input  wire [63:0]   check_mask,
    input  wire [255:0]  pinned_axis,
    output wire [2303:0] sets            // channel c at [64c +: 64]
);
`include "estuary_defs.vh"
`include "gen/estuary_consts.vh"
`include "gen/estuary_tables.vh"

    wire [63:0] occ = ours | them;
    wire [63:0] empty = ~occ;
    wire [63:0] pinned = pinned_axis[0 +: 64] | pinned_axis[64 +: 64] | pinned_axis[128 +: 64] | pinned_axis[192 +: 64];
    // Pieces free to move along axis a: unpinned, or pinned along a.
    wire [63:0] free_file = ~(pinned & ~pinned_axis[64 * AXIS_FILE +: 64]);
    wire [63:0] free_rank = ~(pinned & ~pinned_axis[64 * AXIS_RANK +: 64]);
    wire [63:0] free_diag = ~(pinned & ~pinned_axis[64 * AXIS_DIAG +: 64]);
    wire [63:0] free_anti = ~(pinned & ~pinned_axis[64 * AXIS_ANTI +: 64]);
    function automatic [63:0] free_on(input [2:0] d, input [63:0] ff, input [63:0] fr, input [63:0] fd, input [63:0] fa);
        case (dir_axis(d))
            AXIS_FILE: free_on = ff;
            AXIS_RANK: free_on = fr;
            AXIS_DIAG: free_on = fd;
            default:   free_on = fa;
        endcase
    endfunction

    // Only king moves answer a double check.
    wire [63:0] target = double_check ? 64'd0 : (check_mask & ~ours);
    wire [63:0] pawns = kinds[64 * KIND_PAWN +: 64] & ours;

    // ---- knights and sliders ----
    genvar c;
    generate
        for (c = 0; c < 8; c = c + 1) begin : knight
            assign sets[64 * (6 + c) +: 64] =
                knight_step(kinds[64 * KIND_KNIGHT +: 64] & ours & ~pinned, c) & target;
        end
        for (c = 0; c < 16; c = c + 1) begin : slider
            // c 0-3 bishop (NE NW SE SW), 4-7 rook (N S E W), 8-15 queen (N S E W NE NW SE SW)
            localparam [2:0] D = (c < 4) ? c + 4 : (c < 8) ? c - 4 : c - 8;
            localparam [2:0] KIND = (c < 4) ? KIND_BISHOP : (c < 8) ? KIND_ROOK : KIND_QUEEN;
            wire [63:0] att;
            slider_fill #(.DIR(D)) fill (
                .sources(kinds[64 * KIND +: 64] & ours & free_on(D, free_file, free_rank, free_diag, free_anti)),
                .empty(empty), .attacks(att));
            assign sets[64 * (14 + c) +: 64] = att & target;
        end
    endgenerate

    // ---- king ----
    assign sets[64 * 30 +: 64] = rom_king_attacks(king_sq) & ~ours & ~enemy_attacks;

    // ---- pawns (directions relative to the side to move) ----
    wire [2:0]  up = side ? DIR_S : DIR_N;
    wire [2:0]  cap_w = side ? DIR_SW : DIR_NW;
    wire [2:0]  cap_e = side ? DIR_SE : DIR_NE;
    wire [63:0] last_rank = side ? RANK_1 : RANK_8;
    wire [63:0] third_rank = side ? RANK_6 : RANK_3;
    wire [63:0] single = step(pawns & free_file, up) & empty;
    wire [63:0] pawn_target = double_check ? 64'd0 : check_mask;
    wire [63:0] west = step(pawns & free_on(cap_w, free_file, free_rank, free_diag, free_anti), cap_w);
    wire [63:0] east = step(pawns & free_on(cap_e, free_file, free_rank, free_diag, free_anti), cap_e);
    assign sets[64 * 0 +: 64] = west & them & pawn_target & ~last_rank;
    assign sets[64 * 1 +: 64] = east & them & pawn_target & ~last_rank;
    assign sets[64 * 2 +: 64] = west & them & pawn_target & last_rank;
    assign sets[64 * 3 +: 64] = east & them & pawn_target & last_rank;
    assign sets[64 * 31 +: 64] = single & pawn_target & ~last_rank;
    assign sets[64 * 32 +: 64] = step(single & third_rank, up) & empty & pawn_target;
    assign sets[64 * 33 +: 64] = single & pawn_target & last_rank;

    // ---- en passant ----
    // Legal when the capturer may move along that diagonal (pin), when it answers the check
    // (captures the checking pawn or blocks on the ep square), and when lifting both pawns off
    // their rank does not open a rook line to our king (the horizontal pin, via the rank ROM).
    wire        has_ep = !ep[6] && !double_check;
    wire [63:0] ep_bb = has_ep ? (64'd1 << ep[5:0]) : 64'd0;
    wire [5:0]  victim_sq = side ? ep[5:0] + 6'd8 : ep[5:0] - 6'd8;
    wire [63:0] victim_bb = 64'd1 << victim_sq;
    wire        answers_check = checkers == 64'd0 || (check_mask & ep_bb) != 64'd0 || (checkers & victim_bb) != 64'd0;
    wire        same_rank = king_sq[5:3] == victim_sq[5:3];
    wire [7:0]  rank_occ = occ[8 * victim_sq[5:3] +: 8];
    wire [7:0]  rank_their_orth = ((kinds[64 * KIND_ROOK +: 64] | kinds[64 * KIND_QUEEN +: 64]) & them) >> (8 * victim_sq[5:3]);
    function automatic ep_exposes(input [2:0] from_file, input [2:0] victim_file, input [2:0] king_file,
                                  input [7:0] occ8, input [7:0] orth8);
        // rank attacks from the king once both pawns have left, against rooks/queens there
        ep_exposes = (rom_rank_attacks(king_file, occ8 & ~(8'd1 << from_file) & ~(8'd1 << victim_file)) & orth8) != 8'd0;
    endfunction
    // A west capture comes from the file east of the ep square, an east capture from the west.
    wire ep_w_ok = answers_check && (west & ep_bb) != 64'd0 &&
                   !(same_rank && ep_exposes(victim_sq[2:0] + 3'd1, victim_sq[2:0], king_sq[2:0], rank_occ, rank_their_orth));
    wire ep_e_ok = answers_check && (east & ep_bb) != 64'd0 &&
                   !(same_rank && ep_exposes(victim_sq[2:0] - 3'd1, victim_sq[2:0], king_sq[2:0], rank_occ, rank_their_orth));
    assign sets[64 * 4 +: 64] = ep_w_ok ? ep_bb : 64'd0;
    assign sets[64 * 5 +: 64] = ep_e_ok ? ep_bb : 64'd0;

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
    genvar s;
    generate
        for (s = 0; s < 2; s = s + 1) begin : castle
            wire        right = rights[2 * side + s] && checkers == 64'd0;
            wire [5:0]  rook_sq = rook_sqs[6 * (2 * side + s) +: 6];
            wire [7:0]  movers = (8'd1 << king_sq[2:0]) | (8'd1 << rook_sq[2:0]);
            wire [7:0]  lifted = back_occ & ~movers;
            wire [7:0]  must_be_empty = rom_castle_empty(s[0], king_sq[2:0], rook_sq[2:0]);
            wire [7:0]  king_path = rom_castle_king_path(s[0], king_sq[2:0]);
            wire [7:0]  attacked = back_attacked | rank_fill(back_their_orth, lifted);
            wire        ok = right && (lifted & must_be_empty) == 8'd0 && (king_path & attacked) == 8'd0;
            assign sets[64 * (34 + s) +: 64] = ok ? (64'd1 << rook_sq) : 64'd0;
        end
    endgenerate
endmodule

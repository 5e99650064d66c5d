// Set-wise generators for the pieces whose origin follows from the destination: pawns (one set
// per move kind, as channels) and the king (its square is known), plus castling. All legal:
// pins by axis, the check mask, the enemy attack map for the king, en passant re-checking the
// rank the two pawns leave (line ROM), castling checking its path with the rook lifted.
//
// Pawn channels (source numbers of move_stream): 0-1 captures west/east (no promotion),
// 2-3 promotion captures west/east, 4-5 en passant from west/east (the ep square), 6 push,
// 7 double push, 8 promotion push.
//
// Free-running. Stage 0 registers the words derived from the board next to this unit; what
// depends on the board alone (our king's square and attacks, the en-passant capturers and the
// horizontal pin, the castling path and the rank fill of the opponent's rooks and queens) is
// ready a few clocks later. With the analysis valid from clock T and the enemy attack map from
// clock T - 1: the king set from T, castling from T + 1 (with in_check), the pawn sets from
// T + 2 (the pieces free to move along each axis and the check target first, then the sets).
module pawn_king_sets (
    input  wire         clk,
    input  wire [383:0] kinds,
    input  wire [127:0] colors,
    input  wire         side,
    input  wire [6:0]   ep,
    input  wire [3:0]   rights,
    input  wire [23:0]  rook_sqs,
    input  wire [63:0]  check_mask,
    input  wire [255:0] pinned_axis,
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

    // ---- stage 0: words ----
    reg [63:0] ours, them, empty, pawns, their_orth, king0;
    reg        s;         // side to move
    reg [6:0]  ep0;
    reg [1:0]  rights0;   // short, long of the side to move
    reg [11:0] rooks0;    // their rook squares
    always @(posedge clk) begin
        ours <= ours_of(colors);
        them <= theirs_of(colors);
        empty <= ~(colors[127:64] | colors[63:0]);
        pawns <= kinds[64 * KIND_PAWN +: 64] & ours_of(colors);
        their_orth <= (kinds[64 * KIND_ROOK +: 64] | kinds[64 * KIND_QUEEN +: 64]) & theirs_of(colors);
        king0 <= kinds[64 * KIND_KING +: 64] & ours_of(colors);
        s <= side;
        ep0 <= ep;
        rights0 <= side ? rights[3:2] : rights[1:0];
        rooks0 <= side ? rook_sqs[23:12] : rook_sqs[11:0];
    end

    // Directions relative to the side to move. White captures west along the anti-diagonal
    // (NW), east along the diagonal (NE); black the other way round (SW on the diagonal, SE on
    // the anti-diagonal).
    wire [2:0]  up = s ? DIR_S : DIR_N;
    wire [2:0]  cap_w = s ? DIR_SW : DIR_NW;
    wire [2:0]  cap_e = s ? DIR_SE : DIR_NE;
    wire [63:0] last_rank = s ? RANK_1 : RANK_8;
    wire [63:0] third_rank = s ? RANK_6 : RANK_3;
    // The 8 squares of a rank that depends on the side only (explicit 2:1 selects, not shifters):
    // the en-passant square's, the pawn taken's, our back rank.
    function automatic [7:0] ep_rank8(input side_, input [63:0] b);
        ep_rank8 = side_ ? b[16 +: 8] : b[40 +: 8];
    endfunction
    function automatic [7:0] victim_rank8(input side_, input [63:0] b);
        victim_rank8 = side_ ? b[24 +: 8] : b[32 +: 8];
    endfunction
    function automatic [7:0] back_rank8(input side_, input [63:0] b);
        back_rank8 = side_ ? b[56 +: 8] : b[0 +: 8];
    endfunction

    // ---- king ----
    // The king's steps set-wise from the one-hot king (no square decode, no ROM read).
    reg [63:0] king_k, king_rom, ours_k, king_reach;
    reg [63:0] king_steps;
    always @* king_steps = leaper_reach(king_k, 1'b0);
    always @(posedge clk) begin
        king_k <= king0;
        king_rom <= king_steps;
        ours_k <= ours;
        king_reach <= king_rom & ~ours_k;
        king_set <= king_reach & ~enemy_attacks;
    end

    // ---- en passant, from the board alone ----
    // The capturers (a pawn of ours on the square a west / east capture of the ep square comes
    // from), as 8 bits of the victim's rank, and whether lifting both pawns off that rank opens
    // a rook line to our king (the horizontal pin, via the line ROM).
    wire        has_ep = !ep0[6];
    wire [2:0]  epf = ep0[2:0];
    reg  [7:0]  capw1, cape1, vocc1, vorth1, vking1, epbit1;
    reg  [7:0]  lift_w2, lift_e2, vorth2;
    reg  [2:0]  kf2;
    reg         kon2;
    reg  [7:0]  xw3, xe3, vorth3;
    reg         kon3;
    reg  [7:0]  xw3r, xe3r, vorth3r;   // the block RAM's output, registered before any logic
    reg         kon3r;
    reg         hpin_w4, hpin_e4;   // the horizontal pin forbids the capture
    always @(posedge clk) begin
        // A west capture comes from the file east of the ep square, an east capture from the west.
        capw1 <= (has_ep && epf != 3'd7) ? (victim_rank8(s, pawns) & (8'd2 << epf)) : 8'd0;
        cape1 <= (has_ep && epf != 3'd0) ? (victim_rank8(s, pawns) & ((8'd1 << epf) >> 1)) : 8'd0;
        vocc1 <= ~victim_rank8(s, empty);
        vorth1 <= victim_rank8(s, their_orth);
        vking1 <= victim_rank8(s, king0);
        epbit1 <= has_ep ? (8'd1 << epf) : 8'd0;
        lift_w2 <= vocc1 & ~epbit1 & ~(epbit1 << 1);
        lift_e2 <= vocc1 & ~epbit1 & ~(epbit1 >> 1);
        vorth2 <= vorth1;
        kf2 <= onehot_index(vking1);
        kon2 <= vking1 != 8'd0;
        xw3 <= rom_rank_attacks(kf2, lift_w2);
        xe3 <= rom_rank_attacks(kf2, lift_e2);
        vorth3 <= vorth2;
        kon3 <= kon2;
        xw3r <= xw3;
        xe3r <= xe3;
        vorth3r <= vorth3;
        kon3r <= kon3;
        hpin_w4 <= kon3r && (xw3r & vorth3r) != 8'd0;
        hpin_e4 <= kon3r && (xe3r & vorth3r) != 8'd0;
    end

    // ---- castling, from the board alone: the right, the empty squares and the rank fill ----
    // Rank attacks of the opponent's rooks and queens `src` over the rank occupancy `occ8`, in
    // two halves (a clock each).
    function automatic [15:0] rank_fill_half(input [7:0] e_in, input [7:0] w_in, input [7:0] occ8);
        integer j;
        reg [7:0] e, w;
        begin
            e = e_in;
            w = w_in;
            for (j = 0; j < 4; j = j + 1) begin
                e = e | ((e << 1) & ~occ8);
                w = w | ((w >> 1) & ~occ8);
            end
            rank_fill_half = {w, e};
        end
    endfunction
    reg  [7:0]  back_occ1, back_orth1;
    reg  [2:0]  kfile1;
    reg  [1:0]  right1;
    reg  [11:0] rooks1;
    always @(posedge clk) begin
        back_occ1 <= ~back_rank8(s, empty);
        back_orth1 <= back_rank8(s, their_orth);
        kfile1 <= onehot_index(back_rank8(s, king0));
        right1 <= rights0;
        rooks1 <= rooks0;
    end
    genvar c;
    generate
        for (c = 0; c < 2; c = c + 1) begin : castle
            wire [5:0]  rook_sq = rooks1[6 * c +: 6];
            wire [7:0]  movers = (8'd1 << kfile1) | (8'd1 << rook_sq[2:0]);
            reg  [7:0]  lifted2, orth2, path2;
            reg         free2, free3, free4;
            reg  [15:0] half3, half4;
            reg  [7:0]  path3, path4;
            reg         ok;
            reg  [5:0]  sq2, sq3, sq4, sq;
            always @(posedge clk) begin
                lifted2 <= back_occ1 & ~movers;
                free2 <= right1[c] && ((back_occ1 & ~movers) & rom_castle_empty(c[0], kfile1, rook_sq[2:0])) == 8'd0;
                path2 <= rom_castle_king_path(c[0], kfile1);
                orth2 <= back_orth1;
                sq2 <= rook_sq;
                half3 <= rank_fill_half(orth2, orth2, lifted2);
                free3 <= free2;
                path3 <= path2;
                sq3 <= sq2;
                half4 <= rank_fill_half(half3[7:0], half3[15:8], lifted2);
                free4 <= free3;
                path4 <= path3;
                sq4 <= sq3;
                // with the check and the attack map
                ok <= free4 && !in_check
                      && (path4 & (back_rank8(s, enemy_attacks) | (half4[7:0] << 1) | (half4[15:8] >> 1))) == 8'd0;
                sq <= sq4;
            end
            assign castle_ok[c] = ok;
            assign castle_sq[6 * c +: 6] = sq;
        end
    endgenerate

    // ---- after the analysis: pieces free to move along each axis, the target ----
    wire [63:0] pinned = pinned_axis[0 +: 64] | pinned_axis[64 +: 64] | pinned_axis[128 +: 64] | pinned_axis[192 +: 64];
    reg  [63:0] free_file, free_w, free_e, target;
    reg         ep_answers;   // the ep capture answers the check (takes the checker or blocks)
    reg         no_ep;
    always @(posedge clk) begin
        free_file <= ~(pinned & ~pinned_axis[64 * AXIS_FILE +: 64]);
        free_w <= ~(pinned & ~(s ? pinned_axis[64 * AXIS_DIAG +: 64] : pinned_axis[64 * AXIS_ANTI +: 64]));
        free_e <= ~(pinned & ~(s ? pinned_axis[64 * AXIS_ANTI +: 64] : pinned_axis[64 * AXIS_DIAG +: 64]));
        target <= double_check ? 64'd0 : check_mask;
        // The check mask holds the checker: a pawn checker is the pawn taken en passant.
        ep_answers <= ((ep_rank8(s, check_mask) | victim_rank8(s, check_mask)) & epbit1) != 8'd0;
        no_ep <= double_check;
    end

    // ---- the pawn sets ----
    wire [63:0] single = step(pawns & free_file, up) & empty;
    wire [63:0] west = step(pawns & free_w, cap_w);
    wire [63:0] east = step(pawns & free_e, cap_e);
    wire [63:0] ep_bb = s ? {40'd0, epbit1, 16'd0} : {16'd0, epbit1, 40'd0};
    wire        ep_w = !no_ep && ep_answers && !hpin_w4 && (capw1 & victim_rank8(s, free_w)) != 8'd0;
    wire        ep_e = !no_ep && ep_answers && !hpin_e4 && (cape1 & victim_rank8(s, free_e)) != 8'd0;
    always @(posedge clk) begin
        pawn_sets[64 * 0 +: 64] <= west & them & target & ~last_rank;
        pawn_sets[64 * 1 +: 64] <= east & them & target & ~last_rank;
        pawn_sets[64 * 2 +: 64] <= west & them & target & last_rank;
        pawn_sets[64 * 3 +: 64] <= east & them & target & last_rank;
        pawn_sets[64 * 4 +: 64] <= ep_w ? ep_bb : 64'd0;
        pawn_sets[64 * 5 +: 64] <= ep_e ? ep_bb : 64'd0;
        pawn_sets[64 * 6 +: 64] <= single & target & ~last_rank;
        pawn_sets[64 * 7 +: 64] <= step(single & third_rank, up) & empty & target;
        pawn_sets[64 * 8 +: 64] <= single & target & last_rank;
    end
endmodule

// Game-state registers: piece bitboards by kind and colour, side to move, en-passant square,
// castling rights (by rook square, so Chess960 works) and the one-cycle make / unmake / null
// move datapath.
//
// make word   [15:0]  the move (bits 0-5 from, 6-11 to, 12-15 flag).
// unmake word [15:0]  the move being taken back, [18:16] captured kind (KIND_NONE if none),
//             [22:19] castling rights before the move, [29:23] en-passant square before it
//             (64 = none), [30] 1 for a null move. The host keeps these from its own mirror,
//             so the device needs no stack.
// load words  0-11 kind bitboards (kind*2 + half), 12-15 colour bitboards, 16 {rights[11:8],
//             ep[7:1], side[0]}, 17 castling rook squares {bs, bl... 6 bits each: [5:0] white
//             short, [11:6] white long, [17:12] black short, [23:18] black long}.
module board_state (
    input  wire         clk,
    input  wire         load,
    input  wire [4:0]   load_addr,
    input  wire [31:0]  load_data,
    input  wire         make,
    input  wire         make_null,
    input  wire         unmake,
    input  wire [31:0]  word,
    output reg  [383:0] kinds,      // kind k at [64k +: 64]
    output reg  [127:0] colors,     // colour c at [64c +: 64]
    output reg          side,       // 0 white, 1 black
    output reg  [6:0]   ep,         // en-passant square, 64 = none
    output reg  [3:0]   rights,     // white short, white long, black short, black long
    output reg  [23:0]  rook_sqs    // rook square of each right, 6 bits each, same order
);
`include "estuary_defs.vh"
`include "gen/estuary_consts.vh"
`include "gen/estuary_tables.vh"

    localparam [6:0] NO_SQ = 7'd64;

    // Kind on the square of the one-square board `at` (an AND-OR per kind, no 64-way mux).
    function automatic [2:0] kind_at(input [383:0] ks, input [63:0] at);
        integer k;
        begin
            kind_at = KIND_NONE;
            for (k = 0; k < 6; k = k + 1)
                if ((ks[64 * k +: 64] & at) != 64'd0) kind_at = k[2:0];
        end
    endfunction

    // Decode of the move word (shared by make and unmake).
    wire [5:0]  from = word[5:0];
    wire [5:0]  to = word[11:6];
    wire [3:0]  flag = word[15:12];
    wire        is_castle = flag == FLAG_CASTLE;
    wire        is_ep = flag == FLAG_EN_PASSANT;
    wire        is_capture = flag[2];
    wire        is_promo = flag[3];
    wire [2:0]  promo_kind = {1'b0, flag[1:0]} + 3'd1;
    wire [63:0] from_bb = square_bb(from);
    wire [63:0] to_bb = square_bb(to);
    // The pawn taken en passant stands beside the capturer: to's file, from's rank.
    wire [63:0] ep_victim_bb = square_bb({from[5:3], to[2:0]});
    wire        short_side = to > from;
    wire [63:0] king_dest_bb = square_bb({from[5:3], short_side ? CASTLE_KING_FILE_0 : CASTLE_KING_FILE_1});
    wire [63:0] rook_dest_bb = square_bb({from[5:3], short_side ? CASTLE_ROOK_FILE_0 : CASTLE_ROOK_FILE_1});

    // ---- make (side = mover) ----
    wire        us = side;
    wire [2:0]  moved = kind_at(kinds, from_bb);
    wire [2:0]  placed = is_promo ? promo_kind : moved;
    wire [63:0] removed_bb = is_ep ? ep_victim_bb : (is_capture ? to_bb : 64'd0);
    // After a double push, an en-passant square only if an enemy pawn stands beside `to`
    // (exactly the pawns that attack the square passed over).
    wire [5:0]  push_mid = us ? from - 6'd8 : from + 6'd8;
    // Colour boards by role (explicit 2:1 selects: a part-select at 64 * side would be
    // synthesized as a 128-bit shifter).
    wire [63:0] side_bb = side ? colors[127:64] : colors[63:0];     // the side to move
    wire [63:0] other_bb = side ? colors[63:0] : colors[127:64];
    wire [63:0] their_pawns = kinds[64 * KIND_PAWN +: 64] & other_bb;
    wire [63:0] beside_to = step(to_bb, DIR_E) | step(to_bb, DIR_W);
    wire [6:0]  ep_after_make = (flag == FLAG_DOUBLE_PUSH && (beside_to & their_pawns) != 64'd0)
                                ? {1'b0, push_mid} : NO_SQ;
    reg  [3:0]  rights_after_make;
    integer r;
    always @* begin
        rights_after_make = rights;
        if (is_castle || moved == KIND_KING)
            rights_after_make[2 * us +: 2] = 2'b00;
        for (r = 0; r < 4; r = r + 1)
            if (rook_sqs[6 * r +: 6] == from || rook_sqs[6 * r +: 6] == to)
                rights_after_make[r] = 1'b0;
    end

    reg [383:0] kinds_after_make;
    reg [63:0]  mover_after_make, other_after_make;
    wire [127:0] colors_after_make = side ? {mover_after_make, other_after_make} : {other_after_make, mover_after_make};
    integer k;
    always @* begin
        kinds_after_make = kinds;
        mover_after_make = side_bb;
        other_after_make = other_bb;
        k = 0;   // assigned on every path: no latch for the loop variable
        if (is_castle) begin
            // King takes own rook: both leave, then land (the squares may overlap in Chess960).
            kinds_after_make[64 * KIND_KING +: 64] = (kinds[64 * KIND_KING +: 64] & ~from_bb) | king_dest_bb;
            kinds_after_make[64 * KIND_ROOK +: 64] = (kinds[64 * KIND_ROOK +: 64] & ~to_bb) | rook_dest_bb;
            mover_after_make = (side_bb & ~from_bb & ~to_bb) | king_dest_bb | rook_dest_bb;
        end else begin
            for (k = 0; k < 6; k = k + 1)
                kinds_after_make[64 * k +: 64] = (kinds[64 * k +: 64] & ~from_bb & ~to_bb & ~removed_bb)
                                                 | ((placed == k) ? to_bb : 64'd0);
            mover_after_make = (side_bb & ~from_bb) | to_bb;
            other_after_make = other_bb & ~removed_bb & ~to_bb;
        end
    end

    // ---- unmake (the mover is the side not to move) ----
    wire [2:0]  captured = word[18:16];
    wire [2:0]  standing = kind_at(kinds, to_bb);
    wire [2:0]  original = is_promo ? KIND_PAWN : standing;
    // The mover of the move taken back is the side not to move: other_bb.
    reg [383:0] kinds_after_unmake;
    reg [63:0]  mover_after_unmake, other_after_unmake;
    wire [127:0] colors_after_unmake = side ? {other_after_unmake, mover_after_unmake} : {mover_after_unmake, other_after_unmake};
    integer u;
    always @* begin
        kinds_after_unmake = kinds;
        mover_after_unmake = other_bb;
        other_after_unmake = side_bb;
        u = 0;
        if (is_castle) begin
            kinds_after_unmake[64 * KIND_KING +: 64] = (kinds[64 * KIND_KING +: 64] & ~king_dest_bb) | from_bb;
            kinds_after_unmake[64 * KIND_ROOK +: 64] = (kinds[64 * KIND_ROOK +: 64] & ~rook_dest_bb) | to_bb;
            mover_after_unmake = (other_bb & ~king_dest_bb & ~rook_dest_bb) | from_bb | to_bb;
        end else begin
            for (u = 0; u < 6; u = u + 1)
                kinds_after_unmake[64 * u +: 64] = (kinds[64 * u +: 64] & ~to_bb)
                    | ((original == u) ? from_bb : 64'd0)
                    | ((is_capture && captured == u) ? to_bb : 64'd0)
                    | ((is_ep && u == KIND_PAWN) ? ep_victim_bb : 64'd0);
            mover_after_unmake = (other_bb & ~to_bb) | from_bb;
            other_after_unmake = side_bb | removed_bb;
        end
    end

    integer lw;
    always @(posedge clk) begin
        if (load) begin
            case (load_addr)
                5'd16: begin
                    side <= load_data[0];
                    ep <= load_data[7:1];
                    rights <= load_data[11:8];
                end
                5'd17: rook_sqs <= load_data[23:0];
                default: ;
            endcase
            for (lw = 0; lw < 12; lw = lw + 1)
                if (load_addr == lw) kinds[32 * lw +: 32] <= load_data;
            for (lw = 0; lw < 4; lw = lw + 1)
                if (load_addr == lw + 12) colors[32 * lw +: 32] <= load_data;
        end else if (make) begin
            kinds <= kinds_after_make;
            colors <= colors_after_make;
            ep <= ep_after_make;
            rights <= rights_after_make;
            side <= ~side;
        end else if (make_null) begin
            ep <= NO_SQ;
            side <= ~side;
        end else if (unmake) begin
            if (!word[30]) begin
                kinds <= kinds_after_unmake;
                colors <= colors_after_unmake;
            end
            ep <= word[29:23];
            rights <= word[22:19];
            side <= ~side;
        end
    end
endmodule

// The evaluation unit's move decoder: it turns a make word into the first-layer features the
// move changes, and answers the refresh scan (which piece stands on a square) from the loaded
// position's bitboards.
//
// The unit follows the move generator's command stream. The make word carries the moving
// kind and the captured kind (the host's or the chip mirror's look-up), so the decoder needs
// no board of its own: the chip holds one mailbox (the mirror's) beside the generator's
// bitboards. A command is decoded in the clock the unit dispatches it (the clock after it was
// accepted: `word` comes from the unit's command register).
//
// Square code: {colour (1 = black), kind (0 pawn .. 5 king)}; kind 7 is an empty square.
// Make word   [5:0] from, [11:6] to, [15:12] flag, [18:16] moving kind (castling: king takes
//             its own rook, to = the rook's square), [29:27] captured kind (7 none; en
//             passant's pawn is implied by the flag).
//
// Changes (registered: valid from the clock after a MAKE is decoded until the next MAKE; a
// capture's victim, change 2, from a clock later): n_changes features, change i is sub[i]
// (1: remove) of piece {colour, kind} on square sq, given as its feature index from White's
// and from Black's perspective (feat_w, feat_b: {enemy, kind, square}).
module piece_map (
    input  wire         clk,
    input  wire [383:0] kinds,         // the loaded position: kind k's bitboard at [64k +: 64]
    input  wire [63:0]  black,         // its black pieces
    input  wire         make,
    input  wire [31:0]  word,
    input  wire         mover,         // colour of the side making the move
    input  wire [5:0]   scan_sq,       // read port for the refresh scan (registered: the
    output reg  [3:0]   scan_piece,    // piece on scan_sq comes the clock after)
    output reg  [2:0]   n_changes,
    output reg  [3:0]   sub,
    output reg  [39:0]  feat_w,        // change i at [10i +: 10]
    output reg  [39:0]  feat_b
);
    localparam [2:0] PAWN = 3'd0, KING = 3'd5, ROOK = 3'd3;
    localparam [3:0] EMPTY = 4'b0111;
    localparam [3:0] F_CASTLE = 4'd2, F_EP = 4'd3, F_CAPTURE = 4'd4;

    // The refresh scan: the square's piece from the bitboards (a 64-way select a bit).
    always @(posedge clk)
        scan_piece <= kinds[scan_sq] ? {black[scan_sq], 3'd0} :
                      kinds[64 + scan_sq] ? {black[scan_sq], 3'd1} :
                      kinds[128 + scan_sq] ? {black[scan_sq], 3'd2} :
                      kinds[192 + scan_sq] ? {black[scan_sq], 3'd3} :
                      kinds[256 + scan_sq] ? {black[scan_sq], 3'd4} :
                      kinds[320 + scan_sq] ? {black[scan_sq], 3'd5} : EMPTY;

    wire [5:0] from = word[5:0];
    wire [5:0] to = word[11:6];
    wire [3:0] flag = word[15:12];
    wire [2:0] moving = word[18:16];
    wire [2:0] captured = word[29:27];
    wire       is_promo = flag[3];
    wire       is_castle = flag == F_CASTLE;
    wire       is_ep = flag == F_EP;
    wire       takes = flag == F_CAPTURE || (is_promo && flag[2]);
    wire [2:0] promo = {1'b0, flag[1:0]} + 3'd1;                  // knight .. queen
    wire       short = to > from;
    wire [5:0] king_dest = {from[5:3], short ? 3'd6 : 3'd2};
    wire [5:0] rook_dest = {from[5:3], short ? 3'd5 : 3'd3};
    wire [5:0] victim = {from[5:3], to[2:0]};                      // en passant
    wire       them = !mover;

    // Up to four changes {sub, colour, kind, square}.
    reg  [2:0] n;
    reg  [3:0] c_sub;
    reg        c_col [0:3];
    reg  [2:0] c_kind [0:3];
    reg  [5:0] c_sq [0:3];
    integer i;
    always @* begin
        n = 3'd0;
        c_sub = 4'd0;
        for (i = 0; i < 4; i = i + 1) begin
            c_col[i] = 1'b0;
            c_kind[i] = 3'd0;
            c_sq[i] = 6'd0;
        end
        if (is_castle) begin
            n = 3'd4;
            c_sub = 4'b0011;
            c_col[0] = mover; c_kind[0] = KING; c_sq[0] = from;
            c_col[1] = mover; c_kind[1] = ROOK; c_sq[1] = to;
            c_col[2] = mover; c_kind[2] = KING; c_sq[2] = king_dest;
            c_col[3] = mover; c_kind[3] = ROOK; c_sq[3] = rook_dest;
        end else if (is_ep) begin
            n = 3'd3;
            c_sub = 4'b0011;
            c_col[0] = mover; c_kind[0] = PAWN; c_sq[0] = from;
            c_col[1] = them;  c_kind[1] = PAWN; c_sq[1] = victim;
            c_col[2] = mover; c_kind[2] = PAWN; c_sq[2] = to;
        end else begin
            c_col[0] = mover; c_kind[0] = is_promo ? PAWN : moving; c_sq[0] = from;
            c_col[1] = mover; c_kind[1] = is_promo ? promo : moving; c_sq[1] = to;
            // Change 2, the victim (a capture), follows a clock later: see `cap` below.
            c_col[2] = them;  c_kind[2] = 3'd0;                      c_sq[2] = to;
            n = takes ? 3'd3 : 3'd2;
            c_sub = takes ? 4'b0101 : 4'b0001;
        end
    end

    // Feature index of a piece from one perspective: {enemy, kind, square (ranks flipped
    // for Black)}.
    function [9:0] feature(input persp_black, input col, input [2:0] kind, input [5:0] sq);
        feature = (col != persp_black ? 10'd384 : 10'd0) + {1'b0, kind, 6'd0}
                  + {4'd0, persp_black ? sq ^ 6'd56 : sq};
    endfunction

    // A capture's victim features are computed in the clock after the decode (the accumulator
    // unit reads change 2's row two clocks after change 0's), so the four features are not
    // one path.
    reg        cap;
    reg        cap_col;
    reg  [2:0] cap_kind;
    reg  [5:0] cap_sq;
    integer t;
    always @(posedge clk) begin
        cap <= make && !is_castle && !is_ep && takes;
        cap_col <= them;
        cap_kind <= captured;
        cap_sq <= to;
        if (cap) begin
            feat_w[20 +: 10] <= feature(1'b0, cap_col, cap_kind, cap_sq);
            feat_b[20 +: 10] <= feature(1'b1, cap_col, cap_kind, cap_sq);
        end
        // The changes are held until the next make (the accumulator unit reads them for
        // several clocks).
        if (make) begin
            n_changes <= n;
            sub <= c_sub;
            for (t = 0; t < 4; t = t + 1) begin
                feat_w[10 * t +: 10] <= feature(1'b0, c_col[t], c_kind[t], c_sq[t]);
                feat_b[10 * t +: 10] <= feature(1'b1, c_col[t], c_kind[t], c_sq[t]);
            end
        end
    end
endmodule

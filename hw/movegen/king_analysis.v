// Check and pin analysis of the side to move, along the four lines through its king (file,
// rank, two diagonals), in line coordinates with the generated 8-bit line ROM:
//   check_mask      squares a non-king move must land on: all squares when not in check, else
//                   the checker and the squares between it and the king;
//   pinned_axis     our pinned pieces per axis (AXIS_*): a pinned piece moves only along it;
//   leaper_checkers knights and pawns giving check; in_check, double_check;
//   many_checks     more than two pieces give check (no legal position has that: the search
//                   machine's loader refuses such a position with it).
// A ray from the king that ends on an enemy slider of the line's kind is a check; the same ray
// with our first piece lifted (a second ROM read) that ends on one is a pin of that piece.
// Free-running pipeline of nine register stages from the board registers (LATENCY): stage 0
// registers the words derived from the board here, next to their users, so that the board
// registers' wide fan-out ends in a flip-flop; each block RAM read is registered again before
// any logic uses it.
module king_analysis (
    input  wire         clk,
    input  wire [383:0] kinds,
    input  wire [127:0] colors,
    input  wire         side,
    output reg  [5:0]   king_sq,
    output reg  [63:0]  check_mask,
    output reg  [255:0] pinned_axis,   // axis a at [64a +: 64]
    output reg  [63:0]  leaper_checkers,
    output reg          in_check,
    output reg          double_check,
    output reg          many_checks
);
`include "estuary_defs.vh"
`include "gen/estuary_consts.vh"
`include "gen/estuary_tables.vh"

    // ---- stage 0: words derived from the board ----
    reg [63:0] ours0, occ0, orth0, diag0, knights0, pawns0, king0;
    reg        side0;
    always @(posedge clk) begin
        ours0 <= ours_of(colors);
        occ0 <= colors[127:64] | colors[63:0];
        orth0 <= (kinds[64 * KIND_ROOK +: 64] | kinds[64 * KIND_QUEEN +: 64]) & theirs_of(colors);
        diag0 <= (kinds[64 * KIND_BISHOP +: 64] | kinds[64 * KIND_QUEEN +: 64]) & theirs_of(colors);
        knights0 <= kinds[64 * KIND_KNIGHT +: 64] & theirs_of(colors);
        pawns0 <= kinds[64 * KIND_PAWN +: 64] & theirs_of(colors);
        king0 <= kinds[64 * KIND_KING +: 64] & ours_of(colors);
        side0 <= side;
    end

    // ---- stage 1: king square, its neighbourhood words ----
    reg [5:0]  k1;
    reg [63:0] king1;   // the king, one-hot (the leaper sets at it are shifts of it)
    reg [59:0] lsel1;   // the king's line on axis a, one-hot, at [15a +: 15]
    reg [63:0] ours1, occ1w, orth1, diag1, knights1, pawns1;
    reg        side1;
    always @(posedge clk) begin : king_lines
        integer a;
        k1 <= onehot_index(king0);
        king1 <= king0;
        for (a = 0; a < 4; a = a + 1)
            lsel1[15 * a +: 15] <= line_select(a[1:0], king0);
        ours1 <= ours0;
        occ1w <= occ0;
        orth1 <= orth0;
        diag1 <= diag0;
        knights1 <= knights0;
        pawns1 <= pawns0;
        side1 <= side0;
    end

    // ---- stage 2: line gathers (the line selects of stage 1), the leapers' squares at the
    // king: set-wise from the one-hot king (each bit an OR of up to 8 others), not a ROM read
    // at the king square, whose register fanned out to 128 ROM outputs ----
    reg [5:0]  k2g;
    reg [31:0] occ2g;   // line a at [8a +: 8]
    reg [31:0] own2g;
    reg [31:0] sl2g;
    reg [63:0] katt2g, patt2g, knights2g, pawns2g;   // leaper attacks of the king square, our leapers
    reg [63:0] kn1;
    always @* kn1 = leaper_reach(king1, 1'b1);
    always @(posedge clk) begin : lines_1
        integer a;
        k2g <= k1;
        for (a = 0; a < 4; a = a + 1) begin
            occ2g[8 * a +: 8] <= line_gather_sel(a[1:0], lsel1[15 * a +: 15], occ1w);
            own2g[8 * a +: 8] <= line_gather_sel(a[1:0], lsel1[15 * a +: 15], ours1);
            sl2g[8 * a +: 8] <= line_gather_sel(a[1:0], lsel1[15 * a +: 15], a < 2 ? orth1 : diag1);
        end
        katt2g <= kn1;
        // the squares from which an enemy pawn attacks the king: those our pawn there would attack
        patt2g <= side1 ? (step(king1, DIR_SE) | step(king1, DIR_SW)) : (step(king1, DIR_NE) | step(king1, DIR_NW));
        knights2g <= knights1;
        pawns2g <= pawns1;
    end

    // ---- stage 3: the king's line attacks (line ROM, block RAM), leaper checkers ----
    reg [5:0]  k2;
    reg [31:0] occ2;   // line a at [8a +: 8]
    reg [31:0] own2;   // line a at [8a +: 8]
    reg [31:0] sl2;   // line a at [8a +: 8]
    reg [31:0] att2;   // line a at [8a +: 8]
    reg [63:0] leap2;
    always @(posedge clk) begin : lines_2
        integer a;
        k2 <= k2g;
        leap2 <= (katt2g & knights2g) | (patt2g & pawns2g);
        for (a = 0; a < 4; a = a + 1) begin
            occ2[8 * a +: 8] <= occ2g[8 * a +: 8];
            own2[8 * a +: 8] <= own2g[8 * a +: 8];
            sl2[8 * a +: 8] <= sl2g[8 * a +: 8];
            att2[8 * a +: 8] <= rom_rank_attacks(line_pos(a[1:0], k2g), occ2g[8 * a +: 8]);
        end
    end

    // ---- stage 4: the block RAM's output, registered before any logic (a DP16KD without its
    // output register takes 5.8 ns from the clock) ----
    reg [5:0]  k2r;
    reg [31:0] occ2r, own2r, sl2r, att2r;
    reg [63:0] leap2r;
    always @(posedge clk) begin
        k2r <= k2;
        occ2r <= occ2;
        own2r <= own2;
        sl2r <= sl2;
        att2r <= att2;
        leap2r <= leap2;
    end

    // ---- stage 5: x-ray through our first pieces (line ROM, block RAM); the rays ----
    reg [5:0]  kx;
    reg [31:0] xatt4, up4, dn4, own4, sl4, abv4, blw4;
    reg [63:0] leap4;
    reg [31:0] xocc;
    always @* begin : lifted
        integer a;
        for (a = 0; a < 4; a = a + 1)
            xocc[8 * a +: 8] = occ2r[8 * a +: 8] & ~(att2r[8 * a +: 8] & own2r[8 * a +: 8]);
    end
    always @(posedge clk) begin : lines_x
        integer a;
        kx <= k2r;
        leap4 <= leap2r;
        own4 <= own2r;
        sl4 <= sl2r;
        for (a = 0; a < 4; a = a + 1) begin
            xatt4[8 * a +: 8] <= rom_rank_attacks(line_pos(a[1:0], k2r), xocc[8 * a +: 8]);
            abv4[8 * a +: 8] <= above8(line_pos(a[1:0], k2r));
            blw4[8 * a +: 8] <= below8(line_pos(a[1:0], k2r));
            up4[8 * a +: 8] <= att2r[8 * a +: 8] & above8(line_pos(a[1:0], k2r));
            dn4[8 * a +: 8] <= att2r[8 * a +: 8] & below8(line_pos(a[1:0], k2r));
        end
    end

    // ---- stage 6: the x-ray block RAM's output, registered ----
    reg [5:0]  kxr;
    reg [31:0] xatt4r, up4r, dn4r, own4r, sl4r, abv4r, blw4r;
    reg [63:0] leap4r;
    always @(posedge clk) begin
        kxr <= kx;
        xatt4r <= xatt4;
        abv4r <= abv4;
        blw4r <= blw4;
        up4r <= up4;
        dn4r <= dn4;
        own4r <= own4;
        sl4r <= sl4;
        leap4r <= leap4;
    end

    // ---- stage 7: checks and pins in line coordinates ----
    reg [5:0]  k3;
    reg [31:0] cm3;   // line a at [8a +: 8]    // check lines (ray from the king to a checker, checker included)
    reg [31:0] pin3;   // line a at [8a +: 8]   // pinned pieces
    reg [1:0]  nchk3;        // slider checkers, saturating at 2
    reg [63:0] leap3;
    reg        lchk3;        // a leaper gives check
    reg        many3;        // more than two checkers
    reg [7:0]  up, dn, xup, xdn;
    reg [2:0]  nchk;
    reg        leap_ge2, leap_ge3;
    always @(posedge clk) begin : lines_3
        integer a;
        k3 <= kxr;
        leap3 <= leap4r;
        lchk3 <= leap4r != 64'd0;
        nchk = 3'd0;
        for (a = 0; a < 4; a = a + 1) begin
            up = up4r[8 * a +: 8];
            dn = dn4r[8 * a +: 8];
            xup = xatt4r[8 * a +: 8] & abv4r[8 * a +: 8];
            xdn = xatt4r[8 * a +: 8] & blw4r[8 * a +: 8];
            cm3[8 * a +: 8] <= (((up & sl4r[8 * a +: 8]) != 8'd0) ? up : 8'd0) | (((dn & sl4r[8 * a +: 8]) != 8'd0) ? dn : 8'd0);
            pin3[8 * a +: 8] <= (((xup & sl4r[8 * a +: 8]) != 8'd0) ? (up & own4r[8 * a +: 8]) : 8'd0)
                     | (((xdn & sl4r[8 * a +: 8]) != 8'd0) ? (dn & own4r[8 * a +: 8]) : 8'd0);
            nchk = nchk + ((up & sl4r[8 * a +: 8]) != 8'd0) + ((dn & sl4r[8 * a +: 8]) != 8'd0);
        end
        nchk3 <= (nchk > 3'd1) ? 2'd2 : nchk[1:0];
        leap_ge2 = (leap4r & (leap4r - 64'd1)) != 64'd0;
        leap_ge3 = leap_ge2 && ((leap4r & (leap4r - 64'd1)) & ((leap4r & (leap4r - 64'd1)) - 64'd1)) != 64'd0;
        many3 <= nchk > 3'd2 || (nchk == 3'd2 && leap4r != 64'd0) || (nchk == 3'd1 && leap_ge2)
              || leap_ge3;
    end

    // ---- stage 8: back to squares ----
    reg [63:0] lines;
    always @* begin : lines_4
        integer a;
        lines = 64'd0;
        for (a = 0; a < 4; a = a + 1)
            lines = lines | line_scatter(a[1:0], line_id(a[1:0], k3), cm3[8 * a +: 8]);
    end
    // Two leapers never give check together (neither can be discovered), so a double check
    // has at least one slider.
    wire leaper_check = lchk3;
    always @(posedge clk) begin : lines_5
        integer a;
        king_sq <= k3;
        leaper_checkers <= leap3;
        in_check <= leaper_check || nchk3 != 2'd0;
        double_check <= nchk3 == 2'd2 || (leaper_check && nchk3 != 2'd0);
        many_checks <= many3;
        check_mask <= (leaper_check || nchk3 != 2'd0) ? (leap3 | lines) : ~64'd0;
        for (a = 0; a < 4; a = a + 1)
            pinned_axis[64 * a +: 64] <= line_scatter(a[1:0], line_id(a[1:0], k3), pin3[8 * a +: 8]);
    end
endmodule

// Check and pin analysis of the side to move, along the four lines through its king (file,
// rank, two diagonals), in line coordinates with the generated 8-bit line ROM:
//   check_mask      squares a non-king move must land on: all squares when not in check, else
//                   the checker and the squares between it and the king;
//   pinned_axis     our pinned pieces per axis (AXIS_*): a pinned piece moves only along it;
//   leaper_checkers knights and pawns giving check; in_check, double_check.
// A ray from the king that ends on an enemy slider of the line's kind is a check; the same ray
// with our first piece lifted (a second ROM read) that ends on one is a pin of that piece.
// Free-running pipeline of four register stages from the board registers: the outputs
// describe the board as it was four clocks earlier (LATENCY).
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
    output reg          double_check
);
`include "estuary_defs.vh"
`include "gen/estuary_consts.vh"
`include "gen/estuary_tables.vh"

    wire [63:0] ours = (side ? colors[127:64] : colors[63:0]);
    wire [63:0] them = (side ? colors[63:0] : colors[127:64]);
    wire [63:0] occ = ours | them;
    wire [63:0] their_orth = (kinds[64 * KIND_ROOK +: 64] | kinds[64 * KIND_QUEEN +: 64]) & them;
    wire [63:0] their_diag = (kinds[64 * KIND_BISHOP +: 64] | kinds[64 * KIND_QUEEN +: 64]) & them;
    wire [5:0]  ksq = onehot_index(kinds[64 * KIND_KING +: 64] & ours);

    // ---- stage 1: king square, line gathers, leaper checkers ----
    reg [5:0]  k1;
    reg [31:0] occ1;   // line a at [8a +: 8]
    reg [31:0] own1;   // line a at [8a +: 8]
    reg [31:0] sl1;   // line a at [8a +: 8]
    reg [63:0] leap1;
    always @(posedge clk) begin : lines_1
        integer a;
        k1 <= ksq;
        for (a = 0; a < 4; a = a + 1) begin
            occ1[8 * a +: 8] <= line_gather(a[1:0], line_id(a[1:0], ksq), occ);
            own1[8 * a +: 8] <= line_gather(a[1:0], line_id(a[1:0], ksq), ours);
            sl1[8 * a +: 8] <= line_gather(a[1:0], line_id(a[1:0], ksq), a < 2 ? their_orth : their_diag);
        end
        leap1 <= (rom_knight_attacks(ksq) & kinds[64 * KIND_KNIGHT +: 64] & them)
               | ((side ? rom_black_pawn_attacks(ksq) : rom_white_pawn_attacks(ksq))
                  & kinds[64 * KIND_PAWN +: 64] & them);
    end

    // ---- stage 2: the king's line attacks ----
    reg [5:0]  k2;
    reg [31:0] occ2;   // line a at [8a +: 8]
    reg [31:0] own2;   // line a at [8a +: 8]
    reg [31:0] sl2;   // line a at [8a +: 8]
    reg [31:0] att2;   // line a at [8a +: 8]
    reg [63:0] leap2;
    always @(posedge clk) begin : lines_2
        integer a;
        k2 <= k1;
        leap2 <= leap1;
        for (a = 0; a < 4; a = a + 1) begin
            occ2[8 * a +: 8] <= occ1[8 * a +: 8];
            own2[8 * a +: 8] <= own1[8 * a +: 8];
            sl2[8 * a +: 8] <= sl1[8 * a +: 8];
            att2[8 * a +: 8] <= rom_rank_attacks(line_pos(a[1:0], k1), occ1[8 * a +: 8]);
        end
    end

    // ---- stage 3: x-ray through our first pieces; checks and pins in line coordinates ----
    reg [5:0]  k3;
    reg [31:0] cm3;   // line a at [8a +: 8]    // check lines (ray from the king to a checker, checker included)
    reg [31:0] pin3;   // line a at [8a +: 8]   // pinned pieces
    reg [1:0]  nchk3;        // slider checkers, saturating at 2
    reg [63:0] leap3;
    reg [7:0]  xatt, up, dn, xup, xdn;
    reg [2:0]  p;
    reg [2:0]  nchk;
    always @(posedge clk) begin : lines_3
        integer a;
        k3 <= k2;
        leap3 <= leap2;
        nchk = 3'd0;
        for (a = 0; a < 4; a = a + 1) begin
            p = line_pos(a[1:0], k2);
            xatt = rom_rank_attacks(p, occ2[8 * a +: 8] & ~(att2[8 * a +: 8] & own2[8 * a +: 8]));
            up = att2[8 * a +: 8] & above8(p);
            dn = att2[8 * a +: 8] & below8(p);
            xup = xatt & above8(p);
            xdn = xatt & below8(p);
            cm3[8 * a +: 8] <= (((up & sl2[8 * a +: 8]) != 8'd0) ? up : 8'd0) | (((dn & sl2[8 * a +: 8]) != 8'd0) ? dn : 8'd0);
            pin3[8 * a +: 8] <= (((xup & sl2[8 * a +: 8]) != 8'd0) ? (up & own2[8 * a +: 8]) : 8'd0)
                     | (((xdn & sl2[8 * a +: 8]) != 8'd0) ? (dn & own2[8 * a +: 8]) : 8'd0);
            nchk = nchk + ((up & sl2[8 * a +: 8]) != 8'd0) + ((dn & sl2[8 * a +: 8]) != 8'd0);
        end
        nchk3 <= (nchk > 3'd1) ? 2'd2 : nchk[1:0];
    end

    // ---- stage 4: back to squares ----
    reg [63:0] lines;
    always @* begin : lines_4
        integer a;
        lines = 64'd0;
        for (a = 0; a < 4; a = a + 1)
            lines = lines | line_scatter(a[1:0], line_id(a[1:0], k3), cm3[8 * a +: 8]);
    end
    // Two leapers never give check together (neither can be discovered), so a double check
    // has at least one slider.
    wire leaper_check = leap3 != 64'd0;
    always @(posedge clk) begin : lines_5
        integer a;
        king_sq <= k3;
        leaper_checkers <= leap3;
        in_check <= leaper_check || nchk3 != 2'd0;
        double_check <= nchk3 == 2'd2 || (leaper_check && nchk3 != 2'd0);
        check_mask <= (leaper_check || nchk3 != 2'd0) ? (leap3 | lines) : ~64'd0;
        for (a = 0; a < 4; a = a + 1)
            pinned_axis[64 * a +: 64] <= line_scatter(a[1:0], line_id(a[1:0], k3), pin3[8 * a +: 8]);
    end
endmodule

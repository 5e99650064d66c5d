// Pin-limited harness for an iCE40 figure of one block: nextpnr-ice40 (Debian 0.4) has no
// out-of-context mode, so the block's wide inputs are filled from one serial pin through a
// shift register and its outputs are folded (XOR) into a registered byte. The registers on
// both sides make every path through the block register-to-register, as inside the generator.
//   BLOCK 0 king_analysis   1 enemy_attacks   2 piece_sets
module ice40_wrap #(
    parameter integer BLOCK = 0
) (
    input  wire       clk,
    input  wire       din,
    input  wire       ctl,
    output reg  [7:0] dout
);
    localparam integer W = 384 + 128 + 1 + 64 + 256 + 1;   // kinds, colors, side, check mask, pins, double check
    reg [W-1:0] sr;
    always @(posedge clk) sr <= {sr[W-2:0], din};
    wire [383:0] kinds = sr[0 +: 384];
    wire [127:0] colors = sr[384 +: 128];
    wire         side = sr[512];
    wire [63:0]  check_mask = sr[513 +: 64];
    wire [255:0] pinned_axis = sr[577 +: 256];
    wire         double_check = sr[833];

    reg  [1023:0] out;
    generate
        if (BLOCK == 0) begin : ka
            wire [5:0] ksq;
            wire [63:0] cm, lc;
            wire [255:0] pa;
            wire ic, dc;
            king_analysis u (.clk(clk), .kinds(kinds), .colors(colors), .side(side), .king_sq(ksq),
                .check_mask(cm), .pinned_axis(pa), .leaper_checkers(lc), .in_check(ic), .double_check(dc));
            always @* out = {ksq, cm, pa, lc, ic, dc};
        end else if (BLOCK == 1) begin : ea
            wire [63:0] att;
            enemy_attacks u (.clk(clk), .seed(ctl), .kinds(kinds), .colors(colors), .side(side), .attacks(att));
            always @* out = {att};
        end else begin : ps
            wire wv, dn;
            wire [3:0] slot;
            wire [5:0] sq;
            wire [63:0] set;
            piece_sets u (.clk(clk), .rst(1'b0), .start(ctl), .kinds(kinds), .colors(colors), .side(side),
                .check_mask(check_mask), .pinned_axis(pinned_axis), .double_check(double_check),
                .wr_valid(wv), .wr_slot(slot), .wr_sq(sq), .wr_set(set), .done(dn));
            always @* out = {wv, dn, slot, sq, set};
        end
    endgenerate

    integer i;
    reg [7:0] fold;
    always @* begin
        fold = 8'd0;
        for (i = 0; i < 1024; i = i + 1) fold[i % 8] = fold[i % 8] ^ out[i];
    end
    always @(posedge clk) dout <= fold;
endmodule

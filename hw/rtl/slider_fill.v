// Sliding attacks in one direction for a whole set of pieces at once (Kogge-Stone occluded
// fill): every square reached from a piece of `sources` over empty squares, plus the first
// occupied square (the blocker). Three doubling stages instead of seven single steps.
module slider_fill #(
    parameter [2:0] DIR = 3'd0
) (
    input  wire [63:0] sources,
    input  wire [63:0] empty,
    output wire [63:0] attacks
);
`include "estuary_defs.vh"

    // Squares a step in DIR may land on (the file it would wrap onto is excluded).
    localparam [63:0] LAND = (DIR == DIR_E || DIR == DIR_NE || DIR == DIR_SE) ? ~FILE_A :
                             (DIR == DIR_W || DIR == DIR_NW || DIR == DIR_SW) ? ~FILE_H : ~64'd0;
    localparam integer S = (DIR == DIR_N) ? 8 : (DIR == DIR_S) ? -8 : (DIR == DIR_E) ? 1 :
                           (DIR == DIR_W) ? -1 : (DIR == DIR_NE) ? 9 : (DIR == DIR_NW) ? 7 :
                           (DIR == DIR_SE) ? -7 : -9;

    function automatic [63:0] sh(input [63:0] b, input integer n);
        sh = (n > 0) ? (b << n) : (b >> (-n));
    endfunction

    wire [63:0] p0 = empty & LAND;
    wire [63:0] g1 = sources | (p0 & sh(sources, S));
    wire [63:0] p1 = p0 & sh(p0, S);
    wire [63:0] g2 = g1 | (p1 & sh(g1, 2 * S));
    wire [63:0] p2 = p1 & sh(p1, 2 * S);
    wire [63:0] g3 = g2 | (p2 & sh(g2, 4 * S));
    assign attacks = sh(g3, S) & LAND;
endmodule

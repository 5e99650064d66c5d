// Every square the opponent attacks, with our king lifted off the board (so the king cannot
// step back along a checking line). Leapers set-wise; sliders by an occluded fill in the 8
// directions, two steps a clock (unlike a Kogge-Stone fill, one small stage reused).
// Stage 0 registers the opponent's piece sets and the empty squares every clock (free-running,
// next to this unit); `seed` (one clock after the GEN, when stage 0 holds the generated board)
// starts the fill from them, and `attacks` is valid from the fourth clock after it while the
// board does not change.
module enemy_attacks (
    input  wire         clk,
    input  wire         seed,
    input  wire [383:0] kinds,
    input  wire [127:0] colors,
    input  wire         side,
    output reg  [63:0]  attacks
);
`include "estuary_defs.vh"
`include "gen/estuary_consts.vh"

    // ---- stage 0 ----
    reg [63:0] empty0, orth0, diag0, pawns0, knights0, king0;
    reg        side0;
    always @(posedge clk) begin
        empty0 <= ~((colors[127:64] | colors[63:0]) & ~(kinds[64 * KIND_KING +: 64] & ours_of(colors)));
        orth0 <= (kinds[64 * KIND_ROOK +: 64] | kinds[64 * KIND_QUEEN +: 64]) & theirs_of(colors);
        diag0 <= (kinds[64 * KIND_BISHOP +: 64] | kinds[64 * KIND_QUEEN +: 64]) & theirs_of(colors);
        pawns0 <= kinds[64 * KIND_PAWN +: 64] & theirs_of(colors);
        knights0 <= kinds[64 * KIND_KNIGHT +: 64] & theirs_of(colors);
        king0 <= kinds[64 * KIND_KING +: 64] & theirs_of(colors);
        side0 <= side;
    end

    reg [63:0] leaper;
    always @* begin : leapers
        integer i;
        leaper = side0 ? (step(pawns0, DIR_NE) | step(pawns0, DIR_NW))
                       : (step(pawns0, DIR_SE) | step(pawns0, DIR_SW));
        for (i = 0; i < 8; i = i + 1)
            leaper = leaper | knight_step(knights0, i[2:0]) | step(king0, i[2:0]);
    end

    reg [63:0] fill [0:7];   // direction d: the sliders and the squares they reach so far
    reg [63:0] empty;
    reg [63:0] leaper_r;
    reg [63:0] g;
    reg [63:0] reach;
    integer d;
    always @(posedge clk) begin
        if (seed) begin
            empty <= empty0;
            leaper_r <= leaper;
            for (d = 0; d < 8; d = d + 1)
                fill[d] <= (d < 4) ? orth0 : diag0;
        end else begin
            for (d = 0; d < 8; d = d + 1) begin
                g = fill[d] | (step(fill[d], d[2:0]) & empty);
                fill[d] <= g | (step(g, d[2:0]) & empty);
            end
        end
        reach = leaper_r;
        for (d = 0; d < 8; d = d + 1)
            reach = reach | step(fill[d], d[2:0]);
        attacks <= reach;
    end
endmodule

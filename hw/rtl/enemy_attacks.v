// Every square the opponent attacks, with our king lifted off the board (so the king cannot
// step back along a checking line). Leapers set-wise in one clock; sliders by an occluded fill
// in the 8 directions, two steps a clock (unlike a Kogge-Stone fill, one small stage reused):
// `start` seeds the fill from the board registers, and `attacks` is valid from the fifth clock
// after it (FILL_CLOCKS) while the board does not change.
module enemy_attacks (
    input  wire         clk,
    input  wire         start,
    input  wire [383:0] kinds,
    input  wire [127:0] colors,
    input  wire         side,
    output reg  [63:0]  attacks
);
`include "estuary_defs.vh"
`include "gen/estuary_consts.vh"

    wire [63:0] ours = (side ? colors[127:64] : colors[63:0]);
    wire [63:0] them = (side ? colors[63:0] : colors[127:64]);
    wire [63:0] our_king = kinds[64 * KIND_KING +: 64] & ours;
    wire [63:0] their_orth = (kinds[64 * KIND_ROOK +: 64] | kinds[64 * KIND_QUEEN +: 64]) & them;
    wire [63:0] their_diag = (kinds[64 * KIND_BISHOP +: 64] | kinds[64 * KIND_QUEEN +: 64]) & them;
    wire [63:0] their_pawns = kinds[64 * KIND_PAWN +: 64] & them;
    wire [63:0] their_knights = kinds[64 * KIND_KNIGHT +: 64] & them;
    wire [63:0] their_king = kinds[64 * KIND_KING +: 64] & them;

    reg [63:0] leaper;
    always @* begin : leapers
        integer i;
        leaper = side ? (step(their_pawns, DIR_NE) | step(their_pawns, DIR_NW))
                      : (step(their_pawns, DIR_SE) | step(their_pawns, DIR_SW));
        for (i = 0; i < 8; i = i + 1)
            leaper = leaper | knight_step(their_knights, i[2:0]) | step(their_king, i[2:0]);
    end

    reg [63:0] fill [0:7];   // direction d: the sliders and the squares they reach so far
    reg [63:0] empty;
    reg [63:0] leaper_r;
    reg [63:0] g;
    reg [63:0] reach;
    integer d;
    always @(posedge clk) begin
        if (start) begin
            empty <= ~((ours | them) & ~our_king);
            leaper_r <= leaper;
            for (d = 0; d < 8; d = d + 1)
                fill[d] <= (d < 4) ? their_orth : their_diag;
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

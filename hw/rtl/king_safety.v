// Check and pin analysis for the side to move, computed set-wise from the board registers:
//   enemy_attacks  every square the opponent attacks, seen through our king (for king moves);
//   checkers       the pieces giving check, double_check when there are two;
//   check_mask     squares a non-king move must land on (all squares when not in check, else
//                  the checker and the squares between it and the king);
//   pinned_axis    our pinned pieces, per axis (file, rank, diagonal, anti-diagonal) of the pin:
//                  a pinned piece may move only along that axis, which keeps it on the pin line.
// Eight rays from the king find sliding checkers; an x-ray through our own pieces finds pins.
module king_safety (
    input  wire [383:0] kinds,
    input  wire [127:0] colors,
    input  wire         side,
    output wire [63:0]  ours,
    output wire [63:0]  them,
    output wire [5:0]   king_sq,
    output wire [63:0]  enemy_attacks,
    output wire [63:0]  checkers,
    output wire         double_check,
    output wire [63:0]  check_mask,
    output wire [255:0] pinned_axis   // axis a at [64a +: 64]
);
`include "estuary_defs.vh"
`include "gen/estuary_consts.vh"
`include "gen/estuary_tables.vh"

    assign ours = colors[64 * side +: 64];
    assign them = colors[64 * (!side) +: 64];
    wire [63:0] occ = ours | them;
    wire [63:0] pawns = kinds[64 * KIND_PAWN +: 64];
    wire [63:0] knights = kinds[64 * KIND_KNIGHT +: 64];
    wire [63:0] bishops = kinds[64 * KIND_BISHOP +: 64];
    wire [63:0] rooks = kinds[64 * KIND_ROOK +: 64];
    wire [63:0] queens = kinds[64 * KIND_QUEEN +: 64];
    wire [63:0] kings = kinds[64 * KIND_KING +: 64];
    wire [63:0] our_king = kings & ours;
    assign king_sq = onehot_index(our_king);

    wire [63:0] their_orth = (rooks | queens) & them;   // slide along files and ranks
    wire [63:0] their_diag = (bishops | queens) & them;  // slide along diagonals

    // ---- the opponent's attack map, with our king lifted off the board ----
    wire [63:0] their_pawns = pawns & them;
    wire [63:0] their_knights = knights & them;
    wire [63:0] pawn_att = side ? (step(their_pawns, DIR_NE) | step(their_pawns, DIR_NW))
                                : (step(their_pawns, DIR_SE) | step(their_pawns, DIR_SW));
    reg  [63:0] leaper_att;
    integer i;
    always @* begin
        leaper_att = pawn_att;
        for (i = 0; i < 8; i = i + 1)
            leaper_att = leaper_att | knight_step(their_knights, i[2:0]) | step(kings & them, i[2:0]);
    end

    wire [511:0] slider_att;   // direction d at [64d +: 64]
    wire [511:0] king_ray;     // from our king over empty squares, up to the first piece
    wire [511:0] king_xray;    // from our king through our own pieces, up to the first enemy
    genvar d;
    generate
        for (d = 0; d < 8; d = d + 1) begin : ray
            localparam [2:0] D = d;
            localparam ORTH = (d < 4);
            slider_fill #(.DIR(D)) enemy_fill (
                .sources(ORTH ? their_orth : their_diag),
                .empty(~(occ & ~our_king)),
                .attacks(slider_att[64 * d +: 64]));
            slider_fill #(.DIR(D)) king_fill (
                .sources(our_king), .empty(~occ), .attacks(king_ray[64 * d +: 64]));
            slider_fill #(.DIR(D)) king_xfill (
                .sources(our_king), .empty(~them), .attacks(king_xray[64 * d +: 64]));
        end
    endgenerate

    // ---- checks and pins, per direction from the king ----
    reg [63:0] slider_checkers, slider_check_lines, enemy_att_r;
    reg [63:0] pins [0:3];
    reg [63:0] sliders_d, own_on_xray;
    integer dd;
    always @* begin
        slider_checkers = 64'd0;
        slider_check_lines = 64'd0;
        enemy_att_r = leaper_att;
        pins[0] = 64'd0; pins[1] = 64'd0; pins[2] = 64'd0; pins[3] = 64'd0;
        for (dd = 0; dd < 8; dd = dd + 1) begin
            enemy_att_r = enemy_att_r | slider_att[64 * dd +: 64];
            sliders_d = (dd < 4) ? their_orth : their_diag;
            if ((king_ray[64 * dd +: 64] & sliders_d) != 64'd0) begin
                slider_checkers = slider_checkers | (king_ray[64 * dd +: 64] & sliders_d);
                slider_check_lines = slider_check_lines | king_ray[64 * dd +: 64];
            end
            // Pinned: the x-ray ends on a slider of this direction and crosses exactly one of
            // our pieces, the first piece on the plain ray.
            own_on_xray = king_xray[64 * dd +: 64] & ours;
            if ((king_xray[64 * dd +: 64] & sliders_d) != 64'd0 && own_on_xray != 64'd0
                && own_on_xray == (king_ray[64 * dd +: 64] & ours))
                pins[dir_axis(dd[2:0])] = pins[dir_axis(dd[2:0])] | own_on_xray;
        end
    end

    wire [63:0] leaper_checkers = (rom_knight_attacks(king_sq) & their_knights)
        | ((side ? rom_black_pawn_attacks(king_sq) : rom_white_pawn_attacks(king_sq)) & their_pawns);
    assign checkers = leaper_checkers | slider_checkers;
    assign double_check = (checkers & (checkers - 64'd1)) != 64'd0;
    assign check_mask = (checkers == 64'd0) ? ~64'd0 : (leaper_checkers | slider_check_lines);
    assign enemy_attacks = enemy_att_r;
    assign pinned_axis = {pins[3], pins[2], pins[1], pins[0]};
endmodule

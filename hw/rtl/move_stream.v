// The move stream: holds the channel sets from move_sets and hands out one move per clock,
// captures first in MVV-LVA order. Each cycle
//   1. picks the phase: the most valuable victim kind (queen .. pawn, from the generated
//      VICTIM_p order) that some channel can still capture, then promotion pushes, then quiet
//      moves (all mode only);
//   2. picks the first channel with a destination in that phase (channels are numbered from
//      the least valuable attacker up, so within a victim the cheapest attacker goes first);
//   3. takes that channel's lowest destination square, works out the origin (fixed step back
//      for pawns, knights; the first occupied square back along the ray for sliders, via the
//      generated ray ROM; the king square for king moves and castling) and emits the move.
// A promotion destination is emitted four times (queen, knight, bishop, rook) before it is
// cleared; in captures-only mode a promotion push yields only the queen.
module move_stream (
    input  wire          clk,
    input  wire          rst,
    input  wire          start,           // latch `sets` and begin streaming
    input  wire          captures_only,
    input  wire [2303:0] sets,
    input  wire          side,
    input  wire [63:0]   ours,
    input  wire [63:0]   them,
    input  wire [383:0]  kinds,
    input  wire [5:0]    king_sq,
    output reg           move_valid,
    output reg  [15:0]   move,
    output reg           done,            // one-cycle pulse after the last move
    output wire          finishing        // nothing left: done (and ready) at the next clock
);
`include "estuary_defs.vh"
`include "gen/estuary_consts.vh"
`include "gen/estuary_tables.vh"

    localparam integer NCH = 36;
    localparam integer CH_EP_W = 4, CH_EP_E = 5, CH_KING = 30, CH_PUSH = 31, CH_DOUBLE = 32;
    localparam integer CH_PROMO_PUSH = 33, CH_CASTLE_SHORT = 34, CH_CASTLE_LONG = 35;

    // Channels that take ordinary destinations: pawn and promotion captures, pieces, king.
    function automatic is_piece_channel(input integer c);
        is_piece_channel = (c < CH_EP_W) || (c > CH_EP_E && c <= CH_KING);
    endfunction
    function automatic [2:0] slider_dir(input integer c);   // channels 14-29
        slider_dir = (c < 18) ? c - 10 : (c < 22) ? c - 18 : c - 22;
    endfunction

    reg [63:0] w [0:NCH-1];
    reg        active, mode_captures;
    reg [1:0]  promo_count;

    wire [63:0] occ = ours | them;
    wire [63:0] victim [0:4];
    assign victim[0] = kinds[64 * VICTIM_0 +: 64] & them;
    assign victim[1] = kinds[64 * VICTIM_1 +: 64] & them;
    assign victim[2] = kinds[64 * VICTIM_2 +: 64] & them;
    assign victim[3] = kinds[64 * VICTIM_3 +: 64] & them;
    assign victim[4] = kinds[64 * VICTIM_4 +: 64] & them;

    // ---- 1. phase ----
    reg [63:0] reach;
    reg [6:0]  pending;
    reg [2:0]  phase;
    integer c, p, q, x;
    always @* begin
        reach = 64'd0;
        for (c = 0; c < NCH; c = c + 1)
            if (is_piece_channel(c)) reach = reach | w[c];
        for (p = 0; p < 5; p = p + 1)
            pending[p] = (reach & victim[p]) != 64'd0;
        pending[4] = pending[4] | (w[CH_EP_W] != 64'd0) | (w[CH_EP_E] != 64'd0);
        pending[5] = w[CH_PROMO_PUSH] != 64'd0;
        pending[6] = !mode_captures && ((reach & ~them) != 64'd0 || w[CH_PUSH] != 64'd0
                     || w[CH_DOUBLE] != 64'd0 || w[CH_CASTLE_SHORT] != 64'd0 || w[CH_CASTLE_LONG] != 64'd0);
        phase = 3'd7;
        for (p = 6; p >= 0; p = p - 1)
            if (pending[p]) phase = p[2:0];
    end
    wire any = active && pending != 7'd0;
    assign finishing = active && !any;

    // ---- 2. channel ----
    // Per channel: its destinations in this phase; the lowest channel with any wins. The pick is
    // a one-hot isolate (carry chain) and an AND-OR tree, not a 36-deep priority mux.
    reg [63:0] act [0:NCH-1];
    reg [63:0] piece_mask;
    reg [NCH-1:0] has;
    always @* begin
        case (phase)
            3'd0, 3'd1, 3'd2, 3'd3, 3'd4: piece_mask = victim[phase];
            3'd6: piece_mask = ~them;
            default: piece_mask = 64'd0;
        endcase
        for (q = 0; q < NCH; q = q + 1) begin
            if (is_piece_channel(q)) act[q] = w[q] & piece_mask;
            else if (q == CH_EP_W || q == CH_EP_E) act[q] = (phase == 3'd4) ? w[q] : 64'd0;
            else if (q == CH_PROMO_PUSH) act[q] = (phase == 3'd5) ? w[q] : 64'd0;
            else act[q] = (phase == 3'd6) ? w[q] : 64'd0;
            has[q] = act[q] != 64'd0;
        end
    end
    wire [NCH-1:0] first = has & (~has + 1'b1);
    reg  [63:0] chosen;
    reg  [5:0]  sel;
    integer y;
    always @* begin
        chosen = 64'd0;
        sel = 6'd0;
        for (y = 0; y < NCH; y = y + 1) begin
            chosen = chosen | (first[y] ? act[y] : 64'd0);
            sel = sel | (first[y] ? y[5:0] : 6'd0);
        end
    end

    // ---- 3. destination, origin, flag ----
    wire [63:0] to_bb = lowest_bit(chosen);
    wire [5:0]  to = onehot_index(to_bb);
    wire [2:0]  up = side ? DIR_S : DIR_N;
    wire [2:0]  cap_w = side ? DIR_SW : DIR_NW;
    wire [2:0]  cap_e = side ? DIR_SE : DIR_NE;
    // Slider origin: nearest occupied square behind `to`, looking against the move.
    wire [2:0]  sdir = slider_dir(sel);
    wire [63:0] behind = rom_ray(dir_opposite(sdir), to) & occ;
    wire [5:0]  slider_from = onehot_index((dir_delta(sdir) > 0) ? highest_bit(behind) : lowest_bit(behind));
    wire [1:0]  promo_low = (promo_count == 2'd0) ? 2'd3 : promo_count - 2'd1;  // Q N B R
    wire        capture = (them & to_bb) != 64'd0;

    reg [5:0] from;
    reg [3:0] flag;
    reg       last;   // this is the last move for destination `to` in channel `sel`
    always @* begin
        last = 1'b1;
        flag = capture ? FLAG_CAPTURE : FLAG_QUIET;
        case (sel)
            6'd0, 6'd2, 6'd4: from = to - dir_delta(cap_w);
            6'd1, 6'd3, 6'd5: from = to - dir_delta(cap_e);
            CH_KING, CH_CASTLE_SHORT, CH_CASTLE_LONG: from = king_sq;
            CH_PUSH, CH_PROMO_PUSH: from = to - dir_delta(up);
            CH_DOUBLE: from = to - dir_delta(up) - dir_delta(up);
            default: from = (sel < 6'd14) ? to - knight_delta(sel - 6'd6) : slider_from;
        endcase
        case (sel)
            6'd2, 6'd3: begin
                flag = {2'b11, promo_low};
                last = promo_count == 2'd3;
            end
            CH_PROMO_PUSH: begin
                flag = {2'b10, promo_low};
                last = promo_count == 2'd3 || mode_captures;
            end
            CH_EP_W, CH_EP_E: flag = FLAG_EN_PASSANT;
            CH_DOUBLE: flag = FLAG_DOUBLE_PUSH;
            CH_CASTLE_SHORT, CH_CASTLE_LONG: flag = FLAG_CASTLE;
            default: ;
        endcase
    end

    always @(posedge clk) begin
        if (rst) begin
            active <= 1'b0;
            move_valid <= 1'b0;
            done <= 1'b0;
            promo_count <= 2'd0;
        end else if (start) begin
            for (x = 0; x < NCH; x = x + 1) w[x] <= sets[64 * x +: 64];
            active <= 1'b1;
            mode_captures <= captures_only;
            promo_count <= 2'd0;
            move_valid <= 1'b0;
            done <= 1'b0;
        end else begin
            move_valid <= any;
            move <= {flag, to, from};
            done <= active && !any;
            if (active && !any) active <= 1'b0;
            if (any) begin
                if (last) begin
                    w[sel] <= w[sel] & ~to_bb;
                    promo_count <= 2'd0;
                end else begin
                    promo_count <= promo_count + 2'd1;
                end
            end
        end
    end
endmodule

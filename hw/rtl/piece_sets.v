// The piece generator, time-multiplexed: one of our knights, bishops, rooks or queens a clock,
// in attacker order (ATTACKER_0 .. ATTACKER_3, least valuable first), through a 4-stage
// pipeline that writes the piece's legal destination set into the next slot of move_stream:
//   0  iterator: lowest square of the current kind's remaining pieces;
//   1  the occupancy of the four lines through it (line gathers), and its knight jumps (ROM);
//   2  the line ROM: attacks along each line, in line coordinates;
//   3  back to squares (line scatters) for the lines the kind moves on, only the pin's line
//      for a pinned piece (none for a pinned knight), masked by the check mask and our pieces.
// Pawns and the king are generated set-wise elsewhere (pawn_king_sets). `done` rises when
// every piece has left the pipeline.
module piece_sets (
    input  wire         clk,
    input  wire         rst,
    input  wire         start,
    input  wire [383:0] kinds,
    input  wire [127:0] colors,
    input  wire         side,
    // from king_analysis (valid by the time the first piece reaches stage 3)
    input  wire [63:0]  check_mask,
    input  wire [255:0] pinned_axis,
    input  wire         double_check,
    output reg          wr_valid,
    output reg  [3:0]   wr_slot,
    output reg  [5:0]   wr_sq,
    output reg  [63:0]  wr_set,
    output wire         done
);
`include "estuary_defs.vh"
`include "gen/estuary_consts.vh"
`include "gen/estuary_tables.vh"

    wire [63:0] ours = (side ? colors[127:64] : colors[63:0]);
    wire [63:0] occ = colors[0 +: 64] | colors[64 +: 64];
    wire [63:0] of_kind [0:3];
    assign of_kind[0] = kinds[64 * ATTACKER_0 +: 64] & ours;
    assign of_kind[1] = kinds[64 * ATTACKER_1 +: 64] & ours;
    assign of_kind[2] = kinds[64 * ATTACKER_2 +: 64] & ours;
    assign of_kind[3] = kinds[64 * ATTACKER_3 +: 64] & ours;

    // ---- 0. iterator ----
    reg [63:0] kset [0:3];
    reg [3:0]  nonempty;
    reg [63:0] rem;
    reg [1:0]  kcur;
    reg        active;
    reg [3:0]  slot;
    // lowest kind above k with pieces (3'd4: none)
    function automatic [2:0] next_kind(input [3:0] ne, input [1:0] k);
        integer j;
        begin
            next_kind = 3'd4;
            for (j = 3; j >= 0; j = j - 1)
                if (ne[j] && j > k) next_kind = j[2:0];
        end
    endfunction
    wire [3:0] ne_now = {of_kind[3] != 64'd0, of_kind[2] != 64'd0, of_kind[1] != 64'd0, of_kind[0] != 64'd0};
    wire [2:0] first_kind = ne_now[0] ? 3'd0 : ne_now[1] ? 3'd1 : ne_now[2] ? 3'd2 : ne_now[3] ? 3'd3 : 3'd4;
    wire [63:0] pick = lowest_bit(rem);
    wire [63:0] rem_after = rem & ~pick;
    wire [2:0]  nk = next_kind(nonempty, kcur);

    reg        v0;
    reg [5:0]  sq0;
    reg [1:0]  k0;
    reg [3:0]  s0;
    integer j;
    always @(posedge clk) begin
        v0 <= 1'b0;
        if (rst) begin
            active <= 1'b0;
        end else if (start) begin
            for (j = 0; j < 4; j = j + 1) kset[j] <= of_kind[j];
            nonempty <= ne_now;
            active <= !first_kind[2];
            kcur <= first_kind[1:0];
            rem <= (first_kind == 3'd0) ? of_kind[0] : (first_kind == 3'd1) ? of_kind[1]
                 : (first_kind == 3'd2) ? of_kind[2] : of_kind[3];
            slot <= 4'd0;
        end else if (active) begin
            v0 <= 1'b1;
            sq0 <= onehot_index(pick);
            k0 <= kcur;
            s0 <= slot;
            slot <= slot + 4'd1;
            if (rem_after != 64'd0) begin
                rem <= rem_after;
            end else if (!nk[2]) begin
                kcur <= nk[1:0];
                rem <= kset[nk[1:0]];
            end else begin
                active <= 1'b0;
            end
        end
    end

    // ---- 1. line gathers, knight jumps ----
    reg        v1;
    reg [5:0]  sq1;
    reg [1:0]  k1;
    reg [3:0]  s1;
    reg [31:0] occ1;   // line a at [8a +: 8]
    reg [63:0] jumps1;
    always @(posedge clk) begin : lines_1
        integer a;
        v1 <= v0;
        sq1 <= sq0;
        k1 <= k0;
        s1 <= s0;
        for (a = 0; a < 4; a = a + 1)
            occ1[8 * a +: 8] <= line_gather(a[1:0], line_id(a[1:0], sq0), occ);
        jumps1 <= rom_knight_attacks(sq0);
    end

    // ---- 2. line ROM ----
    reg        v2;
    reg [5:0]  sq2;
    reg [1:0]  k2;
    reg [3:0]  s2;
    reg [31:0] att2;   // line a at [8a +: 8]
    reg [63:0] jumps2;
    always @(posedge clk) begin : lines_2
        integer a;
        v2 <= v1;
        sq2 <= sq1;
        k2 <= k1;
        s2 <= s1;
        jumps2 <= jumps1;
        for (a = 0; a < 4; a = a + 1)
            att2[8 * a +: 8] <= rom_rank_attacks(line_pos(a[1:0], sq1), occ1[8 * a +: 8]);
    end

    // ---- 3. scatter, kind, pin, check mask ----
    wire [2:0] kind2 = (k2 == 2'd0) ? ATTACKER_0 : (k2 == 2'd1) ? ATTACKER_1 : (k2 == 2'd2) ? ATTACKER_2 : ATTACKER_3;
    wire [3:0] pin_on;   // the piece is pinned along axis a
    genvar ga;
    generate
        for (ga = 0; ga < 4; ga = ga + 1) begin : pin
            assign pin_on[ga] = pinned_axis[64 * ga + sq2];
        end
    endgenerate
    wire pinned = pin_on != 4'd0;
    reg [63:0] moves;
    reg        line_ok;
    always @* begin : lines_3
        integer a;
        moves = (kind2 == KIND_KNIGHT && !pinned) ? jumps2 : 64'd0;
        for (a = 0; a < 4; a = a + 1) begin
            line_ok = (a < 2) ? (kind2 == KIND_ROOK || kind2 == KIND_QUEEN)
                              : (kind2 == KIND_BISHOP || kind2 == KIND_QUEEN);
            if (line_ok && (!pinned || pin_on[a]))
                moves = moves | line_scatter(a[1:0], line_id(a[1:0], sq2), att2[8 * a +: 8]);
        end
    end
    always @(posedge clk) begin
        wr_valid <= v2;
        wr_slot <= s2;
        wr_sq <= sq2;
        wr_set <= double_check ? 64'd0 : (moves & check_mask & ~ours);
    end

    assign done = !active && !v0 && !v1 && !v2 && !wr_valid;
endmodule

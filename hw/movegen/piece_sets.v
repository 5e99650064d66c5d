// The piece generator, time-multiplexed: one of our knights, bishops, rooks or queens a clock,
// in attacker order (ATTACKER_0 .. ATTACKER_3, least valuable first), through a pipeline that
// writes the piece's legal destination set into the next slot of move_stream:
//   words     our pieces of each kind, the occupancy (free-running, next to this unit), then
//             each kind's set and the same set without its lowest piece;
//   iterator  the current kind's set `rem`, `rem2` (rem without its lowest piece) and `rem3`
//             (rem2 without its lowest): the piece is rem ^ rem2, so the loop is one carry
//             chain (rem3 & (rem3 - 1)), and "last of its kind" (rem2 == 0) is registered from
//             rem3 == 0, a test of a register;
//   1  the occupancy of the four lines through the piece (line gathers), its knight jumps;
//   2  the line ROM (block RAM): attacks along each line, in line coordinates, registered
//      again before any logic (2r);
//   3  back to squares (line scatters), one set per line the kind moves on;
//   4  the pin of the piece (its axis, from king_analysis);
//   5  the lines it may use (only the pin's line for a pinned piece, none for a pinned
//      knight), masked by the check mask and our pieces.
// Pawns and the king are generated set-wise elsewhere (pawn_king_sets). `done` rises when
// every piece has left the pipeline.
module piece_sets (
    input  wire         clk,
    input  wire         rst,
    input  wire         start,          // three clocks after the GEN (its board is in the words)
    input  wire [383:0] kinds,
    input  wire [127:0] colors,
    input  wire         side,
    // from king_analysis (valid by the time the first piece reaches stage 4)
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

    // ---- words (free-running) ----
    reg [63:0] of_kind0 [0:3];
    reg [63:0] ours0, occ0;
    reg [63:0] kset [0:3];    // of_kind0, a clock later
    reg [63:0] kset2 [0:3];   // the same without its lowest piece
    reg [3:0]  nonempty;
    reg [63:0] kset3 [0:3];   // kset2 without its lowest piece, a clock later
    reg [3:0]  single;        // the kind has exactly one piece (kset2 == 0), a clock later
    reg [63:0] ours_w, occ_w;
    integer j;
    always @(posedge clk) begin
        of_kind0[0] <= kinds[64 * ATTACKER_0 +: 64] & ours_of(colors);
        of_kind0[1] <= kinds[64 * ATTACKER_1 +: 64] & ours_of(colors);
        of_kind0[2] <= kinds[64 * ATTACKER_2 +: 64] & ours_of(colors);
        of_kind0[3] <= kinds[64 * ATTACKER_3 +: 64] & ours_of(colors);
        ours0 <= ours_of(colors);
        occ0 <= colors[127:64] | colors[63:0];
        ours_w <= ours0;
        occ_w <= occ0;
        for (j = 0; j < 4; j = j + 1) begin
            kset[j] <= of_kind0[j];
            kset2[j] <= of_kind0[j] & (of_kind0[j] - 64'd1);
            nonempty[j] <= of_kind0[j] != 64'd0;
            kset3[j] <= kset2[j] & (kset2[j] - 64'd1);
            single[j] <= kset2[j] == 64'd0;
        end
    end

    function automatic [2:0] attacker_kind(input [1:0] k);
        attacker_kind = (k == 2'd0) ? ATTACKER_0 : (k == 2'd1) ? ATTACKER_1 : (k == 2'd2) ? ATTACKER_2 : ATTACKER_3;
    endfunction

    // ---- iterator ----
    reg [63:0] rem, rem2, rem3;
    reg [1:0]  kcur;
    reg        active;
    reg [3:0]  slot;
    // lowest kind above k with pieces (3'd4: none)
    function automatic [2:0] next_kind(input [3:0] ne, input [1:0] k);
        integer i;
        begin
            next_kind = 3'd4;
            for (i = 3; i >= 0; i = i - 1)
                if (ne[i] && i > k) next_kind = i[2:0];
        end
    endfunction
    wire [2:0] first_kind = nonempty[0] ? 3'd0 : nonempty[1] ? 3'd1 : nonempty[2] ? 3'd2 : nonempty[3] ? 3'd3 : 3'd4;
    // What the iterator loads when it starts or leaves kind k, registered from the words
    // (which hold still while generating), so a kind change is a 3:1 select of registers:
    // the set, the set without its lowest piece and without its two lowest, whether the
    // lowest is the only one, the kind. The kinds are chosen from `nonempty` (a clock after
    // kset); kset3 and `single` come a clock later still (no carry chain feeds a zero test
    // or a select in one clock), so the start selects them by the registered first kind,
    // and next_set3 / next_last are selected by the registered next kinds.
    reg [63:0] first_set, first_set2;
    reg        first_ok;
    reg [1:0]  first_k;
    reg [63:0] next_set [0:2];
    reg [63:0] next_set2 [0:2];
    reg [63:0] next_set3 [0:2];
    reg [2:0]  next_last, next_ok;
    reg [1:0]  next_k [0:2];
    always @(posedge clk) begin : next_sets
        integer k;
        reg [2:0] nk;
        first_set <= kset[first_kind[1:0]];
        first_set2 <= kset2[first_kind[1:0]];
        first_ok <= !first_kind[2];
        first_k <= first_kind[1:0];
        for (k = 0; k < 3; k = k + 1) begin
            nk = next_kind(nonempty, k[1:0]);
            next_set[k] <= kset[nk[1:0]];
            next_set2[k] <= kset2[nk[1:0]];
            next_ok[k] <= !nk[2];
            next_k[k] <= nk[1:0];
            next_set3[k] <= kset3[next_k[k]];
            next_last[k] <= single[next_k[k]];
        end
    end
    reg        last;   // rem2 == 0: the current piece is the last of its kind

    reg        v0;
    reg [5:0]  sq0;
    reg [59:0] lsel0;  // the piece's line on axis a, one-hot, at [15a +: 15]
    reg [1:0]  k0;
    reg [3:0]  s0;
    // The piece's square, lines, kind and slot are registered every clock (no enable from
    // `active`: they matter only with v0).
    always @(posedge clk) begin : stage0
        integer a;
        sq0 <= onehot_index(rem ^ rem2);
        for (a = 0; a < 4; a = a + 1)
            lsel0[15 * a +: 15] <= line_select(a[1:0], rem ^ rem2);
        k0 <= kcur;
        s0 <= slot;
    end
    // The slot counts every clock from `start`: the iterator is active in the clocks right
    // after it, one piece a clock without a gap, so the count is the piece's number while
    // it matters (with v0; at most 15 pieces, so it does not wrap before the last). No
    // enable from `active` (the iterator's own next-state logic) reaches the counter.
    always @(posedge clk) slot <= start ? 4'd0 : slot + 4'd1;
    always @(posedge clk) begin : iterate
        v0 <= 1'b0;
        if (rst) begin
            active <= 1'b0;
        end else if (start) begin
            active <= first_ok;
            kcur <= first_k;
            rem <= first_set;
            rem2 <= first_set2;
            rem3 <= kset3[first_k];
            last <= single[first_k];
        end else if (active) begin
            v0 <= 1'b1;
            if (!last) begin
                rem <= rem2;
                rem2 <= rem3;
                rem3 <= rem3 & (rem3 - 64'd1);
                last <= rem3 == 64'd0;
            end else begin
                // kcur is 3 only with its last piece, and then next_ok[3] would be 0
                active <= kcur != 2'd3 && next_ok[kcur];
                kcur <= next_k[kcur];
                rem <= next_set[kcur];
                rem2 <= next_set2[kcur];
                rem3 <= next_set3[kcur];
                last <= next_last[kcur];
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
            occ1[8 * a +: 8] <= line_gather_sel(a[1:0], lsel0[15 * a +: 15], occ_w);
        jumps1 <= (attacker_kind(k0) == KIND_KNIGHT) ? rom_knight_attacks(sq0) : 64'd0;
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

    // ---- 2r. the block RAM's output, registered before any logic ----
    reg        v2r;
    reg [5:0]  sq2r;
    reg [1:0]  k2r;
    reg [3:0]  s2r;
    reg [31:0] att2r;
    reg [63:0] jumps2r;
    always @(posedge clk) begin
        v2r <= v2;
        sq2r <= sq2;
        k2r <= k2;
        s2r <= s2;
        att2r <= att2;
        jumps2r <= jumps2;
    end

    // ---- 3. scatter, per line the kind moves on ----
    wire [2:0] kind2 = attacker_kind(k2r);
    reg        v3;
    reg [5:0]  sq3;
    reg [3:0]  s3;
    reg [255:0] line3;   // line a at [64a +: 64]
    reg [63:0] jumps3;
    always @(posedge clk) begin : lines_3
        integer a;
        v3 <= v2r;
        sq3 <= sq2r;
        s3 <= s2r;
        jumps3 <= jumps2r;
        for (a = 0; a < 4; a = a + 1)
            line3[64 * a +: 64] <= (((a < 2) ? (kind2 == KIND_ROOK || kind2 == KIND_QUEEN)
                                             : (kind2 == KIND_BISHOP || kind2 == KIND_QUEEN))
                                    ? line_scatter(a[1:0], line_id(a[1:0], sq2r), att2r[8 * a +: 8]) : 64'd0);
    end

    // ---- 4. the pin ----
    reg        v4;
    reg [5:0]  sq4;
    reg [3:0]  s4;
    reg [255:0] line4;
    reg [63:0] jumps4;
    reg [3:0]  pin4;     // the piece is pinned along axis a
    always @(posedge clk) begin : pin_lookup
        integer a;
        v4 <= v3;
        sq4 <= sq3;
        s4 <= s3;
        line4 <= line3;
        jumps4 <= jumps3;
        for (a = 0; a < 4; a = a + 1)
            pin4[a] <= pinned_axis[64 * a + sq3];
    end

    // ---- 5. legal destinations ----
    reg [63:0] moves;
    always @* begin : lines_5
        integer a;
        moves = (pin4 == 4'd0) ? jumps4 : 64'd0;
        for (a = 0; a < 4; a = a + 1)
            if (pin4 == 4'd0 || pin4[a])
                moves = moves | line4[64 * a +: 64];
    end
    always @(posedge clk) begin
        wr_valid <= v4;
        wr_slot <= s4;
        wr_sq <= sq4;
        wr_set <= double_check ? 64'd0 : (moves & check_mask & ~ours_w);
    end

    assign done = !active && !v0 && !v1 && !v2 && !v2r && !v3 && !v4 && !wr_valid;
endmodule

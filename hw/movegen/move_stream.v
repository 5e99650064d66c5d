// The move stream: collects the legal destination sets of every source (pawn channels, piece
// slots, the king, castling) and hands out one move per clock, captures first in MVV-LVA
// order. Sources, in attacker order (least valuable first):
//   0-8 pawn channels (see pawn_king_sets)   9-24 piece slots 0-15 (piece_sets fills them in
//   attacker order)   25 king   26-27 castling short/long (quiet; king takes rook).
// Phases: 0-4 captures of the victim kind VICTIM_p (most valuable first; en passant in the
// pawn phase), 5 promotion pushes, 6 quiet moves (all mode only).
//
// Three decoupled units, so that no path runs through all of them:
//   selector  flags F[phase][source] ("this source has a move in this phase"), written a
//             clock after the sets arrive (a flag stage tests each set against the victims).
//             Each clock it takes the lowest source of the current phase's row (a 28-bit
//             isolate), clears it and issues the group (phase, source); the next non-empty
//             phase's row waits in a register and the phase after it is a registered one-hot,
//             so a phase change costs no clock and no path runs through a phase search;
//   fetch     reads the source's set (slot sets sit in a small RAM), masks it to the phase's
//             victims and queues the group (4 entries);
//   emitter   holds one group and takes its lowest destination each clock (a promotion
//             destination four times: queen, knight, bishop, rook; captures-only mode makes a
//             promotion push a queen only), loading the next queued group as the last move of
//             a group leaves. Two output stages turn destination and source into the move word.
// A group of one move a clock keeps the queue level, so the stream runs at one move per
// clock once the first group is out.
module move_stream (
    input  wire          clk,
    input  wire          rst,
    input  wire          start,          // clear the flags (GEN accepted)
    input  wire          captures_only,  // valid from start
    input  wire          count_only,     // valid from start: count the moves, stream none
    input  wire          go,             // every set has been written: start selecting
    input  wire [383:0]  kinds,
    input  wire [127:0]  colors,
    input  wire          side,
    input  wire [5:0]    king_sq,
    // pawn channels and the king, castling (set-wise, from registers held through the
    // generate; flagged on load_sets)
    input  wire          load_sets,
    input  wire [575:0]  pawn_sets,
    input  wire [63:0]   king_set,
    input  wire [1:0]    castle_ok,
    input  wire [11:0]   castle_sq,
    // piece slots, one a clock
    input  wire          wr_valid,
    input  wire [3:0]    wr_slot,
    input  wire [5:0]    wr_sq,
    input  wire [63:0]   wr_set,
    output reg           move_valid,
    output reg  [15:0]   move,
    output reg           done,           // one-clock pulse with or after the last move
    output wire [11:0]   next_squares,   // the next move's destination and origin (`move`'s
                                         // low 12 bits a clock early)
    output reg  [7:0]    count,          // count-only mode: the number of moves, with done
    output wire          release_next    // done rises at the next clock
);
`include "estuary_defs.vh"
`include "gen/estuary_consts.vh"

    localparam integer NSRC = 28;
    localparam [4:0] SRC_PROMO_CAP_W = 5'd2, SRC_PROMO_CAP_E = 5'd3, SRC_EP_W = 5'd4, SRC_EP_E = 5'd5;
    localparam [4:0] SRC_PUSH = 5'd6, SRC_DOUBLE = 5'd7, SRC_PROMO_PUSH = 5'd8, SRC_SLOT0 = 5'd9;
    localparam [4:0] SRC_KING = 5'd25, SRC_CASTLE_S = 5'd26, SRC_CASTLE_L = 5'd27;
    localparam [2:0] PH_PAWN = 3'd4, PH_PROMO = 3'd5, PH_QUIET = 3'd6, PH_NONE = 3'd7;

    // Stage 0 (free-running): the opponent's pieces and the victims of each capture phase.
    reg [63:0] them;
    reg [63:0] victim [0:4];
    reg        s;   // side to move
    always @(posedge clk) begin
        them <= theirs_of(colors);
        victim[0] <= kinds[64 * VICTIM_0 +: 64] & theirs_of(colors);
        victim[1] <= kinds[64 * VICTIM_1 +: 64] & theirs_of(colors);
        victim[2] <= kinds[64 * VICTIM_2 +: 64] & theirs_of(colors);
        victim[3] <= kinds[64 * VICTIM_3 +: 64] & theirs_of(colors);
        victim[4] <= kinds[64 * VICTIM_4 +: 64] & theirs_of(colors);
        s <= side;
    end

    reg capmode, cntmode;

    // A source that moves in one phase only (en passant, pushes, castling).
    function automatic [6:0] special_phases(input any, input [2:0] phase, input counting);
        special_phases = !any ? 7'd0 : counting ? 7'd1 : (7'd1 << phase);
    endfunction

    // Count-only mode needs no order: every source's whole set is one group, flagged in
    // phase 0, and the emitter adds a group's popcount each clock instead of streaming it.
    function automatic [6:0] source_phases(input [63:0] s, input [63:0] v0, input [63:0] v1,
                                           input [63:0] v2, input [63:0] v3, input [63:0] v4,
                                           input [63:0] th, input quiet, input counting);
        if (counting) source_phases = {6'd0, (s & (quiet ? ~64'd0 : th)) != 64'd0};
        else source_phases = mover_phases(s, v0, v1, v2, v3, v4, th, quiet);
    endfunction

    // Phases in which a destination set S of an ordinary mover (pawn capture channel, piece,
    // king) has moves.
    function automatic [6:0] mover_phases(input [63:0] s, input [63:0] v0, input [63:0] v1,
                                          input [63:0] v2, input [63:0] v3, input [63:0] v4,
                                          input [63:0] th, input quiet);
        mover_phases = {quiet && (s & ~th) != 64'd0, 1'b0, (s & v4) != 64'd0, (s & v3) != 64'd0,
                        (s & v2) != 64'd0, (s & v1) != 64'd0, (s & v0) != 64'd0};
    endfunction

    // ---- source sets ----
    wire [63:0] pawn_r [0:8];
    genvar gc;
    generate
        for (gc = 0; gc < 9; gc = gc + 1) begin : pawn_channel
            assign pawn_r[gc] = pawn_sets[64 * gc +: 64];
        end
    endgenerate
    reg [63:0] slot_set [0:15];   // small RAM: one write port, one read port
    reg [5:0]  slot_sq [0:15];

    // ---- selector ----
    // ne[p]: phase p has a flag (fixed once the sets are loaded). Phases are taken in order, so
    // the selector holds the current phase's row in sel_row and the next non-empty phase's row
    // in next_row (prepared off the loop from la1, the phase after it, one-hot in a register).
    // The loop is short: sel_row -> clear its lowest source (28-bit isolate) while the row has
    // two or more (a test beside the isolate), else switch to next_row.
    reg [7*NSRC-1:0] F;   // phase p, source s at bit NSRC*p + s
    reg [6:0]        ne, later;
    reg [NSRC-1:0]   sel_row, next_row;
    reg [2:0]        sel_ph, next_ph;
    reg              sel_ok, next_ok;
    reg              running;
    wire             sel_empty = !sel_ok;
    function automatic [2:0] onehot_index7(input [6:0] b);
        integer k;
        begin
            onehot_index7 = 3'd0;
            for (k = 0; k < 7; k = k + 1)
                if (b[k]) onehot_index7 = onehot_index7 | k[2:0];
        end
    endfunction
    // F's row of the one-hot phase set ph1 (AND-OR).
    function automatic [NSRC-1:0] row_of(input [7*NSRC-1:0] f, input [6:0] ph1);
        integer k;
        begin
            row_of = {NSRC{1'b0}};
            for (k = 0; k < 7; k = k + 1)
                row_of = row_of | (ph1[k] ? f[NSRC * k +: NSRC] : {NSRC{1'b0}});
        end
    endfunction
    // Lowest set bit of a phase set, as priority logic (7 bits: no carry chain).
    function automatic [6:0] lowest7(input [6:0] b);
        integer k;
        reg found;
        begin
            found = 1'b0;
            for (k = 0; k < 7; k = k + 1) begin
                lowest7[k] = b[k] && !found;
                found = found || b[k];
            end
        end
    endfunction
    // Whether a row has two or more sources (groups of four, then across the groups), so the
    // selector knows whether the row survives this pick without waiting for the isolate.
    function automatic two_or_more(input [NSRC-1:0] r);
        integer g, k;
        reg [6:0] any4, multi4;
        reg seen, two;
        begin
            for (g = 0; g < 7; g = g + 1) begin
                any4[g] = r[4 * g +: 4] != 4'd0;
                multi4[g] = 1'b0;
                seen = 1'b0;
                for (k = 0; k < 4; k = k + 1) begin
                    multi4[g] = multi4[g] || (seen && r[4 * g + k]);
                    seen = seen || r[4 * g + k];
                end
            end
            seen = 1'b0;
            two = 1'b0;
            for (g = 0; g < 7; g = g + 1) begin
                two = two || (seen && any4[g]);
                seen = seen || any4[g];
            end
            two_or_more = two || multi4 != 7'd0;
        end
    endfunction
    // The first three non-empty phases and the rest, registered from ne before `go` (ne is
    // final two clocks before it), so starting the selector is one AND-OR per row bit.
    reg  [6:0]      pre_first, pre_second, pre_third, pre_rest;
    wire [6:0]      ne_first = lowest7(ne);
    wire [6:0]      ne_second = lowest7(ne & ~ne_first);
    wire [6:0]      ne_third = lowest7(ne & ~ne_first & ~ne_second);
    always @(posedge clk) begin
        pre_first <= ne_first;
        pre_second <= ne_second;
        pre_third <= ne_third;
        pre_rest <= ne & ~ne_first & ~ne_second & ~ne_third;
    end
    // After the next row: la1, the phase after it (one-hot), and `later`, the phases after la1.
    reg  [6:0]      la1;
    wire [6:0]      later1 = lowest7(later);
    wire            sel_multi = two_or_more(sel_row);
    wire [NSRC-1:0] pick = sel_row & (~sel_row + 1'b1);
    wire [NSRC-1:0] row_left = sel_row & ~pick;

    // ---- fetch: three stages to the queue ----
    // 1  the source (index, slot number, kind of source) and the phase's mask;
    // 2  the source's set (slot sets sit in a small RAM), masked;
    // 3  the group's byte popcounts;  then the queue entry with the group's size.
    reg [4:0]  used;       // groups issued and not yet taken by the emitter (credit, at most 8)
    // `full`: used was 7 or more a clock ago, so it is at most 7 now (one group a clock) and
    // one more may issue. A register beside the selector (it reads only `used`), so the
    // selector's enables do not wait on the emitter's side of the counter; the groups in
    // flight (4 while streaming one a clock) stay below 7, so it costs no clocks.
    reg        full;
    wire       issue = running && sel_ok && !full;
    reg        f1v;
    reg [4:0]  f1_src;
    reg [3:0]  f1_slot;
    reg        f1_is_pawn, f1_is_slot, f1_is_king, f1_is_cs, f1_masked;
    reg [2:0]  f1_ph;
    reg [63:0] f1_mask;
    reg [63:0] castle_bb [0:1];
    reg        f2v;
    reg [63:0] f2_bits;
    reg [4:0]  f2_src;
    reg [2:0]  f2_ph;
    reg [5:0]  f2_from;
    reg        f3v;
    reg [63:0] f3_bits;
    reg [4:0]  f3_src;
    reg [2:0]  f3_ph;
    reg [5:0]  f3_from;
    reg [31:0] f3_bytes;   // popcount of byte b at [4b +: 4]
    reg [63:0] f_raw;
    always @* begin
        if (f1_is_pawn) f_raw = pawn_r[f1_src[3:0]];
        else if (f1_is_slot) f_raw = slot_set[f1_slot];
        else if (f1_is_king) f_raw = king_set;
        else f_raw = castle_bb[f1_is_cs ? 0 : 1];
    end
    function automatic [3:0] popcount8(input [7:0] b);
        integer k;
        begin
            popcount8 = 4'd0;
            for (k = 0; k < 8; k = k + 1) popcount8 = popcount8 + b[k];
        end
    endfunction
    wire [6:0] f3_n = ({3'd0, f3_bytes[3:0]} + f3_bytes[7:4]) + (f3_bytes[11:8] + f3_bytes[15:12])
                    + ((f3_bytes[19:16] + f3_bytes[23:20]) + (f3_bytes[27:24] + f3_bytes[31:28]));

    // ---- queue (8 entries) ----
    reg [63:0] q_bits [0:7];
    reg [4:0]  q_src [0:7];
    reg [2:0]  q_ph [0:7];
    reg [5:0]  q_from [0:7];
    reg [6:0]  q_n [0:7];
    reg [2:0]  q_rd, q_wr;
    reg [3:0]  cnt;        // queued groups

    // ---- emitter ----
    // The current group's size counts down, so "last move of the group" is a register test,
    // not a 64-bit one; the next destination is the lowest of cur_bits.
    reg        cur_v;
    reg [63:0] cur_bits;
    reg [4:0]  cur_src;
    reg [2:0]  cur_ph;
    reg [5:0]  cur_from;
    reg [6:0]  cur_n;
    reg        cur_n1;     // cur_n == 1
    reg        cur_promo, cur_qonly;
    reg [1:0]  pcount;
    wire [63:0] rest = cur_bits & (cur_bits - 64'd1);
    wire        last = !cur_promo || cur_qonly || pcount == 2'd3;
    wire        finish = cur_v && (cntmode || (last && cur_n1));
    wire        take = !cur_v || finish;
    wire        pop = take && cnt != 4'd0;
    wire        finishing = running && sel_empty && used == 5'd0 && (!cur_v || finish);
    function automatic is_promo_src(input [4:0] src);
        is_promo_src = src == SRC_PROMO_CAP_W || src == SRC_PROMO_CAP_E || src == SRC_PROMO_PUSH;
    endfunction

    // ---- output stages ----
    reg        o1_v, o1_done;
    reg [63:0] o1_low;
    reg [4:0]  o1_src;
    reg [2:0]  o1_ph;
    reg [5:0]  o1_from;
    reg [1:0]  o1_pc;
    reg [6:0]  o1_n;
    reg        o1_x4;

    // ---- flag stage: each source's phases, registered a clock before F is written ----
    // (the 64-bit victim tests of every source run here, so no path runs from the sets
    // through the tests into F and on into ne)
    reg        ld_v;              // load_sets, a clock later
    reg [6:0]  ld_flags [0:11];   // pawn channels 0-8, king, castling short, long
    reg        wv;                // a piece slot's set, a clock later
    reg [3:0]  wv_slot;
    reg [6:0]  wv_flags;
    always @(posedge clk) begin : flag_stage
        integer i;
        ld_v <= load_sets && !start;
        wv <= wr_valid && !start;
        wv_slot <= wr_slot;
        for (i = 0; i < 4; i = i + 1)
            ld_flags[i] <= source_phases(pawn_r[i], victim[0], victim[1], victim[2], victim[3], victim[4], them, 1'b0, cntmode);
        for (i = 4; i < 9; i = i + 1)
            ld_flags[i] <= special_phases(pawn_r[i] != 64'd0 && (!capmode || i == SRC_EP_W || i == SRC_EP_E || i == SRC_PROMO_PUSH),
                                          (i == SRC_EP_W || i == SRC_EP_E) ? PH_PAWN : (i == SRC_PROMO_PUSH) ? PH_PROMO : PH_QUIET,
                                          cntmode);
        ld_flags[9] <= source_phases(king_set, victim[0], victim[1], victim[2], victim[3], victim[4], them, !capmode, cntmode);
        for (i = 0; i < 2; i = i + 1)
            ld_flags[10 + i] <= special_phases(!capmode && castle_ok[i], PH_QUIET, cntmode);
        wv_flags <= source_phases(wr_set, victim[0], victim[1], victim[2], victim[3], victim[4], them, !capmode, cntmode);
    end

    // `go` comes when every set has been written; their flags reach F a clock later and the
    // first phases (pre_*) a clock after that, so the selector starts two clocks after `go`.
    reg go1, go2;
    always @(posedge clk) begin
        go1 <= go && !start && !rst;
        go2 <= go1 && !start && !rst;
    end

    reg [6:0] ne_add;
    integer i, q;
    always @(posedge clk) begin
        // source sets and flags
        if (start) begin
            capmode <= captures_only;
            cntmode <= count_only;
            F <= {7*NSRC{1'b0}};
            ne <= 7'd0;
            running <= 1'b0;
            sel_ok <= 1'b0;
        end else begin
            ne_add = 7'd0;
            if (ld_v) begin
                for (i = 0; i < 9; i = i + 1) begin
                    for (q = 0; q < 7; q = q + 1) F[NSRC * q + i] <= ld_flags[i][q];
                    ne_add = ne_add | ld_flags[i];
                end
                for (i = 0; i < 3; i = i + 1) begin
                    for (q = 0; q < 7; q = q + 1) F[NSRC * q + SRC_KING + i] <= ld_flags[9 + i][q];
                    ne_add = ne_add | ld_flags[9 + i];
                end
            end
            if (wr_valid) begin
                slot_set[wr_slot] <= wr_set;
                slot_sq[wr_slot] <= wr_sq;
            end
            if (wv) begin
                for (i = 0; i < 16; i = i + 1)
                    if (wv_slot == i)
                        for (q = 0; q < 7; q = q + 1) F[NSRC * q + SRC_SLOT0 + i] <= wv_flags[q];
                ne_add = ne_add | wv_flags;
            end
            ne <= ne | ne_add;
            if (finishing) running <= 1'b0;
            // selector
            if (go2) begin
                running <= 1'b1;
                sel_row <= row_of(F, pre_first);
                sel_ph <= onehot_index7(pre_first);
                sel_ok <= pre_first != 7'd0;
                next_row <= row_of(F, pre_second);
                next_ph <= onehot_index7(pre_second);
                next_ok <= pre_second != 7'd0;
                la1 <= pre_third;
                later <= pre_rest;
            end else if (issue) begin
                if (sel_multi) begin
                    sel_row <= row_left;
                end else begin
                    sel_row <= next_row;
                    sel_ph <= next_ph;
                    sel_ok <= next_ok;
                    next_row <= row_of(F, la1);
                    next_ph <= onehot_index7(la1);
                    next_ok <= la1 != 7'd0;
                    la1 <= later1;
                    later <= later & ~later1;
                end
            end
        end

        // fetch -> queue
        used <= (issue && !pop) ? used + 5'd1 : (pop && !issue) ? used - 5'd1 : used;
        full <= used >= 5'd7;
        f1v <= issue;
        if (issue) begin
            f1_src <= onehot_index(pick);
            f1_slot <= onehot_index(pick[SRC_SLOT0 +: 16]);
            f1_is_pawn <= pick[SRC_SLOT0 - 1:0] != 0;
            f1_is_slot <= pick[SRC_SLOT0 +: 16] != 0;
            f1_is_king <= pick[SRC_KING];
            f1_is_cs <= pick[SRC_CASTLE_S];
            // Ordinary movers keep the phase's victims (or the empty squares when quiet).
            f1_masked <= pick[SRC_EP_W - 1:0] != 0 || pick[SRC_KING:SRC_SLOT0] != 0;
            f1_ph <= sel_ph;
        end
        f1_mask <= cntmode ? (capmode ? them : ~64'd0) : (sel_ph < 3'd5) ? victim[sel_ph] : ~them;
        if (load_sets) begin
            castle_bb[0] <= square_bb(castle_sq[5:0]);
            castle_bb[1] <= square_bb(castle_sq[11:6]);
        end
        f2v <= f1v;
        f2_bits <= f_raw & (f1_masked ? f1_mask : ~64'd0);
        f2_src <= f1_src;
        f2_ph <= f1_ph;
        f2_from <= f1_is_slot ? slot_sq[f1_slot] : king_sq;
        f3v <= f2v;
        f3_bits <= f2_bits;
        f3_src <= f2_src;
        f3_ph <= f2_ph;
        f3_from <= f2_from;
        for (i = 0; i < 8; i = i + 1)
            f3_bytes[4 * i +: 4] <= popcount8(f2_bits[8 * i +: 8]);
        if (f3v) begin
            q_bits[q_wr] <= f3_bits;
            q_src[q_wr] <= f3_src;
            q_ph[q_wr] <= f3_ph;
            q_from[q_wr] <= f3_from;
            q_n[q_wr] <= f3_n;
            q_wr <= q_wr + 3'd1;
        end
        cnt <= (f3v && !pop) ? cnt + 4'd1 : (pop && !f3v) ? cnt - 4'd1 : cnt;

        // emitter
        o1_v <= cur_v && !cntmode;
        o1_low <= cur_bits & ~rest;
        o1_src <= cur_src;
        o1_ph <= cur_ph;
        o1_from <= cur_from;
        o1_pc <= pcount;
        o1_n <= cur_v ? cur_n : 7'd0;
        o1_x4 <= cur_promo && !cur_qonly;
        o1_done <= finishing;
        if (take) begin
            cur_v <= cnt != 4'd0;
            pcount <= 2'd0;
            cur_bits <= q_bits[q_rd];
            cur_src <= q_src[q_rd];
            cur_ph <= q_ph[q_rd];
            cur_from <= q_from[q_rd];
            cur_n <= q_n[q_rd];
            cur_n1 <= q_n[q_rd] == 7'd1;
            cur_promo <= is_promo_src(q_src[q_rd]);
            cur_qonly <= q_src[q_rd] == SRC_PROMO_PUSH && capmode;
            if (pop) q_rd <= q_rd + 3'd1;
        end else if (last) begin
            cur_bits <= rest;
            cur_n <= cur_n - 7'd1;
            cur_n1 <= cur_n == 7'd2;
            pcount <= 2'd0;
        end else begin
            pcount <= pcount + 2'd1;
        end

        if (rst || start) begin
            used <= 5'd0;
            full <= 1'b0;
            f1v <= 1'b0;
            f2v <= 1'b0;
            f3v <= 1'b0;
            cnt <= 4'd0;
            q_rd <= 3'd0;
            q_wr <= 3'd0;
            cur_v <= 1'b0;
            o1_v <= 1'b0;
            o1_done <= 1'b0;
        end
        if (rst) begin
            running <= 1'b0;
            sel_ok <= 1'b0;
        end
    end

    // ---- move word: destination index, then origin and flag ----
    reg        o2_v, o2_done, o2_cnt;
    reg [5:0]  o2_to;
    reg [4:0]  o2_src;
    reg [2:0]  o2_ph;
    reg [5:0]  o2_from;
    reg [1:0]  o2_pc;
    reg [7:0]  part;   // count-only: the group's moves (four per promotion destination)
    wire [2:0] up = s ? DIR_S : DIR_N;
    wire [2:0] cap_w = s ? DIR_SW : DIR_NW;
    wire [2:0] cap_e = s ? DIR_SE : DIR_NE;
    wire [1:0] promo_low = (o2_pc == 2'd0) ? 2'd3 : o2_pc - 2'd1;   // Q N B R
    reg  [5:0] from;
    reg  [3:0] flag;
    always @* begin
        case (o2_src)
            5'd0, SRC_PROMO_CAP_W, SRC_EP_W: from = o2_to - dir_delta(cap_w);
            5'd1, SRC_PROMO_CAP_E, SRC_EP_E: from = o2_to - dir_delta(cap_e);
            SRC_PUSH, SRC_PROMO_PUSH: from = o2_to - dir_delta(up);
            SRC_DOUBLE: from = o2_to - dir_delta(up) - dir_delta(up);
            default: from = o2_from;
        endcase
        case (o2_src)
            SRC_PROMO_CAP_W, SRC_PROMO_CAP_E: flag = {2'b11, promo_low};
            SRC_PROMO_PUSH: flag = {2'b10, promo_low};
            SRC_EP_W, SRC_EP_E: flag = FLAG_EN_PASSANT;
            SRC_PUSH: flag = FLAG_QUIET;
            SRC_DOUBLE: flag = FLAG_DOUBLE_PUSH;
            SRC_CASTLE_S, SRC_CASTLE_L: flag = FLAG_CASTLE;
            default: flag = (o2_ph < PH_PROMO) ? FLAG_CAPTURE : FLAG_QUIET;
        endcase
    end
    assign release_next = o2_done;
    assign next_squares = {o2_to, from};
    always @(posedge clk) begin
        o2_v <= o1_v && !rst;
        o2_done <= o1_done && !rst;
        o2_to <= onehot_index(o1_low);
        o2_src <= o1_src;
        o2_ph <= o1_ph;
        o2_from <= o1_from;
        o2_pc <= o1_pc;
        part <= o1_x4 ? {o1_n[5:0], 2'b00} : {1'b0, o1_n};
        move_valid <= o2_v && !rst;
        move <= {flag, o2_to, from};
        if (start) count <= 8'd0;
        else if (cntmode) count <= count + part;
        done <= o2_done && !rst;
    end
endmodule

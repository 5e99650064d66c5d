// The search sequencer: the search of docs/chip.md ("The algorithm") as a state machine over
// block RAMs, driving the move generator and the evaluation unit through their command words
// and the mirror (mirror.v) for those words and the hash. The Rust model it is held to, node
// for node and clock for clock: crates/hw/src/chip/search.rs.
//
//   GO      iterative deepening from the loaded position (the units and the mirror loaded,
//           the game's hashes before the root written on the history port) within the
//           depth, node and clock limits; `stop` (held) ends it at the next node. Each
//           completed iteration pulses `report` (rep_*, the PV on pv_addr / pv_move); the
//           end pulses `done` with best_move (0: no legal move).
//           GO first halves the quiet-move history (an entry a clock, AGE_CLOCKS).
//   CLEAR   empties the transposition table, the killers and the history (a new game); busy
//           meanwhile.
//
// RAMs (one write port, one registered read port each):
//   stack   a frame a ply (the node's window, scores, moves, list pointers, flags)
//   caps, quiets   the move lists of the nodes on the path, appended as the generator streams
//           (captures and promotions, and every move of a quiescence node, in `caps`; the
//           quiet moves in `quiets`; the table's move and the killers noted, not stored).
//           Each quiet move goes into one of 8 buckets by its history (its entry read a clock
//           before it comes, on the generator's next_squares): a linked list a bucket,
//           newest first, the heads in the node's frame; the moves are searched bucket by
//           bucket
//   qhist   the quiet-move history: 9 bits a side to move, origin and destination, raised
//           by depth^2 at a quiet move's beta cutoff
//   tried   (cfg_lmp) the quiet moves each node on the path has made
//
// cfg_lmp, the late-move pruning build (docs/chip.md): the history signed (16 bits), moved
// with gravity at a quiet cutoff for every quiet move tried (HWALK), never halved; the quiet
// moves through an 8-slot insertion sorter as they stream, the moves it lets go into 8
// signed buckets; below the PV the quiet moves that do not give check (the generator's
// move_check) passed over from position 4 + depth^2 on.
//   lmr_rom the late-move reductions by depth and move number (gen/chip_lmr_rom.vh)
//   roots   the root's moves, best first
//   pv      a row a ply (rows 1..63); the root's row in `pv0`, read by the host
//   path    the game's hashes before the root, then a hash a ply, for the repetition scan
//   tt      the transposition table, one entry an address, read in `cfg_tt_clocks`; or,
//           with TT_EXT, the table behind the t_* port (sdram_tt.v: an SDRAM), asked for the
//           entry of every child of a full-width node as it is made, written when a node
//           ends (waiting while a write is still queued there)
module sequencer #(
    parameter TT_BITS    = 13,
    parameter TT_EXT     = 0,       // 0 the block-RAM table, 1 the t_* port, 2 either, by cfg_tt_ext
    parameter EXT_BITS   = 22,      // the external table's entries: 2^EXT_BITS
    parameter LIST_BITS  = 12,
    parameter LOAD_CLOCKS = 94
) (
    input  wire         clk,
    input  wire         rst,
    // ---- host side ----
    input  wire         go,
    input  wire [6:0]   lim_depth,
    input  wire [47:0]  lim_nodes,
    input  wire [47:0]  lim_clocks,
    input  wire         stop,
    input  wire         clear,
    input  wire         cfg_null,
    input  wire         cfg_lmr,
    input  wire         cfg_lmp,        // the late-move pruning build (docs/chip.md)
    input  wire [9:0]   cfg_tt_clocks,
    input  wire         cfg_tt_ext,
    input  wire [7:0]   game_len,
    input  wire         hist_we,
    input  wire [7:0]   hist_addr,
    input  wire [63:0]  hist_data,
    output wire         busy,
    output wire         clearing,       // busy with a CLEAR only (the units are free)
    output wire         started,        // GO taken in this clock (the SDRAM's refresh restarts)
    output reg          report,
    output reg  [6:0]   rep_depth,
    output reg  [15:0]  rep_score,
    output reg  [47:0]  rep_nodes,
    output reg  [47:0]  rep_clocks,
    output reg  [6:0]   rep_pvlen,
    input  wire [5:0]   pv_addr,
    output wire [15:0]  pv_move,
    output reg          done,
    output reg  [15:0]  best_move,
    output reg          stopped,
    output reg  [47:0]  nodes,
    output reg  [47:0]  qnodes,
    output reg  [47:0]  now,
    output reg          overflow,
    // ---- the move generator ----
    input  wire         g_ready,
    input  wire         g_in_check,
    input  wire         g_move_valid,
    input  wire [15:0]  g_move,
    input  wire         g_done,
    input  wire [63:0]  g_enemy,        // the enemy attack map: a capture's destination attacked
    input  wire [11:0]  g_next_sq,
    input  wire         g_move_check,   // with g_move: it gives check (check_flags.v)
    output reg          g_cmd_valid,
    output reg  [2:0]   g_cmd,
    output reg  [31:0]  g_cmd_data,
    // ---- the evaluation unit ----
    input  wire         e_ready,
    input  wire         e_result_valid,
    input  wire [31:0]  e_score,
    output reg          e_cmd_valid,
    output reg  [2:0]   e_cmd,
    output reg  [31:0]  e_cmd_data,
    // ---- the mirror ----
    output reg          m_make,
    output reg          m_null,
    output reg          m_unmake,
    output reg  [15:0]  m_move,
    input  wire [31:0]  m_make_word,
    input  wire [31:0]  m_undo_word,
    input  wire [63:0]  m_hash,
    input  wire [7:0]   m_halfmove,
    input  wire         m_black,
    input  wire [3:0]   m_from_code,
    input  wire [3:0]   m_to_code,
    input  wire         m_has_pieces,
    // ---- the external table (TT_EXT) ----
    output wire         t_rd,
    output wire [1:0]   t_rd_tag,
    output wire         t_wr,
    output wire [EXT_BITS-1:0] t_addr,
    output wire [63:0]  t_wdata,
    input  wire         t_rd_valid,
    input  wire [1:0]   t_rd_tag_in,
    input  wire [63:0]  t_rd_data,
    input  wire         t_wr_ready
);
    wire ext = TT_EXT == 1 || (TT_EXT == 2 && cfg_tt_ext);
    // ---- constants (hw::chip) -----------------------------------------------------------
    localparam signed [17:0] MATE = 18'sd30000, INF = 18'sd30001;
    localparam signed [17:0] MATE_BOUND = 18'sd29935;           // MATE - 64 - 1
    localparam [6:0] MAX_PLY = 7'd64;
    localparam [2:0] C_MAKE = 3'd2, C_UNMAKE = 3'd3, C_NULL = 3'd4, C_GEN = 3'd5, C_EVAL = 3'd5;
    localparam [3:0] IN_CHECK_WAIT = 4'd10;    // the flag is read 11 clocks after a command

    // ---- states ----------------------------------------------------------------------------
    localparam [5:0]
        S_IDLE = 6'd0, S_CLEAR = 6'd1, S_RGEN = 6'd2, S_RSTREAM = 6'd3, S_ITER = 6'd4,
        S_WSTART = 6'd5, S_RNEXT1 = 6'd6, S_RNEXT2 = 6'd7, S_RMAKE = 6'd8, S_ENTRY = 6'd9,
        S_WAITCHK = 6'd10, S_WAITRT = 6'd11, S_GEN = 6'd12, S_STREAM = 6'd13, S_POSTGEN = 6'd14,
        S_AGE = 6'd15,
        S_QEV = 6'd16, S_LEAF = 6'd17, S_NULLMK = 6'd18, S_NEXT1 = 6'd19,
        S_NEXT2 = 6'd20, S_MAKE = 6'd21, S_UNMAKE = 6'd22, S_RET1 = 6'd23, S_RET2 = 6'd24,
        S_PVC = 6'd25, S_TTW = 6'd26, S_ROT = 6'd27, S_ROTW = 6'd28, S_FINISH = 6'd29,
        S_WEND = 6'd30, S_ITEREND = 6'd31, S_HWALK = 6'd32;
    // What a node does when its child returns.
    localparam [2:0] ST_FIRST = 3'd0, ST_NWR = 3'd1, ST_NW = 3'd2, ST_FULL = 3'd3,
                     ST_NULL = 3'd4;
    // After a PV copy.
    localparam [1:0] PV_NEXT = 2'd0, PV_TTW = 2'd1, PV_RET = 2'd2, PV_ROOT = 2'd3;

    reg [5:0] state;
    assign busy = state != S_IDLE;
    assign clearing = state == S_CLEAR;

    // ---- the current node's frame (ply >= 1), pushed on the stack when it makes a move -----
    reg signed [17:0] f_alpha, f_beta, f_best, f_oalpha, f_eval;
    reg [15:0] f_bmove, f_ttmove, f_k0, f_k1, f_move;
    reg signed [7:0] f_depth;
    reg [LIST_BITS-1:0] f_cbase, f_qbase;
    reg [7:0]  f_ncaps, f_nq, f_pos, f_searched;
    reg        f_ttf, f_k0f, f_k1f;
    reg [2:0]  f_stage;
    reg [3:0]  f_rc;
    reg        f_q, f_pv, f_check, f_futile, f_evalv;
    reg [63:0] f_heads;                // the buckets' first quiet moves (8'hff: empty), 0 best
    reg [7:0]  f_qcur;                 // the next quiet move to search, and its bucket
    reg [2:0]  f_qb;
    // The late-move pruning build (cfg_lmp): the sorter's moves (list indices, best first)
    // and how many; the killers' gives-check flags; pruning started; the quiet moves tried;
    // whether a listed quiet move gives check.
    reg [63:0] f_sidx;
    reg [3:0]  f_ns;
    reg        f_k0c, f_k1c, f_lmp;
    reg        f_qchk;                 // a listed quiet move gives check (cfg_lmp's early end)
    reg [7:0]  f_ntried;
    localparam FW = 5 * 18 + 5 * 16 + 8 + 2 * LIST_BITS + 4 * 8 + 3 + 3 + 4 + 5 + 64 + 8 + 3
                  + 64 + 4 + 3 + 8 + 1;
    wire [FW-1:0] f_pack = {f_alpha, f_beta, f_best, f_oalpha, f_eval, f_bmove, f_ttmove, f_k0,
        f_k1, f_move, f_depth, f_cbase, f_qbase, f_ncaps, f_nq, f_pos, f_searched, f_ttf,
        f_k0f, f_k1f, f_stage, f_rc, f_q, f_pv, f_check, f_futile, f_evalv, f_heads,
        f_qcur, f_qb, f_sidx, f_ns, f_k0c, f_k1c, f_lmp, f_ntried, f_qchk};

    reg [6:0] ply;
    reg [FW-1:0] stack [0:63];
    reg [FW-1:0] stk_q;                 // always the parent's frame: stack[ply - 1]
    always @(posedge clk) stk_q <= stack[ply[5:0] - 6'd1];

    // ---- the root ---------------------------------------------------------------------------
    reg [6:0]  r_depth, r_max;
    reg signed [17:0] r_alpha, r_beta, r_lo, r_last, r_ibs;
    reg        r_ib, r_full;
    reg [15:0] r_ibm, r_move, r_first, r_best;
    reg [7:0]  r_ibi, r_pos, r_n;
    reg [2:0]  r_stage;
    reg [15:0] roots [0:255];
    reg [15:0] root_q;

    // ---- global registers --------------------------------------------------------------------
    reg        aborted;
    reg signed [17:0] ret;             // the value the returning child gave (its side's view)
    reg signed [7:0]  c_base;          // the child's depth before its in-check flag is known
    reg [3:0]  c_rc;                   // its reduction if it is not in check
    reg        c_ext;                  // its check extension applies
    reg [3:0]  chk_cnt;                // clocks until the generator's in-check flag is valid
    reg        mk1, mk2;               // a MAKE or NULL one and two clocks ago
    reg [31:0] killers [0:64];
    reg [31:0] kill_q;                 // this ply's killers
    reg        kill_wr;                // a write of killers[kill_wa], registered
    reg [6:0]  kill_wa;
    reg [31:0] kill_wd;
    always @(posedge clk) begin
        kill_q <= killers[ply];
        if (kill_wr) killers[kill_wa] <= kill_wd;
    end
    // The quiet-move history: read at {side, g_next_sq} while moves stream (the entry of the
    // move the generator gives next clock), at the cutoff move's in RET1, at the walk's
    // entry in AGE; written a clock after RET2's cutoff, and behind the walk (CLEAR: zero,
    // GO: halved).
    // With cfg_lmp the entries are signed, 16 bits (hw::chip::signed_update), walked at a
    // quiet cutoff (HWALK) and never halved; without it they are the low 9 bits.
    reg [15:0] qhist [0:8191];
    reg [15:0] qh_q;
    reg [12:0] age_i;
    reg        qh_wr, age_wv, age_zero;
    reg [12:0] qh_wa;
    reg [15:0] qh_wd;
    reg [11:0] qh_bonus;
    // The frame's depth squared: the cutoff's history bonus (RET1) and LMP's threshold (NEXT2).
    wire [11:0] d_sq = {6'd0, f_depth[5:0]} * {6'd0, f_depth[5:0]};
    reg        r_black;                // Black to move at the root
    wire       stm = r_black ^ ply[0];
    // The walk (HWALK): the quiet moves tried at the node, read from `tried` a clock a move.
    reg [15:0] tried [0:(1 << LIST_BITS) - 1];
    reg [15:0] tried_q;
    reg [8:0]  hw_k;                   // the walk's clock
    reg        hw_v1, hw_v2, hw_last1, hw_last2, hw_pend;
    reg [12:0] hw_a2;
    reg signed [15:0] hw_e;            // stage 3: the entry, its product, the move's sign
    reg signed [27:0] hw_p;
    reg        hw_v3, hw_last3;
    reg [12:0] hw_a3;
    reg [10:0] hw_b;                   // the cutoff's bonus, min(16 d^2 + 32 d, 1600)
    wire [12:0] qh_ra = (state == S_AGE || state == S_CLEAR) ? age_i
                      : state == S_RET1 ? {stm, f_move[11:0]}
                      : state == S_HWALK ? {stm, tried_q[11:0]} : {stm, g_next_sq};
    // One write port: the age walk's, the cutoff's or the signed walk's (never together).
    wire       qh_we = age_wv || qh_wr;
    wire [15:0] qh_wdata = !age_wv ? qh_wd : age_zero ? 16'd0 : {7'd0, 1'b0, qh_q[8:1]};
    always @(posedge clk) begin
        qh_q <= qhist[qh_ra];
        if (qh_we) qhist[qh_wa] <= qh_wdata;
    end
    // The gravity of a signed entry moved by +-b: e + d - e |d| / 16384, the division
    // rounding towards zero (16,383 added to a negative product before the shift).
    wire signed [27:0] hw_pr = hw_p + (hw_p < 0 ? 28'sd16383 : 28'sd0);
    wire signed [17:0] hw_delta = hw_last3 ? $signed({7'd0, hw_b}) : -$signed({7'd0, hw_b});
    wire signed [17:0] hw_new = $signed({{2{hw_e[15]}}, hw_e}) + hw_delta - (hw_pr >>> 14);
    // The bucket of the streaming move (`qh_q` is its entry): 0 from 128 up, 7 for 0 and 1.
    wire [2:0] q_bucket_u = qh_q[8] || qh_q[7] ? 3'd0 : qh_q[6] ? 3'd1 : qh_q[5] ? 3'd2
                        : qh_q[4] ? 3'd3 : qh_q[3] ? 3'd4 : qh_q[2] ? 3'd5 : qh_q[1] ? 3'd6
                        : 3'd7;
    wire [12:0] qh_sum = {4'd0, qh_q[8:0]} + {1'b0, qh_bonus};

    // ---- the late-move pruning build's order: an insertion sorter of 8 slots as the quiet
    // moves stream, by their signed entry (a move behind equal ones); the move it lets go
    // (the new one, or the last slot's when full) in front of its signed bucket's list ----
    reg signed [15:0] sk [0:7];        // the slots' keys (the indices are the frame's f_sidx)
    wire signed [15:0] st_key = qh_q;
    reg  [7:0]  ge;                    // slot k filled and its key >= the new one's
    reg  [3:0]  ins_at;
    integer sj, sl;
    always @* begin
        for (sj = 0; sj < 8; sj = sj + 1)
            ge[sj] = sj < f_ns && sk[sj] >= st_key;
        ins_at = 4'd0;
        for (sj = 0; sj < 8; sj = sj + 1)
            if (ge[sj]) ins_at = sj[3:0] + 4'd1;
    end
    // Full: the new move goes (ins_at 8) or the last slot's does.
    wire        ev_out = f_ns == 4'd8;
    wire [7:0]  ev_idx = ins_at == 4'd8 ? f_nq : f_sidx[56 +: 8];
    wire signed [15:0] ev_key = ins_at == 4'd8 ? st_key : sk[7];
    function [2:0] signed_bucket(input signed [15:0] h);
        signed_bucket = h >= 16'sd2048 ? 3'd0 : h >= 16'sd512 ? 3'd1 : h >= 16'sd128 ? 3'd2
                      : h > 16'sd0 ? 3'd3 : h == 16'sd0 ? 3'd4 : h >= -16'sd512 ? 3'd5
                      : h >= -16'sd2048 ? 3'd6 : 3'd7;
    endfunction
    // The bucket a quiet move's list link goes into, and the move: the streaming move's
    // (without cfg_lmp), or the one the sorter lets go.
    wire [2:0] q_bucket = cfg_lmp ? signed_bucket(ev_key) : q_bucket_u;
    wire [7:0] q_link = cfg_lmp ? ev_idx : f_nq;
    // The heads with that move in front of its bucket's list.
    reg  [63:0] heads_in;
    integer hb;
    always @* for (hb = 0; hb < 8; hb = hb + 1)
        heads_in[8 * hb +: 8] = q_bucket == hb[2:0] ? q_link : f_heads[8 * hb +: 8];
    // Late-move reductions by depth and move number, read in NEXT1 for NEXT2.
    reg [3:0]  lmr_rom [0:4095];
    initial begin
`include "gen/chip_lmr_rom.vh"
    end
    reg [3:0]  lmr_q;
    wire [7:0] lmr_n = f_searched >= 8'd62 ? 8'd63 : f_searched + 8'd1;
    always @(posedge clk) lmr_q <= lmr_rom[{f_depth[5:0], lmr_n[5:0]}];
    reg [6:0]  pvlen [0:64];
    reg        ick [0:64];             // each ply's in-check flag (its parent's "gives check")

    // ---- the evaluation port: EVAL when asked and the unit is free; the score latched ------
    reg        ev_req, ev_wait;
    reg signed [17:0] ev_score;
    wire signed [31:0] e_s = e_score;
    wire signed [17:0] e_clamped = e_s > 32'sd29934 ? 18'sd29934
                                 : e_s < -32'sd29934 ? -18'sd29934 : e_s[17:0];
    wire ev_fire = ev_req && e_ready;
    wire ev_have = !ev_req && (!ev_wait || e_result_valid);
    wire signed [17:0] ev_val = ev_wait ? e_clamped : ev_score;   // the score, once ev_have
    // MAKE, NULL and UNMAKE go to both units at once, when both are free and no EVAL is due.
    wire units_free = g_ready && e_ready && !ev_req && (!ev_wait || e_result_valid);

    // The memories written while the state machine runs have write ports of their own, a
    // single enable each (written inside the state machine, yosys kept a write enable a bit
    // and mapped them into one-bit-wide block RAMs): the frame pushed as a child is made.
    wire stack_we = (state == S_RMAKE || state == S_NULLMK || state == S_MAKE) && units_free
                 && ply != 7'd0;
    always @(posedge clk) if (stack_we) stack[ply[5:0]] <= f_pack;

    // ---- move lists -------------------------------------------------------------------------
    reg [16:0] caps [0:(1 << LIST_BITS) - 1];
    // The quiet moves, {gives check, the move}, and each one's next in its bucket: two RAMs,
    // since the sorter (cfg_lmp) links a move other than the one streaming in.
    reg [16:0] qmove [0:(1 << LIST_BITS) - 1];
    reg [7:0]  qnext [0:(1 << LIST_BITS) - 1];
    reg [16:0] caps_q;
    reg [16:0] qmove_q;
    reg [7:0]  qnext_q;
    // The current node's position `p` in its order: the table's move, the captures, the
    // killers found, the quiet moves (with cfg_lmp the sorter's first, then bucket by bucket,
    // each a linked list).
    wire [7:0] n_kill = {7'd0, f_k0f} + {7'd0, f_k1f};
    wire [7:0] n_total = {7'd0, f_ttf} + f_ncaps + n_kill + f_nq;
    function [2:0] src_of(input [7:0] p);      // 0 tt, 1 caps, 2 k0, 3 k1, 4 quiets
        reg [7:0] a;
        begin
            a = p - {7'd0, f_ttf};
            if (f_ttf && p == 8'd0) src_of = 3'd0;
            else if (a < f_ncaps) src_of = 3'd1;
            else if (a - f_ncaps < n_kill)
                src_of = (a - f_ncaps == 8'd0 && f_k0f) ? 3'd2 : 3'd3;
            else src_of = 3'd4;
        end
    endfunction
    wire [7:0] rd_pos = state == S_NEXT2 ? f_pos + 8'd1 : f_pos;
    wire [7:0] rd_cidx = rd_pos - {7'd0, f_ttf};
    wire [2:0]  cur_src = src_of(f_pos);
    // The first non-empty bucket from bucket `from` on: {found, its head, the bucket}.
    function [11:0] first_head(input [63:0] heads, input [3:0] from);
        integer j;
        begin
            first_head = 12'd0;
            for (j = 7; j >= 0; j = j - 1)
                if (j >= from && heads[8 * j +: 8] != 8'hff)
                    first_head = {1'b1, heads[8 * j +: 8], j[2:0]};
        end
    endfunction
    wire [11:0] q_first = first_head(f_heads, 4'd0);
    // After the quiet move now in NEXT2: the next in its bucket, or the next bucket's head.
    wire [11:0] q_later = first_head(f_heads, {1'b0, f_qb} + 4'd1);
    wire        q_chain = qnext_q != 8'hff;
    wire [7:0]  q_after = q_chain ? qnext_q : q_later[10:3];
    wire [2:0]  q_after_b = q_chain ? f_qb : q_later[2:0];
    // The quiet moves' part of the order: where it starts, the sorter's slots, then the
    // buckets. The move at the next position (NEXT2 reads it ahead) and at the first.
    wire [7:0]  q_start = {7'd0, f_ttf} + f_ncaps + n_kill;
    wire [7:0]  jn = f_pos + 8'd1 - q_start;           // the next position's quiet number
    wire        cur_slot = cur_src == 3'd4 && f_pos - q_start < {4'd0, f_ns};
    wire        cur_bucket = cur_src == 3'd4 && !cur_slot;
    wire [7:0]  q_next_idx = cur_bucket ? q_after
                           : (f_pos + 8'd1 >= q_start && jn < {4'd0, f_ns}) ? f_sidx[8 * jn[2:0] +: 8]
                           : q_first[10:3];
    wire [2:0]  q_next_b = cur_bucket ? q_after_b : q_first[2:0];
    wire [7:0]  q_init_idx = f_ns != 4'd0 ? f_sidx[7:0] : q_first[10:3];
    wire [7:0]  rd_qidx = state == S_POSTGEN ? q_init_idx
                        : state == S_NEXT2 ? q_next_idx : f_qcur;
    always @(posedge clk) begin
        caps_q   <= caps[f_cbase + {{(LIST_BITS - 8){1'b0}}, rd_cidx}];
        qmove_q  <= qmove[f_qbase + {{(LIST_BITS - 8){1'b0}}, rd_qidx}];
        qnext_q  <= qnext[f_qbase + {{(LIST_BITS - 8){1'b0}}, rd_qidx}];
    end
    // The streaming move into its list (S_STREAM below): a capture or promotion (every move
    // of a quiescence node) not the table's move into `caps`; a quiet move neither the
    // table's move nor a killer into `quiets`, in front of its history bucket. S_STREAM
    // counts and flags from the same wires (`st_tt`, `st_k0`, `st_k1`: the table's move and
    // the killers, found as they stream).
    wire st_move = state == S_STREAM && g_move_valid;
    wire st_cap = f_q || !quiet(g_move);
    wire st_tt = st_move && !f_q && g_move == f_ttmove;
    wire st_quiet = st_move && !st_cap && !st_tt;   // a quiet move, not the table's
    wire st_k0 = st_quiet && g_move == f_k0;
    wire st_k1 = st_quiet && !st_k0 && g_move == f_k1;
    wire caps_we = st_move && st_cap && !st_tt;
    wire quiets_we = st_quiet && !st_k0 && !st_k1;
    // A link written: the streaming quiet move's (without cfg_lmp), or the one the sorter
    // lets go, at its own entry.
    wire qnext_we = quiets_we && (!cfg_lmp || ev_out);
    // The lists' next free entries: where the streaming move goes, and the child's bases.
    wire [LIST_BITS - 1:0] caps_wa = f_cbase + {{(LIST_BITS - 8){1'b0}}, f_ncaps};
    wire [LIST_BITS - 1:0] quiets_wa = f_qbase + {{(LIST_BITS - 8){1'b0}}, f_nq};
    always @(posedge clk) begin
        if (caps_we) caps[caps_wa] <= {g_enemy[g_move[11:6]], g_move};
        if (quiets_we) qmove[quiets_wa] <= {g_move_check, g_move};
        if (qnext_we)
            qnext[f_qbase + {{(LIST_BITS - 8){1'b0}}, q_link}] <= f_heads[8 * q_bucket +: 8];
    end
    wire [15:0] cur_move = cur_src == 3'd0 ? f_ttmove : cur_src == 3'd1 ? caps_q[15:0]
                         : cur_src == 3'd2 ? f_k0 : cur_src == 3'd3 ? f_k1 : qmove_q[15:0];
    wire [7:0] r_rd = state == S_RNEXT2 ? r_pos + 8'd1 : r_pos;
    reg  [7:0] rot_j;
    always @(posedge clk) root_q <= roots[state == S_ROT ? rot_j - 8'd1 : r_rd];
    // One write port: the root's moves as they stream, the rotation, the best move in front.
    wire        roots_we = (state == S_RSTREAM && g_move_valid) || state == S_ROTW
                        || state == S_ITEREND;
    wire [7:0]  roots_wa = state == S_RSTREAM ? r_n : state == S_ROTW ? rot_j : 8'd0;
    wire [15:0] roots_wd = state == S_RSTREAM ? g_move : state == S_ROTW ? root_q : r_best;
    always @(posedge clk) if (roots_we) roots[roots_wa] <= roots_wd;

    // Neither a capture (flags 4-7, 12-15; en passant is 3) nor a promotion (8-15).
    function quiet(input [15:0] m);
        quiet = !m[14] && !m[15] && m[15:12] != 4'd3;
    endfunction

    // ---- PV rows ------------------------------------------------------------------------------
    reg [15:0] pv [0:4095];
    reg [15:0] pv0 [0:63];
    reg [15:0] pv_q;
    reg [6:0]  pvc_i, pvc_n;
    reg [1:0]  pvc_then;
    assign pv_move = pv0[pv_addr];
    wire [6:0] pv_src_ply = ply + 7'd1;
    always @(posedge clk) pv_q <= pv[{pv_src_ply[5:0], pvc_i[5:0]}];
    // pv[ply][0] = the move, pv[ply][k] = pv[ply + 1][k - 1] (PVC, below the root).
    wire pv_we = state == S_PVC && ply != 7'd0;
    always @(posedge clk)
        if (pv_we) pv[{ply[5:0], pvc_i[5:0]}] <= pvc_i == 7'd0 ? f_move : pv_q;

    // ---- repetition scan and table read, started two clocks after a MAKE or NULL -------------
    reg [63:0] path [0:255];
    reg [63:0] path_q;
    reg [7:0]  sc_top, sc_reach, sc_back;
    reg        sc_pend, rep_done, rep_found;
    reg        iss_v, iss_last, cmp_v, cmp_last;
    reg [63:0] path_q2;
    reg [63:0] sc_key;
    wire [7:0] top_now = game_len + {1'b0, ply};
    wire [7:0] reach_now = m_halfmove < top_now ? m_halfmove : top_now;
    reg [7:0]  path_ra;
    always @(posedge clk) path_q <= path[path_ra];
    // One write port: the game's hashes from the host, the root's at GO, a ply's after a make.
    wire        go_now = state == S_IDLE && !clear && go;
    assign started = go_now;
    wire        path_we = mk2 || go_now || hist_we;
    wire [7:0]  path_wa = mk2 ? top_now : go_now ? game_len : hist_addr;
    wire [63:0] path_wd = mk2 || go_now ? m_hash : hist_data;
    always @(posedge clk) if (path_we) path[path_wa] <= path_wd;
    always @* begin
        path_ra = sc_top - sc_back;
        if (mk2) path_ra = top_now - 8'd4;
    end

    reg [63:0] tt [0:(1 << TT_BITS) - 1];
    reg [63:0] tt_q;
    reg [9:0]  tt_cnt;
    // The external table: the tag of the latest read, and whether its entry is still out.
    // An entry's low 5 bits are the table's generation: CLEAR on the external table starts
    // a new one (entries of the others are misses) instead of writing every entry.
    reg [1:0]  tt_tag;
    reg        tt_wait;
    reg [4:0]  tt_gen;
    reg [TT_BITS-1:0] clr_i;
    // The entry out of the RAM a clock after the hash comes, into a register behind it, then
    // its hit, score (mates counted from this node) and fields into registers: the verdict at
    // the entry compares registers only. So a table read takes 3 clocks at least
    // (TT_BRAM_CLOCKS of the model); `cfg_tt_clocks` adds the external memory's latency.
    reg [63:0] tt_r;
    reg        tt_hit;
    reg [15:0] tt_move;
    reg signed [17:0] tt_s;
    reg signed [7:0]  tt_depth;
    reg [1:0]  tt_bound;
    wire signed [17:0] ply18 = $signed({11'd0, ply});
    wire signed [17:0] tt_score_r = {{2{tt_r[30]}}, tt_r[30:15]};
    always @(posedge clk) begin
        if (!ext) tt_q <= tt[m_hash[TT_BITS-1:0]];
        else if (t_rd_valid && t_rd_tag_in == tt_tag) tt_q <= t_rd_data;
        tt_r <= tt_q;
        tt_hit <= tt_r[63] && tt_r[62:47] == m_hash[63:48] && tt_r[4:0] == tt_gen;
        tt_move <= tt_r[46:31];
        tt_s <= tt_score_r >= MATE_BOUND ? tt_score_r - ply18
              : tt_score_r <= -MATE_BOUND ? tt_score_r + ply18 : tt_score_r;
        tt_depth <= tt_r[14:7];
        tt_bound <= tt_r[6:5];
    end
    wire tt_done = tt_cnt == 10'd0 && !tt_wait;
    // A child that may search at full width (its depth above 0 before or after its check
    // extension) asks the external table for its entry two clocks after the make, with the
    // hash; a node writes its entry at its end (TTW).
    wire tt_want = $signed(c_base - $signed({4'd0, c_rc})) > 8'sd0 || (c_ext && c_base >= 8'sd0);
    assign t_rd = ext && mk2 && tt_want;
    assign t_rd_tag = tt_tag + 2'd1;
    assign t_wr = ext && state == S_TTW && t_wr_ready;
    assign t_addr = m_hash[EXT_BITS-1:0];
    // The score a node stores: mates counted from it.
    wire signed [17:0] tt_store = f_best >= MATE_BOUND ? f_best + ply18
                                : f_best <= -MATE_BOUND ? f_best - ply18 : f_best;
    assign t_wdata = {1'b1, m_hash[63:48], f_bmove, tt_store[15:0], f_depth,
        f_best >= f_beta ? 2'd1 : f_best > f_oalpha ? 2'd0 : 2'd2, tt_gen};

    // ---- the node's decisions -------------------------------------------------------------------
    wire signed [17:0] s_ret = -ret;             // the child's score, this node's view
    wire signed [17:0] mated = ply18 - MATE;
    wire signed [17:0] depth18 = {{10{f_depth[7]}}, f_depth};
    reg  signed [17:0] rfp_thr, fut_thr;
    // The child's depth, once its in-check flag is known.
    wire signed [7:0] child_depth = (c_ext && g_in_check) ? c_base + 8'sd1 : c_base - $signed({4'd0, c_rc});
    // The move in NEXT2 and what the search does with it.
    // The move chosen, registered at the first of its two clocks (the RAM's output is held
    // through both): the second clock decides on the register, not on the RAM.
    reg  [15:0] mv_r;
    reg         mv_chk;                 // its gives-check flag (quiet moves only)
    reg         mv_att;                 // a listed capture's destination is attacked
    always @(posedge clk) begin
        mv_r <= cur_move;
        mv_att <= cur_src == 3'd1 && caps_q[16];
        mv_chk <= cur_src == 3'd4 ? qmove_q[16] : cur_src == 3'd2 ? f_k0c
                : cur_src == 3'd3 ? f_k1c : 1'b1;
    end
    wire is_killer = mv_r == f_k0 || mv_r == f_k1;
    wire [2:0] att_kind = m_from_code[2:0] - 3'd1, vic_kind = m_to_code[2:0] - 3'd1;
    function signed [17:0] victim_cp(input [2:0] k);
        case (k)
            3'd0: victim_cp = 18'sd100;
            3'd1, 3'd2: victim_cp = 18'sd300;
            3'd3: victim_cp = 18'sd500;
            3'd4: victim_cp = 18'sd900;
            default: victim_cp = 18'sd0;
        endcase
    endfunction
    function [6:0] rank_of(input [2:0] k);
        case (k)
            3'd0: rank_of = 7'd1;
            3'd1, 3'd2: rank_of = 7'd3;
            3'd3: rank_of = 7'd5;
            3'd4: rank_of = 7'd9;
            default: rank_of = 7'd100;
        endcase
    endfunction
    wire q_futile = !(mv_r[15] || mv_r[15:12] == 4'd3)
                 && ((f_eval + victim_cp(vic_kind) + 18'sd200 <= f_alpha)
                  || (rank_of(att_kind) > rank_of(vic_kind) && mv_att));
    wire s_skip = f_futile && f_searched != 8'd0 && quiet(mv_r) && !is_killer;
    // Late-move pruning (cfg_lmp): below the PV, with a piece to move, a quiet move that
    // does not give check, from position 4 + depth^2 of the order on once a move has scored
    // above a mated score (hw::chip::lmp_moves).
    wire [12:0] lmp_at = 13'd4 + {1'b0, d_sq};
    wire lmp_quiet = cfg_lmp && !f_q && !f_pv && m_has_pieces && quiet(mv_r) && !mv_chk
                  && f_pos != 8'd0;
    wire lmp_start = f_best > -MATE_BOUND && {5'd0, f_pos} + 13'd1 > lmp_at;
    wire lmp_skip = lmp_quiet && (f_lmp || lmp_start);
    // The quiet moves made, into the walk's list as each is first made (NEXT2 into MAKE).
    wire tried_we = state == S_NEXT2 && cfg_lmp && !f_q && quiet(mv_r) && !s_skip && !lmp_skip;
    always @(posedge clk)
        if (tried_we) tried[f_qbase + {{(LIST_BITS - 8){1'b0}}, f_ntried}] <= mv_r;
    always @(posedge clk) tried_q <= tried[f_qbase + {{(LIST_BITS - 8){1'b0}}, hw_k[7:0]}];
    wire reduce_cand = cfg_lmr && f_depth >= 8'sd3 && f_searched >= 8'd3 && quiet(mv_r)
                    && !f_check && !is_killer;
    // The table's reduction, a ply less at a PV node, within 1 and depth - 2.
    wire signed [7:0] r_tab = $signed({4'd0, lmr_q}) - (f_pv ? 8'sd1 : 8'sd0);
    wire signed [7:0] r_cap = r_tab < f_depth - 8'sd2 ? r_tab : f_depth - 8'sd2;
    wire [3:0] r_amount = !reduce_cand ? 4'd0 : r_cap < 8'sd1 ? 4'd1 : r_cap[3:0];
    // After a child returns (RET2).
    wire reduced = f_rc != 4'd0 && !ick[ply + 7'd1];
    // Its comparisons, registered in RET1 for RET2.
    reg x_gt_alpha, x_lt_beta, x_gt_best, x_ge_beta, x_ge_mb, x_last, x_root_gt, x_root_lt;
    reg x_reduced;
    wire signed [17:0] nbest = x_gt_best ? s_ret : f_best;
    wire signed [17:0] nalpha = x_gt_alpha ? s_ret : f_alpha;

    // Plies to the mate of the iteration's score (large when it is not a mate).
    wire signed [17:0] mp_win = MATE - r_ibs, mp_loss = MATE + r_ibs;
    wire [17:0] mate_plies = r_ibs >= MATE_BOUND ? (mp_win[0] ? mp_win : mp_win - 18'sd1)
                           : r_ibs <= -MATE_BOUND ? {mp_loss[17:1], 1'b0}
                           : 18'h3ffff;

    // A search node's verdict at its entry (WAITRT): a draw, the deepest ply, or a table cutoff
    // returns; otherwise GEN goes out at once.
    wire rt_go = rep_done && tt_done;
    wire rt_cut = rep_found || m_halfmove >= 8'd100 || ply >= MAX_PLY
               || (tt_hit && !f_pv && tt_depth >= f_depth
                   && (tt_bound == 2'd0 || (tt_bound == 2'd1 && tt_s >= f_beta)
                       || (tt_bound == 2'd2 && tt_s <= f_alpha)));
    // A quiescence node's GEN goes out as its in-check flag comes (WAITCHK).
    wire q_gen_now = chk_cnt == 4'd0 && child_depth <= 8'sd0 && ply < MAX_PLY;

    // The iteration's verdicts, registered from registers (a window's best score is set a
    // clock or more before its end: the PV copy comes between): inside the window, and a
    // mate within the iteration's depth.
    reg r_inside, r_final;
    always @(posedge clk) begin
        r_inside <= r_ib && r_ibs > r_lo && r_ibs < r_beta;
        r_final <= mate_plies <= {11'd0, r_depth};
    end

    // ---- command outputs ----------------------------------------------------------------------
    always @* begin
        g_cmd_valid = 1'b0; g_cmd = 3'd0; g_cmd_data = 32'd0;
        e_cmd_valid = 1'b0; e_cmd = 3'd0; e_cmd_data = 32'd0;
        m_make = 1'b0; m_null = 1'b0; m_unmake = 1'b0;
        m_move = (state == S_NEXT1 || state == S_NEXT2) ? cur_move
               : (state == S_RNEXT1 || state == S_RNEXT2) ? root_q
               : ply == 7'd0 ? r_move : f_move;
        if (ev_fire) begin
            e_cmd_valid = 1'b1; e_cmd = C_EVAL;
        end
        case (state)
            S_RGEN, S_GEN:
                if (g_ready) begin
                    g_cmd_valid = 1'b1; g_cmd = C_GEN;
                    g_cmd_data = {31'd0, state == S_GEN && f_q && !f_check};
                end
            S_WAITCHK:
                if (g_ready && q_gen_now) begin
                    g_cmd_valid = 1'b1; g_cmd = C_GEN; g_cmd_data = {31'd0, !g_in_check};
                end
            S_WAITRT:
                if (g_ready && rt_go && !rt_cut) begin
                    g_cmd_valid = 1'b1; g_cmd = C_GEN;
                end
            S_RMAKE, S_MAKE:
                if (units_free) begin
                    g_cmd_valid = 1'b1; g_cmd = C_MAKE; g_cmd_data = m_make_word;
                    e_cmd_valid = 1'b1; e_cmd = C_MAKE; e_cmd_data = m_make_word;
                    m_make = 1'b1;
                end
            S_NULLMK:
                if (units_free) begin
                    g_cmd_valid = 1'b1; g_cmd = C_NULL;
                    e_cmd_valid = 1'b1; e_cmd = C_NULL;
                    m_null = 1'b1;
                end
            S_UNMAKE:
                if (units_free) begin
                    g_cmd_valid = 1'b1; g_cmd = C_UNMAKE; g_cmd_data = m_undo_word;
                    e_cmd_valid = 1'b1; e_cmd = C_UNMAKE; e_cmd_data = m_undo_word;
                    m_unmake = 1'b1;
                end
            default: ;
        endcase
    end
    wire fire_make = m_make || m_null;

    // ---- the state machine ----------------------------------------------------------------------
    // The window a node gives its child, by the child's stage (the root's likewise).
    wire signed [17:0] w_a = ply == 7'd0 ? r_alpha : f_stage == ST_NULL ? f_beta - 18'sd1 : f_alpha;
    wire signed [17:0] w_b = ply == 7'd0 ? (r_stage == ST_NW ? r_alpha + 18'sd1 : r_beta)
                           : f_stage == ST_NULL ? f_beta
                           : (f_stage == ST_FIRST || f_stage == ST_FULL) ? f_beta : f_alpha + 18'sd1;
    always @(posedge clk) begin
        report <= 1'b0;
        done <= 1'b0;
        kill_wr <= 1'b0;
        qh_wr <= 1'b0;
        age_wv <= 1'b0;
        if (state != S_IDLE) now <= now + 48'd1;

        // The evaluation port.
        if (ev_fire) begin
            ev_req <= 1'b0;
            ev_wait <= 1'b1;
        end
        if (e_result_valid && ev_wait) begin
            ev_wait <= 1'b0;
            ev_score <= e_clamped;
        end

        // In-check flag and hash timing.
        mk1 <= fire_make;
        mk2 <= mk1;
        if (fire_make || m_unmake) chk_cnt <= IN_CHECK_WAIT;
        else if (chk_cnt != 4'd0) chk_cnt <= chk_cnt - 4'd1;

        // Repetition scan and table read, from the hash two clocks after a MAKE or NULL.
        if (tt_cnt != 10'd0) tt_cnt <= tt_cnt - 10'd1;
        // The external table's entry: registered as it comes, then as the RAM's.
        if (t_rd) begin
            tt_tag <= tt_tag + 2'd1;
            tt_wait <= 1'b1;
        end else if (ext && t_rd_valid && t_rd_tag_in == tt_tag && tt_wait) begin
            tt_wait <= 1'b0;
            tt_cnt <= 10'd2;
        end
        // The scan in two stages behind the RAM: each hash read into a register, then
        // compared; a read a clock. `iss_v`: the read of the last clock counts (`iss_last`:
        // it was the last one); `cmp_v`, `cmp_last`: the same for the hash now in path_q2.
        path_q2 <= path_q;
        if (mk2) begin
            sc_key <= m_hash;
            sc_top <= top_now;
            sc_reach <= reach_now;
            sc_back <= 8'd6;
            sc_pend <= reach_now >= 8'd4;
            iss_v <= reach_now >= 8'd4;
            iss_last <= reach_now < 8'd6;
            cmp_v <= 1'b0;
            rep_done <= reach_now < 8'd4;
            rep_found <= 1'b0;
            if (!ext) tt_cnt <= (cfg_tt_clocks < 10'd3 ? 10'd3 : cfg_tt_clocks) - 10'd1;
        end else if (sc_pend) begin
            if (cmp_v && path_q2 == sc_key) begin
                rep_found <= 1'b1;
                rep_done <= 1'b1;
                sc_pend <= 1'b0;
            end else if (cmp_v && cmp_last) begin
                rep_done <= 1'b1;
                sc_pend <= 1'b0;
            end
            cmp_v <= iss_v;
            cmp_last <= iss_last;
            iss_v <= iss_v && !iss_last;
            iss_last <= sc_back + 8'd2 > sc_reach;
            sc_back <= sc_back + 8'd2;
        end

        case (state)
        S_IDLE: begin
            age_i <= 13'd0;
            if (clear) begin
                clr_i <= {TT_BITS{1'b0}};
                state <= S_CLEAR;
            end else if (go) begin
                r_black <= m_black;
                now <= LOAD_CLOCKS;
                nodes <= 48'd0;
                qnodes <= 48'd0;
                aborted <= 1'b0;
                stopped <= 1'b0;
                overflow <= 1'b0;
                ply <= 7'd0;
                r_max <= lim_depth == 7'd0 ? 7'd1 : lim_depth > 7'd63 ? 7'd63 : lim_depth;
                r_n <= 8'd0;
                r_last <= 18'sd0;
                r_best <= 16'd0;
                hw_pend <= 1'b0;
                state <= cfg_lmp ? S_RGEN : S_AGE;
            end
        end
        S_AGE: begin
            // The history halved: entry i read here, written back next clock.
            age_wv <= 1'b1;
            age_zero <= 1'b0;
            qh_wa <= age_i;
            age_i <= age_i + 13'd1;
            if (&age_i) state <= S_RGEN;
        end
        S_CLEAR: begin
            if (!ext) tt[clr_i] <= 64'd0;
            kill_wr <= clr_i <= 64;
            kill_wa <= clr_i[6:0];
            kill_wd <= 32'd0;
            clr_i <= clr_i + 1'b1;
            age_wv <= 1'b1;
            age_zero <= 1'b1;
            qh_wa <= age_i;
            age_i <= age_i + 13'd1;
            // The history's 8,192 entries and the table's walk end together (both powers of
            // two, counted from 0).
            if (&age_i && (ext || &clr_i)) begin
                if (ext) tt_gen <= tt_gen + 5'd1;
                state <= S_IDLE;
            end
        end

        // ---- the root ----
        S_RGEN: if (g_ready) state <= S_RSTREAM;
        S_RSTREAM: begin
            if (g_move_valid) begin
                if (r_n == 8'd0) begin
                    r_first <= g_move;
                    r_best <= g_move;
                end
                r_n <= r_n + 8'd1;
            end
            if (g_done) begin
                if (r_n == 8'd0 && !g_move_valid) begin
                    rep_depth <= 7'd0;
                    rep_score <= g_in_check ? -MATE[15:0] : 16'd0;
                    rep_pvlen <= 7'd0;
                    best_move <= 16'd0;
                    state <= S_FINISH;
                end else begin
                    r_depth <= 7'd1;
                    state <= S_ITER;
                end
            end
        end
        S_ITER: begin
            // Aspiration from depth 5 around the last score.
            if (r_depth >= 7'd5 && r_last < MATE_BOUND && r_last > -MATE_BOUND) begin
                r_lo <= r_last - 18'sd40;
                r_beta <= r_last + 18'sd40;
                r_full <= 1'b0;
            end else begin
                r_lo <= -INF;
                r_beta <= INF;
                r_full <= 1'b1;
            end
            r_pos <= 8'd0;
            state <= S_WSTART;
        end
        S_WSTART: begin
            r_alpha <= r_lo;
            r_ib <= 1'b0;
            nodes <= nodes + 48'd1;
            state <= S_RNEXT1;
        end
        S_RNEXT1: state <= S_RNEXT2;
        S_RNEXT2: begin
            r_move <= root_q;
            r_pos <= r_pos + 8'd1;
            r_stage <= r_pos == 8'd0 ? ST_FIRST : ST_NW;
            state <= S_RMAKE;
        end

        // ---- a node's entry ----
        S_ENTRY: begin
            pvlen[ply] <= 7'd0;
            f_best <= -INF;
            f_bmove <= 16'd0;
            f_searched <= 8'd0;
            f_pos <= 8'd0;
            f_ttf <= 1'b0; f_k0f <= 1'b0; f_k1f <= 1'b0;
            f_ncaps <= 8'd0; f_nq <= 8'd0;
            f_heads <= {64{1'b1}};
            f_ns <= 4'd0; f_lmp <= 1'b0; f_ntried <= 8'd0; f_qchk <= 1'b0;
            f_evalv <= 1'b0; f_futile <= 1'b0;
            f_ttmove <= 16'd0;
            f_oalpha <= f_alpha;
            if (nodes >= lim_nodes || now >= lim_clocks || stop) begin
                aborted <= 1'b1;
                ret <= 18'sd0;
                state <= S_UNMAKE;
            end else begin
                nodes <= nodes + 48'd1;
                state <= S_WAITCHK;
            end
        end
        S_WAITCHK: if (chk_cnt == 4'd0) begin
            f_depth <= child_depth;
            f_check <= g_in_check;
            ick[ply] <= g_in_check;
            f_q <= child_depth <= 8'sd0;
            if (child_depth <= 8'sd0) begin
                qnodes <= qnodes + 48'd1;
                state <= ply >= MAX_PLY ? S_LEAF : g_ready ? S_STREAM : S_GEN;
                if (ply >= MAX_PLY) ev_req <= 1'b1;
            end else begin
                state <= S_WAITRT;
            end
        end
        S_WAITRT: if (rep_done && tt_done) begin
            if (rep_found || m_halfmove >= 8'd100) begin
                ret <= 18'sd0;
                state <= S_UNMAKE;
            end else if (ply >= MAX_PLY) begin
                ev_req <= 1'b1;
                state <= S_LEAF;
            end else if (tt_hit && !f_pv && tt_depth >= f_depth
                         && (tt_bound == 2'd0 || (tt_bound == 2'd1 && tt_s >= f_beta)
                             || (tt_bound == 2'd2 && tt_s <= f_alpha))) begin
                ret <= tt_s;
                state <= S_UNMAKE;
            end else begin
                f_ttmove <= tt_hit ? tt_move : 16'd0;
                f_k0 <= kill_q[15:0];
                f_k1 <= kill_q[31:16];
                if (!f_pv && !f_check && f_beta < MATE_BOUND && f_beta > -MATE_BOUND) begin
                    ev_req <= 1'b1;
                    f_evalv <= 1'b1;
                end
                state <= g_ready ? S_STREAM : S_GEN;
            end
        end
        S_LEAF: if (ev_have) begin
            ret <= ev_val;
            state <= S_UNMAKE;
        end

        // ---- the moves ----
        S_GEN: if (g_ready) state <= S_STREAM;
        S_STREAM: begin
            // The static evaluation's thresholds, while the moves stream: reverse futility
            // (beta + 100 x depth) and futility (alpha - 150 x depth).
            rfp_thr <= f_beta + 18'sd100 * depth18;
            fut_thr <= f_alpha - 18'sd150 * depth18;
            // The streaming move (see `caps_we` and `quiets_we`): the table's move and the
            // killers flagged, a capture counted, a quiet move in front of its bucket's list.
            if (st_tt) f_ttf <= 1'b1;
            if (st_k0) begin
                f_k0f <= 1'b1;
                f_k0c <= g_move_check;
            end
            if (st_k1) begin
                f_k1f <= 1'b1;
                f_k1c <= g_move_check;
            end
            if (caps_we) f_ncaps <= f_ncaps + 8'd1;
            if (quiets_we) begin
                if (qnext_we) f_heads <= heads_in;
                f_nq <= f_nq + 8'd1;
                if (g_move_check) f_qchk <= 1'b1;
                if (cfg_lmp && ins_at != 4'd8) begin
                    // Into the sorter at ins_at, the slots behind it one down.
                    for (sl = 1; sl < 8; sl = sl + 1)
                        if (sl[3:0] > ins_at) begin
                            sk[sl] <= sk[sl - 1];
                            f_sidx[8 * sl +: 8] <= f_sidx[8 * (sl - 1) +: 8];
                        end
                    for (sl = 0; sl < 8; sl = sl + 1)
                        if (sl[3:0] == ins_at) begin
                            sk[sl] <= st_key;
                            f_sidx[8 * sl +: 8] <= f_nq;
                        end
                    if (!ev_out) f_ns <= f_ns + 4'd1;
                end
            end
            // A move into a list's last entry: the lists are full.
            if ((caps_we && &caps_wa) || (quiets_we && &quiets_wa)) overflow <= 1'b1;
            if (g_done) begin
                state <= S_POSTGEN;
            end
        end
        S_POSTGEN: begin
            f_qcur <= q_init_idx;
            f_qb <= q_first[2:0];
            if (n_total == 8'd0) begin
                ret <= f_check ? mated : 18'sd0;
                if (f_q && !f_check) begin
                    ev_req <= 1'b1;
                    state <= S_QEV;
                end else state <= S_UNMAKE;
            end else if (f_q) begin
                if (f_check) state <= S_NEXT1;
                else begin
                    ev_req <= 1'b1;
                    state <= S_QEV;
                end
            end else if (f_evalv) begin
                // The static evaluation (waited for here): reverse futility, null move,
                // futility.
                if (ev_have) begin
                    f_eval <= ev_val;
                    f_futile <= f_depth <= 8'sd2 && ev_val <= fut_thr;
                    if (f_depth <= 8'sd6 && ev_val >= rfp_thr) begin
                        ret <= ev_val;
                        state <= S_UNMAKE;
                    end else if (cfg_null && f_depth >= 8'sd3 && ev_val >= f_beta && m_has_pieces) begin
                        f_stage <= ST_NULL;
                        state <= S_NULLMK;
                    end else state <= S_NEXT1;
                end
            end else state <= S_NEXT1;
        end
        S_QEV: if (ev_have) begin
            // Stand pat.
            f_best <= ev_val;
            f_eval <= ev_val;
            if (ev_val >= f_beta || n_total == 8'd0) begin
                ret <= ev_val;
                state <= S_UNMAKE;
            end else begin
                if (ev_val > f_alpha) f_alpha <= ev_val;
                state <= S_NEXT1;
            end
        end
        S_NEXT1: state <= S_NEXT2;
        S_NEXT2: begin
            f_move <= mv_r;
            f_pos <= f_pos + 8'd1;
            f_qcur <= q_next_idx;
            f_qb <= q_next_b;
            if (lmp_quiet && lmp_start) f_lmp <= 1'b1;
            if (tried_we) f_ntried <= f_ntried + 8'd1;
            if (!f_q && s_skip) begin
                // A quiet move passed over: the rest are quiet moves too, the node ends.
                state <= S_TTW;
            end else if (lmp_skip) begin
                // Late-move pruning: passed over; the node ends after its last move, or at
                // once at a listed quiet move when none of them gives check (every one after
                // it would be passed over too).
                state <= f_pos + 8'd1 < n_total && (f_qchk || cur_src != 3'd4) ? S_NEXT1 : S_TTW;
            end else if (f_q && !f_check && q_futile) begin
                if (f_pos + 8'd1 < n_total) state <= S_NEXT1;
                else begin
                    ret <= f_best;
                    state <= S_UNMAKE;
                end
            end else begin
                f_stage <= f_q || f_searched == 8'd0 ? ST_FIRST : ST_NWR;
                f_rc <= f_q || f_searched == 8'd0 ? 4'd0 : r_amount;
                state <= S_MAKE;
            end
        end
        S_RMAKE, S_NULLMK, S_MAKE: if (units_free) begin
            // Push this node (the root's state stays in its registers), start the child.
            if (ply == 7'd0) begin
                c_base <= $signed({1'b0, r_depth}) - 8'sd1;
                c_rc <= 4'd0;
                c_ext <= 1'b1;
            end else if (f_q) begin
                c_base <= -8'sd1; c_rc <= 4'd0; c_ext <= 1'b1;
            end else if (f_stage == ST_NULL) begin
                c_base <= f_depth - 8'sd1 - (f_depth >= 8'sd7 ? 8'sd3 : 8'sd2);
                c_rc <= 4'd0; c_ext <= 1'b0;
            end else begin
                c_base <= f_depth - 8'sd1;
                c_rc <= f_stage == ST_NWR ? f_rc : 4'd0;
                c_ext <= 1'b1;
            end
            f_alpha <= -w_b;
            f_beta <= -w_a;
            f_pv <= w_b - w_a > 18'sd1;
            f_cbase <= ply == 7'd0 ? {LIST_BITS{1'b0}} : caps_wa;
            f_qbase <= ply == 7'd0 ? {LIST_BITS{1'b0}} : quiets_wa + (cfg_lmp ? 3 : 0);
            ply <= ply + 7'd1;
            state <= S_ENTRY;
        end

        // ---- a child returns ----
        S_UNMAKE: if (units_free) begin
            ply <= ply - 7'd1;
            if (ply != 7'd1)
                {f_alpha, f_beta, f_best, f_oalpha, f_eval, f_bmove, f_ttmove, f_k0, f_k1, f_move,
                 f_depth, f_cbase, f_qbase, f_ncaps, f_nq, f_pos, f_searched, f_ttf, f_k0f,
                 f_k1f, f_stage, f_rc, f_q, f_pv, f_check, f_futile, f_evalv, f_heads,
                 f_qcur, f_qb, f_sidx, f_ns, f_k0c, f_k1c, f_lmp, f_ntried, f_qchk} <= stk_q;
            state <= S_RET1;
        end
        S_RET1: begin
            // The child's score against the restored frame, into flags for RET2.
            x_gt_alpha <= s_ret > f_alpha;
            x_lt_beta <= s_ret < f_beta;
            x_gt_best <= s_ret > f_best;
            x_ge_beta <= s_ret >= f_beta;
            x_ge_mb <= s_ret >= MATE_BOUND;
            x_last <= f_pos >= n_total;
            x_root_gt <= s_ret > r_alpha;
            x_root_lt <= s_ret < r_beta;
            x_reduced <= reduced;
            // The history bonus of a cutoff by a quiet move (its entry read now).
            qh_bonus <= d_sq;
            state <= S_RET2;
        end
        S_RET2: begin
            if (ply == 7'd0) begin
                // ---- the root ----
                if (aborted) begin
                    if (r_ib && r_ibm != r_first) r_best <= r_ibm;
                    stopped <= 1'b1;
                    state <= S_FINISH;
                end else if (r_stage == ST_NW && x_root_gt && x_root_lt) begin
                    r_stage <= ST_FULL;
                    state <= S_RMAKE;
                end else if (x_root_gt) begin
                    r_alpha <= s_ret;
                    r_ib <= 1'b1;
                    r_ibm <= r_move;
                    r_ibs <= s_ret;
                    r_ibi <= r_pos - 8'd1;
                    pvc_i <= 7'd0;
                    pvc_n <= pvlen[1];
                    pvc_then <= PV_ROOT;
                    state <= S_PVC;
                end else if (r_pos < r_n) state <= S_RNEXT1;
                else state <= S_WEND;
            end else if (aborted) begin
                ret <= 18'sd0;
                state <= S_UNMAKE;
            end else if (!f_q && f_stage == ST_NULL) begin
                if (x_ge_beta) begin
                    ret <= x_ge_mb ? f_beta : s_ret;
                    state <= S_UNMAKE;
                end else state <= S_NEXT1;
            end else if (!f_q && f_stage == ST_NWR && x_gt_alpha && x_reduced) begin
                f_stage <= ST_NW;
                f_rc <= 4'd0;
                state <= S_MAKE;
            end else if (!f_q && (f_stage == ST_NWR || f_stage == ST_NW)
                         && x_gt_alpha && x_lt_beta) begin
                f_stage <= ST_FULL;
                f_rc <= 4'd0;
                state <= S_MAKE;
            end else begin
                f_searched <= f_searched + 8'd1;
                f_best <= nbest;
                if (x_gt_best) f_bmove <= f_move;
                f_alpha <= nalpha;
                if (x_gt_best && x_ge_beta && !f_q && quiet(f_move) && f_k0 != f_move)
                begin
                    kill_wr <= 1'b1;
                    kill_wa <= ply;
                    kill_wd <= {f_k0, f_move};
                end
                if (x_gt_best && x_ge_beta && !f_q && quiet(f_move) && !cfg_lmp) begin
                    qh_wr <= 1'b1;
                    qh_wa <= {stm, f_move[11:0]};
                    qh_wd <= qh_sum > 13'd511 ? 16'd511 : {7'd0, qh_sum[8:0]};
                end
                // With cfg_lmp the signed walk comes before the table's write.
                hw_pend <= x_gt_best && x_ge_beta && !f_q && quiet(f_move) && cfg_lmp;
                hw_b <= f_depth >= 8'sd10 ? 11'd1600
                      : {qh_bonus[6:0], 4'd0} + {f_depth[5:0], 5'd0};
                hw_k <= 9'd0;
                hw_v1 <= 1'b0; hw_v2 <= 1'b0; hw_v3 <= 1'b0;
                // What comes after (and after the PV copy, if any).
                if (x_gt_best && x_gt_alpha && f_pv) begin
                    pvc_i <= 7'd0;
                    pvc_n <= pvlen[ply + 7'd1];
                    pvc_then <= (x_ge_beta || x_last) ? (f_q ? PV_RET : PV_TTW)
                                                                      : PV_NEXT;
                    ret <= nbest;
                    state <= S_PVC;
                end else if ((x_gt_best && x_ge_beta) || x_last) begin
                    ret <= nbest;
                    state <= f_q ? S_UNMAKE
                           : (x_gt_best && x_ge_beta && quiet(f_move) && cfg_lmp) ? S_HWALK
                           : S_TTW;
                end else state <= S_NEXT1;
            end
        end
        S_PVC: begin
            // pv[ply][0] = the move, pv[ply][k] = pv[ply + 1][k - 1]: one a clock.
            if (ply == 7'd0) pv0[pvc_i[5:0]] <= pvc_i == 7'd0 ? r_move : pv_q;
            pvc_i <= pvc_i + 7'd1;
            if (pvc_i == pvc_n) begin
                pvlen[ply] <= pvc_n + 7'd1;
                case (pvc_then)
                    PV_NEXT: state <= S_NEXT1;
                    PV_TTW: state <= hw_pend ? S_HWALK : S_TTW;
                    PV_RET: state <= S_UNMAKE;
                    default:
                        if (r_alpha >= r_beta || r_pos >= r_n) state <= S_WEND;
                        else state <= S_RNEXT1;
                endcase
            end
        end
        S_HWALK: begin
            // The signed history's walk over the quiet moves tried, a move a clock: list
            // read (k), entry read (k + 1), product registered (k + 2), write (k + 3, at
            // k + 4). The last move tried is the cutoff's, moved up; the others down.
            hw_k <= hw_k + 9'd1;
            hw_v1 <= hw_k < {1'b0, f_ntried};
            hw_last1 <= hw_k + 9'd1 == {1'b0, f_ntried};
            hw_v2 <= hw_v1;
            hw_last2 <= hw_last1;
            hw_a2 <= {stm, tried_q[11:0]};
            hw_v3 <= hw_v2;
            hw_last3 <= hw_last2;
            hw_a3 <= hw_a2;
            hw_e <= qh_q;
            hw_p <= $signed(qh_q) * $signed({1'b0, hw_b});
            qh_wr <= hw_v3;
            qh_wa <= hw_a3;
            qh_wd <= hw_new[15:0];
            if (hw_k + 9'd1 == {1'b0, f_ntried} + 9'd4) begin
                hw_pend <= 1'b0;
                state <= S_TTW;
            end
        end
        S_TTW: begin
            if (!ext || t_wr_ready) begin
                if (!ext) tt[m_hash[TT_BITS-1:0]] <= t_wdata;
                ret <= f_best;
                state <= S_UNMAKE;
            end
        end

        // ---- the end of a window, and of an iteration ----
        S_WEND: begin
            if (r_inside || r_full) begin
                r_best <= r_ibm;
                r_last <= r_ibs;
                report <= 1'b1;
                rep_depth <= r_depth;
                rep_score <= r_ibs[15:0];
                rep_nodes <= nodes;
                rep_clocks <= now;
                rep_pvlen <= pvlen[0];
                rot_j <= r_ibi;
                state <= r_ibi == 8'd0 ? S_ITEREND : S_ROT;
            end else begin
                // Outside the aspiration window: the iteration again with the full window.
                r_lo <= -INF;
                r_beta <= INF;
                r_full <= 1'b1;
                r_pos <= 8'd0;
                state <= S_WSTART;
            end
        end
        // The best move to the front, the others in their order: roots[j] = roots[j - 1].
        S_ROT: state <= S_ROTW;
        S_ROTW: begin
            rot_j <= rot_j - 8'd1;
            state <= rot_j == 8'd1 ? S_ITEREND : S_ROT;
        end
        S_ITEREND: begin
            r_first <= r_best;
            // A mate within the iteration's depth is final.
            if (r_depth >= r_max || r_final) state <= S_FINISH;
            else begin
                r_depth <= r_depth + 7'd1;
                state <= S_ITER;
            end
        end
        S_FINISH: begin
            done <= 1'b1;
            best_move <= r_best;
            state <= S_IDLE;
        end
        default: state <= S_IDLE;
        endcase

        if (rst) begin
            state <= S_IDLE;
            ev_req <= 1'b0;
            ev_wait <= 1'b0;
            chk_cnt <= 4'd0;
            tt_cnt <= 10'd0;
            tt_wait <= 1'b0;
            tt_tag <= 2'd0;
            tt_gen <= 5'd0;
            sc_pend <= 1'b0;
            rep_done <= 1'b1;
            mk1 <= 1'b0;
            mk2 <= 1'b0;
            now <= 48'd0;
        end
    end
endmodule

// One search core: the sequencer over the move generator, the evaluation unit and the mirror.
//
//   host port (h_*) --+--> estuary_movegen ---- moves, in-check, attack map --+
//   (loads, weights)  |                                                       |
//                     +--> estuary_evalunit --- score -------------------------+--> sequencer
//                     +--> mirror ------------- words, hash, codes ------------+    (GO, limits,
//                                                                                    reports)
//
// While the sequencer is idle or clearing its table the host port reaches the units directly
// (the 18 load words, the net's weights, the mirror's 42-byte position); during a search the
// sequencer drives them. The obs_* outputs repeat the commands the sequencer gives, for the co-simulation
// (crates/cosim/tests/core.rs), which compares them with the Rust model's, clock by clock.
//
// The transposition table: in block RAM (TT_EXT 0), in the SDRAM behind sdram_tt.v and the
// sd_* pins (TT_EXT 1, the board), or either, chosen by cfg_tt_ext (TT_EXT 2, the
// co-simulation, whose harness plays the SDRAM chip: crates/cosim/csrc/sdram.h).
module chip_core #(
    parameter TT_BITS = 13,
    parameter WRITABLE = 1,     // the evaluation unit takes WRITE (its net through h_ecmd)
    parameter TT_EXT = 0,
    parameter EXT_BITS = 22,    // the SDRAM table's entries: 2^EXT_BITS (4M in 32 MB)
    parameter SD_REFI = 780,    // the SDRAM's refresh interval in clocks (7.8 us at 100 MHz)
    parameter SD_INIT = 20000   // its power-up wait (200 us at 100 MHz)
) (
    input  wire         clk,
    input  wire         rst,
    // ---- direct access to the units while idle ----
    input  wire         h_gcmd_valid,
    input  wire [2:0]   h_gcmd,
    input  wire [4:0]   h_gcmd_addr,
    input  wire [31:0]  h_gcmd_data,
    output wire         g_ready,
    output wire         g_in_check,
    output wire         g_many_checks,
    input  wire         h_ecmd_valid,
    input  wire [2:0]   h_ecmd,
    input  wire [4:0]   h_ecmd_addr,
    input  wire [31:0]  h_ecmd_data,
    output wire         e_ready,
    input  wire         h_mload,
    input  wire [335:0] h_position,
    output wire         m_busy,
    output wire [63:0]  m_hash,
    // ---- the search ----
    input  wire         go,
    input  wire [6:0]   lim_depth,
    input  wire [47:0]  lim_nodes,
    input  wire [47:0]  lim_clocks,
    input  wire         stop,
    input  wire         clear,
    input  wire         cfg_null,
    input  wire         cfg_lmr,
    input  wire         cfg_lmp,
    input  wire [9:0]   cfg_tt_clocks,
    input  wire         cfg_tt_ext,
    input  wire [7:0]   game_len,
    input  wire         hist_we,
    input  wire [7:0]   hist_addr,
    input  wire [63:0]  hist_data,
    output wire         busy,
    output wire         clearing,
    output wire         report,
    output wire [6:0]   rep_depth,
    output wire [15:0]  rep_score,
    output wire [47:0]  rep_nodes,
    output wire [47:0]  rep_clocks,
    output wire [6:0]   rep_pvlen,
    input  wire [5:0]   pv_addr,
    output wire [15:0]  pv_move,
    output wire         done,
    output wire [15:0]  best_move,
    output wire         stopped,
    output wire [47:0]  nodes,
    output wire [47:0]  qnodes,
    output wire [47:0]  now,
    output wire         overflow,
    // ---- what the sequencer gives the units ----
    output wire         obs_g_valid,
    output wire [2:0]   obs_g_cmd,
    output wire [31:0]  obs_g_data,
    output wire         obs_e_valid,
    output wire [2:0]   obs_e_cmd,
    output wire         obs_e_result,
    // ---- the SDRAM (TT_EXT 1 or 2) ----
    output wire         sd_ready,
    output wire         sd_cke,
    output wire         sd_cs_n,
    output wire         sd_ras_n,
    output wire         sd_cas_n,
    output wire         sd_we_n,
    output wire [1:0]   sd_ba,
    output wire [12:0]  sd_a,
    output wire [1:0]   sd_dqm,
    output wire [15:0]  sd_dq_out,
    output wire         sd_dq_oe,
    input  wire [15:0]  sd_dq_in
);
    wire        s_gv, s_ev;
    wire [2:0]  s_gc, s_ec;
    wire [31:0] s_gd, s_ed;
    wire        g_mv, g_done;
    wire [15:0] g_move;
    wire        g_move_check;
    wire [63:0] g_enemy;
    wire [7:0]  g_count;
    wire [11:0] g_next;
    wire        e_rv;
    wire [31:0] e_score;
    wire        m_make, m_null, m_unmake;
    wire [15:0] m_move;
    wire [31:0] m_make_word, m_unmake_word, m_undo_word;
    wire [7:0]  m_halfmove;
    wire        m_black, m_has;
    wire [3:0]  m_rights, m_ep, m_fc, m_tc;
    wire [6:0]  m_ply;

    // The reset, a register for each unit (dup_reg: the copies are kept apart, each placed
    // near its unit), so that no one net carries it over the whole device.
    wire rst_g, rst_e, rst_m, rst_s;
    dup_reg #(.W(1)) rst_gen (.clk(clk), .d(rst), .q(rst_g));
    dup_reg #(.W(1)) rst_eval (.clk(clk), .d(rst), .q(rst_e));
    dup_reg #(.W(1)) rst_mir (.clk(clk), .d(rst), .q(rst_m));
    dup_reg #(.W(1)) rst_seq (.clk(clk), .d(rst), .q(rst_s));

    // The sequencer drives the units while it searches.
    wire drive = busy && !clearing;
    assign obs_g_valid = s_gv;
    assign obs_g_cmd   = s_gc;
    assign obs_g_data  = s_gd;
    assign obs_e_valid = s_ev;
    assign obs_e_cmd   = s_ec;
    assign obs_e_result = e_rv;

    estuary_movegen gen (
        .clk(clk), .rst(rst_g),
        .cmd_valid(drive ? s_gv : h_gcmd_valid), .cmd(drive ? s_gc : h_gcmd),
        .cmd_addr(drive ? 5'd0 : h_gcmd_addr), .cmd_data(drive ? s_gd : h_gcmd_data),
        .ready(g_ready), .in_check(g_in_check), .move_valid(g_mv), .move(g_move),
        .move_check(g_move_check),
        .gen_done(g_done), .move_count(g_count), .enemy_map(g_enemy),
        .next_squares(g_next), .many_checks(g_many_checks));

    estuary_evalunit #(.WRITABLE(WRITABLE)) eval (
        .clk(clk), .rst(rst_e),
        .cmd_valid(drive ? s_ev : h_ecmd_valid), .cmd(drive ? s_ec : h_ecmd),
        .cmd_addr(drive ? 5'd0 : h_ecmd_addr), .cmd_data(drive ? s_ed : h_ecmd_data),
        .ready(e_ready), .result_valid(e_rv), .score(e_score));

    mirror mir (
        .clk(clk), .rst(rst_m), .load(h_mload && !drive), .position(h_position), .busy(m_busy),
        .cmd_make(m_make), .cmd_null(m_null), .cmd_unmake(m_unmake), .move(m_move),
        .make_word(m_make_word), .unmake_word(m_unmake_word), .undo_word(m_undo_word),
        .hash(m_hash), .halfmove(m_halfmove), .black(m_black), .rights(m_rights),
        .ep_file(m_ep), .ply(m_ply), .from_code(m_fc), .to_code(m_tc), .has_pieces(m_has));

    // The external table's port; `started`, GO taken by the sequencer, restarts its refresh count.
    wire        started;
    wire        t_rd, t_wr, t_rd_valid, t_wr_ready;
    wire [1:0]  t_rd_tag, t_rd_tag_in;
    wire [EXT_BITS-1:0] t_addr;
    wire [63:0] t_wdata, t_rd_data;
    generate if (TT_EXT != 0) begin : sdram
        sdram_tt #(.ENTRY_BITS(EXT_BITS), .REFI(SD_REFI), .INIT_WAIT(SD_INIT)) tt (
            .clk(clk), .rst(rst_s), .restart(started), .ready(sd_ready),
            .rd_req(t_rd), .rd_addr(t_addr), .rd_tag(t_rd_tag), .rd_valid(t_rd_valid),
            .rd_data(t_rd_data), .rd_tag_out(t_rd_tag_in), .wr_req(t_wr), .wr_addr(t_addr),
            .wr_data(t_wdata), .wr_ready(t_wr_ready),
            .sd_cke(sd_cke), .sd_cs_n(sd_cs_n), .sd_ras_n(sd_ras_n), .sd_cas_n(sd_cas_n),
            .sd_we_n(sd_we_n), .sd_ba(sd_ba), .sd_a(sd_a), .sd_dqm(sd_dqm),
            .sd_dq_out(sd_dq_out), .sd_dq_oe(sd_dq_oe), .sd_dq_in(sd_dq_in));
    end else begin : no_sdram
        assign sd_ready = 1'b1;
        assign {sd_cke, sd_cs_n, sd_ras_n, sd_cas_n, sd_we_n} = 5'b01111;
        assign sd_ba = 2'd0;
        assign sd_a = 13'd0;
        assign sd_dqm = 2'b11;
        assign sd_dq_out = 16'd0;
        assign sd_dq_oe = 1'b0;
        assign t_rd_valid = 1'b0;
        assign t_rd_tag_in = 2'd0;
        assign t_rd_data = 64'd0;
        assign t_wr_ready = 1'b1;
    end endgenerate

    sequencer #(.TT_BITS(TT_BITS), .TT_EXT(TT_EXT), .EXT_BITS(EXT_BITS)) seq (
        .clk(clk), .rst(rst_s),
        .go(go), .lim_depth(lim_depth), .lim_nodes(lim_nodes), .lim_clocks(lim_clocks),
        .stop(stop), .clear(clear), .cfg_null(cfg_null), .cfg_lmr(cfg_lmr), .cfg_lmp(cfg_lmp),
        .cfg_tt_clocks(cfg_tt_clocks), .cfg_tt_ext(cfg_tt_ext), .game_len(game_len), .hist_we(hist_we),
        .hist_addr(hist_addr), .hist_data(hist_data), .busy(busy), .clearing(clearing), .started(started),
        .report(report),
        .rep_depth(rep_depth), .rep_score(rep_score), .rep_nodes(rep_nodes),
        .rep_clocks(rep_clocks), .rep_pvlen(rep_pvlen), .pv_addr(pv_addr), .pv_move(pv_move),
        .done(done), .best_move(best_move), .stopped(stopped), .nodes(nodes), .qnodes(qnodes),
        .now(now), .overflow(overflow),
        .g_ready(g_ready), .g_in_check(g_in_check), .g_move_valid(g_mv), .g_move(g_move),
        .g_done(g_done), .g_enemy(g_enemy), .g_next_sq(g_next), .g_move_check(g_move_check),
        .g_cmd_valid(s_gv), .g_cmd(s_gc), .g_cmd_data(s_gd),
        .e_ready(e_ready), .e_result_valid(e_rv), .e_score(e_score),
        .e_cmd_valid(s_ev), .e_cmd(s_ec), .e_cmd_data(s_ed),
        .m_make(m_make), .m_null(m_null), .m_unmake(m_unmake), .m_move(m_move),
        .m_make_word(m_make_word), .m_undo_word(m_undo_word), .m_hash(m_hash),
        .m_halfmove(m_halfmove), .m_black(m_black), .m_from_code(m_fc), .m_to_code(m_tc),
        .m_has_pieces(m_has),
        .t_rd(t_rd), .t_rd_tag(t_rd_tag), .t_wr(t_wr), .t_addr(t_addr), .t_wdata(t_wdata),
        .t_rd_valid(t_rd_valid), .t_rd_tag_in(t_rd_tag_in), .t_rd_data(t_rd_data),
        .t_wr_ready(t_wr_ready));
endmodule

// The search machine: one search core behind the host interface, the whole protocol of
// hw::chip::protocol over a UART (docs/chip.md).
//
//   uart_rx --> estuary_host --LOAD--> loader --words, hashes--> chip_core
//   uart_tx <--      |        --GO, STOP, CLEAR ------------------>  (sequencer, generator,
//                    +<-- INFO / BEST <-- reports (the PV kept) <--   evaluation unit, mirror)
//   stop_pin ("decide now", a button) --------------------------->
//
// - LOAD: the host unit checks the position's bytes (position_check), the loader its attacks
//   on the generator; then the loader fills the units and the path RAM.
// - GO: the limits to the sequencer (depth 0 or over 63: 63; nodes or clocks 0 or past 48
//   bits: none).
// - After the reset the table and the killers are emptied, whatever the block RAMs held. A
//   CLEAR takes a clock a table entry; LOAD goes on beside it (the units are free), and a GO
//   meanwhile waits for its end (the search's clocks count from its start, as the model's).
// - STOP (or the pin) holds the sequencer's stop line until the next GO: the search answers
//   at the next node with the best move found so far.
// - Each completed iteration's PV is copied out of the sequencer's root row (a move a clock,
//   long before the next iteration can change that row) into `last_pv`, then offered to the
//   reply writer as an INFO; the answer is a BEST with that PV, its first move replaced by
//   the move played when the search stopped inside an iteration (hw::chip::protocol::Reply).
//
// TT_EXT 1 puts the table in an SDRAM on the sd_* pins (chip_core.v, sdram_tt.v): a CLEAR
// then starts a new table generation instead of writing every entry.
module estuary_chip #(
    parameter TT_BITS = 13,
    parameter TT_EXT = 0,
    parameter EXT_BITS = 22,
    parameter SD_REFI = 780,
    parameter SD_INIT = 20000
) (
    input  wire         clk,
    input  wire         rst,
    input  wire [15:0]  baud_div,
    input  wire [23:0]  timeout,
    input  wire         uart_rx,
    output wire         uart_tx,
    input  wire         stop_pin,
    input  wire         cfg_null,
    input  wire         cfg_lmr,
    input  wire         cfg_lmp,        // late-move pruning (docs/chip.md; the board ties it on)
    input  wire [9:0]   cfg_tt_clocks,
    output wire         searching,
    output wire         loaded_any,
    // ---- the SDRAM (TT_EXT 1) ----
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
    // ---- the host interface ----
    wire         load_strobe, go_strobe, stop_strobe, clear_strobe;
    wire [335:0] position, candidate;
    wire [6:0]   hist_count;
    wire [6:0]   hist_raddr;
    wire [63:0]  hist_rdata;
    wire [7:0]   go_depth;
    wire [63:0]  go_nodes, go_clocks;
    wire         atk_start, atk_done, atk_ok;
    reg          rep_valid, rep_final, rep_stopped;
    reg  [7:0]   rep_depth, rep_pv_len;
    reg  [15:0]  rep_score;
    reg  [63:0]  rep_nodes, rep_clocks;
    wire [7:0]   tx_pv_addr;
    reg  [15:0]  tx_pv_move;
    wire         rep_ack;
    wire         seq_busy, clearing, loading;

    // The reset, a register for the host interface, the loader and the chip's own control
    // (dup_reg: kept apart); the core makes its units' copies, as many clocks after `rst`
    // as `rst_c` here, so the CLEAR after reset reaches a sequencer out of reset.
    wire rst_h, rst_l, rst_c;
    reg  go_r;   // GO on its way to the core (below)
    dup_reg #(.W(1)) rst_host (.clk(clk), .d(rst), .q(rst_h));
    dup_reg #(.W(1)) rst_load (.clk(clk), .d(rst), .q(rst_l));
    dup_reg #(.W(1)) rst_ctl (.clk(clk), .d(rst), .q(rst_c));

    estuary_host host (
        .clk(clk), .rst(rst_h), .baud_div(baud_div), .timeout(timeout),
        .uart_rx(uart_rx), .uart_tx(uart_tx),
        .busy((seq_busy && !clearing) || loading || go_pending || go_r),
        .load_strobe(load_strobe), .go_strobe(go_strobe), .stop_strobe(stop_strobe),
        .clear_strobe(clear_strobe), .position(position), .candidate(candidate),
        .atk_start(atk_start), .atk_done(atk_done), .atk_ok(atk_ok),
        .hist_count(hist_count), .hist_addr(hist_raddr), .hist_data(hist_rdata),
        .go_depth(go_depth), .go_nodes(go_nodes), .go_clocks(go_clocks),
        .rep_valid(rep_valid), .rep_final(rep_final), .rep_depth(rep_depth),
        .rep_score(rep_score), .rep_nodes(rep_nodes), .rep_clocks(rep_clocks),
        .rep_stopped(rep_stopped), .rep_pv_len(rep_pv_len), .pv_addr(tx_pv_addr),
        .pv_move(tx_pv_move), .rep_ack(rep_ack));

    reg loaded_r;
    always @(posedge clk) loaded_r <= !rst_c && (loaded_r || load_strobe);
    assign loaded_any = loaded_r;

    // ---- the loader ----
    wire        l_gv, l_ev, l_mload, l_hwe;
    wire [2:0]  l_gc;
    wire [4:0]  l_ga, l_ea;
    wire [31:0] l_gd, l_ed;
    wire [7:0]  l_hwa, game_len;
    wire [63:0] l_hwd;
    wire        g_ready, g_in_check, g_many, e_ready, m_busy;
    wire [63:0] m_hash;

    loader load (
        .clk(clk), .rst(rst_l),
        .check_start(atk_start), .cand(candidate), .check_done(atk_done), .check_ok(atk_ok),
        .commit(load_strobe), .position(position),
        .hist_count(hist_count), .hist_raddr(hist_raddr), .hist_rdata(hist_rdata),
        .loading(loading),
        .g_valid(l_gv), .g_cmd(l_gc), .g_addr(l_ga), .g_data(l_gd), .g_ready(g_ready),
        .g_in_check(g_in_check), .g_many_checks(g_many),
        .e_valid(l_ev), .e_addr(l_ea), .e_data(l_ed), .e_ready(e_ready),
        .m_load(l_mload), .m_busy(m_busy),
        .hist_we(l_hwe), .hist_waddr(l_hwa), .hist_wdata(l_hwd), .game_len(game_len));

    // ---- the CLEAR after reset, GO and the stop line ----
    // GO reaches the core from a register (go_r), not from the sequencer's own busy through
    // this logic in one clock; the host is told busy while it is on its way.
    reg         booted;
    always @(posedge clk) booted <= !rst_c;
    wire        boot_clear = !rst_c && !booted;
    reg         stop_held, go_pending;
    reg  [2:0]  pin_sync;
    wire        go_now = go_pending && !seq_busy && !loading && !go_r;
    always @(posedge clk) begin
        pin_sync <= {pin_sync[1:0], stop_pin};
        go_r <= !rst_c && go_now;
        if (rst_c || go_strobe) stop_held <= 1'b0;
        else if (stop_strobe) stop_held <= 1'b1;
        if (rst_c || go_now) go_pending <= 1'b0;
        else if (go_strobe) go_pending <= 1'b1;
    end
    wire [6:0]  lim_depth = (go_depth == 8'd0 || go_depth > 8'd63) ? 7'd63 : go_depth[6:0];
    wire [47:0] lim_nodes = (go_nodes == 64'd0 || go_nodes[63:48] != 16'd0) ? {48{1'b1}}
                                                                             : go_nodes[47:0];
    wire [47:0] lim_clocks = (go_clocks == 64'd0 || go_clocks[63:48] != 16'd0) ? {48{1'b1}}
                                                                               : go_clocks[47:0];

    // ---- the core ----
    wire        report, done, stopped, overflow;
    wire [6:0]  s_depth, s_pvlen;
    wire [15:0] s_score, best_move, s_pv_move;
    wire [47:0] s_nodes, s_clocks, nodes, qnodes, now;
    reg  [5:0]  s_pv_addr;
    wire        obs_gv, obs_ev, obs_er;
    wire [2:0]  obs_gc, obs_ec;
    wire [31:0] obs_gd;

    // The net is the build's (EVALUNIT_INIT): no WRITE reaches the evaluation unit.
    wire sd_ready;
    chip_core #(.TT_BITS(TT_BITS), .WRITABLE(0), .TT_EXT(TT_EXT), .EXT_BITS(EXT_BITS),
                .SD_REFI(SD_REFI), .SD_INIT(SD_INIT)) core (
        .clk(clk), .rst(rst),
        .h_gcmd_valid(l_gv), .h_gcmd(l_gc), .h_gcmd_addr(l_ga), .h_gcmd_data(l_gd),
        .g_ready(g_ready), .g_in_check(g_in_check), .g_many_checks(g_many),
        .h_ecmd_valid(l_ev), .h_ecmd(3'd1), .h_ecmd_addr(l_ea), .h_ecmd_data(l_ed),
        .e_ready(e_ready),
        .h_mload(l_mload), .h_position(position), .m_busy(m_busy), .m_hash(m_hash),
        .go(go_r), .lim_depth(lim_depth), .lim_nodes(lim_nodes), .lim_clocks(lim_clocks),
        .stop(stop_held || pin_sync[2]), .clear(clear_strobe || boot_clear),
        .cfg_null(cfg_null), .cfg_lmr(cfg_lmr), .cfg_lmp(cfg_lmp), .cfg_tt_clocks(cfg_tt_clocks),
        .cfg_tt_ext(TT_EXT != 0), .game_len(game_len), .hist_we(l_hwe), .hist_addr(l_hwa), .hist_data(l_hwd),
        .busy(seq_busy), .clearing(clearing), .report(report), .rep_depth(s_depth), .rep_score(s_score),
        .rep_nodes(s_nodes), .rep_clocks(s_clocks), .rep_pvlen(s_pvlen),
        .pv_addr(s_pv_addr), .pv_move(s_pv_move),
        .done(done), .best_move(best_move), .stopped(stopped), .nodes(nodes), .qnodes(qnodes),
        .now(now), .overflow(overflow),
        .obs_g_valid(obs_gv), .obs_g_cmd(obs_gc), .obs_g_data(obs_gd),
        .obs_e_valid(obs_ev), .obs_e_cmd(obs_ec), .obs_e_result(obs_er),
        .sd_ready(sd_ready), .sd_cke(sd_cke), .sd_cs_n(sd_cs_n), .sd_ras_n(sd_ras_n),
        .sd_cas_n(sd_cas_n), .sd_we_n(sd_we_n), .sd_ba(sd_ba), .sd_a(sd_a), .sd_dqm(sd_dqm),
        .sd_dq_out(sd_dq_out), .sd_dq_oe(sd_dq_oe), .sd_dq_in(sd_dq_in));
    assign searching = seq_busy;

    // ---- reports: the PV kept, INFO and BEST offered to the reply writer ----
    reg [15:0] last_pv [0:63];
    reg [6:0]  last_len;
    reg [15:0] last_first;
    reg        copying, best_due, best_stopped;
    reg [6:0]  copy_i;
    reg [15:0] best_r;
    reg [47:0] best_nodes, best_clocks;
    always @(posedge clk) begin
        // The reply writer reads the PV a clock after the address; BEST's first move is the
        // move played.
        tx_pv_move <= (rep_final && tx_pv_addr == 8'd0) ? best_r : last_pv[tx_pv_addr[5:0]];
        if (copying) begin
            last_pv[copy_i[5:0]] <= s_pv_move;
            if (copy_i == 7'd0) last_first <= s_pv_move;
            copy_i    <= copy_i + 7'd1;
            s_pv_addr <= s_pv_addr + 6'd1;
        end
        if (rst_c) begin
            rep_valid <= 1'b0;
            copying   <= 1'b0;
            best_due  <= 1'b0;
            last_len  <= 7'd0;
        end else begin
            if (rep_valid && rep_ack) rep_valid <= 1'b0;
            if (go_now) last_len <= 7'd0;
            if (report && !copying && !rep_valid) begin
                // An iteration: its figures now, its PV a move a clock.
                copying    <= 1'b1;
                copy_i     <= 7'd0;
                s_pv_addr  <= 6'd0;
                last_len   <= s_pvlen;
                rep_final  <= 1'b0;
                rep_pv_len <= {1'b0, s_pvlen};
                rep_depth  <= {1'b0, s_depth};
                rep_score  <= s_score;
                rep_nodes  <= {16'd0, s_nodes};
                rep_clocks <= {16'd0, s_clocks};
            end
            if (copying && copy_i + 7'd1 >= last_len) begin
                copying   <= 1'b0;
                rep_valid <= 1'b1;
            end
            if (done) begin
                best_due     <= 1'b1;
                best_r       <= best_move;
                best_stopped <= stopped;
                best_nodes   <= nodes;
                best_clocks  <= now;
            end
            if (best_due && !copying && !rep_valid && !report) begin
                best_due    <= 1'b0;
                rep_valid   <= 1'b1;
                rep_final   <= 1'b1;
                rep_stopped <= best_stopped;
                rep_depth   <= {1'b0, s_depth};
                rep_score   <= s_score;
                rep_nodes   <= {16'd0, best_nodes};
                rep_clocks  <= {16'd0, best_clocks};
                rep_pv_len  <= best_r == 16'd0 ? 8'd0
                             : (last_len != 7'd0 && last_first == best_r) ? {1'b0, last_len}
                             : 8'd1;
            end
        end
    end
endmodule

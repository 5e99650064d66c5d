// The search machine's host interface: the protocol of hw::chip::protocol over a UART.
//
//   uart_rx -> frame_rx -> request decode -> strobes, position, history, GO limits -> sequencer
//                             |  (LOAD: position_check)
//   uart_tx <- reply_tx <- PONG / ERROR,  INFO / BEST reports <- sequencer
//
// A finished frame becomes one action, in the order of hw::chip::protocol::Host::on: a bad
// frame or payload is answered with ERROR; PING with PONG; STOP raises `stop_strobe` (also
// during a search); LOAD, GO and CLEAR while `busy` get ERROR Busy; CLEAR raises
// `clear_strobe`; a LOAD whose position passes position_check goes on `candidate` to the
// checks on attacks (`atk_start`; the loader, hw/chip/loader.v, makes them on the move
// generator and answers on atk_done / atk_ok), and if it passes those too it replaces
// `position` and the history (a bank switch, so a refused LOAD leaves the loaded game as it
// was) and raises `load_strobe`; GO before any LOAD gets ERROR NoPosition, else it sets the
// limits and raises `go_strobe`.
// `baud_div` is the clocks per bit (at least 4); `timeout` the clocks without a byte that cut
// a frame short (at least 64).
module estuary_host (
    input  wire         clk,
    input  wire         rst,
    input  wire [15:0]  baud_div,
    input  wire [23:0]  timeout,
    input  wire         uart_rx,
    output wire         uart_tx,
    // The sequencer's side: requests.
    input  wire         busy,
    output reg          load_strobe,
    output reg          go_strobe,
    output reg          stop_strobe,
    output reg          clear_strobe,
    output reg  [335:0] position,      // the LOADed position's 42 bytes, byte i at [8i+7:8i]
    output wire [335:0] candidate,     // a LOAD's position under the checks on attacks
    output reg          atk_start,
    input  wire         atk_done,
    input  wire         atk_ok,
    output reg  [6:0]   hist_count,    // its history hashes (0-100)
    input  wire [6:0]   hist_addr,     // read port of the history, oldest first,
    output reg  [63:0]  hist_data,     //   a clock after the address
    output reg  [7:0]   go_depth,      // 0: no limit
    output reg  [63:0]  go_nodes,      // 0: none
    output reg  [63:0]  go_clocks,     // 0: none
    // The sequencer's side: reports (see reply_tx).
    input  wire         rep_valid,
    input  wire         rep_final,
    input  wire [7:0]   rep_depth,
    input  wire [15:0]  rep_score,
    input  wire [63:0]  rep_nodes,
    input  wire [63:0]  rep_clocks,
    input  wire         rep_stopped,
    input  wire [7:0]   rep_pv_len,
    output wire [7:0]   pv_addr,
    input  wire [15:0]  pv_move,
    output wire         rep_ack
);
    localparam [7:0] T_LOAD = 8'h01, T_GO = 8'h02, T_STOP = 8'h03, T_CLEAR = 8'h04,
                     T_PING = 8'h05;
    localparam [3:0] E_PAYLOAD = 4'd4, E_TYPE = 4'd3, E_POSITION = 4'd6, E_BUSY = 4'd7,
                     E_NOPOS = 4'd8, PONG = 4'd0;
    localparam [10:0] POS_BYTES = 11'd42;

    wire [7:0] rx_byte;
    wire       rx_valid;
    uart_rx u_rx (.clk(clk), .rst(rst), .div(baud_div), .rx(uart_rx),
                .data(rx_byte), .valid(rx_valid));

    wire        pay_we, f_done, f_ok;
    wire [9:0]  pay_idx;
    wire [7:0]  pay_byte, f_kind;
    wire [3:0]  f_err;
    wire [10:0] f_len;
    frame_rx u_frame (.clk(clk), .rst(rst), .timeout(timeout), .rx_byte(rx_byte),
                 .rx_valid(rx_valid), .pay_we(pay_we), .pay_idx(pay_idx),
                 .pay_byte(pay_byte), .done(f_done), .ok(f_ok), .err(f_err),
                 .kind(f_kind), .len(f_len));

    // Staging: the first 42 payload bytes of the frame under way (LOAD's position, GO's
    // limits) in registers, LOAD's hashes into the history bank not in use.
    reg  [335:0] stage;
    assign candidate = stage;
    reg  [63:0]  hword;
    reg  [63:0]  hist [0:255];
    reg          bank;
    wire [9:0]   hidx = pay_idx - 10'd42;
    always @(posedge clk) begin
        if (pay_we && pay_idx < 10'd42) stage[{pay_idx[5:0], 3'b000} +: 8] <= pay_byte;
        if (pay_we && pay_idx >= 10'd42) begin
            hword <= {pay_byte, hword[63:8]};
            if (hidx[2:0] == 3'd7)  // at most 122 words: the 1024-byte payload limit
                hist[{~bank, hidx[9:3]}] <= {pay_byte, hword[63:8]};
        end
        hist_data <= hist[{bank, hist_addr}];
    end

    // Request decode and the action.
    wire       chk_done, chk_ok;
    reg        chk_start;
    position_check u_check (.clk(clk), .rst(rst), .start(chk_start), .pos(stage),
                       .done(chk_done), .ok(chk_ok));

    wire [10:0] hbytes = f_len - POS_BYTES;
    // The frame's type is a request's, and its payload the size that type takes.
    wire known = f_kind == T_LOAD || f_kind == T_GO || f_kind == T_STOP || f_kind == T_CLEAR
              || f_kind == T_PING;
    wire size_ok = f_kind == T_LOAD ? f_len >= POS_BYTES && hbytes[2:0] == 3'd0
                                      && hbytes[10:3] <= 8'd100
                 : f_kind == T_GO ? f_len == 11'd17
                 : f_len == 11'd0;
    reg  [6:0]  pending_count;
    reg         loaded;
    reg         short_push;
    reg  [3:0]  short_code;
    reg         act;          // a request passed its checks: `act_kind` is carried out
    reg  [7:0]  act_kind;

    always @(posedge clk) begin
        chk_start    <= 1'b0;
        atk_start    <= 1'b0;
        short_push   <= 1'b0;
        act          <= 1'b0;
        load_strobe  <= 1'b0;
        go_strobe    <= 1'b0;
        stop_strobe  <= 1'b0;
        clear_strobe <= 1'b0;
        if (rst) begin
            loaded     <= 1'b0;
            bank       <= 1'b0;
            hist_count <= 7'd0;
        end else begin
            if (f_done && !f_ok) begin
                short_push <= 1'b1;
                short_code <= f_err;
            end else if (f_done && !known) begin
                short_push <= 1'b1;
                short_code <= E_TYPE;
            end else if (f_done && !size_ok) begin
                short_push <= 1'b1;
                short_code <= E_PAYLOAD;
            end else if (f_done) begin
                act_kind <= f_kind;
                if (f_kind == T_LOAD) begin
                    pending_count <= hbytes[9:3];
                    chk_start     <= 1'b1;
                end else begin
                    act <= 1'b1;
                end
            end
            if (chk_done) begin
                if (!chk_ok) begin
                    short_push <= 1'b1;
                    short_code <= E_POSITION;
                end else if (busy) begin
                    // The generator is the search's: no checks on attacks during one.
                    short_push <= 1'b1;
                    short_code <= E_BUSY;
                end else begin
                    atk_start <= 1'b1;
                end
            end
            if (atk_done) begin
                if (atk_ok) act <= 1'b1;
                else begin
                    short_push <= 1'b1;
                    short_code <= E_POSITION;
                end
            end

            if (act) begin
                if (act_kind == T_PING) begin
                    short_push <= 1'b1;
                    short_code <= PONG;
                end else if (act_kind == T_STOP) begin
                    stop_strobe <= 1'b1;
                end else if (busy) begin
                    short_push <= 1'b1;
                    short_code <= E_BUSY;
                end else if (act_kind == T_CLEAR) begin
                    clear_strobe <= 1'b1;
                end else if (act_kind == T_LOAD) begin
                    position    <= stage;
                    hist_count  <= pending_count;
                    bank        <= ~bank;
                    loaded      <= 1'b1;
                    load_strobe <= 1'b1;
                end else if (!loaded) begin
                    short_push <= 1'b1;
                    short_code <= E_NOPOS;
                end else begin
                    go_depth    <= stage[7:0];
                    go_nodes    <= stage[71:8];
                    go_clocks   <= stage[135:72];
                    go_strobe   <= 1'b1;
                end
            end
        end
    end

    wire [7:0] tx_data;
    wire       tx_start, tx_ready;
    reply_tx u_reply (.clk(clk), .rst(rst), .short_push(short_push), .short_code(short_code),
                 .rep_valid(rep_valid), .rep_final(rep_final), .rep_depth(rep_depth),
                 .rep_score(rep_score), .rep_nodes(rep_nodes), .rep_clocks(rep_clocks),
                 .rep_stopped(rep_stopped), .rep_pv_len(rep_pv_len), .pv_addr(pv_addr),
                 .pv_move(pv_move), .rep_ack(rep_ack), .tx_data(tx_data),
                 .tx_start(tx_start), .tx_ready(tx_ready));
    uart_tx u_tx (.clk(clk), .rst(rst), .div(baud_div), .data(tx_data), .start(tx_start),
                .ready(tx_ready), .tx(uart_tx));
endmodule

// The reply writer: frames the chip's replies onto the UART transmitter.
//   - Short replies (PONG, ERROR with its code) queue in a FIFO of 16 (`short_push`; code 0 is
//     PONG). A host that floods the chip with bad frames faster than their errors can be sent
//     loses the errors past 16; the chip never stops reading.
//   - Reports (INFO for an iteration, BEST for the answer) come from the sequencer with a
//     valid/ack handshake: the writer copies the figures and the PV (read through `pv_addr`,
//     its word a clock later on `pv_move`) into its own buffer and acks, so the search runs on
//     while the UART sends. An INFO offered while the buffer is still full is acked at once and
//     dropped (the UART is the slow side); a BEST waits for the buffer.
// Short replies go first. Frames are as in hw::chip::protocol::Reply::encode.
module reply_tx (
    input  wire        clk,
    input  wire        rst,
    input  wire        short_push,
    input  wire [3:0]  short_code,
    input  wire        rep_valid,
    input  wire        rep_final,      // BEST, else INFO
    input  wire [7:0]  rep_depth,
    input  wire [15:0] rep_score,
    input  wire [63:0] rep_nodes,
    input  wire [63:0] rep_clocks,
    input  wire        rep_stopped,
    input  wire [7:0]  rep_pv_len,
    output wire [7:0]  pv_addr,
    input  wire [15:0] pv_move,
    output reg         rep_ack,
    output reg  [7:0]  tx_data,
    output reg         tx_start,
    input  wire        tx_ready
);
`include "crc8.vh"
    localparam [7:0] T_INFO = 8'h81, T_BEST = 8'h82, T_PONG = 8'h85, T_ERROR = 8'h8f;

    // Short replies.
    reg [3:0] fifo [0:15];
    reg [4:0] wp, rp;
    wire      fifo_empty = wp == rp;
    wire      fifo_full  = wp - rp == 5'd16;

    // The report buffer.
    reg        full, copying;
    reg        r_final, r_stopped;
    reg [7:0]  r_depth, r_len;
    reg [15:0] r_score;
    reg [63:0] r_nodes, r_clocks;
    reg [15:0] pvbuf [0:255];
    reg [8:0]  cidx;     // next PV word to ask for
    reg        cwr;      // a word arrives this clock
    reg [7:0]  cwa;      // and where it goes
    assign pv_addr = cidx[7:0];

    // The serializer.
    localparam IDLE = 2'd0, SEND = 2'd1, GAP = 2'd2;
    reg [1:0]  state;
    reg [1:0]  gap;      // GAP's clock: PV RAM, PV word, report byte, frame byte (a register each)
    reg        is_report;
    reg [7:0]  kind;
    reg [10:0] plen;     // payload bytes
    reg [10:0] idx;      // byte of the frame
    reg [7:0]  crc;
    reg [3:0]  code;
    reg [15:0] pv_word;

    // Payload byte j of a report.
    wire [10:0] j       = idx - 11'd4;
    wire [10:0] pv_base = r_final ? 11'd20 : 11'd19;   // the PV length byte
    wire [10:0] mj      = j - pv_base - 11'd1;         // byte of the moves
    reg [15:0] pv_ram;   // the block RAM's output, then a fabric register (its clock-to-out is long)
    always @(posedge clk) begin
        pv_ram  <= pvbuf[mj[8:1]];
        pv_word <= pv_ram;
    end
    reg [7:0] rbyte, rbyte_q, fbyte_q;
    always @* begin
        if (j == 11'd0) rbyte = r_depth;
        else if (j < 11'd3) rbyte = r_score[8 * (j - 11'd1) +: 8];
        else if (j < 11'd11) rbyte = r_nodes[8 * (j - 11'd3) +: 8];
        else if (j < 11'd19) rbyte = r_clocks[8 * (j - 11'd11) +: 8];
        else if (j < pv_base) rbyte = {7'd0, r_stopped};
        else if (j == pv_base) rbyte = r_len;
        else rbyte = mj[0] ? pv_word[15:8] : pv_word[7:0];
    end
    reg [7:0] fbyte;
    always @* begin
        case (idx)
        11'd0: fbyte = 8'ha5;
        11'd1: fbyte = kind;
        11'd2: fbyte = plen[7:0];
        11'd3: fbyte = {5'd0, plen[10:8]};
        default:
            if (idx == plen + 11'd4) fbyte = crc;
            else if (is_report) fbyte = rbyte_q;
            else fbyte = {4'd0, code};
        endcase
    end

    always @(posedge clk) begin
        rep_ack  <= 1'b0;
        tx_start <= 1'b0;
        cwr      <= 1'b0;
        if (rst) begin
            wp <= 5'd0;
            rp <= 5'd0;
            full <= 1'b0;
            copying <= 1'b0;
            state <= IDLE;
        end else begin
            if (short_push && !fifo_full) begin
                fifo[wp[3:0]] <= short_code;
                wp <= wp + 5'd1;
            end

            // Take a report, or drop an INFO that finds the buffer full.
            if (cwr) pvbuf[cwa] <= pv_move;
            if (copying) begin
                if (cidx != {1'b0, r_len}) begin
                    cidx <= cidx + 9'd1;
                    cwr  <= 1'b1;
                    cwa  <= cidx[7:0];
                end else if (!cwr) begin
                    copying <= 1'b0;
                    full    <= 1'b1;
                    rep_ack <= 1'b1;
                end
            end else if (rep_valid && !rep_ack) begin
                if (!full) begin
                    copying   <= 1'b1;
                    cidx      <= 9'd0;
                    r_final   <= rep_final;
                    r_depth   <= rep_depth;
                    r_score   <= rep_score;
                    r_nodes   <= rep_nodes;
                    r_clocks  <= rep_clocks;
                    r_stopped <= rep_stopped;
                    r_len     <= rep_pv_len;
                end else if (!rep_final) begin
                    rep_ack <= 1'b1;
                end
            end

            case (state)
            IDLE:
                if (!fifo_empty) begin
                    code      <= fifo[rp[3:0]];
                    rp        <= rp + 5'd1;
                    is_report <= 1'b0;
                    kind      <= fifo[rp[3:0]] == 4'd0 ? T_PONG : T_ERROR;
                    plen      <= fifo[rp[3:0]] == 4'd0 ? 11'd0 : 11'd1;
                    idx       <= 11'd0;
                    crc       <= 8'd0;
                    gap       <= 2'd0;
                    state     <= GAP;
                end else if (full) begin
                    is_report <= 1'b1;
                    kind      <= r_final ? T_BEST : T_INFO;
                    plen      <= (r_final ? 11'd21 : 11'd20) + {2'd0, r_len, 1'b0};
                    idx       <= 11'd0;
                    crc       <= 8'd0;
                    gap       <= 2'd0;
                    state     <= GAP;
                end
            SEND:
                if (tx_ready) begin
                    tx_data  <= fbyte_q;
                    tx_start <= 1'b1;
                    if (idx != 11'd0) crc <= crc8_next(crc, fbyte_q);
                    idx <= idx + 11'd1;
                    gap <= 2'd0;
                    if (idx == plen + 11'd4) begin
                        state <= IDLE;
                        if (is_report) full <= 1'b0;
                    end else begin
                        state <= GAP;
                    end
                end
            default: begin  // GAP: the next byte through its registers; the transmitter busy
                gap <= gap + 2'd1;
                if (gap == 2'd3) state <= SEND;
            end
            endcase
            rbyte_q <= rbyte;
            fbyte_q <= fbyte;
        end
    end
endmodule

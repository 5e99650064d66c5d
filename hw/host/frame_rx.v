// The frame reader: SYNC (0xA5), type, length (16 bits, little endian), payload, CRC-8 over
// type, length and payload. Bytes before a SYNC are skipped. Each frame ends in one `done`
// clock: `ok` with its type and length when the CRC matches, else `err` = 1 (bad CRC). A length
// over 1024 ends it at once with `err` = 2, and `timeout` clocks without a byte inside a frame
// end it with `err` = 5 (cut short); either way the reader looks for the next SYNC. The payload
// goes out a byte a clock as it arrives (`pay_we`, its index and value). The Rust model is
// hw::chip::protocol::FrameReader.
module frame_rx (
    input  wire        clk,
    input  wire        rst,
    input  wire [23:0] timeout,
    input  wire [7:0]  rx_byte,
    input  wire        rx_valid,
    output reg         pay_we,
    output reg  [9:0]  pay_idx,
    output reg  [7:0]  pay_byte,
    output reg         done,
    output reg         ok,
    output reg  [3:0]  err,
    output reg  [7:0]  kind,
    output reg  [10:0] len
);
`include "crc8.vh"
    localparam SYNC = 3'd0, KIND = 3'd1, LENLO = 3'd2, LENHI = 3'd3, PAY = 3'd4, CRC = 3'd5;
    localparam [7:0] SYNC_BYTE = 8'ha5;
    localparam ERR_CRC = 4'd1, ERR_LONG = 4'd2, ERR_CUT = 4'd5;

    reg [2:0]  state;
    reg [7:0]  crc;
    reg [10:0] cnt;
    reg [23:0] quiet;
    wire [7:0]  crc_in = crc8_next(crc, rx_byte);
    wire [15:0] len_in = {rx_byte, len[7:0]};

    always @(posedge clk) begin
        done   <= 1'b0;
        pay_we <= 1'b0;
        if (rst) begin
            state <= SYNC;
            quiet <= 24'd0;
        end else if (rx_valid) begin
            quiet <= 24'd0;
            case (state)
            SYNC:
                if (rx_byte == SYNC_BYTE) begin
                    crc   <= 8'd0;
                    state <= KIND;
                end
            KIND: begin
                kind  <= rx_byte;
                crc   <= crc_in;
                state <= LENLO;
            end
            LENLO: begin
                len[7:0] <= rx_byte;
                crc      <= crc_in;
                state    <= LENHI;
            end
            LENHI: begin
                crc <= crc_in;
                cnt <= 11'd0;
                if (len_in > 16'd1024) begin
                    done  <= 1'b1;
                    ok    <= 1'b0;
                    err   <= ERR_LONG;
                    state <= SYNC;
                end else begin
                    len   <= len_in[10:0];
                    state <= len_in == 16'd0 ? CRC : PAY;
                end
            end
            PAY: begin
                crc      <= crc_in;
                pay_we   <= 1'b1;
                pay_idx  <= cnt[9:0];
                pay_byte <= rx_byte;
                cnt      <= cnt + 11'd1;
                if (cnt + 11'd1 == len) state <= CRC;
            end
            default: begin  // CRC
                done  <= 1'b1;
                ok    <= crc == rx_byte;
                err   <= crc == rx_byte ? 4'd0 : ERR_CRC;
                state <= SYNC;
            end
            endcase
        end else if (state == SYNC) begin
            quiet <= 24'd0;
        end else if (quiet == timeout) begin
            done  <= 1'b1;
            ok    <= 1'b0;
            err   <= ERR_CUT;
            state <= SYNC;
            quiet <= 24'd0;
        end else begin
            quiet <= quiet + 24'd1;
        end
    end
endmodule

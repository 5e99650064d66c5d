// UART receiver, 8N1, least significant bit first. The line goes through two flip-flops
// (it comes from another clock domain); a falling edge starts a byte, each bit is sampled in
// its middle (`div` clocks a bit, at least 4), and a byte whose stop bit is low is dropped (a
// framing error: the frame it belonged to ends in a bad CRC or the inter-byte timeout).
module uart_rx (
    input  wire        clk,
    input  wire        rst,
    input  wire [15:0] div,    // clocks per bit
    input  wire        rx,     // the serial line, idle high
    output reg  [7:0]  data,
    output reg         valid   // one clock per byte received
);
    reg s0 = 1'b1, s1 = 1'b1;
    always @(posedge clk) begin
        s0 <= rx;
        s1 <= s0;
    end

    localparam IDLE = 2'd0, START = 2'd1, BITS = 2'd2, STOP = 2'd3;
    reg [1:0]  state;
    reg [15:0] cnt;
    reg [2:0]  nbit;
    reg [7:0]  shift;

    always @(posedge clk) begin
        valid <= 1'b0;
        if (rst) begin
            state <= IDLE;
        end else begin
            case (state)
            IDLE:
                if (!s1) begin
                    cnt   <= (div >> 1) - 16'd1;
                    state <= START;
                end
            START:
                if (cnt != 0) cnt <= cnt - 16'd1;
                else if (s1) state <= IDLE;        // a glitch, not a start bit
                else begin
                    cnt   <= div - 16'd1;
                    nbit  <= 3'd0;
                    state <= BITS;
                end
            BITS:
                if (cnt != 0) cnt <= cnt - 16'd1;
                else begin
                    shift <= {s1, shift[7:1]};
                    cnt   <= div - 16'd1;
                    nbit  <= nbit + 3'd1;
                    if (nbit == 3'd7) state <= STOP;
                end
            default:  // STOP
                if (cnt != 0) cnt <= cnt - 16'd1;
                else begin
                    state <= IDLE;
                    if (s1) begin
                        data  <= shift;
                        valid <= 1'b1;
                    end
                end
            endcase
        end
    end
endmodule

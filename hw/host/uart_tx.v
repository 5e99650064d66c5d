// UART transmitter, 8N1: `start` with `data` while `ready` sends one byte (a start bit, eight
// data bits from the least significant, a stop bit, `div` clocks each). `ready` falls on the
// clock after `start`.
module uart_tx (
    input  wire        clk,
    input  wire        rst,
    input  wire [15:0] div,
    input  wire [7:0]  data,
    input  wire        start,
    output wire        ready,
    output reg         tx
);
    reg        busy;
    reg [9:0]  shift;
    reg [3:0]  left;
    reg [15:0] cnt;
    assign ready = !busy;

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0;
            tx   <= 1'b1;
        end else if (!busy) begin
            if (start) begin
                shift <= {1'b1, data, 1'b0};
                left  <= 4'd10;
                cnt   <= 16'd0;
                busy  <= 1'b1;
            end
        end else if (cnt != 0) begin
            cnt <= cnt - 16'd1;
        end else if (left == 0) begin
            busy <= 1'b0;
        end else begin
            tx    <= shift[0];
            shift <= {1'b1, shift[9:1]};
            left  <= left - 4'd1;
            cnt   <= div - 16'd1;
        end
    end
endmodule

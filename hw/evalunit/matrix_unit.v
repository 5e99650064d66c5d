// The matrix unit: the chip net's int8 dense layers on an array of 8 x 16 multiply-accumulate
// cells (our TPU), weights and biases in block RAM, requantisation between layers.
//
//   weight RAM (128 words of 8 x 16 int8)   input buffer (128 bytes: layer 0 from the
//        |                                   accumulator unit, then the ping-pong buffers)
//        +-------------+---------------------+
//                      | issue: one word and 16 inputs a clock
//   8 x 16 products (int8 x u7) -> 8 row sums of 16 -> 8 accumulators (bias first)
//                      | last chunk of a pass
//   requantise clamp(s >> 6, 0, 127) into the next layer's buffer, or the output sum
//
// A layer of I inputs and O outputs runs in passes of 8 outputs (ceil(O / 8)), each in chunks
// of 16 inputs (ceil(I / 16)): one issue a clock, then 4 clocks for the pipeline to drain
// before the next layer reads what this one wrote. Weight word w of layer l, pass p, chunk c
// is wbase(l) + p x chunks(l) + c: cell (r, k) is weight [8p + r][16c + k] (zero outside the
// layer). Bias word bbase(l) + p holds the 8 biases of the pass (i32).
// Configuration words: layer l (0-7) {bbase[20:16], wbase[15:9], passes[8:4], chunks[3:0]};
// word 8 {layers[7:4], one perspective[0]}.
module matrix_unit (
    input  wire          clk,
    input  wire          rst,
    input  wire          w_we,
    input  wire [6:0]    w_waddr,
    input  wire [1023:0] w_wdata,
    input  wire          b_we,
    input  wire [4:0]    b_waddr,
    input  wire [255:0]  b_wdata,
    input  wire          cfg_we,
    input  wire [3:0]    cfg_waddr,
    input  wire [31:0]   cfg_wdata,
    input  wire          in_we,          // layer 0's input, 32 bytes at 32 x in_group
    input  wire [1:0]    in_group,
    input  wire [255:0]  in_data,
    input  wire          start,
    output wire          busy,
    output reg           done,           // a clock: `sum` holds the output layer's sum
    output reg  [31:0]   sum,
    output wire          one_persp
);
    localparam R = 8, C = 16;
    localparam [1:0] IDLE = 2'd0, RUN = 2'd1, DRAIN = 2'd2;

    // ---- configuration ----
    // Words 0-7: the layers; word 8: the global word.
    reg [31:0] lcfg [0:8];
    wire [31:0] gcfg = lcfg[8];
    assign one_persp = gcfg[0];
    always @(posedge clk)
        if (cfg_we && cfg_waddr <= 4'd8) lcfg[cfg_waddr] <= cfg_wdata;
    wire [3:0] layers = gcfg[7:4];

    // ---- issue ----
    reg  [1:0] state;
    reg  [2:0] l;            // layer
    reg  [4:0] p;            // pass
    reg  [3:0] c;            // chunk
    reg  [6:0] waddr;
    reg  [2:0] drain;
    wire [31:0] cfg = lcfg[l];
    wire [3:0] chunks = cfg[3:0];
    wire [4:0] passes = cfg[8:4];
    wire       issue = state == RUN;
    wire       last_chunk = c == chunks - 4'd1;
    wire       last_pass = p == passes - 5'd1;
    wire       out_layer = {1'b0, l} == layers - 4'd1;
    assign busy = state != IDLE;

    // ---- buffers ----
    reg [1023:0] buf0, buf_a, buf_b;
    wire [1023:0] in_buf = l == 3'd0 ? buf0 : (l[0] ? buf_a : buf_b);

    // ---- RAMs (registered reads) ----
    reg [1023:0] wram [0:127];
    reg [255:0]  bram [0:31];
`ifdef EVALUNIT_INIT
    // The built-in chip net's configuration, weights and biases (estuary hw gen); see acc_unit.
`ifndef EVALUNIT_GEN
`define EVALUNIT_GEN "evalunit/gen/"
`endif
    initial begin
        $readmemh({`EVALUNIT_GEN, "config.hex"}, lcfg);
        $readmemh({`EVALUNIT_GEN, "weights.hex"}, wram);
        $readmemh({`EVALUNIT_GEN, "biases.hex"}, bram);
    end
`endif
    reg [1023:0] s1_w;
    reg [255:0]  s1_b;
    wire [6:0]   w_port = w_we ? w_waddr : waddr;
    wire [4:0]   b_port = b_we ? b_waddr : cfg[20:16] + p;
    always @(posedge clk) begin
        if (w_we) wram[w_port] <= w_wdata;
        s1_w <= wram[w_port];
    end
    always @(posedge clk) begin
        if (b_we) bram[b_port] <= b_wdata;
        s1_b <= bram[b_port];
    end

    // ---- pipeline control: valid, first chunk, last chunk, output layer, output buffer, pass
    reg        s1_v, s2_v, s3_v, s4_v;
    reg        s1_first, s2_first, s3_first;
    reg        s1_last, s2_last, s3_last, s4_last;
    reg        s1_out, s2_out, s3_out, s4_out;
    reg        s1_sel, s2_sel, s3_sel, s4_sel;      // 0: buffer a, 1: buffer b
    reg  [4:0] s1_p, s2_p, s3_p, s4_p;
    reg  [127:0] s1_x;
    reg  [255:0] s2_b, s3_b;

    // ---- the cells ----
    reg  signed [15:0] s2_prod [0:R * C - 1];
    reg  signed [17:0] s3_part [0:R * 4 - 1];
    reg  signed [31:0] acc [0:R - 1];
    integer r, k;
    always @(posedge clk) begin
        for (r = 0; r < R; r = r + 1)
            for (k = 0; k < C; k = k + 1)
                s2_prod[r * C + k] <= $signed(s1_w[8 * (r * C + k) +: 8]) * $signed({1'b0, s1_x[8 * k +: 8]});
        for (r = 0; r < R; r = r + 1)
            for (k = 0; k < 4; k = k + 1)
                s3_part[r * 4 + k] <= s2_prod[r * C + 4 * k] + s2_prod[r * C + 4 * k + 1]
                                    + s2_prod[r * C + 4 * k + 2] + s2_prod[r * C + 4 * k + 3];
        if (s3_v)
            for (r = 0; r < R; r = r + 1)
                acc[r] <= (s3_first ? $signed(s3_b[32 * r +: 32]) : acc[r])
                        + s3_part[r * 4] + s3_part[r * 4 + 1] + s3_part[r * 4 + 2] + s3_part[r * 4 + 3];
    end

    function [7:0] clip(input signed [31:0] s);
        reg signed [31:0] q;
        begin
            q = s >>> 6;
            clip = q < 0 ? 8'd0 : (q > 127 ? 8'd127 : q[7:0]);
        end
    endfunction

    always @(posedge clk) begin
        done <= 1'b0;
        if (in_we) buf0[256 * in_group +: 256] <= in_data;
        s1_v <= issue && !rst;
        s1_first <= c == 4'd0;
        s1_last <= last_chunk;
        s1_out <= out_layer;
        s1_sel <= l[0];
        s1_p <= p;
        s1_x <= in_buf[128 * c +: 128];
        {s2_v, s2_first, s2_last, s2_out, s2_sel, s2_p, s2_b} <= {s1_v, s1_first, s1_last, s1_out, s1_sel, s1_p, s1_b};
        {s3_v, s3_first, s3_last, s3_out, s3_sel, s3_p, s3_b} <= {s2_v, s2_first, s2_last, s2_out, s2_sel, s2_p, s2_b};
        {s4_v, s4_last, s4_out, s4_sel, s4_p} <= {s3_v, s3_last, s3_out, s3_sel, s3_p};
        if (s4_v && s4_last) begin
            if (s4_out) begin
                sum <= acc[0];
                done <= 1'b1;
            end else
                for (r = 0; r < R; r = r + 1) begin
                    if (s4_sel) buf_b[8 * (R * s4_p + r) +: 8] <= clip(acc[r]);
                    else buf_a[8 * (R * s4_p + r) +: 8] <= clip(acc[r]);
                end
        end
        if (rst) begin
            state <= IDLE;
            buf_a <= 1024'd0;
            buf_b <= 1024'd0;
            buf0 <= 1024'd0;
        end else case (state)
        IDLE: if (start) begin
            state <= RUN;
            l <= 3'd0;
            p <= 5'd0;
            c <= 4'd0;
            waddr <= lcfg[0][15:9];
        end
        RUN: begin
            waddr <= waddr + 7'd1;
            if (!last_chunk) c <= c + 4'd1;
            else begin
                c <= 4'd0;
                if (!last_pass) p <= p + 5'd1;
                else begin
                    state <= DRAIN;
                    drain <= 3'd4;
                end
            end
        end
        DRAIN: begin
            drain <= drain - 3'd1;
            if (drain == 3'd1) begin
                p <= 5'd0;
                if (out_layer) state <= IDLE;
                else begin
                    state <= RUN;
                    l <= l + 3'd1;
                    waddr <= lcfg[l + 3'd1][15:9];
                end
            end
        end
        default: state <= IDLE;
        endcase
    end
endmodule

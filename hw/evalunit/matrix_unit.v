// The matrix unit: the chip net's int8 dense layers on an array of 8 x 16 multiply-accumulate
// cells (our TPU), weights and biases in block RAM, requantisation between layers.
//
//   weight RAM (128 words of 8 x 16 int8)   inputs (layer 0: the accumulator unit's 256 lanes,
//        |                                   clipped as they are taken; then the ping-pong buffers,
//        |                                   in LUT RAM)
//        +-------------+---------------------+
//                      | issue: one word and 16 inputs a clock
//   RAM read register, output register
//   8 x 16 products (int8 x u7) -> 32 sums of 4 -> 8 row sums -> 8 accumulators (bias first)
//                      | last chunk of a pass
//   requantise clamp(s >> 6, 0, 127) beside each row, then into the next layer's buffer; or
//   the output sum
//
// A layer of I inputs and O outputs runs in passes of 8 outputs (ceil(O / 8)), each in chunks
// of 16 inputs (ceil(I / 16)): one issue a clock, then 7 clocks for the pipeline to drain
// before the next layer reads what this one wrote (6 after the output layer, whose sum is not
// requantised: DRAIN_CLOCKS and OUT_DRAIN_CLOCKS below, the Rust model's
// hw::evalunit::DRAIN_CLOCKS and OUT_DRAIN_CLOCKS). Every stage holds one adder level at most.
// Forwarding: a layer after the first whose inputs are one chunk (at most 16: ours, 8 -> 16
// and 16 -> 1) starts FORWARD_CLOCKS earlier: its first issue's inputs go to the cells' input
// registers (stage 2) straight from the requantised outputs of the layer before's last pass
// (stage 7), the bytes of its earlier pass from the buffer, in the clock they would have been
// written; its second issue's inputs (stage 1) likewise. Later passes read the buffer.
// Weight word w of layer l, pass p, chunk c is wbase(l) + p x chunks(l) + c: cell (r, k) is
// weight [8p + r][16c + k] (zero outside the layer). Bias word bbase(l) + p holds the 8
// biases of the pass (i32).
// Configuration words: layer l (0-7) {bbase[21:17], wbase[16:10], passes[9:5], chunks[4:0]};
// word 8 {layers[7:4], one perspective[0]}.
module matrix_unit (
    input  wire          clk,
    input  wire          rst,
    input  wire          w_wr,           // weight word w_waddr <= w_wdata in the next clock
    input  wire [6:0]    w_waddr,        // (w_wdata held then)
    input  wire [1023:0] w_wdata,
    input  wire          b_wr,           // bias word b_waddr <= b_wdata in the next clock
    input  wire [4:0]    b_waddr,        // (b_wdata held then)
    input  wire [255:0]  b_wdata,
    input  wire          cfg_we,
    input  wire [3:0]    cfg_waddr,
    input  wire [31:0]   cfg_wdata,
    input  wire          in_we,          // layer 0's input is in `lanes` from now on
    input  wire [3583:0] lanes,          // 256 lanes of 14 bits (White's, then Black's), held
                                         // from in_we until the evaluation ends or is aborted
    input  wire          in_flip,        // with in_we: layer 0 reads its halves swapped
    input  wire          start,          // from idle: evaluate layer 0's input
    input  wire          abort,          // stop (from the next clock): back to idle, no result
    output wire          busy,
    output reg           done,           // a clock: `sum` holds the output layer's sum
    output reg  [31:0]   sum,
    output wire          one_persp
);
    localparam R = 8, C = 16;
    localparam [1:0] IDLE = 2'd0, RUN = 2'd1, DRAIN = 2'd2;
    // Clocks from a layer's last issue to the next layer's first (its outputs written); the
    // output layer's sum is ready a clock earlier (it is not requantised).
    localparam [2:0] DRAIN_CLOCKS = 3'd7, OUT_DRAIN_CLOCKS = 3'd6, FORWARD_CLOCKS = 3'd2;

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
    reg  [3:0] c;            // chunk (0-15)
    reg  [6:0] waddr;
    reg  [4:0] baddr;
    reg  [2:0] drain;
    reg  [31:0] cfg;         // lcfg[l], registered when the layer starts
    wire [4:0] chunks = cfg[4:0];
    wire [4:0] passes = cfg[9:5];
    wire       issue = state == RUN;
    reg        last_chunk;   // c is the pass's last chunk (registered: set a clock ahead)
    wire       last_pass = p == passes - 5'd1;
    wire       out_layer = {1'b0, l} == layers - 4'd1;
    reg        next_fwd;     // the next layer's inputs are one chunk: it takes them forwarded
    reg        fwd;          // this layer took its inputs forwarded
    assign busy = state != IDLE;

    // ---- buffers ----
    reg          flip0;             // layer 0 reads the lanes' halves the other way round
    reg           from0, from_a;    // the layer's input: lanes (layer 0), else buf_a (odd layers)
    reg  [63:0]   s7_y;             // the 8 requantised outputs of a pass (pipeline stage 7)
    reg           s6_wa, s6_wb, s7_wa, s7_wb;   // they go to buffer a, b (stage 8)
    reg  [3:0]    s6_pass, s7_pass;             // the pass of s7_y (0-15)
    reg  [127:0]  s1_x;             // stage 1's 16 inputs
    // The input select of the next clock {forward, from0, from_a, chunk}, in eight copies
    // (dup_reg), each choosing 2 of the 16 input bytes: the select reaches 1,024 mux inputs
    // spread over the multiplier columns without crossing the device. `forward` is set in the
    // clock after a forwarded layer's first issue: stage 1 then takes the merged bytes.
    reg  [6:0]    sel_nxt;
    always @* begin
        sel_nxt = {1'b0, from0, from_a, c};
        case (state)
        IDLE: sel_nxt = {3'b010, 4'd0};
        RUN: begin
            sel_nxt[3:0] = last_chunk ? 4'd0 : c + 4'd1;
            sel_nxt[6] = fwd && p == 5'd0;
        end
        DRAIN: if (drain == 3'd1 && !out_layer) sel_nxt[5:4] = {1'b0, !l[0]};
        default: ;
        endcase
    end
    // Layer 0 takes the side to move's lanes first: with flip0 its chunk c reads chunk c ^ 8
    // (chunks 0-7 hold White's lanes, 8-15 Black's). The flip of the next clock is in_flip
    // when in_we comes in this one.
    wire       flip_nxt = in_we ? in_flip : flip0;
    wire [6:0] sel_d = {sel_nxt[6:4], sel_nxt[3] ^ (sel_nxt[5] && flip_nxt), sel_nxt[2:0]};
    wire [6:0] sel [0:7];
    // A first-layer lane, clamp(v, 0, 127): negative, or any bit from 2^7 up.
    function [7:0] lane_clip(input [13:0] v);
        lane_clip = v[13] ? 8'd0 : (|v[12:7] ? 8'd127 : v[7:0]);
    endfunction
    // The forwarded inputs: the layer before's last pass straight from its requantisation
    // (s7_y, pass s7_pass), its other pass (if any) from the buffer it was written to.
    wire [127:0] fwd_x;
    genvar g, cc;
    generate
        for (g = 0; g < 8; g = g + 1) begin : xsel
            dup_reg #(.W(7)) sel_reg (.clk(clk), .d(sel_d), .q(sel[g]));
            // The group's bytes of the ping-pong buffers: bytes 2g and 2g + 1 of chunk c at
            // word c of a small RAM for each buffer (7 bits a byte: a requantised output is
            // 0..127), which LUT RAM holds and reads as it is addressed, so the select is the
            // RAM's own and no flip-flop or 8-way multiplexer stands for each byte. They are
            // written by the passes whose outputs they hold: pass m writes outputs 8m..8m+7,
            // bytes 2g, 2g + 1 of chunk m / 2 when m is odd exactly for g >= 4.
            reg  [13:0] mem_a [0:7];
            reg  [13:0] mem_b [0:7];
            wire        own = s7_pass[0] == (g >= 4);   // s7_y holds this group's two bytes
            wire [13:0] wpair = {s7_y[16 * (g % 4) + 8 +: 7], s7_y[16 * (g % 4) +: 7]};
            always @(posedge clk) begin
                if (s7_wa && own) mem_a[s7_pass[3:1]] <= wpair;
                if (s7_wb && own) mem_b[s7_pass[3:1]] <= wpair;
            end
            wire [13:0] rd = sel[g][4] ? mem_a[sel[g][2:0]] : mem_b[sel[g][2:0]];
            wire [13:0] rd0 = sel[g][4] ? mem_a[0] : mem_b[0];   // chunk 0, for forwarding
            // Layer 0's bytes 2g, 2g + 1 of chunk c: lanes L and L + 1 of perspective c[3],
            // L = 64 c[2] + 8g + 2 c[1:0], clipped here (16 clips, not one for each of the
            // 256 lanes). Over the 16 chunks these are the 32 lanes of the accumulator unit's
            // slice g (8g..8g+7 and 64+8g..64+8g+7 of each perspective), so the select of
            // group g reads one slice of the accumulators, not all of them; the weight words
            // are laid out to match (hw::evalunit::input_position).
            wire [447:0] from_slice;
            for (cc = 0; cc < 16; cc = cc + 1) begin : lane_pair
                assign from_slice[28 * cc +: 28] =
                    lanes[14 * (128 * (cc / 8) + 64 * ((cc / 4) % 2) + 8 * g + 2 * (cc % 4)) +: 28];
            end
            wire [27:0] l0 = from_slice[28 * sel[g][3:0] +: 28];
            always @(posedge clk)
                s1_x[16 * g +: 16] <= sel[g][6] ? fwd_x[16 * g +: 16]
                                    : sel[g][5] ? {lane_clip(l0[27:14]), lane_clip(l0[13:0])}
                                                : {1'b0, rd[13:7], 1'b0, rd[6:0]};
            // Bytes 2g, 2g + 1 of the chunk: output 2g (mod 8) of pass g / 4.
            assign fwd_x[16 * g +: 16] = own ? s7_y[16 * (g % 4) +: 16]
                                             : {1'b0, rd0[13:7], 1'b0, rd0[6:0]};
        end
    endgenerate

    // ---- RAMs, one slice per row of cells ----
    // Row r's slice holds the 16 weights of output 8p + r of every word (128 bits, 4 DP16KD)
    // and its bias (32 bits of LUT RAM), each with its own copy of the addresses (dup_reg):
    // the weights go from a slice's RAM to its own 16 multipliers, and no register drives RAM
    // address pins across the device. The weight address is computed a clock ahead (waddr_d);
    // a weight write requested by w_wr is addressed and written in the next clock.
    reg  [6:0]    waddr_d;
    reg  [4:0]    baddr_d;
    wire [1023:0] s2_w;
    wire [255:0]  s1_b;
    generate
        for (g = 0; g < R; g = g + 1) begin : wslice
            wire       pw, pbw;
            wire [6:0] pa;
            wire [4:0] pb, pbwa;
            dup_reg #(.W(19)) port_reg (.clk(clk), .d({w_wr, waddr_d, baddr_d, b_wr, b_waddr}),
                                        .q({pw, pa, pb, pbw, pbwa}));
            reg [127:0] wram [0:127];
            reg [31:0]  bram [0:31];
`ifdef EVALUNIT_INIT
            // The built-in pure chip net's weights and biases, one file a slice (estuary hw gen);
            // see acc_unit.
`ifndef EVALUNIT_GEN
`define EVALUNIT_GEN "evalunit/gen/"
`endif
            initial begin
                $readmemh({`EVALUNIT_GEN, "weights_", 8'd48 + g[7:0], ".hex"}, wram);
                $readmemh({`EVALUNIT_GEN, "biases_", 8'd48 + g[7:0], ".hex"}, bram);
            end
`endif
            reg [127:0] w1, w2;
            reg [31:0]  b1;
            always @(posedge clk) begin
                if (pw) wram[pa] <= w_wdata[128 * g +: 128];
                w1 <= wram[pa];
                w2 <= w1;
            end
            always @(posedge clk) begin
                if (pbw) bram[pbwa] <= b_wdata[32 * g +: 32];
                b1 <= bram[pb];
            end
            assign s2_w[128 * g +: 128] = w2;
            assign s1_b[32 * g +: 32] = b1;
        end
    endgenerate
`ifdef EVALUNIT_INIT
    initial $readmemh({`EVALUNIT_GEN, "config.hex"}, lcfg);
`endif

    // ---- pipeline control: valid, first chunk, last chunk, output layer, output buffer, pass
    // Stage 1: RAM read; 2: RAM output register; 3: products; 4: sums of 4; 5: row sums;
    // 6: accumulate; 7: requantise (or the output sum); 8: the buffer write.
    reg        s1_v, s2_v, s3_v, s4_v, s5_v, s6_v;
    reg        s1_first, s2_first, s3_first, s4_first;
    reg        s1_last, s2_last, s3_last, s4_last, s5_last, s6_last;
    reg        s1_out, s2_out, s3_out, s4_out, s5_out, s6_out;
    reg        s1_sel, s2_sel, s3_sel, s4_sel, s5_sel;   // 0: buffer a, 1: buffer b
    reg  [4:0] s1_p, s2_p, s3_p, s4_p, s5_p;
    reg         abort_q;
    reg  [255:0] s2_b, s3_b, s4_b, s5_b;

    // The RAM addresses of the next clock: the layer's first word when idle (and the write's
    // word when the host writes one), the next word each issue, the next layer's first
    // word a clock before it starts.
    always @(posedge clk) begin
        waddr <= waddr_d;
        baddr <= baddr_d;
    end
    always @* begin
        waddr_d = waddr;
        baddr_d = baddr;
        case (state)
        IDLE: begin
            waddr_d = lcfg[0][16:10];
            baddr_d = lcfg[0][21:17];
        end
        RUN: begin
            waddr_d = waddr + 7'd1;
            if (last_chunk) baddr_d = baddr + 5'd1;
        end
        DRAIN: if (drain == 3'd2) begin
            waddr_d = lcfg[l + 3'd1][16:10];
            baddr_d = lcfg[l + 3'd1][21:17];
        end
        default: ;
        endcase
        if (w_wr) waddr_d = w_waddr;
    end

    // The 16 inputs of the clock, one copy for each row of cells (beside its multipliers); a
    // forwarded layer's first issue takes them from fwd_x (in the clock `forward` is set in
    // the select: the same clock as stage 1 of its second issue).
    // The choice is made once and its 128 bytes copied (not chosen again beside each row:
    // 128 selects instead of 1,024, and half the wires to the rows).
    wire [127:0] s2_x [0:R - 1];
    wire         fwd_now;
    dup_reg #(.W(1)) f_reg (.clk(clk), .d(sel_d[6]), .q(fwd_now));
    wire [127:0] x_in = fwd_now ? fwd_x : s1_x;
    generate
        for (g = 0; g < R; g = g + 1) begin : xcopy
            dup_reg #(.W(128)) x_reg (.clk(clk), .d(x_in), .q(s2_x[g]));
        end
    endgenerate

    // Stage 5's valid and first-chunk flags, one copy for each row's accumulator.
    wire [1:0] s5_vf [0:R - 1];
    generate
        for (g = 0; g < R; g = g + 1) begin : vfcopy
            dup_reg #(.W(2)) vf_reg (.clk(clk), .d({s4_v, s4_first}), .q(s5_vf[g]));
        end
    endgenerate

    // ---- the cells ----
    reg  signed [15:0] s3_prod [0:R * C - 1];
    reg  signed [17:0] s4_part [0:R * 4 - 1];
    reg  signed [19:0] s5_row [0:R - 1];
    reg  signed [31:0] acc [0:R - 1];
    // The sums of a stage are written as a tree of two-input adders whose inner sums are
    // kept (`keep`): each adder maps to a carry chain. Left to itself yosys merges a stage's
    // three additions into one multi-operand sum and builds it of full adders in LUTs (about
    // twice the LUTs, and no carry chain to keep the bits together).
    (* keep *) wire signed [16:0] s3_pair [0:R * C / 2 - 1];
    (* keep *) wire signed [18:0] s4_pair [0:R * 2 - 1];
    genvar q;
    generate
        for (q = 0; q < R * C / 2; q = q + 1) begin : pairs3
            assign s3_pair[q] = s3_prod[2 * q] + s3_prod[2 * q + 1];
        end
        for (q = 0; q < R * 2; q = q + 1) begin : pairs4
            assign s4_pair[q] = s4_part[2 * q] + s4_part[2 * q + 1];
        end
    endgenerate
    integer r, k;
    always @(posedge clk) begin
        for (r = 0; r < R; r = r + 1)
            for (k = 0; k < C; k = k + 1)
                s3_prod[r * C + k] <= $signed(s2_w[8 * (r * C + k) +: 8]) * $signed({1'b0, s2_x[r][8 * k +: 8]});
        for (r = 0; r < R; r = r + 1)
            for (k = 0; k < 4; k = k + 1)
                s4_part[r * 4 + k] <= s3_pair[r * 8 + 2 * k] + s3_pair[r * 8 + 2 * k + 1];
        for (r = 0; r < R; r = r + 1)
            s5_row[r] <= s4_pair[r * 2] + s4_pair[r * 2 + 1];
        for (r = 0; r < R; r = r + 1)
            if (s5_vf[r][1])
                acc[r] <= (s5_vf[r][0] ? $signed(s5_b[32 * r +: 32]) : acc[r]) + s5_row[r];
    end

    function [7:0] clip(input signed [31:0] s);
        begin
            // clamp(s >> 6, 0, 127) written out: negative, or any bit from 2^13 up.
            clip = s[31] ? 8'd0 : (|s[30:13] ? 8'd127 : {1'b0, s[12:6]});
        end
    endfunction

    integer n;   // loop index of this block (r, k are the cells')
    always @(posedge clk) begin
        done <= 1'b0;
        if (in_we) flip0 <= in_flip;
        abort_q <= abort;
        s1_v <= issue && !rst && !abort_q;
        s1_first <= c == 4'd0;
        s1_last <= last_chunk;
        s1_out <= out_layer;
        s1_sel <= l[0];
        s1_p <= p;

        {s2_v, s2_first, s2_last, s2_out, s2_sel, s2_p, s2_b} <= {s1_v, s1_first, s1_last, s1_out, s1_sel, s1_p, s1_b};
        {s3_v, s3_first, s3_last, s3_out, s3_sel, s3_p, s3_b} <= {s2_v, s2_first, s2_last, s2_out, s2_sel, s2_p, s2_b};
        {s4_v, s4_first, s4_last, s4_out, s4_sel, s4_p, s4_b} <= {s3_v, s3_first, s3_last, s3_out, s3_sel, s3_p, s3_b};
        {s5_v, s5_last, s5_out, s5_sel, s5_p, s5_b} <= {s4_v, s4_last, s4_out, s4_sel, s4_p, s4_b};
        {s6_v, s6_last, s6_out} <= {s5_v, s5_last, s5_out};
        // Which buffer the requantised outputs go to, and their pass (0-15), a stage early.
        s6_wa <= s5_v && s5_last && !s5_out && !s5_sel && !s5_p[4];
        s6_wb <= s5_v && s5_last && !s5_out && s5_sel && !s5_p[4];
        s6_pass <= s5_p[3:0];
        // Requantised beside each row's accumulator (stage 7), then written into the buffer
        // the next layer reads (stage 8: routing only, however far the buffer is).
        for (n = 0; n < R; n = n + 1) s7_y[8 * n +: 8] <= clip(acc[n]);
        {s7_wa, s7_wb, s7_pass} <= {s6_wa, s6_wb, s6_pass};   // the writes: see xsel above
        if (s6_v && s6_last && s6_out && !abort_q) begin
            sum <= acc[0];
            done <= 1'b1;
        end
        // An abort (registered: it reaches the whole pipeline a clock later) empties the
        // pipeline: no result of the stopped evaluation comes after it. Its last buffer
        // writes may still land; the next evaluation writes the buffers before it reads them.
        if (abort_q) {s2_v, s3_v, s4_v, s5_v, s6_v} <= 5'd0;
        if (rst) begin
            state <= IDLE;
            flip0 <= 1'b0;
        end else if (abort_q) state <= IDLE;
        else case (state)
        IDLE: begin
            // The first layer's configuration waits in `cfg` (loaded after every commit).
            cfg <= lcfg[0];
            next_fwd <= lcfg[1][4:0] == 5'd1;
            fwd <= 1'b0;
            last_chunk <= lcfg[0][4:0] == 5'd1;
            from0 <= 1'b1;
            if (start) begin
                state <= RUN;
                l <= 3'd0;
                p <= 5'd0;
                c <= 4'd0;
            end
        end
        RUN: begin
            if (!last_chunk) begin
                c <= c + 4'd1;
                last_chunk <= {1'b0, c} + 5'd2 == chunks;
            end else begin
                c <= 4'd0;
                last_chunk <= chunks == 5'd1;
                if (!last_pass) p <= p + 5'd1;
                else begin
                    state <= DRAIN;
                    drain <= out_layer ? OUT_DRAIN_CLOCKS
                           : next_fwd ? DRAIN_CLOCKS - FORWARD_CLOCKS : DRAIN_CLOCKS;
                end
            end
        end
        DRAIN: begin
            drain <= drain - 3'd1;
            // The next layer's configuration, a clock before it starts.
            if (drain == 3'd2) begin
                cfg <= lcfg[l + 3'd1];
                fwd <= next_fwd;
                next_fwd <= lcfg[l + 3'd2][4:0] == 5'd1;
            end
            if (drain == 3'd1) begin
                p <= 5'd0;
                last_chunk <= cfg[4:0] == 5'd1;   // the next layer's (cfg holds it now)
                if (out_layer) state <= IDLE;
                else begin
                    state <= RUN;
                    l <= l + 3'd1;
                    from0 <= 1'b0;
                    from_a <= !l[0];
                end
            end
        end
        default: state <= IDLE;
        endcase
    end
endmodule

// The accumulator unit: the chip net's first layer, 768 features -> 64 lanes for each of the
// two perspectives, kept incrementally on a stack of accumulators.
//
//   feature RAM (769 x 64 lanes x i16; row 768: the biases), two read ports: one row seen from
//   White, one from Black, each clock
//        |
//   delta (2 x 64 lanes): the sum of the rows a move adds, less the rows it removes
//        |
//   stack RAM (256 plies x 4 words of 32 lanes): child = parent + delta, a word a clock; the
//   clipped lanes of each word also go to the matrix unit's input buffer
//
// Operations (start with `op_*` when !busy; busy until done):
//   make     the changes from piece_map (1 + n clocks of feature rows, 5 of words); top + 1
//   null     the parent copied (5 clocks); top + 1
//   refresh  the biases and every piece of the piece map (66 clocks of rows, 5 of words); top 0
//   reload   the input buffer from the stack's top (5 clocks), after an unmake
//   pop      top - 1 (an unmake: a pointer move, no clock of its own)
// Stack word q of a ply: lanes 0-31 (q 0) and 32-63 (q 1) of White's accumulator, then (q 2,
// 3) Black's. Input buffer group g (32 bytes at 32g): the side to move's lanes first (a
// one-perspective net: White's lanes at groups 0 and 1 whoever moves).
module acc_unit (
    input  wire          clk,
    input  wire          rst,
    input  wire          ft_we,          // weight load: row ft_waddr <= ft_wdata
    input  wire [9:0]    ft_waddr,
    input  wire [1023:0] ft_wdata,
    input  wire          op_make,
    input  wire          op_null,
    input  wire          op_refresh,
    input  wire          op_reload,
    input  wire          op_pop,
    input  wire [2:0]    n_changes,
    input  wire [3:0]    sub,
    input  wire [39:0]   feat_w,
    input  wire [39:0]   feat_b,
    input  wire          stm_black,      // side to move of the position written or reloaded
    input  wire          one_persp,
    output wire [5:0]    scan_sq,
    input  wire [3:0]    scan_piece,
    output reg           buf_we,
    output reg  [1:0]    buf_group,
    output reg  [255:0]  buf_data,
    output wire          busy
);
    localparam [1:0] IDLE = 2'd0, ROWS = 2'd1, WORDS = 2'd2;
    localparam [1:0] M_MAKE = 2'd0, M_NULL = 2'd1, M_REFRESH = 2'd2, M_RELOAD = 2'd3;

    reg [1:0] state, mode;
    reg [6:0] step;          // rows: change index or refresh step; words: 0-4
    reg [7:0] top /*verilator public_flat_rd*/;   // the current position's ply on the stack
    reg [2:0] n_rows;
    reg [3:0] r_sub;
    reg [39:0] r_fw, r_fb;
    assign busy = state != IDLE;

    // ---- feature RAM: port A reads White's row or takes a weight write, port B Black's ----
    // no_rw_check: a row read in the clock of a weight write to the same row may return
    // anything (the rows are used only in ROWS, never while weights are written). Without it
    // yosys emulates read-before-write across the two ports, cannot share port A between the
    // write and White's read, and builds the RAM twice (114 DP16KD instead of 57).
    (* no_rw_check *)
    reg [1023:0] ft [0:1023];
`ifdef EVALUNIT_INIT
    // A bitstream that evaluates without a host writing the net: the built-in chip net's
    // rows (estuary hw gen). `EVALUNIT_GEN` is the directory, relative to where the tool runs.
`ifndef EVALUNIT_GEN
`define EVALUNIT_GEN "evalunit/gen/"
`endif
    initial $readmemh({`EVALUNIT_GEN, "features.hex"}, ft);
`endif
    reg [9:0]    addr_a, addr_b;
    reg [1023:0] row_a, row_b;
    wire [9:0]   port_a = ft_we ? ft_waddr : addr_a;
    always @(posedge clk) begin
        if (ft_we) ft[port_a] <= ft_wdata;
        row_a <= ft[port_a];
    end
    always @(posedge clk) row_b <= ft[addr_b];

    // ---- the rows to read ----
    function [9:0] feature(input persp_black, input col, input [2:0] kind, input [5:0] sq);
        feature = (col != persp_black ? 10'd384 : 10'd0) + {1'b0, kind, 6'd0}
                  + {4'd0, persp_black ? sq ^ 6'd56 : sq};
    endfunction
    // Refresh: step 0 reads the biases, step 1 + s the piece on square s.
    assign scan_sq = step[5:0] - 6'd1;
    wire refresh_piece = step != 7'd0 && scan_piece[2:0] != 3'd7;
    reg  row_valid, row_sub;       // the rows arriving this clock are added (or subtracted)
    always @* begin
        addr_a = 10'd768;
        addr_b = 10'd768;
        if (mode == M_REFRESH) begin
            if (step != 7'd0) begin
                addr_a = feature(1'b0, scan_piece[3], scan_piece[2:0], scan_sq);
                addr_b = feature(1'b1, scan_piece[3], scan_piece[2:0], scan_sq);
            end
        end else begin
            addr_a = r_fw[10 * step[1:0] +: 10];
            addr_b = r_fb[10 * step[1:0] +: 10];
        end
    end

    // ---- delta: sum of the rows, per perspective ----
    reg [1023:0] d_w, d_b;
    integer j;
    always @(posedge clk) begin
        if (state == IDLE) begin
            d_w <= 1024'd0;
            d_b <= 1024'd0;
        end else if (row_valid) begin
            for (j = 0; j < 64; j = j + 1) begin
                d_w[16 * j +: 16] <= row_sub ? d_w[16 * j +: 16] - row_a[16 * j +: 16]
                                             : d_w[16 * j +: 16] + row_a[16 * j +: 16];
                d_b[16 * j +: 16] <= row_sub ? d_b[16 * j +: 16] - row_b[16 * j +: 16]
                                             : d_b[16 * j +: 16] + row_b[16 * j +: 16];
            end
        end
    end

    // ---- stack RAM: 4 words of 32 lanes a ply ----
    reg  [511:0] stack [0:1023] /*verilator public_flat_rd*/;
    wire [9:0]   st_raddr = {top, step[1:0]};   // words step s reads word s
    reg  [9:0]   st_waddr;
    reg  [511:0] st_rdata, st_wdata;
    reg          st_we;
    always @(posedge clk) begin
        if (st_we) stack[st_waddr] <= st_wdata;
        st_rdata <= stack[st_raddr];
    end

    // Word q of the delta.
    wire [1:0]   wq = step[1:0] - 2'd1;    // the word arriving in words step 1-4
    wire [2047:0] delta = {d_b, d_w};
    wire [511:0] dq = (mode == M_MAKE || mode == M_REFRESH) ? delta[512 * wq +: 512] : 512'd0;
    wire [511:0] parent = mode == M_REFRESH ? 512'd0 : st_rdata;
    reg  [511:0] child;
    always @* begin
        for (j = 0; j < 32; j = j + 1)
            child[16 * j +: 16] = parent[16 * j +: 16] + dq[16 * j +: 16];
    end
    function [7:0] clip(input [15:0] v);
        clip = v[15] ? 8'd0 : (v > 16'd127 ? 8'd127 : v[7:0]);
    endfunction

    always @(posedge clk) begin
        row_valid <= 1'b0;
        st_we <= 1'b0;
        buf_we <= 1'b0;
        if (rst) begin
            state <= IDLE;
            top <= 8'd0;
        end else case (state)
        IDLE: begin
            step <= 7'd0;
            r_sub <= sub;
            r_fw <= feat_w;
            r_fb <= feat_b;
            n_rows <= n_changes;
            if (op_make) begin
                mode <= M_MAKE;
                state <= n_changes == 3'd0 ? WORDS : ROWS;
            end else if (op_null) begin
                mode <= M_NULL;
                state <= WORDS;
            end else if (op_refresh) begin
                mode <= M_REFRESH;
                state <= ROWS;
            end else if (op_reload) begin
                mode <= M_RELOAD;
                state <= WORDS;
            end else if (op_pop) begin
                top <= top - 8'd1;
            end
        end
        ROWS: begin
            // The row read this clock arrives next clock, with its sign.
            row_valid <= mode == M_REFRESH ? (step == 7'd0 || refresh_piece) : 1'b1;
            row_sub <= mode == M_REFRESH ? 1'b0 : r_sub[step[1:0]];
            if (mode == M_REFRESH ? step == 7'd64 : step[2:0] == n_rows - 3'd1) begin
                state <= WORDS;
                step <= 7'd0;
            end else begin
                step <= step + 7'd1;
            end
        end
        WORDS: begin
            // Step s reads word s of the parent (steps 0-3) and writes word s - 1 (1-4).
            if (step != 7'd0) begin
                st_we <= mode != M_RELOAD;
                st_waddr <= {mode == M_REFRESH ? 8'd0 : top + 8'd1, wq};
                st_wdata <= child;
                buf_we <= 1'b1;
                // Word q holds perspective q[1] (1: Black): first in the buffer when it is to
                // move (two perspectives).
                buf_group <= {wq[1] ^ (stm_black && !one_persp), wq[0]};
                for (j = 0; j < 32; j = j + 1)
                    buf_data[8 * j +: 8] <= clip(child[16 * j +: 16]);
            end
            if (step == 7'd4) begin
                state <= IDLE;
                if (mode == M_MAKE || mode == M_NULL) top <= top + 8'd1;
                if (mode == M_REFRESH) top <= 8'd0;
            end
            step <= step + 7'd1;
        end
        default: state <= IDLE;
        endcase
    end
endmodule

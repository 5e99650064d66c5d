// The accumulator unit: the chip net's first layer, 768 features -> 128 lanes for each of the
// two perspectives, kept incrementally on a stack of accumulators.
//
//   feature RAM (769 x 128 lanes x i8; row 768: the biases), two read ports: one row seen from
//   White, one from Black, each clock; read register + output register
//        |                                      stack RAM (128 plies x 4 words: White's lanes
//   acc_w, acc_b (2 x 128 lanes of 14 bits, in    0-63, 64-127, then Black's; 64 lanes of i16
//   flip-flops): the position being built,        a word), read register + output register;
//   base + (+/- row), one row a clock             the parent comes from here, the child goes
//        |                                        back
//   lanes (acc_w, acc_b as they are) -> the matrix unit, which clips the 16 it takes a clock
//                     (buf_flip: the side to move's lanes are Black's)
//
// A lane needs 14 bits: the unit's nets have first-layer weights and biases within i8
// (hw::evalunit::Image::of refuses others), and a position's bias and 32 pieces, or a make's
// 35 terms on the way, stay within 35 x 128 < 2^13. The stack keeps the i16 values (sign
// extended), the reference's own.
//
// Every block RAM read has two registers (the RAM's own and an output register) and every
// RAM address comes from a register or a one-level select of registers: no path runs from a
// RAM's output through more than one adder.
//
// Operations (start with `op_*` when !busy; busy until done). Step k is the k-th clock after
// the start; a RAM read issued at step k is added (or loaded) at step k + 2.
//   make     parent words read at steps 0-3 (White's two, then Black's), loaded at 2-5; rows
//            at steps 3..n+2 (from piece_map's changes), added at 5..n+4; child written at
//            n+5..n+8; top + 1. A fast make (the accumulators still hold the top, `fresh`:
//            the last operation was a make, null move, refresh or reload, with no unmake
//            since) reads no parent: rows at steps 1..n, added at 3..n+2, the child written
//            at n+3..n+6.
//   null     the parent copied: read at 0-3, loaded at 2-5, written at 6-9; top + 1
//   refresh  bias row at step 1, square s's row at s + 2, added at 3..67; written at 68-71;
//            top 0
//   reload   the top's words into the accumulators, after an unmake (steps 0-6)
//   pop      top - 1 (an unmake: a pointer move, no clock of its own)
// The matrix unit's first layer reads the accumulators themselves (`lanes`: White's 128, then
// Black's), from the clock `buf_we` says they hold the position until the next operation
// starts: no copy of them is kept. That is safe because every operation that changes them
// (make, null, refresh, reload) comes from a command that stops the matrix unit first (see
// estuary_evalunit), and the first change lands at step 2, three clocks after that command.
// buf_flip says that Black is to move in a two-perspective net, so the matrix unit reads the
// halves the other way round (its first layer takes the side to move's lanes first).
//
// Lanes and slices: the feature RAM, the stack RAM and the accumulators' controls are built
// in eight slices; slice g holds lanes 8g..8g+7 and 64+8g..64+8g+7 (a feature row's 16
// bytes; a stack word's 8 lanes of its half), so each slice's data stays with its lanes.
module acc_unit (
    input  wire          clk,
    input  wire          rst,
    input  wire          ft_wr,          // weight load: row ft_waddr <= ft_wdata in the next
    input  wire [9:0]    ft_waddr,       // clock (ft_wdata held then)
    input  wire [1023:0] ft_wdata,
    input  wire          op_make,
    input  wire          op_null,
    input  wire          op_refresh,
    input  wire          op_reload,
    input  wire          op_pop,
    input  wire [2:0]    n_changes,      // piece_map's changes, registered by step 0 of a make
    input  wire [3:0]    sub,
    input  wire [39:0]   feat_w,
    input  wire [39:0]   feat_b,
    input  wire          stm_black,      // side to move of the position written or reloaded
    input  wire          one_persp,
    output wire [5:0]    scan_sq,        // refresh: the square whose piece comes next clock
    input  wire [3:0]    scan_piece,     // piece_map's registered answer for scan_sq
    output reg           buf_we,         // a clock: `lanes` hold the position from now on
    output wire [3583:0] lanes,          // the accumulators (14 bits a lane, unclipped)
    output reg           buf_flip,       // with buf_we: the side to move's lanes come second
    output wire          busy
);
    localparam [1:0] M_MAKE = 2'd0, M_NULL = 2'd1, M_REFRESH = 2'd2, M_RELOAD = 2'd3;

    reg       run;
    reg [1:0] mode;
    reg [6:0] step;
    reg [6:0] top /*verilator public_flat_rd*/;   // the current position's ply on the stack
    reg [6:0] fin;                                 // the step that writes the child's first word
    reg       fresh;   // acc_w / acc_b hold the top's accumulators (no unmake or weight write since)
    reg       fast;    // the make running is a fast one
    reg       st_we;
    assign busy = run || st_we;   // until the child's last word has landed

    // ---- feature RAM: eight slices of 16 lanes (128 bits, 8 DP16KD each); port A reads
    // White's row or takes a weight write, port B reads Black's ----
    // Each slice has its own copy of the port addresses (dup_reg), so that no register drives
    // the address pins of RAMs spread over the device, and its data stays with its lanes.
    // The addresses are computed a clock ahead (addr_a_d, addr_b_d below): a weight write
    // requested by ft_wr is addressed and written in the next clock.
    // no_rw_check: a row read in the clock of a weight write to the same row may return
    // anything (rows are read only while an operation runs, never while weights are written).
    // Without it yosys emulates read-before-write across the two ports, cannot share port A
    // between the write and White's read, and builds the RAM twice.
    reg  [9:0]    addr_a_d, addr_b_d;   // next clock's read (or write) addresses
    wire [1023:0] q_a, q_b;
    reg  [1023:0] row_a, row_b;
    genvar g;
    generate
        for (g = 0; g < 8; g = g + 1) begin : fslice
            wire       pw;
            wire [9:0] pa, pb;
            dup_reg #(.W(21)) port_reg (.clk(clk), .d({ft_wr, addr_a_d, addr_b_d}), .q({pw, pa, pb}));
            (* no_rw_check *)
            reg [127:0] ft [0:1023];
`ifdef EVALUNIT_INIT
            // A bitstream that evaluates without a host writing the net: the built-in pure chip
            // net's rows, one file a slice (estuary hw gen). `EVALUNIT_GEN` is the directory,
            // relative to where the tool runs.
`ifndef EVALUNIT_GEN
`define EVALUNIT_GEN "evalunit/gen/"
`endif
            initial $readmemh({`EVALUNIT_GEN, "features_", 8'd48 + g[7:0], ".hex"}, ft);
`endif
            reg [127:0] qa, qb;
            always @(posedge clk) begin
                if (pw) ft[pa] <= ft_wdata[128 * g +: 128];
                qa <= ft[pa];
            end
            always @(posedge clk) qb <= ft[pb];
            assign q_a[128 * g +: 128] = qa;
            assign q_b[128 * g +: 128] = qb;
        end
    endgenerate
    always @(posedge clk) begin
        row_a <= q_a;
        row_b <= q_b;
    end

    // ---- row addresses ----
    function [9:0] feature(input persp_black, input col, input [2:0] kind, input [5:0] sq);
        feature = (col != persp_black ? 10'd384 : 10'd0) + {1'b0, kind, 6'd0}
                  + {4'd0, persp_black ? sq ^ 6'd56 : sq};
    endfunction
    // The addresses are registered a clock before the read. Make: change i's rows at step
    // 3 + i, after the parent's four words (piece_map's registers hold the changes from
    // step 0). Refresh: square s is asked for at step s, its piece is in scan_piece at step
    // s + 1, its rows are read at s + 2.
    assign scan_sq = step[5:0];
    reg  [5:0] scan_prev;
    wire [1:0] change = step[1:0] - (fast ? 2'd0 : 2'd2);   // the change whose rows are read next clock
    // The row read this clock: valid and sign, two clocks on to the adders (via ctl).
    reg  rd_v, rd_sub, q_v, q_sub;

    // ---- stack RAM: 4 words a ply, in eight slices (4 DP16KD each) ----
    // Word k of a ply: {perspective (1 = Black), half}; half h holds lanes 64h..64h+63 (16
    // bits each); slice g the 8 lanes 8g..8g+7 of the half. Like the feature RAM, each slice
    // has its own copy of the port controls, computed a clock ahead: the next clock's write
    // (st_we_d, st_waddr_d) and read address (st_raddr_d: steps 0-3 read the top's words).
    // st_r: the parent's word, registered.
    reg           st_we_d;
    reg  [8:0]    st_waddr_d, st_raddr_d;
    reg  [1023:0] st_wdata;
    wire [1023:0] st_r;
    generate
        for (g = 0; g < 8; g = g + 1) begin : sslice
            wire       pw;
            wire [8:0] pwa, pra;
            dup_reg #(.W(19)) port_reg (.clk(clk), .d({st_we_d, st_waddr_d, st_raddr_d}), .q({pw, pwa, pra}));
            reg [127:0] stack [0:511] /*verilator public_flat_rd*/;
            reg [127:0] q, r;
            always @(posedge clk) begin
                if (pw) stack[pwa] <= st_wdata[128 * g +: 128];
                q <= stack[pra];
                r <= q;
            end
            assign st_r[128 * g +: 128] = r;
        end
    endgenerate

    // ---- the accumulators: base + (+/- row), 128 lanes of AW bits each ----
    localparam AW = 14;
    // Their controls are registers, set a clock ahead: load the parent's word k (step 2 + k),
    // clear (a refresh's step 1), the row's valid and sign; one copy of them for each slice
    // of lanes (dup_reg), and the four write clocks. Between operations they keep their
    // values: a fast make starts from them.
    reg [128 * AW - 1:0] acc_w, acc_b;
    reg wr0, wr1, wr2, wr3, swap;
    reg at1, at2, at3, at4;   // steps 1-4 of a make, null or reload (registered flags)
    wire       clear_d = run && mode == M_REFRESH && step == 7'd0;
    wire [6:0] ctl_d = {at1, at2, at3, at4, clear_d, q_v, q_sub};
    wire [6:0] ctl [0:7];   // {load W0, W1, B0, B1, clear, row_v, row_sub} per slice
    generate
        for (g = 0; g < 8; g = g + 1) begin : group
            dup_reg #(.W(7)) ctl_reg (.clk(clk), .d(ctl_d), .q(ctl[g]));
        end
    endgenerate
    // Lane add or subtract as one adder: {base, 1} + {row ^ m, m} keeps the carry-in; the
    // row's byte is sign-extended.
    function [AW - 1:0] addsub(input [AW - 1:0] base, input [7:0] row, input v, input s);
        reg [AW:0] t;
        begin
            t = {base, 1'b1} + ({v ? {{AW - 8{row[7]}}, row} ^ {AW{s}} : {AW{1'b0}}, v && s});
            addsub = t[AW:1];
        end
    endfunction
    // Lane L = 64h + 8g + i: stack word bits 16 (8g + i), row byte 128g + 8 (8h + i).
    integer h, j;   // loop indices: the accumulators' (half, lane of the half)
    always @(posedge clk) begin
        for (h = 0; h < 2; h = h + 1)
            for (j = 0; j < 64; j = j + 1) begin
                acc_w[AW * (64 * h + j) +: AW] <= addsub(
                    ctl[j / 8][6 - h] ? st_r[16 * j +: AW]
                        : ctl[j / 8][2] ? {AW{1'b0}} : acc_w[AW * (64 * h + j) +: AW],
                    row_a[128 * (j / 8) + 8 * (8 * h + j % 8) +: 8], ctl[j / 8][1], ctl[j / 8][0]);
                acc_b[AW * (64 * h + j) +: AW] <= addsub(
                    ctl[j / 8][4 - h] ? st_r[16 * j +: AW]
                        : ctl[j / 8][2] ? {AW{1'b0}} : acc_b[AW * (64 * h + j) +: AW],
                    row_b[128 * (j / 8) + 8 * (8 * h + j % 8) +: 8], ctl[j / 8][1], ctl[j / 8][0]);
            end
    end

    // The stack's words: 64 lanes, sign-extended to 16 bits.
    function [1023:0] widen(input [64 * AW - 1:0] v);
        integer k;
        for (k = 0; k < 64; k = k + 1)
            widen[16 * k +: 16] = {{16 - AW{v[AW * k + AW - 1]}}, v[AW * k +: AW]};
    endfunction
    assign lanes = {acc_b, acc_w};

    always @(posedge clk) begin
        at1 <= !rst && run && step == 7'd0 && mode != M_REFRESH && !fast;
        at2 <= !rst && at1;
        at3 <= !rst && at2;
        at4 <= !rst && at3;
        wr0 <= run && step + 7'd1 == fin;
        wr1 <= wr0 && mode != M_RELOAD;   // a reload writes nothing
        wr2 <= wr1;
        wr3 <= wr2;
        swap <= stm_black && !one_persp;
        // Written every clock, used in the four write clocks: in wr_k's clock, word k (White's
        // halves, then Black's), which the slices store in the next.
        st_wdata <= widen(wr1 ? acc_w[128 * AW - 1:64 * AW] : wr2 ? acc_b[64 * AW - 1:0]
                              : wr3 ? acc_b[128 * AW - 1:64 * AW] : acc_w[64 * AW - 1:0]);
        buf_flip <= swap;
    end

    // The stack's next clock: the child's words written at wr0-wr3 (a reload writes none),
    // then it is the top (a refresh's is ply 0); an unmake pops it. Read: the top's words at
    // steps 0-3.
    reg  [6:0] top_d;
    reg  [1:0] step_d;   // the next clock's step, low bits
    wire [6:0] child = mode == M_REFRESH ? 7'd0 : top + 7'd1;
    always @* begin
        st_we_d = !rst && run && mode != M_RELOAD && (wr0 || wr1 || wr2 || wr3);
        st_waddr_d = {child, wr2 || wr3, wr1 || wr3};
        step_d = rst || !run ? 2'd0 : step[1:0] + 2'd1;
        top_d = rst ? 7'd0 : (!run ? (op_pop ? top - 7'd1 : top) : (wr3 ? child : top));
        st_raddr_d = {top_d, step_d};
    end

    // The rows the slices read next clock: a weight write's row, the refresh's bias row and
    // pieces, or a make's changes.
    always @* begin
        if (ft_wr) begin
            addr_a_d = ft_waddr;
            addr_b_d = ft_waddr;
        end else if (mode == M_REFRESH && run && step == 7'd0) begin
            addr_a_d = 10'd768;
            addr_b_d = 10'd768;
        end else if (mode == M_REFRESH && run) begin
            addr_a_d = feature(1'b0, scan_piece[3], scan_piece[2:0], scan_prev);
            addr_b_d = feature(1'b1, scan_piece[3], scan_piece[2:0], scan_prev);
        end else begin
            addr_a_d = feat_w[10 * change +: 10];
            addr_b_d = feat_b[10 * change +: 10];
        end
    end

    always @(posedge clk) begin
        {q_v, q_sub} <= {rd_v, rd_sub};
        st_we <= st_we_d;
        top <= top_d;
        buf_we <= 1'b0;
        scan_prev <= scan_sq;
        rd_v <= 1'b0;
        rd_sub <= 1'b0;
        if (mode == M_REFRESH && run) begin
            rd_v <= step == 7'd0 || (step <= 7'd64 && scan_piece[2:0] != 3'd7);
        end else begin
            rd_v <= run && mode == M_MAKE && (fast ? step < {4'd0, n_changes}
                                                   : step >= 7'd2 && step < {4'd0, n_changes} + 7'd2);
            rd_sub <= sub[change];
        end
        if (rst) begin
            run <= 1'b0;
            q_v <= 1'b0;
            fresh <= 1'b0;
            fast <= 1'b0;
        end else if (!run) begin
            step <= 7'd0;
            if (op_make || op_null || op_refresh || op_reload) run <= 1'b1;
            fast <= op_make && fresh;
            if (op_pop || ft_wr) fresh <= 1'b0;
            if (op_make) mode <= M_MAKE;
            if (op_null) mode <= M_NULL;
            if (op_refresh) mode <= M_REFRESH;
            if (op_reload) mode <= M_RELOAD;
            fin <= op_refresh ? 7'd68 : 7'd6;
        end else begin
            step <= step + 7'd1;
            // A make's changes are known from step 1: its child is written after its rows.
            if (mode == M_MAKE && step == 7'd1) fin <= {4'd0, n_changes} + (fast ? 7'd3 : 7'd5);
            if (wr0) begin
                // The child's first word is written (st_we_d), and the lanes are complete:
                // buf_we tells the matrix unit (a reload stops here).
                buf_we <= 1'b1;
                if (mode == M_RELOAD) begin
                    run <= 1'b0;
                    fresh <= 1'b1;
                end
            end
            if (wr3) begin   // the last word is written, the child is the top
                run <= 1'b0;
                fresh <= 1'b1;
            end
        end
    end
endmodule

// Top level of the Estuary evaluation unit: the chip net (docs/evalunit.md) in hardware. It
// follows the move generator's command stream (the same load, make, unmake and null words),
// keeps its accumulators on a stack, and answers EVAL with the net's output in centipawns for
// the side to move.
//
//   commands -> piece_map (a move's feature changes, from its make word; the refresh scan
//                  |        of the loaded bitboards)
//               acc_unit (feature RAM, delta, accumulator stack) -> lanes
//                  |
//               matrix_unit (8 x 16 int8 MAC array, weight and bias RAM) -> output sum
//                  |
//               centipawns: (sum x 25) >> 9, negated for Black by a one-perspective net
//
// Commands (cmd, with cmd_addr / cmd_data), taken when `ready` (into a command register; the
// unit decodes them in the next clock):
//   1 LOAD    load word cmd_addr (0-17, the generator's layout; word 17 starts the refresh)
//   2 MAKE    cmd_data = make word        3 UNMAKE  cmd_data = unmake word (a pointer move)
//   4 NULL    pass the turn                5 EVAL    result_valid / score when done
//   6 WRITE   weights and configuration: cmd_addr[4] = 0 pushes cmd_data into a 1024-bit
//             staging register (from the top: word 0 of a row is pushed first); cmd_addr[4] = 1
//             commits it to region cmd_addr[1:0] at index cmd_data: 0 feature row (0-767,
//             768 the biases; 32 words), 1 weight word (32 words), 2 bias word (8 words),
//             3 configuration word (1 word; see matrix_unit)
// The evaluation of a position starts by itself once its accumulators are written (after a
// make, null move or load), ahead of its EVAL; any other command stops it.
//
// WRITABLE = 0 builds the unit without WRITE (taken and ignored): its RAMs keep the net they
// start with (EVALUNIT_INIT), and the staging register and the RAMs' write ports, a
// 1,024-bit bus to every feature and weight RAM, are not built. The search machine on a
// board (estuary_chip) never writes its net.
module estuary_evalunit #(
    parameter WRITABLE = 1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        cmd_valid,
    input  wire [2:0]  cmd,
    input  wire [4:0]  cmd_addr,
    input  wire [31:0] cmd_data,
    output wire        ready,
    output reg         result_valid,
    output reg  [31:0] score
);
    localparam [2:0] CMD_LOAD = 3'd1, CMD_MAKE = 3'd2, CMD_UNMAKE = 3'd3, CMD_NULL = 3'd4,
                     CMD_EVAL = 3'd5, CMD_WRITE = 3'd6;
    localparam [2:0] S_IDLE = 3'd0, S_LOAD1 = 3'd1, S_LOAD2 = 3'd2, S_WAIT_ACC = 3'd3,
                     S_RELOAD = 3'd4, S_WAIT_MAT = 3'd5;

    // ---- the command register: a command is taken in the clock `ready` is seen and decoded
    // (dispatched) in the next, from these registers only ----
    reg        c_valid;
    reg [4:0]  c_addr;
    reg [31:0] c_data;
    reg        do_load, do_make, do_unmake, do_null, do_eval, do_write;
    reg  [2:0] state;
    wire       acc_busy, mat_busy, mat_done, one_persp;
    wire [31:0] mat_sum;
    // Not held by the matrix unit: an evaluation runs ahead of its EVAL (below), and any other
    // command stops it.
    assign ready = state == S_IDLE && !c_valid && !acc_busy;
    wire take = !rst && cmd_valid && ready;
    always @(posedge clk) begin
        // The command's kind is decoded as it is taken: the do_* flags are registers.
        c_valid <= take;
        do_load <= take && cmd == CMD_LOAD;
        do_make <= take && cmd == CMD_MAKE;
        do_unmake <= take && cmd == CMD_UNMAKE;
        do_null <= take && cmd == CMD_NULL;
        do_eval <= take && cmd == CMD_EVAL;
        do_write <= WRITABLE && take && cmd == CMD_WRITE;
        if (take) begin
            c_addr <= cmd_addr;
            c_data <= cmd_data;
        end
    end

    reg        stm_black;
    reg        res_ready;          // `score` holds the current position's evaluation
    reg        buf_valid;          // the accumulators' lanes hold the current position
    reg [511:0] boards;            // load words 0-15: kind bitboards, then White's and Black's

    // ---- weights: staging register and commits, a clock after the WRITE is decoded (c_data
    // still holds its word then: the next command is taken at that clock's end at the
    // earliest) ----
    reg [1023:0] staging;
    reg        shift, wr_cfg;
    wire       commit = do_write && c_addr[4];
    // The feature, weight and bias RAMs take the request with its address (their slices
    // register both beside the RAM) and write in the next clock.
    wire       wr_ft = commit && c_addr[1:0] == 2'd0;
    wire       wr_w = commit && c_addr[1:0] == 2'd1;
    wire       wr_b = commit && c_addr[1:0] == 2'd2;
    always @(posedge clk) begin
        shift <= do_write && !c_addr[4];
        wr_cfg <= commit && c_addr[1:0] == 2'd3;
        if (shift) staging <= {c_data, staging[1023:32]};
    end

    // ---- units ----
    wire [2:0]  n_changes;
    wire [3:0]  sub;
    wire [39:0] feat_w, feat_b;
    wire [5:0]  scan_sq;
    wire [3:0]  scan_piece;
    wire        buf_we;
    wire [3583:0] lanes;
    wire        buf_flip;
    // A make is decoded by the piece map and started in the accumulator unit in the clock it
    // is dispatched (the unit's step 0 reads the parent, the changes are registered by then);
    // a load's refresh starts two clocks after word 17 (it scans the loaded bitboards, `boards`).
    wire        acc_refresh = state == S_LOAD2;
    // The evaluation starts by itself in the clock the accumulator unit's lanes are complete
    // (buf_we: after a make, null move, load or an EVAL's reload), so it runs beside the end
    // of the make and the EVAL command's own clocks; an EVAL takes its result (at once if it
    // is there). Any command but EVAL stops it (the lanes it reads change only after the
    // stop: see acc_unit). An EVAL whose evaluation was stopped by a WRITE starts it.
    wire        acc_reload = do_eval && !buf_valid;
    wire        mat_start = buf_we || (do_eval && buf_valid && !res_ready && !mat_busy);
    wire        mat_abort = do_load || do_make || do_unmake || do_null || do_write;

    piece_map map (
        .clk(clk), .kinds(boards[383:0]), .black(boards[511:448]),
        .make(do_make), .word(c_data), .mover(stm_black),
        .scan_sq(scan_sq), .scan_piece(scan_piece),
        .n_changes(n_changes), .sub(sub), .feat_w(feat_w), .feat_b(feat_b));

    acc_unit acc (
        .clk(clk), .rst(rst),
        .ft_wr(wr_ft), .ft_waddr(c_data[9:0]), .ft_wdata(staging),
        .op_make(do_make), .op_null(do_null), .op_refresh(acc_refresh),
        .op_reload(acc_reload), .op_pop(do_unmake),
        .n_changes(n_changes), .sub(sub), .feat_w(feat_w), .feat_b(feat_b),
        .stm_black(stm_black), .one_persp(one_persp),
        .scan_sq(scan_sq), .scan_piece(scan_piece),
        .buf_we(buf_we), .lanes(lanes), .buf_flip(buf_flip), .busy(acc_busy));

    matrix_unit mat (
        .clk(clk), .rst(rst),
        .w_wr(wr_w), .w_waddr(c_data[6:0]), .w_wdata(staging),
        .b_wr(wr_b), .b_waddr(c_data[4:0]), .b_wdata(staging[1023:768]),
        .cfg_we(wr_cfg), .cfg_waddr(c_data[3:0]), .cfg_wdata(staging[1023:992]),
        .in_we(buf_we), .lanes(lanes), .in_flip(buf_flip),
        .start(mat_start), .abort(mat_abort), .busy(mat_busy), .done(mat_done), .sum(mat_sum),
        .one_persp(one_persp));

    // Centipawns of the output sum: (s x 25) >> 9, then negated for Black by a one-perspective
    // net, a clock each.
    reg  signed [39:0] scaled;
    wire signed [31:0] cp = {scaled[39], scaled[39:9]};
    reg        negate;
    reg        sc_v;          // `scaled` holds the current position's output
    reg        abort_d;       // the matrix unit's (registered) abort: a result may still come
    always @(posedge clk) begin
        abort_d <= mat_abort;
        sc_v <= mat_done && !mat_abort && !abort_d;
        if (mat_done) begin
            scaled <= $signed(mat_sum) * 40'sd25;
            negate <= one_persp && stm_black;
        end
        if (sc_v) score <= negate ? -cp : cp;
        res_ready <= !rst && !mat_abort && (res_ready || sc_v);
    end

    always @(posedge clk) begin
        result_valid <= 1'b0;
        if (rst) begin
            state <= S_IDLE;
            stm_black <= 1'b0;
            buf_valid <= 1'b0;
        end else begin
            if (do_load && c_addr < 5'd16)
                boards[32 * c_addr[3:0] +: 32] <= c_data;
            if (do_load && c_addr == 5'd16)
                stm_black <= c_data[0];
            if (do_make || do_unmake || do_null)
                stm_black <= !stm_black;
            if (do_make || do_null) buf_valid <= 1'b1;
            if (do_unmake) buf_valid <= 1'b0;
            case (state)
            S_IDLE: begin
                if (do_load && c_addr == 5'd17) state <= S_LOAD1;
                if (do_make || do_null) state <= S_WAIT_ACC;
                if (acc_reload) state <= S_RELOAD;
                if (do_eval && buf_valid) state <= S_WAIT_MAT;
            end
            S_LOAD1: state <= S_LOAD2;
            S_LOAD2: begin
                buf_valid <= 1'b1;
                state <= S_WAIT_ACC;
            end
            S_WAIT_ACC: if (!acc_busy) state <= S_IDLE;
            S_RELOAD: if (!acc_busy) begin
                buf_valid <= 1'b1;
                state <= S_WAIT_MAT;
            end
            S_WAIT_MAT: if (res_ready) begin
                result_valid <= 1'b1;
                state <= S_IDLE;
            end
            default: state <= S_IDLE;
            endcase
        end
    end
endmodule

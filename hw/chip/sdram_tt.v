// The transposition table in an SDR SDRAM (the ULX3S's 32 MB, 16 bits wide): one 64-bit
// entry a burst of four words, closed rows (every READ and WRITE auto-precharges), one
// operation at a time, so that each takes a fixed number of clocks and the Rust model
// (crates/hw/src/chip/sdram.rs) predicts every one of them to the clock.
//
//   sequencer --rd_req/rd_addr/rd_tag--> [read slot]  --+
//             --wr_req/wr_addr/wr_data-> [write slot] --+--> FSM --> pins (cmd, ba, a, dq)
//             <--rd_valid/rd_data/rd_tag_out-- entry assembled from the four words <-- dq_in
//   refresh timer (every REFI clocks; `restart`, the GO, makes one due and restarts it) --> [refresh due]
//
// The slots: a read request takes the read slot (a newer one replaces a read not yet
// started: the sequencer only waits for its latest, told apart by its tag); a write takes
// the write slot when `wr_ready` (no write waiting). When idle, the FSM starts the refresh
// if one is due, else the waiting write, else the waiting read. In clocks after the one in
// which the FSM, idle, takes an operation (cycle c):
//
//   operation  pins                                             idle again   result
//   READ       ACT c+1, READ+AP c+1+T_RCD                       c+RD_CYC     rd_valid in c+T_RCD+CL+5
//   WRITE      ACT c+1, WRITE+AP c+1+T_RCD, data 4 clocks       c+WR_CYC
//   REFRESH    REF c+1                                          c+T_RFC
//
// RD_CYC = T_RCD + CL + 4 + T_RP and WR_CYC = T_RCD + 4 + T_WR + T_RP leave the bank
// precharged before the next ACT (tRC, tRP, tWR met whatever bank comes next). After reset
// the FSM waits INIT_WAIT clocks (200 us at the design clock), precharges all banks, gives
// two refreshes and sets the mode register (burst of 4, sequential, CAS latency CL); then
// `ready` rises. The defaults are the timings of a -6/-7 part at up to 100 MHz.
//
// Address: entry index {row[12:0], bank[1:0], entry-in-row[6:0]}; the entry's words are
// columns {entry-in-row, 2'b00}..+3 (512 columns a row: the 32 MB part's, also right on
// the 64 MB one, which then uses half of each row).
module sdram_tt #(
    parameter ENTRY_BITS = 22,
    parameter T_RCD = 2,
    parameter CL    = 3,
    parameter T_RP  = 2,
    parameter T_WR  = 2,
    parameter T_RFC = 7,
    parameter REFI  = 780,          // 7.8 us at 100 MHz
    parameter INIT_WAIT = 20000     // 200 us at 100 MHz
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         restart,
    output reg          ready,
    // ---- the sequencer's side ----
    input  wire         rd_req,
    input  wire [ENTRY_BITS-1:0] rd_addr,
    input  wire [1:0]   rd_tag,
    output reg          rd_valid,
    output reg  [63:0]  rd_data,
    output reg  [1:0]   rd_tag_out,
    input  wire         wr_req,
    input  wire [ENTRY_BITS-1:0] wr_addr,
    input  wire [63:0]  wr_data,
    output wire         wr_ready,
    // ---- the SDRAM's pins (the board puts dq on a tristate buffer) ----
    output reg          sd_cke,
    output reg          sd_cs_n,
    output reg          sd_ras_n,
    output reg          sd_cas_n,
    output reg          sd_we_n,
    output reg  [1:0]   sd_ba,
    output reg  [12:0]  sd_a,
    output reg  [1:0]   sd_dqm,
    output reg  [15:0]  sd_dq_out,
    output reg          sd_dq_oe,
    input  wire [15:0]  sd_dq_in
);
    localparam RD_CYC = T_RCD + CL + 4 + T_RP;
    localparam WR_CYC = T_RCD + 4 + T_WR + T_RP;
    // Commands as {cs_n, ras_n, cas_n, we_n}.
    localparam [3:0] NOP = 4'b0111, ACT = 4'b0011, READ = 4'b0101, WRITE = 4'b0100,
                     PRE = 4'b0010, REF = 4'b0001, MRS = 4'b0000;
    localparam [1:0] OP_READ = 2'd0, OP_WRITE = 2'd1, OP_REF = 2'd2, OP_INIT = 2'd3;

    // ---- the slots and the refresh timer ----
    reg                  rd_pend, wr_pend, ref_pend;
    reg [ENTRY_BITS-1:0] rd_a, wr_a;
    reg [1:0]            rd_t;
    reg [63:0]           wr_d;
    reg [15:0]           ref_cnt;
    assign wr_ready = !wr_pend;

    // ---- the operation in progress ----
    reg        busy;
    reg [1:0]  op;
    reg [15:0] k;                   // clocks since the operation was taken
    reg [15:0] last;                // the FSM is idle again at k == last
    reg [ENTRY_BITS-1:0] op_a;
    reg [63:0] op_d;
    reg [1:0]  op_t;
    reg [47:0] got;                 // the read's first three words
    reg [2:0]  init_step;

    wire [12:0] row  = op_a[ENTRY_BITS-1:9];
    wire [1:0]  bank = op_a[8:7];
    wire [8:0]  col  = {op_a[6:0], 2'b00};

    wire idle = ready && !busy;
    wire take_ref = idle && ref_pend;
    wire take_wr  = idle && !ref_pend && wr_pend;
    wire take_rd  = idle && !ref_pend && !wr_pend && rd_pend;

    task pins(input [3:0] c);
        {sd_cs_n, sd_ras_n, sd_cas_n, sd_we_n} <= c;
    endtask

    always @(posedge clk) begin
        pins(NOP);
        sd_dq_oe <= 1'b0;
        rd_valid <= 1'b0;

        // Refresh: due every REFI clocks, and at each GO, which restarts the count: a search's
        // refreshes fall at clocks the model knows, and however often GOs come, no two
        // refreshes are more than REFI clocks and an operation apart.
        if (restart) begin
            ref_cnt <= REFI - 1;
            ref_pend <= 1'b1;
        end else if (ref_cnt == 16'd0) begin
            ref_cnt <= REFI - 1;
            ref_pend <= 1'b1;
        end else ref_cnt <= ref_cnt - 16'd1;

        // Taking an operation: its first command now, on the pins the next clock.
        if (take_ref) begin
            ref_pend <= 1'b0;
            op <= OP_REF; busy <= 1'b1; k <= 16'd1; last <= T_RFC;
            pins(REF);
        end else if (take_wr || take_rd) begin
            op <= take_wr ? OP_WRITE : OP_READ;
            op_a <= take_wr ? wr_a : rd_a;
            op_d <= wr_d;
            op_t <= rd_t;
            busy <= 1'b1; k <= 16'd1;
            last <= take_wr ? WR_CYC : RD_CYC;
            if (take_wr) wr_pend <= 1'b0; else rd_pend <= 1'b0;
            pins(ACT);
            sd_ba <= take_wr ? wr_a[8:7] : rd_a[8:7];
            sd_a <= take_wr ? wr_a[ENTRY_BITS-1:9] : rd_a[ENTRY_BITS-1:9];
        end else if (busy) begin
            k <= k + 16'd1;
            if (k + 16'd1 == last) busy <= 1'b0;
            case (op)
            OP_READ: begin
                if (k == T_RCD) begin
                    pins(READ);
                    sd_ba <= bank;
                    sd_a <= {2'b00, 1'b1, 1'b0, col};       // A10: auto-precharge
                end
                if (k >= 1 + T_RCD + CL && k < 1 + T_RCD + CL + 3)
                    got <= {sd_dq_in, got[47:16]};
                if (k == 1 + T_RCD + CL + 3) begin
                    rd_data <= {sd_dq_in, got};
                    rd_tag_out <= op_t;
                    rd_valid <= 1'b1;
                end
            end
            OP_WRITE: begin
                if (k == T_RCD) begin
                    pins(WRITE);
                    sd_ba <= bank;
                    sd_a <= {2'b00, 1'b1, 1'b0, col};
                end
                if (k >= T_RCD && k < T_RCD + 4) begin
                    sd_dq_oe <= 1'b1;
                    sd_dq_out <= op_d[15:0];
                    op_d <= {16'd0, op_d[63:16]};
                end
            end
            default: ;
            endcase
        end else if (!ready) begin
            // Power-up: wait, precharge all, two refreshes, the mode register.
            k <= k + 16'd1;
            case (init_step)
            3'd0: if (k == INIT_WAIT) begin
                pins(PRE); sd_a <= 13'h0400; k <= 16'd0; init_step <= 3'd1;
            end
            3'd1, 3'd2: if (k == (init_step == 3'd1 ? T_RP : T_RFC)) begin
                pins(REF); k <= 16'd0; init_step <= init_step + 3'd1;
            end
            3'd3: if (k == T_RFC) begin
                pins(MRS); sd_ba <= 2'b00;
                // Burst length 4, sequential, CAS latency CL, programmed write bursts.
                sd_a <= {3'b000, 1'b0, 2'b00, CL[2:0], 1'b0, 3'b010};
                k <= 16'd0; init_step <= 3'd4;
            end
            3'd4: if (k == 16'd2) begin
                ready <= 1'b1;
                k <= 16'd0;
            end
            default: ;
            endcase
        end

        // The sequencer's requests (after the takes: a request in the clock its slot is
        // emptied fills it again).
        if (rd_req) begin
            rd_pend <= 1'b1;
            rd_a <= rd_addr;
            rd_t <= rd_tag;
        end
        if (wr_req) begin
            wr_pend <= 1'b1;
            wr_a <= wr_addr;
            wr_d <= wr_data;
        end

        if (rst) begin
            ready <= 1'b0;
            busy <= 1'b0;
            rd_pend <= 1'b0;
            wr_pend <= 1'b0;
            ref_pend <= 1'b0;
            ref_cnt <= REFI - 1;
            init_step <= 3'd0;
            k <= 16'd0;
            sd_cke <= 1'b1;
            sd_dqm <= 2'b00;
            pins(NOP);
            sd_dq_oe <= 1'b0;
        end
    end
endmodule

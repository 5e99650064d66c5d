// The search machine on a ULX3S board (LFE5U-85F): one search core behind the UART of the
// board's FT231X USB-serial bridge (hw/chip/estuary_chip.v), clocked from the 25 MHz
// oscillator through the ECP5's PLL.
//
//   clk_25mhz -> board_pll (EHXPLLL, MHZ) -> estuary_chip <-> ftdi_txd / ftdi_rxd (BAUD, 8N1)
//   btn[1] FIRE1: decide now (the stop pin)        btn[2] FIRE2: reset
//   led[0] searching   led[1] a position loaded   led[7] alive (a blink a second)
//
// `board_pll` is written by yowasp-ecppll for MHZ (hw/synth.sh ulx3s does it; 30 by default:
// the placement estimate is 35.76 MHz, docs/results/hw-synthesis.md). The transposition
// table is in the board's 32 MB SDRAM (hw/chip/sdram_tt.v: 4M entries of 8 bytes), which
// also leaves the block RAMs to the units, the mirror and the sequencer.
//
//   SDRAM: the controller's commands and data change on the rising edge of `clk`; the chip
//   is clocked by `clk` inverted (an ODDR), so it samples them mid-clock, and its read data
//   (valid tAC <= 6 ns after its edge) is sampled on our next rising edge: right at the
//   board's 30 MHz, where the controller counts the CAS latency of the co-simulation's
//   SDRAM (crates/cosim/csrc/sdram.h). Its timings (tRCD, tRP, tWR, tRFC in clocks, the
//   refresh every 7.8 us) are those of a -7 part at 100 MHz, so they hold at any slower
//   clock; REFI and the power-up wait are scaled to MHZ below.
module ulx3s_top #(
    parameter MHZ  = 30,
    parameter BAUD = 115200
) (
    input  wire       clk_25mhz,
    input  wire       ftdi_txd,     // the bridge transmits: our receive line
    output wire       ftdi_rxd,     // we transmit
    input  wire [6:0] btn,
    output wire [7:0] led,
    output wire        sdram_clk,
    output wire        sdram_cke,
    output wire        sdram_csn,
    output wire        sdram_rasn,
    output wire        sdram_casn,
    output wire        sdram_wen,
    output wire [1:0]  sdram_ba,
    output wire [12:0] sdram_a,
    output wire [1:0]  sdram_dqm,
    inout  wire [15:0] sdram_d
);
    localparam [15:0] BAUD_DIV = (MHZ * 1000000 + BAUD / 2) / BAUD;
    localparam [23:0] TIMEOUT = MHZ * 10000;        // 10 ms without a byte ends a frame

    wire clk, locked;
    board_pll pll (.clkin(clk_25mhz), .clkout0(clk), .locked(locked));

    // Reset: until the PLL locks, then 2^16 clocks more, and while FIRE2 is held.
    reg [16:0] por = 17'd0;
    reg [2:0]  fire2;
    always @(posedge clk) begin
        fire2 <= {fire2[1:0], btn[2]};
        if (!locked || fire2[2]) por <= 17'd0;
        else if (!por[16]) por <= por + 17'd1;
    end
    // Registered: the chip makes a copy of it for each unit (dup_reg), so no LUT at one corner
    // of the device drives every unit's reset.
    reg rst = 1'b1;
    always @(posedge clk) rst <= !por[16];

    // The receive line through two flip-flops into this clock.
    reg [1:0] rx_sync = 2'b11;
    always @(posedge clk) rx_sync <= {rx_sync[0], ftdi_txd};

    wire searching, loaded_any;
    wire [15:0] sd_dq_out;
    wire        sd_dq_oe;
    // The SDRAM's clock: `clk` inverted, through the I/O cell's DDR register.
    ODDRX1F sdram_clk_ddr (.D0(1'b0), .D1(1'b1), .SCLK(clk), .RST(1'b0), .Q(sdram_clk));
    // The data pins through the ECP5's bidirectional I/O buffers (BB: T high lets the pin
    // float, O is the pin as read), instantiated rather than inferred from a tri-state assign.
    wire [15:0] sd_dq_in;
    genvar i;
    generate
        for (i = 0; i < 16; i = i + 1) begin : dq
            BB pin (.I(sd_dq_out[i]), .T(!sd_dq_oe), .O(sd_dq_in[i]), .B(sdram_d[i]));
        end
    endgenerate
    estuary_chip #(.TT_BITS(7), .TT_EXT(1), .EXT_BITS(22),
                   .SD_REFI(MHZ * 78 / 10), .SD_INIT(MHZ * 200)) chip (
        .clk(clk), .rst(rst), .baud_div(BAUD_DIV), .timeout(TIMEOUT),
        .uart_rx(rx_sync[1]), .uart_tx(ftdi_rxd), .stop_pin(btn[1]),
        .cfg_null(1'b1), .cfg_lmr(1'b1), .cfg_lmp(1'b1), .cfg_tt_clocks(10'd3),
        .searching(searching), .loaded_any(loaded_any),
        .sd_cke(sdram_cke), .sd_cs_n(sdram_csn), .sd_ras_n(sdram_rasn),
        .sd_cas_n(sdram_casn), .sd_we_n(sdram_wen), .sd_ba(sdram_ba), .sd_a(sdram_a),
        .sd_dqm(sdram_dqm), .sd_dq_out(sd_dq_out), .sd_dq_oe(sd_dq_oe), .sd_dq_in(sd_dq_in));

    reg [26:0] beat = 27'd0;
    reg        blink = 1'b0;
    always @(posedge clk) begin
        if (beat == MHZ * 500000 - 1) begin
            beat  <= 27'd0;
            blink <= !blink;
        end else beat <= beat + 27'd1;
    end
    assign led = {blink, 5'd0, loaded_any, searching};
endmodule

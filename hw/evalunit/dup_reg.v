// A register kept as its own instance: synthesis keeps the module boundary (keep_hierarchy),
// so several copies of one control register are not merged into one. Each copy drives a
// part of a wide datapath (here: 8 accumulator lanes), and the placer puts it near them
// instead of routing one flip-flop across the device to 1,024 loads.
(* keep_hierarchy *)
module dup_reg #(parameter W = 1) (
    input  wire         clk,
    input  wire [W-1:0] d,
    output reg  [W-1:0] q
);
    always @(posedge clk) q <= d;
endmodule

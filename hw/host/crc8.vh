// CRC-8 of the host protocol (polynomial 0x07, initial 0, no reflection), one byte a step:
// the Rust model is hw::chip::protocol::crc8.
function [7:0] crc8_next;
    input [7:0] crc;
    input [7:0] data;
    integer i;
    reg [7:0] c;
    begin
        c = crc ^ data;
        for (i = 0; i < 8; i = i + 1)
            c = c[7] ? {c[6:0], 1'b0} ^ 8'h07 : {c[6:0], 1'b0};
        crc8_next = c;
    end
endfunction

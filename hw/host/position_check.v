// The check of a LOADed position (42 bytes: squares a1..h8 two a byte, low nibble first, codes
// 1-6 a white pawn..king, 9-14 black; flags; the four castling rooks' files; the en-passant
// square; counters). It walks the 32 square bytes, one a clock, counting pieces and kings and
// noting the rooks on each side's first rank, then checks the rest at once:
//   - piece codes valid, one king a side, at most 16 pieces a side, no pawn on rank 1 or 8;
//   - flags bits 2-7 clear;
//   - each castling file 0-7 (or 0xff, none) names a rook of its colour on its first rank,
//     with the king on that rank, and a side's two rights are on two sides of its king;
//   - the en-passant square (or 0xff) is on rank 6 (White to move) or 3, behind a pawn of the
//     side not to move, with the square and the one the pawn came from empty.
// `done` rises for one clock 34 clocks after `start`, with `ok`. This is the Rust model's
// refusal of a position (hw::chip::protocol::decode_position_why) but for the two checks on
// attacks (the side not to move in check, more than two checkers): the sequencer makes those
// on the move generator.
module position_check (
    input  wire         clk,
    input  wire         rst,
    input  wire         start,
    input  wire [335:0] pos,
    output reg          done,
    output reg          ok
);
    reg        walking, finish;
    reg [4:0]  i;
    reg [6:0]  nk_w, nk_b, n_w, n_b;
    reg [5:0]  ksq_w, ksq_b;
    reg [7:0]  rk_w, rk_b;
    reg        bad;

    // The two squares of byte i.
    wire [7:0] sq2 = pos[{1'b0, i, 3'b000} +: 8];
    wire [3:0] c0 = sq2[3:0], c1 = sq2[7:4];
    wire [2:0] rank = i[4:2];
    wire [2:0] f0 = {i[1:0], 1'b0}, f1 = {i[1:0], 1'b1};
    wire       p0 = c0 != 4'd0, p1 = c1 != 4'd0;
    wire       bad_code = (p0 && (c0[2:0] == 3'd0 || c0[2:0] == 3'd7))
                       || (p1 && (c1[2:0] == 3'd0 || c1[2:0] == 3'd7));
    wire       back = rank == 3'd0 || rank == 3'd7;
    wire       bad_pawn = back && ((p0 && c0[2:0] == 3'd1) || (p1 && c1[2:0] == 3'd1));
    wire       wk0 = c0 == 4'd6, wk1 = c1 == 4'd6, bk0 = c0 == 4'd14, bk1 = c1 == 4'd14;
    wire [1:0] inc_w = {1'b0, p0 && !c0[3]} + {1'b0, p1 && !c1[3]};
    wire [1:0] inc_b = {1'b0, p0 && c0[3]} + {1'b0, p1 && c1[3]};
    wire [7:0] wr0 = (c0 == 4'd4 && rank == 3'd0) ? 8'd1 << f0 : 8'd0;
    wire [7:0] wr1 = (c1 == 4'd4 && rank == 3'd0) ? 8'd1 << f1 : 8'd0;
    wire [7:0] br0 = (c0 == 4'd12 && rank == 3'd7) ? 8'd1 << f0 : 8'd0;
    wire [7:0] br1 = (c1 == 4'd12 && rank == 3'd7) ? 8'd1 << f1 : 8'd0;

    always @(posedge clk) begin
        done   <= 1'b0;
        finish <= 1'b0;
        if (rst) begin
            walking <= 1'b0;
        end else if (start) begin
            walking <= 1'b1;
            i       <= 5'd0;
            {nk_w, nk_b, n_w, n_b} <= 28'd0;
            {rk_w, rk_b} <= 16'd0;
            bad     <= 1'b0;
        end else if (walking) begin
            nk_w <= nk_w + {6'd0, wk0} + {6'd0, wk1};
            nk_b <= nk_b + {6'd0, bk0} + {6'd0, bk1};
            n_w  <= n_w + {5'd0, inc_w};
            n_b  <= n_b + {5'd0, inc_b};
            if (wk0) ksq_w <= {rank, f0};
            if (wk1) ksq_w <= {rank, f1};
            if (bk0) ksq_b <= {rank, f0};
            if (bk1) ksq_b <= {rank, f1};
            rk_w <= rk_w | wr0 | wr1;
            rk_b <= rk_b | br0 | br1;
            bad  <= bad | bad_code | bad_pawn;
            i    <= i + 5'd1;
            if (i == 5'd31) begin
                walking <= 1'b0;
                finish  <= 1'b1;
            end
        end
        if (finish) begin
            done <= 1'b1;
            ok   <= !bad && nk_w == 7'd1 && nk_b == 7'd1 && n_w <= 7'd16 && n_b <= 7'd16
                 && flags_ok && castle_ok && ep_ok;
        end
    end

    // The bytes after the squares.
    wire       black = pos[256];
    wire       flags_ok = pos[263:258] == 6'd0;
    wire [7:0] cr0 = pos[271:264], cr1 = pos[279:272], cr2 = pos[287:280], cr3 = pos[295:288];
    wire [7:0] ep = pos[303:296];

    // One castling right of a colour: its file names a rook on the first rank, the king there.
    function right_ok;
        input [7:0] file;
        input [5:0] ksq;
        input [2:0] back_rank;
        input [7:0] rooks;
        begin
            right_ok = file == 8'hff
                    || (file < 8'd8 && ksq[5:3] == back_rank && rooks[file[2:0]]);
        end
    endfunction
    // A colour's two rights: not two rooks on one side of the king.
    function pair_ok;
        input [7:0] ra;
        input [7:0] rb;
        input [5:0] ksq;
        begin
            pair_ok = ra == 8'hff || rb == 8'hff || ra == rb
                   || ((ra[2:0] > ksq[2:0]) != (rb[2:0] > ksq[2:0]));
        end
    endfunction
    wire castle_ok = right_ok(cr0, ksq_w, 3'd0, rk_w) && right_ok(cr1, ksq_w, 3'd0, rk_w)
                  && right_ok(cr2, ksq_b, 3'd7, rk_b) && right_ok(cr3, ksq_b, 3'd7, rk_b)
                  && pair_ok(cr0, cr1, ksq_w) && pair_ok(cr2, cr3, ksq_b);

    // En passant: the pawn that moved, the square behind it, the square it came from.
    wire [5:0] e       = ep[5:0];
    wire [5:0] pawn_sq = black ? e + 6'd8 : e - 6'd8;
    wire [5:0] from_sq = black ? e - 6'd8 : e + 6'd8;
    wire [3:0] pawn_code = black ? 4'd1 : 4'd9;
    wire ep_ok = ep == 8'hff
              || (ep < 8'd64 && e[5:3] == (black ? 3'd2 : 3'd5)
                  && pos[{1'b0, pawn_sq, 2'b00} +: 4] == pawn_code
                  && pos[{1'b0, e, 2'b00} +: 4] == 4'd0
                  && pos[{1'b0, from_sq, 2'b00} +: 4] == 4'd0);
endmodule

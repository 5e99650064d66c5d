// The sequencer's mirror of the position: what the move generator holds as bitboards, kept as
// a 64-square mailbox, with the castling rooks, the en-passant square, the side to move, the
// halfmove clock and the Zobrist hash. From a 16-bit move it forms the command words both
// units take (hw/movegen/board_state.v: MAKE carries the moving kind and the castling rights
// and en-passant file after the move, UNMAKE the captured kind and the rights and file before)
// and updates the hash with the chess crate's keys (gen/chip_zobrist.vh, `estuary hw gen`), so
// the chip's hashes are the software's. The Rust model: chess::Board::play and
// cosim::movegen::words.
//
//   LOAD   takes the host unit's 42-byte position (hw/host/): the mailbox at once, then the
//          hash over 32 clocks (two squares a clock), the castling rooks sorted by side of the
//          king and the en-passant square kept only where a pawn can take on it, as the FEN
//          reader does; `busy` until then (34 clocks).
//   MAKE   `move`, legal here: the mailbox, rights, en passant, side and halfmove clock at the
//          clock's edge; the hash two clocks after the command (the key ROM read, then the xor).
//   NULL   the same for a null move.
//   UNMAKE takes back the last MAKE or NULL (a stack of 64: its UNMAKE word, the hash and the
//          halfmove clock before), the hash included, at the edge.
// One command a clock. `make_word` and `unmake_word` are the words of `move` in the current
// position (combinational); `undo_word` is the UNMAKE word of the last MAKE or NULL.
module mirror (
    input  wire         clk,
    input  wire         rst,
    input  wire         load,
    input  wire [335:0] position,
    output wire         busy,
    input  wire         cmd_make,
    input  wire         cmd_null,
    input  wire         cmd_unmake,
    input  wire [15:0]  move,
    output wire [31:0]  make_word,
    output wire [31:0]  unmake_word,
    output wire [31:0]  undo_word,
    output reg  [63:0]  hash,
    output reg  [7:0]   halfmove,
    output reg          black,       // Black to move
    output wire [3:0]   rights,      // castling rights: White short, long, Black short, long
    output wire [3:0]   ep_file,     // the en-passant file, 8: none
    output reg  [6:0]   ply          // makes on the stack
);
`include "gen/chip_zobrist.vh"
    localparam [2:0] NONE = 3'd7;   // no kind (the words' field)

    // ---- state ------------------------------------------------------------------------------
    reg [255:0] board;        // square s at [4s+3:4s]: 0 empty, 1-6 a white pawn..king, 9-14 black
    reg [23:0]  crook;        // castling rooks' squares, right r at [6r+5:6r]
    reg [3:0] cvalid;
    reg       ep_on;
    reg [2:0] ep_f;
    assign rights  = cvalid;
    assign ep_file = ep_on ? {1'b0, ep_f} : 4'd8;

    // ---- the move ---------------------------------------------------------------------------
    wire [5:0] from = move[5:0];
    wire [5:0] to   = move[11:6];
    wire [3:0] flag = move[15:12];
    wire       is_castle = flag == 4'd2;
    wire       is_ep     = flag == 4'd3;
    wire       is_double = flag == 4'd1;
    wire       is_capt   = flag[2] && !is_castle && !is_ep;   // 4-7 and 12-15 (not 2 and 3)
    wire       is_promo  = flag[3];
    wire       us = black;
    wire [3:0] mcode = board[{from, 2'b00} +: 4];
    wire [3:0] tcode = board[{to, 2'b00} +: 4];
    wire [2:0] mkind = mcode[2:0] - 3'd1;                 // 0 pawn .. 5 king
    wire [2:0] ckind = is_capt ? tcode[2:0] - 3'd1 : NONE;
    wire [2:0] pkind = {1'b0, flag[1:0]} + 3'd2;          // promotion's code: knight 2 .. queen 5
    wire       short = to > from;
    wire [5:0] kdest = {from[5:3], short ? 3'd6 : 3'd2};
    wire [5:0] rdest = {from[5:3], short ? 3'd5 : 3'd3};
    wire [5:0] ep_cap = {from[5:3], to[2:0]};
    wire [3:0] king_code = {us, 3'd6}, rook_code = {us, 3'd4};
    wire [3:0] pawn_them = {~us, 3'd1};

    // Rights after the move: a king move (castling too) loses both of its side's rights; a
    // right whose rook leaves or is taken is lost.
    reg [3:0] rights_after;
    integer r;
    always @* begin
        for (r = 0; r < 4; r = r + 1)
            rights_after[r] = cvalid[r] && crook[6 * r +: 6] != from && crook[6 * r +: 6] != to
                           && !(mkind == 3'd5 && us == r[1]);
    end
    // En passant after a double push: kept where a pawn of theirs stands beside `to`.
    wire [5:0] to_l = to - 6'd1, to_r = to + 6'd1;
    wire ep_left  = to[2:0] != 3'd0 && board[{to_l, 2'b00} +: 4] == pawn_them;
    wire ep_right = to[2:0] != 3'd7 && board[{to_r, 2'b00} +: 4] == pawn_them;
    wire ep_after = is_double && (ep_left || ep_right);
    wire [3:0] ep_after_field = ep_after ? {1'b0, to[2:0]} : 4'd8;

    assign make_word   = {5'd0, ep_after_field, rights_after, mkind, move};
    assign unmake_word = {2'b00, ckind, ep_file, cvalid, mkind, move};

    // ---- the stack ----------------------------------------------------------------------------
    reg [31:0] st_word [0:63];
    reg [63:0] st_hash [0:63];
    reg [7:0]  st_half [0:63];
    wire [5:0] top = ply[5:0] - 6'd1;
    assign undo_word = st_word[top];

    // The UNMAKE word on top, decoded.
    wire [31:0] u = st_word[top];
    wire        u_null = u[30];
    wire [5:0]  u_from = u[5:0], u_to = u[11:6];
    wire [3:0]  u_flag = u[15:12];
    wire        u_castle = u_flag == 4'd2, u_ep = u_flag == 4'd3, u_promo = u_flag[3];
    wire [2:0]  u_mkind = u[18:16], u_ckind = u[29:27];
    wire        u_short = u_to > u_from;
    wire [5:0]  u_kdest = {u_from[5:3], u_short ? 3'd6 : 3'd2};
    wire [5:0]  u_rdest = {u_from[5:3], u_short ? 3'd5 : 3'd3};
    wire        mover = ~black;   // the side that made the move being taken back

    // ---- mailbox writes: four ports, the later winning ----------------------------------------
    reg [5:0] wsq [0:3];
    reg [3:0] wcode [0:3];
    reg [3:0] wen;
    always @* begin
        wen = 4'b0000;
        wsq[0] = from; wsq[1] = to; wsq[2] = kdest; wsq[3] = rdest;
        wcode[0] = 4'd0; wcode[1] = 4'd0; wcode[2] = 4'd0; wcode[3] = 4'd0;
        if (cmd_make) begin
            if (is_castle) begin
                wen = 4'b1111;
                wcode[2] = king_code;
                wcode[3] = rook_code;
            end else begin
                wen = is_ep ? 4'b0111 : 4'b0011;
                wcode[1] = is_promo ? {us, pkind} : mcode;
                wsq[2] = ep_cap;
            end
        end else if (cmd_unmake && !u_null) begin
            if (u_castle) begin
                wen = 4'b1111;
                wsq[0] = u_kdest; wsq[1] = u_rdest; wsq[2] = u_from; wsq[3] = u_to;
                wcode[2] = {mover, 3'd6};
                wcode[3] = {mover, 3'd4};
            end else begin
                wen = u_ep ? 4'b0111 : 4'b0011;
                wsq[0] = u_to;
                wcode[0] = u_ckind == NONE ? 4'd0 : {~mover, u_ckind + 3'd1};
                wsq[1] = u_from;
                wcode[1] = u_promo ? {mover, 3'd1} : {mover, u_mkind + 3'd1};
                wsq[2] = {u_from[5:3], u_to[2:0]};
                wcode[2] = {~mover, 3'd1};
            end
        end
    end

    // The mailbox after the writes.
    reg [255:0] written;
    integer w;
    always @* begin
        written = board;
        for (w = 0; w < 4; w = w + 1)
            if (wen[w]) written[{wsq[w], 2'b00} +: 4] = wcode[w];
    end

    // ---- hash keys ----------------------------------------------------------------------------
    // Piece-square keys: a piece code and a square make the ROM's address.
    function [9:0] key_addr(input [3:0] code, input [5:0] sq);
        key_addr = {(code[3] ? 4'd6 : 4'd0) + {1'b0, code[2:0]} - 4'd1, sq};
    endfunction
    // Four reads a make: the mover off its square, the piece onto its square, the victim (or
    // castling's rook) off, castling's rook on.
    reg [9:0] ka [0:3];
    reg [3:0] ken;
    always @* begin
        ka[0] = key_addr(mcode, from);
        ka[1] = key_addr(is_promo ? {us, pkind} : mcode, to);
        ka[2] = key_addr(is_ep ? pawn_them : tcode, is_ep ? ep_cap : to);
        ka[3] = key_addr(rook_code, rdest);
        ken = {1'b0, is_capt || is_ep, 2'b11};
        if (is_castle) begin
            ka[1] = key_addr(king_code, kdest);
            ka[2] = key_addr(rook_code, to);
            ken = 4'b1111;
        end
        if (!cmd_make) ken = 4'b0000;
    end
    // The other keys of a make or null move: side, castling rights that change, en passant off
    // and on.
    wire [63:0] ep_old_key = ep_on ? zobrist_ep(ep_f) : 64'd0;
    wire [63:0] extra = ZOBRIST_SIDE ^ ep_old_key
                      ^ (cmd_make ? zobrist_castle(cvalid ^ rights_after)
                                    ^ (ep_after ? zobrist_ep(to[2:0]) : 64'd0)
                                  : 64'd0);

    reg [63:0] kq [0:3];
    reg [3:0]  kqen;
    reg [63:0] kx;
    reg        pend;     // keys read last clock, to go into the hash this clock
    wire [63:0] pending = (kqen[0] ? kq[0] : 64'd0) ^ (kqen[1] ? kq[1] : 64'd0)
                        ^ (kqen[2] ? kq[2] : 64'd0) ^ (kqen[3] ? kq[3] : 64'd0) ^ kx;
    wire [63:0] hash_now = pend ? hash ^ pending : hash;   // what the hash becomes at this edge

    // ---- LOAD: the walk -------------------------------------------------------------------------
    reg        walking, finishing;
    reg [4:0]  wi;
    reg [5:0]  ksq_w, ksq_b;
    reg [7:0]  ld_ep;
    reg [31:0] ld_files;
    assign busy = walking || lk_on || finishing;
    wire [5:0] sq0 = {wi, 1'b0}, sq1 = {wi, 1'b1};
    wire [3:0] lc0 = board[{sq0, 2'b00} +: 4], lc1 = board[{sq1, 2'b00} +: 4];
    reg [63:0] lk0, lk1;
    reg        lk_on;

    // The en-passant square of a LOAD, kept where a pawn of the side to move can take on it.
    wire [5:0] le = ld_ep[5:0];
    wire [3:0] pawn_us = {black, 3'd1};
    wire [5:0] l_left  = black ? le + 6'd7 : le - 6'd9;
    wire [5:0] l_right = black ? le + 6'd9 : le - 6'd7;
    wire ld_ep_keep = ld_ep < 8'd64
                   && ((le[2:0] != 3'd0 && board[{l_left, 2'b00} +: 4] == pawn_us)
                    || (le[2:0] != 3'd7 && board[{l_right, 2'b00} +: 4] == pawn_us));

    always @(posedge clk) begin
        pend <= 1'b0;
        lk_on <= 1'b0;
        finishing <= 1'b0;
        if (rst) begin
            walking <= 1'b0;
            ply     <= 7'd0;
            hash    <= 64'd0;
        end else if (load) begin
            board    <= position[255:0];
            black    <= position[256];
            halfmove <= position[311:304];
            ld_files <= position[295:264];
            ld_ep    <= position[303:296];
            hash     <= position[256] ? ZOBRIST_SIDE : 64'd0;
            ply      <= 7'd0;
            wi       <= 5'd0;
            walking  <= 1'b1;
        end else if (walking || lk_on) begin
            if (walking) begin
                lk0   <= lc0 == 4'd0 ? 64'd0 : rom_zobrist_piece(key_addr(lc0, sq0));
                lk1   <= lc1 == 4'd0 ? 64'd0 : rom_zobrist_piece(key_addr(lc1, sq1));
                lk_on <= 1'b1;
                if (lc0 == 4'd6) ksq_w <= sq0;
                if (lc1 == 4'd6) ksq_w <= sq1;
                if (lc0 == 4'd14) ksq_b <= sq0;
                if (lc1 == 4'd14) ksq_b <= sq1;
                wi <= wi + 5'd1;
                if (wi == 5'd31) walking <= 1'b0;
            end
            if (lk_on) begin
                hash <= hash ^ lk0 ^ lk1;
                if (!walking) finishing <= 1'b1;
            end
        end else if (finishing) begin
            // Castling rooks by side of their king (bytes: two files a colour), en passant.
            crook  <= load_rooks(ld_files, ksq_w, ksq_b);
            cvalid <= load_rights(ld_files, ksq_w, ksq_b);
            ep_on  <= ld_ep_keep;
            ep_f   <= ld_ep[2:0];
            hash   <= hash ^ zobrist_castle(load_rights(ld_files, ksq_w, ksq_b))
                           ^ (ld_ep_keep ? zobrist_ep(ld_ep[2:0]) : 64'd0);
        end else if (cmd_make || cmd_null) begin
            st_word[ply[5:0]] <= cmd_make ? unmake_word : {1'b0, 1'b1, 3'd0, ep_file, cvalid, 19'd0};
            st_hash[ply[5:0]] <= hash_now;
            st_half[ply[5:0]] <= halfmove;
            ply <= ply + 7'd1;
            board <= written;
            if (cmd_make) begin
                cvalid <= rights_after;
                ep_on  <= ep_after;
                ep_f   <= to[2:0];
                halfmove <= (mkind == 3'd0 || is_capt || is_ep) ? 8'd0
                          : halfmove == 8'd255 ? 8'd255 : halfmove + 8'd1;
            end else begin
                ep_on  <= 1'b0;
                halfmove <= halfmove == 8'd255 ? 8'd255 : halfmove + 8'd1;
            end
            black <= ~black;
            kq[0] <= rom_zobrist_piece(ka[0]);
            kq[1] <= rom_zobrist_piece(ka[1]);
            kq[2] <= rom_zobrist_piece(ka[2]);
            kq[3] <= rom_zobrist_piece(ka[3]);
            kqen <= ken;
            kx   <= extra;
            pend <= 1'b1;
            hash <= hash_now;
        end else if (cmd_unmake) begin
            board    <= written;
            cvalid   <= u[22:19];
            ep_on    <= u[26:23] != 4'd8;
            ep_f     <= u[25:23];
            halfmove <= st_half[top];
            hash     <= st_hash[top];
            black    <= ~black;
            ply      <= ply - 7'd1;
        end else if (pend) begin
            hash <= hash_now;
        end
    end

    // A LOAD's castling rooks: each file present goes to the right of its side of the king.
    function [23:0] load_rooks(input [31:0] files, input [5:0] kw, input [5:0] kb);
        integer j;
        reg [7:0] f;
        reg [5:0] k;
        begin
            load_rooks = 24'd0;
            for (j = 0; j < 4; j = j + 1) begin
                f = files[8 * j +: 8];
                k = j < 2 ? kw : kb;
                if (f != 8'hff)
                    load_rooks[6 * {j[1], f[2:0] > k[2:0] ? 1'b0 : 1'b1} +: 6] =
                        {j < 2 ? 3'd0 : 3'd7, f[2:0]};
            end
        end
    endfunction

    // A LOAD's rights: each castling file present (0xff: none) gives the right of its side.
    function [3:0] load_rights(input [31:0] files, input [5:0] kw, input [5:0] kb);
        integer j;
        reg [7:0] f;
        reg [5:0] k;
        begin
            load_rights = 4'd0;
            for (j = 0; j < 4; j = j + 1) begin
                f = files[8 * j +: 8];
                k = j < 2 ? kw : kb;
                if (f != 8'hff) load_rights[{j[1], f[2:0] > k[2:0] ? 1'b0 : 1'b1}] = 1'b1;
            end
        end
    endfunction
endmodule

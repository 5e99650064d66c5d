// The sequencer's mirror of the position: what the move generator holds as bitboards, kept as
// a 64-square mailbox, with the castling rooks, the en-passant square, the side to move, the
// halfmove clock and the Zobrist hash. From a 16-bit move it forms the command words both
// units take (hw/movegen/board_state.v: MAKE carries the moving kind, the castling rights and
// en-passant file after the move and the captured kind, which the evaluation unit reads instead
// of keeping a board; UNMAKE the captured kind and the rights and file before)
// and updates the hash with the chess crate's keys (gen/chip_zobrist*.vh, `estuary hw gen`),
// so the chip's hashes are the software's. The Rust model: chess::Board::play and
// cosim::movegen's make_word and unmake_word.
//
//   LOAD   takes the host unit's 42-byte position (hw/host/): the mailbox at once, then the
//          hash two squares a clock through the key ROM, the castling rooks sorted by side of
//          their king and the en-passant square kept only where a pawn can take on it, as the
//          FEN reader does; `busy` until then (37 clocks).
//   MAKE   `move`, legal here: mailbox, rights, en passant, side and halfmove clock at the
//          command's edge; the hash two clocks after the command (HASH_CLOCKS of the model:
//          the keys, read from the key ROM at the prepare clock's edge, are xored in pairs
//          at the command's edge and into the hash at the next).
//   NULL   a null move, the same way.
//   UNMAKE takes back the last MAKE or NULL from a stack of 64 (its UNMAKE word, the hash and
//          the halfmove clock before), the hash included, at the edge.
//
// In stages: every clock the mirror takes the move on `move` (stage 1: the codes on its
// squares out of the mailbox into registers), then prepares in registers what a MAKE of it and
// an UNMAKE of the stack's top would write (stage 2: its words, mailbox writes, new rights and
// en passant; the key ROM read); a command applies them at its edge. So a command comes at
// least three clocks after the last, with MAKE's move on `move` for the two clocks before it:
// the model's sequencer never issues them closer (a return takes RETURN_CLOCKS after an
// unmake's clock, a move is chosen in NEXT_MOVE_CLOCKS before its make, a child node waits for
// the in-check flag). `make_word` and `unmake_word` are the words of that move; `undo_word` is
// the UNMAKE word of the last MAKE or NULL (the stack's top).
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
    output reg  [31:0]  make_word,
    output reg  [31:0]  unmake_word,
    output reg  [31:0]  undo_word,
    output reg  [63:0]  hash,
    output reg  [7:0]   halfmove,
    output reg          black,       // Black to move
    output wire [3:0]   rights,      // castling rights: White short, long, Black short, long
    output wire [3:0]   ep_file,     // the en-passant file, 8: none
    output reg  [6:0]   ply,         // makes on the stack
    // For the sequencer's quiescence pruning and null move: the codes on the squares of the
    // move on `move` a clock ago (stage 1), and whether the side to move has a knight, bishop,
    // rook or queen (a clock after a command).
    output wire [3:0]   from_code,
    output wire [3:0]   to_code,
    output reg          has_pieces
);
`include "gen/chip_zobrist.vh"
    localparam [2:0] NONE = 3'd7;   // no kind (the words' field)

    // ---- state ----------------------------------------------------------------------------
    reg [255:0] board;     // square s at [4s+3:4s]: 0 empty, 1-6 a white pawn..king, 9-14 black
    reg [5:0]   crook0, crook1, crook2, crook3;   // castling rooks' squares, by right
    reg [3:0]   cvalid;
    reg         ep_on;
    reg [2:0]   ep_f;
    assign rights  = cvalid;
    assign ep_file = ep_on ? {1'b0, ep_f} : 4'd8;

    function [3:0] sq_code(input [255:0] b, input [5:0] s);
        sq_code = b[{s, 2'b00} +: 4];
    endfunction
    // The key ROM's address of a piece code on a square: (colour * 6 + kind) * 64 + square.
    function [9:0] key_addr(input [3:0] code, input [5:0] sq);
        key_addr = {(code[3] ? 4'd6 : 4'd0) + {1'b0, code[2:0]} - 4'd1, sq};
    endfunction

    // ---- prepare a MAKE of `move` ----------------------------------------------------------
    // Stage 1: the move (or a LOAD's next two squares, as from and to with flag 0) and the
    // codes on its squares and beside `to`, out of the mailbox's multiplexers into registers.
    reg        walking;
    reg [4:0]  wi;
    wire [5:0] from1 = walking ? {wi, 1'b0} : move[5:0];
    wire [5:0] to1   = walking ? {wi, 1'b1} : move[11:6];
    wire [5:0] to1_l = to1 - 6'd1, to1_r = to1 + 6'd1;
    reg [15:0] mv;
    reg [3:0]  mcode, tcode;
    // Pawns beside `to` (en passant after a double push), as one bit a colour: white and
    // black pawns as bitboards, each read at the square (a one-bit select, not a 4-bit code).
    reg        l_wp, l_bp, r_wp, r_bp;
    reg [63:0] wpawns, bpawns;
    integer pb;
    always @* begin
        for (pb = 0; pb < 64; pb = pb + 1) begin
            wpawns[pb] = board[4 * pb +: 4] == 4'd1;
            bpawns[pb] = board[4 * pb +: 4] == 4'd9;
        end
    end
    reg        s1_walk;
    assign from_code = mcode;
    assign to_code   = tcode;
    integer hp;
    always @(posedge clk) begin
        has_pieces <= 1'b0;
        for (hp = 0; hp < 64; hp = hp + 1)
            if (board[4 * hp + 3] == black && board[4 * hp +: 3] >= 3'd2 && board[4 * hp +: 3] <= 3'd5)
                has_pieces <= 1'b1;
    end
    always @(posedge clk) begin
        mv      <= {walking ? 4'd0 : move[15:12], to1, from1};
        mcode   <= sq_code(board, from1);
        tcode   <= sq_code(board, to1);
        l_wp    <= wpawns[to1_l];
        l_bp    <= bpawns[to1_l];
        r_wp    <= wpawns[to1_r];
        r_bp    <= bpawns[to1_r];
        s1_walk <= walking;
    end
    // Stage 2, from those registers.
    wire [5:0] from = mv[5:0];
    wire [5:0] to   = mv[11:6];
    wire [3:0] flag = mv[15:12];
    wire       is_castle = flag == 4'd2;
    wire       is_ep     = flag == 4'd3;
    wire       is_double = flag == 4'd1;
    wire       is_capt   = flag[2];                      // 4-7 and 12-15
    wire       is_promo  = flag[3];
    wire [2:0] mkind = mcode[2:0] - 3'd1;                // 0 pawn .. 5 king
    wire [2:0] ckind = is_capt ? tcode[2:0] - 3'd1 : NONE;
    wire [3:0] placed = is_promo ? {black, 1'b0, flag[1:0]} + 4'd2 : mcode;  // N 2 .. Q 5
    wire       short = to > from;
    wire [5:0] kdest = {from[5:3], short ? 3'd6 : 3'd2};
    wire [5:0] rdest = {from[5:3], short ? 3'd5 : 3'd3};
    wire [5:0] ep_cap = {from[5:3], to[2:0]};
    wire [3:0] king_code = {black, 3'd6}, rook_code = {black, 3'd4};
    wire [3:0] pawn_them = {~black, 3'd1};
    // Rights after: a king move (castling too) loses its side's two; a rook leaving or taken
    // loses its right.
    wire king_moves = mkind == 3'd5;
    wire [3:0] rights_after = cvalid & {
        crook3 != from && crook3 != to && !(king_moves && black),
        crook2 != from && crook2 != to && !(king_moves && black),
        crook1 != from && crook1 != to && !(king_moves && !black),
        crook0 != from && crook0 != to && !(king_moves && !black)};
    // En passant after a double push: kept where a pawn of theirs stands beside `to`.
    wire ep_after = is_double
                 && ((to[2:0] != 3'd0 && (black ? l_wp : l_bp))
                  || (to[2:0] != 3'd7 && (black ? r_wp : r_bp)));
    wire [63:0] ep_old_key = ep_on ? zobrist_ep(ep_f) : 64'd0;
    wire [7:0]  halfmove_inc = halfmove == 8'd255 ? 8'd255 : halfmove + 8'd1;

    // ---- the stack ------------------------------------------------------------------------
    reg [31:0] st_word [0:63];
    reg [63:0] st_hash [0:63];
    reg [7:0]  st_half [0:63];
    reg [63:0] top_hash;          // the top's hash and halfmove clock (undo_word: its word)
    reg [7:0]  top_half;
    reg [5:0]  below;             // the entry under the top
    // The top's UNMAKE word, decoded.
    wire [31:0] u = undo_word;
    wire [5:0]  u_from = u[5:0], u_to = u[11:6];
    wire [3:0]  u_flag = u[15:12];
    wire        u_castle = u_flag == 4'd2, u_ep = u_flag == 4'd3, u_promo = u_flag[3];
    wire [2:0]  u_mkind = u[18:16], u_ckind = u[29:27];
    wire        u_short = u_to > u_from;
    wire        mover = ~black;   // the side whose move is taken back
    // What a MAKE (its prepared UNMAKE word) or a NULL pushes.
    wire [31:0] pushed = cmd_make ? unmake_word : {1'b0, 1'b1, 3'd0, ep_file, cvalid, 19'd0};

    // ---- the prepared stage ------------------------------------------------------------------
    // The mailbox writes a MAKE and an UNMAKE of the top would make (the later port winning):
    // each square as a one-hot rank (high byte, zero for no write) and file (low byte), and
    // the code written there.
    reg [15:0] pm_oh0, pm_oh1, pm_oh2, pm_oh3;
    reg [3:0]  pm_c0, pm_c1, pm_c2, pm_c3;
    reg [3:0]  pm_rights;
    reg        pm_ep, pm_reset;
    reg [2:0]  pm_ep_f;
    reg [15:0] pu_oh0, pu_oh1, pu_oh2, pu_oh3;
    reg [3:0]  pu_c0, pu_c1, pu_c2, pu_c3;
    function [15:0] onehot(input en, input [5:0] sq);
        onehot = {en ? 8'd1 << sq[5:3] : 8'd0, 8'd1 << sq[2:0]};
    endfunction
    reg [3:0]  ken;                                 // the keys read this clock that count
    reg        ka_walk;                             // they are a LOAD's squares

    // ---- LOAD -----------------------------------------------------------------------------
    reg [2:0]  drain;             // clocks until the walk's last keys are in the hash
    reg [5:0]  ksq_w, ksq_b;
    reg [7:0]  ld_ep;
    reg [31:0] ld_files;
    assign busy = walking || drain != 3'd0;
    // The en-passant square of a LOAD, kept where a pawn of the side to move can take on it.
    // (The two squares a pawn would take from are registered with the LOAD.)
    wire [2:0] le_f = ld_ep[2:0];
    reg  [5:0] l_left, l_right;
    wire ld_ep_keep = ld_ep < 8'd64
                   && ((le_f != 3'd0 && (black ? bpawns[l_left] : wpawns[l_left]))
                    || (le_f != 3'd7 && (black ? bpawns[l_right] : wpawns[l_right])));
    // A LOAD's castling file `f` of a colour whose king is on `k`: the right it gives (short 0,
    // long 1 within the colour).
    function side_of(input [7:0] f, input [5:0] k);
        side_of = f[2:0] > k[2:0] ? 1'b0 : 1'b1;
    endfunction
    reg [3:0] ld_rights;
    reg [5:0] ld_rook [0:3];
    // Registered while the walk drains, for the last step (from the final king squares;
    // the keys a clock later).
    reg [3:0]  ldq_rights;
    reg [5:0]  ldq_rook0, ldq_rook1, ldq_rook2, ldq_rook3;
    reg        ldq_ep;
    reg [63:0] ldq_key;
    integer j;
    always @* begin
        ld_rights = 4'd0;
        for (j = 0; j < 4; j = j + 1) ld_rook[j] = 6'd0;
        for (j = 0; j < 4; j = j + 1)
            if (ld_files[8 * j +: 8] != 8'hff) begin
                ld_rights[{j[1], side_of(ld_files[8 * j +: 8], j < 2 ? ksq_w : ksq_b)}] = 1'b1;
                ld_rook[{j[1], side_of(ld_files[8 * j +: 8], j < 2 ? ksq_w : ksq_b)}] =
                    {j < 2 ? 3'd0 : 3'd7, ld_files[8 * j +: 3]};
            end
    end

    // ---- the key ROM: four read ports ---------------------------------------------------------
    reg [63:0] zrom [0:767];
    initial begin
`include "gen/chip_zobrist_rom.vh"
    end
    // The addresses of the keys a MAKE of `move` would change (or of a LOAD's next two
    // squares), read at the prepare clock's edge: the keys are out of the block RAM during the
    // command's clock, xored in pairs at its edge and into the hash at the next.
    // (A walk's pair comes through the first and third: its flag is 0.)
    wire [9:0] ra0 = key_addr(mcode, from);
    wire [9:0] ra1 = is_castle ? key_addr(king_code, kdest) : key_addr(placed, to);
    wire [9:0] ra2 = is_castle ? key_addr(rook_code, to)
                   : is_ep ? key_addr(pawn_them, ep_cap) : key_addr(tcode, to);
    wire [9:0] ra3 = key_addr(rook_code, rdest);
    reg [63:0] kq0, kq1, kq2, kq3;
    always @(posedge clk) begin
        kq0 <= zrom[ra0];
        kq1 <= zrom[ra1];
        kq2 <= zrom[ra2];
        kq3 <= zrom[ra3];
    end
    // One level of logic behind the block RAM (its clock-to-out is long): the keys in pairs,
    // every clock; a command says at its edge whether they count.
    reg [63:0] ksa, ksb;
    always @(posedge clk) begin
        ksa <= (ken[0] ? kq0 : 64'd0) ^ (ken[1] ? kq1 : 64'd0);
        ksb <= (ken[2] ? kq2 : 64'd0) ^ (ken[3] ? kq3 : 64'd0);
    end
    reg [63:0] kse;      // the other keys to go into the hash this clock
    reg        use_keys; // and the piece keys too
    reg        pend;
    wire [63:0] hash_now = pend ? hash ^ kse ^ (use_keys ? ksa ^ ksb : 64'd0) : hash;

    // The mailbox after a command's writes (the later port winning), square by square.
    wire [15:0] oh0 = cmd_make ? pm_oh0 : cmd_unmake ? pu_oh0 : 16'd0;
    wire [15:0] oh1 = cmd_make ? pm_oh1 : cmd_unmake ? pu_oh1 : 16'd0;
    wire [15:0] oh2 = cmd_make ? pm_oh2 : cmd_unmake ? pu_oh2 : 16'd0;
    wire [15:0] oh3 = cmd_make ? pm_oh3 : cmd_unmake ? pu_oh3 : 16'd0;
    // Whether write port `oh` takes square q.
    function hit(input [15:0] oh, input integer sq);
        hit = oh[8 + sq / 8] && oh[sq % 8];
    endfunction
    wire [3:0]  c0 = cmd_make ? pm_c0 : pu_c0, c1 = cmd_make ? pm_c1 : pu_c1;
    wire [3:0]  c2 = cmd_make ? pm_c2 : pu_c2, c3 = cmd_make ? pm_c3 : pu_c3;
    reg [255:0] written;
    integer q;
    always @* begin
        for (q = 0; q < 64; q = q + 1)
            written[4 * q +: 4] = hit(oh3, q) ? c3 : hit(oh2, q) ? c2 : hit(oh1, q) ? c1
                                : hit(oh0, q) ? c0 : board[4 * q +: 4];
    end

    always @(posedge clk) begin
        // Prepare: a MAKE of `move`, an UNMAKE of the top, or a LOAD's next two squares.
        make_word   <= {2'b00, ckind, ep_after ? {1'b0, to[2:0]} : 4'd8, rights_after, mkind, move};
        unmake_word <= {2'b00, ckind, ep_file, cvalid, mkind, move};
        pm_oh0 <= onehot(1'b1, from);                         pm_c0 <= 4'd0;
        pm_oh1 <= onehot(1'b1, to);                           pm_c1 <= is_castle ? 4'd0 : placed;
        pm_oh2 <= onehot(is_castle || is_ep, is_castle ? kdest : ep_cap);
        pm_c2  <= is_castle ? king_code : 4'd0;
        pm_oh3 <= onehot(is_castle, rdest);                   pm_c3 <= rook_code;
        pm_rights <= rights_after;
        pm_ep     <= ep_after;
        pm_ep_f   <= to[2:0];
        pm_reset  <= mkind == 3'd0 || is_capt || is_ep;
        if (u_castle) begin
            pu_oh0 <= onehot(1'b1, {u_from[5:3], u_short ? 3'd6 : 3'd2});  pu_c0 <= 4'd0;
            pu_oh1 <= onehot(1'b1, {u_from[5:3], u_short ? 3'd5 : 3'd3});  pu_c1 <= 4'd0;
            pu_oh2 <= onehot(1'b1, u_from);                   pu_c2 <= {mover, 3'd6};
            pu_oh3 <= onehot(1'b1, u_to);                     pu_c3 <= {mover, 3'd4};
        end else begin
            pu_oh0 <= onehot(!u[30], u_to);
            pu_c0  <= u_ckind == NONE ? 4'd0 : {~mover, u_ckind + 3'd1};
            pu_oh1 <= onehot(!u[30], u_from);
            pu_c1  <= u_promo ? {mover, 3'd1} : {mover, u_mkind + 3'd1};
            pu_oh2 <= onehot(!u[30] && u_ep, {u_from[5:3], u_to[2:0]});
            pu_c2  <= {~mover, 3'd1};
            pu_oh3 <= 16'd0;
        end
        ken     <= s1_walk ? {1'b0, tcode != 4'd0, 1'b0, mcode != 4'd0}
                           : {is_castle, is_castle || is_capt || is_ep, 2'b11};
        ka_walk <= s1_walk;

        pend <= 1'b0;
        if (rst) begin
            walking <= 1'b0;
            drain   <= 3'd0;
            ply     <= 7'd0;
            hash    <= 64'd0;
        end else if (load) begin
            board    <= position[255:0];
            black    <= position[256];
            halfmove <= position[311:304];
            ld_files <= position[295:264];
            ld_ep    <= position[303:296];
            l_left   <= position[256] ? position[301:296] + 6'd7 : position[301:296] - 6'd9;
            l_right  <= position[256] ? position[301:296] + 6'd9 : position[301:296] - 6'd7;
            hash     <= position[256] ? ZOBRIST_SIDE : 64'd0;
            ply      <= 7'd0;
            below    <= 6'd63;
            wi       <= 5'd0;
            walking  <= 1'b1;
            drain    <= 3'd0;
        end else if (walking || drain != 3'd0) begin
            // The walk: the codes, the ROM, then the xor, a pair of squares a clock (in stage
            // 2 the pair is `from` and `to`).
            if (s1_walk) begin
                if (mcode == 4'd6) ksq_w <= from;
                if (tcode == 4'd6) ksq_w <= to;
                if (mcode == 4'd14) ksq_b <= from;
                if (tcode == 4'd14) ksq_b <= to;
            end
            if (walking) begin
                wi <= wi + 5'd1;
                if (wi == 5'd31) begin
                    walking <= 1'b0;
                    drain   <= 3'd4;
                end
            end else begin
                drain <= drain - 3'd1;
            end
            ldq_rights <= ld_rights;
            ldq_rook0  <= ld_rook[0];
            ldq_rook1  <= ld_rook[1];
            ldq_rook2  <= ld_rook[2];
            ldq_rook3  <= ld_rook[3];
            ldq_ep     <= ld_ep_keep;
            ldq_key    <= zobrist_castle(ldq_rights) ^ (ldq_ep ? zobrist_ep(ld_ep[2:0]) : 64'd0);
            if (ka_walk) begin
                kse      <= 64'd0;
                use_keys <= 1'b1;
                pend     <= 1'b1;
            end
            hash <= hash_now;
            if (drain == 3'd1) begin
                // Castling rooks by side of their king, the rights' and en passant's keys.
                crook0 <= ldq_rook0;
                crook1 <= ldq_rook1;
                crook2 <= ldq_rook2;
                crook3 <= ldq_rook3;
                cvalid <= ldq_rights;
                ep_on  <= ldq_ep;
                ep_f   <= ld_ep[2:0];
                hash   <= hash_now ^ ldq_key;
            end
        end else if (cmd_make || cmd_null) begin
            st_word[ply[5:0]] <= pushed;
            st_hash[ply[5:0]] <= hash_now;
            st_half[ply[5:0]] <= halfmove;
            undo_word <= pushed;
            top_hash  <= hash_now;
            top_half  <= halfmove;
            below     <= ply[5:0] - 6'd1;
            ply       <= ply + 7'd1;
            board     <= written;
            black     <= ~black;
            if (cmd_make) begin
                cvalid   <= pm_rights;
                ep_on    <= pm_ep;
                ep_f     <= pm_ep_f;
                halfmove <= pm_reset ? 8'd0 : halfmove_inc;
                // The piece keys, the side, the castling rights that change, en passant off
                // and on.
                use_keys <= 1'b1;
                kse      <= ZOBRIST_SIDE ^ ep_old_key ^ zobrist_castle(cvalid ^ pm_rights)
                          ^ (pm_ep ? zobrist_ep(pm_ep_f) : 64'd0);
            end else begin
                ep_on    <= 1'b0;
                halfmove <= halfmove_inc;
                use_keys <= 1'b0;
                kse      <= ZOBRIST_SIDE ^ ep_old_key;
            end
            pend <= 1'b1;
            hash <= hash_now;
        end else if (cmd_unmake) begin
            board     <= written;
            cvalid    <= u[22:19];
            ep_on     <= u[26:23] != 4'd8;
            ep_f      <= u[25:23];
            halfmove  <= top_half;
            hash      <= top_hash;
            black     <= ~black;
            ply       <= ply - 7'd1;
            below     <= below - 6'd1;
            undo_word <= st_word[below];
            top_hash  <= st_hash[below];
            top_half  <= st_half[below];
        end else begin
            hash <= hash_now;
        end
    end
endmodule

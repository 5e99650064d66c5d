// Game-state registers: piece bitboards by kind and colour, side to move, en-passant square,
// castling rights (by rook square, so Chess960 works) and the make / unmake / null datapath.
//
// Two stages, one command a clock: the command stage decodes the word (whether or not it is
// valid and the device ready: only the enables below depend on `accept`, so neither fans
// out to the masks) into the squares to clear (in every kind board) and up to two squares to
// set, each in one kind, and for the side to move and its opponent the squares to clear and
// to set (a decoder per square, no look-up in the board); the next clock applies them (two
// LUTs per kind-board bit, one per colour-board bit). The host keeps a mirror of the
// position (it needs one for unmake anyway), so
// the make word carries what a look-up would cost a long path: the moving kind, and the
// castling rights and en-passant file after the move.
//
// make word   [15:0]  the move (bits 0-5 from, 6-11 to, 12-15 flag), [18:16] moving kind,
//             [22:19] castling rights after the move, [26:23] en-passant file after it
//             ([26] set: none; the rank follows from the side), [29:27] captured kind
//             (KIND_NONE if none or en passant; not read here: the evaluation unit takes a
//             capture's victim from it).
// unmake word [15:0]  the move being taken back, [18:16] its moving kind (a pawn for a
//             promotion), [22:19] castling rights before the move, [26:23] en-passant file
//             before it ([26] set: none), [29:27] captured kind (KIND_NONE if none), [30] 1 for
//             a null move.
// load words  0-11 kind bitboards (kind*2 + half), 12-15 colour bitboards, 16 {rights[11:8],
//             ep[7:1], side[0]}, 17 castling rook squares {bs, bl... 6 bits each: [5:0] white
//             short, [11:6] white long, [17:12] black short, [23:18] black long}.
//             The host sends them in this order: word 16 finds the colour boards loaded
//             (white, black) and swaps them into role order when black is to move.
// The colour boards are kept by role (side to move, opponent) rather than by colour: every
// command that passes the turn swaps them, so the units take their own and the opponent's
// pieces without a select by `side`.
module board_state (
    input  wire         clk,
    input  wire         accept,     // the command below is taken (the device is ready)
    input  wire         load,
    input  wire [4:0]   load_addr,
    input  wire [31:0]  load_data,
    input  wire         make,
    input  wire         make_null,
    input  wire         unmake,
    input  wire [31:0]  word,
    output reg  [383:0] kinds,      // kind k at [64k +: 64]
    output reg  [127:0] colors,     // by role: the side to move's pieces [63:0], the opponent's [127:64]
    output reg          side,       // 0 white, 1 black
    output reg  [6:0]   ep,         // en-passant square, 64 = none
    output reg  [3:0]   rights,     // white short, white long, black short, black long
    output reg  [23:0]  rook_sqs    // rook square of each right, 6 bits each, same order
);
`include "estuary_defs.vh"
`include "gen/estuary_consts.vh"

    localparam [6:0] NO_SQ = 7'd64;

    // ---- command stage: decode ----
    wire [5:0]  from = word[5:0];
    wire [5:0]  to = word[11:6];
    wire [3:0]  flag = word[15:12];
    wire        is_castle = flag == FLAG_CASTLE;
    wire        is_ep = flag == FLAG_EN_PASSANT;
    wire        is_capture = flag[2];
    wire        is_promo = flag[3];
    wire [2:0]  moving = word[18:16];
    wire [2:0]  placed = is_promo ? {1'b0, flag[1:0]} + 3'd1 : moving;
    wire [2:0]  captured = word[29:27];
    wire [63:0] from_bb = square_bb(from);
    wire [63:0] to_bb = square_bb(to);
    // The pawn taken en passant stands beside the capturer: to's file, from's rank.
    wire [63:0] ep_victim_bb = square_bb({from[5:3], to[2:0]});
    wire [63:0] removed_bb = is_ep ? ep_victim_bb : (is_capture ? to_bb : 64'd0);
    wire        short_side = to > from;
    wire [63:0] king_dest_bb = square_bb({from[5:3], short_side ? CASTLE_KING_FILE_0 : CASTLE_KING_FILE_1});
    wire [63:0] rook_dest_bb = square_bb({from[5:3], short_side ? CASTLE_ROOK_FILE_0 : CASTLE_ROOK_FILE_1});

    // The kind boards' masks: the squares cleared (in every kind), then up to two square
    // sets, each set in one kind (one-hot k1, k2; zero for none): kinds[64k + sq] becomes
    // kinds & ~clr | set1 & k1[k] | set2 & k2[k]. A command never needs a kind-specific clear:
    // the squares it clears hold one piece, or none.
    reg [63:0]  clr, set1, set2;
    reg [5:0]   k1, k2;
    reg [63:0]  stm_clr, stm_set, opp_clr, opp_set;   // the side to move (when applied), the other
    // Kind k (0-5) one-hot; none (KIND_NONE) sets nothing.
    function automatic [5:0] kind_hot(input [2:0] kind);
        kind_hot = kind < 3'd6 ? 6'd1 << kind : 6'd0;
    endfunction
    // Write enables, one per 32-bit word of the boards: kinds[32w +: 32] (c_kword[w]) and
    // colors[32j +: 32] (c_cword[j]). A load word is written through the masks (clear all,
    // set the data), so the word's bits need no select between a load and a command, and
    // each enable differs from the others by its load address: yosys keeps the 16 apart, and
    // each drives 32 flip-flops instead of one enable driving all 512.
    reg [11:0]  c_kword;
    reg [3:0]   c_cword;
    reg         c_flip, c_ep_we, c_rights_we, c_side_load, c_rooks_load;
    reg [3:0]   c_rights;
    reg [3:0]   c_ep;       // {none, file}
    reg [31:0]  c_data;
    wire        passes = make || unmake || make_null;          // the turn passes
    wire        loads_board = load && !load_addr[4];             // load words 0-15
    wire        null_unmake = unmake && word[30];
    integer k;
    always @(posedge clk) begin
        for (k = 0; k < 12; k = k + 1)
            c_kword[k] <= accept && (make || unmake || (load && load_addr == k));
        // The colour boards swap roles whenever the turn passes (a load of word 16 with black
        // to move swaps them too), so every such command writes all four words.
        for (k = 0; k < 4; k = k + 1)
            c_cword[k] <= accept && (passes || (load && load_addr == 12 + k) || (load && load_addr == 5'd16 && load_data[0]));
        c_side_load <= accept && load && load_addr == 5'd16;
        c_rooks_load <= accept && load && load_addr == 5'd17;
        c_data <= load_data;
        c_flip <= accept && passes;
        c_ep_we <= accept && passes;
        c_rights_we <= accept && (make || unmake);                        // a null move keeps them
        c_rights <= word[22:19];
        c_ep <= make_null ? 4'b1000 : word[26:23];
        clr <= 64'd0;
        set1 <= 64'd0;
        set2 <= 64'd0;
        k1 <= 6'd0;
        k2 <= 6'd0;
        stm_clr <= 64'd0;
        stm_set <= 64'd0;
        opp_clr <= 64'd0;
        opp_set <= 64'd0;
        if (loads_board) begin
            // Only the addressed word is enabled: every word's masks may say "write the data".
            // Colour words 12-13 (the side to move's board) take the opponent's masks, 14-15
            // the side to move's: the apply below writes each role from the other role's masks.
            clr <= {64{1'b1}};
            set1 <= {2{load_data}};
            k1 <= kind_hot(load_addr[3:1]);
            stm_clr <= {64{1'b1}};
            stm_set <= {2{load_data}};
            opp_clr <= {64{1'b1}};
            opp_set <= {2{load_data}};
        end else if (make && is_castle) begin
            // King takes own rook: both leave, then land (the squares may overlap in Chess960).
            clr <= from_bb | to_bb;
            set1 <= king_dest_bb;
            k1 <= kind_hot(KIND_KING);
            set2 <= rook_dest_bb;
            k2 <= kind_hot(KIND_ROOK);
            stm_clr <= from_bb | to_bb;
            stm_set <= king_dest_bb | rook_dest_bb;
        end else if (make) begin
            clr <= from_bb | to_bb | removed_bb;
            set1 <= to_bb;
            k1 <= kind_hot(placed);
            stm_clr <= from_bb;
            stm_set <= to_bb;
            opp_clr <= removed_bb | to_bb;
        end else if (null_unmake) begin
            // Taking back a null move only passes the turn: the masks stay empty.
        end else if (unmake && is_castle) begin
            // The mover of the move taken back is the side not to move.
            clr <= king_dest_bb | rook_dest_bb;
            set1 <= from_bb;
            k1 <= kind_hot(KIND_KING);
            set2 <= to_bb;
            k2 <= kind_hot(KIND_ROOK);
            opp_clr <= king_dest_bb | rook_dest_bb;
            opp_set <= from_bb | to_bb;
        end else if (unmake) begin
            // The mover back on its square; the victim (captured kind, or the pawn taken en
            // passant beside it) back on its own.
            clr <= to_bb;
            set1 <= from_bb;
            k1 <= kind_hot(moving);
            set2 <= removed_bb;
            k2 <= is_ep ? kind_hot(KIND_PAWN) : is_capture ? kind_hot(captured) : 6'd0;
            opp_clr <= to_bb;
            opp_set <= from_bb;
            stm_set <= removed_bb;
        end
    end

    // ---- apply: two LUTs per kind-board bit, one per colour-board bit, one enable per 32-bit
    // word ----
    // A load word and a command never come in the same clock.
    integer w;
    always @(posedge clk) begin
        for (w = 0; w < 12; w = w + 1)
            if (c_kword[w])
                kinds[32 * w +: 32] <= (kinds[32 * w +: 32] & ~clr[32 * (w % 2) +: 32])
                                       | (set1[32 * (w % 2) +: 32] & {32{k1[w / 2]}})
                                       | (set2[32 * (w % 2) +: 32] & {32{k2[w / 2]}});
        // Each role's board is written from the other role's (the masks apply to the boards
        // as they were: stm_* to the side to move before the command). When the turn passes,
        // the opponent becomes the side to move; a load (masks: clear all, set the data)
        // writes its word whatever the other board holds; a null move, the undo of one and
        // load word 16 with black to move have empty masks: a plain swap.
        for (w = 0; w < 2; w = w + 1) begin
            if (c_cword[w])
                colors[32 * w +: 32] <= (colors[64 + 32 * w +: 32] & ~opp_clr[32 * w +: 32]) | opp_set[32 * w +: 32];
            if (c_cword[w + 2])
                colors[64 + 32 * w +: 32] <= (colors[32 * w +: 32] & ~stm_clr[32 * w +: 32]) | stm_set[32 * w +: 32];
        end
        // The en-passant square lies on the capture rank of the side to move before the
        // command (make: the mover; unmake: the mover of the move before the one taken back):
        // rank 3 after white's double push, rank 6 after black's.
        if (c_ep_we) ep <= c_ep[3] ? NO_SQ : {1'b0, side ? 3'd5 : 3'd2, c_ep[2:0]};
        if (c_rights_we) rights <= c_rights;
        if (c_flip) side <= ~side;
        if (c_side_load) begin
            side <= c_data[0];
            ep <= c_data[7:1];
            rights <= c_data[11:8];
        end
        if (c_rooks_load) rook_sqs <= c_data[23:0];
    end
endmodule

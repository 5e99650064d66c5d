// Whether each streamed move gives check: the flag the search machine's late-move pruning
// needs, so that it never passes over a quiet move that checks (docs/chip.md).
//
// From the opponent's king square k, while the board stands through a GEN:
//   phase A  an occluded fill from k in the 8 directions over the empty squares (a step a
//            clock): ray[d] = the empty squares from k in direction d and
//            the first piece. A rook or queen that lands on an orthogonal ray checks, a bishop
//            or queen on a diagonal one. The pawn and knight squares that check come from k
//            set-wise.
//   phase B  a fill from each direction's first piece, where it is ours, on over the empty
//            squares: if it then meets our slider of that direction's kind, the first piece
//            is a discoverer, and moving it off the line through k (any axis) checks.
// A move checks when its piece (the kind on its origin) lands on a checking square of its
// kind, or its origin is a discoverer's and its destination leaves that line, or it is a
// castling move (king takes own rook): castling is flagged always, so the search never
// passes one over. Exact for every quiet move, including a king's discovered check; en
// passant and promotions, which the search does not prune, are not exact (the captured
// pawn's square and the new piece are not looked at).
//
// Timing: `seed` one clock after the GEN (stage 0 holds the generated board, as in
// enemy_attacks); the sets are complete 16 clocks after it, before the first move (23
// clocks after the GEN at the earliest, its squares a clock before). `squares` is move_stream's next_squares
// ({destination, origin} a clock before the move word), and `gives_check` is registered,
// so it comes with the move word.
module check_flags (
    input  wire         clk,
    input  wire         seed,
    input  wire [383:0] kinds,
    input  wire [127:0] colors,
    input  wire         side,
    input  wire [11:0]  squares,
    output reg          gives_check
);
`include "estuary_defs.vh"
`include "gen/estuary_consts.vh"

    // ---- stage 0: our pieces by kind, the opponent's king, the empty squares ----
    reg [63:0] pawns0, knights0, orth0, diag0, ours0, empty0, their_king0;
    reg        side0;
    always @(posedge clk) begin
        pawns0 <= kinds[64 * KIND_PAWN +: 64] & ours_of(colors);
        knights0 <= kinds[64 * KIND_KNIGHT +: 64] & ours_of(colors);
        orth0 <= (kinds[64 * KIND_ROOK +: 64] | kinds[64 * KIND_QUEEN +: 64]) & ours_of(colors);
        diag0 <= (kinds[64 * KIND_BISHOP +: 64] | kinds[64 * KIND_QUEEN +: 64]) & ours_of(colors);
        ours0 <= ours_of(colors);
        empty0 <= ~(colors[127:64] | colors[63:0]);
        their_king0 <= kinds[64 * KIND_KING +: 64] & theirs_of(colors);
        side0 <= side;
    end

    // ---- the fills, a step a clock: phase A from the king (clocks 1-7 after the seed),
    // phase B from our first pieces (clocks 9-15). A fill spreads over empty squares only,
    // so after phase B its one occupied square is still the first piece it started from. ----
    reg [63:0] fill [0:7];
    reg [4:0]  t;                // clocks since the seed, held at 31
    reg [63:0] empty;
    reg [63:0] pawn_sq, knight_sq, orth_sq, diag_sq;   // checking squares by the piece's kind
    reg [63:0] disc [0:3];       // discoverers by the axis of their line to the king
    reg [63:0] ray, orth_acc, diag_acc, leap;
    reg [63:0] disc_acc [0:3];
    integer d, a;
    always @(posedge clk) begin
        if (seed) begin
            t <= 5'd0;
            empty <= empty0;
            for (d = 0; d < 8; d = d + 1)
                fill[d] <= their_king0;
            // Our pawns that would attack the king stand one step behind its diagonals.
            pawn_sq <= side0 ? (step(their_king0, DIR_NE) | step(their_king0, DIR_NW))
                             : (step(their_king0, DIR_SE) | step(their_king0, DIR_SW));
            leap = 64'd0;
            for (d = 0; d < 8; d = d + 1)
                leap = leap | knight_step(their_king0, d[2:0]);
            knight_sq <= leap;
        end else begin
            if (t != 5'd31) t <= t + 5'd1;
            if (t == 5'd7) begin
                // Phase A done (7 steps): the rays with their first pieces; phase B starts
                // from the first pieces that are ours.
                orth_acc = 64'd0;
                diag_acc = 64'd0;
                for (d = 0; d < 8; d = d + 1) begin
                    ray = step(fill[d], d[2:0]);
                    if (d < 4) orth_acc = orth_acc | ray;
                    else diag_acc = diag_acc | ray;
                    fill[d] <= ray & ~empty & ours0;
                end
                orth_sq <= orth_acc;
                diag_sq <= diag_acc;
            end else if (t == 5'd15) begin
                // Phase B done: a first piece of ours that uncovers our slider is a discoverer.
                for (a = 0; a < 4; a = a + 1)
                    disc_acc[a] = 64'd0;
                for (d = 0; d < 8; d = d + 1)
                    if ((step(fill[d], d[2:0]) & ((d < 4) ? orth0 : diag0)) != 64'd0)
                        disc_acc[dir_axis(d[2:0])] = disc_acc[dir_axis(d[2:0])] | (fill[d] & ~empty);
                for (a = 0; a < 4; a = a + 1)
                    disc[a] <= disc_acc[a];
            end else begin
                for (d = 0; d < 8; d = d + 1)
                    fill[d] <= fill[d] | (step(fill[d], d[2:0]) & empty);
            end
        end
    end

    // ---- the flag of the next move ----
    wire [5:0] from = squares[5:0];
    wire [5:0] to = squares[11:6];
    // Whether `to` leaves the line of axis `ax` that runs through `from`.
    function automatic off_line(input [1:0] ax, input [5:0] f, input [5:0] s);
        off_line = line_id(ax, f) != line_id(ax, s);
    endfunction
    reg direct, uncovered;
    integer ax;
    always @* begin
        direct = (pawns0[from] && pawn_sq[to]) || (knights0[from] && knight_sq[to])
              || (orth0[from] && orth_sq[to]) || (diag0[from] && diag_sq[to]);
        uncovered = 1'b0;
        for (ax = 0; ax < 4; ax = ax + 1)
            if (disc[ax][from] && off_line(ax[1:0], from, to)) uncovered = 1'b1;
    end
    always @(posedge clk)
        gives_check <= direct || uncovered || ours0[to];
endmodule

// Board geometry shared by every unit: square a1 = bit 0, h8 = bit 63.
// Hand-written structure (not a table): directions, file masks and one-step shifts.

// Ray directions, in the order of the generated rom_ray (crates/hw/src/movegen/tables.rs DIRECTIONS).
localparam [2:0] DIR_N = 3'd0, DIR_S = 3'd1, DIR_E = 3'd2, DIR_W = 3'd3;
localparam [2:0] DIR_NE = 3'd4, DIR_NW = 3'd5, DIR_SE = 3'd6, DIR_SW = 3'd7;
// Lines through a square: a pinned piece may only move along its pin's axis.
localparam [1:0] AXIS_FILE = 2'd0, AXIS_RANK = 2'd1, AXIS_DIAG = 2'd2, AXIS_ANTI = 2'd3;

localparam [63:0] FILE_A = 64'h0101010101010101;
localparam [63:0] FILE_B = 64'h0202020202020202;
localparam [63:0] FILE_G = 64'h4040404040404040;
localparam [63:0] FILE_H = 64'h8080808080808080;
localparam [63:0] RANK_1 = 64'h00000000000000ff;
localparam [63:0] RANK_3 = 64'h0000000000ff0000;
localparam [63:0] RANK_6 = 64'h0000ff0000000000;
localparam [63:0] RANK_8 = 64'hff00000000000000;

// Every square moved one step in direction d; squares that would wrap around are dropped.
function automatic [63:0] step(input [63:0] b, input [2:0] d);
    case (d)
        DIR_N:   step = b << 8;
        DIR_S:   step = b >> 8;
        DIR_E:   step = (b << 1) & ~FILE_A;
        DIR_W:   step = (b >> 1) & ~FILE_H;
        DIR_NE:  step = (b << 9) & ~FILE_A;
        DIR_NW:  step = (b << 7) & ~FILE_H;
        DIR_SE:  step = (b >> 7) & ~FILE_A;
        default: step = (b >> 9) & ~FILE_H;
    endcase
endfunction

// Square-index change of one step in direction d.
function automatic signed [6:0] dir_delta(input [2:0] d);
    case (d)
        DIR_N:   dir_delta = 7'sd8;
        DIR_S:   dir_delta = -7'sd8;
        DIR_E:   dir_delta = 7'sd1;
        DIR_W:   dir_delta = -7'sd1;
        DIR_NE:  dir_delta = 7'sd9;
        DIR_NW:  dir_delta = 7'sd7;
        DIR_SE:  dir_delta = -7'sd7;
        default: dir_delta = -7'sd9;
    endcase
endfunction

function automatic [2:0] dir_opposite(input [2:0] d);
    dir_opposite = d[2] ? (d ^ 3'd3) : (d ^ 3'd1);   // N<->S, E<->W, NE<->SW, NW<->SE
endfunction

function automatic [1:0] dir_axis(input [2:0] d);
    case (d)
        DIR_N, DIR_S:   dir_axis = AXIS_FILE;
        DIR_E, DIR_W:   dir_axis = AXIS_RANK;
        DIR_NE, DIR_SW: dir_axis = AXIS_DIAG;
        default:        dir_axis = AXIS_ANTI;
    endcase
endfunction

// Knight jumps k = 0..7: (+1,+2) (+2,+1) (+2,-1) (+1,-2) (-1,-2) (-2,-1) (-2,+1) (-1,+2).
function automatic [63:0] knight_step(input [63:0] b, input [2:0] k);
    case (k)
        3'd0:    knight_step = (b << 17) & ~FILE_A;
        3'd1:    knight_step = (b << 10) & ~(FILE_A | FILE_B);
        3'd2:    knight_step = (b >> 6) & ~(FILE_A | FILE_B);
        3'd3:    knight_step = (b >> 15) & ~FILE_A;
        3'd4:    knight_step = (b >> 17) & ~FILE_H;
        3'd5:    knight_step = (b >> 10) & ~(FILE_G | FILE_H);
        3'd6:    knight_step = (b << 6) & ~(FILE_G | FILE_H);
        default: knight_step = (b << 15) & ~FILE_H;
    endcase
endfunction

// Every square a king (knight = 0) or a knight (knight = 1) on a square of b reaches in one
// move, set-wise: an OR of the eight shifted copies of b.
function automatic [63:0] leaper_reach(input [63:0] b, input knight);
    integer i;
    begin
        leaper_reach = 64'd0;
        for (i = 0; i < 8; i = i + 1)
            leaper_reach = leaper_reach | (knight ? knight_step(b, i[2:0]) : step(b, i[2:0]));
    end
endfunction

function automatic signed [6:0] knight_delta(input [2:0] k);
    case (k)
        3'd0:    knight_delta = 7'sd17;
        3'd1:    knight_delta = 7'sd10;
        3'd2:    knight_delta = -7'sd6;
        3'd3:    knight_delta = -7'sd15;
        3'd4:    knight_delta = -7'sd17;
        3'd5:    knight_delta = -7'sd10;
        3'd6:    knight_delta = 7'sd6;
        default: knight_delta = 7'sd15;
    endcase
endfunction

// Lowest set bit alone (b & -b: one carry chain, no 64-deep priority mux), and the highest
// set bit alone (the same on the bit-reversed board).
function automatic [63:0] lowest_bit(input [63:0] b);
    lowest_bit = b & (~b + 64'd1);
endfunction

function automatic [63:0] reverse64(input [63:0] b);
    integer i;
    begin
        for (i = 0; i < 64; i = i + 1)
            reverse64[i] = b[63 - i];
    end
endfunction

function automatic [63:0] highest_bit(input [63:0] b);
    highest_bit = reverse64(lowest_bit(reverse64(b)));
endfunction

// Index of the only set bit of a one-hot board (OR of the indices of all set bits).
function automatic [5:0] onehot_index(input [63:0] b);
    integer i;
    begin
        onehot_index = 6'd0;
        for (i = 0; i < 64; i = i + 1)
            if (b[i]) onehot_index = onehot_index | i[5:0];
    end
endfunction

// ---- Lines through a square: file, rank, diagonal, anti-diagonal (the AXIS_* numbers) ----
// A line is named by line_id (file: the file; rank: the rank; diagonal: rank - file + 7;
// anti-diagonal: rank + file) and its squares by line_pos (the rank on a file, else the file).
// The 8 squares of a line in order form the 8-bit line occupancy that indexes the generated
// line ROM (rom_rank_attacks), as in the thesis' line-occupancy ROMs.
function automatic [3:0] line_id(input [1:0] axis, input [5:0] sq);
    case (axis)
        AXIS_FILE: line_id = {1'b0, sq[2:0]};
        AXIS_RANK: line_id = {1'b0, sq[5:3]};
        AXIS_DIAG: line_id = {1'b0, sq[5:3]} + 4'd7 - {1'b0, sq[2:0]};
        default:   line_id = {1'b0, sq[5:3]} + {1'b0, sq[2:0]};
    endcase
endfunction

function automatic [2:0] line_pos(input [1:0] axis, input [5:0] sq);
    line_pos = (axis == AXIS_FILE) ? sq[5:3] : sq[2:0];
endfunction

// The 8 bits of board b along line `id` (positions off the board read 0). Written as an
// AND-OR over the 15 possible lines with constant bit indices, so each bit is a small mux.
function automatic [7:0] line_gather(input [1:0] axis, input [3:0] id, input [63:0] b);
    integer x, l, r;
    begin
        line_gather = 8'd0;
        for (x = 0; x < 8; x = x + 1)
            for (l = 0; l < 15; l = l + 1) begin
                case (axis)
                    AXIS_FILE: r = (l < 8) ? 8 * x + l : -1;
                    AXIS_RANK: r = (l < 8) ? 8 * l + x : -1;
                    AXIS_DIAG: r = (l + x - 7 >= 0 && l + x - 7 < 8) ? 8 * (l + x - 7) + x : -1;
                    default:   r = (l - x >= 0 && l - x < 8) ? 8 * (l - x) + x : -1;
                endcase
                if (r >= 0 && id == l) line_gather[x] = b[r];
            end
    end
endfunction

// The line through the one square of board `one` as a one-hot line select (bit l: line_id l),
// an OR of the line's squares, so the gather below needs no decoder.
function automatic [14:0] line_select(input [1:0] axis, input [63:0] one);
    integer s;
    begin
        line_select = 15'd0;
        for (s = 0; s < 64; s = s + 1)
            if (one[s]) line_select = line_select | (15'd1 << line_id(axis, s[5:0]));
    end
endfunction

// line_gather with the line given as a one-hot select (from line_select): an AND-OR.
function automatic [7:0] line_gather_sel(input [1:0] axis, input [14:0] sel, input [63:0] b);
    integer x, l, r;
    begin
        line_gather_sel = 8'd0;
        for (x = 0; x < 8; x = x + 1)
            for (l = 0; l < 15; l = l + 1) begin
                case (axis)
                    AXIS_FILE: r = (l < 8) ? 8 * x + l : -1;
                    AXIS_RANK: r = (l < 8) ? 8 * l + x : -1;
                    AXIS_DIAG: r = (l + x - 7 >= 0 && l + x - 7 < 8) ? 8 * (l + x - 7) + x : -1;
                    default:   r = (l - x >= 0 && l - x < 8) ? 8 * (l - x) + x : -1;
                endcase
                if (r >= 0) line_gather_sel[x] = line_gather_sel[x] | (sel[l] & b[r]);
            end
    end
endfunction

// The board with the 8 line bits a8 put back on line `id`.
function automatic [63:0] line_scatter(input [1:0] axis, input [3:0] id, input [7:0] a8);
    integer s;
    begin
        for (s = 0; s < 64; s = s + 1)
            line_scatter[s] = (line_id(axis, s[5:0]) == id) && a8[line_pos(axis, s[5:0])];
    end
endfunction

// Positions above / below p on an 8-bit line.
function automatic [7:0] above8(input [2:0] p);
    above8 = ~((8'd2 << p) - 8'd1);
endfunction
function automatic [7:0] below8(input [2:0] p);
    below8 = (8'd1 << p) - 8'd1;
endfunction

// The colour boards, which board_state keeps by role: the side to move's pieces at [63:0],
// the opponent's at [127:64] (so no unit selects them by `side`, a register that would fan
// out to every unit's words).
function automatic [63:0] ours_of(input [127:0] colors);
    ours_of = colors[63:0];
endfunction
function automatic [63:0] theirs_of(input [127:0] colors);
    theirs_of = colors[127:64];
endfunction

// The one-square board of sq: a 6-to-64 decoder (one LUT6 a bit), not a 64-bit shifter.
function automatic [63:0] square_bb(input [5:0] sq);
    integer i;
    begin
        for (i = 0; i < 64; i = i + 1)
            square_bb[i] = sq == i;
    end
endfunction

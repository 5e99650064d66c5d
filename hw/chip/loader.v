// The loader: puts a LOADed position into the search core's units, and makes the two checks
// on a position that need attacks (hw::chip::protocol::decode_position_why's field-0
// refusals), on the move generator itself.
//
//   CHECK (check_start, the host's candidate `cand`, which passed hw/host/position_check.v):
//     the 18 load words to the generator, then `many_checks` read (more than two checkers);
//     a NULL, then `in_check` read (the side not to move is in check); then the 18 words
//     again, of `cand` if it passed, else of the loaded `position` (so a refused LOAD leaves
//     the generator on the game it had). check_done pulses with check_ok.
//   LOAD (commit, after the host took `cand` as `position` and switched its history bank):
//     the 18 words to the evaluation unit, the mirror's load, and the game's hashes copied
//     from the host's history port into the sequencer's path RAM: the last `halfmove` of
//     them, those since the last irreversible move (hw::chip::kept_history), with game_len.
//     `loading` stays high until every unit is idle.
// The load words are those of hw/movegen/board_state.v (crates/cosim/src/movegen/words.rs):
// a bitboard a piece kind, then one a colour, 32 bits a word, low half first; word 16 the
// side, the en-passant square (64: none) and the four rights; word 17 the rooks' squares.
module loader (
    input  wire         clk,
    input  wire         rst,
    // ---- the host unit ----
    input  wire         check_start,
    input  wire [335:0] cand,
    output reg          check_done,
    output reg          check_ok,
    input  wire         commit,
    input  wire [335:0] position,
    input  wire [6:0]   hist_count,
    output reg  [6:0]   hist_raddr,     // the host's history read port,
    input  wire [63:0]  hist_rdata,     //   its word a clock after the address
    output wire         loading,
    // ---- the core's host port ----
    output reg          g_valid,
    output reg  [2:0]   g_cmd,
    output reg  [4:0]   g_addr,
    output reg  [31:0]  g_data,
    input  wire         g_ready,
    input  wire         g_in_check,
    input  wire         g_many_checks,
    output reg          e_valid,
    output reg  [4:0]   e_addr,
    output reg  [31:0]  e_data,
    input  wire         e_ready,
    output reg          m_load,
    input  wire         m_busy,
    output reg          hist_we,
    output reg  [7:0]   hist_waddr,
    output reg  [63:0]  hist_wdata,
    output reg  [7:0]   game_len
);
    localparam [2:0] C_LOAD = 3'd1, C_NULL = 3'd4;
    localparam [3:0] S_IDLE = 4'd0, S_WORDS = 4'd1, S_MANY = 4'd2, S_NULL = 4'd3,
                     S_RELOAD = 4'd4, S_EWORDS = 4'd5, S_HIST = 4'd6, S_SETTLE = 4'd7;
    // The generator's flags describe the board 10 clocks after the command (IN_CHECK_WAIT of
    // the sequencer): read them 11 clocks after.
    localparam [3:0] FLAG_WAIT = 4'd11;

    reg [3:0]  state;
    reg [4:0]  w;          // the next word
    reg [3:0]  wait_cnt;
    reg        bad;
    reg [6:0]  hcount, hfirst, hj;
    reg        hvalid, hvalid2;
    reg [6:0]  hdst, hdst2;

    assign loading  = state == S_EWORDS || state == S_HIST || state == S_SETTLE;

    // The load word `w` for either unit, one a clock: the candidate's while it is checked,
    // else the loaded position's (a refused candidate's reload, the evaluation unit's words).
    // The half of the mailbox a bitboard word covers is selected first (32 squares of 4
    // bits), then each square is tested against the word's kind (words 0-11: kind w / 2) or
    // colour (12-13 white, 14-15 black).
    wire         from_position = state == S_EWORDS || (state == S_RELOAD && bad);
    wire [335:0] src = from_position ? position : cand;
    wire [127:0] half = w[0] ? src[255:128] : src[127:0];
    wire [2:0]   want = w[3:1] + 3'd1;   // the word's kind code, 1-6 (words 0-11)
    wire         kind_word = w < 5'd12, white_word = w < 5'd14;
    reg  [31:0]  bb;
    integer s;
    always @* begin
        for (s = 0; s < 32; s = s + 1)
            bb[s] = kind_word ? half[4 * s +: 3] == want
                  : white_word ? half[4 * s +: 4] != 4'd0 && !half[4 * s + 3]
                  : half[4 * s + 3];
    end
    // Words 16 and 17: the side, en passant and rights; the castling rooks' squares.
    reg  [3:0]   rights;
    reg  [23:0]  rooks;
    integer r;
    always @* begin
        for (r = 0; r < 4; r = r + 1) begin
            rights[r] = src[264 + 8 * r +: 8] != 8'hff;
            rooks[6 * r +: 6] = rights[r] ? {(r >= 2) ? 3'd7 : 3'd0, src[264 + 8 * r +: 3]} : 6'd0;
        end
    end
    wire [6:0]   ep = src[303:296] == 8'hff ? 7'd64 : {1'b0, src[301:296]};
    wire [31:0]  next_word = w == 5'd16 ? {20'd0, rights, ep, src[256]}
                           : w == 5'd17 ? {8'd0, rooks} : bb;

    // The halfmove clock bounds the hashes kept.
    wire [7:0] halfmove = position[311:304];
    wire [6:0] keep = halfmove < {1'b0, hist_count} ? halfmove[6:0] : hist_count;

    always @(posedge clk) begin
        check_done <= 1'b0;
        g_valid    <= 1'b0;
        e_valid    <= 1'b0;
        m_load     <= 1'b0;
        hist_we    <= 1'b0;
        if (rst) begin
            state    <= S_IDLE;
            game_len <= 8'd0;
            hvalid   <= 1'b0;
            hvalid2  <= 1'b0;
        end else begin
            // The history copy: the address out (hvalid), the host's registered read
            // (hvalid2), then the word written.
            hvalid  <= 1'b0;
            hvalid2 <= hvalid;
            hdst2   <= hdst;
            if (hvalid2) begin
                hist_we    <= 1'b1;
                hist_waddr <= {1'b0, hdst2};
                hist_wdata <= hist_rdata;
            end
            case (state)
            S_IDLE: begin
                w <= 5'd0;
                if (check_start) begin
                    bad   <= 1'b0;
                    state <= S_WORDS;
                end else if (commit) begin
                    m_load   <= 1'b1;
                    hcount   <= keep;
                    hfirst   <= hist_count - keep;
                    hj       <= 7'd0;
                    game_len <= {1'b0, keep};
                    state    <= S_EWORDS;
                end
            end
            // The candidate's words to the generator (it takes a LOAD every clock it is idle).
            S_WORDS, S_RELOAD: begin
                if (g_ready && !g_valid) begin
                    g_valid <= 1'b1;
                    g_cmd   <= C_LOAD;
                    g_addr  <= w;
                    g_data  <= next_word;
                    w       <= w + 5'd1;
                    if (w == 5'd17) begin
                        wait_cnt <= FLAG_WAIT;
                        if (state == S_RELOAD) begin
                            check_done <= 1'b1;
                            check_ok   <= !bad;
                            state      <= S_IDLE;
                        end else begin
                            state <= S_MANY;
                        end
                    end
                end
            end
            // More than two checkers?  Then pass the turn: is the other side in check?
            S_MANY: begin
                if (wait_cnt != 4'd0) wait_cnt <= wait_cnt - 4'd1;
                else if (g_ready && !g_valid) begin
                    bad      <= g_many_checks;
                    g_valid  <= 1'b1;
                    g_cmd    <= C_NULL;
                    g_data   <= 32'd0;
                    wait_cnt <= FLAG_WAIT;
                    state    <= S_NULL;
                end
            end
            S_NULL: begin
                if (wait_cnt != 4'd0) wait_cnt <= wait_cnt - 4'd1;
                else begin
                    bad   <= bad || g_in_check;
                    w     <= 5'd0;
                    state <= S_RELOAD;
                end
            end
            // The evaluation unit's words, a word each time it is ready.
            S_EWORDS: begin
                if (e_ready && !e_valid) begin
                    e_valid <= 1'b1;
                    e_addr  <= w;
                    e_data  <= next_word;
                    w       <= w + 5'd1;
                    if (w == 5'd17) state <= S_HIST;
                end
            end
            // The kept hashes, oldest first, one a clock.
            S_HIST: begin
                if (hj == hcount) begin
                    wait_cnt <= 4'd4;
                    state    <= S_SETTLE;
                end else begin
                    hist_raddr <= hfirst + hj;
                    hdst       <= hj;
                    hvalid     <= 1'b1;
                    hj         <= hj + 7'd1;
                end
            end
            S_SETTLE: begin
                if (wait_cnt != 4'd0) wait_cnt <= wait_cnt - 4'd1;
                else if (!m_busy && e_ready && g_ready && !e_valid) state <= S_IDLE;
            end
            default: state <= S_IDLE;
            endcase
        end
    end
endmodule

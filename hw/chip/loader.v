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

    // Load word `i` of the position `p`.
    function automatic [31:0] word_of(input [335:0] p, input [4:0] i);
        reg [63:0] bb;
        reg [3:0]  code;
        reg [6:0]  ep;
        reg [3:0]  rights;
        reg [23:0] rooks;
        integer s, r;
        begin
            bb = 64'd0;
            for (s = 0; s < 64; s = s + 1) begin
                code = p[4 * s +: 4];
                if (i < 5'd12)
                    bb[s] = code != 4'd0 && {1'b0, code[2:0]} == i[4:1] + 4'd1;
                else if (i < 5'd14)
                    bb[s] = code != 4'd0 && !code[3];
                else
                    bb[s] = code[3];
            end
            ep = p[303:296] == 8'hff ? 7'd64 : {1'b0, p[301:296]};
            for (r = 0; r < 4; r = r + 1) begin
                rights[r] = p[264 + 8 * r +: 8] != 8'hff;
                rooks[6 * r +: 6] = rights[r] ? {(r >= 2) ? 3'd7 : 3'd0, p[264 + 8 * r +: 3]}
                                              : 6'd0;
            end
            if (i == 5'd16) word_of = {20'd0, rights, ep, p[256]};
            else if (i == 5'd17) word_of = {8'd0, rooks};
            else word_of = i[0] ? bb[63:32] : bb[31:0];
        end
    endfunction

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
                    g_data  <= word_of((state == S_RELOAD && bad) ? position : cand, w);
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
                    e_data  <= word_of(position, w);
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

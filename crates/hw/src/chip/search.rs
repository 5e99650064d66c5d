//! The machine's search, command by command, with the clock of every step.
//!
//! Time is kept as the sequencer's clock `t` and the clock at which each unit takes its next
//! command (`g_ready`, `e_ready`). A command is issued at the first clock the sequencer and
//! the unit are both free; the sequencer waits for a result only where the algorithm needs it.

use super::sdram::{self, Controller};
use super::tt::{Bound, Table};
use super::*;
use crate::evalunit::{self, Image};
use crate::movegen::stream;
use chess::{Board, Color, Move, MoveList};
use device::{ChipEval, Evaluator};
use eval::chip::ChipNet;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Reverse futility: a node of depth at most this returns its static evaluation when that is
/// at least beta + the margin x depth.
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: i32 = 100;
/// Futility: at depth at most this, quiet moves after the first are skipped when the static
/// evaluation + the margin x depth is at most alpha.
const FUTILITY_DEPTH: i32 = 2;
const FUTILITY_MARGIN: i32 = 150;
/// Aspiration windows at the root from this depth, this wide either side of the last score.
pub(super) const ASPIRATION_DEPTH: u32 = 5;
pub(super) const ASPIRATION_CP: i32 = 40;
/// A score beyond every mate: the full window is `(-INF, INF)`.
pub(super) const INF: i32 = MATE + 1;

/// Why a net cannot run on the machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotForChip(pub String);

impl fmt::Display for NotForChip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotForChip {}

/// A root move's subtree searched by one core for a splitter ([`Machine::search_root_move`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootSearch {
    /// The score from the root's side (fail-soft, as GO's).
    pub score: i32,
    /// The clock the core is free again.
    pub done: u64,
    /// Nodes of the subtree (its child and below).
    pub nodes: u64,
    /// The move and the line below it.
    pub pv: Vec<Move>,
}

/// The search machine's model: one search core, its generator and its evaluation unit.
pub struct Machine {
    config: Config,
    eval: ChipEval,
    eval_clocks: u64,
    tt: Table,
    killers: [[Move; 2]; MAX_PLY + 1],
    /// The quiet moves' history ([`history_index`]).
    history: Vec<u16>,
    /// The late-move pruning build's signed history ([`Config::lmp`], [`signed_update`]).
    signed: Vec<i16>,
    boards: Vec<Board>,
    lists: Vec<MoveList>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Hashes of the game before the root (oldest first), then of the path.
    hashes: Vec<u64>,
    game_hashes: usize,
    stop: Arc<AtomicBool>,
    limits: Limits,
    aborted: bool,
    nodes: u64,
    qnodes: u64,
    t: u64,
    g_ready: u64,
    e_ready: u64,
    check_at: u64,
    hash_at: u64,
    /// The clock the evaluation unit gives the score of the last position made, to an EVAL
    /// that came before: its evaluation starts by itself as the make is done.
    score_at: u64,
    /// The evaluation unit's accumulators hold the position made last (no unmake since): its
    /// next make is a fast one.
    e_fresh: bool,
    /// The SDRAM table's controller (`config.sdram`).
    sd: Controller,
    /// Where this GO's clocks went.
    spent: Spent,
    trace: Option<Vec<Event>>,
}

/// What the sequencer spends a clock on ([`Spent`]).
#[derive(Copy, Clone)]
enum Part {
    Issue,
    InCheck,
    Table,
    Generate,
    Evaluate,
    Sequencer,
}

/// Piece values of the quiescence search's pruning, by kind (pawn to king): the victim's
/// worth in centipawns, and a rank to compare attacker with victim.
const VICTIM_CP: [i32; 6] = [100, 300, 300, 500, 900, 0];
const RANK: [u8; 6] = [1, 3, 3, 5, 9, 100];
/// Delta pruning's margin: a capture that cannot lift the stand-pat score to within this of
/// alpha is not searched.
const DELTA_CP: i32 = 200;

/// Whether the quiescence search passes over capture `m`: it cannot reach alpha even with
/// the victim's worth and the margin (delta pruning), or a more valuable piece takes on a
/// square the opponent attacks (the generator's attack map, with our king lifted).
fn futile_capture(b: &Board, m: Move, stand_pat: i32, alpha: i32) -> bool {
    if m.promotion().is_some() || m.is_en_passant() {
        return false;
    }
    let victim = b.kind_on(m.to()).map_or(0, |k| k.index());
    let attacker = b.kind_on(m.from()).map_or(0, |k| k.index());
    if stand_pat + VICTIM_CP[victim] + DELTA_CP <= alpha {
        return true;
    }
    let us = b.side_to_move();
    let occ = chess::Bitboard(b.occupied().0 ^ (1u64 << b.king(us).index()));
    RANK[attacker] > RANK[victim] && b.is_attacked_by(m.to(), us.flip(), occ)
}

fn is_quiet(m: Move) -> bool {
    !m.is_capture() && m.promotion().is_none()
}

fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    s as i16
}

fn from_tt(score: i16, ply: usize) -> i32 {
    let s = i32::from(score);
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

impl Machine {
    /// A machine whose evaluation unit runs `net`. The chip computes no hand-crafted terms,
    /// so a hybrid net is refused, as is one the unit cannot hold.
    pub fn new(net: Arc<ChipNet>, config: Config) -> Result<Machine, NotForChip> {
        if net.hybrid {
            return Err(NotForChip(
                "a hybrid chip net needs the hand-crafted evaluation, which the chip does not have: use a net trained without --hybrid".into(),
            ));
        }
        let image = Image::of(&net).map_err(|e| NotForChip(e.to_string()))?;
        let board = Board::startpos();
        let mut eval = ChipEval::new(net);
        eval.load(&board);
        Ok(Machine {
            config,
            eval,
            eval_clocks: image.eval_clocks(),
            tt: Table::new(if config.sdram {
                sdram::ENTRIES
            } else {
                config.tt_entries
            }),
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            history: vec![0; HISTORY_ENTRIES],
            signed: vec![0; HISTORY_ENTRIES],
            boards: vec![board; MAX_PLY + 2],
            lists: vec![MoveList::new(); MAX_PLY + 1],
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            hashes: Vec::with_capacity(256),
            game_hashes: 0,
            stop: Arc::new(AtomicBool::new(false)),
            limits: Limits::default(),
            aborted: false,
            nodes: 0,
            qnodes: 0,
            t: 0,
            g_ready: 0,
            e_ready: 0,
            check_at: 0,
            hash_at: 0,
            score_at: 0,
            e_fresh: true,
            sd: Controller::at_go(LOAD_CLOCKS),
            spent: Spent::default(),
            trace: None,
        })
    }

    /// The stop line ("decide now"): raised, the search answers with the best move found
    /// so far at its next node. Whoever starts a search lowers it first; [`Machine::go`]
    /// leaves it as it is, so a stop raised before the search begins is not lost.
    pub fn stop_line(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Records every command given to the units from now on (or stops recording); the
    /// co-simulation compares the record with the RTL's.
    pub fn set_trace(&mut self, on: bool) {
        self.trace = on.then(Vec::new);
    }

    /// The commands recorded since the last call (see [`Machine::set_trace`]).
    pub fn take_trace(&mut self) -> Vec<Event> {
        self.trace.as_mut().map(std::mem::take).unwrap_or_default()
    }

    fn record(&mut self, clock: u64, command: Command) {
        if let Some(t) = self.trace.as_mut() {
            t.push(Event { clock, command });
        }
    }

    /// Clears the transposition table, the killers and the history (a new game): the SDRAM's
    /// table by a new generation.
    pub fn clear(&mut self) {
        if self.config.sdram {
            self.tt.new_generation();
        } else {
            self.tt.clear();
        }
        self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
        self.history.fill(0);
        self.signed.fill(0);
    }

    /// Loads the position to search and the boards of the game before it, oldest first
    /// (their hashes since the last irreversible move serve the repetition check).
    pub fn load(&mut self, board: &Board, history: &[Board]) {
        let hashes: Vec<u64> = history.iter().map(|b| b.hash()).collect();
        self.load_hashes(board, &hashes);
    }

    /// [`Machine::load`] with the hashes of the earlier positions (what the host sends).
    pub fn load_hashes(&mut self, board: &Board, history: &[u64]) {
        self.boards[0] = *board;
        self.eval.load(board);
        self.e_fresh = true;
        self.hashes.clear();
        self.hashes.extend_from_slice(kept_history(board, history));
        self.game_hashes = self.hashes.len();
        self.hashes.push(board.hash());
    }

    // ---- the clock ----

    fn charge(&mut self, part: Part, clocks: u64) {
        let c = &mut self.spent;
        *match part {
            Part::Issue => &mut c.issue,
            Part::InCheck => &mut c.in_check,
            Part::Table => &mut c.table,
            Part::Generate => &mut c.generate,
            Part::Evaluate => &mut c.evaluate,
            Part::Sequencer => &mut c.sequencer,
        } += clocks;
    }

    /// The sequencer's clock moved on by `clocks`, spent on `part`.
    fn step(&mut self, part: Part, clocks: u64) {
        self.t += clocks;
        self.charge(part, clocks);
    }

    /// The sequencer waits until `at` (if that is later), for `part`.
    fn wait_until(&mut self, part: Part, at: u64) {
        if at > self.t {
            self.charge(part, at - self.t);
            self.t = at;
        }
    }

    // ---- the units' commands ----

    /// A MAKE or NULL to both units, in the first clock all three are free: the generator
    /// takes it in a clock, the evaluation unit in `e_clocks`; the in-check flag and the
    /// child's hash follow, and with the hash the SDRAM table's read when `read_tt` (a child
    /// that may search at full width).
    fn issue_make(&mut self, e_clocks: u64, command: Command, read_tt: bool) {
        self.wait_until(Part::Issue, self.g_ready.max(self.e_ready));
        let t = self.t;
        self.record(t, command);
        let faster = self.config.faster;
        self.score_at = (t + e_clocks + self.eval_clocks)
            .saturating_sub(faster.eval)
            .max(t + 1);
        self.g_ready = t + 1;
        self.e_ready = t + e_clocks;
        self.check_at = t + IN_CHECK_CLOCKS.saturating_sub(faster.in_check).max(1);
        self.hash_at = t + HASH_CLOCKS;
        if self.config.sdram && read_tt {
            self.sd.request_read(self.hash_at);
        }
        self.step(Part::Issue, 1);
        // The unit's accumulators now hold the child: its next make is a fast one.
        self.e_fresh = true;
    }

    /// MAKE of `m` at the node at `ply`; `full` when that node searches at full width (its
    /// child then reads the table).
    fn make(&mut self, ply: usize, m: Move, full: bool) {
        self.issue_make(
            evalunit::make_clocks(m, self.e_fresh),
            Command::Make(m),
            full,
        );
        let before = self.boards[ply];
        let after = before.played(m);
        self.boards[ply + 1] = after;
        self.eval.make(m, &before, &after);
        self.hashes.push(after.hash());
    }

    /// NULL at the node at `ply`, its child searched to `child_depth`.
    fn make_null(&mut self, ply: usize, child_depth: i32) {
        self.issue_make(evalunit::NULL_CLOCKS, Command::Null, child_depth > 0);
        let mut after = self.boards[ply];
        after.play_null();
        self.boards[ply + 1] = after;
        self.eval.make_null();
        self.hashes.push(after.hash());
    }

    /// Takes back the last make or null move, then restores the node's frame.
    fn unmake(&mut self) {
        self.wait_until(Part::Issue, self.g_ready.max(self.e_ready));
        let t = self.t;
        self.record(t, Command::Unmake);
        self.g_ready = t + 1;
        self.e_ready = t + evalunit::UNMAKE_CLOCKS;
        self.e_fresh = false;
        self.step(Part::Issue, 1);
        self.step(Part::Sequencer, RETURN_CLOCKS);
        self.eval.unmake();
        self.hashes.pop();
    }

    /// Takes `m` back and makes it again, for a re-search: every child starts from a fresh
    /// make on both units.
    fn remake(&mut self, ply: usize, m: Move) {
        self.unmake();
        self.make(ply, m, true);
    }

    /// EVAL, issued at `from` or when the unit has done the make, if later: the score of the
    /// node at `ply` and the clock from which the sequencer goes on with it (the score is out
    /// a clock before, when the sequencer decides on it). The sequencer waits for it only when
    /// it needs it; meanwhile the generator may stream.
    fn request_eval(&mut self, ply: usize, from: u64) -> (i32, u64) {
        let made = self.e_ready;
        let issued = from.max(made);
        self.record(issued, Command::Eval);
        // After an unmake the unit reloads the position's words first: they are then in its
        // accumulators too.
        self.e_fresh = true;
        // The clock the score is out: the unit's own evaluation of the position made, or the
        // command's clocks (taken, dispatched, the result registered) when it is done.
        let out = (issued + EVAL_MIN_CLOCKS - 1).max(self.score_at);
        let done = out + 1;
        // The unit takes its next command from the clock the score is out.
        self.e_ready = out;
        let score = self
            .eval
            .evaluate(&self.boards[ply])
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        (score, done)
    }

    /// [`Machine::request_eval`], then waiting for the score.
    fn evaluate(&mut self, ply: usize) -> i32 {
        let (score, done) = self.request_eval(ply, self.t);
        self.wait_until(Part::Evaluate, done);
        score
    }

    /// GEN: the moves of the node at `ply` into its move RAM, in stream order; the sequencer
    /// waits for the done pulse.
    fn generate(&mut self, ply: usize, captures_only: bool) -> usize {
        self.wait_until(Part::Issue, self.g_ready);
        let t = self.t;
        self.record(t, Command::Gen { captures_only });
        let b = self.boards[ply];
        stream::stream_order(&b, captures_only, &mut self.lists[ply]);
        let n = self.lists[ply].len();
        let clocks = stream::generate_clocks(&b, n as u64)
            .saturating_sub(self.config.faster.generate)
            .max(1);
        let done = t + clocks;
        self.g_ready = done;
        // The sequencer sees the done pulse, then decides in a clock of its own.
        self.wait_until(Part::Generate, done + GEN_DONE_CLOCKS);
        n
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.limits.nodes
            || self.t >= self.limits.clocks
            || self.stop.load(Ordering::Relaxed)
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The repetition scan of the node at `ply`: whether its hash occurs 4, 6, ... plies
    /// back within the reversible moves, and how many hashes were compared.
    fn repetition(&self, ply: usize) -> (bool, u64) {
        let b = &self.boards[ply];
        let top = self.hashes.len() - 1;
        let reach = (b.halfmove_clock() as usize).min(top);
        let h = self.hashes[top];
        let mut compared = 0;
        let mut back = 4;
        while back <= reach {
            compared += 1;
            if self.hashes[top - back] == h {
                return (true, compared);
            }
            back += 2;
        }
        (false, compared)
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let n = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = m;
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
        // The copy runs one move a clock.
        self.step(Part::Sequencer, n as u64 + 1);
    }

    // ---- the search ----

    /// A child of the node at `ply`, just made: the full search or the quiescence search.
    fn child(&mut self, ply: usize, depth: i32, alpha: i32, beta: i32) -> i32 {
        if depth <= 0 {
            -self.qsearch(ply + 1, -beta, -alpha)
        } else {
            -self.search(ply + 1, depth, -beta, -alpha)
        }
    }

    fn search(&mut self, ply: usize, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[ply] = 0;
        if self.out_of_budget() {
            self.step(Part::Sequencer, 1);
            return 0;
        }
        self.nodes += 1;
        let pv_node = beta - alpha > 1;
        let b = self.boards[ply];
        let hash = b.hash();
        // Entry: the repetition scan and the table read start with the hash; the in-check
        // flag comes from the generator.
        let (repeated, compared) = self.repetition(ply);
        let entry = self.tt.probe(hash);
        let scanned = self.hash_at + REPETITION_BASE_CLOCKS + compared;
        let ready = if self.config.sdram {
            scanned.max(self.sd.read_ready())
        } else {
            scanned.max(self.hash_at + self.config.tt_clocks.max(TT_BRAM_CLOCKS))
        };
        // The in-check flag usually comes first.
        let flag = self.check_at + 1;
        if flag <= ready {
            self.wait_until(Part::InCheck, flag);
            self.wait_until(Part::Table, ready);
        } else {
            self.wait_until(Part::Table, ready);
            self.wait_until(Part::InCheck, flag);
        }
        if repeated || b.halfmove_clock() >= 100 {
            self.step(Part::Sequencer, 1);
            return 0;
        }
        if ply >= MAX_PLY {
            self.step(Part::Sequencer, 1);
            return self.evaluate(ply);
        }
        let in_check = b.in_check();
        let mut tt_move = Move::NULL;
        if let Some(e) = entry {
            tt_move = e.mv;
            let s = from_tt(e.score, ply);
            if !pv_node
                && i32::from(e.depth) >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                }
            {
                self.step(Part::Sequencer, 1);
                return s;
            }
        }
        // Below the PV, out of check: the static evaluation, asked for as the unit finishes
        // the make, while the generator streams the moves.
        let wants_eval = !pv_node && !in_check && beta.abs() < MATE_BOUND;
        // (Asked for a clock after the entry's verdict, as GEN goes out.)
        let from = self.t + 1;
        let requested = wants_eval.then(|| self.request_eval(ply, from));
        let n = self.generate(ply, false);
        if n == 0 {
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        // Order: the table's move, the captures and promotions in stream order, the killers,
        // the other quiet moves by their history's bucket (as they stream, each bucket's
        // newest first: a linked list a bucket), so by the history before the null move.
        let mut order = [0u8; 256];
        let mut k = 0;
        let list = &self.lists[ply];
        let killers = self.killers[ply];
        let mut push = |i: usize| {
            order[k] = i as u8;
            k += 1;
        };
        let tt_at = list.iter().position(|m| *m == tt_move);
        if let Some(i) = tt_at {
            push(i);
        }
        for (i, m) in list.iter().enumerate() {
            if !is_quiet(*m) && Some(i) != tt_at {
                push(i);
            }
        }
        let mut killer_at = [None; 2];
        for (j, km) in killers.iter().enumerate() {
            if let Some(i) = list.iter().position(|m| m == km) {
                if is_quiet(*km) && Some(i) != tt_at {
                    killer_at[j] = Some(i);
                    push(i);
                }
            }
        }
        let black = b.side_to_move() == Color::Black;
        let lmp = self.config.lmp;
        if lmp {
            // The late-move pruning build: the other quiet moves through the insertion
            // sorter as they stream, by their signed history.
            let mut quiets = QuietOrder::default();
            for (i, m) in list.iter().enumerate() {
                if is_quiet(*m) && Some(i) != tt_at && !killer_at.contains(&Some(i)) {
                    quiets.push(i as u8, self.signed[history_index(black, *m)]);
                }
            }
            quiets.drain(|i| push(usize::from(i)));
        } else {
            let mut heads = [usize::MAX; BUCKETS];
            let mut next = [usize::MAX; 256];
            for (i, m) in list.iter().enumerate() {
                if is_quiet(*m) && Some(i) != tt_at && !killer_at.contains(&Some(i)) {
                    let h = history_bucket(self.history[history_index(black, *m)]);
                    next[i] = heads[h];
                    heads[h] = i;
                }
            }
            for head in heads {
                let mut i = head;
                while i != usize::MAX {
                    push(i);
                    i = next[i];
                }
            }
        }
        let static_eval = requested.map(|(score, done)| {
            self.wait_until(Part::Evaluate, done);
            score
        });
        if let Some(e) = static_eval {
            // Reverse futility: far enough above beta at a shallow node.
            if depth <= RFP_DEPTH && e - RFP_MARGIN * depth >= beta {
                return e;
            }
            // Null move, with a knight, bishop, rook or queen to move.
            if self.config.null_move && depth >= 3 && e >= beta && stream::piece_sets(&b) > 0 {
                let r = if depth >= 7 { 3 } else { 2 };
                self.make_null(ply, depth - 1 - r);
                let s = self.child(ply, depth - 1 - r, beta - 1, beta);
                self.unmake();
                if self.aborted {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        // Futility: at depth 1 and 2, quiet moves after the first cannot lift a score this
        // far below alpha.
        let futile = static_eval
            .is_some_and(|e| depth <= FUTILITY_DEPTH && e + FUTILITY_MARGIN * depth <= alpha);
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Move::NULL;
        // Late-move pruning below the PV, with a knight, bishop, rook or queen to move: from
        // the move at which it starts, only quiet moves that give check are searched.
        let lmp_here = lmp && !pv_node && stream::piece_sets(&b) > 0;
        let mut pruning = false;
        let mut listed_check = false;
        // The quiet moves made here, in order (each once, re-searches aside): the malus of a
        // quiet cutoff walks them.
        let mut tried = [Move::NULL; 256];
        let mut n_tried = 0;
        // Moves are searched in order until one is passed over: `searched` counts them.
        for (searched, &i) in (0u32..).zip(&order[..n]) {
            let m = self.lists[ply][i as usize];
            self.step(Part::Sequencer, NEXT_MOVE_CLOCKS);
            // Futility: every move after a quiet move passed over is a quiet move too (the
            // list's last part), so the node ends there.
            if futile && searched > 0 && is_quiet(m) && !killers.contains(&m) {
                break;
            }
            if lmp_here && is_quiet(m) && searched > 0 && !stream::quiet_check_flag(&b, m) {
                if !pruning && best > -MATE_BOUND && searched + 1 > lmp_moves(depth) {
                    pruning = true;
                    // Whether a listed quiet move (the table's move and the killers aside)
                    // gives check: the sequencer ORs the generator's flag as it lists them.
                    listed_check = self.lists[ply][..n].iter().enumerate().any(|(i, q)| {
                        is_quiet(*q)
                            && Some(i) != tt_at
                            && !killer_at.contains(&Some(i))
                            && stream::quiet_check_flag(&b, *q)
                    });
                }
                if pruning {
                    // A listed quiet move passed over where none of them gives check: every
                    // move after it is one too, so the node ends here.
                    if !listed_check && !killers.contains(&m) {
                        break;
                    }
                    continue;
                }
            }
            if lmp && is_quiet(m) {
                tried[n_tried] = m;
                n_tried += 1;
            }
            self.make(ply, m, true);
            let gives_check = self.boards[ply + 1].in_check();
            let next = depth - 1 + i32::from(gives_check);
            let mut s;
            if searched == 0 {
                s = self.child(ply, next, alpha, beta);
            } else {
                let reduce = self.config.lmr
                    && depth >= 3
                    && searched >= 3
                    && is_quiet(m)
                    && !in_check
                    && !gives_check
                    && !killers.contains(&m);
                // The software's logarithmic reduction, a ply less at a PV node, at least one
                // and leaving the child a ply at least.
                let r = if reduce {
                    (i32::from(lmr_reduction(depth, searched + 1)) - i32::from(pv_node))
                        .min(depth - 2)
                        .max(1)
                } else {
                    0
                };
                s = self.child(ply, next - r, alpha, alpha + 1);
                if !self.aborted && s > alpha && reduce {
                    self.remake(ply, m);
                    s = self.child(ply, next, alpha, alpha + 1);
                }
                if !self.aborted && s > alpha && s < beta {
                    self.remake(ply, m);
                    s = self.child(ply, next, alpha, beta);
                }
            }
            self.unmake();
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                best_move = m;
                if s > alpha {
                    alpha = s;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if s >= beta {
                        if is_quiet(m) {
                            if self.killers[ply][0] != m {
                                self.killers[ply] = [m, self.killers[ply][0]];
                            }
                            if lmp {
                                self.signed_cutoff(ply, &tried[..n_tried], depth);
                            } else {
                                let h = &mut self.history[history_index(black, m)];
                                *h = (*h + history_bonus(depth)).min(HISTORY_MAX);
                            }
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(hash, best_move, to_tt(best, ply), depth as i8, bound);
        if self.config.sdram {
            // Posted when the controller's write slot is free.
            let slot = self.sd.post_write(self.t);
            self.wait_until(Part::Table, slot);
        }
        self.step(Part::Sequencer, TT_WRITE_CLOCKS);
        best
    }

    /// A quiet cutoff in the late-move pruning build by the last of the quiet moves `tried`
    /// at the node at `ply`: the cutoff's move moved up by [`signed_bonus`], every other one
    /// down by as much. The sequencer walks the node's list of them, a move a clock, behind
    /// a pipeline of [`WALK_CLOCKS`] (read the list, read the entry, multiply, write).
    fn signed_cutoff(&mut self, ply: usize, tried: &[Move], depth: i32) {
        let black = self.boards[ply].side_to_move() == Color::Black;
        let bonus = signed_bonus(depth);
        let last = tried.len() - 1;
        for (at, &m) in tried.iter().enumerate() {
            let e = &mut self.signed[history_index(black, m)];
            *e = signed_update(*e, if at == last { bonus } else { -bonus });
        }
        self.step(Part::Sequencer, tried.len() as u64 + WALK_CLOCKS);
    }

    fn qsearch(&mut self, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[ply] = 0;
        if self.out_of_budget() {
            self.step(Part::Sequencer, 1);
            return 0;
        }
        self.nodes += 1;
        self.qnodes += 1;
        let pv_node = beta - alpha > 1;
        // The generator's mode depends on the in-check flag: evasions in check, else
        // captures while the unit computes the stand-pat score.
        self.wait_until(Part::InCheck, self.check_at);
        if ply >= MAX_PLY {
            self.step(Part::Sequencer, 1);
            return self.evaluate(ply);
        }
        let in_check = self.boards[ply].in_check();
        let n = self.generate(ply, !in_check);
        let mut best;
        if in_check {
            if n == 0 {
                return -(MATE - ply as i32);
            }
            best = -INF;
        } else {
            best = self.evaluate(ply);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let stand_pat = best;
        for i in 0..n {
            let m = self.lists[ply][i];
            self.step(Part::Sequencer, NEXT_MOVE_CLOCKS);
            if !in_check && futile_capture(&self.boards[ply], m, stand_pat, alpha) {
                continue;
            }
            self.make(ply, m, false);
            let s = -self.qsearch(ply + 1, -beta, -alpha);
            self.unmake();
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Exchanges the core's transposition table with `table` (a splitter's shared one).
    pub(super) fn swap_table(&mut self, table: &mut Table) {
        std::mem::swap(&mut self.tt, table);
    }

    /// Prepares the core for root moves handed to it one at a time by a splitter
    /// ([`super::cores`]), after a load: what GO does before its first iteration, with no
    /// budget.
    pub fn begin_split(&mut self) {
        self.limits = Limits::default();
        self.aborted = false;
        self.nodes = 0;
        self.qnodes = 0;
        self.sd = Controller::at_go(LOAD_CLOCKS);
        self.hashes.truncate(self.game_hashes + 1);
    }

    /// One root move handed to this core at clock `start` (the core idle from then): the
    /// move read and made, its subtree searched `depth` plies deep with the window
    /// `(alpha, beta)` as GO searches a root move, and taken back.
    pub fn search_root_move(
        &mut self,
        m: Move,
        depth: u32,
        alpha: i32,
        beta: i32,
        start: u64,
    ) -> RootSearch {
        self.t = start;
        self.g_ready = start;
        self.e_ready = start;
        self.check_at = start;
        self.hash_at = start;
        self.score_at = start;
        let nodes = self.nodes;
        self.step(Part::Sequencer, NEXT_MOVE_CLOCKS);
        self.make(0, m, true);
        let next = depth as i32 - 1 + i32::from(self.boards[1].in_check());
        let score = self.child(0, next, alpha, beta);
        let mut pv = vec![m];
        pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
        self.unmake();
        RootSearch {
            score,
            done: self.t,
            nodes: self.nodes - nodes,
            pv,
        }
    }

    /// GO: iterative deepening from the loaded position within `limits`; `on_iteration`
    /// hears each completed iteration. Clocks count from the load of the position.
    pub fn go(&mut self, limits: Limits, mut on_iteration: impl FnMut(&Report)) -> Outcome {
        self.limits = limits;
        self.aborted = false;
        self.nodes = 0;
        self.qnodes = 0;
        self.t = LOAD_CLOCKS;
        self.spent = Spent {
            load: LOAD_CLOCKS,
            ..Spent::default()
        };
        self.sd = Controller::at_go(LOAD_CLOCKS);
        self.g_ready = LOAD_CLOCKS;
        self.e_ready = LOAD_CLOCKS;
        self.check_at = LOAD_CLOCKS;
        self.hashes.truncate(self.game_hashes + 1);
        // The history halved, an entry a clock, before the root's GEN (the late-move pruning
        // build's signed history is kept within its bound by gravity instead).
        if !self.config.lmp {
            self.history.iter_mut().for_each(|h| *h /= 2);
            self.step(Part::Sequencer, AGE_CLOCKS);
        }
        let root = self.boards[0];
        let n = self.generate(0, false);
        let mut report = Report {
            depth: 0,
            score: if n == 0 && root.in_check() { -MATE } else { 0 },
            pv: Vec::new(),
            nodes: 0,
            clocks: self.t,
        };
        if n == 0 {
            return Outcome {
                best: None,
                report,
                nodes: 0,
                qnodes: 0,
                clocks: self.t,
                stopped: false,
                spent: self.spent,
            };
        }
        let mut roots: Vec<Move> = self.lists[0].iter().copied().collect();
        let mut best = roots[0];
        let mut stopped = false;
        let max_depth = limits.depth.clamp(1, MAX_PLY as u32 - 1);
        let mut last_score: i32 = 0;
        for depth in 1..=max_depth {
            // Aspiration: from depth 5 a window around the last score; a score outside it
            // searches the iteration again with the full window.
            let mut window = if depth >= ASPIRATION_DEPTH && last_score.abs() < MATE_BOUND {
                (last_score - ASPIRATION_CP, last_score + ASPIRATION_CP)
            } else {
                (-INF, INF)
            };
            let mut iter_best;
            let mut window_end;

            loop {
                let (lo, beta) = window;
                let mut alpha = lo;
                iter_best = None;
                self.nodes += 1;
                self.step(Part::Sequencer, WINDOW_CLOCKS);
                for (i, &m) in roots.iter().enumerate() {
                    self.step(Part::Sequencer, NEXT_MOVE_CLOCKS);
                    self.make(0, m, true);
                    let next = depth as i32 - 1 + i32::from(self.boards[1].in_check());
                    let mut s = if i == 0 {
                        self.child(0, next, alpha, beta)
                    } else {
                        self.child(0, next, alpha, alpha + 1)
                    };
                    if i > 0 && !self.aborted && s > alpha && s < beta {
                        self.remake(0, m);
                        s = self.child(0, next, alpha, beta);
                    }
                    self.unmake();
                    if self.aborted {
                        break;
                    }
                    if s > alpha {
                        alpha = s;
                        iter_best = Some((m, s));
                        self.update_pv(0, m);
                        if s >= beta {
                            break;
                        }
                    }
                }
                // The window's end is decided in a clock of its own.
                window_end = self.t;
                self.step(Part::Sequencer, WINDOW_CLOCKS);
                let inside = iter_best.is_some_and(|(_, s)| s > lo && s < beta);
                if self.aborted || inside || window == (-INF, INF) {
                    break;
                }
                window = (-INF, INF);
            }
            if self.aborted {
                // A move that beat the last iteration's best, fully searched, is kept.
                if let Some((m, _)) = iter_best {
                    if m != roots[0] {
                        best = m;
                    }
                }
                stopped = true;
                break;
            }
            let (m, score) = iter_best.expect("a root move is searched with a full window");
            best = m;
            last_score = score;
            report = Report {
                depth,
                score,
                pv: self.pv[0][..self.pv_len[0]].to_vec(),
                nodes: self.nodes,
                clocks: window_end,
            };
            // The best move first next time, the others in their order: a move in two
            // clocks (read, write), then the best move written at the front.
            let at = roots.iter().position(|r| *r == m).unwrap_or(0);
            roots[..=at].rotate_right(1);
            self.step(Part::Sequencer, 2 * at as u64 + ITERATION_CLOCKS);
            on_iteration(&report);
            // A mate within the iteration's depth is final.
            let plies = mate_in(score).map(|k| if k > 0 { 2 * k - 1 } else { -2 * k });
            if plies.is_some_and(|p| p as u32 <= depth) {
                break;
            }
        }
        Outcome {
            best: Some(best),
            report,
            nodes: self.nodes,
            qnodes: self.qnodes,
            clocks: self.t,
            stopped,
            spent: self.spent,
        }
    }
}

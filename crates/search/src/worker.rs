//! One search thread: iterative deepening with aspiration windows over a principal-variation
//! search with quiescence. Every thread of the Lazy SMP pool runs this; only the main thread
//! (id 0) watches the clock and reports.

use crate::history::{bonus, victim_of, History, PieceTo, NO_PIECE_TO};
use crate::limits::{IterationSignals, Limits, TimeBudget};
use crate::movepick::{piece_to, MovePicker, QuietContext};
use crate::score::*;
use crate::see::{capture_gain, see_ge};
use crate::threads::{Event, Info, Job, ScoreBound, Shared};
use crate::tt::{Bound, Tt, TtHit};
use chess::{Board, Move, MoveList, PieceKind};
use device::profile::{NoProbe, Probe, Section};
use device::{Evaluator, MoveGenDevice, SoftwareEval};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score from the last completed search of this move (`-INF` if not searched).
    pub score: i32,
    /// Score of the previous iteration.
    pub prev_score: i32,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
    /// Selective depth reached under it.
    pub seldepth: usize,
}

/// What a thread reports when it stops.
#[derive(Copy, Clone, Debug, Default)]
pub struct ThreadResult {
    /// Best move (`NULL` when there is none).
    pub best: Move,
    /// Expected reply.
    pub ponder: Move,
    /// Its score.
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
}

#[derive(Copy, Clone)]
struct Frame {
    eval: i32,
    mv: Move,
    pt: PieceTo,
    killers: [Move; 2],
    /// Move left out by a singular-extension verification search at this ply.
    excluded: Move,
    /// Double singular extensions on the path to this ply.
    doubles: u8,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            eval: 0,
            mv: Move::NULL,
            pt: NO_PIECE_TO,
            killers: [Move::NULL; 2],
            excluded: Move::NULL,
            doubles: 0,
        }
    }
}

/// What an interior node knows once it has probed the table and evaluated.
struct NodeFacts {
    key: u64,
    hit: Option<TtHit>,
    tt_move: Move,
    /// The TT move is a capture or promotion: quiet moves are less likely to matter.
    tt_capture: bool,
    /// The move a singular-extension verification search leaves out (`NULL`: none).
    excluded: Move,
    in_check: bool,
    ply: usize,
    /// `-INF` in check.
    static_eval: i32,
    /// The static evaluation refined by the table's bound ([`refined_eval`]).
    eval: i32,
    /// The static evaluation is better than two plies ago.
    improving: bool,
    /// The side to move has pieces besides pawns (null move and pruning are sound).
    npm: bool,
}

/// What the move loop knows of one move before it is played.
struct MoveFacts {
    m: Move,
    quiet: bool,
    gives_check: bool,
    /// Quiet-history score (0 for tactical moves).
    hist_score: i32,
    /// 1 for the first legal move searched here, and so on.
    legal: usize,
}

/// How a node's search ended, for the table.
struct Outcome {
    best: i32,
    best_move: Move,
    /// The best score rose above the original alpha (an exact score on PV nodes).
    raised_alpha: bool,
}

/// Offset of ply 0 in the frame stack, so `ply - 2` is always a valid index.
const OFS: usize = 2;
/// Most double singular extensions on one path (they could otherwise grow the tree without end).
const MAX_DOUBLES: u8 = 6;

/// One search thread's private state, generic over its two devices: the move generator `D`
/// and the evaluator `E`, which it reaches only through their interfaces, and over the probe
/// `P` that times its units for `estuary profile` ([`NoProbe`]: none, no cost).
pub struct Worker<D: MoveGenDevice, E: Evaluator = SoftwareEval, P: Probe = NoProbe> {
    /// 0 for the main thread.
    pub id: usize,
    dev: D,
    evaluator: E,
    probe: P,
    hist: History,
    stack: Vec<Frame>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: Vec<RootMove>,
    root_board: Board,
    nodes: u64,
    seldepth: usize,
    pv_idx: usize,
    root_depth: i32,
    lmr: Box<[[i32; 64]; 64]>,
    tt: Arc<Tt>,
    shared: Arc<Shared>,
    limits: Limits,
    budget: TimeBudget,
    stopped: bool,
}

impl<D: MoveGenDevice, E: Evaluator> Worker<D, E> {
    /// A thread's state around its own devices.
    pub fn new(id: usize, dev: D, evaluator: E, tt: Arc<Tt>, shared: Arc<Shared>) -> Worker<D, E> {
        Worker::with_probe(id, dev, evaluator, NoProbe, tt, shared)
    }
}

/// The late-move reduction of the `moves`-th move (counting from 1) at a node of `depth`:
/// `0.8 + ln(depth) ln(moves) / 2.4` plies, truncated (0 when either is 0). The search
/// machine's model takes its ROM from it too (`hw::chip::lmr_reduction`).
pub fn late_move_reduction(depth: u32, moves: u32) -> i32 {
    if depth == 0 || moves == 0 {
        return 0;
    }
    (0.8 + f64::from(depth).ln() * f64::from(moves).ln() / 2.4) as i32
}

impl<D: MoveGenDevice, E: Evaluator, P: Probe> Worker<D, E, P> {
    /// A thread's state around its own devices, its units timed by `probe`.
    pub fn with_probe(
        id: usize,
        dev: D,
        evaluator: E,
        probe: P,
        tt: Arc<Tt>,
        shared: Arc<Shared>,
    ) -> Worker<D, E, P> {
        let mut lmr = Box::new([[0i32; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                *r = late_move_reduction(d as u32, n as u32);
            }
        }
        Worker {
            id,
            dev,
            evaluator,
            probe,
            hist: History::default(),
            stack: vec![Frame::default(); MAX_PLY + OFS + 2],
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            root_moves: Vec::with_capacity(256),
            root_board: Board::startpos(),
            nodes: 0,
            seldepth: 0,
            pv_idx: 0,
            root_depth: 0,
            lmr,
            tt,
            shared,
            limits: Limits::default(),
            budget: TimeBudget::default(),
            stopped: false,
        }
    }

    /// Forgets the move-ordering statistics (new game).
    pub fn clear(&mut self) {
        self.hist.clear();
        self.evaluator.clear();
    }

    /// The root position of the current (or last) search.
    pub fn root(&self) -> Board {
        self.root_board
    }

    /// The move generator this worker drives.
    pub fn device(&self) -> &D {
        &self.dev
    }

    /// The evaluator this worker drives.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Runs a whole search for `job` and returns this thread's result.
    pub fn run(&mut self, job: &Job) -> ThreadResult {
        self.tt = job.tt.clone();
        self.limits = job.limits.clone();
        self.dev.load(&job.start);
        for &m in &job.moves {
            self.dev.make(m);
        }
        self.root_board = **self.dev.position();
        self.evaluator.set_network(self.shared.network());
        self.evaluator.load(&self.root_board);
        self.budget = TimeBudget::plan(
            &job.limits,
            self.root_board.side_to_move(),
            job.move_overhead,
        );
        self.nodes = 0;
        self.publish_nodes();
        self.stopped = false;
        for f in self.stack.iter_mut() {
            *f = Frame::default();
        }
        let mut list = MoveList::new();
        self.dev.generate(chess::GenMode::All, &mut list);
        self.root_moves.clear();
        for &m in list.iter() {
            if job.limits.searchmoves.is_empty() || job.limits.searchmoves.contains(&m) {
                self.root_moves.push(RootMove {
                    mv: m,
                    score: -INF,
                    prev_score: -INF,
                    pv: vec![m],
                    seldepth: 0,
                });
            }
        }
        if self.root_moves.is_empty() {
            if self.is_main() {
                let score = if self.dev.in_check() { -MATE } else { DRAW };
                let info = Info {
                    depth: 0,
                    seldepth: 0,
                    multipv: 1,
                    score,
                    bound: ScoreBound::Exact,
                    nodes: 0,
                    nps: 0,
                    hashfull: 0,
                    time_ms: self.shared.elapsed_ms(),
                    pv: Vec::new(),
                };
                (job.listener)(&self.root_board, Event::Info(info));
            }
            return ThreadResult {
                best: Move::NULL,
                ponder: Move::NULL,
                score: -INF,
                depth: 0,
            };
        }
        self.iterate(job)
    }

    fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Relaxed);
    }

    fn iterate(&mut self, job: &Job) -> ThreadResult {
        let multipv = job.multipv.clamp(1, self.root_moves.len());
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let mut completed = 0;
        let mut last_best = Move::NULL;
        let mut signals = IterationSignals::default();
        let mut iteration_end = 0;
        let mut result = ThreadResult {
            best: self.root_moves[0].mv,
            ponder: Move::NULL,
            score: -INF,
            depth: 0,
        };
        let mut depth = 1;
        while depth <= max_depth {
            self.root_depth = depth;
            for rm in self.root_moves.iter_mut() {
                if rm.score != -INF {
                    rm.prev_score = rm.score;
                }
                rm.score = -INF;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = 18;
                let (mut alpha, mut beta) = if depth >= 4 && prev > -INF {
                    ((prev - delta).max(-INF), (prev + delta).min(INF))
                } else {
                    (-INF, INF)
                };
                loop {
                    let score = self.search_root(alpha, beta, depth);
                    self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if self.stopped {
                        break;
                    }
                    let bound = if score <= alpha {
                        ScoreBound::Upper
                    } else if score >= beta {
                        ScoreBound::Lower
                    } else {
                        ScoreBound::Exact
                    };
                    if bound != ScoreBound::Exact
                        && self.is_main()
                        && self.shared.elapsed_ms() > 3000
                    {
                        self.report(job, pv_idx, depth, bound);
                    }
                    match bound {
                        ScoreBound::Upper => {
                            beta = (alpha + beta) / 2;
                            alpha = (score - delta).max(-INF);
                        }
                        ScoreBound::Lower => beta = (score + delta).min(INF),
                        ScoreBound::Exact => break,
                    }
                    delta += delta / 2 + 5;
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped && completed > 0 {
                // An interrupted iteration still counts where its first line finished: that
                // move has a real score at this depth (it may be a new best that beat the old).
                let first = &self.root_moves[0];
                if first.score != -INF {
                    result.best = first.mv;
                    result.ponder = first.pv.get(1).copied().unwrap_or(Move::NULL);
                    result.score = first.score;
                }
                break;
            }
            completed = depth;
            let best = &self.root_moves[0];
            result = ThreadResult {
                best: best.mv,
                ponder: best.pv.get(1).copied().unwrap_or(Move::NULL),
                score: best.score,
                depth,
            };
            if self.is_main() {
                for i in 0..multipv {
                    self.report(job, i, depth, ScoreBound::Exact);
                }
            }
            if self.stopped {
                break;
            }
            let kept = best.mv == last_best;
            last_best = best.mv;
            let now = self.shared.elapsed_ms();
            // The clock restarts at `ponderhit`: an iteration may seem to end before it began.
            signals = signals.next(
                completed <= 1,
                kept,
                best.score,
                now.saturating_sub(iteration_end),
            );
            iteration_end = now;
            if self.is_main() && self.should_stop_after_iteration(now, &signals) {
                self.shared.stop.store(true, Relaxed);
                break;
            }
            depth += 1;
        }
        self.publish_nodes();
        result
    }

    /// Main thread, between iterations at `now` ms: stop for `go mate`, the node limit or the
    /// time budget.
    fn should_stop_after_iteration(&self, now: u64, signals: &IterationSignals) -> bool {
        if let Some(n) = self.limits.mate {
            let best = signals.score;
            if best >= MATE_BOUND && mate_moves(best) <= n as i32 {
                return true;
            }
        }
        if let Some(n) = self.limits.nodes {
            if self.shared.total_nodes() >= n {
                return true;
            }
        }
        if self.shared.ponder.load(Relaxed) || self.limits.infinite {
            return false;
        }
        self.budget.stop_after_iteration(now, signals)
    }

    fn report(&self, job: &Job, i: usize, depth: i32, bound: ScoreBound) {
        let rm = &self.root_moves[i];
        let (score, d) = if rm.score == -INF {
            (rm.prev_score, (depth - 1).max(1))
        } else {
            (rm.score, depth)
        };
        if score == -INF {
            return;
        }
        self.publish_nodes();
        let time = self.shared.elapsed_ms();
        let nodes = self.shared.total_nodes();
        let info = Info {
            depth: d,
            seldepth: rm.seldepth.max(d as usize),
            multipv: i + 1,
            score,
            bound,
            nodes,
            nps: nodes * 1000 / time.max(1),
            hashfull: self.tt.hashfull(),
            time_ms: time,
            pv: rm.pv.clone(),
        };
        (job.listener)(&self.root_board, Event::Info(info));
    }

    /// Polls the stop flag and, on the main thread, the clock and node limit.
    #[inline(always)]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0 {
            self.publish_nodes();
            if self.is_main() && self.root_depth > 1 {
                let over_time = match self.budget.hard {
                    Some(h) => {
                        !self.shared.ponder.load(Relaxed)
                            && !self.limits.infinite
                            && self.shared.elapsed_ms() >= h
                    }
                    None => false,
                };
                let over_nodes = self
                    .limits
                    .nodes
                    .is_some_and(|n| self.shared.total_nodes() >= n);
                if over_time || over_nodes {
                    self.shared.stop.store(true, Relaxed);
                }
            }
        }
        if self.shared.stop.load(Relaxed) && self.root_depth > 1 {
            self.stopped = true;
        }
        self.stopped
    }

    #[inline(always)]
    fn make(&mut self, m: Move, ply: usize) {
        let pt = piece_to(self.dev.position(), m);
        let f = &mut self.stack[ply + OFS];
        f.mv = m;
        f.pt = pt;
        self.nodes += 1;
        self.dev.make(m);
        let pos = self.dev.position();
        // The mirror's history ends with the board the move was played from.
        let before = pos.history().last().unwrap_or(pos.board());
        self.evaluator.make(m, before, pos);
    }

    /// Null move: the pieces stay.
    #[inline(always)]
    fn make_null(&mut self) {
        self.nodes += 1;
        self.dev.make_null();
        self.evaluator.make_null();
    }

    #[inline(always)]
    fn unmake(&mut self) {
        self.dev.unmake();
        self.evaluator.unmake();
    }

    /// The static evaluation the search uses: the evaluator's score, scaled down in drawish
    /// endgames and kept clear of mate scores.
    #[inline(always)]
    fn eval(&mut self) -> i32 {
        self.probe.begin(Section::EvalScaling);
        let pos = self.dev.position();
        let v = self.evaluator.evaluate(pos);
        let v = eval::drawish::adjust(pos, v).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        self.probe.end();
        v
    }

    /// `f`, timed as `section`.
    #[inline(always)]
    fn timed<T>(&self, section: Section, f: impl FnOnce(&Self) -> T) -> T {
        self.probe.begin(section);
        let v = f(self);
        self.probe.end();
        v
    }

    /// The next move of `picker`, timed as move ordering.
    #[inline(always)]
    fn next_move(&mut self, picker: &mut MovePicker) -> Option<Move> {
        self.probe.begin(Section::Ordering);
        let m = picker.next(&mut self.dev, &self.hist);
        self.probe.end();
        m
    }

    fn has_non_pawn_material(b: &Board) -> bool {
        let us = b.side_to_move();
        (b.pieces(us, PieceKind::Knight)
            | b.pieces(us, PieceKind::Bishop)
            | b.pieces(us, PieceKind::Rook)
            | b.pieces(us, PieceKind::Queen))
        .any()
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn search_root(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let mut best = -INF;
        let in_check = self.dev.in_check();
        self.stack[OFS].eval = if in_check { -INF } else { self.eval() };
        self.pv_len[0] = 0;
        let first = self.pv_idx;
        for i in first..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.is_main() && self.check_stop() {
                break;
            }
            self.pv_len[1] = 1;
            self.make(m, 0);
            let new_depth = depth - 1;
            let mut score;
            if i == first {
                score = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
            } else {
                let quiet = !m.is_tactical();
                let r = if depth >= 3 && quiet && i >= first + 3 {
                    (self.lmr[depth.min(63) as usize][i.min(63)] - 1).max(0)
                } else {
                    0
                };
                score = -self.search::<false>(-alpha - 1, -alpha, new_depth - r, 1, true);
                if score > alpha && r > 0 {
                    score = -self.search::<false>(-alpha - 1, -alpha, new_depth, 1, false);
                }
                if score > alpha && score < beta {
                    score = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
                }
            }
            self.unmake();
            if self.stopped {
                break;
            }
            let rm_idx = i;
            if i == first || score > alpha {
                let mut line = Vec::with_capacity(self.pv_len[1].max(1));
                line.push(m);
                for k in 1..self.pv_len[1] {
                    line.push(self.pv[1][k]);
                }
                let rm = &mut self.root_moves[rm_idx];
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv = line;
            } else {
                self.root_moves[rm_idx].score = -INF;
            }
            if score > best {
                best = score;
                if score > alpha {
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        best
    }

    /// An interior node: the guards of [`Worker::enter_search`], the table's verdict, the
    /// pruning of the whole node ([`Worker::prune_node`]), then the moves
    /// ([`Worker::search_moves`]).
    fn search<const PV: bool>(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let in_check = self.dev.in_check();
        if in_check {
            depth += 1; // check extension
        }
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply);
        }
        if let Some(v) = self.enter_search::<PV>(&mut alpha, &mut beta, ply, in_check) {
            return v;
        }
        let key = self.dev.position().hash();
        let excluded = self.stack[ply + OFS].excluded;
        // A verification search without the TT move must not trust or overwrite its entry.
        let hit = if excluded == Move::NULL {
            self.timed(Section::Tt, |w| w.tt.probe(key))
        } else {
            None
        };
        if let Some(h) = hit {
            if !PV && h.depth >= depth {
                if let Some(s) = tt_cutoff(h, alpha, beta, ply) {
                    return s;
                }
            }
        }
        let node = self.node_facts(key, hit, excluded, in_check, ply);
        if !PV && !in_check && excluded == Move::NULL {
            if let Some(v) = self.prune_node(&node, alpha, beta, depth, cut_node) {
                return v;
            }
        }
        // Internal iterative reduction: no TT move, a shallower look is cheaper.
        if depth >= 4 && node.tt_move == Move::NULL && (PV || cut_node) {
            depth -= 1;
        }
        self.search_moves::<PV>(&node, alpha, beta, depth, cut_node)
    }

    /// The checks every interior node makes before the table: the stop flag and draws
    /// ([`Worker::enter_node`]), the ply limit and mate-distance pruning (which narrows the
    /// window). Returns the score to return at once, if any.
    #[inline(always)]
    fn enter_search<const PV: bool>(
        &mut self,
        alpha: &mut i32,
        beta: &mut i32,
        ply: usize,
        in_check: bool,
    ) -> Option<i32> {
        if let Some(v) = self.enter_node::<PV>(ply) {
            return Some(v);
        }
        if ply >= MAX_PLY - 1 {
            return Some(if in_check { DRAW } else { self.eval() });
        }
        *alpha = (*alpha).max(-MATE + ply as i32);
        *beta = (*beta).min(MATE - ply as i32 - 1);
        (*alpha >= *beta).then_some(*alpha)
    }

    /// What a node knows before it looks at moves: the table's entry, the static evaluation
    /// (recorded on the stack for the `improving` test two plies down) and the material.
    #[inline(always)]
    fn node_facts(
        &mut self,
        key: u64,
        hit: Option<TtHit>,
        excluded: Move,
        in_check: bool,
        ply: usize,
    ) -> NodeFacts {
        let tt_move = hit.map_or(Move::NULL, |h| h.mv);
        let static_eval = if in_check {
            -INF
        } else {
            hit.map_or_else(|| self.eval(), |h| h.eval)
        };
        let eval = if in_check {
            static_eval
        } else {
            refined_eval(static_eval, hit, ply)
        };
        self.stack[ply + OFS].eval = static_eval;
        self.stack[ply + 1 + OFS].killers = [Move::NULL; 2];
        NodeFacts {
            key,
            hit,
            tt_move,
            // When the best move known is a capture, quiet moves are less likely to matter.
            tt_capture: tt_move != Move::NULL && tt_move.is_tactical(),
            excluded,
            in_check,
            ply,
            static_eval,
            eval,
            improving: !in_check && ply >= 2 && static_eval > self.stack[ply + OFS - 2].eval,
            npm: Self::has_non_pawn_material(self.dev.position()),
        }
    }

    /// Cuts a whole non-PV node not in check before its moves: razoring, reverse futility and
    /// the null move. Returns the node's score when one of them applies.
    #[inline(always)]
    fn prune_node(
        &mut self,
        node: &NodeFacts,
        alpha: i32,
        beta: i32,
        depth: i32,
        cut_node: bool,
    ) -> Option<i32> {
        let (eval, ply) = (node.eval, node.ply);
        // Razoring: far below alpha at low depth, ask quiescence whether anything helps.
        if depth <= 3 && eval + 200 + 250 * depth <= alpha {
            let v = self.qsearch::<false>(alpha, alpha + 1, ply);
            if self.stopped {
                return Some(0);
            }
            if v <= alpha {
                return Some(v);
            }
        }
        // Reverse futility pruning.
        if depth <= 8 && eval - 80 * (depth - node.improving as i32) >= beta && eval < MATE_BOUND {
            return Some(eval);
        }
        // Null move, guarded against zugzwang by requiring non-pawn material.
        if depth >= 3
            && eval >= beta
            && node.static_eval >= beta - 20
            && node.npm
            && self.stack[ply + OFS - 1].mv != Move::NULL
            && beta > -MATE_BOUND
        {
            let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
            let f = &mut self.stack[ply + OFS];
            f.mv = Move::NULL;
            f.pt = NO_PIECE_TO;
            self.stack[ply + 1 + OFS].doubles = self.stack[ply + OFS].doubles;
            self.make_null();
            let score = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
            self.unmake();
            if self.stopped {
                return Some(0);
            }
            if score >= beta {
                return Some(if score >= MATE_BOUND { beta } else { score });
            }
        }
        None
    }

    /// The move loop of an interior node: each move pruned or searched (extended, reduced,
    /// re-searched), the best kept; a cutoff rewards the move that made it.
    fn search_moves<const PV: bool>(
        &mut self,
        node: &NodeFacts,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        cut_node: bool,
    ) -> i32 {
        let ply = node.ply;
        let prev1 = self.stack[ply + OFS - 1].pt;
        let prev2 = self.stack[ply + OFS - 2].pt;
        let ctx = QuietContext {
            killers: self.stack[ply + OFS].killers,
            counter: self.hist.counter(prev1),
            prev1,
            prev2,
        };
        let mut picker = MovePicker::new(node.tt_move, node.in_check, ctx);
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut legal = 0usize;
        let mut quiets = MoveList::new();
        let mut captures = MoveList::new();
        let orig_alpha = alpha;
        let side = self.dev.position().side_to_move();

        while let Some(m) = self.next_move(&mut picker) {
            if m == node.excluded {
                continue;
            }
            legal += 1;
            let quiet = !m.is_tactical();
            let gives_check = self.timed(Section::Attacks, |w| w.dev.position().gives_check(m));
            let hist_score = if quiet {
                self.timed(Section::Ordering, |w| {
                    let pt = piece_to(w.dev.position(), m);
                    w.hist.quiet_score(side, m, pt, prev1, prev2)
                })
            } else {
                0
            };
            let mv = MoveFacts {
                m,
                quiet,
                gives_check,
                hist_score,
                legal,
            };
            if best > -MATE_BOUND
                && node.npm
                && legal > 1
                && self.prune_move(node, &mv, alpha, depth, &mut picker)
            {
                continue;
            }
            let extension = match self.extension::<PV>(node, m, beta, depth, cut_node) {
                Ok(e) => e,
                Err(v) => return v,
            };
            self.stack[ply + 1 + OFS].doubles =
                self.stack[ply + OFS].doubles + (extension == 2) as u8;
            self.make(m, ply);
            let new_depth = depth - 1 + extension;
            let score = if legal == 1 {
                -self.search::<PV>(-beta, -alpha, new_depth, ply + 1, false)
            } else {
                let window = (alpha, beta, best);
                self.search_later_move::<PV>(node, &mv, &ctx, window, depth, new_depth, cut_node)
            };
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        let tried = (&quiets, &captures);
                        self.probe.begin(Section::Ordering);
                        self.reward_cutoff(m, quiet, tried, depth, ply, side, prev1, prev2);
                        self.probe.end();
                        break;
                    }
                    alpha = score;
                }
            }
            if m != best_move {
                if quiet {
                    quiets.push(m);
                } else {
                    captures.push(m);
                }
            }
        }

        if legal == 0 {
            return if node.excluded != Move::NULL {
                alpha
            } else if node.in_check {
                -MATE + ply as i32
            } else {
                DRAW
            };
        }
        if node.excluded != Move::NULL {
            return best;
        }
        let outcome = Outcome {
            best,
            best_move,
            raised_alpha: alpha > orig_alpha,
        };
        self.conclude::<PV>(node.key, ply, node.static_eval, outcome, beta, depth)
    }

    /// Move-count, futility, history and SEE pruning of one move (not the first, and not when
    /// every score so far is a mate against us). True: skip the move (the picker may be told
    /// to skip the remaining quiet moves too).
    #[inline(always)]
    fn prune_move(
        &self,
        node: &NodeFacts,
        mv: &MoveFacts,
        alpha: i32,
        depth: i32,
        picker: &mut MovePicker,
    ) -> bool {
        let pos = self.dev.position();
        if mv.quiet && !mv.gives_check {
            // Late move pruning.
            let lmp = (4 + depth * depth) / (2 - node.improving as i32);
            if mv.legal as i32 > lmp {
                picker.skip_quiets = true;
                return true;
            }
            // Futility pruning.
            if !node.in_check && depth <= 6 && node.static_eval + 90 + 100 * depth <= alpha {
                picker.skip_quiets = true;
                return true;
            }
            (depth <= 3 && mv.hist_score < -3000 * depth)
                || (depth <= 6
                    && !self.timed(Section::Attacks, |_| see_ge(pos, mv.m, -30 * depth * depth)))
        } else {
            !mv.quiet
                && depth <= 6
                && !self.timed(Section::Attacks, |_| see_ge(pos, mv.m, -90 * depth))
        }
    }

    /// Singular extension of the TT move: when every other move falls well short of its
    /// score, it is searched one ply deeper (two, a bounded number of times on a path, when
    /// far short); when even the others beat beta, the node is cut (multi-cut, `Err` with
    /// the score); when they come close and the TT move is expected to fail high, one ply
    /// less. `Err(0)` also when the search was stopped.
    #[inline(always)]
    fn extension<const PV: bool>(
        &mut self,
        node: &NodeFacts,
        m: Move,
        beta: i32,
        depth: i32,
        cut_node: bool,
    ) -> Result<i32, i32> {
        let ply = node.ply;
        if m != node.tt_move || depth < 8 || (ply as i32) >= 2 * self.root_depth {
            return Ok(0);
        }
        let Some(h) = node.hit else {
            return Ok(0);
        };
        if h.depth < depth - 3 || h.bound == Bound::Upper || is_mate(h.score) {
            return Ok(0);
        }
        let singular_beta = from_tt(h.score, ply) - 2 * depth;
        self.stack[ply + OFS].excluded = m;
        let v = self.search::<false>(
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            cut_node,
        );
        self.stack[ply + OFS].excluded = Move::NULL;
        if self.stopped {
            return Err(0);
        }
        if v < singular_beta {
            let doubles = self.stack[ply + OFS].doubles;
            Ok(if !PV && v < singular_beta - 20 && doubles < MAX_DOUBLES {
                2
            } else {
                1
            })
        } else if singular_beta >= beta {
            Err(singular_beta)
        } else if from_tt(h.score, ply) >= beta {
            Ok(-1)
        } else {
            Ok(0)
        }
    }

    /// A move after the first: a null-window search, reduced for late quiet moves, searched
    /// again at full depth when it beats alpha, and with the full window on PV nodes when it
    /// falls inside it. `window` is (alpha, beta, best score so far).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_later_move<const PV: bool>(
        &mut self,
        node: &NodeFacts,
        mv: &MoveFacts,
        ctx: &QuietContext,
        (alpha, beta, best): (i32, i32, i32),
        depth: i32,
        new_depth: i32,
        cut_node: bool,
    ) -> i32 {
        let ply = node.ply;
        let mut r = 0;
        if depth >= 3 && mv.legal > 1 + PV as usize && mv.quiet {
            r = self.lmr[depth.min(63) as usize][mv.legal.min(63)];
            r -= PV as i32;
            r += !node.improving as i32;
            r += cut_node as i32;
            r += node.tt_capture as i32;
            r -= mv.gives_check as i32;
            r -= mv.hist_score / 6000;
            if mv.m == ctx.killers[0] || mv.m == ctx.killers[1] || mv.m == ctx.counter {
                r -= 1;
            }
            r = r.clamp(0, new_depth - 1);
        }
        let mut score = -self.search::<false>(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
        if score > alpha && r > 0 {
            // A reduced move that beat alpha by a lot is searched deeper than planned, one
            // that barely beat the best score so far a little shallower.
            let deeper = score > best + 40 + 2 * new_depth;
            let shallower = score < best + 8;
            let d = new_depth + deeper as i32 - shallower as i32;
            score = -self.search::<false>(-alpha - 1, -alpha, d, ply + 1, !cut_node);
        }
        if PV && score > alpha && score < beta {
            score = -self.search::<true>(-beta, -alpha, new_depth, ply + 1, false);
        }
        score
    }

    /// A beta cutoff by `m`: its history (quiet or capture) rises, the moves tried before it
    /// fall, and a quiet one becomes a killer and the countermove.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn reward_cutoff(
        &mut self,
        m: Move,
        quiet: bool,
        (quiets, captures): (&MoveList, &MoveList),
        depth: i32,
        ply: usize,
        side: chess::Color,
        prev1: PieceTo,
        prev2: PieceTo,
    ) {
        let b = bonus(depth);
        if quiet {
            let pt = piece_to(self.dev.position(), m);
            self.hist.update_quiet(side, m, pt, prev1, prev2, b);
            for &q in quiets.iter() {
                let qpt = piece_to(self.dev.position(), q);
                self.hist.update_quiet(side, q, qpt, prev1, prev2, -b);
            }
            let f = &mut self.stack[ply + OFS];
            if f.killers[0] != m {
                f.killers[1] = f.killers[0];
                f.killers[0] = m;
            }
            self.hist.set_counter(prev1, m);
        } else {
            self.update_capture(m, b);
        }
        for &c in captures.iter() {
            self.update_capture(c, -b);
        }
    }

    /// The end of a searched node, interior or quiescence: the bound its best score is,
    /// stored in the table with the best move and the static evaluation.
    #[inline(always)]
    fn conclude<const PV: bool>(
        &mut self,
        key: u64,
        ply: usize,
        static_eval: i32,
        outcome: Outcome,
        beta: i32,
        depth: i32,
    ) -> i32 {
        let Outcome {
            best,
            best_move,
            raised_alpha,
        } = outcome;
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && raised_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = static_eval.clamp(-MATE, MATE);
        self.timed(Section::Tt, |w| {
            w.tt.store(key, best_move, to_tt(best, ply), stored_eval, depth, bound)
        });
        best
    }

    /// Adds `bonus` to the capture history of the tactical move `m` (not yet played).
    #[inline]
    fn update_capture(&mut self, m: Move, bonus: i32) {
        let pos = self.dev.position();
        let (pt, victim) = (piece_to(pos, m), victim_of(pos, m));
        self.hist.update_capture(pt, victim, bonus);
    }

    /// Shared node entry: PV bookkeeping, the stop check and draws by rule. Returns the score
    /// to return at once, if any.
    #[inline(always)]
    fn enter_node<const PV: bool>(&mut self, ply: usize) -> Option<i32> {
        if PV {
            self.pv_len[ply] = ply;
            self.seldepth = self.seldepth.max(ply);
        }
        if self.check_stop() {
            return Some(0);
        }
        let pos = self.dev.position();
        if pos.halfmove_clock() >= 100 || pos.is_insufficient_material() || pos.is_repetition() {
            return Some(DRAW);
        }
        None
    }

    fn qsearch<const PV: bool>(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if let Some(v) = self.enter_node::<PV>(ply) {
            return v;
        }
        let in_check = self.dev.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.eval() };
        }
        let key = self.dev.position().hash();
        let hit = self.timed(Section::Tt, |w| w.tt.probe(key));
        if let Some(h) = hit {
            if !PV {
                if let Some(s) = tt_cutoff(h, alpha, beta, ply) {
                    return s;
                }
            }
        }
        let mut best;
        let static_eval;
        if in_check {
            best = -INF;
            static_eval = -INF;
        } else {
            static_eval = hit.map_or_else(|| self.eval(), |h| h.eval);
            best = refined_eval(static_eval, hit, ply);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let orig_alpha = alpha;
        let mut best_move = Move::NULL;
        let mut picker = MovePicker::qsearch(hit.map_or(Move::NULL, |h| h.mv), in_check);
        let mut legal = 0;
        while let Some(m) = self.next_move(&mut picker) {
            legal += 1;
            if !in_check {
                let pos = self.dev.position();
                // Delta pruning: even winning the piece cannot reach alpha.
                if m.promotion().is_none() && static_eval + capture_gain(pos, m) + 180 <= alpha {
                    continue;
                }
                if !self.timed(Section::Attacks, |_| see_ge(pos, m, 0)) {
                    continue;
                }
            }
            self.make(m, ply);
            let score = -self.qsearch::<PV>(-beta, -alpha, ply + 1);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        let outcome = Outcome {
            best,
            best_move,
            raised_alpha: alpha > orig_alpha,
        };
        self.conclude::<PV>(key, ply, static_eval, outcome, beta, 0)
    }
}

/// The table's score when its bound alone settles a node searched with (`alpha`, `beta`).
#[inline(always)]
fn tt_cutoff(h: TtHit, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    let s = from_tt(h.score, ply);
    let settled = match h.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    settled.then_some(s)
}

/// The static evaluation, or the TT score where its bound says the position is worth more
/// (lower bound above it) or less (upper bound below it), or it is exact: a better guess for
/// pruning and the quiescence stand-pat. Mate scores are left out.
fn refined_eval(static_eval: i32, hit: Option<TtHit>, ply: usize) -> i32 {
    match hit {
        Some(h) if !is_mate(h.score) => {
            let s = from_tt(h.score, ply);
            match h.bound {
                Bound::Exact => s,
                Bound::Lower if s > static_eval => s,
                Bound::Upper if s < static_eval => s,
                _ => static_eval,
            }
        }
        _ => static_eval,
    }
}

//! The evaluation boundary: the narrow interface the search evaluates through, and its
//! software backends.
//!
//! An evaluation unit follows the game the way the move generator does: the host loads a
//! position, then sends every make, null move and unmake, and asks for the evaluation of the
//! current position. A network evaluator keeps its accumulators on a stack inside the unit (so
//! unmake is a pointer move); the hand-crafted evaluation only needs the board. The search
//! sees nothing but [`Evaluator`], generic over it, so the software backends cost nothing and
//! a co-simulated unit plugs into the same search.
//!
//! Backends:
//! - [`HandCraftedEval`]: the tapered hand-crafted terms (`eval::evaluate`, pawn cache).
//! - [`NnueEval`]: the network alone, incrementally updated; AVX2 or scalar kernels as the
//!   network chooses (`Network::set_avx2`), the same bits either way.
//! - [`HybridEval`]: the network's output added to the hand-crafted terms (the net is trained
//!   on the residual).
//! - [`ChipEval`]: a chip net (`eval::chip`), the evaluation unit's network, in software.
//! - [`SoftwareEval`]: one of these, chosen at run time by the network the search is given
//!   ([`Evaluator::set_network`]): none, a net or a chip net, plain or hybrid.
//!
//! [`Evaluator::evaluate`] returns the evaluator's own score in centipawns for the side to
//! move; what the search does with it (drawish scaling, clamping away from mate scores) is
//! the search's business.

use chess::{Board, Move};
use eval::chip::{ChipAcc, ChipNet};
use eval::nnue::{Accumulator, Network, PieceBoards};
use eval::Net;
use std::sync::Arc;

/// What an evaluation backend has done, for reports of the boundary's cost.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalStats {
    /// Positions loaded whole.
    pub loads: u64,
    /// make calls.
    pub makes: u64,
    /// make_null calls.
    pub nulls: u64,
    /// unmake calls.
    pub unmakes: u64,
    /// evaluate calls.
    pub evals: u64,
    /// 32-bit words moved across the boundary (both directions).
    pub words: u64,
    /// Device clock cycles spent (0 for backends without a clock).
    pub cycles: u64,
}

/// The evaluation device interface: load, make, null, unmake, evaluate.
pub trait Evaluator {
    /// Loads a whole position (and forgets the make/unmake history).
    fn load(&mut self, board: &Board);
    /// Follows the legal move `m`, which took `before` to `after` (a hardware unit needs only
    /// the move; software backends read what changed from the two boards).
    fn make(&mut self, m: Move, before: &Board, after: &Board);
    /// Follows a null move (the pieces stay).
    fn make_null(&mut self);
    /// Takes back the last make or make_null.
    fn unmake(&mut self);
    /// The evaluation of `board`, the current position, in centipawns for the side to move.
    fn evaluate(&mut self, board: &Board) -> i32;
    /// Chooses the network of the following searches (`None`: none). Backends whose network
    /// is fixed, as a hardware unit's is, ignore it.
    fn set_network(&mut self, _net: Option<Net>) {}
    /// Forgets caches between games.
    fn clear(&mut self) {}
    /// Traffic counters so far (all zero for software backends).
    fn stats(&self) -> EvalStats {
        EvalStats::default()
    }
    /// A short name for reports (`hand-crafted`, `nnue`, ...).
    fn name(&self) -> &'static str;
}

/// The hand-crafted evaluation with its pawn-structure cache.
#[derive(Default)]
pub struct HandCraftedEval {
    pawns: eval::PawnCache,
}

impl Evaluator for HandCraftedEval {
    #[inline(always)]
    fn load(&mut self, _board: &Board) {}
    #[inline(always)]
    fn make(&mut self, _m: Move, _before: &Board, _after: &Board) {}
    #[inline(always)]
    fn make_null(&mut self) {}
    #[inline(always)]
    fn unmake(&mut self) {}
    #[inline(always)]
    fn evaluate(&mut self, board: &Board) -> i32 {
        eval::evaluate_cached(board, &mut self.pawns)
    }
    fn clear(&mut self) {
        self.pawns.clear();
    }
    fn name(&self) -> &'static str {
        "hand-crafted"
    }
}

/// Accumulator stack depth: one per ply the search can play from the root, with room.
const STACK: usize = 136;

/// The network on its own: a stack of accumulators updated by the pieces each move changes.
pub struct NnueEval {
    net: Arc<Network>,
    /// `accs[top]` belongs to the current position.
    accs: Box<[Accumulator]>,
    top: usize,
}

impl NnueEval {
    /// An evaluator running `net` (its accumulators are filled by [`Evaluator::load`]).
    pub fn new(net: Arc<Network>) -> NnueEval {
        NnueEval {
            net,
            accs: vec![Accumulator::default(); STACK].into_boxed_slice(),
            top: 0,
        }
    }

    /// The network it runs.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// The accumulators of the current position (for tests and co-simulation checks).
    pub fn accumulator(&self) -> &Accumulator {
        &self.accs[self.top]
    }

    /// Replaces the network (the accumulators are stale until the next load).
    fn replace(&mut self, net: Arc<Network>) {
        self.net = net;
    }
}

impl Evaluator for NnueEval {
    fn load(&mut self, board: &Board) {
        self.top = 0;
        self.accs[0].refresh(&self.net, board);
    }
    #[inline(always)]
    fn make(&mut self, _m: Move, before: &Board, after: &Board) {
        let (before, after) = (PieceBoards::of(before), PieceBoards::of(after));
        let (done, next) = self.accs.split_at_mut(self.top + 1);
        next[0].update_from(&done[self.top], &self.net, &before, &after);
        self.top += 1;
    }
    #[inline(always)]
    fn make_null(&mut self) {
        self.accs[self.top + 1] = self.accs[self.top];
        self.top += 1;
    }
    #[inline(always)]
    fn unmake(&mut self) {
        self.top -= 1;
    }
    #[inline(always)]
    fn evaluate(&mut self, board: &Board) -> i32 {
        self.net
            .evaluate(&self.accs[self.top], board.side_to_move())
    }
    fn name(&self) -> &'static str {
        "nnue"
    }
}

/// A chip net (`eval::chip`) on its own, in software: the evaluation unit's reference, with
/// the same stack of accumulators the unit keeps (a hybrid chip net's hand-crafted part is
/// added by a [`HybridEval`] around it).
pub struct ChipEval {
    net: Arc<ChipNet>,
    accs: Box<[ChipAcc]>,
    top: usize,
}

impl ChipEval {
    /// An evaluator running `net` (its accumulators are filled by [`Evaluator::load`]).
    pub fn new(net: Arc<ChipNet>) -> ChipEval {
        ChipEval {
            net,
            accs: vec![ChipAcc::default(); STACK].into_boxed_slice(),
            top: 0,
        }
    }

    /// The network it runs.
    pub fn network(&self) -> &Arc<ChipNet> {
        &self.net
    }

    /// The accumulators of the current position (co-simulation compares them).
    pub fn accumulator(&self) -> &ChipAcc {
        &self.accs[self.top]
    }
}

impl Evaluator for ChipEval {
    fn load(&mut self, board: &Board) {
        self.top = 0;
        self.net.refresh(&mut self.accs[0], board);
    }
    #[inline(always)]
    fn make(&mut self, _m: Move, before: &Board, after: &Board) {
        let (before, after) = (PieceBoards::of(before), PieceBoards::of(after));
        let (done, next) = self.accs.split_at_mut(self.top + 1);
        self.net
            .update(&mut next[0], &done[self.top], &before, &after);
        self.top += 1;
    }
    #[inline(always)]
    fn make_null(&mut self) {
        self.accs[self.top + 1] = self.accs[self.top];
        self.top += 1;
    }
    #[inline(always)]
    fn unmake(&mut self) {
        self.top -= 1;
    }
    #[inline(always)]
    fn evaluate(&mut self, board: &Board) -> i32 {
        self.net
            .evaluate(&self.accs[self.top], board.side_to_move())
    }
    fn name(&self) -> &'static str {
        "chip"
    }
}

/// A network's output added to another evaluator's score: with the defaults, a hybrid net's
/// correction on top of the hand-crafted terms. Generic so that a profile can time each part.
pub struct HybridEval<N = NnueEval, H = HandCraftedEval> {
    /// The network part.
    pub net: N,
    /// The hand-crafted part.
    pub terms: H,
}

impl HybridEval {
    /// The hybrid of `net` and the hand-crafted evaluation.
    pub fn new(net: Arc<Network>) -> HybridEval {
        HybridEval {
            net: NnueEval::new(net),
            terms: HandCraftedEval::default(),
        }
    }
}

impl<N: Evaluator, H: Evaluator> Evaluator for HybridEval<N, H> {
    fn load(&mut self, board: &Board) {
        self.net.load(board);
        self.terms.load(board);
    }
    #[inline(always)]
    fn make(&mut self, m: Move, before: &Board, after: &Board) {
        self.net.make(m, before, after);
        self.terms.make(m, before, after);
    }
    #[inline(always)]
    fn make_null(&mut self) {
        self.net.make_null();
        self.terms.make_null();
    }
    #[inline(always)]
    fn unmake(&mut self) {
        self.net.unmake();
        self.terms.unmake();
    }
    #[inline(always)]
    fn evaluate(&mut self, board: &Board) -> i32 {
        self.net.evaluate(board) + self.terms.evaluate(board)
    }
    fn set_network(&mut self, net: Option<Net>) {
        self.net.set_network(net);
    }
    fn clear(&mut self) {
        self.net.clear();
        self.terms.clear();
    }
    fn name(&self) -> &'static str {
        "hybrid"
    }
}

/// Which software evaluation a [`SoftwareEval`] runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SoftwareKind {
    /// The hand-crafted terms.
    HandCrafted,
    /// A plain network.
    Nnue,
    /// A hybrid network added to the hand-crafted terms.
    Hybrid,
    /// A plain chip net (the evaluation unit's network, in software).
    Chip,
    /// A hybrid chip net added to the hand-crafted terms.
    ChipHybrid,
}

/// The software evaluation the engine searches with: hand-crafted, a network, or a chip net,
/// plain or hybrid, as the network given by [`Evaluator::set_network`] says.
pub struct SoftwareEval {
    kind: SoftwareKind,
    terms: HandCraftedEval,
    /// Present once a network has been given (kept when it is taken away, so its stack is
    /// not allocated again).
    nnue: Option<NnueEval>,
    /// The same for a chip net.
    chip: Option<ChipEval>,
}

impl Default for SoftwareEval {
    /// The hand-crafted evaluation until a network is set.
    fn default() -> Self {
        SoftwareEval {
            kind: SoftwareKind::HandCrafted,
            terms: HandCraftedEval::default(),
            nnue: None,
            chip: None,
        }
    }
}

impl SoftwareEval {
    /// An evaluator running `net` (`None`: the hand-crafted terms).
    pub fn with_network(net: Option<Net>) -> SoftwareEval {
        let mut e = SoftwareEval::default();
        e.set_network(net);
        e
    }

    /// Which evaluation it runs now.
    pub fn kind(&self) -> SoftwareKind {
        self.kind
    }

    #[inline(always)]
    fn nnue(&mut self) -> &mut NnueEval {
        // `kind` is Nnue or Hybrid only after set_network stored an evaluator.
        self.nnue
            .as_mut()
            .expect("a network evaluator exists whenever kind is Nnue or Hybrid")
    }

    #[inline(always)]
    fn chip(&mut self) -> &mut ChipEval {
        // `kind` is Chip or ChipHybrid only after set_network stored an evaluator.
        self.chip
            .as_mut()
            .expect("a chip evaluator exists whenever kind is Chip or ChipHybrid")
    }
}

impl Evaluator for SoftwareEval {
    fn load(&mut self, board: &Board) {
        match self.kind {
            SoftwareKind::HandCrafted => {}
            SoftwareKind::Nnue | SoftwareKind::Hybrid => self.nnue().load(board),
            SoftwareKind::Chip | SoftwareKind::ChipHybrid => self.chip().load(board),
        }
    }
    #[inline(always)]
    fn make(&mut self, m: Move, before: &Board, after: &Board) {
        match self.kind {
            SoftwareKind::HandCrafted => {}
            SoftwareKind::Nnue | SoftwareKind::Hybrid => self.nnue().make(m, before, after),
            SoftwareKind::Chip | SoftwareKind::ChipHybrid => self.chip().make(m, before, after),
        }
    }
    #[inline(always)]
    fn make_null(&mut self) {
        match self.kind {
            SoftwareKind::HandCrafted => {}
            SoftwareKind::Nnue | SoftwareKind::Hybrid => self.nnue().make_null(),
            SoftwareKind::Chip | SoftwareKind::ChipHybrid => self.chip().make_null(),
        }
    }
    #[inline(always)]
    fn unmake(&mut self) {
        match self.kind {
            SoftwareKind::HandCrafted => {}
            SoftwareKind::Nnue | SoftwareKind::Hybrid => self.nnue().unmake(),
            SoftwareKind::Chip | SoftwareKind::ChipHybrid => self.chip().unmake(),
        }
    }
    #[inline(always)]
    fn evaluate(&mut self, board: &Board) -> i32 {
        match self.kind {
            SoftwareKind::HandCrafted => self.terms.evaluate(board),
            SoftwareKind::Nnue => self.nnue().evaluate(board),
            SoftwareKind::Hybrid => self.nnue().evaluate(board) + self.terms.evaluate(board),
            SoftwareKind::Chip => self.chip().evaluate(board),
            SoftwareKind::ChipHybrid => self.chip().evaluate(board) + self.terms.evaluate(board),
        }
    }
    fn set_network(&mut self, net: Option<Net>) {
        match net {
            None => self.kind = SoftwareKind::HandCrafted,
            Some(Net::Nnue(net)) => {
                self.kind = if net.is_hybrid() {
                    SoftwareKind::Hybrid
                } else {
                    SoftwareKind::Nnue
                };
                match &mut self.nnue {
                    Some(e) => e.replace(net),
                    None => self.nnue = Some(NnueEval::new(net)),
                }
            }
            Some(Net::Chip(net)) => {
                self.kind = if net.hybrid {
                    SoftwareKind::ChipHybrid
                } else {
                    SoftwareKind::Chip
                };
                match &mut self.chip {
                    Some(e) => e.net = net,
                    None => self.chip = Some(ChipEval::new(net)),
                }
            }
        }
    }
    fn clear(&mut self) {
        self.terms.clear();
    }
    fn name(&self) -> &'static str {
        match self.kind {
            SoftwareKind::HandCrafted => "hand-crafted",
            SoftwareKind::Nnue => "nnue",
            SoftwareKind::Hybrid => "hybrid",
            SoftwareKind::Chip => "chip",
            SoftwareKind::ChipHybrid => "chip hybrid",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::{GenMode, MoveList, Position};

    /// Walks every line of a small tree, checking at every node that each evaluator's
    /// incremental state gives what a fresh load of the same position gives.
    fn walk<E: Evaluator>(e: &mut E, fresh: &mut E, pos: &mut Position, depth: u32) {
        fresh.load(pos.board());
        assert_eq!(e.evaluate(pos.board()), fresh.evaluate(pos.board()));
        if depth == 0 {
            return;
        }
        let mut list = MoveList::new();
        pos.generate_into(GenMode::All, &mut list);
        for &m in list.iter() {
            let before = *pos.board();
            pos.make(m);
            e.make(m, &before, pos.board());
            walk(e, fresh, pos, depth - 1);
            e.unmake();
            pos.unmake();
        }
        if !pos.in_check() {
            pos.make_null();
            e.make_null();
            walk(e, fresh, pos, depth - 1);
            e.unmake();
            pos.unmake();
        }
    }

    const FENS: [&str; 2] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ];

    #[test]
    fn incremental_evaluation_equals_a_fresh_load_for_every_backend() {
        let net = Network::embedded();
        for fen in FENS {
            let mut pos = Position::from_fen(fen).expect("test FEN");
            let board = *pos.board();
            let mut e = SoftwareEval::with_network(Some(Net::Nnue(net.clone())));
            let mut fresh = SoftwareEval::with_network(Some(Net::Nnue(net.clone())));
            e.load(&board);
            walk(&mut e, &mut fresh, &mut pos, 3);
            let mut e = HybridEval::new(net.clone());
            let mut fresh = HybridEval::new(net.clone());
            e.load(&board);
            walk(&mut e, &mut fresh, &mut pos, 2);
            let mut e = HandCraftedEval::default();
            let mut fresh = HandCraftedEval::default();
            walk(&mut e, &mut fresh, &mut pos, 2);
        }
    }

    #[test]
    fn software_eval_runs_what_the_network_says() {
        let net = Network::embedded();
        let b = Board::startpos();
        let mut e = SoftwareEval::default();
        assert_eq!(e.kind(), SoftwareKind::HandCrafted);
        assert_eq!(e.evaluate(&b), eval::evaluate(&b));
        e.set_network(Some(Net::Nnue(net.clone())));
        e.load(&b);
        assert_eq!(net.is_hybrid(), e.kind() == SoftwareKind::Hybrid);
        assert_eq!(e.evaluate(&b), net.evaluate_board(&b));
        let mut h = HybridEval::new(net.clone());
        h.load(&b);
        let mut n = NnueEval::new(net.clone());
        n.load(&b);
        assert_eq!(h.evaluate(&b), n.evaluate(&b) + eval::evaluate(&b));
        e.set_network(None);
        assert_eq!(e.evaluate(&b), eval::evaluate(&b));
    }

    #[test]
    fn scalar_and_avx2_networks_give_the_same_bits() {
        let mut scalar = (*Network::embedded()).clone();
        scalar.set_avx2(false);
        let scalar = Arc::new(scalar);
        let simd = Network::embedded();
        let mut pos = Position::from_fen(FENS[0]).expect("test FEN");
        let mut a = NnueEval::new(scalar);
        let mut b = NnueEval::new(simd);
        a.load(pos.board());
        b.load(pos.board());
        let mut list = MoveList::new();
        pos.generate_into(GenMode::All, &mut list);
        for &m in list.iter() {
            let before = *pos.board();
            pos.make(m);
            a.make(m, &before, pos.board());
            b.make(m, &before, pos.board());
            assert_eq!(a.accumulator(), b.accumulator());
            assert_eq!(a.evaluate(pos.board()), b.evaluate(pos.board()));
            a.unmake();
            b.unmake();
            pos.unmake();
        }
    }
}

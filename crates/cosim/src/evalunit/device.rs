//! [`RtlEval`]: the co-simulated evaluation unit behind the engine's evaluation boundary,
//! checked against the Rust reference at every node.

use super::Sim;
use crate::movegen::{make_word, unmake_word, LOAD_WORDS};
use crate::RtlError;
use chess::{Board, Color, Move};
use device::{ChipEval, EvalStats, Evaluator};
use eval::chip::ChipNet;
use hw::evalunit::{LANES, STACK_PLIES};
use std::sync::Arc;

/// Device clocks spent per kind of command, from the command to the unit's next `ready`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitClocks {
    /// All loads (18 words and the refresh).
    pub load: u64,
    /// All makes.
    pub make: u64,
    /// All null moves.
    pub null: u64,
    /// All unmakes.
    pub unmake: u64,
    /// All evaluations, to the result.
    pub eval: u64,
}

/// The unmake word of a null move: the unit reads only its null flag (bit 30).
const NULL_UNMAKE: u32 = 1 << 30;

/// The co-simulated evaluation unit running a chip net, behind [`device::Evaluator`].
///
/// The host keeps the unmake words, as for the generator. Every load, make, null move and
/// unmake is followed on a software [`ChipEval`] too, and the unit's accumulators (both
/// perspectives) and every evaluation are compared with it: a difference panics with the
/// position, so a search that finishes on it has been checked at every node it visited.
/// Traffic (32-bit words): load 18, make, unmake and null 1, evaluate 2 (command, result).
pub struct RtlEval {
    sim: Sim,
    twin: ChipEval,
    undo: Vec<u32>,
    stats: EvalStats,
    clocks: UnitClocks,
    /// The side to move of the current position (the twin needs the board; the unit not).
    stm: Color,
}

impl RtlEval {
    /// A unit running `net` (written into its RAMs now), holding the start position.
    pub fn new(net: Arc<ChipNet>) -> Result<RtlEval, RtlError> {
        let mut sim = Sim::new()?;
        sim.write_net(&net)?;
        let mut e = RtlEval {
            sim,
            twin: ChipEval::new(net),
            undo: Vec::with_capacity(256),
            stats: EvalStats::default(),
            clocks: UnitClocks::default(),
            stm: Color::White,
        };
        e.load(&Board::startpos());
        Ok(e)
    }

    /// Clocks spent per kind of command.
    pub fn clocks(&self) -> UnitClocks {
        self.clocks
    }

    /// Runs `f` on the simulation and waits for the unit to be ready; returns the clocks.
    fn timed(&mut self, f: impl FnOnce(&mut Sim) -> Result<(), RtlError>) -> u64 {
        let start = self.sim.cycles();
        f(&mut self.sim)
            .and_then(|()| self.sim.settle())
            .unwrap_or_else(|e| panic!("evaluation unit: {e}"));
        let spent = self.sim.cycles() - start;
        self.stats.cycles += spent;
        spent
    }

    /// The unit's stack holds [`STACK_PLIES`] positions from the loaded one; the search never
    /// goes deeper (its last ply is `search::MAX_PLY - 1`), and a deeper make would overwrite
    /// the loaded position's accumulators, so it is refused here.
    fn push(&mut self, word: u32) {
        assert!(
            self.undo.len() + 1 < STACK_PLIES,
            "evaluation unit: a make {} plies deep, the stack holds {STACK_PLIES}",
            self.undo.len() + 1
        );
        self.undo.push(word);
    }

    /// Compares the unit's accumulators with the twin's.
    fn check_accumulators(&self, what: &str) {
        let net = self.twin.network();
        let (hw, sw) = (self.sim.accumulator(), self.twin.accumulator());
        for p in 0..net.arch.perspectives {
            let n = net.arch.lanes;
            assert!(
                hw.v[p][..n] == sw.v[p][..n] && hw.v[p][n..LANES].iter().all(|&v| v == 0),
                "evaluation unit: accumulator {p} differs from the reference after {what}\n rtl {:?}\n ref {:?}",
                &hw.v[p][..n],
                &sw.v[p][..n]
            );
        }
    }
}

impl Evaluator for RtlEval {
    fn load(&mut self, board: &Board) {
        self.undo.clear();
        self.stm = board.side_to_move();
        self.clocks.load += self.timed(|s| s.load(board));
        self.twin.load(board);
        self.stats.loads += 1;
        self.stats.words += LOAD_WORDS as u64;
        self.check_accumulators("a load");
    }
    fn make(&mut self, m: Move, before: &Board, after: &Board) {
        self.push(unmake_word(before, Some(m)));
        let word = make_word(before, m);
        self.clocks.make += self.timed(|s| s.make(word));
        self.twin.make(m, before, after);
        self.stm = after.side_to_move();
        self.stats.makes += 1;
        self.stats.words += 1;
        self.check_accumulators("a make");
    }
    fn make_null(&mut self) {
        self.push(NULL_UNMAKE);
        self.clocks.null += self.timed(|s| s.make_null());
        self.twin.make_null();
        self.stm = self.stm.flip();
        self.stats.nulls += 1;
        self.stats.words += 1;
        self.check_accumulators("a null move");
    }
    fn unmake(&mut self) {
        let w = self.undo.pop().expect("unmake without make");
        self.clocks.unmake += self.timed(|s| s.unmake(w));
        self.twin.unmake();
        self.stm = self.stm.flip();
        self.stats.unmakes += 1;
        self.stats.words += 1;
        self.check_accumulators("an unmake");
    }
    fn evaluate(&mut self, board: &Board) -> i32 {
        let start = self.sim.cycles();
        let score = self
            .sim
            .evaluate()
            .unwrap_or_else(|e| panic!("evaluation unit: {e}"));
        let spent = self.sim.cycles() - start;
        self.stats.cycles += spent;
        self.clocks.eval += spent;
        self.stats.evals += 1;
        self.stats.words += 2;
        let expected = self.twin.evaluate(board);
        assert_eq!(
            score,
            expected,
            "evaluation unit: output differs from the reference at {}",
            board.to_fen()
        );
        score
    }
    fn stats(&self) -> EvalStats {
        self.stats
    }
    fn name(&self) -> &'static str {
        "chip-rtl"
    }
}

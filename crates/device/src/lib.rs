//! The hardware/software boundaries: move generation ([`MoveGenDevice`]) and evaluation
//! ([`Evaluator`]), with their software backends.
//!
//! The FPGA generators we re-create sit behind a narrow interface: the host loads a position,
//! sends make/unmake words, asks for the moves of one mode and reads an in-check flag. The
//! search talks to move generation only through [`MoveGenDevice`]; it is generic over it, so
//! the software backend costs nothing, and other backends (SIMD, GPU, the Verilog
//! co-simulation) plug into the same search.
//!
//! Every move-generator backend keeps the host's mirror of the game
//! ([`MoveGenDevice::position`]) because hashing, the transposition table and repetition
//! detection stay on the host, as on the real machines. The evaluator follows the same stream
//! of make/unmake commands; see [`Evaluator`] for its side of the boundary.

use chess::{Board, GenMode, Move, MoveList, Position};

mod eval;
mod metered;
pub mod profile;
pub use eval::{
    ChipEval, EvalStats, Evaluator, HandCraftedEval, HybridEval, NnueEval, SoftwareEval,
    SoftwareKind,
};
pub use metered::{Meter, Metered};

/// Traffic and time a backend has spent, for reports of the boundary's cost.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct DeviceStats {
    /// Positions loaded whole.
    pub loads: u64,
    /// make calls.
    pub makes: u64,
    /// unmake calls.
    pub unmakes: u64,
    /// generate calls.
    pub generates: u64,
    /// Moves returned by generate.
    pub moves_out: u64,
    /// 32-bit words moved across the boundary (both directions).
    pub words: u64,
    /// Device clock cycles spent (0 for backends without a clock).
    pub cycles: u64,
}

/// The move-generator device interface: load position, make, unmake, generate, in-check.
pub trait MoveGenDevice {
    /// Loads a whole position (and forgets the make/unmake history).
    fn load(&mut self, board: &Board);
    /// Plays a legal move.
    fn make(&mut self, m: Move);
    /// Passes the turn (null move); not called in check.
    fn make_null(&mut self);
    /// Takes back the last make or make_null.
    fn unmake(&mut self);
    /// Writes the legal moves of `mode` into `out` (cleared first).
    fn generate(&mut self, mode: GenMode, out: &mut MoveList);
    /// True when the side to move is in check.
    fn in_check(&self) -> bool;
    /// The host's mirror of the current position (with history for repetition checks).
    fn position(&self) -> &Position;
    /// Traffic counters so far.
    fn stats(&self) -> DeviceStats {
        DeviceStats::default()
    }
    /// A short name for reports (`software`, `rtl`, ...).
    fn name(&self) -> &'static str;
}

/// The software generator: the chess crate's own, called directly.
#[derive(Clone, Default)]
pub struct SoftwareDevice {
    pos: Position,
}

impl SoftwareDevice {
    /// A device holding `board`.
    pub fn new(board: &Board) -> SoftwareDevice {
        SoftwareDevice {
            pos: Position::new(*board),
        }
    }
}

impl MoveGenDevice for SoftwareDevice {
    #[inline]
    fn load(&mut self, board: &Board) {
        self.pos = Position::new(*board);
    }
    #[inline(always)]
    fn make(&mut self, m: Move) {
        self.pos.make(m);
    }
    #[inline(always)]
    fn make_null(&mut self) {
        self.pos.make_null();
    }
    #[inline(always)]
    fn unmake(&mut self) {
        self.pos.unmake();
    }
    #[inline(always)]
    fn generate(&mut self, mode: GenMode, out: &mut MoveList) {
        self.pos.generate_into(mode, out);
    }
    #[inline(always)]
    fn in_check(&self) -> bool {
        self.pos.in_check()
    }
    #[inline(always)]
    fn position(&self) -> &Position {
        &self.pos
    }
    fn name(&self) -> &'static str {
        "software"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn software_device_walks_a_perft_tree() {
        fn walk<D: MoveGenDevice>(d: &mut D, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let mut list = MoveList::new();
            d.generate(GenMode::All, &mut list);
            let mut n = 0;
            for &m in list.iter() {
                d.make(m);
                n += walk(d, depth - 1);
                d.unmake();
            }
            n
        }
        let mut d = SoftwareDevice::new(&Board::startpos());
        assert_eq!(walk(&mut d, 3), 8902);
        assert!(!d.in_check());
        assert_eq!(d.position().board(), &Board::startpos());
    }
}

//! [`RtlDevice`]: the co-simulated generator behind the engine's device interface.

use super::words::{make_word, unmake_word, LOAD_WORDS};
use super::Sim;
use crate::RtlError;
use chess::{Board, GenMode, Move, MoveList, PieceKind, Position};
use device::{DeviceStats, MoveGenDevice};
use hw::movegen::traffic::{generate_words, ClockedDevice, MOVE_WORDS, STATUS_WORDS};
use std::cell::Cell;

/// The co-simulated RTL generator behind the engine's device interface.
///
/// Traffic model (32-bit words, `hw::movegen::traffic`): load 18; make 1; unmake 1; null 1;
/// generate 1 command + one word per two moves + 1 status word (count and in-check); in_check
/// 1 status word.
/// Modes the hardware lacks are derived on the host from its all-moves stream: `Quiet` keeps
/// what `Captures` leaves out, `Evasions` is all moves when in check, `QuietChecks` filters
/// `Quiet` with the host's gives_check. By default `generate` returns the device's move set in
/// the model's order and asserts the two sets equal (see [`RtlDevice::set_model_order`]).
pub struct RtlDevice {
    sim: Sim,
    pos: Position,
    undo: Vec<u32>,
    stats: Cell<DeviceStats>,
    model_order: bool,
}

impl RtlDevice {
    /// A device holding `board`.
    pub fn new(board: &Board) -> Result<RtlDevice, RtlError> {
        let mut d = RtlDevice {
            sim: Sim::new()?,
            pos: Position::new(*board),
            undo: Vec::with_capacity(256),
            stats: Cell::new(DeviceStats::default()),
            model_order: true,
        };
        d.load(board);
        Ok(d)
    }

    fn count(&self, f: impl FnOnce(&mut DeviceStats)) {
        let mut s = self.stats.get();
        f(&mut s);
        s.cycles = self.sim.cycles();
        self.stats.set(s);
    }

    /// Whether [`MoveGenDevice::generate`] hands out the hardware's moves in the model's order
    /// (the default: the search then visits exactly the software's tree, and every node is a
    /// co-simulation check) or in the device's own MVV-LVA stream order.
    pub fn set_model_order(&mut self, on: bool) {
        self.model_order = on;
    }

    /// The simulation itself.
    pub fn sim(&mut self) -> &mut Sim {
        &mut self.sim
    }

    /// Generates in the device's own order (captures first, MVV-LVA) and returns the clocks.
    pub fn generate_raw(
        &mut self,
        captures_only: bool,
        out: &mut MoveList,
    ) -> Result<u64, RtlError> {
        let c = self.sim.generate(captures_only, out)?;
        let n = out.len() as u64;
        self.count(|s| {
            s.generates += 1;
            s.moves_out += n;
            s.words += generate_words(n);
        });
        Ok(c)
    }
}

impl ClockedDevice for RtlDevice {
    type Error = RtlError;
    fn generate_stream(
        &mut self,
        captures_only: bool,
        out: &mut MoveList,
    ) -> Result<u64, RtlError> {
        self.generate_raw(captures_only, out)
    }
    fn count_moves(&mut self, captures_only: bool) -> Result<(u32, u64), RtlError> {
        self.sim.count(captures_only)
    }
    fn clocks(&self) -> u64 {
        self.sim.cycles()
    }
}

/// True for the moves of the hardware's captures-only mode.
fn in_captures_mode(m: Move) -> bool {
    m.is_capture() || m.promotion() == Some(PieceKind::Queen)
}

impl MoveGenDevice for RtlDevice {
    fn load(&mut self, board: &Board) {
        self.pos = Position::new(*board);
        self.undo.clear();
        self.sim.load(board);
        self.count(|s| {
            s.loads += 1;
            s.words += LOAD_WORDS as u64;
        });
    }
    fn make(&mut self, m: Move) {
        self.undo.push(unmake_word(self.pos.board(), Some(m)));
        self.sim.make(make_word(self.pos.board(), m));
        self.pos.make(m);
        self.count(|s| {
            s.makes += 1;
            s.words += MOVE_WORDS;
        });
    }
    fn make_null(&mut self) {
        self.undo.push(unmake_word(self.pos.board(), None));
        self.pos.make_null();
        self.sim.make_null();
        self.count(|s| {
            s.makes += 1;
            s.words += MOVE_WORDS;
        });
    }
    fn unmake(&mut self) {
        let w = self.undo.pop().expect("unmake without make");
        self.pos.unmake();
        self.sim.unmake(w);
        self.count(|s| {
            s.unmakes += 1;
            s.words += MOVE_WORDS;
        });
    }
    fn generate(&mut self, mode: GenMode, out: &mut MoveList) {
        let captures_only = mode == GenMode::Captures;
        if mode == GenMode::Evasions && !self.in_check() {
            out.clear();
            return;
        }
        // The design is verified against the model at every node of the co-simulation tests;
        // a hang here is a broken build, not a position the caller can fix.
        let mut hw = MoveList::new();
        self.generate_raw(captures_only, &mut hw)
            .expect("RTL generate");
        match mode {
            GenMode::Quiet => hw.retain(|m| !in_captures_mode(m)),
            GenMode::QuietChecks => {
                let b = *self.pos.board();
                hw.retain(|m| !in_captures_mode(m) && b.gives_check(m));
            }
            _ => {}
        }
        if !self.model_order {
            *out = hw;
            return;
        }
        // Same set, the model's order: the search then walks exactly the software's tree.
        self.pos.generate_into(mode, out);
        let (mut a, mut b) = ([0u16; 256], [0u16; 256]);
        let (n, k) = (hw.len(), out.len());
        for (d, l) in [(&mut a, &hw), (&mut b, &*out)] {
            for (i, m) in l.iter().enumerate() {
                d[i] = m.raw();
            }
        }
        a[..n].sort_unstable();
        b[..k].sort_unstable();
        assert!(
            a[..n] == b[..k],
            "RTL and model disagree at {} ({mode:?})",
            self.pos.to_fen()
        );
    }
    fn in_check(&self) -> bool {
        self.count(|s| s.words += STATUS_WORDS);
        self.sim.in_check()
    }
    fn position(&self) -> &Position {
        &self.pos
    }
    fn stats(&self) -> DeviceStats {
        self.stats.get()
    }
    fn name(&self) -> &'static str {
        "rtl"
    }
}

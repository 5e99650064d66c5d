//! The Verilog move generator of `hw/`, co-simulated with Verilator and exposed to Rust.
//!
//! [`Sim`] drives the verilated design one command at a time (load, make, unmake, null move,
//! generate); [`RtlDevice`] puts it behind the engine's [`MoveGenDevice`] interface, keeping
//! the host's mirror position and the undo words, and counts the 32-bit words that would cross
//! the bus and the device clocks spent.
//!
//! Without Verilator at build time the crate is a stub: [`available`] is false and
//! [`Sim::new`] returns [`RtlError::NotBuilt`].

#![warn(missing_docs)]

use chess::{Board, CastleSide, Color, GenMode, Move, MoveList, PieceKind, Position};
use device::{DeviceStats, MoveGenDevice};
use std::cell::Cell;
use std::fmt;

/// True when the verilated design was compiled into this build.
pub const fn available() -> bool {
    cfg!(rtl_verilated)
}

/// Why the simulation could not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RtlError {
    /// Built without Verilator: there is no model to run.
    NotBuilt,
    /// The design did not finish generating within the harness' cycle limit.
    Hung,
}

impl fmt::Display for RtlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RtlError::NotBuilt => f.write_str("estuary-rtl was built without verilator"),
            RtlError::Hung => f.write_str("the RTL move generator did not finish"),
        }
    }
}

impl std::error::Error for RtlError {}

#[cfg(rtl_verilated)]
mod ffi {
    use core::ffi::c_void;
    extern "C" {
        pub fn estuary_rtl_new() -> *mut c_void;
        pub fn estuary_rtl_free(h: *mut c_void);
        pub fn estuary_rtl_command(h: *mut c_void, cmd: u32, addr: u32, data: u32) -> i32;
        pub fn estuary_rtl_generate(
            h: *mut c_void,
            captures_only: i32,
            out: *mut u16,
            cap: u32,
            cycles: *mut u64,
        ) -> i32;
        pub fn estuary_rtl_count(h: *mut c_void, captures_only: i32, cycles: *mut u64) -> i32;
        pub fn estuary_rtl_in_check(h: *mut c_void) -> i32;
        pub fn estuary_rtl_cycles(h: *mut c_void) -> u64;
    }
}

/// Command codes of hw/rtl/estuary_movegen.v.
const CMD_LOAD: u32 = 1;
const CMD_MAKE: u32 = 2;
const CMD_UNMAKE: u32 = 3;
const CMD_NULL: u32 = 4;
/// Words of a whole-position load.
pub const LOAD_WORDS: u32 = 18;
/// `KIND_NONE` of the unmake word.
const KIND_NONE: u32 = 7;

/// One verilated instance of the generator.
pub struct Sim {
    #[cfg(rtl_verilated)]
    handle: *mut core::ffi::c_void,
}

impl Sim {
    /// A reset instance.
    pub fn new() -> Result<Sim, RtlError> {
        #[cfg(rtl_verilated)]
        {
            // SAFETY: estuary_rtl_new has no preconditions; it returns an owned handle that
            // only this Sim frees (in Drop).
            let handle = unsafe { ffi::estuary_rtl_new() };
            Ok(Sim { handle })
        }
        #[cfg(not(rtl_verilated))]
        Err(RtlError::NotBuilt)
    }

    #[allow(unused_variables)]
    fn command(&mut self, cmd: u32, addr: u32, data: u32) {
        #[cfg(rtl_verilated)]
        {
            // SAFETY: the handle is live (owned by self); the call only clocks the model.
            let ok = unsafe { ffi::estuary_rtl_command(self.handle, cmd, addr, data) };
            debug_assert_eq!(ok, 1, "RTL not ready for a command");
        }
    }

    /// Writes `board` into the state registers (18 words).
    pub fn load(&mut self, board: &Board) {
        for (i, w) in load_words(board).iter().enumerate() {
            self.command(CMD_LOAD, i as u32, *w);
        }
    }

    /// Plays a move given its make word (see [`make_word`]; one word).
    pub fn make(&mut self, word: u32) {
        self.command(CMD_MAKE, 0, word);
    }

    /// Passes the turn (one word).
    pub fn make_null(&mut self) {
        self.command(CMD_NULL, 0, 0);
    }

    /// Takes back a move given its unmake word (see [`unmake_word`]).
    pub fn unmake(&mut self, word: u32) {
        self.command(CMD_UNMAKE, 0, word);
    }

    /// Generates all legal moves, or captures only, into `out` in the device's order; returns
    /// the device clocks from the command to the done pulse.
    #[allow(unused_variables)]
    pub fn generate(&mut self, captures_only: bool, out: &mut MoveList) -> Result<u64, RtlError> {
        out.clear();
        #[cfg(rtl_verilated)]
        {
            let mut buf = [0u16; 256];
            let mut cycles = 0u64;
            // SAFETY: the handle is live; buf has room for `cap` = 256 moves and the harness
            // writes no more than that; cycles is a valid out-pointer.
            let n = unsafe {
                ffi::estuary_rtl_generate(
                    self.handle,
                    captures_only as i32,
                    buf.as_mut_ptr(),
                    256,
                    &mut cycles,
                )
            };
            if n < 0 {
                return Err(RtlError::Hung);
            }
            for &m in &buf[..(n as usize).min(256)] {
                out.push(Move::from_raw(m));
            }
            Ok(cycles)
        }
        #[cfg(not(rtl_verilated))]
        Err(RtlError::NotBuilt)
    }

    /// Count-only generate: the number of legal moves (all, or captures only) without
    /// streaming them, and the device clocks from the command to the done pulse.
    #[allow(unused_variables)]
    pub fn count(&mut self, captures_only: bool) -> Result<(u32, u64), RtlError> {
        #[cfg(rtl_verilated)]
        {
            let mut cycles = 0u64;
            // SAFETY: the handle is live; cycles is a valid out-pointer.
            let n =
                unsafe { ffi::estuary_rtl_count(self.handle, captures_only as i32, &mut cycles) };
            if n < 0 {
                return Err(RtlError::Hung);
            }
            Ok((n as u32, cycles))
        }
        #[cfg(not(rtl_verilated))]
        Err(RtlError::NotBuilt)
    }

    /// The in-check output (the model is clocked idle first if a command was just given: the
    /// flag is registered, four clocks behind the board).
    pub fn in_check(&self) -> bool {
        #[cfg(rtl_verilated)]
        {
            // SAFETY: the handle is live and not shared (Sim is not Sync); the call clocks the
            // model idle until the registered flag has settled, then reads the output port.
            unsafe { ffi::estuary_rtl_in_check(self.handle) != 0 }
        }
        #[cfg(not(rtl_verilated))]
        false
    }

    /// Clock cycles since reset.
    pub fn cycles(&self) -> u64 {
        #[cfg(rtl_verilated)]
        {
            // SAFETY: the handle is live; the call only reads a counter.
            unsafe { ffi::estuary_rtl_cycles(self.handle) }
        }
        #[cfg(not(rtl_verilated))]
        0
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        #[cfg(rtl_verilated)]
        // SAFETY: the handle came from estuary_rtl_new and is freed exactly once, here.
        unsafe {
            ffi::estuary_rtl_free(self.handle)
        };
    }
}

/// The 18 load words of `board` (layout in hw/rtl/board_state.v).
pub fn load_words(board: &Board) -> [u32; LOAD_WORDS as usize] {
    let mut w = [0u32; LOAD_WORDS as usize];
    for k in PieceKind::ALL {
        let b = board.kind(k).0;
        w[2 * k.index()] = b as u32;
        w[2 * k.index() + 1] = (b >> 32) as u32;
    }
    for c in Color::ALL {
        let b = board.color(c).0;
        w[12 + 2 * c.index()] = b as u32;
        w[13 + 2 * c.index()] = (b >> 32) as u32;
    }
    let ep = board.ep_square().map_or(64, |s| s.index() as u32);
    w[16] =
        (board.side_to_move() == Color::Black) as u32 | ep << 1 | (board.castle_bits() as u32) << 8;
    let mut rooks = 0u32;
    for (i, (c, side)) in [
        (Color::White, CastleSide::Short),
        (Color::White, CastleSide::Long),
        (Color::Black, CastleSide::Short),
        (Color::Black, CastleSide::Long),
    ]
    .into_iter()
    .enumerate()
    {
        let sq = board.castle_rook(c, side).map_or(0, |s| s.index() as u32);
        rooks |= sq << (6 * i);
    }
    w[17] = rooks;
    w
}

/// The en-passant field of the make and unmake words: the file, or 8 (bit 3) for none (the
/// device knows the rank from the side to move).
fn ep_file(board: &Board) -> u32 {
    board.ep_square().map_or(8, |s| s.index() as u32 & 7)
}

/// The kind of the piece `m` moves on `before` (for castling, the king).
fn moving_kind(before: &Board, m: Move) -> u32 {
    before
        .kind_on(m.from())
        .map_or(KIND_NONE, |k| k.index() as u32)
}

/// The make word of `m` played from `before` (layout in hw/rtl/board_state.v): the move, the
/// moving kind, and the castling rights and en-passant file after the move, which the host
/// knows from its mirror of the position, so that the device needs no look-up in its board.
pub fn make_word(before: &Board, m: Move) -> u32 {
    let after = before.played(m);
    ep_file(&after) << 23
        | (after.castle_bits() as u32) << 19
        | moving_kind(before, m) << 16
        | m.raw() as u32
}

/// The unmake word of `m` played from `before` (layout in hw/rtl/board_state.v); `None`
/// for a null move.
pub fn unmake_word(before: &Board, m: Option<Move>) -> u32 {
    let ep = ep_file(before);
    let rights = before.castle_bits() as u32;
    match m {
        None => 1 << 30 | ep << 23 | rights << 19,
        Some(m) => {
            let captured = if m.is_capture() && !m.is_en_passant() {
                before
                    .kind_on(m.to())
                    .map_or(KIND_NONE, |k| k.index() as u32)
            } else {
                KIND_NONE
            };
            captured << 27 | ep << 23 | rights << 19 | moving_kind(before, m) << 16 | m.raw() as u32
        }
    }
}

/// The co-simulated RTL generator behind the engine's device interface.
///
/// Traffic model (32-bit words): load 18; make 1; unmake 1; null 1; generate 1 command +
/// one word per two moves + 1 status word (count and in-check); in_check 1 status word.
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
            s.words += 2 + n.div_ceil(2);
        });
        Ok(c)
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
            s.words += 1;
        });
    }
    fn make_null(&mut self) {
        self.undo.push(unmake_word(self.pos.board(), None));
        self.pos.make_null();
        self.sim.make_null();
        self.count(|s| {
            s.makes += 1;
            s.words += 1;
        });
    }
    fn unmake(&mut self) {
        let w = self.undo.pop().expect("unmake without make");
        self.pos.unmake();
        self.sim.unmake(w);
        self.count(|s| {
            s.unmakes += 1;
            s.words += 1;
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
        self.count(|s| s.words += 1);
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

//! [`Sim`]: one verilated instance of the generator, driven one command at a time through the
//! C++ harness (csrc/movegen.cpp).

use super::words::load_words;
use crate::RtlError;
use chess::{Board, Move, MoveList};

#[cfg(verilated)]
mod ffi {
    use core::ffi::c_void;
    extern "C" {
        pub fn estuary_movegen_new() -> *mut c_void;
        pub fn estuary_movegen_free(h: *mut c_void);
        pub fn estuary_movegen_command(h: *mut c_void, cmd: u32, addr: u32, data: u32) -> i32;
        pub fn estuary_movegen_generate(
            h: *mut c_void,
            captures_only: i32,
            out: *mut u16,
            cap: u32,
            cycles: *mut u64,
        ) -> i32;
        pub fn estuary_movegen_count(h: *mut c_void, captures_only: i32, cycles: *mut u64) -> i32;
        pub fn estuary_movegen_in_check(h: *mut c_void) -> i32;
        pub fn estuary_movegen_cycles(h: *mut c_void) -> u64;
        pub fn estuary_movegen_checks(h: *mut c_void, out: *mut u8, cap: u32) -> u32;
    }
}

/// Command codes of hw/movegen/estuary_movegen.v.
const CMD_LOAD: u32 = 1;
const CMD_MAKE: u32 = 2;
const CMD_UNMAKE: u32 = 3;
const CMD_NULL: u32 = 4;

/// One verilated instance of the generator.
pub struct Sim {
    #[cfg(verilated)]
    handle: *mut core::ffi::c_void,
}

impl Sim {
    /// A reset instance.
    pub fn new() -> Result<Sim, RtlError> {
        #[cfg(verilated)]
        {
            // SAFETY: estuary_movegen_new has no preconditions; it returns an owned handle that
            // only this Sim frees (in Drop).
            let handle = unsafe { ffi::estuary_movegen_new() };
            Ok(Sim { handle })
        }
        #[cfg(not(verilated))]
        Err(RtlError::NotBuilt)
    }

    #[allow(unused_variables)]
    fn command(&mut self, cmd: u32, addr: u32, data: u32) {
        #[cfg(verilated)]
        {
            // SAFETY: the handle is live (owned by self); the call only clocks the model.
            let ok = unsafe { ffi::estuary_movegen_command(self.handle, cmd, addr, data) };
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
        #[cfg(verilated)]
        {
            let mut buf = [0u16; 256];
            let mut cycles = 0u64;
            // SAFETY: the handle is live; buf has room for `cap` = 256 moves and the harness
            // writes no more than that; cycles is a valid out-pointer.
            let n = unsafe {
                ffi::estuary_movegen_generate(
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
        #[cfg(not(verilated))]
        Err(RtlError::NotBuilt)
    }

    /// Count-only generate: the number of legal moves (all, or captures only) without
    /// streaming them, and the device clocks from the command to the done pulse.
    #[allow(unused_variables)]
    pub fn count(&mut self, captures_only: bool) -> Result<(u32, u64), RtlError> {
        #[cfg(verilated)]
        {
            let mut cycles = 0u64;
            // SAFETY: the handle is live; cycles is a valid out-pointer.
            let n = unsafe {
                ffi::estuary_movegen_count(self.handle, captures_only as i32, &mut cycles)
            };
            if n < 0 {
                return Err(RtlError::Hung);
            }
            Ok((n as u32, cycles))
        }
        #[cfg(not(verilated))]
        Err(RtlError::NotBuilt)
    }

    /// The in-check output (the model is clocked idle first if a command was just given: the
    /// flag is registered, four clocks behind the board).
    pub fn in_check(&self) -> bool {
        #[cfg(verilated)]
        {
            // SAFETY: the handle is live and not shared (Sim is not Sync); the call clocks the
            // model idle until the registered flag has settled, then reads the output port.
            unsafe { ffi::estuary_movegen_in_check(self.handle) != 0 }
        }
        #[cfg(not(verilated))]
        false
    }

    /// The gives-check flags (`move_check`) of the moves of the last generate, in stream
    /// order.
    pub fn check_flags(&self) -> Vec<bool> {
        #[cfg(verilated)]
        {
            let mut buf = [0u8; 256];
            // SAFETY: the handle is live; buf has room for the 256 the harness may write.
            let n = unsafe { ffi::estuary_movegen_checks(self.handle, buf.as_mut_ptr(), 256) };
            buf[..n as usize].iter().map(|&c| c != 0).collect()
        }
        #[cfg(not(verilated))]
        Vec::new()
    }

    /// Clock cycles since reset.
    pub fn cycles(&self) -> u64 {
        #[cfg(verilated)]
        {
            // SAFETY: the handle is live; the call only reads a counter.
            unsafe { ffi::estuary_movegen_cycles(self.handle) }
        }
        #[cfg(not(verilated))]
        0
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        #[cfg(verilated)]
        // SAFETY: the handle came from estuary_movegen_new and is freed exactly once, here.
        unsafe {
            ffi::estuary_movegen_free(self.handle)
        };
    }
}

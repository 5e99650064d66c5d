//! [`Sim`]: one verilated instance of the evaluation unit, driven one command at a time
//! through the C++ harness (csrc/evalunit.cpp).

use crate::movegen::load_words;
use crate::RtlError;
use chess::Board;
use eval::chip::{ChipAcc, ChipNet};
use hw::evalunit::{Image, LANES, LAYERS};

#[cfg(verilated)]
mod ffi {
    use core::ffi::c_void;
    extern "C" {
        pub fn estuary_evalunit_new() -> *mut c_void;
        pub fn estuary_evalunit_free(h: *mut c_void);
        pub fn estuary_evalunit_command(h: *mut c_void, cmd: u32, addr: u32, data: u32) -> i32;
        pub fn estuary_evalunit_settle(h: *mut c_void) -> i32;
        pub fn estuary_evalunit_eval(h: *mut c_void, score: *mut i32) -> i32;
        pub fn estuary_evalunit_peek(h: *mut c_void, out: *mut u32);
        pub fn estuary_evalunit_cycles(h: *mut c_void) -> u64;
    }
}

/// Command codes of hw/evalunit/estuary_evalunit.v.
const CMD_LOAD: u32 = 1;
const CMD_MAKE: u32 = 2;
const CMD_UNMAKE: u32 = 3;
const CMD_NULL: u32 = 4;
const CMD_WRITE: u32 = 6;
/// WRITE's commit flag and regions.
const COMMIT: u32 = 16;
const REGION_FEATURES: u32 = 0;
const REGION_WEIGHTS: u32 = 1;
const REGION_BIASES: u32 = 2;
const REGION_CONFIG: u32 = 3;

/// The commands (command, address, data) that write `net`'s tables into the unit: every
/// feature, weight and bias row, then the layer configuration.
pub(crate) fn write_commands(net: &ChipNet) -> Result<Vec<(u32, u32, u32)>, RtlError> {
    let img = Image::of(net).map_err(|e| RtlError::Refused(e.to_string()))?;
    let mut out = Vec::new();
    let mut row = |region: u32, index: usize, words: &[u32]| {
        out.extend(words.iter().map(|&w| (CMD_WRITE, region, w)));
        out.push((CMD_WRITE, COMMIT | region, index as u32));
    };
    for (i, words) in img.features.iter().enumerate() {
        row(REGION_FEATURES, i, words);
    }
    for (i, words) in img.weights.iter().enumerate() {
        row(REGION_WEIGHTS, i, words);
    }
    for (i, words) in img.biases.iter().enumerate() {
        row(REGION_BIASES, i, words);
    }
    for (i, &w) in img.config.iter().enumerate() {
        if i < LAYERS && w == 0 {
            continue;
        }
        row(REGION_CONFIG, i, &[w]);
    }
    Ok(out)
}

/// One verilated instance of the evaluation unit.
pub struct Sim {
    #[cfg(verilated)]
    handle: *mut core::ffi::c_void,
}

impl Sim {
    /// A reset instance with no net in it (see [`Sim::write_net`]).
    pub fn new() -> Result<Sim, RtlError> {
        #[cfg(verilated)]
        {
            // SAFETY: estuary_evalunit_new has no preconditions; it returns an owned handle
            // that only this Sim frees (in Drop).
            let handle = unsafe { ffi::estuary_evalunit_new() };
            Ok(Sim { handle })
        }
        #[cfg(not(verilated))]
        Err(RtlError::NotBuilt)
    }

    #[allow(unused_variables)]
    fn command(&mut self, cmd: u32, addr: u32, data: u32) -> Result<(), RtlError> {
        #[cfg(verilated)]
        {
            // SAFETY: the handle is live (owned by self); the call only clocks the model.
            RtlError::from_done(unsafe {
                ffi::estuary_evalunit_command(self.handle, cmd, addr, data)
            })
        }
        #[cfg(not(verilated))]
        Err(RtlError::NotBuilt)
    }

    /// Clocks the unit until the last command is done.
    pub fn settle(&mut self) -> Result<(), RtlError> {
        #[cfg(verilated)]
        {
            // SAFETY: the handle is live; the call only clocks the model.
            RtlError::from_done(unsafe { ffi::estuary_evalunit_settle(self.handle) })
        }
        #[cfg(not(verilated))]
        Err(RtlError::NotBuilt)
    }

    /// Writes `net`'s image into the unit's RAMs and configuration (the host's WRITE words).
    pub fn write_net(&mut self, net: &ChipNet) -> Result<(), RtlError> {
        for (cmd, addr, data) in write_commands(net)? {
            self.command(cmd, addr, data)?;
        }
        self.settle()
    }

    /// Loads `board` (the generator's 18 load words; the last starts the refresh).
    pub fn load(&mut self, board: &Board) -> Result<(), RtlError> {
        for (i, w) in load_words(board).iter().enumerate() {
            self.command(CMD_LOAD, i as u32, *w)?;
        }
        Ok(())
    }

    /// Follows a move given its make word (`cosim::movegen::make_word`).
    pub fn make(&mut self, word: u32) -> Result<(), RtlError> {
        self.command(CMD_MAKE, 0, word)
    }

    /// Passes the turn.
    pub fn make_null(&mut self) -> Result<(), RtlError> {
        self.command(CMD_NULL, 0, 0)
    }

    /// Takes back a move given its unmake word (`cosim::movegen::unmake_word`).
    pub fn unmake(&mut self, word: u32) -> Result<(), RtlError> {
        self.command(CMD_UNMAKE, 0, word)
    }

    /// Evaluates the current position: the net's output in centipawns for the side to move.
    pub fn evaluate(&mut self) -> Result<i32, RtlError> {
        #[cfg(verilated)]
        {
            let mut score = 0i32;
            // SAFETY: the handle is live; score is a valid out-pointer.
            if unsafe { ffi::estuary_evalunit_eval(self.handle, &mut score) } == 1 {
                Ok(score)
            } else {
                Err(RtlError::Hung)
            }
        }
        #[cfg(not(verilated))]
        Err(RtlError::NotBuilt)
    }

    /// The accumulators on top of the unit's stack (read through the simulator, no clock):
    /// White's lanes in `v[0]`, Black's in `v[1]`, the unit's 128 each.
    pub fn accumulator(&self) -> ChipAcc {
        let mut acc = ChipAcc::default();
        #[cfg(verilated)]
        {
            let mut words = [0u32; 128];
            // SAFETY: the handle is live; `words` has the 128 entries the harness writes.
            unsafe { ffi::estuary_evalunit_peek(self.handle, words.as_mut_ptr()) };
            for (i, w) in words.iter().enumerate() {
                // 32-bit piece i: the stack entry's word k = i / 32 (perspective k / 2, half
                // k % 2), lanes 64 (k % 2) + 2 (i % 32) and the next.
                let k = i / 32;
                let (p, lane) = (k / 2, 64 * (k % 2) + 2 * (i % 32));
                acc.v[p][lane] = *w as u16 as i16;
                acc.v[p][lane + 1] = (*w >> 16) as u16 as i16;
            }
        }
        debug_assert!(LANES <= acc.v[0].len());
        acc
    }

    /// Clock cycles since reset.
    pub fn cycles(&self) -> u64 {
        #[cfg(verilated)]
        {
            // SAFETY: the handle is live; the call only reads a counter.
            unsafe { ffi::estuary_evalunit_cycles(self.handle) }
        }
        #[cfg(not(verilated))]
        0
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        #[cfg(verilated)]
        // SAFETY: the handle came from estuary_evalunit_new and is freed exactly once, here.
        unsafe {
            ffi::estuary_evalunit_free(self.handle)
        };
    }
}

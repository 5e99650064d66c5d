//! The whole search machine of `hw/chip/estuary_chip.v` (host interface, loader, one search
//! core), co-simulated at its pins: [`ChipSim`] puts request bytes onto its UART receive line
//! bit by bit and decodes what it transmits, so it speaks exactly the byte protocol a board
//! would (`hw::chip::protocol`). [`serve_rtl`] puts it behind the same byte channels as the
//! model's `serve_model`, for `estuary uci --device chip-rtl`.

use crate::RtlError;
use hw::chip::Config;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::Duration;

#[cfg(verilated)]
mod ffi {
    use core::ffi::c_void;

    extern "C" {
        pub fn estuary_chip_new(
            div: u32,
            timeout: u32,
            null_move: u32,
            lmr: u32,
            lmp: u32,
            tt_clocks: u32,
        ) -> *mut c_void;
        pub fn estuary_chip_free(h: *mut c_void);
        pub fn estuary_chip_send(h: *mut c_void, bytes: *const u8, n: usize, gap: u32);
        pub fn estuary_chip_run(h: *mut c_void, clocks: u64);
        pub fn estuary_chip_line(h: *mut c_void) -> u64;
        pub fn estuary_chip_take_tx(h: *mut c_void, out: *mut u8, cap: usize) -> usize;
        pub fn estuary_chip_receiving(h: *mut c_void) -> i32;
        pub fn estuary_chip_stop_pin(h: *mut c_void, level: i32);
        pub fn estuary_chip_searching(h: *mut c_void) -> i32;
        pub fn estuary_chip_cycles(h: *mut c_void) -> u64;
    }
}

/// Clocks a bit on the simulated UART (the least the receiver takes: the line is not the
/// point of a simulation).
pub const SIM_BAUD_DIV: u32 = 4;
/// Clocks without a byte that cut a frame short, in simulation.
pub const SIM_TIMEOUT: u32 = 4096;
/// The table of the verilated chip: 2^13 entries, as [`Config::default`].
pub const TT_ENTRIES: usize = 1 << 13;

/// A verilated search machine.
pub struct ChipSim {
    #[cfg(verilated)]
    handle: *mut core::ffi::c_void,
    #[cfg(not(verilated))]
    never: std::convert::Infallible,
}

// SAFETY: the handle is owned by this ChipSim and used by one thread at a time (&mut self).
unsafe impl Send for ChipSim {}

impl ChipSim {
    /// A reset chip built as `config` (its null move, LMR and table clocks; the table has
    /// [`TT_ENTRIES`] entries) with a UART of `div` clocks a bit and a frame timeout of
    /// `timeout` clocks. Its evaluation unit holds the net of hw/evalunit/gen/ (the embedded
    /// pure chip net).
    #[allow(unused_variables)]
    pub fn new(config: Config, div: u32, timeout: u32) -> Result<ChipSim, RtlError> {
        if config.tt_entries != TT_ENTRIES {
            return Err(RtlError::Refused(format!(
                "the verilated chip's table has {TT_ENTRIES} entries, not {}",
                config.tt_entries
            )));
        }
        #[cfg(verilated)]
        {
            // SAFETY: no preconditions; the handle is owned by this ChipSim, freed in Drop.
            let handle = unsafe {
                ffi::estuary_chip_new(
                    div.max(4),
                    timeout.max(64),
                    u32::from(config.null_move),
                    u32::from(config.lmr),
                    u32::from(config.lmp),
                    config.tt_clocks as u32,
                )
            };
            Ok(ChipSim { handle })
        }
        #[cfg(not(verilated))]
        Err(RtlError::NotBuilt)
    }

    /// Queues `bytes` onto the receive line, each followed by `gap` idle clocks; they go in
    /// as clocks run.
    #[allow(unused_variables)]
    pub fn send(&mut self, bytes: &[u8], gap: u32) {
        #[cfg(verilated)]
        // SAFETY: the handle is live; `bytes` is valid for its length.
        unsafe {
            ffi::estuary_chip_send(self.handle, bytes.as_ptr(), bytes.len(), gap)
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// Runs `clocks` clocks.
    #[allow(unused_variables)]
    pub fn run(&mut self, clocks: u64) {
        #[cfg(verilated)]
        // SAFETY: the handle is live.
        unsafe {
            ffi::estuary_chip_run(self.handle, clocks)
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// True while bytes queued by [`ChipSim::send`] have not all gone in.
    pub fn sending(&self) -> bool {
        #[cfg(verilated)]
        // SAFETY: the handle is live; the call reads a count.
        unsafe {
            ffi::estuary_chip_line(self.handle) != 0
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// The bytes the chip has sent since the last call.
    pub fn take_tx(&mut self) -> Vec<u8> {
        #[cfg(verilated)]
        {
            let mut out = Vec::new();
            let mut buf = [0u8; 256];
            loop {
                // SAFETY: the handle is live; `buf` has the capacity passed.
                let n = unsafe { ffi::estuary_chip_take_tx(self.handle, buf.as_mut_ptr(), 256) };
                out.extend_from_slice(&buf[..n]);
                if n < buf.len() {
                    return out;
                }
            }
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// True while the chip is inside a byte on its transmit line.
    pub fn transmitting(&self) -> bool {
        #[cfg(verilated)]
        // SAFETY: the handle is live; the call reads the receiver's state.
        unsafe {
            ffi::estuary_chip_receiving(self.handle) != 0
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// Sets the stop pin (the board's "decide now" button).
    #[allow(unused_variables)]
    pub fn stop_pin(&mut self, pressed: bool) {
        #[cfg(verilated)]
        // SAFETY: the handle is live; the call sets an input.
        unsafe {
            ffi::estuary_chip_stop_pin(self.handle, i32::from(pressed))
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// True while a search runs.
    pub fn searching(&self) -> bool {
        #[cfg(verilated)]
        // SAFETY: the handle is live; the call reads an output.
        unsafe {
            ffi::estuary_chip_searching(self.handle) != 0
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// Clocks since the reset.
    pub fn cycles(&self) -> u64 {
        #[cfg(verilated)]
        // SAFETY: the handle is live; the call reads a count.
        unsafe {
            ffi::estuary_chip_cycles(self.handle)
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// True when the chip has nothing under way: no byte going in or out, no search.
    pub fn quiet(&self) -> bool {
        !self.sending() && !self.transmitting() && !self.searching()
    }
}

impl Drop for ChipSim {
    fn drop(&mut self) {
        #[cfg(verilated)]
        // SAFETY: the handle came from estuary_chip_new and is freed once, here.
        unsafe {
            ffi::estuary_chip_free(self.handle)
        }
    }
}

/// Clocks run between looks at the request channel.
const SLICE: u64 = 2048;

/// The verilated chip behind the protocol, as `hw::chip::protocol::serve_model` puts the
/// model: request bytes from `rx` go onto the chip's receive line, what it transmits goes to
/// `tx`; returns when `rx` closes and the chip has finished what it was doing. While the
/// chip is quiet the simulation waits for the next byte instead of clocking, so the frame
/// timeout counts only the clocks of a frame whose bytes stopped coming.
pub fn serve_rtl(mut chip: ChipSim, rx: Receiver<u8>, tx: Sender<Vec<u8>>) {
    let mut open = true;
    let mut pending = Vec::new();
    // Slices in a row in which the chip did nothing visible: two make it quiet (a reply may
    // start up to a few hundred clocks after a search or a request ends).
    let mut idle_slices = 0;
    loop {
        // Take what the host has sent; wait for it when there is nothing else to do.
        loop {
            match rx.try_recv() {
                Ok(b) => pending.push(b),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    open = false;
                    break;
                }
            }
        }
        if pending.is_empty() && idle_slices >= 2 {
            if !open {
                return;
            }
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(b) => pending.push(b),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return,
            }
            continue;
        }
        if !pending.is_empty() {
            chip.send(&pending, 0);
            pending.clear();
        }
        chip.run(SLICE);
        let out = chip.take_tx();
        idle_slices = if out.is_empty() && chip.quiet() {
            idle_slices + 1
        } else {
            0
        };
        if !out.is_empty() && tx.send(out).is_err() {
            return;
        }
    }
}

//! The host interface of `hw/host/` (the search machine's UART protocol, `hw::chip::protocol`),
//! co-simulated at its pins: [`HostSim`] sends bytes onto its receive line bit by bit, decodes
//! what it transmits, plays the sequencer's side (busy, reports and their PV) and records each
//! strobe the unit raises with the position, history and limits it presents beside it.

use crate::RtlError;
use hw::chip::protocol::Request;

#[cfg(verilated)]
mod ffi {
    use core::ffi::c_void;

    #[repr(C)]
    pub struct Event {
        pub kind: u8,
        pub depth: u8,
        pub hist_count: u8,
        pub position: [u8; 42],
        pub nodes: u64,
        pub clocks: u64,
    }

    extern "C" {
        pub fn estuary_host_new(div: u32, timeout: u32) -> *mut c_void;
        pub fn estuary_host_free(h: *mut c_void);
        pub fn estuary_host_send(h: *mut c_void, bytes: *const u8, n: usize, bit: u32, gap: u32);
        pub fn estuary_host_idle(h: *mut c_void, clocks: u64);
        pub fn estuary_host_set_busy(h: *mut c_void, busy: i32);
        pub fn estuary_host_take_tx(h: *mut c_void, out: *mut u8, cap: usize) -> usize;
        pub fn estuary_host_take_event(h: *mut c_void, out: *mut Event) -> i32;
        pub fn estuary_host_history(h: *mut c_void, i: u32) -> u64;
        #[allow(clippy::too_many_arguments)]
        pub fn estuary_host_report(
            h: *mut c_void,
            fin: i32,
            depth: u8,
            score: i16,
            nodes: u64,
            clocks: u64,
            stopped: i32,
            pv: *const u16,
            n: usize,
        ) -> i64;
        pub fn estuary_host_cycles(h: *mut c_void) -> u64;
    }
}

/// A strobe of the host interface towards the sequencer, with what it presented beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strobe {
    /// A position was loaded: its 42 bytes and the number of history hashes.
    Load {
        /// The position as the unit holds it (the LOAD payload's first 42 bytes).
        position: [u8; 42],
        /// History hashes loaded with it.
        history: u8,
    },
    /// GO with the limits presented, STOP or CLEAR, as the request the unit carries out.
    Carry(Request),
}

/// A report the sequencer offers the host interface (INFO, or BEST when `last`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Offer {
    /// BEST (the answer) rather than INFO.
    pub last: bool,
    /// Depth of the iteration.
    pub depth: u8,
    /// Score.
    pub score: i16,
    /// Nodes.
    pub nodes: u64,
    /// Clocks.
    pub clocks: u64,
    /// BEST only: the search was stopped early.
    pub stopped: bool,
    /// The PV's 16-bit moves (at most 255).
    pub pv: Vec<u16>,
}

/// One verilated host interface.
pub struct HostSim {
    #[cfg(verilated)]
    handle: *mut core::ffi::c_void,
    #[cfg(not(verilated))]
    never: std::convert::Infallible,
}

impl HostSim {
    /// A reset unit at `div` clocks a bit that cuts a frame short after `timeout` quiet clocks.
    #[allow(unused_variables)]
    pub fn new(div: u32, timeout: u32) -> Result<HostSim, RtlError> {
        #[cfg(verilated)]
        {
            // SAFETY: no preconditions; the handle is owned by this HostSim and freed in Drop.
            let handle = unsafe { ffi::estuary_host_new(div, timeout) };
            Ok(HostSim { handle })
        }
        #[cfg(not(verilated))]
        Err(RtlError::NotBuilt)
    }

    /// Sends `bytes` onto the receive line at `bit` clocks a bit, each followed by `gap` idle
    /// clocks, clocking until the last stop bit is out.
    #[allow(unused_variables)]
    pub fn send(&mut self, bytes: &[u8], bit: u32, gap: u32) {
        #[cfg(verilated)]
        // SAFETY: the handle is live; the harness copies the bytes before returning.
        unsafe {
            ffi::estuary_host_send(self.handle, bytes.as_ptr(), bytes.len(), bit, gap)
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// Clocks the unit with the line idle.
    #[allow(unused_variables)]
    pub fn idle(&mut self, clocks: u64) {
        #[cfg(verilated)]
        // SAFETY: the handle is live; the call only clocks the model.
        unsafe {
            ffi::estuary_host_idle(self.handle, clocks)
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// The sequencer's busy level (a search runs).
    #[allow(unused_variables)]
    pub fn set_busy(&mut self, busy: bool) {
        #[cfg(verilated)]
        // SAFETY: the handle is live; the call sets an input.
        unsafe {
            ffi::estuary_host_set_busy(self.handle, i32::from(busy))
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// The bytes the unit transmitted since the last call.
    pub fn take_replies(&mut self) -> Vec<u8> {
        #[cfg(verilated)]
        {
            let mut out = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                // SAFETY: the handle is live and `buf` holds `buf.len()` bytes.
                let n = unsafe { ffi::estuary_host_take_tx(self.handle, buf.as_mut_ptr(), 4096) };
                out.extend_from_slice(&buf[..n]);
                if n < buf.len() {
                    return out;
                }
            }
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// The oldest strobe not yet taken.
    pub fn take_strobe(&mut self) -> Option<Strobe> {
        #[cfg(verilated)]
        {
            let mut e = ffi::Event {
                kind: 0,
                depth: 0,
                hist_count: 0,
                position: [0; 42],
                nodes: 0,
                clocks: 0,
            };
            // SAFETY: the handle is live; `e` is a valid Event for the harness to fill.
            if unsafe { ffi::estuary_host_take_event(self.handle, &mut e) } == 0 {
                return None;
            }
            Some(match e.kind {
                1 => Strobe::Load {
                    position: e.position,
                    history: e.hist_count,
                },
                2 => Strobe::Carry(Request::Go {
                    depth: e.depth,
                    nodes: e.nodes,
                    clocks: e.clocks,
                }),
                3 => Strobe::Carry(Request::Stop),
                _ => Strobe::Carry(Request::Clear),
            })
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// History hash `i` of the loaded game, through the unit's read port (one clock).
    #[allow(unused_variables)]
    pub fn history(&mut self, i: u32) -> u64 {
        #[cfg(verilated)]
        // SAFETY: the handle is live; the call sets the address and clocks once.
        unsafe {
            ffi::estuary_host_history(self.handle, i)
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// Offers `offer` until the unit acks it; returns the clocks that took.
    #[allow(unused_variables)]
    pub fn offer(&mut self, offer: &Offer) -> Result<u64, RtlError> {
        #[cfg(verilated)]
        {
            let pv = &offer.pv[..offer.pv.len().min(255)];
            // SAFETY: the handle is live; the harness copies the PV before returning.
            let waited = unsafe {
                ffi::estuary_host_report(
                    self.handle,
                    i32::from(offer.last),
                    offer.depth,
                    offer.score,
                    offer.nodes,
                    offer.clocks,
                    i32::from(offer.stopped),
                    pv.as_ptr(),
                    pv.len(),
                )
            };
            u64::try_from(waited).map_err(|_| RtlError::Hung)
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// Clocks since reset.
    pub fn cycles(&self) -> u64 {
        #[cfg(verilated)]
        // SAFETY: the handle is live; the call reads a counter.
        unsafe {
            ffi::estuary_host_cycles(self.handle)
        }
        #[cfg(not(verilated))]
        match self.never {}
    }
}

impl Drop for HostSim {
    fn drop(&mut self) {
        #[cfg(verilated)]
        // SAFETY: the handle was made by estuary_host_new and is freed only here.
        unsafe {
            ffi::estuary_host_free(self.handle)
        }
    }
}

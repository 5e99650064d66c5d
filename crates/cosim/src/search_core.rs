//! One search core (`hw/chip/chip_core.v`: the sequencer over the move generator, the
//! evaluation unit and the mirror), co-simulated a clock at a time. [`CoreSim`] writes the
//! net and loads a position through the host port, then runs a GO and returns every command
//! the sequencer gave the units, with its clock, in the model's terms ([`hw::chip::Event`]),
//! and the reports and answer, for comparison with [`hw::chip::Machine`].

use crate::RtlError;
use chess::{Board, Move};
use eval::chip::ChipNet;
use hw::chip::{Command, Config, Event, Limits, Report};

#[cfg(verilated)]
mod ffi {
    use core::ffi::c_void;

    #[repr(C)]
    #[derive(Copy, Clone)]
    pub struct Event {
        pub clock: u64,
        pub kind: u32,
        pub data: u32,
    }

    #[repr(C)]
    #[derive(Copy, Clone)]
    pub struct Report {
        pub nodes: u64,
        pub clocks: u64,
        pub score: i32,
        pub depth: u32,
        pub pv_len: u32,
        pub pv: [u16; 64],
    }

    #[repr(C)]
    pub struct Limits {
        pub nodes: u64,
        pub clocks: u64,
        pub depth: u32,
        pub null_move: u32,
        pub lmr: u32,
        pub lmp: u32,
        pub tt_clocks: u32,
        pub tt_sdram: u32,
        pub max_cycles: u64,
        pub stop_at: u64,
    }

    #[repr(C)]
    #[derive(Default)]
    pub struct Result {
        pub nodes: u64,
        pub qnodes: u64,
        pub clocks: u64,
        pub events: u64,
        pub reports: u64,
        pub best: u32,
        pub stopped: u32,
        pub overflow: u32,
        pub finished: u32,
    }

    extern "C" {
        pub fn estuary_core_new() -> *mut c_void;
        pub fn estuary_core_free(h: *mut c_void);
        pub fn estuary_core_unit(h: *mut c_void, unit: i32, cmd: u32, addr: u32, data: u32) -> i32;
        pub fn estuary_core_position(
            h: *mut c_void,
            pos: *const u8,
            hist: *const u64,
            n: u32,
        ) -> i32;
        pub fn estuary_core_hash(h: *mut c_void) -> u64;
        pub fn estuary_core_clear(h: *mut c_void, sdram: u32) -> i32;
        pub fn estuary_core_sdram_violations(h: *mut c_void, buf: *mut u8, len: u32) -> u64;
        pub fn estuary_core_go(
            h: *mut c_void,
            lim: *const Limits,
            ev: *mut Event,
            ecap: u64,
            rep: *mut Report,
            rcap: u64,
            out: *mut Result,
        ) -> i32;
    }
}

/// The block-RAM table of the verilated core: 2^13 entries, as [`Config::default`]. Its
/// SDRAM table ([`Config::sdram`]) has [`hw::chip::sdram::ENTRIES`].
pub const TT_ENTRIES: usize = 1 << 13;

/// What a GO on the core did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreRun {
    /// Every command the sequencer gave, with its clock (an entry `None` where the two units
    /// were not given the same MAKE, NULL or UNMAKE in the same clock).
    pub events: Vec<Option<Event>>,
    /// The completed iterations.
    pub reports: Vec<Report>,
    /// The move it answered, none when there is no legal move.
    pub best: Option<Move>,
    /// Stopped by a limit before the last iteration.
    pub stopped: bool,
    /// Nodes, quiescence nodes, and the clock at the answer.
    pub nodes: u64,
    /// Of them, quiescence nodes.
    pub qnodes: u64,
    /// The clock at the answer, counted from the load.
    pub clocks: u64,
    /// A move list ran out of room (the answer is then not the model's).
    pub overflow: bool,
    /// The clocks in which the evaluation unit gave a score.
    pub scores: Vec<u64>,
}

/// A verilated search core.
pub struct CoreSim {
    #[cfg(verilated)]
    handle: *mut core::ffi::c_void,
    #[cfg(not(verilated))]
    never: std::convert::Infallible,
}

const GEN: i32 = 0;
const EVAL: i32 = 1;
const CMD_LOAD: u32 = 1;

impl CoreSim {
    /// A reset core (table and killers cleared) whose evaluation unit holds `net`.
    #[allow(unused_variables)]
    pub fn new(net: &ChipNet) -> Result<CoreSim, RtlError> {
        #[cfg(verilated)]
        {
            // SAFETY: no preconditions; the handle is owned by this CoreSim, freed in Drop.
            let handle = unsafe { ffi::estuary_core_new() };
            let mut sim = CoreSim { handle };
            for (cmd, addr, data) in crate::evalunit::write_commands(net)? {
                sim.unit(EVAL, cmd, addr, data)?;
            }
            Ok(sim)
        }
        #[cfg(not(verilated))]
        Err(RtlError::NotBuilt)
    }

    #[allow(unused_variables)]
    fn unit(&mut self, unit: i32, cmd: u32, addr: u32, data: u32) -> Result<(), RtlError> {
        #[cfg(verilated)]
        {
            // SAFETY: the handle is live; the call only clocks the model.
            RtlError::from_done(unsafe {
                ffi::estuary_core_unit(self.handle, unit, cmd, addr, data)
            })
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// CLEAR (a new game) with the table of `config`: the block RAM's entries emptied, or the
    /// SDRAM's generation advanced; the killers emptied.
    #[allow(unused_variables)]
    pub fn clear(&mut self, config: Config) -> Result<(), RtlError> {
        #[cfg(verilated)]
        {
            // SAFETY: the handle is live; the call only clocks the model.
            RtlError::from_done(unsafe {
                ffi::estuary_core_clear(self.handle, config.sdram as u32)
            })
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// The rules of the datasheet the SDRAM controller broke so far, as the harness's SDRAM
    /// chip (csrc/sdram.h) counted them, and the first described.
    pub fn sdram_violations(&self) -> (u64, String) {
        #[cfg(verilated)]
        {
            let mut buf = [0u8; 200];
            // SAFETY: the handle is live; `buf` has the length passed.
            let n = unsafe {
                ffi::estuary_core_sdram_violations(self.handle, buf.as_mut_ptr(), buf.len() as u32)
            };
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            (n, String::from_utf8_lossy(&buf[..end]).into_owned())
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// Loads `board` into the three units and the hashes of the game before it (those the
    /// model keeps: since the last irreversible move), as the host would.
    #[allow(unused_variables)]
    pub fn load(&mut self, board: &Board, history: &[u64]) -> Result<(), RtlError> {
        for (i, w) in crate::movegen::load_words(board).iter().enumerate() {
            self.unit(GEN, CMD_LOAD, i as u32, *w)?;
            self.unit(EVAL, CMD_LOAD, i as u32, *w)?;
        }
        let hist = hw::chip::kept_history(board, history);
        #[cfg(verilated)]
        {
            let pos = hw::chip::protocol::encode_position(board);
            // SAFETY: the handle is live; `pos` has the 42 bytes and `hist` the `n` hashes
            // the harness reads.
            let ok = unsafe {
                ffi::estuary_core_position(
                    self.handle,
                    pos.as_ptr(),
                    hist.as_ptr(),
                    hist.len() as u32,
                )
            };
            if ok != 1 {
                return Err(RtlError::Hung);
            }
            // SAFETY: the handle is live; the call reads an output.
            let hash = unsafe { ffi::estuary_core_hash(self.handle) };
            if hash != board.hash() {
                return Err(RtlError::Refused(format!(
                    "the mirror's hash {hash:016x} is not the board's {:016x}",
                    board.hash()
                )));
            }
            Ok(())
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// GO within `limits` on a core built as `config` (its table size is [`TT_ENTRIES`]);
    /// gives up after `max_cycles` clocks.
    pub fn go(
        &mut self,
        limits: Limits,
        config: Config,
        max_cycles: u64,
    ) -> Result<CoreRun, RtlError> {
        self.go_stopped(limits, config, max_cycles, None)
    }

    /// [`CoreSim::go`] with the stop line ("decide now") raised from clock `stop_at` on.
    #[allow(unused_variables)]
    pub fn go_stopped(
        &mut self,
        limits: Limits,
        config: Config,
        max_cycles: u64,
        stop_at: Option<u64>,
    ) -> Result<CoreRun, RtlError> {
        #[cfg(verilated)]
        {
            let lim = ffi::Limits {
                nodes: limits.nodes.min(u64::from(u32::MAX) << 16),
                clocks: limits.clocks.min(u64::from(u32::MAX) << 16),
                depth: limits.depth.min(127),
                null_move: config.null_move as u32,
                lmr: config.lmr as u32,
                lmp: config.lmp as u32,
                tt_clocks: config.tt_clocks.clamp(1, 1023) as u32,
                tt_sdram: config.sdram as u32,
                max_cycles,
                stop_at: stop_at.map_or(0, |t| t.max(1)),
            };
            let mut ev = vec![
                ffi::Event {
                    clock: 0,
                    kind: 0,
                    data: 0
                };
                1 << 22
            ];
            let mut rep = vec![
                ffi::Report {
                    nodes: 0,
                    clocks: 0,
                    score: 0,
                    depth: 0,
                    pv_len: 0,
                    pv: [0; 64]
                };
                64
            ];
            let mut out = ffi::Result::default();
            // SAFETY: the handle is live; `ev` and `rep` have the capacities passed, and
            // `out` is a valid Result for the harness to fill.
            let ok = unsafe {
                ffi::estuary_core_go(
                    self.handle,
                    &lim,
                    ev.as_mut_ptr(),
                    ev.len() as u64,
                    rep.as_mut_ptr(),
                    rep.len() as u64,
                    &mut out,
                )
            };
            if ok != 1 {
                return Err(RtlError::Hung);
            }
            let n = (out.events as usize).min(ev.len());
            let scores = ev[..n]
                .iter()
                .filter(|e| e.kind == 6)
                .map(|e| e.clock)
                .collect();
            let events = ev[..n]
                .iter()
                .filter(|e| e.kind != 6)
                .map(|e| {
                    let command = match e.kind {
                        1 => Command::Make(Move::from_raw(e.data as u16)),
                        2 => Command::Null,
                        3 => Command::Unmake,
                        4 => Command::Gen {
                            captures_only: e.data & 1 != 0,
                        },
                        5 => Command::Eval,
                        _ => return None,
                    };
                    Some(Event {
                        clock: e.clock,
                        command,
                    })
                })
                .collect();
            let reports = rep[..(out.reports as usize).min(rep.len())]
                .iter()
                .map(|r| Report {
                    depth: r.depth,
                    score: r.score,
                    pv: r.pv[..(r.pv_len as usize).min(64)]
                        .iter()
                        .map(|&m| Move::from_raw(m))
                        .collect(),
                    nodes: r.nodes,
                    clocks: r.clocks,
                })
                .collect();
            Ok(CoreRun {
                events,
                reports,
                best: (out.best != 0).then(|| Move::from_raw(out.best as u16)),
                stopped: out.stopped != 0,
                nodes: out.nodes,
                qnodes: out.qnodes,
                clocks: out.clocks,
                overflow: out.overflow != 0,
                scores,
            })
        }
        #[cfg(not(verilated))]
        match self.never {}
    }
}

impl Drop for CoreSim {
    fn drop(&mut self) {
        #[cfg(verilated)]
        // SAFETY: the handle was made by estuary_core_new and is freed only here.
        unsafe {
            ffi::estuary_core_free(self.handle)
        }
    }
}

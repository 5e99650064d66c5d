//! The move generator (`hw/movegen/`).
//!
//! * [`tables`]: the ROM contents and constants of `hw/movegen/gen/`, rendered from the chess
//!   crate (`estuary hw gen`).
//! * [`traffic`]: the 32-bit words that cross the host/device boundary, and the measurement
//!   of perft trees driven over it (`estuary hw traffic`).
//! * [`stream`]: the order the generator streams its moves in, and its clocks per generate.

pub mod stream;
pub mod tables;
pub mod traffic;

/// The generator's routed Fmax on the ECP5 LFE5U-85F, MHz: commit 4a9720d's RTL (the clocks of
/// today's `hw/movegen`), nextpnr placer seed 3, `NEXTPNR_ARGS="--seed 3" hw/synth.sh ecp5`
/// (hw/README.md). Amdahl's-law projections (`estuary profile`) clock the unit at this.
pub const ROUTED_FMAX_MHZ: f64 = 113.6;

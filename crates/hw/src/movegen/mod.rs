//! The move generator (`hw/movegen/`).
//!
//! * [`tables`]: the ROM contents and constants of `hw/movegen/gen/`, rendered from the chess
//!   crate (`estuary hw gen`).
//! * [`traffic`]: the 32-bit words that cross the host/device boundary, and the measurement
//!   of perft trees driven over it (`estuary hw traffic`).

pub mod tables;
pub mod traffic;

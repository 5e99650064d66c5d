//! Estuary's Verilog hardware units (`hw/<unit>/`), co-simulated with Verilator and exposed to
//! Rust behind the same boundaries as their software counterparts, one module per unit:
//!
//! * [`movegen`]: the move generator of `hw/movegen/` as a [`device::MoveGenDevice`], and the
//!   engine's searches run on it against the software generator.
//! * [`evalunit`]: the evaluation unit of `hw/evalunit/` as a [`device::Evaluator`], checked
//!   against the chip net's Rust reference at every node.
//! * [`host`]: the search machine's host interface of `hw/host/` (UART, frames, the request
//!   checks, replies), driven at its pins against the protocol's model.
//! * [`mirror`]: the search machine's mirror of the position (`hw/chip/mirror.v`: command
//!   words, Zobrist hash, halfmove clock), checked against the chess crate.
//! * [`search_core`]: one search core (`hw/chip/chip_core.v`: the sequencer over the other
//!   units), its commands compared with the search machine's model clock by clock.
//! * [`chip`]: the whole search machine (`hw/chip/estuary_chip.v`: host interface, loader,
//!   one core) at its UART pins, speaking the byte protocol a board speaks.
//!
//! `build.rs` verilates every unit and compiles it with its C++ harness (`csrc/<unit>.cpp`).
//! Without Verilator at build time the crate is a stub: [`available`] is false and every
//! simulation's constructor returns [`RtlError::NotBuilt`].

pub mod chip;
mod error;
pub mod evalunit;
pub mod host;
pub mod mirror;
pub mod movegen;
pub mod search_core;

pub use error::RtlError;

/// True when the verilated designs were compiled into this build.
pub const fn available() -> bool {
    cfg!(verilated)
}

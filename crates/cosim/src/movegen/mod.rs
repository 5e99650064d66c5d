//! The Verilog move generator of `hw/movegen/`, co-simulated.
//!
//! [`Sim`] drives the verilated design one command at a time (load, make, unmake, null move,
//! generate); [`RtlDevice`] puts it behind the engine's [`device::MoveGenDevice`] interface,
//! keeping the host's mirror position and the undo words, and counts the 32-bit words that
//! would cross the bus (the costs of `hw::movegen::traffic`) and the device clocks spent.
//! [`compare_searches`] runs the same searches on it and on the software generator.

mod compare;
mod device;
mod sim;
mod words;

pub use compare::{compare_searches, SearchComparison};
pub use device::RtlDevice;
pub use sim::Sim;
pub use words::{load_words, make_word, unmake_word, LOAD_WORDS};

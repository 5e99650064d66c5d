//! The Verilog evaluation unit of `hw/evalunit/`, co-simulated.
//!
//! [`Sim`] drives the verilated unit one command at a time (weight writes, load, make, unmake,
//! null move, evaluate) and reads its accumulator stack through the simulator; [`RtlEval`]
//! puts it behind the engine's [`device::Evaluator`] boundary, checked against the Rust
//! reference (`eval::chip`) at every node, with the device clocks per kind of command.

mod device;
mod sim;

pub use device::{RtlEval, UnitClocks};
pub use sim::Sim;

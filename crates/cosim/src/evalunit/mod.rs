//! The Verilog evaluation unit of `hw/evalunit/`, co-simulated.
//!
//! [`Sim`] drives the verilated unit one command at a time (weight writes, load, make, unmake,
//! null move, evaluate) and reads its accumulator stack through the simulator; [`RtlEval`]
//! puts it behind the engine's [`device::Evaluator`] boundary, checked against the Rust
//! reference (`eval::chip`) at every node, with the device clocks per kind of command;
//! [`compare_searches`] runs the engine's searches on it (and on the co-simulated generator)
//! next to the same searches in software.

mod compare;
mod device;
mod sim;

pub use compare::{
    compare_searches, rtl_pool, software_pool, ChipEvaluation, EvalComparison, ReportedRtlEval,
    UnitReport,
};
pub use device::{RtlEval, UnitClocks};
pub(crate) use sim::write_commands;
pub use sim::Sim;

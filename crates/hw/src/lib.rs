//! Rust models of Estuary's hardware units, one module per unit (as `hw/<unit>/` holds its
//! Verilog): the tables each unit's Verilog is generated from, and the models of its
//! boundary traffic that the co-simulation (`estuary-cosim`) is measured against.
//!
//! * [`movegen`]: the move generator of `hw/movegen/`.
//! * [`evalunit`]: the evaluation unit of `hw/evalunit/` (the chip net's memory image).
//! * [`chip`]: the search machine over both units, its model at the level of commands and
//!   clocks (docs/chip.md).
//!
//! Across units: [`amdahl`], the whole search's speedup when a unit moves into hardware, from
//! a profile of the software and the co-simulation's clocks per call.

pub mod amdahl;
pub mod chip;
pub mod evalunit;
pub mod movegen;

/// Panics unless each generated file (name, fresh text) under `dir` (relative to the
/// repository root) is committed as `estuary hw gen` writes it now.
#[cfg(test)]
pub(crate) fn assert_committed<N: AsRef<str>>(
    dir: &str,
    files: impl IntoIterator<Item = (N, String)>,
) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(dir);
    for (name, text) in files {
        let p = dir.join(name.as_ref());
        let on_disk =
            std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(
            on_disk == text,
            "{} is stale: run `estuary hw gen`",
            p.display()
        );
    }
}

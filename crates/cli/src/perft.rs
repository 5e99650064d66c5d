//! `estuary perft`: leaf counts of the legal move tree, single positions and EPD suites.

use std::process::ExitCode;

pub fn run(_raw: &[String]) -> Result<ExitCode, String> {
    Err("perft: not built yet".into())
}

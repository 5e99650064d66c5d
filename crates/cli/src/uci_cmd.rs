//! `estuary` with no arguments (or `estuary uci`): the UCI engine on stdin/stdout.

use std::process::ExitCode;

/// Speaks UCI until `quit` or end of input.
pub fn run(_args: &[String]) -> Result<ExitCode, String> {
    let stdin = std::io::stdin();
    uci::run(stdin.lock(), std::io::stdout());
    Ok(ExitCode::SUCCESS)
}

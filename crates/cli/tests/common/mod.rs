//! Helpers shared by the `estuary` binary's integration tests.

use std::process::Command;

/// Runs the built `estuary` with `args`; returns (exit code, stdout, stderr).
pub fn estuary(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_estuary"))
        .args(args)
        .output()
        .expect("run estuary");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

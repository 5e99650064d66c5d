//! `estuary serve [--port P] [--host H]`: the web app (crates/web), bound to 127.0.0.1 unless
//! told otherwise; prints the address to open and serves until interrupted.

use crate::args::Args;
use std::process::ExitCode;

/// The port when none is given.
const DEFAULT_PORT: u16 = 8080;

/// Runs the server.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    let mut a = Args::parse(raw, &[]).map_err(|e| e.to_string())?;
    let host = a.value("host").unwrap_or_else(|| "127.0.0.1".into());
    let port: u16 = a
        .parsed("port")
        .map_err(|e| e.to_string())?
        .unwrap_or(DEFAULT_PORT);
    a.finish().map_err(|e| e.to_string())?;
    if let Some(extra) = a.positional().first() {
        return Err(format!("serve: unexpected argument '{extra}'"));
    }
    web::serve(&host, port, |addr| {
        println!("Estuary is serving on http://{addr}/ (play, analyse, tsume); Ctrl-C ends it");
    })?;
    Ok(ExitCode::SUCCESS)
}

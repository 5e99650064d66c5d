//! `estuary` with no arguments (or `estuary uci`): the UCI engine on stdin/stdout.

use std::process::ExitCode;

/// Speaks UCI until `quit` or end of input; `--device chip-model` puts the search machine's
/// model (`hw::chip`) behind it instead of the software engine.
pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut a = crate::args::Args::parse(args, &[]).map_err(|e| e.to_string())?;
    let device = a.value("device");
    a.finish().map_err(|e| e.to_string())?;
    let stdin = std::io::stdin();
    match device.as_deref() {
        None | Some("software") => {}
        Some("chip-model") => {
            uci::run_chip(stdin.lock(), std::io::stdout());
            return Ok(ExitCode::SUCCESS);
        }
        Some(other) => return Err(format!("unknown device '{other}' (software or chip-model)")),
    }
    // With Verilator built in, the `Hardware` option searches on the co-simulated units.
    let hardware: Option<uci::HardwarePools> = cosim::available().then(|| {
        let pools: uci::HardwarePools = std::sync::Arc::new(|hash_mb, net| {
            cosim::evalunit::rtl_pool(
                net,
                hash_mb,
                device::Meter::new(),
                cosim::evalunit::UnitReport::default(),
            )
            .map_err(|e| e.to_string())
        });
        pools
    });
    uci::run_with(stdin.lock(), std::io::stdout(), hardware);
    Ok(ExitCode::SUCCESS)
}

//! `estuary` with no arguments (or `estuary uci`): the UCI engine on stdin/stdout.

use std::process::ExitCode;

/// Speaks UCI until `quit` or end of input.
pub fn run(_args: &[String]) -> Result<ExitCode, String> {
    let stdin = std::io::stdin();
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

//! `estuary` with no arguments (or `estuary uci`): the UCI engine on stdin/stdout.

use std::process::ExitCode;
use std::sync::Arc;

/// Speaks UCI until `quit` or end of input. `--device` puts the search machine behind it
/// instead of the software engine: `chip-model` (its model, `hw::chip`), `chip-rtl` (the
/// verilated RTL of hw/chip/estuary_chip.v at its UART pins) or `chip --port PATH [--baud N]`
/// (a board on a serial port).
pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut a = crate::args::Args::parse(args, &[]).map_err(|e| e.to_string())?;
    let device = a.value("device");
    let port = a.value("port");
    let baud = a.parsed::<u32>("baud").map_err(|e| e.to_string())?;
    a.finish().map_err(|e| e.to_string())?;
    let stdin = std::io::stdin();
    if port.is_some() != (device.as_deref() == Some("chip")) {
        return Err("--port PATH goes with --device chip (a board on a serial port)".into());
    }
    let chip = match device.as_deref() {
        None | Some("software") => None,
        Some("chip-model") => Some(uci::ChipDevice::Model),
        Some("chip-rtl") => Some(rtl_device()?),
        Some("chip") => {
            let path = port.unwrap_or_default();
            let serve = uci::serial_server(&path, baud.unwrap_or(crate::chip_serve::BOARD_BAUD))?;
            Some(uci::ChipDevice::Fixed {
                name: format!("chip on {path}"),
                config: crate::chip_serve::board_config(),
                serve,
            })
        }
        Some(other) => {
            return Err(format!(
                "unknown device '{other}' (software, chip-model, chip-rtl or chip --port PATH)"
            ))
        }
    };
    if let Some(device) = chip {
        uci::run_chip(stdin.lock(), std::io::stdout(), device);
        return Ok(ExitCode::SUCCESS);
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

/// The verilated search machine as a UCI device: one chip, simulated on the link's thread.
fn rtl_device() -> Result<uci::ChipDevice, String> {
    if !cosim::available() {
        return Err("chip-rtl needs the co-simulation: build with verilator installed".into());
    }
    let config = hw::chip::Config {
        tt_entries: cosim::chip::TT_ENTRIES,
        ..hw::chip::Config::default()
    };
    let serve: uci::ChipServer = Arc::new(move |rx, tx| {
        match cosim::chip::ChipSim::new(config, cosim::chip::SIM_BAUD_DIV, cosim::chip::SIM_TIMEOUT)
        {
            Ok(chip) => cosim::chip::serve_rtl(chip, rx, tx),
            Err(e) => eprintln!("chip-rtl: {e}"),
        }
    });
    Ok(uci::ChipDevice::Fixed {
        name: "chip-rtl".into(),
        config,
        serve,
    })
}

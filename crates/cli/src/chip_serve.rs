//! `estuary chip serve`: the search machine's model playing the board at the far end of a
//! serial line, so that `estuary uci --device chip --port PATH` can be run and tested without
//! a board.
//!
//! * `--port PATH [--baud N]` serves on a serial port that exists (a USB serial adapter wired
//!   to the host's, say), set raw 8N1 as the host sets its own.
//! * `--pty` makes a pseudo-terminal and prints its path (`serving on /dev/pts/N`) as the
//!   first line; point the host's `--port` at that path.
//!
//! The model speaks the board's protocol (`hw::chip::protocol::serve_model`) with the board's
//! build (a table of 2^12 entries, as hw/board/ulx3s_top.v's `TT_BITS`, unless told), so a
//! host sees what a board would answer, node for node. Bad frames get the board's error
//! replies. It serves until the line hangs up or it is stopped (Ctrl-C).

use crate::args::Args;
use hw::chip::protocol::serve_model;
use std::fs::File;
use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

/// Without a byte for this long inside a frame, the frame is cut (the board's inter-byte
/// timeout is the same order: a frame's bytes come back to back).
const BYTE_TIMEOUT: Duration = Duration::from_millis(200);

/// The board's UART: hw/board/ulx3s_top.v's 115200 baud (8N1).
pub const BOARD_BAUD: u32 = 115_200;

/// The search machine as hw/board/ulx3s_top.v builds it: the table in the board's SDRAM,
/// the rest the model's defaults.
pub fn board_config() -> hw::chip::Config {
    hw::chip::Config::sdram()
}

pub const USAGE: &str = "estuary chip serve (--port PATH [--baud N] | --pty) [--net FILE] \
     [--tt-entries N] [--tt-clocks K | --sdram]";

/// Runs `estuary chip serve ...`.
pub fn run(rest: &[String]) -> Result<ExitCode, String> {
    let mut args =
        Args::parse(rest, &["pty", "sdram", "lmp", "no-lmp"]).map_err(|e| e.to_string())?;
    let pty = args.flag("pty");
    let port = args.value("port");
    let baud = args.parsed::<u32>("baud").map_err(|e| e.to_string())?;
    let (net, config) = crate::chip::net_and_config(&mut args, board_config())?;
    args.finish().map_err(|e| e.to_string())?;
    let (line, name, _slave) = match (pty, port) {
        (true, None) => {
            if baud.is_some() {
                return Err("--baud goes with --port (a pseudo-terminal has no baud rate)".into());
            }
            let (master, slave, name) = open_pty()?;
            (master, name, Some(slave))
        }
        (false, Some(path)) => (
            uci::open_raw(&path, baud.unwrap_or(BOARD_BAUD))?,
            path,
            None,
        ),
        _ => return Err(format!("give one of --port PATH and --pty\nusage: {USAGE}")),
    };
    let machine = hw::chip::Machine::new(net, config).map_err(|e| e.to_string())?;
    println!("serving on {name}");
    eprintln!(
        "the chip model (a table of {} entries) answers the board's protocol on {name}; \
         Ctrl-C stops",
        config.tt_entries
    );
    std::io::stdout().flush().map_err(|e| e.to_string())?;
    serve(line, machine).map_err(|e| format!("{name}: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// Carries the line's bytes to the model and its replies back, until the line hangs up.
fn serve(line: File, machine: hw::chip::Machine) -> Result<(), String> {
    let (req_tx, req_rx) = mpsc::channel::<u8>();
    let (rep_tx, rep_rx) = mpsc::channel::<Vec<u8>>();
    let mut reader = line.try_clone().map_err(|e| e.to_string())?;
    let mut writer = line;
    let read = std::thread::spawn(move || -> Result<(), String> {
        let mut buf = [0u8; 256];
        loop {
            match reader.read(&mut buf) {
                Ok(0) => return Err("the line hung up".into()),
                Ok(n) => {
                    for &b in &buf[..n] {
                        if req_tx.send(b).is_err() {
                            return Ok(());
                        }
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("cannot read: {e}")),
            }
        }
    });
    std::thread::spawn(move || {
        for reply in rep_rx {
            if writer
                .write_all(&reply)
                .and_then(|_| writer.flush())
                .is_err()
            {
                return;
            }
        }
    });
    // Returns when the reader's end of the request channel closes.
    serve_model(machine, req_rx, rep_tx, BYTE_TIMEOUT);
    read.join().unwrap_or(Err("the reader stopped".into()))
}

/// A new pseudo-terminal: its master (the board's end), its slave held open (so the master
/// never reads a hang-up while no host has the line open) and set raw, and the slave's path
/// for the host.
#[cfg(target_os = "linux")]
fn open_pty() -> Result<(File, File, String), String> {
    use std::os::fd::{AsRawFd, FromRawFd};
    use std::os::unix::fs::OpenOptionsExt;
    let err = |what: &str| {
        format!(
            "cannot make a pseudo-terminal: {what}: {}",
            std::io::Error::last_os_error()
        )
    };
    // SAFETY: plain libc calls on a descriptor this function owns; the buffers outlive them.
    unsafe {
        let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        if fd < 0 {
            return Err(err("posix_openpt"));
        }
        let master = File::from_raw_fd(fd);
        if libc::grantpt(fd) != 0 {
            return Err(err("grantpt"));
        }
        if libc::unlockpt(fd) != 0 {
            return Err(err("unlockpt"));
        }
        let mut buf = [0 as libc::c_char; 128];
        if libc::ptsname_r(fd, buf.as_mut_ptr(), buf.len()) != 0 {
            return Err(err("ptsname_r"));
        }
        let name = std::ffi::CStr::from_ptr(buf.as_ptr())
            .to_string_lossy()
            .into_owned();
        let slave = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NOCTTY)
            .open(&name)
            .map_err(|e| format!("cannot open {name}: {e}"))?;
        let mut t: libc::termios = std::mem::zeroed();
        if libc::tcgetattr(slave.as_raw_fd(), &mut t) != 0 {
            return Err(err("tcgetattr"));
        }
        libc::cfmakeraw(&mut t);
        if libc::tcsetattr(slave.as_raw_fd(), libc::TCSANOW, &t) != 0 {
            return Err(err("tcsetattr"));
        }
        Ok((master, slave, name))
    }
}

#[cfg(not(target_os = "linux"))]
fn open_pty() -> Result<(File, File, String), String> {
    Err("--pty is built for Linux only; use --port with a serial port".into())
}

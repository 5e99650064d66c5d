//! A search machine on a board, reached through a serial port (the ULX3S's FT231X bridge
//! shows up as /dev/ttyUSB0): the link behind `estuary uci --device chip --port PATH`.

use crate::chip::ChipServer;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::process::Command;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};

/// The serial port at `path`, set to `baud` 8N1 raw (through `stty`), as the far end of a
/// link: request bytes are written to it, what it reads goes back as reply bytes. Fails with
/// a message when the port cannot be opened or set.
pub fn serial_server(path: &str, baud: u32) -> Result<ChipServer, String> {
    let port = open_raw(path, baud)?;
    drop(port);
    let path = path.to_string();
    Ok(Arc::new(move |rx: Receiver<u8>, tx: Sender<Vec<u8>>| {
        let Ok(mut port) = open(&path) else { return };
        // The reader blocks in `read` and cannot be woken, so it holds the reply channel only
        // through `replies`: when the host closes the link the channel is taken from it,
        // the host's decoder sees the link end, and the reader is left to the process's exit.
        let replies = Arc::new(Mutex::new(Some(tx)));
        if let Ok(mut reader) = port.try_clone() {
            let replies = replies.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 256];
                while let Ok(n) = reader.read(&mut buf) {
                    let Ok(guard) = replies.lock() else { return };
                    match guard.as_ref() {
                        Some(tx) if n > 0 && tx.send(buf[..n].to_vec()).is_ok() => {}
                        _ => return,
                    }
                }
            });
        }
        // A request's bytes go out together: what has arrived by the time one is written.
        let mut out = Vec::new();
        while let Ok(b) = rx.recv() {
            out.push(b);
            out.extend(rx.try_iter());
            if port.write_all(&out).and_then(|_| port.flush()).is_err() {
                break;
            }
            out.clear();
        }
        if let Ok(mut guard) = replies.lock() {
            guard.take();
        };
    }))
}

/// Opens the serial port at `path` and sets it to `baud` 8N1 raw, no flow control (through
/// `stty`): the host's end of a link, or the board's end in `estuary chip serve --port`.
pub fn open_raw(path: &str, baud: u32) -> Result<File, String> {
    let port = open(path)?;
    let set = Command::new("stty")
        .arg("-F")
        .arg(path)
        .args([
            &baud.to_string(),
            "raw",
            "-echo",
            "cs8",
            "-cstopb",
            "-parenb",
        ])
        .args(["-crtscts", "-ixon", "-ixoff"])
        .output()
        .map_err(|e| format!("{path}: cannot run stty: {e}"))?;
    if !set.status.success() {
        return Err(format!(
            "{path}: stty could not set {baud} baud: {}",
            String::from_utf8_lossy(&set.stderr).trim()
        ));
    }
    Ok(port)
}

fn open(path: &str) -> Result<File, String> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| format!("cannot open the serial port {path}: {e}"))
}

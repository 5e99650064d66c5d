//! A search machine on a board, reached through a serial port (the ULX3S's FT231X bridge
//! shows up as /dev/ttyUSB0): the link behind `estuary uci --device chip --port PATH`.

use crate::chip::ChipServer;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::process::Command;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;

/// The serial port at `path`, set to `baud` 8N1 raw (through `stty`), as the far end of a
/// link: request bytes are written to it, what it reads goes back as reply bytes. Fails with
/// a message when the port cannot be opened or set.
pub fn serial_server(path: &str, baud: u32) -> Result<ChipServer, String> {
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
    drop(port);
    let path = path.to_string();
    Ok(Arc::new(move |rx: Receiver<u8>, tx: Sender<Vec<u8>>| {
        let Ok(mut port) = open(&path) else { return };
        if let Ok(mut reader) = port.try_clone() {
            std::thread::spawn(move || {
                let mut buf = [0u8; 256];
                while let Ok(n) = reader.read(&mut buf) {
                    if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                        return;
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
                return;
            }
            out.clear();
        }
    }))
}

fn open(path: &str) -> Result<File, String> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| format!("cannot open the serial port {path}: {e}"))
}

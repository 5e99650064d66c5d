//! A UCI session with the built `estuary` over a pipe, for the integration tests that speak
//! UCI to it (`uci.rs`, `chip_serial.rs`; each uses some of these).
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct Engine {
    child: Child,
    /// The engine's input, for bytes that `send` would not write (not UTF-8).
    pub stdin: ChildStdin,
    rx: Receiver<String>,
}

impl Engine {
    /// `estuary` with no arguments: it must speak UCI.
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// `estuary ARGS`, speaking UCI.
    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_estuary"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start estuary");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, rx }
    }

    pub fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`; panics after `secs`.
    pub fn until(&self, prefix: &str, secs: f64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(l) => {
                    let done = l.starts_with(prefix);
                    seen.push(l);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no '{prefix}' within {secs}s; saw {seen:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine exited waiting for '{prefix}'; saw {seen:#?}")
                }
            }
        }
    }

    /// Asserts no line starting with `prefix` arrives within `ms`; returns what did.
    pub fn none(&self, prefix: &str, ms: u64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_millis(ms);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(l) => {
                    assert!(!l.starts_with(prefix), "unexpected '{l}'");
                    seen.push(l);
                }
                Err(_) => return seen,
            }
        }
    }

    /// Asserts the engine exits successfully within `secs` (after `quit`).
    pub fn exits_within(&mut self, secs: f64) {
        let t = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success());
                return;
            }
            assert!(t.elapsed().as_secs_f64() < secs, "engine did not quit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn ready(&mut self) {
        self.send("isready");
        self.until("readyok", 10.0);
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.child.wait();
    }
}

/// The move of the last line (`bestmove MOVE ...`).
pub fn bestmove(lines: &[String]) -> String {
    lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string()
}

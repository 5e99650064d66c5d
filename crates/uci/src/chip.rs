//! UCI in front of the search machine: `estuary uci --device chip-model | chip-rtl | chip
//! --port PATH`.
//!
//! The front end speaks the chip's host protocol (`hw::chip::protocol`: LOAD, GO, STOP,
//! CLEAR frames; INFO, BEST, ERROR replies) over a link whose far end is a [`ChipDevice`]:
//! the model serving the protocol on a thread (`serve_model`), the verilated RTL at its UART
//! pins (`cosim::chip::serve_rtl`, given by the binary), or a board on a serial port
//! ([`crate::serial_server`]). A GUI or a match plays the chip at its projected speed: a
//! move's time is planned as the software engine plans it (`search::TimeBudget`: a soft
//! target and a hard limit); the hard limit becomes a budget of chip clocks at `Clock MHz`,
//! at which the chip stops, and after each iteration's report the host sends STOP once the
//! soft target has passed in the chip's time ([`Pacer`]). The model and the RTL run slower
//! than the chip would, so the wall clock is watched too and a STOP goes down the link when
//! the time is up (the answer is then the best move found so far); with `Wall Clock` off only
//! the chip's budget ends a timed search, for a match that charges the chip's time (the
//! closing `info string chip ... clocks C (X ms at M MHz)`) instead of the wall time
//! (tools/match `--device-time1`). `go nodes` is scaled by `Nodes Percent` for node-odds
//! matches (the chip at K x its speed ratio nodes against the software at K).

use crate::{
    line_output, lossy_lines, parse_go, parse_position, parse_setoption, split_command, Output,
    DEFAULT_MOVE_OVERHEAD, EMBEDDED_NET,
};
use chess::{Board, Move};
use hw::chip::protocol::{serve_model, ErrorCode, Reply, ReplyReader, Request};
use hw::chip::{score_text, Config, Machine, Report};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Engine name reported to `uci` (the device's name follows).
pub const CHIP_ENGINE_NAME: &str = concat!("Estuary ", env!("CARGO_PKG_VERSION"));

/// The far end of a link: given the request bytes and where the reply bytes go, it serves
/// until the requests' channel closes.
pub type ChipServer = Arc<dyn Fn(Receiver<u8>, Sender<Vec<u8>>) + Send + Sync>;

/// What UCI runs in front of.
#[derive(Clone)]
pub enum ChipDevice {
    /// The model (`hw::chip::Machine`) on a thread of this process; its table and net are
    /// UCI options.
    Model,
    /// A chip whose build is fixed (the verilated RTL, a board on a serial port): `name` for
    /// `id name`, `config` what it was built as, `serve` its link.
    Fixed {
        /// Shown after the engine's name.
        name: String,
        /// Its table and prunings.
        config: Config,
        /// Its link.
        serve: ChipServer,
    },
}
/// Default clock of the chip, MHz (the evaluation unit's routed Fmax, rounded down).
pub const DEFAULT_MHZ: u64 = 101;
/// How long the host waits for BEST after a STOP.
const STOP_ANSWER: Duration = Duration::from_secs(2);
/// The link's inter-byte timeout.
const LINK_TIMEOUT: Duration = Duration::from_millis(200);

/// The host's end of the link to a chip: request bytes out, decoded replies in.
struct Link {
    tx: Option<Sender<u8>>,
    replies: Arc<Mutex<Receiver<Reply>>>,
    threads: Vec<JoinHandle<()>>,
}

impl Link {
    /// The model behind the protocol, on threads of its own.
    fn model(machine: Machine) -> Link {
        Link::to(move |rx, tx| serve_model(machine, rx, tx, LINK_TIMEOUT))
    }

    /// A link to `serve`, on a thread of its own, and the thread that decodes its replies.
    fn to(serve: impl FnOnce(Receiver<u8>, Sender<Vec<u8>>) + Send + 'static) -> Link {
        let (tx, rx) = channel::<u8>();
        let (chip_tx, chip_rx) = channel::<Vec<u8>>();
        let (reply_tx, reply_rx) = channel::<Reply>();
        let server = std::thread::spawn(move || serve(rx, chip_tx));
        let decoder = std::thread::spawn(move || {
            let mut reader = ReplyReader::default();
            for chunk in chip_rx {
                for b in chunk {
                    if let Some(r) = reader.push(b) {
                        // A reply that arrives damaged is reported as what it is.
                        let _ = reply_tx.send(r.unwrap_or_else(Reply::Error));
                    }
                }
            }
        });
        Link {
            tx: Some(tx),
            replies: Arc::new(Mutex::new(reply_rx)),
            threads: vec![server, decoder],
        }
    }

    fn sender(&self) -> Sender<u8> {
        self.tx.clone().expect("the link is open")
    }

    fn send(&self, r: &Request) {
        send_on(&self.sender(), r);
    }
}

fn send_on(tx: &Sender<u8>, r: &Request) {
    for b in r.encode() {
        let _ = tx.send(b);
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        // Closing the line ends the server, which ends the decoder.
        self.tx.take();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

struct ChipUci {
    out: Output,
    device: ChipDevice,
    link: Link,
    /// Raised by `stop` (the search's thread then sends STOP down the link).
    stop: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    /// Raised while a search has not answered (lowered just before its `bestmove`).
    running: Arc<AtomicBool>,
    config: Config,
    eval_file: String,
    mhz: u64,
    /// Whether the wall clock also stops a search (see the `Wall Clock` option).
    wall_clock: bool,
    nodes_percent: u64,
    move_overhead: u64,
    start: Board,
    moves: Vec<Move>,
}

impl ChipUci {
    fn new(out: Output, device: ChipDevice) -> ChipUci {
        let (config, link) = match &device {
            ChipDevice::Model => {
                let config = Config::default();
                let machine = Machine::new(eval::chip::ChipNet::embedded_pure(), config)
                    .expect("the built-in pure chip net runs on the machine");
                (config, Link::model(machine))
            }
            ChipDevice::Fixed { config, serve, .. } => {
                let serve = serve.clone();
                (*config, Link::to(move |rx, tx| serve(rx, tx)))
            }
        };
        ChipUci {
            out,
            device,
            link,
            stop: Arc::new(AtomicBool::new(false)),
            search: None,
            running: Arc::new(AtomicBool::new(false)),
            config,
            eval_file: EMBEDDED_NET.into(),
            mhz: DEFAULT_MHZ,
            wall_clock: true,
            nodes_percent: 100,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            start: Board::startpos(),
            moves: Vec::new(),
        }
    }

    fn say(&self, line: &str) {
        (self.out)(line);
    }

    fn error(&self, msg: &str) {
        self.say(&format!("info string error: {msg}"));
    }

    /// True while a search has not answered; one that has is joined (it is a moment from
    /// done).
    fn searching(&mut self) -> bool {
        if !self.running.load(Ordering::Acquire) {
            if let Some(h) = self.search.take() {
                let _ = h.join();
            }
        }
        self.search.is_some()
    }

    fn stop_and_wait(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.search.take() {
            let _ = h.join();
        }
    }

    /// A new machine for the current options (idle only; the model only).
    fn rebuild(&mut self, eval_file: &str, config: Config) -> Result<(), String> {
        if let ChipDevice::Fixed { name, .. } = &self.device {
            return Err(format!("the {name} is built with its table and net"));
        }
        let net = hw::chip::chip_net((eval_file != EMBEDDED_NET).then_some(eval_file))?;
        let m = Machine::new(net, config).map_err(|e| e.to_string())?;
        self.link = Link::model(m);
        self.config = config;
        self.eval_file = eval_file.into();
        Ok(())
    }

    fn handle(&mut self, line: &str) -> bool {
        let (line, cmd, rest) = split_command(line);
        match cmd {
            "" => {}
            "uci" => {
                let device = match &self.device {
                    ChipDevice::Model => "chip-model",
                    ChipDevice::Fixed { name, .. } => name,
                };
                self.say(&format!("id name {CHIP_ENGINE_NAME} {device}"));
                self.say("id author the Estuary authors");
                self.say(&format!(
                    "option name TT Entries type spin default {} min 1 max 16777216",
                    self.config.tt_entries
                ));
                self.say(&format!(
                    "option name TT Clocks type spin default {} min 3 max 1000",
                    self.config.tt_clocks
                ));
                self.say(&format!(
                    "option name SDRAM Table type check default {}",
                    self.config.sdram
                ));
                self.say(&format!(
                    "option name Late Move Pruning type check default {}",
                    self.config.lmp
                ));
                self.say(&format!(
                    "option name Clock MHz type spin default {DEFAULT_MHZ} min 1 max 1000"
                ));
                self.say("option name Wall Clock type check default true");
                self.say("option name Nodes Percent type spin default 100 min 1 max 100000");
                self.say(&format!("option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD} min 0 max 5000"));
                self.say(&format!(
                    "option name EvalFile type string default {EMBEDDED_NET}"
                ));
                self.say("option name Clear Hash type button");
                self.say("uciok");
            }
            "isready" => self.say("readyok"),
            "debug" => {}
            "ucinewgame" => {
                self.stop_and_wait();
                self.link.send(&Request::Clear);
                self.start = Board::startpos();
                self.moves.clear();
            }
            "setoption" => self.setoption(rest),
            "position" => match parse_position(rest, false) {
                Ok((start, moves)) => {
                    self.start = start;
                    self.moves = moves;
                }
                Err(e) => self.error(&e),
            },
            "go" => self.go(rest),
            "stop" => self.stop_and_wait(),
            "ponderhit" => {}
            "quit" => {
                self.stop_and_wait();
                return false;
            }
            _ => self.error(&format!("unknown command '{line}'")),
        }
        true
    }

    fn setoption(&mut self, rest: &str) {
        let (name, value) = match parse_setoption(rest) {
            Ok(nv) => nv,
            Err(e) => return self.error(&e),
        };
        if self.searching() {
            return self.error(&format!("cannot change {name} while searching"));
        }
        let num = |lo: u64, hi: u64| -> Option<u64> {
            value.parse::<u64>().ok().filter(|v| (lo..=hi).contains(v))
        };
        let bad = || format!("bad value '{value}' for option {name}");
        let (config, file) = (self.config, self.eval_file.clone());
        let result = match name.to_ascii_lowercase().as_str() {
            "tt entries" => num(1, 1 << 24).ok_or_else(bad).and_then(|n| {
                self.rebuild(
                    &file,
                    Config {
                        tt_entries: n as usize,
                        sdram: false,
                        ..config
                    },
                )
            }),
            "tt clocks" => num(3, 1000).ok_or_else(bad).and_then(|n| {
                self.rebuild(
                    &file,
                    Config {
                        tt_clocks: n,
                        sdram: false,
                        ..config
                    },
                )
            }),
            "sdram table" => crate::parse_flag(value)
                .ok_or_else(bad)
                .and_then(|on| self.rebuild(&file, config.with_sdram(on))),
            "late move pruning" => crate::parse_flag(value)
                .ok_or_else(bad)
                .and_then(|lmp| self.rebuild(&file, Config { lmp, ..config })),
            "clock mhz" => num(1, 1000).ok_or_else(bad).map(|n| self.mhz = n),
            "wall clock" => crate::parse_flag(value)
                .ok_or_else(bad)
                .map(|v| self.wall_clock = v),
            "nodes percent" => num(1, 100_000)
                .ok_or_else(bad)
                .map(|n| self.nodes_percent = n),
            "move overhead" => num(0, 5000).ok_or_else(bad).map(|n| self.move_overhead = n),
            "evalfile" => {
                let file = if value.is_empty() {
                    EMBEDDED_NET
                } else {
                    value
                };
                self.rebuild(file, config)
            }
            "clear hash" => {
                self.link.send(&Request::Clear);
                Ok(())
            }
            _ => Err(format!("unknown option '{name}'")),
        };
        if let Err(e) = result {
            self.error(&format!("{e}; option unchanged"));
        }
    }

    fn go(&mut self, rest: &str) {
        if self.searching() {
            return self.error("already searching; send stop first");
        }
        let mut pos = chess::Position::new(self.start);
        for &m in &self.moves {
            pos.make(m);
        }
        let l = match parse_go(rest, &pos) {
            Ok(l) => l,
            Err(e) => return self.error(&e),
        };
        let board = *pos.board();
        // The time this move may take, ms, planned as the software engine plans it: a fixed
        // time, or from the clock a soft target and a hard limit. The hard limit is the GO's
        // budget of chip clocks; the soft target is the host's to keep (below).
        let mut plan = if l.infinite {
            search::TimeBudget::default()
        } else {
            search::TimeBudget::plan(&l, board.side_to_move(), self.move_overhead)
        };
        if l.movetime.is_some() {
            // A fixed time is spent whole: no soft target.
            plan.soft = None;
        }
        let budget_ms: Option<i64> = plan.hard.map(|h| h as i64);
        let depth = l
            .depth
            .map_or(0, |d| d.clamp(1, hw::chip::MAX_PLY as i32 - 1) as u8);
        let nodes = l
            .nodes
            .map_or(0, |n| (n.saturating_mul(self.nodes_percent) / 100).max(1));
        let clocks = budget_ms.map_or(0, |ms| hw::chip::LOAD_CLOCKS + ms as u64 * self.mhz * 1000);
        // The game since the last irreversible move, as hashes: the chip's repetition check
        // (a LOAD carries at most MAX_HISTORY).
        let keep = (board.halfmove_clock() as usize)
            .min(hw::chip::protocol::MAX_HISTORY)
            .min(pos.history().len());
        let history = pos.history()[pos.history().len() - keep..]
            .iter()
            .map(|b| b.hash())
            .collect();
        self.link.send(&Request::Load { board, history });
        self.link.send(&Request::Go {
            depth,
            nodes,
            clocks,
        });
        let replies = self.link.replies.clone();
        let line = self.link.sender();
        let stop = self.stop.clone();
        let out = self.out.clone();
        let mhz = self.mhz;
        let wall_budget = budget_ms.filter(|_| self.wall_clock);
        self.stop.store(false, Ordering::Relaxed);
        self.running.store(true, Ordering::Release);
        let running = self.running.clone();
        self.search = Some(std::thread::spawn(move || {
            let t0 = Instant::now();
            let deadline = wall_budget.map(|ms| t0 + Duration::from_millis(ms as u64));
            let replies = match replies.lock() {
                Ok(r) => r,
                Err(e) => e.into_inner(),
            };
            let info = |r: &Report| {
                let ms = t0.elapsed().as_millis().max(1);
                let mut b = board;
                let pv: Vec<String> =
                    r.pv.iter()
                        .map(|m| {
                            let t = b.move_to_uci(*m);
                            b.play(*m);
                            t
                        })
                        .collect();
                out(&format!(
                    "info depth {} score {} nodes {} time {ms} nps {} pv {}",
                    r.depth,
                    score_text(r.score),
                    r.nodes,
                    (r.nodes as u128 * 1000 / ms) as u64,
                    pv.join(" ")
                ));
                out(&format!(
                    "info string chip clocks {} ({:.1} ms at {mhz} MHz)",
                    r.clocks,
                    r.clocks as f64 / (mhz as f64 * 1000.0)
                ));
            };
            // Replies until BEST; STOP goes down the line when `stop` is raised, the wall
            // clock's time is up, or an iteration's report says the soft target has passed
            // (in the chip's time: its clocks at `mhz`).
            let mut stop_sent: Option<Instant> = None;
            let mut best: Option<(Option<Move>, Report)> = None;
            let mut pacer = Pacer::new(plan, mhz);
            while best.is_none() {
                let time_up = deadline.is_some_and(|d| Instant::now() >= d);
                if stop_sent.is_none() && (time_up || pacer.done || stop.load(Ordering::Relaxed)) {
                    send_on(&line, &Request::Stop);
                    stop_sent = Some(Instant::now());
                }
                // A chip that does not answer a STOP is given up on: the host is not wedged.
                if stop_sent.is_some_and(|t| t.elapsed() > STOP_ANSWER) {
                    out("info string error: the chip did not answer STOP");
                    best = Some((None, Report::default()));
                    break;
                }
                match replies.recv_timeout(Duration::from_millis(2)) {
                    Ok(Reply::Info(r)) => {
                        info(&r);
                        pacer.iteration(&r);
                    }
                    Ok(Reply::Best {
                        best: m, report, ..
                    }) => best = Some((m, report)),
                    Ok(Reply::Error(e)) => {
                        out(&format!("info string error: the chip answered {e:?}"));
                        if matches!(
                            e,
                            ErrorCode::Busy | ErrorCode::NoPosition | ErrorCode::BadPosition
                        ) {
                            best = Some((None, Report::default()));
                        }
                    }
                    Ok(Reply::Pong) | Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => {
                        out("info string error: the link to the chip is closed");
                        best = Some((None, Report::default()));
                    }
                }
            }
            // Under `go infinite` the answer waits for stop.
            while l.infinite && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
            }
            let (m, report) = best.unwrap_or_default();
            out(&format!(
                "info string chip nodes {} clocks {} ({:.1} ms at {mhz} MHz)",
                report.nodes,
                report.clocks,
                report.clocks as f64 / (mhz as f64 * 1000.0)
            ));
            running.store(false, Ordering::Release);
            match m {
                Some(b) => out(&format!("bestmove {}", board.move_to_uci(b))),
                None => out("bestmove 0000"),
            }
        }));
    }
}

/// The host's half of the chip's time management: after each iteration's report it decides,
/// as the software engine does between iterations (`search::TimeBudget`), whether to press
/// the stop line (the design review's "decide now"): once the soft target, scaled by the best
/// move's stability and the score's fall, has passed, or when the next iteration would run
/// into the hard limit, the chip's clock budget. Time is the chip's: report clocks at `mhz`.
struct Pacer {
    plan: search::TimeBudget,
    mhz: u64,
    signals: search::IterationSignals,
    last_best: Option<Move>,
    last_clocks: u64,
    /// True once the chip should stop.
    done: bool,
}

impl Pacer {
    fn new(plan: search::TimeBudget, mhz: u64) -> Pacer {
        Pacer {
            plan,
            mhz,
            signals: search::IterationSignals::default(),
            last_best: None,
            last_clocks: hw::chip::LOAD_CLOCKS,
            done: false,
        }
    }

    fn ms(&self, clocks: u64) -> u64 {
        clocks / (self.mhz.max(1) * 1000)
    }

    /// An iteration's report: its depth's score, line and clocks since the load.
    fn iteration(&mut self, r: &Report) {
        let best = r.pv.first().copied();
        let ms = self.ms(r.clocks.saturating_sub(self.last_clocks));
        self.signals = self.signals.next(
            self.last_best.is_none(),
            best.is_some() && best == self.last_best,
            r.score,
            ms,
        );
        self.last_best = best;
        self.last_clocks = r.clocks;
        let elapsed = self.ms(r.clocks);
        self.done |= self.plan.stop_after_iteration(elapsed, &self.signals);
    }
}

/// Runs UCI over the search machine (`device`) on `input`, writing to `output`, until `quit`
/// or the end of input (a running search then still answers).
pub fn run_chip(input: impl BufRead, output: impl Write + Send + 'static, device: ChipDevice) {
    let mut uci = ChipUci::new(line_output(output), device);
    for line in lossy_lines(input) {
        if !uci.handle(&line) {
            return;
        }
    }
    // End of input acts as stop: a running search answers.
    uci.stop_and_wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(depth: u32, score: i32, best: Move, ms: u64, mhz: u64) -> Report {
        Report {
            depth,
            score,
            pv: vec![best],
            nodes: 0,
            clocks: hw::chip::LOAD_CLOCKS + ms * mhz * 1000,
        }
    }

    /// The pacer presses stop after the iteration that passes the soft target (a stable best
    /// move earns less than the target, a new one more), or whose successor, grown as the
    /// last iterations grew, would run into the hard limit; never with no soft target.
    #[test]
    fn the_pacer_stops_as_the_software_does() {
        let b = Board::startpos();
        let e4 = b.parse_uci_move("e2e4").unwrap();
        let d4 = b.parse_uci_move("d2d4").unwrap();
        let plan = search::TimeBudget {
            soft: Some(100),
            hard: Some(1000),
        };
        // Iterations of 10, 20, 40 ms...: elapsed 10, 30, 70, 150.
        let mut p = Pacer::new(plan, 101);
        for (d, (ms, stop)) in [(10, false), (30, false), (70, false), (150, true)]
            .into_iter()
            .enumerate()
        {
            p.iteration(&report(d as u32 + 1, 20, e4, ms, 101));
            assert_eq!(p.done, stop, "after {ms} ms");
        }
        // A stable move (three iterations kept) stops below the target: 100 x 85%.
        let mut p = Pacer::new(plan, 101);
        for ms in [2, 4, 8] {
            p.iteration(&report(1, 20, e4, ms, 101));
        }
        assert!(!p.done);
        p.iteration(&report(4, 20, e4, 90, 101));
        assert!(p.done, "85 ms target passed at 90 ms");
        // A new best move at 90 ms earns 140%: no stop.
        let mut p = Pacer::new(plan, 101);
        for ms in [2, 4, 8] {
            p.iteration(&report(1, 20, e4, ms, 101));
        }
        p.iteration(&report(4, 20, d4, 90, 101));
        assert!(!p.done, "a changed best move at 90 ms");
        // The next iteration would pass the hard limit: 300 ms now, the last two 100 and 200.
        let tight = search::TimeBudget {
            soft: Some(400),
            hard: Some(650),
        };
        let mut p = Pacer::new(tight, 101);
        p.iteration(&report(1, 20, e4, 100, 101));
        p.iteration(&report(2, 20, d4, 300, 101));
        assert!(p.done, "300 + 200 x 2 > 650");
        // A fixed time (no soft target) is never cut short.
        let mut p = Pacer::new(
            search::TimeBudget {
                soft: None,
                hard: Some(100),
            },
            101,
        );
        p.iteration(&report(1, 20, e4, 90, 101));
        p.iteration(&report(2, 20, e4, 99, 101));
        assert!(!p.done);
    }
}

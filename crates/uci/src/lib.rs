//! The UCI front end: reads commands line by line, runs searches on the thread pool and writes
//! replies through an output callback (stdout in the binary, a channel in tests).
//!
//! Commands are handled on the caller's (input) thread: `go` starts the pool and returns at
//! once, so `isready`, `stop`, `ponderhit` and `quit` are read and answered during a search.
//! Errors (bad FEN, illegal move, unknown command or option) become `info string` lines and
//! leave the engine's previous state in place.

mod chip;
mod chip_serial;
mod go;
mod mate_search;
mod own_book;
pub mod strength;

use chess::{Board, Move, Position};
use device::{MoveGenDevice, SoftwareDevice};
use eval::nnue::Network;
use eval::Net;
use search::{score::uci_score, Event, Info, Job, Listener, ScoreBound, ThreadPool};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// `EvalFile` value naming the network built into the program.
pub const EMBEDDED_NET: &str = "<embedded>";

pub use chip::{run_chip, ChipDevice, ChipServer, CHIP_ENGINE_NAME};
pub use chip_serial::{open_raw, serial_server};
pub use go::parse_go;
use own_book::NO_BOOK;

/// Where protocol output goes; called with one line at a time (no newline).
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// Engine name reported to `uci`.
pub const ENGINE_NAME: &str = concat!("Estuary ", env!("CARGO_PKG_VERSION"));

/// Default hash size in MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Default Move Overhead in ms.
pub const DEFAULT_MOVE_OVERHEAD: u64 = 50;

type Factory<D> = Arc<dyn Fn() -> D + Send + Sync>;

/// Builds a one-thread pool searching on hardware (the co-simulated move generator and
/// evaluation unit) with a hash of the given MB, evaluating with the given chip net: what the
/// `Hardware` option switches to. The front end that can build one (the `estuary` binary
/// with Verilator) passes it to [`Uci::with_hardware`].
pub type HardwarePools =
    Arc<dyn Fn(usize, Arc<eval::chip::ChipNet>) -> Result<ThreadPool, String> + Send + Sync>;

/// A UCI engine over move-generator devices of type `D`.
pub struct Uci<D: MoveGenDevice + 'static> {
    out: Output,
    factory: Factory<D>,
    pool: ThreadPool,
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    move_overhead: u64,
    ponder: bool,
    chess960: bool,
    debug: bool,
    start: Board,
    moves: Vec<Move>,
    /// Stop flag of the `go mate` solver, set with the pool's and cleared only by `go`.
    mate_stop: Arc<AtomicBool>,
    /// `Use NNUE`: evaluate with `net` instead of the hand-crafted evaluation.
    use_nnue: bool,
    /// `EvalFile`: the net's path (a software net or a chip net), or `<embedded>` for the
    /// built-in one.
    eval_file: String,
    net: Net,
    /// Builds the hardware pool, when this build has one.
    hardware: Option<HardwarePools>,
    /// `Hardware rtl`: the pool searches on the co-simulated units.
    on_hardware: bool,
    /// `OwnBook` and `BookFile`: the opening book `go` plays from.
    book: own_book::OwnBook,
    /// `UCI_ShowWDL`: `info` lines carry `wdl W D L`.
    show_wdl: bool,
    /// `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`.
    strength: strength::Strength,
    /// Searches started in this session (part of the weakened choice's seed).
    searches: u64,
}

impl Uci<SoftwareDevice> {
    /// An engine on the software move generator.
    pub fn new(out: Output) -> Uci<SoftwareDevice> {
        Uci::with_device(out, Arc::new(SoftwareDevice::default))
    }
}

/// Formats a search event as UCI text (moves written from `root`).
pub fn format_event(root: &Board, ev: &Event) -> String {
    format_event_wdl(root, ev, false)
}

/// [`format_event`], with `wdl W D L` after each score when `show_wdl` is set
/// (`UCI_ShowWDL`): the fitted model of [`search::wdl`] at the root's material.
pub fn format_event_wdl(root: &Board, ev: &Event, show_wdl: bool) -> String {
    match ev {
        Event::Info(info) => format_info(root, info, show_wdl),
        Event::BestMove { best, ponder, .. } => {
            if *best == Move::NULL {
                return "bestmove 0000".to_string();
            }
            let mut s = format!("bestmove {}", root.move_to_uci(*best));
            let after = root.played(*best);
            if *ponder != Move::NULL && after.is_legal(*ponder) {
                s.push_str(&format!(" ponder {}", after.move_to_uci(*ponder)));
            }
            s
        }
    }
}

fn format_info(root: &Board, i: &Info, show_wdl: bool) -> String {
    let bound = match i.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    let wdl = if show_wdl {
        let w = search::wdl::FITTED.wdl(i.score, search::wdl::material(root));
        format!(" wdl {} {} {}", w.win, w.draw, w.loss)
    } else {
        String::new()
    };
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}{}{} nodes {} nps {} hashfull {} time {}",
        i.depth,
        i.seldepth,
        i.multipv,
        uci_score(i.score),
        bound,
        wdl,
        i.nodes,
        i.nps,
        i.hashfull,
        i.time_ms
    );
    if !i.pv.is_empty() {
        s.push_str(" pv");
        let mut b = *root;
        for &m in &i.pv {
            if !b.is_legal(m) {
                break;
            }
            s.push(' ');
            s.push_str(&b.move_to_uci(m));
            b.play(m);
        }
    }
    s
}

impl<D: MoveGenDevice + 'static> Uci<D> {
    /// An engine whose search threads each build a device with `factory`.
    pub fn with_device(out: Output, factory: Factory<D>) -> Uci<D> {
        let f = factory.clone();
        let pool = ThreadPool::new(1, DEFAULT_HASH_MB, move || f());
        Uci {
            out,
            factory,
            pool,
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            ponder: false,
            chess960: false,
            debug: false,
            start: Board::startpos(),
            moves: Vec::new(),
            mate_stop: Arc::new(AtomicBool::new(false)),
            use_nnue: search::NNUE_BY_DEFAULT,
            eval_file: EMBEDDED_NET.into(),
            net: Net::Nnue(Network::embedded()),
            hardware: None,
            on_hardware: false,
            book: own_book::OwnBook::new(),
            show_wdl: false,
            strength: strength::Strength::default(),
            searches: 0,
        }
    }

    /// Offers the `Hardware` option (`off` or `rtl`), searching with pools from `pools`.
    pub fn with_hardware(mut self, pools: HardwarePools) -> Uci<D> {
        self.hardware = Some(pools);
        self
    }

    /// Hands the chosen evaluation to the pool (used by the next search).
    fn apply_network(&self) {
        self.pool
            .set_network(self.use_nnue.then(|| self.net.clone()));
    }

    /// True when no search runs. A search that is already stopping (it may have printed
    /// `bestmove` and be a moment from done) is waited for; a running one is left alone.
    fn settle(&self) -> bool {
        if self.pool.is_searching()
            && self
                .pool
                .shared()
                .stop
                .load(std::sync::atomic::Ordering::Relaxed)
        {
            self.pool.wait();
        }
        !self.pool.is_searching()
    }

    /// Stops the running search, the mate solver included.
    fn stop(&self) {
        self.mate_stop.store(true, Ordering::Relaxed);
        self.pool.stop();
    }

    fn say(&self, line: &str) {
        (self.out)(line);
    }

    fn error(&self, msg: &str) {
        self.say(&format!("info string error: {msg}"));
    }

    fn rebuild_pool(&mut self) {
        if self.on_hardware {
            if let Some(pools) = self.hardware.clone() {
                // The unit runs a chip net: EvalFile's if it names one, else the built-in one.
                let chip = match &self.net {
                    Net::Chip(n) => n.clone(),
                    Net::Nnue(_) => eval::chip::ChipNet::embedded(),
                };
                match pools(self.hash_mb, chip) {
                    Ok(pool) => {
                        self.pool = pool;
                        return;
                    }
                    Err(e) => {
                        self.on_hardware = false;
                        self.error(&format!("Hardware: {e}; searching in software"));
                    }
                }
            }
        }
        let f = self.factory.clone();
        self.pool = ThreadPool::new(self.threads, self.hash_mb, move || f());
        self.apply_network();
    }

    /// The current position (start plus moves).
    pub fn position(&self) -> Position {
        let mut p = Position::new(self.start);
        for &m in &self.moves {
            p.make(m);
        }
        p
    }

    /// Blocks until the running search (if any) has printed its best move.
    pub fn wait(&self) {
        self.pool.wait();
    }

    /// Handles one command line. Returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let (line, cmd, rest) = split_command(line);
        match cmd {
            "" => {}
            "uci" => {
                self.say(&format!("id name {ENGINE_NAME}"));
                self.say("id author the Estuary authors");
                self.say(&format!(
                    "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 65536"
                ));
                self.say("option name Threads type spin default 1 min 1 max 256");
                self.say("option name Ponder type check default false");
                self.say("option name MultiPV type spin default 1 min 1 max 256");
                self.say(&format!("option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD} min 0 max 5000"));
                self.say("option name UCI_Chess960 type check default false");
                self.say("option name Clear Hash type button");
                self.say(&format!(
                    "option name Use NNUE type check default {}",
                    search::NNUE_BY_DEFAULT
                ));
                self.say(&format!(
                    "option name EvalFile type string default {EMBEDDED_NET}"
                ));
                self.say("option name UCI_ShowWDL type check default false");
                self.say(&format!(
                    "option name Skill Level type spin default {0} min 0 max {0}",
                    strength::MAX_LEVEL
                ));
                self.say("option name UCI_LimitStrength type check default false");
                self.say(&format!(
                    "option name UCI_Elo type spin default {1} min {0} max {1}",
                    strength::MIN_ELO,
                    strength::MAX_ELO
                ));
                self.say("option name OwnBook type check default false");
                self.say(&format!(
                    "option name BookFile type string default {NO_BOOK}"
                ));
                if self.hardware.is_some() {
                    self.say("option name Hardware type combo default off var off var rtl");
                }
                self.say("uciok");
            }
            "isready" => self.say("readyok"),
            "debug" => self.debug = rest == "on",
            "ucinewgame" => {
                self.stop();
                self.pool.clear();
                self.start = Board::startpos();
                self.start.set_chess960(self.chess960);
                self.moves.clear();
            }
            "setoption" => self.setoption(rest),
            "position" => self.set_position(rest),
            "go" => self.go(rest),
            "stop" => self.stop(),
            "ponderhit" => self.pool.ponderhit(),
            "quit" => {
                self.stop();
                self.pool.wait();
                return false;
            }
            // Non-standard helpers.
            "d" => {
                let p = self.position();
                for l in format!("{}", *p).lines() {
                    self.say(l);
                }
                self.say(&format!("Fen: {}", p.to_fen()));
                self.say(&format!("Key: {:016x}", p.hash()));
            }
            "eval" => {
                let p = self.position();
                for l in eval::Breakdown::of(&p).to_string().lines() {
                    self.say(l);
                }
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
        let lname = name.to_ascii_lowercase();
        let needs_idle = matches!(
            lname.as_str(),
            "hash" | "threads" | "clear hash" | "hardware"
        );
        if needs_idle && !self.settle() {
            return self.error(&format!("cannot change {name} while searching"));
        }
        let num = |lo: u64, hi: u64| -> Option<u64> {
            value.parse::<u64>().ok().filter(|v| (lo..=hi).contains(v))
        };
        let flag = || parse_flag(value);
        match lname.as_str() {
            "hash" => match num(1, 65536) {
                Some(v) => {
                    self.hash_mb = v as usize;
                    self.rebuild_pool();
                }
                None => self.error(&format!("bad Hash value '{value}'")),
            },
            "threads" => match num(1, 256) {
                Some(v) => {
                    self.threads = v as usize;
                    self.rebuild_pool();
                }
                None => self.error(&format!("bad Threads value '{value}'")),
            },
            "multipv" => match num(1, 256) {
                Some(v) => self.multipv = v as usize,
                None => self.error(&format!("bad MultiPV value '{value}'")),
            },
            "move overhead" => match num(0, 5000) {
                Some(v) => self.move_overhead = v,
                None => self.error(&format!("bad Move Overhead value '{value}'")),
            },
            "ponder" => match flag() {
                Some(v) => self.ponder = v,
                None => self.error(&format!("bad Ponder value '{value}'")),
            },
            "uci_chess960" => match flag() {
                Some(v) => {
                    self.chess960 = v;
                    self.start.set_chess960(v);
                }
                None => self.error(&format!("bad UCI_Chess960 value '{value}'")),
            },
            "clear hash" => self.pool.clear(),
            "use nnue" => match flag() {
                Some(v) => {
                    self.use_nnue = v;
                    self.apply_network();
                }
                None => self.error(&format!("bad Use NNUE value '{value}'")),
            },
            "evalfile" => {
                // A software net or a chip net (ESTCHIP1), told apart by the file's header.
                let loaded = if value.is_empty() || value == EMBEDDED_NET {
                    Ok(Net::Nnue(Network::embedded()))
                } else {
                    Net::load(value)
                };
                match loaded {
                    Ok(net) => {
                        self.net = net;
                        self.eval_file = if value.is_empty() {
                            EMBEDDED_NET.into()
                        } else {
                            value.into()
                        };
                        if self.on_hardware {
                            // The hardware pool is rebuilt with the new chip net.
                            if !self.settle() {
                                return self
                                    .error("cannot change EvalFile while searching on hardware");
                            }
                            self.rebuild_pool();
                        } else {
                            self.apply_network();
                        }
                        if self.debug {
                            self.say(&format!("info string EvalFile {}", self.eval_file));
                        }
                    }
                    // The previous net stays.
                    Err(e) => self.error(&format!("EvalFile: {e}")),
                }
            }
            "uci_showwdl" => match flag() {
                Some(v) => self.show_wdl = v,
                None => self.error(&format!("bad UCI_ShowWDL value '{value}'")),
            },
            "skill level" => match num(0, u64::from(strength::MAX_LEVEL)) {
                Some(v) => self.strength.skill_level = v as u32,
                None => self.error(&format!("bad Skill Level value '{value}'")),
            },
            "uci_limitstrength" => match flag() {
                Some(v) => self.strength.limit = v,
                None => self.error(&format!("bad UCI_LimitStrength value '{value}'")),
            },
            "uci_elo" => match num(u64::from(strength::MIN_ELO), u64::from(strength::MAX_ELO)) {
                Some(v) => self.strength.elo = v as u32,
                None => self.error(&format!("bad UCI_Elo value '{value}'")),
            },
            "ownbook" => match flag() {
                Some(v) => self.book.on = v,
                None => self.error(&format!("bad OwnBook value '{value}'")),
            },
            "bookfile" => match self.book.set_file(value) {
                Ok(Some((entries, positions))) => self.say(&format!(
                    "info string BookFile {}: {entries} entries, {positions} positions",
                    self.book.file
                )),
                Ok(None) => {}
                Err(e) => self.error(&format!("BookFile: {e}; playing without a book")),
            },
            "hardware" if self.hardware.is_some() => match value.to_ascii_lowercase().as_str() {
                v @ ("off" | "rtl") => {
                    self.on_hardware = v == "rtl";
                    self.rebuild_pool();
                    if self.on_hardware {
                        self.say("info string Hardware rtl: one thread on the co-simulated move generator and evaluation unit, checked against the software at every node");
                    }
                }
                _ => self.error(&format!("bad Hardware value '{value}' (off, rtl)")),
            },
            _ => self.error(&format!("unknown option '{name}'")),
        }
    }

    fn set_position(&mut self, rest: &str) {
        match parse_position(rest, self.chess960) {
            Ok((start, moves)) => {
                self.start = start;
                self.moves = moves;
            }
            Err(e) => self.error(&e),
        }
    }

    fn go(&mut self, rest: &str) {
        if !self.settle() {
            return self.error("already searching; send stop first");
        }
        let pos = self.position();
        let mut limits = match parse_go(rest, &pos) {
            Ok(l) => l,
            Err(e) => return self.error(&e),
        };
        self.searches += 1;
        // `OwnBook`: a book move is played at once, without a search.
        if let Some((m, total)) = self.book.choose(&pos, &limits) {
            let uci = pos.move_to_uci(m.mv);
            self.say(&format!(
                "info string book move {uci} ({} weight {} of {total})",
                pos.move_to_san(m.mv),
                m.weight
            ));
            return self.say(&format!("bestmove {uci}"));
        }
        if self.debug {
            let plan = search::TimeBudget::plan(&limits, pos.side_to_move(), self.move_overhead);
            self.say(&format!(
                "info string time plan soft {:?} hard {:?} ms",
                plan.soft, plan.hard
            ));
        }
        // `go mate N`: the df-pn solver (crates/mate) looks for the shortest mate first, on
        // the main search thread; alpha-beta answers when it finds none.
        let pre = match limits.mate {
            Some(n) if !limits.ponder && limits.searchmoves.is_empty() => {
                self.mate_stop.store(false, Ordering::Relaxed);
                Some(mate_search::pre_search(
                    n,
                    self.hash_mb,
                    self.move_overhead,
                    self.mate_stop.clone(),
                    self.out.clone(),
                ))
            }
            _ => None,
        };
        let (out, show_wdl) = (self.out.clone(), self.show_wdl);
        let mut multipv = self.multipv;
        let listener: Listener = match self.strength.level() {
            None => {
                Arc::new(move |root: &Board, ev: Event| out(&format_event_wdl(root, &ev, show_wdl)))
            }
            Some(level) => {
                // Weakened: fewer nodes, more lines, and the move drawn among them.
                let cap = strength::node_cap(level);
                limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
                multipv = multipv.max(strength::CANDIDATES);
                let seed = pos.hash() ^ self.searches.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                weakened_listener(out, show_wdl, level, seed)
            }
        };
        let job = Job {
            start: self.start,
            moves: self.moves.clone(),
            limits,
            multipv,
            move_overhead: self.move_overhead,
            listener,
            tt: self.pool.tt().clone(),
        };
        self.pool.start_with(job, pre);
    }
}

/// The listener of a weakened search: it prints every event as usual but answers with a move
/// drawn among the last completed iteration's lines ([`strength::choose`]).
fn weakened_listener(out: Output, show_wdl: bool, level: f64, seed: u64) -> Listener {
    // The depth of the lines kept, and the lines by MultiPV index.
    let lines = std::sync::Mutex::new((0, Vec::<Option<strength::Candidate>>::new()));
    Arc::new(move |root: &Board, ev: Event| {
        let mut ev = ev;
        let Ok(mut kept) = lines.lock() else {
            return out(&format_event_wdl(root, &ev, show_wdl));
        };
        match &ev {
            Event::Info(i) if i.bound == ScoreBound::Exact && !i.pv.is_empty() => {
                if i.depth != kept.0 {
                    *kept = (i.depth, Vec::new());
                }
                let k = i.multipv.saturating_sub(1);
                if kept.1.len() <= k {
                    kept.1.resize(k + 1, None);
                }
                kept.1[k] = Some(strength::Candidate {
                    score: i.score,
                    pv: i.pv.clone(),
                });
            }
            Event::BestMove { best, depth, .. } if *best != Move::NULL => {
                let candidates: Vec<strength::Candidate> =
                    kept.1.iter().flatten().cloned().collect();
                if let Some(c) = strength::choose(&candidates, level, seed).map(|k| &candidates[k])
                {
                    out(&format!(
                        "info string Skill Level {}: {} drawn among {} lines",
                        strength::level_text(level),
                        root.move_to_uci(c.pv[0]),
                        candidates.len()
                    ));
                    ev = Event::BestMove {
                        best: c.pv[0],
                        ponder: c.pv.get(1).copied().unwrap_or(Move::NULL),
                        score: c.score,
                        depth: *depth,
                    };
                }
            }
            _ => {}
        }
        out(&format_event_wdl(root, &ev, show_wdl))
    })
}

/// A command line trimmed, its first word, and the rest trimmed.
pub fn split_command(line: &str) -> (&str, &str, &str) {
    let line = line.trim();
    let (cmd, rest) = line
        .split_once(char::is_whitespace)
        .map_or((line, ""), |(c, r)| (c, r.trim()));
    (line, cmd, rest)
}

/// A UCI check option's value, `true` or `false` in any case.
pub(crate) fn parse_flag(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// The arguments of a `setoption` command: the option's name and its value (empty for a
/// button).
pub fn parse_setoption(rest: &str) -> Result<(&str, &str), String> {
    let body = rest
        .strip_prefix("name ")
        .ok_or_else(|| "setoption needs 'name'".to_string())?;
    Ok(match body.split_once(" value ") {
        Some((n, v)) => (n.trim(), v.trim()),
        None => (body.trim(), ""),
    })
}

/// One protocol line at a time to `output`, flushed (the binaries' stdout).
pub fn line_output(output: impl Write + Send + 'static) -> Output {
    let output = std::sync::Mutex::new(output);
    Arc::new(move |line: &str| {
        if let Ok(mut w) = output.lock() {
            let _ = writeln!(w, "{line}");
            let _ = w.flush();
        }
    })
}

/// The arguments of a `position` command (`startpos | fen FEN` then `moves ...`): the start
/// board and the moves played from it, each checked legal; the error says why not (the
/// caller keeps its position).
pub fn parse_position(rest: &str, chess960: bool) -> Result<(Board, Vec<Move>), String> {
    let (spec, moves) = match rest.split_once("moves") {
        Some((s, m)) => (s.trim(), m.split_whitespace().collect::<Vec<_>>()),
        None => (rest.trim(), Vec::new()),
    };
    let mut start = if spec == "startpos" {
        Board::startpos()
    } else if let Some(fen) = spec.strip_prefix("fen") {
        Board::from_fen(fen.trim())
            .map_err(|e| format!("bad FEN '{}': {e}; position unchanged", fen.trim()))?
    } else {
        return Err(format!(
            "bad position command 'position {rest}'; position unchanged"
        ));
    };
    if chess960 {
        start.set_chess960(true);
    }
    let mut b = start;
    let mut parsed = Vec::with_capacity(moves.len());
    for t in moves {
        let m = b
            .parse_uci_move(t)
            .map_err(|e| format!("illegal move '{t}': {e}; position unchanged"))?;
        parsed.push(m);
        b.play(m);
    }
    Ok((start, parsed))
}

/// The lines of `input` until its end or a read error, without their line ends. A line that
/// is not UTF-8 (a Latin-1 file name, say) comes with replacement characters instead of
/// ending the session as `BufRead::lines` would.
pub fn lossy_lines(mut input: impl BufRead) -> impl Iterator<Item = String> {
    let mut bytes = Vec::with_capacity(256);
    std::iter::from_fn(move || {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                let line = String::from_utf8_lossy(&bytes);
                Some(line.trim_end_matches(['\n', '\r']).to_string())
            }
        }
    })
}

/// Runs the UCI loop on `input`, writing to `output`, until `quit` or end of input.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) {
    run_with(input, output, None)
}

/// [`run`], offering the `Hardware` option when `hardware` is given.
pub fn run_with(
    input: impl BufRead,
    output: impl Write + Send + 'static,
    hardware: Option<HardwarePools>,
) {
    let mut uci = Uci::new(line_output(output));
    if let Some(h) = hardware {
        uci = uci.with_hardware(h);
    }
    for line in lossy_lines(input) {
        if !uci.handle(&line) {
            return;
        }
    }
    // End of input acts as quit, but a running search still finishes and reports.
    uci.handle("stop");
    uci.wait();
}

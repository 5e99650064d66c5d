//! `estuary annotate GAMES.pgn [--time S | --nodes N] --out OUT.pgn [--svg DIR] [--threads T]
//! [--hash MB]`: every game of a PGN file analysed by the engine and written out with
//! evaluation comments, `??` / `?` / `?!`, the better move as a variation, and (with `--svg`)
//! one evaluation graph per game (`DIR/game-001.svg`, ...). The rules are in
//! [`analysis`] and docs/analysis.md.
//!
//! Progress goes to stderr: a bar redrawn in place on a terminal, a plain line per game
//! otherwise. Each game is written as soon as it is done, so stopping the program keeps the
//! games finished. A PGN error is reported with its line; the games before it are annotated
//! and written, and the exit status is 1.

use crate::args::Args;
use crate::outln;
use analysis::{annotate, graph::evaluation_graph, Analyser, AnnotatedGame, Judgement};
use chess::pgn::read_games;
use search::Limits;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Nodes searched in each position unless `--time` or `--nodes` says otherwise.
const DEFAULT_NODES: u64 = 200_000;

const USAGE: &str = "usage: estuary annotate GAMES.pgn [--time S | --nodes N] --out OUT.pgn [--svg DIR] [--threads T] [--hash MB]";

/// Where the progress goes: a bar on a terminal, plain lines elsewhere.
struct Progress {
    tty: bool,
    total: usize,
    done: usize,
    games: usize,
    started: Instant,
    drawn: Option<Instant>,
}

/// `m:ss`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

impl Progress {
    fn new(total: usize, games: usize) -> Progress {
        Progress {
            tty: std::io::stderr().is_terminal(),
            total: total.max(1),
            done: 0,
            games,
            started: Instant::now(),
            drawn: None,
        }
    }

    fn left(&self) -> String {
        let spent = self.started.elapsed();
        if self.done == 0 {
            return "?".into();
        }
        let per = spent.as_secs_f64() / self.done as f64;
        clock(Duration::from_secs_f64(
            per * (self.total - self.done.min(self.total)) as f64,
        ))
    }

    /// One more position searched in game `game` (1-based).
    fn step(&mut self, game: usize) {
        self.done += 1;
        if !self.tty {
            return;
        }
        let now = Instant::now();
        if self
            .drawn
            .is_some_and(|t| now - t < Duration::from_millis(100) && self.done < self.total)
        {
            return;
        }
        self.drawn = Some(now);
        const BAR: usize = 30;
        let filled = BAR * self.done / self.total;
        eprint!(
            "\r\x1b[K[{}{}] {:>3}% {}/{} positions, game {game}/{}, {} elapsed, {} left",
            "#".repeat(filled),
            "-".repeat(BAR - filled),
            100 * self.done / self.total,
            self.done,
            self.total,
            self.games,
            clock(self.started.elapsed()),
            self.left()
        );
    }

    /// Game `game` is done: a line of its own when not on a terminal.
    fn game_done(&mut self, game: usize) {
        if !self.tty {
            eprintln!(
                "annotate: game {game}/{} done, {}/{} positions ({}%), {} elapsed, {} left",
                self.games,
                self.done,
                self.total,
                100 * self.done / self.total,
                clock(self.started.elapsed()),
                self.left()
            );
        }
    }

    /// Clears the bar.
    fn finish(&mut self) {
        if self.tty && self.drawn.is_some() {
            eprint!("\r\x1b[K");
        }
    }
}

/// The search limits of `--time` / `--nodes`.
fn limits(args: &mut Args) -> Result<Limits, String> {
    let time: Option<f64> = args.parsed("time").map_err(|e| e.to_string())?;
    let nodes: Option<u64> = args.parsed("nodes").map_err(|e| e.to_string())?;
    match (time, nodes) {
        (Some(_), Some(_)) => Err("give --time or --nodes, not both".into()),
        (Some(t), None) if !(t.is_finite() && t > 0.0 && t <= 86_400.0) => Err(format!(
            "option --time: '{t}' is not a number of seconds above 0"
        )),
        (Some(t), None) => Ok(Limits::movetime(((t * 1000.0).round() as i64).max(1))),
        (None, Some(0)) => Err("option --nodes: give 1 or more".into()),
        (None, Some(n)) => Ok(Limits::nodes(n)),
        (None, None) => Ok(Limits::nodes(DEFAULT_NODES)),
    }
}

/// A count for a person: `1 game`, `3 games`.
fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// A one-line summary of an annotated game.
fn summary(i: usize, a: &AnnotatedGame, graph: Option<&Path>) -> String {
    let g = &a.game;
    let mut s = format!(
        "game {i}: {} - {} {}: {}, {} ??, {} ?, {} ?!",
        g.tag("White").unwrap_or("?"),
        g.tag("Black").unwrap_or("?"),
        g.result,
        match g.main.moves.len() {
            1 => "1 ply".to_string(),
            n => format!("{n} plies"),
        },
        a.count(Judgement::Blunder),
        a.count(Judgement::Mistake),
        a.count(Judgement::Inaccuracy),
    );
    if let Some(p) = graph {
        s.push_str(&format!("; graph {}", p.display()));
    }
    s
}

/// Runs `estuary annotate`.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &[]).map_err(|e| e.to_string())?;
    let limits = limits(&mut args)?;
    let out = args
        .value("out")
        .ok_or(format!("annotate needs --out OUT.pgn\n{USAGE}"))?;
    let svg_dir = args.value("svg").map(PathBuf::from);
    let (threads, hash) = args.threads_and_hash(64).map_err(|e| e.to_string())?;
    args.finish().map_err(|e| e.to_string())?;
    let input = match args.positional() {
        [one] => one.clone(),
        [] => return Err(format!("annotate needs a PGN file\n{USAGE}")),
        _ => return Err(format!("annotate reads one PGN file\n{USAGE}")),
    };
    let bytes = std::fs::read(&input).map_err(|e| format!("{input}: {e}"))?;
    // A file in another encoding (Latin-1 names) still reads: its moves are ASCII.
    let text = String::from_utf8_lossy(&bytes);
    let (games, error) = read_games(&text);
    if let Some(dir) = &svg_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut file = std::fs::File::create(&out).map_err(|e| format!("{out}: {e}"))?;
    let total = games.iter().map(|g| g.main.moves.len() + 1).sum();
    let mut progress = Progress::new(total, games.len());
    let mut analyser = Analyser::new(threads, hash, limits);
    let mut counts = [0usize; 3];
    for (i, game) in games.iter().enumerate() {
        let n = i + 1;
        let a = annotate(game, &mut analyser, |_| progress.step(n));
        let separator = if i == 0 { "" } else { "\n" };
        file.write_all(format!("{separator}{}", a.game.to_pgn()).as_bytes())
            .and_then(|_| file.flush())
            .map_err(|e| format!("{out}: {e}"))?;
        let graph = match &svg_dir {
            Some(dir) => {
                let path = dir.join(format!("game-{n:03}.svg"));
                std::fs::write(&path, evaluation_graph(&a))
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                Some(path)
            }
            None => None,
        };
        progress.game_done(n);
        for (c, j) in counts.iter_mut().zip([
            Judgement::Blunder,
            Judgement::Mistake,
            Judgement::Inaccuracy,
        ]) {
            *c += a.count(j);
        }
        progress.finish();
        outln!("{}", summary(n, &a, graph.as_deref()));
    }
    outln!(
        "{} ({} positions) annotated to {out}: {} ??, {} ?, {} ?!{}",
        plural(games.len(), "game"),
        total,
        counts[0],
        counts[1],
        counts[2],
        svg_dir
            .map(|d| format!("; graphs in {}", d.display()))
            .unwrap_or_default()
    );
    match error {
        Some(e) => {
            eprintln!(
                "error: {input}: {e}; the {} before it {} annotated, the rest of the file is not",
                plural(games.len(), "game"),
                if games.len() == 1 { "is" } else { "are" }
            );
            Ok(ExitCode::from(1))
        }
        None => Ok(ExitCode::SUCCESS),
    }
}

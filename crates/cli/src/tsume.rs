//! `estuary tsume --sfen SFEN | --file FILE [--nodes N] [--time MS] [--hash MB] [--muda-ai] [--weak-pn] [--all-drops] [--first]`:
//! solves tsume-shogi problems with the df-pn solver.
//!
//! The answer comes first: the moment the proof is complete, a mating line read from it is
//! checked and printed (`--sfen`: `mate <usi moves> plies P nodes N time MS first`). Unless
//! `--first` is given the line is then improved towards the conventional solution (shortest
//! mate, longest resistance; `--muda-ai`: futile interpositions not counted), each shorter
//! line printed as it is proven (`mate ... better`), and the final answer follows:
//! `checkmate <usi moves> plies P nodes N time MS nps X first-plies F first-nodes N
//! first-time MS` (with `line-incomplete` if the line does not replay to mate), or `nomate
//! ...` or `timeout ...`. File mode prints only the final line per problem; it reads
//! `sfen<TAB>plies<TAB>id[<TAB>main line]` (the format of ../shared/data/tsume/tanuki.tsv),
//! adds `id ID expected P time-us T first-time-us F` (both times in microseconds), and ends
//! with exactly one summary line:
//! `solved S/T, length-matched L/T, nodes N, time MS, first-time MS` (first-time: the total
//! time to the first proven lines).

use crate::args::Args;
use mate::{Found, Limits, MateGame, MateSolver, Solution, Tsume, Verdict};
use std::process::ExitCode;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The solver's table when no `--hash` (USI: `USI_Hash`) is given, MiB. Classics of 40 to 70
/// plies need it: at 64 MiB three of Shogi Muso's problems (musou-012, 052, 094) ran out of 20M
/// nodes that are proven in 2.7M to 6.4M nodes at 512 MiB, and tanuki takes as long either way.
pub(crate) const DEFAULT_HASH_MB: usize = 512;

/// Stack of a thread that runs the solver: the search recurses once a ply.
pub(crate) const SOLVER_STACK: usize = 512 << 20;
/// Ply cap for a solver on a [`SOLVER_STACK`] thread (about 1.4 KB of stack a ply: 60,000
/// plies take under 100 MiB, a wide margin).
pub(crate) const SOLVER_MAX_PLY: u32 = 60_000;

/// Starts `f` on a thread named `name` with a [`SOLVER_STACK`] stack.
pub(crate) fn spawn_solver_thread<R: Send + 'static>(
    name: &str,
    f: impl FnOnce() -> R + Send + 'static,
) -> Result<JoinHandle<R>, String> {
    std::thread::Builder::new()
        .name(name.into())
        .stack_size(SOLVER_STACK)
        .spawn(f)
        .map_err(|e| format!("cannot start the solver thread: {e}"))
}

/// Runs `f` on a thread with a [`SOLVER_STACK`] stack and returns its result.
pub(crate) fn on_solver_thread<R: Send + 'static>(
    f: impl FnOnce() -> R + Send + 'static,
) -> Result<R, String> {
    spawn_solver_thread("tsume", f)?
        .join()
        .map_err(|_| "the solver thread panicked".to_string())
}

/// True when `line` plays legally from `pos` to checkmate with a check on every attacker move.
/// A line read back from a table whose entries were overwritten can stop short of mate. With
/// `muda` (muda-ai) a line may also end in a check whose every answer is a futile
/// interposition, mate by that convention.
fn line_mates(pos: &shogi::Position, line: &[shogi::Move], muda: bool) -> bool {
    let mut p = pos.clone();
    for (i, &m) in line.iter().enumerate() {
        if !p.is_legal(m) {
            return false;
        }
        p.play(m);
        if i % 2 == 0 && !p.in_check() {
            return false;
        }
    }
    p.is_checkmate()
        || (muda
            && line.len() % 2 == 1
            && Tsume {
                pos: p,
                attacker: pos.side_to_move(),
            }
            .mated_but_for_futile_drops())
}

/// A line's moves in USI notation, space-separated.
pub(crate) fn usi_line(line: &[shogi::Move]) -> String {
    line.iter().map(|m| m.usi()).collect::<Vec<_>>().join(" ")
}

fn describe(s: &Solution<shogi::Move>, complete: bool) -> String {
    let ms = s.stats.time.as_millis();
    let tail = format!(
        "plies {} nodes {} time {} nps {}",
        s.line.len(),
        s.stats.nodes,
        ms,
        s.stats.nps()
    );
    match s.verdict {
        Verdict::Mate => {
            let first = s.first.as_ref().map_or(String::new(), |f| {
                format!(
                    " first-plies {} first-nodes {} first-time {}",
                    f.line.len(),
                    f.nodes,
                    f.time.as_millis()
                )
            });
            let note = if complete { "" } else { " line-incomplete" };
            format!("checkmate {} {tail}{first}{note}", usi_line(&s.line))
        }
        Verdict::NoMate => format!("nomate {tail}"),
        Verdict::Unknown => format!("timeout {tail}"),
    }
}

/// The line printed for a line reported while solving (`--sfen`).
fn describe_found(f: &Found<shogi::Move>, first: bool) -> String {
    format!(
        "mate {} plies {} nodes {} time {} {}",
        usi_line(&f.line),
        f.line.len(),
        f.nodes,
        f.time.as_millis(),
        if first { "first" } else { "better" }
    )
}

/// Runs the subcommand.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    let mut a = Args::parse(raw, &["muda-ai", "weak-pn", "all-drops", "first"])
        .map_err(|e| e.to_string())?;
    let sfen = a.value("sfen");
    let file = a.value("file");
    let nodes: Option<u64> = a.parsed("nodes").map_err(|e| e.to_string())?;
    let time: Option<u64> = a.parsed("time").map_err(|e| e.to_string())?;
    let hash: Option<usize> = a.parsed("hash").map_err(|e| e.to_string())?;
    let muda = a.flag("muda-ai");
    let weak_pn = a.flag("weak-pn");
    let all_drops = a.flag("all-drops");
    let first_only = a.flag("first");
    a.finish().map_err(|e| e.to_string())?;
    if !a.positional().is_empty() {
        return Err(format!(
            "tsume: unexpected argument '{}'",
            a.positional()[0]
        ));
    }
    let limits = Limits {
        nodes: nodes.unwrap_or(u64::MAX),
        time: time.map(Duration::from_millis),
        table_bytes: hash.unwrap_or(DEFAULT_HASH_MB).max(1) << 20,
    };
    if nodes.is_none() && time.is_none() && file.is_some() {
        eprintln!("note: no --nodes or --time limit: a hard problem may run long");
    }
    let job = match (sfen, file) {
        (Some(s), None) => {
            let pos = shogi::Position::from_sfen_relaxed(&s).map_err(|e| e.to_string())?;
            Ok(pos)
        }
        (None, Some(f)) => Err(f),
        _ => return Err("usage: estuary tsume --sfen SFEN | --file FILE [--nodes N] [--time MS] [--hash MB] [--muda-ai] [--weak-pn] [--all-drops] [--first]".into()),
    };
    on_solver_thread(move || {
        let mut solver = MateSolver::<Tsume>::new(limits);
        solver.set_skip_futile(muda);
        solver.set_weak_proof_numbers(weak_pn);
        solver.set_delayed_drops(!all_drops);
        solver.set_max_ply(SOLVER_MAX_PLY);
        solver.set_polish(!first_only);
        match job {
            Ok(pos) => {
                // Each line as it is proven; the last report is the final answer's.
                let mut printed: Option<usize> = None;
                solver.set_on_line(Box::new(move |f: &Found<shogi::Move>| {
                    if printed.is_none_or(|p| f.line.len() < p) {
                        println!("{}", describe_found(f, printed.is_none()));
                        printed = Some(f.line.len());
                    }
                }));
                let sol = solver.solve(&Tsume::new(pos.clone()));
                println!("{}", describe(&sol, line_mates(&pos, &sol.line, muda)));
                Ok(ExitCode::SUCCESS)
            }
            Err(f) => run_file(&mut solver, &f, muda),
        }
    })?
}

fn run_file(solver: &mut MateSolver<Tsume>, path: &str, muda: bool) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let (mut total, mut solved, mut matched, mut nodes) = (0usize, 0usize, 0usize, 0u64);
    // The solver's own time (search and line), as tools/compare-tsume times cshogi's search
    // and get_pv: parsing, the replay check and printing are not the solver's work.
    let mut solving = Duration::ZERO;
    let mut first_time = Duration::ZERO;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        total += 1;
        let f: Vec<&str> = line.split('\t').collect();
        let id = f.get(2).copied().unwrap_or("-");
        let want: Option<usize> = f.get(1).and_then(|p| p.trim().parse().ok());
        let pos = match shogi::Position::from_sfen_relaxed(f[0]) {
            Ok(p) => p,
            Err(e) => {
                println!("error line {}: {e} id {id}", i + 1);
                continue;
            }
        };
        let t = Instant::now();
        let sol = solver.solve(&Tsume::new(pos.clone()));
        solving += t.elapsed();
        nodes += sol.stats.nodes;
        let to_first = sol.first.as_ref().map_or(sol.stats.time, |f| f.time);
        first_time += to_first;
        // Solved means proven with a line that really mates.
        let complete = sol.verdict == Verdict::Mate && line_mates(&pos, &sol.line, muda);
        if complete {
            solved += 1;
            if want == Some(sol.line.len()) {
                matched += 1;
            }
        }
        let expected = want.map_or("-".to_string(), |w| w.to_string());
        // Microsecond times for tools/compare-tsume (many problems take under a millisecond).
        println!(
            "{} id {id} expected {expected} time-us {} first-time-us {}",
            describe(&sol, complete),
            sol.stats.time.as_micros(),
            to_first.as_micros()
        );
    }
    println!(
        "solved {solved}/{total}, length-matched {matched}/{total}, nodes {nodes}, time {}, first-time {}",
        solving.as_millis(),
        first_time.as_millis()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line ending in a check answered only by futile drops is a mate with muda-ai only;
    /// a line ending short of mate is none either way.
    #[test]
    fn line_mates_accepts_a_futile_drop_mate_only_with_muda_ai() {
        let pos = shogi::Position::from_sfen("4S3S/6S1L/7pB/9/7Sk/9/7R1/7R1/9 b b4g4n3l17p 9")
            .expect("parses");
        let check = pos.parse_usi("2g1g").expect("legal");
        assert!(line_mates(&pos, &[check], true));
        assert!(!line_mates(&pos, &[check], false));
        let quiet = pos.parse_usi("2h2i").expect("legal");
        assert!(!line_mates(&pos, &[quiet], true));
        let mut after = pos.clone();
        after.play(check);
        let drop = after.parse_usi("P*1f").expect("legal");
        let mut p2 = after.clone();
        p2.play(drop);
        let take = p2.parse_usi("1g1f").expect("legal");
        assert!(line_mates(&pos, &[check, drop, take], false));
    }
}

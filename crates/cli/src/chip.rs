//! `estuary chip`: the search machine's model (`hw::chip`) from the command line.
//!
//! * `chip go [--fen FEN] [--depth D | --nodes N | --clocks C] [--net FILE] [--tt-entries N]
//!   [--tt-clocks K]` searches one position on the model and prints each iteration (depth,
//!   score, nodes, clocks, PV), then the best move.
//! * `chip bench [DEPTH] [--positions N] [--sw-depth D] [--net FILE] [--mhz F]
//!   [--tt-entries N] [--tt-clocks K | --sdram] [--faster ...]` searches the bench positions
//!   to DEPTH on the model (8 by default), then to D on the software engine (one thread; the
//!   bench's 12 by default, long enough to time) in the same run: the chip's nodes per
//!   second at F MHz (the clocks the model counts; the evaluation unit's routed Fmax by
//!   default) against the software's on this machine, and the ratio; the time each takes to
//!   DEPTH (the software's searches to DEPTH timed, each from an empty table as the chip's);
//!   then where the chip's clocks went, a node on average (`hw::chip::Spent`). `--faster
//!   eval=N,gen=N,check=N` projects units that many clocks quicker (`hw::chip::Faster`: the
//!   score after a make, every GEN, the in-check flag); the RTL takes none of them off.
//! * `chip cores [DEPTH] [--cores LIST] [--positions N] [--net FILE] [--tt-entries N]
//!   [--tt-clocks K]` searches the bench positions to DEPTH (8 by default) on 1, 2, 4 and 8
//!   cores (or LIST, e.g. `1,3,16`) that a splitter hands root moves (`hw::chip::cores`):
//!   the clocks to depth, the nodes, the speed-up over one core in the same run and how
//!   busy the cores were.
//! * `chip serve (--port PATH | --pty)` plays the board at the far end of a serial line
//!   (`chip_serve`).
//!
//! `--sdram` puts the table in the board's SDRAM (`hw::chip::Config::sdram`: 4M entries,
//! read and written in the clocks of its controller, hw/chip/sdram_tt.v) instead of block
//! RAM.

use crate::args::Args;
use chess::{Board, Move};
use eval::chip::ChipNet;
use hw::chip::cores::{Cores, Table};
use hw::chip::{score_text, Config, Faster, Limits, Machine, Report, Spent};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

const USAGE: &str = "usage: estuary chip go [--fen FEN] [--depth D | --nodes N | --clocks C] \
     [--net FILE] [--tt-entries N] [--tt-clocks K | --sdram] | estuary chip bench [DEPTH] \
     [--positions N] [--sw-depth D] [--net FILE] [--mhz F] [--tt-entries N] [--tt-clocks K | --sdram] \
     [--faster eval=N,gen=N,check=N] | estuary chip cores [DEPTH] [--cores 1,2,4,8] \
     [--positions N] [--net FILE] \
     [--tt-entries N] [--tt-clocks K | --sdram] | estuary chip serve (--port PATH [--baud N] | --pty) \
     [--net FILE] [--tt-entries N] [--tt-clocks K | --sdram]";

/// Runs `estuary chip go|bench ...`.
pub fn run(rest: &[String]) -> Result<ExitCode, String> {
    let (sub, rest) = match rest.split_first() {
        Some((s, r)) => (s.as_str(), r),
        None => return Err(USAGE.into()),
    };
    match sub {
        "go" => go(rest),
        "bench" => bench(rest),
        "cores" => cores(rest),
        "serve" => crate::chip_serve::run(rest),
        _ => Err(format!("unknown chip command '{sub}'\n{USAGE}")),
    }
}

/// The machine for `--net`, `--tt-entries`, `--tt-clocks` (the built-in pure chip net by
/// default).
fn machine(args: &mut Args) -> Result<Machine, String> {
    let (net, config) = net_and_config(args, Config::default())?;
    Machine::new(net, config).map_err(|e| e.to_string())
}

/// The net and the configuration of `--net`, `--sdram`, `--tt-entries`, `--tt-clocks`, `--lmp` /
/// `--no-lmp` (`config` where
/// they are not given; the built-in pure chip net by default).
pub(crate) fn net_and_config(
    args: &mut Args,
    mut config: Config,
) -> Result<(Arc<ChipNet>, Config), String> {
    let net = hw::chip::chip_net(args.value("net").as_deref())?;
    let sdram = args.flag("sdram");
    match (args.flag("lmp"), args.flag("no-lmp")) {
        (true, true) => return Err("--lmp and --no-lmp together".into()),
        (true, false) => config.lmp = true,
        (false, true) => config.lmp = false,
        (false, false) => {}
    }
    let entries = args
        .parsed::<usize>("tt-entries")
        .map_err(|e| e.to_string())?;
    let clocks = args.parsed::<u64>("tt-clocks").map_err(|e| e.to_string())?;
    if sdram {
        if entries.is_some() || clocks.is_some() {
            return Err(
                "--sdram is the board's table (4,194,304 entries in the clocks of \
                 its controller): --tt-entries and --tt-clocks do not go with it"
                    .into(),
            );
        }
        config = config.with_sdram(true);
    }
    // A table size or latency given: a block-RAM table (or one of a fixed latency).
    if entries.is_some() || clocks.is_some() {
        config.sdram = false;
    }
    if let Some(n) = entries {
        if n == 0 {
            return Err("--tt-entries must be at least 1".into());
        }
        config.tt_entries = n;
    }
    if let Some(k) = clocks {
        config.tt_clocks = k;
    }
    Ok((net, config))
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| format!("{m:?}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn go(rest: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(rest, &["sdram", "lmp", "no-lmp"]).map_err(|e| e.to_string())?;
    let fen = args.value("fen");
    let mut limits = Limits::default();
    let mut set = 0;
    if let Some(d) = args.parsed::<u32>("depth").map_err(|e| e.to_string())? {
        if d == 0 || d as usize >= hw::chip::MAX_PLY {
            return Err(format!("--depth must be 1 to {}", hw::chip::MAX_PLY - 1));
        }
        limits.depth = d;
        set += 1;
    }
    if let Some(n) = args.parsed::<u64>("nodes").map_err(|e| e.to_string())? {
        limits.nodes = n;
        set += 1;
    }
    if let Some(c) = args.parsed::<u64>("clocks").map_err(|e| e.to_string())? {
        limits.clocks = c;
        set += 1;
    }
    if set == 0 {
        limits.depth = 8;
    }
    let mut m = machine(&mut args)?;
    args.finish().map_err(|e| e.to_string())?;
    let board = match fen {
        Some(f) => Board::from_fen(&f).map_err(|e| format!("'{f}': {e}"))?,
        None => Board::startpos(),
    };
    m.load(&board, &[]);
    let out = m.go(limits, |r: &Report| {
        println!(
            "depth {} score {} nodes {} clocks {} pv {}",
            r.depth,
            score_text(r.score),
            r.nodes,
            r.clocks,
            pv_text(&r.pv)
        );
    });
    match out.best {
        Some(b) => println!(
            "bestmove {b:?} (nodes {}, of them quiescence {}, clocks {}{})",
            out.nodes,
            out.qnodes,
            out.clocks,
            if out.stopped { ", stopped" } else { "" }
        ),
        None => println!(
            "no legal move: {}",
            if board.in_check() {
                "checkmate"
            } else {
                "stalemate"
            }
        ),
    }
    Ok(ExitCode::SUCCESS)
}

fn bench(rest: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(rest, &["sdram", "lmp", "no-lmp"]).map_err(|e| e.to_string())?;
    let depth = depth_arg(&args)?;
    let count = positions_arg(&mut args)?;
    let sw_depth = args
        .parsed::<i32>("sw-depth")
        .map_err(|e| e.to_string())?
        .unwrap_or(search::bench::DEFAULT_DEPTH);
    if !(1..=64).contains(&sw_depth) {
        return Err("--sw-depth must be 1 to 64".into());
    }
    let mhz = args
        .parsed::<f64>("mhz")
        .map_err(|e| e.to_string())?
        .unwrap_or(hw::evalunit::ROUTED_FMAX_MHZ);
    if mhz.is_nan() || mhz <= 0.0 {
        return Err("--mhz must be positive".into());
    }
    let faster = faster_arg(args.value("faster").as_deref())?;
    let (net, mut config) = net_and_config(&mut args, Config::default())?;
    config.faster = faster;
    let mut m = Machine::new(net, config).map_err(|e| e.to_string())?;
    args.finish().map_err(|e| e.to_string())?;
    let fens = &search::bench::POSITIONS[..count];
    let positions = fens
        .iter()
        .map(|fen| {
            Board::from_fen(fen)
                .map(|b| (*fen, b))
                .map_err(|e| format!("{fen}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    println!("the chip model, depth {depth}, {count} positions:");
    if !faster.none() {
        println!(
            "  a projection: {} clocks off each score, {} off each GEN, {} off each in-check flag \
             (the RTL takes none of them off)",
            faster.eval, faster.generate, faster.in_check
        );
    }
    let (mut nodes, mut clocks) = (0u64, 0u64);
    let mut spent = Spent::default();
    let t0 = Instant::now();
    for &(fen, b) in &positions {
        m.clear();
        m.load(&b, &[]);
        let out = m.go(
            Limits {
                depth,
                ..Limits::default()
            },
            |_: &Report| {},
        );
        println!(
            "  {:>9} nodes {:>11} clocks {:>6.1} clocks/node  {}  {fen}",
            out.nodes,
            out.clocks,
            out.clocks as f64 / out.nodes.max(1) as f64,
            out.best.map_or("none".into(), |b| format!("{b:?}")),
        );
        nodes += out.nodes;
        clocks += out.clocks;
        spent = spent.add(&out.spent);
    }
    let model_s = t0.elapsed().as_secs_f64();
    let chip_nps = nodes as f64 / (clocks as f64 / (mhz * 1e6));
    println!(
        "chip: {nodes} nodes in {clocks} clocks, {:.1} clocks a node: {:.0} nodes/s at {mhz} MHz \
         (the model ran {:.0} nodes/s here)",
        clocks as f64 / nodes.max(1) as f64,
        chip_nps,
        nodes as f64 / model_s.max(1e-9),
    );
    let parts: Vec<String> = spent
        .parts()
        .iter()
        .map(|(name, c)| format!("{name} {:.1}", *c as f64 / nodes.max(1) as f64))
        .collect();
    println!(
        "clocks a node, by what the sequencer did or waited for: {}",
        parts.join(", ")
    );
    // The software engine on the same positions, one thread, in the same run.
    let pool = search::ThreadPool::new(1, 16, device::SoftwareDevice::default);
    pool.clear();
    let listener: search::Listener = Arc::new(|_: &Board, _: search::Event| {});
    let (mut sw_nodes, t0) = (0u64, Instant::now());
    for &(_, b) in &positions {
        pool.search_sync(search::bench::depth_job(b, sw_depth, &listener, pool.tt()));
        sw_nodes += pool.last_nodes();
    }
    let sw_s = t0.elapsed().as_secs_f64();
    let sw_nps = sw_nodes as f64 / sw_s.max(1e-9);
    println!(
        "software (one thread, this machine, depth {sw_depth}): {sw_nodes} nodes in {sw_s:.2} s: \
         {sw_nps:.0} nodes/s"
    );
    println!(
        "chip / software nodes/s: {:.2}x (goal: 5x)",
        chip_nps / sw_nps
    );
    // Time to the chip's depth: the software to the same depth on the same positions, each
    // from an empty table as the chip's.
    let (mut sw_to_depth, mut sw_depth_nodes) = (0.0, 0u64);
    for &(_, b) in &positions {
        pool.clear();
        let t0 = Instant::now();
        pool.search_sync(search::bench::depth_job(
            b,
            depth as i32,
            &listener,
            pool.tt(),
        ));
        sw_to_depth += t0.elapsed().as_secs_f64();
        sw_depth_nodes += pool.last_nodes();
    }
    let chip_to_depth = clocks as f64 / (mhz * 1e6);
    println!(
        "time to depth {depth}, the {count} positions added: chip {:.1} ms at {mhz} MHz ({nodes} \
         nodes), software {:.1} ms ({sw_depth_nodes} nodes, one thread, each from an empty \
         table): the chip {:.2}x as fast",
        chip_to_depth * 1e3,
        sw_to_depth * 1e3,
        sw_to_depth / chip_to_depth.max(1e-12),
    );
    Ok(ExitCode::SUCCESS)
}

/// `--faster eval=N,gen=N,check=N` of `bench`: clocks taken off the units' latencies, for
/// a projection (any may be left out).
fn faster_arg(text: Option<&str>) -> Result<Faster, String> {
    let mut f = Faster::default();
    let Some(text) = text else {
        return Ok(f);
    };
    for item in text.split(',') {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| format!("--faster: '{item}' is not NAME=CLOCKS (eval, gen or check)"))?;
        let n: u64 = value
            .parse()
            .map_err(|_| format!("--faster: '{value}' is not a number of clocks"))?;
        match name {
            "eval" => f.eval = n,
            "gen" => f.generate = n,
            "check" => f.in_check = n,
            _ => {
                return Err(format!(
                    "--faster: unknown unit '{name}' (eval, gen or check)"
                ))
            }
        }
    }
    Ok(f)
}

/// `--positions N` of `bench` and `cores`: how many of the bench positions (all by default;
/// more than there are means all of them, none is an error).
fn positions_arg(args: &mut Args) -> Result<usize, String> {
    let all = search::bench::POSITIONS.len();
    match args
        .parsed::<usize>("positions")
        .map_err(|e| e.to_string())?
    {
        None => Ok(all),
        Some(0) => Err(format!(
            "--positions must be 1 to {all}: there is nothing to search in 0"
        )),
        Some(n) => Ok(n.min(all)),
    }
}

/// The DEPTH argument of `bench` and `cores` (8 by default).
fn depth_arg(args: &Args) -> Result<u32, String> {
    if args.positional().len() > 1 {
        return Err(USAGE.into());
    }
    match args.positional().first() {
        Some(d) => d
            .parse()
            .ok()
            .filter(|d| (1..hw::chip::MAX_PLY as u32).contains(d))
            .ok_or_else(|| format!("bad depth '{d}'")),
        None => Ok(8),
    }
}

fn cores(rest: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(rest, &["sdram", "lmp", "no-lmp"]).map_err(|e| e.to_string())?;
    let depth = depth_arg(&args)?;
    let counts: Vec<usize> = match args.value("cores") {
        None => vec![1, 2, 4, 8],
        Some(list) => list
            .split(',')
            .map(|c| {
                c.trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=64).contains(n))
                    .ok_or_else(|| format!("bad core count '{c}' (1 to 64, comma-separated)"))
            })
            .collect::<Result<_, _>>()?,
    };
    let count = positions_arg(&mut args)?;
    let (net, config) = net_and_config(&mut args, Config::default())?;
    args.finish().map_err(|e| e.to_string())?;
    let boards = search::bench::POSITIONS[..count]
        .iter()
        .map(|f| Board::from_fen(f).map_err(|e| format!("{f}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    println!(
        "the chip model on several cores, a splitter handing them root moves; depth {depth}, \
         {count} positions, {} table entries a core:",
        config.tt_entries
    );
    println!("  cores  table        nodes   clocks to depth   speed-up   nodes a clock   busy");
    let mut base = None;
    let runs = counts.iter().flat_map(|&n| {
        let tables: &[Table] = if n == 1 {
            &[Table::Private]
        } else {
            &[Table::Private, Table::Shared]
        };
        tables.iter().map(move |&t| (n, t))
    });
    for (n, table) in runs {
        let mut cores = Cores::new(n, net.clone(), config, table).map_err(|e| e.to_string())?;
        let (mut nodes, mut clocks, mut busy) = (0u64, 0u64, 0u64);
        for b in &boards {
            cores.clear();
            cores.load(b, &[]);
            let out = cores.go(depth);
            if let Some(last) = out.iterations.last() {
                nodes += last.nodes;
                clocks += last.clocks;
            }
            busy += out.busy;
        }
        let base_clocks = *base.get_or_insert(clocks);
        println!(
            "  {n:>5}  {:<8} {nodes:>11} {clocks:>17} {:>9.2}x {:>15.4} {:>5.0}%",
            match table {
                Table::Private => "private",
                Table::Shared => "shared",
            },
            base_clocks as f64 / clocks.max(1) as f64,
            nodes as f64 / clocks.max(1) as f64,
            100.0 * busy as f64 / (n as f64 * clocks.max(1) as f64),
        );
    }
    Ok(ExitCode::SUCCESS)
}

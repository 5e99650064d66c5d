//! `estuary bench`: parses the arguments of [`search::bench`] and prints its result.

use crate::args::Args;
use chess::Board;
use search::bench::{bench, DEFAULT_DEPTH, POSITIONS};
use std::process::ExitCode;
use std::time::Instant;

/// `estuary bench [DEPTH] [--depth D] [--hash MB] [--threads N] [--eval hce|nnue | --net FILE]
/// [--quiet]` (a net file of either kind: a software net or a chip net).
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &["quiet"]).map_err(|e| e.to_string())?;
    let pos_depth = args.positional().first().cloned();
    let depth = match args.value("depth").or(pos_depth) {
        Some(d) => d.parse::<i32>().map_err(|_| format!("bad depth '{d}'"))?,
        None => DEFAULT_DEPTH,
    };
    let hash = match args.value("hash") {
        Some(h) => h.parse::<usize>().map_err(|_| format!("bad hash '{h}'"))?,
        None => 16,
    };
    let threads = match args.value("threads") {
        Some(t) => t
            .parse::<usize>()
            .map_err(|_| format!("bad threads '{t}'"))?,
        None => 1,
    };
    let quiet = args.flag("quiet");
    let net = match args.value("eval").as_deref() {
        None if args.value("device").is_none() => match args.value("net") {
            Some(path) => Some(Some(eval::Net::load(&path).map_err(|e| e.to_string())?)),
            None => None,
        },
        None => None,
        Some("hce") => Some(None),
        Some("nnue") => Some(Some(eval::Net::Nnue(eval::nnue::Network::embedded()))),
        Some("chip") if args.value("device").is_some() => None,
        Some("chip") => {
            return Err("--eval chip runs on the co-simulated unit: add --device rtl".into())
        }
        Some(other) => return Err(format!("unknown eval '{other}' (hce, nnue, chip)")),
    };
    if let Some(dev) = args.value("device") {
        // `--device rtl`: the co-simulated Verilog generator, on fewer positions.
        let count = args
            .parsed::<usize>("positions")
            .map_err(|e| e.to_string())?
            .unwrap_or(8);
        return match dev.as_str() {
            "rtl" if args.value("eval").as_deref() == Some("chip") => {
                bench_chip_rtl(args.value("net"), depth, hash, count)
            }
            "rtl" => bench_rtl(depth, hash, count),
            "software" => Err("--device software is the default: leave --device out".into()),
            other => Err(format!("unknown device '{other}' (rtl)")),
        };
    }
    let r = bench(depth, hash, threads, net, |i, fen, n| {
        if !quiet {
            eprintln!(
                "Position {:2}/{}: {:>10} nodes  {fen}",
                i + 1,
                POSITIONS.len(),
                n
            );
        }
    });
    println!("===========================");
    println!("Total time (ms) : {}", r.ms);
    println!("Nodes searched: {}", r.nodes);
    println!("Nodes/second: {}", r.nodes * 1000 / r.ms.max(1));
    Ok(ExitCode::SUCCESS)
}

/// `estuary bench --device rtl`: the bench search on the first `count` positions with the
/// co-simulated generator behind the device interface, next to the software device
/// (`cosim::movegen::compare_searches`); prints both node counts, the boundary traffic and the
/// device clocks.
fn bench_rtl(depth: i32, hash_mb: usize, count: usize) -> Result<ExitCode, String> {
    if !cosim::available() {
        return Err("this estuary was built without verilator: no RTL device (apt-get install verilator, rebuild)".into());
    }
    let fens = &POSITIONS[..count.min(POSITIONS.len())];
    // The table is invariant-checked by a test: every bench FEN parses.
    let boards: Vec<Board> = fens
        .iter()
        .map(|f| Board::from_fen(f).expect("bench FEN"))
        .collect();
    let t0 = Instant::now();
    let c = cosim::movegen::compare_searches(&boards, depth, hash_mb, |c| {
        let fen = fens[c.rtl.len() - 1];
        eprintln!(
            "{fen}: software {} rtl {} (cumulative)",
            c.software_nodes(),
            c.rtl_nodes()
        );
    })
    .map_err(|e| e.to_string())?;
    let (sw_nodes, rtl_nodes, st) = (c.software_nodes(), c.rtl_nodes(), c.stats);
    println!("===========================");
    println!("Positions       : {count} (depth {depth})");
    println!("Nodes software  : {sw_nodes}");
    println!(
        "Nodes rtl       : {rtl_nodes}{}",
        if c.equal() {
            " (equal)"
        } else {
            " (DIFFERENT)"
        }
    );
    println!(
        "Device loads/makes/unmakes/generates: {}/{}/{}/{}",
        st.loads, st.makes, st.unmakes, st.generates
    );
    println!("Moves out       : {}", st.moves_out);
    println!(
        "Words (32-bit)  : {}  ({:.2} per node)",
        st.words,
        st.words as f64 / rtl_nodes.max(1) as f64
    );
    println!(
        "Device clocks   : {}  ({:.2} per node)",
        st.cycles,
        st.cycles as f64 / rtl_nodes.max(1) as f64
    );
    println!("Simulated in    : {} ms", t0.elapsed().as_millis());
    if !c.equal() {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// `estuary bench --device rtl --eval chip [--net FILE]`: the bench search on the first `count`
/// positions with evaluation on the co-simulated evaluation unit and move generation on the
/// co-simulated generator, next to the software search with the same chip net
/// (`cosim::evalunit::compare_searches`); prints both node counts and the unit's clocks.
fn bench_chip_rtl(
    net: Option<String>,
    depth: i32,
    hash_mb: usize,
    count: usize,
) -> Result<ExitCode, String> {
    if !cosim::available() {
        return Err("this estuary was built without verilator: no RTL device (apt-get install verilator, rebuild)".into());
    }
    let net = std::sync::Arc::new(crate::chip_net(net)?);
    let fens = &POSITIONS[..count.min(POSITIONS.len())];
    let boards: Vec<Board> = fens
        .iter()
        .map(|f| Board::from_fen(f).expect("bench FEN"))
        .collect();
    let t0 = Instant::now();
    let c = cosim::evalunit::compare_searches(net.clone(), &boards, depth, hash_mb, |c| {
        let i = c.rtl.len() - 1;
        eprintln!("{}: software {} rtl {}", fens[i], c.software[i], c.rtl[i]);
    })
    .map_err(|e| e.to_string())?;
    let nodes = c.rtl_nodes();
    let per = |x: u64, n: u64| x as f64 / n.max(1) as f64;
    let (st, cl) = (c.eval, c.clocks);
    println!("===========================");
    println!(
        "Net             : {}{}",
        net.arch,
        if net.hybrid { " (hybrid)" } else { "" }
    );
    println!("Positions       : {count} (depth {depth})");
    println!("Nodes software  : {}", c.software.iter().sum::<u64>());
    println!(
        "Nodes rtl       : {nodes}{}",
        if c.equal() {
            " (equal)"
        } else {
            " (DIFFERENT)"
        }
    );
    println!(
        "Unit calls      : loads {} makes {} nulls {} unmakes {} evaluates {}",
        st.loads, st.makes, st.nulls, st.unmakes, st.evals
    );
    println!(
        "Unit clocks/call: make {:.2}  null {:.2}  unmake {:.2}  evaluate {:.2}",
        per(cl.make, st.makes),
        per(cl.null, st.nulls),
        per(cl.unmake, st.unmakes),
        per(cl.eval, st.evals)
    );
    println!(
        "Unit clocks     : {}  ({:.2} per node, evaluating {:.2} per node)",
        st.cycles,
        per(st.cycles, nodes),
        per(cl.eval, nodes)
    );
    println!(
        "Generator clocks: {}  ({:.2} per node)",
        c.movegen.cycles,
        per(c.movegen.cycles, nodes)
    );
    println!("Simulated in    : {} ms", t0.elapsed().as_millis());
    if !c.equal() {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

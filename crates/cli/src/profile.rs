//! `estuary profile`: the design review's profile of the search and Amdahl's law for each
//! unit (measurement in `search::profile`, the projection in `hw::amdahl`); this file parses
//! the arguments and prints the table and the chart.

use crate::args::Args;
use chess::Board;
use device::profile::{CallCost, CallCosts, Section};
use hw::amdahl::{limit, project, CallLoad, Projection};
use search::profile::{device_costs, profile, Profile, ProfileSpec};
use search::Limits;
use std::fmt::Write as _;
use std::process::ExitCode;

/// The design review's profile of its engine: in_check/attack, evaluation, generation.
const REVIEW: [(&str, f64); 3] = [
    ("check/attack detection", 0.55),
    ("evaluation", 0.25),
    ("move generation", 0.15),
];

/// Default bus cost per 32-bit word, ns: the order of one posted PCIe write (the bus the
/// 2016 thesis' generator sat behind); `--bus-ns` sets another.
const DEFAULT_BUS_NS: f64 = 100.0;

/// `estuary profile [--fen FEN | --epd FILE] [--depth D | --nodes N] [--hash MB]
/// [--eval hce|nnue | --net FILE] [--bus-ns NS] [--cosim-positions N] [--cosim-depth D] [--svg FILE]`.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &[]).map_err(|e| e.to_string())?;
    let positions = match (args.value("fen"), args.value("epd")) {
        (Some(_), Some(_)) => return Err("give --fen or --epd, not both".into()),
        (Some(fen), None) => {
            vec![Board::from_fen(&fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?]
        }
        (None, Some(path)) => read_epd(&path)?,
        (None, None) => search::bench::POSITIONS
            .iter()
            .map(|f| Board::from_fen(f).map_err(|e| format!("bench FEN {f}: {e}")))
            .collect::<Result<_, _>>()?,
    };
    let depth = args.parsed::<i32>("depth").map_err(|e| e.to_string())?;
    let nodes = args.parsed::<u64>("nodes").map_err(|e| e.to_string())?;
    let limits = match (depth, nodes) {
        (Some(_), Some(_)) => return Err("give --depth or --nodes, not both".into()),
        (Some(d), None) if (1..=64).contains(&d) => Limits::depth(d),
        (Some(d), None) => return Err(format!("depth {d} out of range (1-64)")),
        (None, Some(n)) if n > 0 => Limits::nodes(n),
        (None, Some(_)) => return Err("--nodes must be positive".into()),
        (None, None) => Limits::depth(search::bench::DEFAULT_DEPTH),
    };
    let hash_mb = args
        .parsed::<usize>("hash")
        .map_err(|e| e.to_string())?
        .unwrap_or(16);
    let net = match (args.value("eval").as_deref(), args.value("net")) {
        (Some(_), Some(_)) => return Err("give --eval or --net, not both".into()),
        (_, Some(path)) => Some(eval::Net::load(&path).map_err(|e| e.to_string())?),
        (None | Some("nnue"), None) => Some(eval::Net::Nnue(eval::nnue::Network::embedded())),
        (Some("hce"), None) => None,
        (Some(other), None) => return Err(format!("unknown eval '{other}' (hce, nnue)")),
    };
    let bus_ns = args
        .parsed::<f64>("bus-ns")
        .map_err(|e| e.to_string())?
        .unwrap_or(DEFAULT_BUS_NS);
    if !(bus_ns >= 0.0 && bus_ns.is_finite()) {
        return Err(format!("--bus-ns {bus_ns}: give a cost of zero or more"));
    }
    let cosim_positions = args
        .parsed::<usize>("cosim-positions")
        .map_err(|e| e.to_string())?
        .unwrap_or(4);
    let cosim_depth = args
        .parsed::<i32>("cosim-depth")
        .map_err(|e| e.to_string())?
        .unwrap_or(8);
    let svg = args.value("svg");
    args.finish().map_err(|e| e.to_string())?;

    let spec = ProfileSpec {
        positions,
        limits,
        hash_mb,
        net,
    };
    let p = profile(&spec, |step| eprintln!("profile: {step}")).map_err(|e| e.to_string())?;
    print_profile(&p, &spec);

    let costs = if cosim::available() && cosim_positions > 0 {
        eprintln!("profile: co-simulating the Verilog move generator ({cosim_positions} positions, depth {cosim_depth})");
        let cspec = ProfileSpec {
            positions: spec
                .positions
                .iter()
                .take(cosim_positions)
                .copied()
                .collect(),
            limits: Limits::depth(cosim_depth),
            ..spec.clone()
        };
        Some(device_costs(&cspec, || {
            cosim::movegen::RtlDevice::new(&Board::startpos())
                .expect("the verilated model is built in")
        }))
    } else {
        None
    };
    let unit = if cosim::available() && cosim_positions > 0 {
        eprintln!("profile: co-simulating the Verilog evaluation unit with the built-in chip net ({cosim_positions} positions, depth {cosim_depth})");
        let boards: Vec<Board> = spec
            .positions
            .iter()
            .take(cosim_positions)
            .copied()
            .collect();
        let net = eval::chip::ChipNet::embedded();
        let c = cosim::evalunit::compare_searches(net, &boards, cosim_depth, spec.hash_mb, |_| {})
            .map_err(|e| e.to_string())?;
        if !c.equal() {
            return Err(
                "the co-simulated evaluation unit's search differs from the software's".into(),
            );
        }
        Some((c.eval, c.clocks))
    } else {
        None
    };
    print_amdahl(&p, costs.as_deref(), unit, bus_ns);
    if let Some(path) = svg {
        std::fs::write(&path, chart(&p)).map_err(|e| format!("{path}: {e}"))?;
        eprintln!("profile: wrote {path}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The positions of an EPD file: the four FEN fields of each line (counters taken when they
/// follow, `0 1` otherwise); blank lines and `#` comments skipped.
fn read_epd(path: &str) -> Result<Vec<Board>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(format!("{path}:{}: not an EPD/FEN line", n + 1));
        }
        let counters = match fields.get(4..6) {
            Some([a, b]) if a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok() => {
                format!("{a} {b}")
            }
            _ => "0 1".to_string(),
        };
        let fen = format!("{} {counters}", fields[..4].join(" "));
        out.push(Board::from_fen(&fen).map_err(|e| format!("{path}:{}: {e}", n + 1))?);
    }
    if out.is_empty() {
        return Err(format!("{path}: no positions"));
    }
    Ok(out)
}

fn pct(x: f64) -> String {
    format!("{:5.1}%", 100.0 * x)
}

/// The shares of the three units the design review measured, in our engine.
fn review_groups(p: &Profile) -> [f64; 3] {
    [
        p.share(Section::Attacks),
        p.share(Section::EvalUpdate)
            + p.share(Section::EvalOutput)
            + p.share(Section::EvalTerms)
            + p.share(Section::EvalScaling),
        p.share(Section::MoveGen),
    ]
}

fn print_profile(p: &Profile, spec: &ProfileSpec) {
    let limit = match (spec.limits.depth, spec.limits.nodes) {
        (Some(d), _) => format!("depth {d}"),
        (_, Some(n)) => format!("{n} nodes each"),
        _ => String::new(),
    };
    println!(
        "Profile: {} nodes, {} positions at {limit}, {} evaluation, {:.0} nodes/s unprofiled",
        p.nodes,
        spec.positions.len(),
        p.evaluator,
        p.nps()
    );
    println!(
        "Method: time-stamp counter around every unit call, exclusive time; {} probe pairs at \
         {:.1} ticks each ({:.2} ns/tick)",
        p.times.pairs(),
        p.pair_ticks,
        p.ns_per_tick
    );
    println!(
        "Overhead: the profiled run took {} more wall time than the plain one (same nodes); the \
         calibrated probe cost, {} of its ticks, is taken out below",
        pct(p.wall_overhead()).trim(),
        pct(p.probe_overhead()).trim()
    );
    println!();
    println!(
        "{:<28} {:>7} {:>12} {:>9}",
        "unit", "share", "calls", "ns/call"
    );
    for s in Section::ALL {
        println!(
            "{:<28} {:>7} {:>12} {:>9.1}",
            s.name(),
            pct(p.share(s)),
            p.times.calls_of(s),
            p.ns_per_call(s)
        );
    }
    println!("{:<28} {:>7}", "rest (search itself)", pct(p.rest_share()));
    println!();
    println!(
        "{:<28} {:>9} {:>14}",
        "the design review's units", "Estuary", "design review"
    );
    for ((name, review), ours) in REVIEW.iter().zip(review_groups(p)) {
        println!("{name:<28} {:>9} {:>14}", pct(ours), pct(*review));
    }
    println!();
}

/// The software loads of the move generator's calls in `p`, with the hardware's costs. The
/// in-check queries the device answers with a status word are timed in software together with
/// gives-check and SEE, so they keep their software time and add only the device's cost, at
/// the co-simulation's ratio of queries to makes.
fn movegen_loads(p: &Profile, c: &CallCosts) -> [CallLoad; 3] {
    let load = |s: Section, cost: &CallCost| CallLoad {
        calls: p.times.calls_of(s),
        software_ns: p.ticks_of(s) * p.ns_per_tick,
        clocks_per_call: cost.clocks_per_call(),
        words_per_call: cost.words_per_call(),
    };
    let per_update = c.checks.calls() as f64 / c.updates.calls().max(1) as f64;
    let updates = p.times.calls_of(Section::MakeUnmake);
    [
        load(Section::MoveGen, &c.generates),
        load(Section::MakeUnmake, &c.updates),
        CallLoad {
            calls: (updates as f64 * per_update).round() as u64,
            software_ns: 0.0,
            clocks_per_call: c.checks.clocks_per_call(),
            words_per_call: c.checks.words_per_call(),
        },
    ]
}

/// The software loads of the network's calls in `p` (its updates on make, null and unmake, and
/// its output layer) with the co-simulated evaluation unit's clocks and words per call.
fn eval_unit_loads(
    p: &Profile,
    st: &device::EvalStats,
    cl: &cosim::evalunit::UnitClocks,
) -> [CallLoad; 2] {
    let updates = (st.makes + st.nulls + st.unmakes).max(1) as f64;
    [
        CallLoad {
            calls: p.times.calls_of(Section::EvalUpdate),
            software_ns: p.ticks_of(Section::EvalUpdate) * p.ns_per_tick,
            clocks_per_call: (cl.make + cl.null + cl.unmake) as f64 / updates,
            words_per_call: 1.0,
        },
        CallLoad {
            calls: p.times.calls_of(Section::EvalOutput),
            software_ns: p.ticks_of(Section::EvalOutput) * p.ns_per_tick,
            clocks_per_call: cl.eval as f64 / st.evals.max(1) as f64,
            words_per_call: 2.0,
        },
    ]
}

fn print_amdahl(
    p: &Profile,
    costs: Option<&CallCosts>,
    unit: Option<(device::EvalStats, cosim::evalunit::UnitClocks)>,
    bus_ns: f64,
) {
    let total_ns = p.search_ticks() * p.ns_per_tick;
    println!("Amdahl's law: the whole search's speedup with one unit in hardware");
    println!(
        "{:<34} {:>7} {:>9} {:>9} {:>10} {:>12} {:>7}",
        "unit", "share", "unit x", "search x", "unit x bus", "search x bus", "limit"
    );
    let row = |name: &str, pr: &Projection| {
        println!(
            "{name:<34} {:>7} {:>9.2} {:>9.3} {:>10.2} {:>12.3} {:>7.2}",
            pct(pr.share),
            pr.unit_speedup,
            pr.whole,
            pr.unit_speedup_bus,
            pr.whole_bus,
            pr.limit
        )
    };
    match costs {
        Some(c) => {
            let fmax = hw::movegen::ROUTED_FMAX_MHZ;
            let pr = project(total_ns, &movegen_loads(p, c), fmax, bus_ns);
            row("move generator (generate + make)", &pr);
            println!(
                "  co-simulated Verilog: {:.1} clocks and {:.2} words per generate, {:.1} clocks \
                 and {:.2} words per make/unmake, {:.2} words per in-check query ({:.2} a make); \
                 {fmax} MHz routed (hw/README.md); bus {bus_ns} ns per word; software {:.1} / \
                 {:.1} ns per call",
                c.generates.clocks_per_call(),
                c.generates.words_per_call(),
                c.updates.clocks_per_call(),
                c.updates.words_per_call(),
                c.checks.words_per_call(),
                c.checks.calls() as f64 / c.updates.calls().max(1) as f64,
                p.ns_per_call(Section::MoveGen),
                p.ns_per_call(Section::MakeUnmake),
            );
        }
        None => println!(
            "{:<34} {:>7}   (no co-simulation in this build: install verilator and rebuild; \
             limit {:.2})",
            "move generator (generate + make)",
            pct(p.share(Section::MoveGen) + p.share(Section::MakeUnmake)),
            limit(p.share(Section::MoveGen) + p.share(Section::MakeUnmake))
        ),
    }
    let net_share = p.share(Section::EvalUpdate) + p.share(Section::EvalOutput);
    match &unit {
        Some((st, cl)) if p.times.calls_of(Section::EvalOutput) > 0 => {
            let mhz = hw::evalunit::ROUTED_FMAX_MHZ;
            let pr = project(total_ns, &eval_unit_loads(p, st, cl), mhz, bus_ns);
            row("evaluation unit (network part)", &pr);
            let updates = (st.makes + st.nulls + st.unmakes).max(1) as f64;
            println!(
                "  co-simulated Verilog with the built-in chip net: {:.1} clocks per update \
                 (make, null, unmake), {:.1} per evaluate; {mhz} MHz (routed, docs/results/hw-synthesis.md); software ({}) {:.1} / \
                 {:.1} ns per call",
                (cl.make + cl.null + cl.unmake) as f64 / updates,
                cl.eval as f64 / st.evals.max(1) as f64,
                p.evaluator,
                p.ns_per_call(Section::EvalUpdate),
                p.ns_per_call(Section::EvalOutput),
            );
        }
        _ => println!(
            "{:<34} {:>7}   (no co-simulation, or no network in this profile; limit {:.2})",
            "evaluation unit (network part)",
            pct(net_share),
            limit(net_share)
        ),
    }
    let eval = review_groups(p)[1];
    let not_yet = [
        (
            "evaluation: hand-crafted terms",
            p.share(Section::EvalTerms),
        ),
        ("evaluation unit (all its parts)", eval),
        ("check/attack detection", p.share(Section::Attacks)),
        ("transposition table", p.share(Section::Tt)),
        ("move ordering", p.share(Section::Ordering)),
    ];
    for (name, share) in not_yet {
        println!(
            "{name:<34} {:>7}   not in hardware yet; an infinitely fast unit gives {:.2}",
            pct(share),
            limit(share)
        );
    }
    println!("(unit x: the unit's calls, software time over hardware time; search x: the whole");
    println!(" search, the unit on chip beside it; bus: every word crossing a bus as well)");
}

/// A horizontal bar chart of the shares, ours beside the design review's three.
fn chart(p: &Profile) -> String {
    let mut rows: Vec<(String, f64, &str)> = Section::ALL
        .iter()
        .map(|&s| (s.name().to_string(), p.share(s), "#2b6cb0"))
        .collect();
    rows.push(("rest (search itself)".into(), p.rest_share(), "#718096"));
    for ((name, review), ours) in REVIEW.iter().zip(review_groups(p)) {
        rows.push((format!("{name}: Estuary"), ours, "#2b6cb0"));
        rows.push((format!("{name}: design review"), *review, "#c05621"));
    }
    let (left, bar_w, row_h, top) = (250.0, 420.0, 22.0, 40.0);
    let height = top + row_h * rows.len() as f64 + 30.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"12\">",
        left + bar_w + 70.0
    );
    let _ = writeln!(
        s,
        "<text x=\"10\" y=\"20\" font-size=\"14\">Share of search time: {} nodes, {} \
         evaluation (blue: Estuary, orange: the design review)</text>",
        p.nodes, p.evaluator
    );
    for (i, (name, share, colour)) in rows.iter().enumerate() {
        let y = top + row_h * i as f64;
        let w = bar_w * share.clamp(0.0, 1.0);
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\
             <rect x=\"{left}\" y=\"{y}\" width=\"{w:.1}\" height=\"{}\" fill=\"{colour}\"/>\
             <text x=\"{:.1}\" y=\"{}\">{:.1}%</text>",
            left - 8.0,
            y + 14.0,
            name.replace('&', "&amp;").replace('<', "&lt;"),
            row_h - 6.0,
            left + w + 6.0,
            y + 14.0,
            100.0 * share
        );
    }
    s.push_str("</svg>\n");
    s
}

//! Co-simulation of one search core (hw/chip/chip_core.v: the sequencer over the move
//! generator, the evaluation unit and the mirror) against the search machine's Rust model
//! (`hw::chip::Machine`): the same commands to each unit in the same order, the same node
//! counts, the same last report (depth, score, PV, nodes) and the same answer. The clocks of
//! the commands are compared too and where they first part is printed; they agree on whole
//! searches of some positions and not yet on others.

mod common;

use chess::Board;
use common::simulator_present;
use cosim::search_core::{CoreSim, TT_ENTRIES};
use eval::chip::ChipNet;
use hw::chip::{Command, Config, Event, Limits, Machine};

const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
];

fn config() -> Config {
    Config {
        tt_entries: TT_ENTRIES,
        ..Config::default()
    }
}

/// The commands one unit is given: the generator's (`eval` false) or the evaluation unit's.
/// MAKE, NULL and UNMAKE go to both; a `None` (the units given different commands in one
/// clock) to both as well.
fn unit_stream(events: &[Option<Event>], eval: bool) -> Vec<Option<Event>> {
    events
        .iter()
        .copied()
        .filter(|e| match e.map(|e| e.command) {
            Some(Command::Gen { .. }) => !eval,
            Some(Command::Eval) => eval,
            _ => true,
        })
        .collect()
}

/// The first place two command records part, with a few commands before it.
fn first_difference(
    model: &[Option<Event>],
    rtl: &[Option<Event>],
    clocks: bool,
) -> Option<String> {
    let n = model.len().max(rtl.len());
    for i in 0..n {
        let m = model.get(i).copied().flatten();
        let r = rtl.get(i).copied().flatten();
        let same = match (m, r) {
            (Some(a), Some(b)) => a.command == b.command && (!clocks || a.clock == b.clock),
            _ => false,
        };
        if !same {
            let from = i.saturating_sub(8);
            let show = |k: usize| {
                format!(
                    "{k}: model {:?} rtl {:?}",
                    model.get(k).copied().flatten(),
                    rtl.get(k).copied().flatten()
                )
            };
            return Some((from..=i).map(show).collect::<Vec<_>>().join("\n"));
        }
    }
    None
}

/// [`first_difference`] of each unit's commands.
fn difference(model: &[Event], rtl: &[Option<Event>], clocks: bool) -> Option<String> {
    let model: Vec<Option<Event>> = model.iter().copied().map(Some).collect();
    [false, true].iter().find_map(|&eval| {
        first_difference(&unit_stream(&model, eval), &unit_stream(rtl, eval), clocks).map(|d| {
            format!(
                "{}:\n{d}",
                if eval { "evaluation unit" } else { "generator" }
            )
        })
    })
}

#[test]
fn the_core_searches_the_models_tree() {
    if !simulator_present() {
        return;
    }
    let net = ChipNet::embedded_pure();
    let mut clock_faults = Vec::new();
    for (k, fen) in FENS.iter().enumerate() {
        let board = Board::from_fen(fen).unwrap();
        for depth in 1..=3 {
            let limits = Limits {
                depth,
                ..Limits::default()
            };
            let mut model = Machine::new(net.clone(), config()).unwrap();
            model.set_trace(true);
            model.load(&board, &[]);
            let want = model.go(limits, |_| {});
            let trace = model.take_trace();
            let mut core = CoreSim::new(&net).unwrap();
            core.load(&board, &[]).unwrap();
            let got = core.go(limits, config(), 50_000_000).unwrap();
            assert!(!got.overflow);
            if std::env::var("CORE_DUMP").is_ok_and(|v| v == format!("{k}/{depth}")) {
                for (i, e) in trace.iter().enumerate().take(40) {
                    eprintln!("{i}: model {e:?}   rtl {:?}", got.events.get(i));
                }
            }
            if let Some(d) = difference(&trace, &got.events, false) {
                panic!("position {k} depth {depth}: the commands part\n{d}");
            }
            assert_eq!(got.nodes, want.nodes, "position {k} depth {depth}");
            assert_eq!(got.qnodes, want.qnodes, "position {k} depth {depth}");
            assert_eq!(got.best, want.best, "position {k} depth {depth}");
            assert_eq!(got.stopped, want.stopped, "position {k} depth {depth}");
            let last = got.reports.last().expect("an iteration completed");
            assert_eq!(
                (last.depth, last.score, &last.pv, last.nodes),
                (
                    want.report.depth,
                    want.report.score,
                    &want.report.pv,
                    want.report.nodes
                ),
                "position {k} depth {depth}"
            );
            if let Some(d) = difference(&trace, &got.events, true) {
                clock_faults.push(format!("position {k} depth {depth}: the clocks part\n{d}"));
            }
        }
    }
    // The clocks are not yet the model's everywhere (issue 19: the evaluation unit's score
    // latency after a make is modelled to a clock or so); where they first part is printed.
    if !clock_faults.is_empty() {
        eprintln!("{}", clock_faults.join("\n\n"));
    }
}

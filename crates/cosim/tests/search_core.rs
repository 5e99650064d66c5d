//! Co-simulation of one search core (hw/chip/chip_core.v: the sequencer over the move
//! generator, the evaluation unit and the mirror) against the search machine's Rust model
//! (`hw::chip::Machine`): the same commands to each unit in the same order and the same
//! clock, the same node counts, the same reports (depth, score, PV, nodes, clocks) and the
//! same answer at the same clock, on the bench's 40 positions at several depths, with node
//! and clock budgets, a slow table port, without the prunings, with and without late-move
//! pruning (`Config::lmp`, the default), and with repetitions; and with the table in the
//! SDRAM (the board's build), whose controller's every command the harness's SDRAM chip
//! checks against the datasheet's rules.

mod common;

use chess::Board;
use common::simulator_present;
use cosim::search_core::{CoreSim, TT_ENTRIES};
use eval::chip::ChipNet;
use hw::chip::{Command, Config, Event, Limits, Machine};

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

/// Searches `board` (after the game `history`, oldest first) on the model and on the core and
/// compares them: each unit's commands in order and clock, nodes, quiescence nodes, every
/// report, the answer and the clock it came. Returns the nodes searched.
fn compare(
    net: &std::sync::Arc<ChipNet>,
    what: &str,
    board: &Board,
    history: &[u64],
    limits: Limits,
    config: Config,
) -> u64 {
    let mut model = Machine::new(net.clone(), config).unwrap();
    model.set_trace(true);
    model.load_hashes(board, history);
    let mut reports = Vec::new();
    let want = model.go(limits, |r| reports.push(r.clone()));
    let trace = model.take_trace();
    let mut core = CoreSim::new(net).unwrap();
    core.load(board, history).unwrap();
    let got = core.go(limits, config, 200_000_000).unwrap();
    assert!(!got.overflow, "{what}: a move list overflowed");
    if let Some(d) = difference(&trace, &got.events, false) {
        panic!("{what}: the commands part\n{d}");
    }
    if let Some(d) = difference(&trace, &got.events, true) {
        panic!("{what}: the clocks part\n{d}");
    }
    assert_eq!(
        (got.nodes, got.qnodes, got.best, got.stopped),
        (want.nodes, want.qnodes, want.best, want.stopped),
        "{what}: nodes, quiescence nodes, answer, stopped"
    );
    assert_eq!(got.reports, reports, "{what}: the reports");
    assert_eq!(got.clocks, want.clocks, "{what}: the clock of the answer");
    if config.sdram {
        assert_eq!(
            core.sdram_violations(),
            (0, String::new()),
            "{what}: the SDRAM"
        );
    }
    want.nodes
}

/// One GO on the model and on the core, which already hold the same position and table:
/// the same commands in the same clocks, the same nodes and answer.
fn go_both(
    what: &str,
    model: &mut Machine,
    core: &mut CoreSim,
    limits: Limits,
    config: Config,
) -> u64 {
    model.set_trace(true);
    let want = model.go(limits, |_| {});
    let trace = model.take_trace();
    let got = core.go(limits, config, 200_000_000).unwrap();
    if let Some(d) = difference(&trace, &got.events, true) {
        panic!("{what}: the commands part\n{d}");
    }
    assert_eq!(
        (got.nodes, got.best, got.clocks),
        (want.nodes, want.best, want.clocks),
        "{what}: nodes, answer, clock"
    );
    assert_eq!(
        core.sdram_violations(),
        (0, String::new()),
        "{what}: the SDRAM"
    );
    want.nodes
}

#[test]
fn the_sdram_table_is_the_models() {
    if !simulator_present() {
        return;
    }
    let net = ChipNet::embedded_pure();
    // Reads as children are made, waiting behind writes and refreshes; writes waiting for
    // the write slot: at depth 4, a refresh every 780 clocks.
    let mut nodes = 0;
    for fen in search::bench::POSITIONS.iter().step_by(10) {
        let board = Board::from_fen(fen).unwrap();
        let limits = Limits {
            depth: 4,
            ..Limits::default()
        };
        nodes += compare(
            &net,
            &format!("{fen} sdram"),
            &board,
            &[],
            limits,
            Config::sdram(),
        );
    }
    eprintln!("{nodes} nodes compared on the SDRAM table");
    // The table kept from one search to the next (the second searches fewer nodes), and
    // CLEAR's new generation: the search after it is the first one again.
    let board = Board::from_fen(search::bench::POSITIONS[3]).unwrap();
    let limits = Limits {
        depth: 4,
        ..Limits::default()
    };
    let config = Config::sdram();
    let mut model = Machine::new(net.clone(), config).unwrap();
    let mut core = CoreSim::new(&net).unwrap();
    model.load(&board, &[]);
    core.load(&board, &[]).unwrap();
    let first = go_both("first", &mut model, &mut core, limits, config);
    model.load(&board, &[]);
    core.load(&board, &[]).unwrap();
    let again = go_both(
        "again, the table kept",
        &mut model,
        &mut core,
        limits,
        config,
    );
    assert!(
        again < first,
        "the kept table saves nodes: {again} against {first}"
    );
    model.clear();
    core.clear(config).unwrap();
    model.load(&board, &[]);
    core.load(&board, &[]).unwrap();
    let cleared = go_both("after CLEAR", &mut model, &mut core, limits, config);
    assert_eq!(cleared, first, "after CLEAR the search is the first again");
}

#[test]
fn the_core_searches_the_models_tree_in_its_clocks() {
    if !simulator_present() {
        return;
    }
    let net = ChipNet::embedded_pure();
    let mut nodes = 0;
    // The bench's 40 positions to depth 3 (4 for a few): the search deepens iteratively, so
    // each iteration's report (depths 1, 2, 3) and each iteration's tree is compared. Every
    // other one without late-move pruning (the default has it), so both builds are covered.
    for (k, fen) in search::bench::POSITIONS.iter().enumerate() {
        let board = Board::from_fen(fen).unwrap();
        let depth = if k % 10 == 0 { 4 } else { 3 };
        let limits = Limits {
            depth,
            ..Limits::default()
        };
        let lmp = k % 2 == 0;
        nodes += compare(
            &net,
            &format!("{fen} depth {depth} lmp {lmp}"),
            &board,
            &[],
            limits,
            Config { lmp, ..config() },
        );
    }
    eprintln!("{nodes} nodes compared");
}

#[test]
fn the_late_move_pruning_build_is_the_models() {
    if !simulator_present() {
        return;
    }
    let net = ChipNet::embedded_pure();
    // Late-move pruning is the default; this checks it where it does most.
    let lmp = config();
    assert!(lmp.lmp);
    // Deep enough that late-move pruning starts (depth 2 and more below the PV) and the
    // signed history's walks reorder later nodes: every 4th bench position to depth 5.
    let mut nodes = 0;
    for fen in search::bench::POSITIONS.iter().step_by(4) {
        let board = Board::from_fen(fen).unwrap();
        let limits = Limits {
            depth: 5,
            ..Limits::default()
        };
        nodes += compare(&net, &format!("{fen} lmp"), &board, &[], limits, lmp);
    }
    // The board's table, and a second search on the history and table the first left.
    let config = Config::sdram();
    let board = Board::from_fen(search::bench::POSITIONS[7]).unwrap();
    let limits = Limits {
        depth: 5,
        ..Limits::default()
    };
    let mut model = Machine::new(net.clone(), config).unwrap();
    let mut core = CoreSim::new(&net).unwrap();
    for what in ["lmp sdram", "lmp sdram again"] {
        model.load(&board, &[]);
        core.load(&board, &[]).unwrap();
        nodes += go_both(what, &mut model, &mut core, limits, config);
    }
    eprintln!("{nodes} nodes compared with late-move pruning");
}

#[test]
fn budgets_table_latency_and_repetitions_are_the_models() {
    if !simulator_present() {
        return;
    }
    let net = ChipNet::embedded_pure();
    // A node budget and a clock budget stop the search mid-iteration.
    for (k, fen) in search::bench::POSITIONS.iter().enumerate().step_by(5) {
        let board = Board::from_fen(fen).unwrap();
        let limits = Limits {
            nodes: 1500 + 100 * k as u64,
            ..Limits::default()
        };
        compare(&net, &format!("{fen} nodes"), &board, &[], limits, config());
        let limits = Limits {
            clocks: 60_000,
            ..Limits::default()
        };
        compare(
            &net,
            &format!("{fen} clocks"),
            &board,
            &[],
            limits,
            config(),
        );
    }
    // A table behind a slow port (the external-memory model), and none of the prunings.
    for fen in search::bench::POSITIONS.iter().take(6) {
        let board = Board::from_fen(fen).unwrap();
        let limits = Limits {
            depth: 3,
            ..Limits::default()
        };
        let slow = Config {
            tt_clocks: 17,
            ..config()
        };
        compare(&net, &format!("{fen} tt 17"), &board, &[], limits, slow);
        let plain = Config {
            null_move: false,
            lmr: false,
            lmp: false,
            ..config()
        };
        compare(&net, &format!("{fen} plain"), &board, &[], limits, plain);
    }
    // Mates found: the iteration that proves one within its depth is the last.
    for fen in [
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    ] {
        let board = Board::from_fen(fen).unwrap();
        let limits = Limits {
            depth: 6,
            ..Limits::default()
        };
        compare(&net, &format!("{fen} mate"), &board, &[], limits, config());
    }
    // A game whose knights went out and back: repetitions along the path and with the game.
    let mut board = Board::startpos();
    let mut history = Vec::new();
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6"] {
        history.push(board.hash());
        let m = board.parse_uci_move(uci).unwrap();
        board = board.played(m);
    }
    let limits = Limits {
        depth: 5,
        ..Limits::default()
    };
    compare(
        &net,
        "knights out and back",
        &board,
        &history,
        limits,
        config(),
    );
}

#[test]
fn the_stop_line_answers_as_a_clock_budget_does() {
    if !simulator_present() {
        return;
    }
    // "Decide now" raised at clock T stops the search at its next node, as a budget of T
    // clocks does in the model: the same commands, the move of the last iteration (or a
    // better one of the stopped iteration), at the same clock.
    let net = ChipNet::embedded_pure();
    for (k, fen) in search::bench::POSITIONS.iter().enumerate().step_by(8) {
        let board = Board::from_fen(fen).unwrap();
        let at = 30_000 + 7_919 * k as u64;
        let mut model = Machine::new(net.clone(), config()).unwrap();
        model.set_trace(true);
        model.load(&board, &[]);
        let budget = Limits {
            clocks: at,
            ..Limits::default()
        };
        let want = model.go(budget, |_| {});
        let trace = model.take_trace();
        let mut core = CoreSim::new(&net).unwrap();
        core.load(&board, &[]).unwrap();
        let got = core
            .go_stopped(Limits::default(), config(), 50_000_000, Some(at))
            .unwrap();
        assert!(want.stopped && got.stopped, "{fen}: stopped");
        if let Some(d) = difference(&trace, &got.events, true) {
            panic!("{fen}: stopped at {at}: the commands part\n{d}");
        }
        assert_eq!(
            (got.best, got.nodes, got.clocks),
            (want.best, want.nodes, want.clocks),
            "{fen}: stopped at {at}"
        );
    }
}

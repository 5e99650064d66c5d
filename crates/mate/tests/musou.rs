//! Shogi Muso (../shared/data/tsume/musou.tsv): a classic whose checks along long lines
//! can be answered by a drop of every kind in hand on every square between, proven with
//! those drops searched one at a time (delayed expansion) and, as a check of the switch,
//! with all of them at once.

use mate::{Limits, MateSolver, Tsume, Verdict};
use shogi::Position;

mod common;
use common::verify;
use std::path::PathBuf;

fn problem(id: &str) -> Option<Position> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/tsume/musou.tsv");
    let text = match std::fs::read_to_string(&p) {
        Ok(t) => t,
        Err(e) => {
            if std::env::var_os("CI").is_some() {
                panic!("{} missing under CI: {e}", p.display());
            }
            eprintln!("note: {} not found ({e}); skipping", p.display());
            return None;
        }
    };
    let line = text
        .lines()
        .find(|l| l.split('\t').nth(2) == Some(id))
        .unwrap_or_else(|| panic!("{id} not in {}", p.display()));
    let sfen = line.split('\t').next().expect("sfen");
    Some(Position::from_sfen_relaxed(sfen).unwrap_or_else(|e| panic!("{id}: {e}")))
}

/// The first proven line and its nodes, with the drops on one square searched one at a
/// time (`delayed`) or all at once.
fn first_line(pos: &Position, delayed: bool) -> (Vec<shogi::Move>, u64) {
    let mut s = MateSolver::<Tsume>::new(Limits {
        nodes: 2_000_000,
        table_bytes: 64 << 20,
        ..Limits::default()
    });
    s.set_polish(false);
    s.set_delayed_drops(delayed);
    let sol = s.solve(&Tsume::new(pos.clone()));
    assert_eq!(
        sol.verdict,
        Verdict::Mate,
        "delayed drops {delayed}: no mate"
    );
    (sol.line, sol.stats.nodes)
}

/// musou-072 (41 plies in the source): its defender answers bishop and rook checks from
/// afar with drops. Both ways prove it with a legal mating line; searching the drops on a
/// square one at a time takes fewer nodes (34,243 against 231,383 when this was written).
#[test]
fn drops_on_one_square_are_searched_one_at_a_time() {
    let Some(pos) = problem("musou-072") else {
        return;
    };
    let (delayed_line, delayed_nodes) = first_line(&pos, true);
    let (all_line, all_nodes) = first_line(&pos, false);
    for line in [&delayed_line, &all_line] {
        if let Err(e) = verify(&pos, line) {
            panic!("musou-072: {e}");
        }
    }
    eprintln!("musou-072: {delayed_nodes} nodes delayed, {all_nodes} all at once");
    assert!(
        delayed_nodes < all_nodes,
        "delayed {delayed_nodes} nodes, all at once {all_nodes}"
    );
}

/// musou-003 (39 plies in the source) with a 4 MiB table: two of a node's children whose
/// entries share a cluster used to evict each other at every pass, each read as new and
/// searched in turn for ever (the 3M-node limit ran out at 3.6M nodes/s). The node now goes
/// on with what each child's search returned; about 43,000 nodes when this was written.
#[test]
fn a_small_table_does_not_trap_the_search() {
    let Some(pos) = problem("musou-003") else {
        return;
    };
    let mut s = MateSolver::<Tsume>::new(Limits {
        nodes: 1_000_000,
        table_bytes: 4 << 20,
        ..Limits::default()
    });
    s.set_polish(false);
    let sol = s.solve(&Tsume::new(pos.clone()));
    assert_eq!(sol.verdict, Verdict::Mate, "{} nodes", sol.stats.nodes);
    if let Err(e) = verify(&pos, &sol.line) {
        panic!("musou-003: {e}");
    }
}

//! The search machine's model from the command line: `estuary chip cores` splits the root over
//! several cores and reports the time to depth against one core; `estuary chip bench` says
//! where the clocks went, and projects faster units; bad arguments are errors.

use std::process::Command;

fn estuary(args: &[&str]) -> (bool, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_estuary"))
        .args(args)
        .output()
        .expect("run estuary");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.success(), text)
}

#[test]
fn cores_report_the_time_to_depth_against_one_core() {
    let (ok, t) = estuary(&["chip", "cores", "5", "--cores", "1,3", "--positions", "3"]);
    assert!(ok, "{t}");
    let rows: Vec<Vec<&str>> = t
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == 7 && w[0].parse::<usize>().is_ok())
        .collect();
    // One core, then three with private and with shared tables.
    assert_eq!(rows.len(), 3, "{t}");
    assert_eq!(
        (rows[0][0], rows[0][1], rows[0][4]),
        ("1", "private", "1.00x"),
        "{t}"
    );
    assert_eq!((rows[1][0], rows[1][1]), ("3", "private"), "{t}");
    assert_eq!((rows[2][0], rows[2][1]), ("3", "shared"), "{t}");
    for r in &rows {
        let nodes: u64 = r[2].parse().unwrap();
        let clocks: u64 = r[3].parse().unwrap();
        assert!(nodes > 0 && clocks > nodes, "{t}");
    }
}

/// `chip bench`'s clocks a node and their parts, from its output.
fn bench_clocks(args: &[&str]) -> (f64, Vec<(String, f64)>, String) {
    let mut all = vec!["chip", "bench", "4", "--positions", "2", "--sw-depth", "2"];
    all.extend_from_slice(args);
    let (ok, t) = estuary(&all);
    assert!(ok, "{t}");
    let per_node: f64 = t
        .lines()
        .find_map(|l| l.strip_prefix("chip: "))
        .and_then(|l| l.split(" clocks, ").nth(1))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no clocks a node in {t}"));
    let parts = t
        .lines()
        .find_map(|l| {
            l.split_once("did or waited for: ")
                .map(|(_, p)| p.to_string())
        })
        .unwrap_or_else(|| panic!("no breakdown in {t}"))
        .split(", ")
        .map(|p| {
            let (name, v) = p.rsplit_once(' ').unwrap();
            (name.to_string(), v.parse().unwrap())
        })
        .collect();
    (per_node, parts, t)
}

#[test]
fn bench_says_where_the_clocks_went_and_projects_faster_units() {
    let (per_node, parts, t) = bench_clocks(&[]);
    let names: Vec<&str> = parts.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "load",
            "issue",
            "in-check",
            "table",
            "generate",
            "evaluate",
            "sequencer"
        ],
        "{t}"
    );
    // The parts add up to the clocks a node (each printed to a tenth).
    let sum: f64 = parts.iter().map(|(_, v)| v).sum();
    assert!((sum - per_node).abs() < 0.5, "{t}");
    assert!(!t.contains("projection"), "{t}");
    // Time to the chip's depth, the software's beside it.
    let depth_line = t
        .lines()
        .find(|l| l.starts_with("time to depth 4, the 2 positions added: chip "))
        .unwrap_or_else(|| panic!("no time to depth in {t}"));
    assert!(
        depth_line.contains(" ms (") && depth_line.contains("x as fast"),
        "{t}"
    );
    let (faster, fparts, ft) = bench_clocks(&["--faster", "gen=8,eval=8"]);
    assert!(ft.contains("a projection"), "{ft}");
    assert!(faster < per_node, "{t}\n{ft}");
    assert!(fparts[4].1 < parts[4].1, "{t}\n{ft}");
}

#[test]
fn bad_core_counts_and_depths_are_errors() {
    for args in [
        &["chip", "cores", "--cores", "0"][..],
        &["chip", "cores", "--cores", "2,x"],
        &["chip", "cores", "--cores", "65"],
        &["chip", "cores", "0"],
        &["chip", "cores", "4", "5"],
        &["chip", "cores", "--positions", "many"],
        &["chip", "cores", "--positions", "0"],
        &["chip", "bench", "--positions", "0"],
        &["chip", "bench", "--faster", "eval"],
        &["chip", "bench", "--faster", "eval=x"],
        &["chip", "bench", "--faster", "sram=3"],
    ] {
        let (ok, t) = estuary(args);
        assert!(!ok, "{args:?}: {t}");
        assert!(!t.contains("panicked"), "{args:?}: {t}");
    }
}

#[test]
fn a_broken_fen_is_an_error_in_words() {
    for fen in [
        "xx",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    ] {
        let (ok, t) = estuary(&["chip", "go", "--fen", fen, "--depth", "1"]);
        assert!(!ok, "{fen}: {t}");
        assert!(t.contains("bad FEN"), "{fen}: {t}");
        // The reader's own message, not its debug form.
        assert!(!t.contains("FenError"), "{fen}: {t}");
        assert!(!t.contains("panicked"), "{fen}: {t}");
    }
}

//! The search machine's model from the command line: `estuary chip cores` splits the root over
//! several cores and reports the time to depth against one core; bad arguments are errors.

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

#[test]
fn bad_core_counts_and_depths_are_errors() {
    for args in [
        &["chip", "cores", "--cores", "0"][..],
        &["chip", "cores", "--cores", "2,x"],
        &["chip", "cores", "--cores", "65"],
        &["chip", "cores", "0"],
        &["chip", "cores", "4", "5"],
        &["chip", "cores", "--positions", "many"],
    ] {
        let (ok, t) = estuary(args);
        assert!(!ok, "{args:?}: {t}");
        assert!(!t.contains("panicked"), "{args:?}: {t}");
    }
}

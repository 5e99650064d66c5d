//! `estuary book` through the built binary: a book built from PGN (one file broken part way,
//! whose earlier games are still used) is probed; missing, malformed and absent positions give
//! clear messages and exit codes, never panics.

use std::process::{Command, Output};

fn estuary(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_estuary"))
        .args(args)
        .output()
        .expect("run estuary")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn build_then_probe_and_every_error() {
    let dir = std::env::temp_dir().join(format!("estuary-book-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.pgn");
    let broken = dir.join("broken.pgn");
    let out = dir.join("book.bin");
    std::fs::write(
        &good,
        "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Result \"0-1\"]\n\n1. e4 c5 0-1\n",
    )
    .unwrap();
    std::fs::write(
        &broken,
        "1. d4 d5 1/2-1/2\n\n1. d4 Nf6 1-0\n\n1. c4 e5 2. Ke3 *\n\n1. b3 *\n",
    )
    .unwrap();
    let (good_s, broken_s, out_s) = (
        good.to_str().unwrap(),
        broken.to_str().unwrap(),
        out.to_str().unwrap(),
    );

    // The broken file's third game has an illegal move on line 5: its first two are used.
    let o = estuary(&[
        "book",
        "build",
        good_s,
        broken_s,
        "--out",
        out_s,
        "--max-ply",
        "2",
    ]);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stderr.contains("line 5 (game 3)"), "{stderr}");
    assert!(
        stderr.contains("the 2 games before it are used"),
        "{stderr}"
    );
    assert!(
        stdout.starts_with("4 games, 3 positions, 6 entries"),
        "{stdout}"
    );
    assert_eq!(std::fs::metadata(&out).unwrap().len(), 6 * 16);

    // The start: e4 (won and lost: 2 + 0), d4 (drawn and won: 1 + 2).
    let o = estuary(&["book", "probe", "--book", out_s]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stderr}");
    assert!(stdout.contains("key 463b96181691fc9c"), "{stdout}");
    let lines: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0]
            .split_whitespace()
            .eq(["d4", "d2d4", "weight", "3", "60.0%"]),
        "{stdout}"
    );
    assert!(
        lines[1]
            .split_whitespace()
            .eq(["e4", "e2e4", "weight", "2", "40.0%"]),
        "{stdout}"
    );
    // A FEN in several words; then a position that is not in the book (exit 1).
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let mut args = vec!["book", "probe"];
    args.extend(after_e4.split(' '));
    args.extend(["--book", out_s]);
    let (stdout, _) = text(&estuary(&args));
    assert!(stdout.contains("c5") && stdout.contains("e5"), "{stdout}");
    let o = estuary(&[
        "book",
        "probe",
        "8/8/8/8/8/8/8/K6k w - - 0 1",
        "--book",
        out_s,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).0.contains("not in the book"));

    // Errors: exit 2 with a message.
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, [0u8; 20]).unwrap();
    for (args, words) in [
        (vec!["probe", "--book", bad.to_str().unwrap()], "20 bytes"),
        (
            vec!["probe", "--book", "/nonexistent/x.bin"],
            "cannot read the book",
        ),
        (vec!["probe", "not-a-fen", "--book", out_s], "bad FEN"),
        (vec!["build", good_s], "--out"),
        (vec!["build", "--out", out_s], "PGN file"),
        (
            vec!["build", "/nonexistent/g.pgn", "--out", out_s],
            "/nonexistent/g.pgn",
        ),
        (
            vec!["build", good_s, "--out", out_s, "--max-ply", "x"],
            "max-ply",
        ),
        (vec!["lookup"], "usage"),
    ] {
        let mut full = vec!["book"];
        full.extend(&args);
        let o = estuary(&full);
        let (_, stderr) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

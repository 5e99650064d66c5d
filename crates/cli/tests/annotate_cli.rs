//! `estuary annotate` through the built binary: a file whose third game is broken gets its
//! first two games annotated and written (the blunders marked, a graph each), the error with
//! its line, exit status 1; the output reads back; bad options are clear errors.

mod common;
use chess::pgn::read_games;
use common::estuary;

/// Legall's mate, the scholar's mate, then a game with an illegal move on line 18.
const GAMES: &str = "[White \"Legall de Kermeur\"]\n[Black \"Saint Brie\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Bc4 d6 3. Nf3 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0\n\n\
% a note from the program that wrote the file\n\
[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Qh5 Nc6 3. Bc4 {the threat} Nf6 (3... g6 $1) 4. Qxf7# 1-0\n\n\
[White \"X\"]\n[Black \"Y\"]\n\n1. d4 d5\n2. Kd3 *\n";

#[test]
fn broken_file_keeps_the_games_before_it() {
    let dir = std::env::temp_dir().join(format!("estuary-annotate-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("games.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let (out, svg) = (dir.join("out.pgn"), dir.join("graphs"));
    let (input_s, out_s, svg_s) = (
        input.to_str().unwrap(),
        out.to_str().unwrap(),
        svg.to_str().unwrap(),
    );
    let (code, stdout, stderr) = estuary(&[
        "annotate", input_s, "--nodes", "20000", "--out", out_s, "--svg", svg_s,
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("line 18 (game 3)")
            && stderr.contains("the 2 games before it are annotated"),
        "{stderr}"
    );
    // Not a terminal: plain progress lines, one a game.
    assert!(stderr.contains("annotate: game 2/2 done"), "{stderr}");
    assert!(!stderr.contains('\r'), "{stderr}");
    assert!(stdout.contains("game 1: Legall de Kermeur - Saint Brie 1-0: 13 plies, 1 ??"));
    assert!(
        stdout.contains("2 games (22 positions) annotated"),
        "{stdout}"
    );

    let text = std::fs::read_to_string(&out).unwrap();
    let (games, err) = read_games(&text);
    assert_eq!(err, None, "{text}");
    assert_eq!(games.len(), 2);
    // 5... Bxd1?? and 3... Nf6??, each with a better move; the comment and the variation
    // already in the second game kept.
    for (g, i) in [(&games[0], 9), (&games[1], 5)] {
        let pm = &g.main.moves[i];
        assert!(pm.nags.contains(&4), "{text}");
        let (before, _) = g.positions().nth(i).unwrap();
        let better = pm.variations.last().unwrap().moves[0].mv;
        assert!(before.is_legal(better) && better != pm.mv, "{text}");
    }
    let nf6 = &games[1].main.moves[5];
    assert!(games[1].main.moves[4]
        .comment
        .as_deref()
        .unwrap()
        .starts_with("the threat "));
    assert_eq!(nf6.variations.len(), 2, "{text}");
    assert_eq!(nf6.variations[0].moves[0].nags, [1]);
    for n in ["game-001.svg", "game-002.svg"] {
        let s = std::fs::read_to_string(svg.join(n)).unwrap();
        assert!(s.starts_with("<svg") && s.contains("??"), "{n}");
    }
    assert!(!svg.join("game-003.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_are_clear_errors() {
    let dir = std::env::temp_dir().join(format!("estuary-annotate-args-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("g.pgn");
    std::fs::write(&input, "1. e4 *\n").unwrap();
    let out = dir.join("o.pgn");
    let (i, o) = (input.to_str().unwrap(), out.to_str().unwrap());
    let cases: &[(&[&str], &str)] = &[
        (&["annotate", i], "--out"),
        (&["annotate", "--out", o], "needs a PGN file"),
        (&["annotate", i, i, "--out", o], "one PGN file"),
        (
            &["annotate", "/nonexistent/x.pgn", "--out", o],
            "/nonexistent/x.pgn",
        ),
        (
            &["annotate", i, "--out", o, "--time", "1", "--nodes", "5"],
            "not both",
        ),
        (&["annotate", i, "--out", o, "--time", "-1"], "--time"),
        (&["annotate", i, "--out", o, "--time", "nan"], "--time"),
        (&["annotate", i, "--out", o, "--nodes", "0"], "--nodes"),
        (&["annotate", i, "--out", o, "--threads", "0"], "--threads"),
        (&["annotate", i, "--out", o, "--bogus", "1"], "--bogus"),
        (
            &["annotate", i, "--out", "/nonexistent/o.pgn"],
            "/nonexistent/o.pgn",
        ),
    ];
    for (args, words) in cases {
        let (code, stdout, stderr) = estuary(args);
        assert_eq!(code, 2, "{args:?}: {stdout}{stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(words),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // One position, one game, a small time: fine.
    let (code, stdout, stderr) = estuary(&["annotate", i, "--out", o, "--time", "0.05"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("1 game (2 positions) annotated"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

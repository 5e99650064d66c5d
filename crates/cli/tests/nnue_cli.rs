//! The network's tool chain through the built binary: `datagen` output parses, `nnue train`
//! writes a net that `nnue check` and `eval --net` read, and broken net files are errors
//! (exit 2 with a message), never panics.

use std::process::Command;

fn estuary(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_estuary"))
        .args(args)
        .output()
        .expect("run estuary")
}

#[test]
fn datagen_output_parses_and_trains_a_readable_net() {
    let dir = std::env::temp_dir().join(format!("estuary-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    let data_s = data.to_str().unwrap();
    let o = estuary(&[
        "datagen",
        "--out",
        data_s,
        "--games",
        "4",
        "--nodes",
        "300",
        "--threads",
        "2",
        "--seed",
        "7",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&data).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 20, "{} positions", lines.len());
    for l in &lines {
        let s = eval::nnue::data::parse_line(l).unwrap_or_else(|e| panic!("{l}: {e}"));
        assert!(!s.board.in_check() && s.score.abs() < 2500, "{l}");
    }
    // Appending: a second run adds to the file (seeded: with the clock's seed a single game
    // sometimes kept no position, and the test failed now and then).
    let o = estuary(&[
        "datagen", "--out", data_s, "--games", "2", "--nodes", "300", "--seed", "8",
    ]);
    assert!(o.status.success());
    assert!(std::fs::read_to_string(&data).unwrap().lines().count() > lines.len());

    let net = dir.join("t.nnue");
    let net_s = net.to_str().unwrap();
    let o = estuary(&[
        "nnue", "train", data_s, "--out", net_s, "--epochs", "2", "--batch", "64",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("validation loss"), "{err}");
    let o = estuary(&["nnue", "check", net_s]);
    assert!(o.status.success());
    // With data: the loss over every position of the file, next to the HCE's.
    let o = estuary(&["nnue", "check", net_s, data_s, "--wdl", "0.3"]);
    let out = String::from_utf8_lossy(&o.stdout);
    let total = std::fs::read_to_string(&data).unwrap().lines().count();
    assert!(
        o.status.success() && out.contains(&format!("{total} positions, wdl 0.3: loss ")),
        "{out}"
    );
    let o = estuary(&["eval", "--net", net_s]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("NNUE ("));
    // The search's score after the drawish-material scaling: a rook pawn with the wrong bishop
    // and the defending king in the corner is a known draw, so the net's score is cut to 2/64
    // (whatever the fifty-move counter says); the right bishop wins and keeps it all.
    let cp_after = |out: &str, prefix: &str, sep: &str| -> i32 {
        let line = out.lines().find(|l| l.starts_with(prefix)).expect(prefix);
        let rest = &line[line.find(sep).unwrap() + sep.len()..];
        rest.split(' ').next().unwrap().parse().unwrap()
    };
    for (fen, scale) in [
        ("7k/8/6KP/8/8/3B4/8/8 w - - 0 1", 2),
        ("7k/8/6KP/8/8/3B4/8/8 w - - 60 90", 2),
        ("7k/8/6KP/8/8/4B3/8/8 w - - 0 1", 64),
    ] {
        let o = estuary(&["eval", fen]);
        let out = String::from_utf8_lossy(&o.stdout);
        let net = cp_after(&out, "NNUE (", "): ");
        let search = cp_after(&out, "Search score: ", ": ");
        assert!(net > 300, "White is winning or looks it: {out}");
        assert_eq!(search, net * scale / 64, "{out}");
    }

    // Fine-tuning: `--init` starts from the net's weights, so its epoch 0 loss is that net's
    // (not a random net's), and zero epochs leave the same net in the output file. The
    // starting net is fitted well enough to beat a random one on these positions.
    let fitted = dir.join("fitted.nnue");
    let fit_s = fitted.to_str().unwrap();
    let o = estuary(&[
        "nnue", "train", data_s, "--out", fit_s, "--epochs", "40", "--batch", "64", "--lr", "0.01",
        "--val", "0",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tuned = dir.join("tuned.nnue");
    let tuned_s = tuned.to_str().unwrap();
    let epoch0 = |args: &[&str]| {
        let o = estuary(args);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert!(o.status.success(), "{err}");
        let line = err
            .lines()
            .find(|l| l.starts_with("epoch 0:"))
            .unwrap()
            .to_string();
        line.split_whitespace()
            .nth(4)
            .unwrap()
            .parse::<f64>()
            .unwrap()
    };
    let base = [
        "nnue", "train", data_s, "--out", tuned_s, "--batch", "64", "--val", "0.2",
    ];
    let from_random = epoch0(&[&base[..], &["--epochs", "0"]].concat());
    let from_net = epoch0(&[&base[..], &["--epochs", "0", "--init", fit_s]].concat());
    assert!(
        from_net < from_random,
        "init {from_net} random {from_random}"
    );
    assert_eq!(
        std::fs::read(&tuned).unwrap(),
        std::fs::read(&fitted).unwrap()
    );
    let o = estuary(&[&base[..], &["--epochs", "2", "--init", fit_s]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(eval::nnue::Network::load(tuned_s).is_ok());
    // A stand-alone net cannot seed a hybrid run; a missing one is an error, not a panic.
    let o = estuary(&[&base[..], &["--init", fit_s, "--hybrid"]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("stand-alone"));
    let o = estuary(&[&base[..], &["--init", "/nonexistent.nnue"]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--init"));

    // A truncated net file and a missing one: exit 2 and a message, no panic (101).
    let bytes = std::fs::read(&net).unwrap();
    std::fs::write(&net, &bytes[..bytes.len() / 2]).unwrap();
    for args in [
        vec!["nnue", "check", net_s],
        vec!["eval", "--net", net_s],
        vec!["nnue", "check", "/nonexistent.nnue"],
    ] {
        let o = estuary(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("error:"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Data lines of a few random games, scored by the hand-crafted evaluation (White's side).
fn random_game_data(games: usize, plies: usize) -> String {
    let mut rng = chess::rng::Rng::new(5);
    let mut text = String::new();
    for _ in 0..games {
        let mut b = chess::Board::startpos();
        for _ in 0..plies {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            b = b.played(moves[rng.below(moves.len())]);
            let e = eval::evaluate(&b);
            let white = if b.side_to_move() == chess::Color::White {
                e
            } else {
                -e
            };
            text += &eval::nnue::data::format_line(&b.to_fen(), white, 0.5);
            text.push('\n');
        }
    }
    text
}

#[test]
fn chip_nets_train_and_check_and_broken_ones_are_errors() {
    let dir = std::env::temp_dir().join(format!("estuary-chip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    let data_s = data.to_str().unwrap();
    std::fs::write(&data, random_game_data(20, 16)).unwrap();
    for (arch, shape, hybrid) in [
        ("chip", "768 -> 128 (x2) -> 8 -> 16 -> 1", false),
        ("chip-narrow", "768 -> 64 (x2) -> 8 -> 16 -> 1", false),
        ("onechan", "768 -> 64 -> 64 -> 64 -> 64 -> 1", true),
    ] {
        let net = dir.join(format!("{arch}.chip"));
        let net_s = net.to_str().unwrap();
        let mut args = vec![
            "nnue", "train", data_s, "--out", net_s, "--epochs", "2", "--batch", "64", "--arch",
            arch,
        ];
        if hybrid {
            args.push("--hybrid");
        }
        let o = estuary(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{err}");
        assert!(err.contains(shape), "{err}");
        let bytes = std::fs::read(&net).unwrap();
        assert_eq!(&bytes[..8], b"ESTCHIP1");
        let o = estuary(&["nnue", "check", net_s, data_s]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{out}");
        assert!(out.contains(&format!("chip net {shape}")), "{out}");
        assert_eq!(out.contains("hybrid"), hybrid, "{out}");
        assert!(out.contains("White a queen up"), "{out}");
        assert!(out.contains("positions, wdl 0: loss "), "{out}");

        // Fine-tuning a chip net of another shape is refused.
        let other = if arch == "chip" { "onechan" } else { "chip" };
        let o = estuary(&[
            "nnue", "train", data_s, "--out", net_s, "--epochs", "0", "--arch", other, "--init",
            net_s,
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("--init"));

        // Truncated, and with a byte too many: exit 2 and a message naming the fault.
        for (broken, says) in [
            (&bytes[..bytes.len() / 2], "bytes, its header needs"),
            (&[&bytes[..], &[0]].concat()[..], "after its last weight"),
        ] {
            std::fs::write(&net, broken).unwrap();
            let o = estuary(&["nnue", "check", net_s]);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{err}");
            assert!(err.contains("error:") && err.contains(says), "{err}");
        }
    }
    let o = estuary(&[
        "nnue",
        "train",
        data_s,
        "--out",
        "/dev/null",
        "--arch",
        "big",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("chip, chip-narrow or onechan"));
    let _ = std::fs::remove_dir_all(&dir);
}

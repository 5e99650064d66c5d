//! `estuary wdl fit` through the built binary: a fit of a small datagen file prints the
//! constants and the calibration table; a broken line is an error with its line.

mod common;
use common::estuary;

#[test]
fn fit_prints_constants_and_broken_data_is_an_error() {
    let dir = std::env::temp_dir().join(format!("estuary-wdl-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let mut text = String::new();
    for i in 0..300 {
        let score = i * 4 - 600;
        let result = if score > 150 {
            "1.0"
        } else if score < -150 {
            "0.0"
        } else {
            "0.5"
        };
        text.push_str(&format!("{fen} | {score} | {result}\n"));
    }
    std::fs::write(&data, &text).unwrap();
    let d = data.to_str().unwrap();
    let (code, stdout, stderr) = estuary(&["wdl", "fit", d, "--steps", "300"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.starts_with("300 positions:"), "{stdout}");
    assert!(stdout.contains("pub const FITTED: WdlModel"), "{stdout}");
    assert!(stdout.contains("-50 to 50"), "{stdout}");

    text.push_str(&format!("{fen} | x | 1.0\n"));
    std::fs::write(&data, &text).unwrap();
    let (code, _, stderr) = estuary(&["wdl", "fit", d]);
    assert_eq!(code, 2);
    assert!(stderr.contains("data.txt:301: bad score 'x'"), "{stderr}");
    for args in [
        &["wdl"][..],
        &["wdl", "fit"],
        &["wdl", "fit", "/nonexistent/d.txt"],
    ] {
        let (code, _, stderr) = estuary(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(stderr.starts_with("error: "), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

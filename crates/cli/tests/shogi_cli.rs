//! The shogi front ends of the `estuary` binary: perft --shogi, tsume, usi.

use std::io::Write;
use std::process::{Command, Stdio};

mod common;
use common::estuary;

const ONE_PLY: &str = "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1";
const ELEVEN_PLY: &str = "6SR1/6P1B/6GG1/8k/8B/8N/9/9/9 b r2g3s3n4l17p 1";

#[test]
fn shogi_perft_ends_with_nodes() {
    let (code, out, _) = estuary(&["perft", "--shogi", "3"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some("nodes 25470"));
    let (code, _, err) = estuary(&["perft", "--shogi", "2", "--sfen", "garbage"]);
    assert_eq!(code, 2);
    assert!(err.contains("bad SFEN"), "{err}");
}

#[test]
fn tsume_sfen_and_file_modes() {
    let (code, out, _) = estuary(&["tsume", "--sfen", ONE_PLY]);
    assert_eq!(code, 0);
    let mut lines = out.lines();
    let first = lines.next().unwrap_or("");
    assert!(first.starts_with("mate 8c1c plies 1 nodes "), "{out}");
    assert!(first.ends_with(" first"), "{out}");
    let last = lines.next().unwrap_or("");
    assert!(last.starts_with("checkmate 8c1c plies 1 nodes "), "{out}");
    assert!(last.contains(" first-plies 1 first-nodes "), "{out}");
    // tanuki-5-168: the answer first (the proof's 7-ply line), then the 5-ply mate.
    let detour = "7kS/5Gn2/8l/9/9/9/9/9/9 b Rr2b3g3s3n3l18p 1";
    let (_, out, _) = estuary(&["tsume", "--sfen", detour]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("mate ") && lines[0].contains(" plies 7 "),
        "{out}"
    );
    assert!(
        lines[1].starts_with("mate ") && lines[1].ends_with(" better"),
        "{out}"
    );
    assert!(
        lines[2].starts_with("checkmate R*3a 2a1b 3a3b+ 1b1a N*2c plies 5 "),
        "{out}"
    );
    assert!(lines[2].contains(" first-plies 7 "), "{out}");
    let (_, out, _) = estuary(&["tsume", "--sfen", detour, "--first"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[1].starts_with("checkmate ") && lines[1].contains(" plies 7 "),
        "{out}"
    );
    let (_, out, _) = estuary(&["tsume", "--sfen", "4k4/9/9/9/9/9/9/9/9 b - 1"]);
    assert!(out.starts_with("nomate "), "{out}");
    let (_, out, _) = estuary(&["tsume", "--sfen", ELEVEN_PLY, "--nodes", "3"]);
    assert!(out.starts_with("timeout "), "{out}");
    let dir = std::env::temp_dir().join(format!("estuary-tsume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("p.tsv");
    let text = format!("{ONE_PLY}\t1\ta\n{ELEVEN_PLY}\t11\tb\nnot an sfen\t1\tc\n");
    std::fs::write(&file, text).expect("write");
    let (code, out, _) = estuary(&["tsume", "--file", file.to_str().expect("path")]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0);
    let last = out.lines().last().unwrap_or("");
    assert!(
        last.starts_with("solved 2/3, length-matched 2/3, nodes "),
        "{out}"
    );
    assert!(last.contains(", time "), "{last}");
    assert!(last.contains(", first-time "), "{last}");
    assert!(out.contains(" id b expected 11 time-us "), "{out}");
    let (code, _, err) = estuary(&["tsume", "--sfen", ONE_PLY, "--bogus"]);
    assert_eq!(code, 2, "{err}");
}

/// `estuary usi` with piped stdin and stdout.
fn usi() -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_estuary"))
        .arg("usi")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run estuary usi")
}

#[test]
fn usi_mate_search_session() {
    let mut child = usi();
    let script = format!(
        "usi\nisready\nusinewgame\nposition sfen {ELEVEN_PLY}\ngo mate 10000\nisready\n\
         position sfen {ONE_PLY} moves 8c1c\nposition nonsense\ngo mate abc\n\
         position startpos moves 7g7f\ngo mate infinite\nstop\nbogus\nquit\n"
    );
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"usiok"), "{text}");
    assert_eq!(
        lines.iter().filter(|l| **l == "readyok").count(),
        2,
        "{text}"
    );
    assert!(!text.contains("bestmove"), "{text}");
    let mates: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("checkmate"))
        .collect();
    assert_eq!(mates.len(), 3, "{text}");
    assert_eq!(mates[0].split(' ').count(), 12, "an 11-ply line: {text}");
    assert_eq!(*mates[1], "checkmate timeout", "bad mate time: {text}");
    assert!(
        *mates[2] == "checkmate nomate" || *mates[2] == "checkmate timeout",
        "{text}"
    );
    assert!(text.contains("info string error"), "{text}");
    assert!(
        text.contains("info string unknown command 'bogus'"),
        "{text}"
    );
}

/// USI `go mate` answers with the first proven line at once; with ShortestMate the proven
/// lines go out as `info ... pv` and `checkmate` carries the conventional one.
#[test]
fn usi_answer_first_and_shortest_mate() {
    // tanuki-5-168: proven along a 7-ply line, the shortest mate is 5.
    let detour = "7kS/5Gn2/8l/9/9/9/9/9/9 b Rr2b3g3s3n3l18p 1";
    // Sends `script`, reads until the `checkmate` answer, then quits.
    let run = |script: String| {
        use std::io::BufRead;
        let mut child = usi();
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(script.as_bytes()).expect("write");
        stdin.flush().expect("flush");
        let mut text = String::new();
        let reader = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        for line in reader.lines() {
            let line = line.expect("read");
            text.push_str(&line);
            text.push('\n');
            if line.starts_with("checkmate") {
                break;
            }
        }
        stdin.write_all(b"quit\n").expect("write");
        drop(stdin);
        child.wait().expect("wait");
        text
    };
    let text = run(format!(
        "usi\nsetoption name ShortestMate value maybe\nposition sfen {detour}\ngo mate 10000\n"
    ));
    assert!(
        text.contains("option name ShortestMate type check default false"),
        "{text}"
    );
    let mates: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("checkmate"))
        .collect();
    assert_eq!(mates.len(), 1, "{text}");
    assert_eq!(
        mates[0].split(' ').count(),
        8,
        "the 7-ply first line: {text}"
    );
    assert!(text.contains("score mate 7 pv "), "{text}");
    assert!(
        text.contains("info string bad ShortestMate value 'maybe'"),
        "{text}"
    );
    let text = run(format!(
        "setoption name ShortestMate value true\nposition sfen {detour}\ngo mate 10000\n"
    ));
    let mates: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("checkmate"))
        .collect();
    assert_eq!(mates, ["checkmate R*3a 2a1b 3a3b+ 1b1a N*2c"], "{text}");
    let pv = text.find("score mate 7 pv ").expect("first line reported");
    let best = text
        .find("score mate 5 pv R*3a 2a1b 3a3b+ 1b1a N*2c")
        .expect("shortest reported");
    assert!(pv < best, "{text}");
}

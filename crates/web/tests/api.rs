//! The server through its socket: the pages and files, the play API with Move now, take
//! back and game clocks (run down, increments, a flag's fall), the analysis over server-sent
//! events, the tsume solver; and malformed requests (bad JSON, oversized bodies, illegal or
//! out-of-turn moves, unknown paths, bad FEN and SFEN, bad clock settings), each a JSON
//! error with its status code that leaves the game as it was.

mod common;

use common::{get, post, request, server, wait_for, Events};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn error_of(r: &common::Response) -> String {
    r.json()["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error field in {}", r.text()))
        .to_string()
}

#[test]
fn pages_and_embedded_files_are_served() {
    let addr = server();
    for (path, kind, needle) in [
        ("/", "text/html", "Estuary"),
        ("/play", "text/html", "/static/play.js"),
        ("/analyse", "text/html", "/static/analyse.js"),
        ("/tsume", "text/html", "/static/tsume.js"),
        ("/static/play.js", "text/javascript", "/api/play/stop"),
        ("/static/estuary.css", "text/css", "body"),
        (
            "/vendor/cm-chessboard/src/Chessboard.js",
            "text/javascript",
            "class Chessboard",
        ),
        (
            "/vendor/cm-chessboard/assets/pieces/standard.svg",
            "image/svg+xml",
            "<svg",
        ),
        (
            "/vendor/cm-chessboard/assets/chessboard.css",
            "text/css",
            "cm-chessboard",
        ),
        (
            "/vendor/chess.js/dist/esm/chess.js",
            "text/javascript",
            "Chess",
        ),
        ("/vendor/chess.js/LICENSE", "text/plain", "Redistribution"),
    ] {
        let r = get(addr, path);
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.header("content-type").unwrap_or("").starts_with(kind),
            "{path}"
        );
        assert!(r.text().contains(needle), "{path} lacks {needle}");
    }
    for path in [
        "/nowhere",
        "/static/nothing.js",
        "/static/play.html",
        "/vendor/../Cargo.toml",
        "/vendor/cm-chessboard/package.json",
        "/api/nothing",
    ] {
        let r = get(addr, path);
        assert_eq!(r.status, 404, "{path}");
        assert!(error_of(&r).contains("no such"), "{path}");
    }
    let r = get(addr, "/api/play/move");
    assert_eq!(r.status, 405);
    assert!(!error_of(&r).is_empty());
}

#[test]
fn bad_requests_get_json_errors_and_keep_the_game() {
    let addr = server();
    let r = post(
        addr,
        "/api/play/new",
        json!({"colour": "white", "movetime_ms": 60000, "book": false}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = post(addr, "/api/play/move", json!({"move": "e2e4"}));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["thinking"], true);
    // Out of turn while the engine thinks.
    let r = post(addr, "/api/play/move", json!({"move": "d2d4"}));
    assert_eq!(r.status, 409);
    assert!(error_of(&r).contains("engine's turn"));
    assert_eq!(post(addr, "/api/play/stop", json!({})).status, 200);
    let before = wait_for(addr, 10, |s| {
        s["thinking"] == false && s["moves"].as_array().map_or(0, Vec::len) == 2
    });

    let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        ("/api/play/move", b"{\"move\": ".to_vec(), 400, "bad JSON"),
        (
            "/api/play/move",
            b"not json at all".to_vec(),
            400,
            "bad JSON",
        ),
        (
            "/api/play/move",
            br#"{"move": 5}"#.to_vec(),
            400,
            "bad JSON",
        ),
        (
            "/api/play/move",
            br#"{"mv": "e2e4"}"#.to_vec(),
            400,
            "bad JSON",
        ),
        (
            "/api/play/move",
            br#"{"move": "e2e4", "extra": 1}"#.to_vec(),
            400,
            "bad JSON",
        ),
        (
            "/api/play/move",
            br#"{"move": "e2e5"}"#.to_vec(),
            422,
            "illegal move",
        ),
        (
            "/api/play/move",
            br#"{"move": "Ke3"}"#.to_vec(),
            422,
            "illegal move",
        ),
        (
            "/api/play/move",
            br#"{"move": "zz"}"#.to_vec(),
            422,
            "illegal move",
        ),
        (
            "/api/play/move",
            vec![b' '; 300 * 1024],
            413,
            "over the limit",
        ),
        (
            "/api/play/new",
            br#"{"colour": "green"}"#.to_vec(),
            422,
            "colour",
        ),
        (
            "/api/play/new",
            br#"{"fen": "8/8/8/8 w - - 0 1"}"#.to_vec(),
            422,
            "bad FEN",
        ),
        ("/api/play/new", br#"{"level": 99}"#.to_vec(), 422, "level"),
        ("/api/play/new", br#"{"elo": 3000}"#.to_vec(), 422, "elo"),
        (
            "/api/play/new",
            br#"{"movetime_ms": -5}"#.to_vec(),
            400,
            "bad JSON",
        ),
        (
            "/api/play/new",
            br#"{"clock": {"base_ms": -60000}}"#.to_vec(),
            422,
            "clock.base_ms must be 100 to 10800000 ms, not -60000",
        ),
        (
            "/api/play/new",
            br#"{"clock": {"base_ms": 1e40}}"#.to_vec(),
            422,
            "clock.base_ms",
        ),
        (
            "/api/play/new",
            br#"{"clock": {"base_ms": 180000, "increment_ms": -2000}}"#.to_vec(),
            422,
            "clock.increment_ms",
        ),
        (
            "/api/play/new",
            br#"{"clock": {"base_ms": 180000, "increment_ms": 99999999999999999999999}}"#.to_vec(),
            422,
            "clock.increment_ms",
        ),
        (
            "/api/play/new",
            br#"{"clock": {"base_ms": "three minutes"}}"#.to_vec(),
            400,
            "clock.base_ms must be a number",
        ),
        (
            "/api/play/new",
            br#"{"clock": {"base_ms": 180000, "inc": 2000}}"#.to_vec(),
            400,
            "bad JSON",
        ),
        (
            "/api/play/new",
            br#"{"clock": "3+2"}"#.to_vec(),
            400,
            "bad JSON",
        ),
        (
            "/api/play/new",
            br#"{"clock": {"base_ms": 180000}, "movetime_ms": 1000}"#.to_vec(),
            422,
            "not both",
        ),
        ("/api/play/stop", b"{}".to_vec(), 409, "not thinking"),
        (
            "/api/analyse/start",
            br#"{"fen": "rnbqkbnr/pppppppp/8 w"}"#.to_vec(),
            422,
            "bad FEN",
        ),
        (
            "/api/analyse/start",
            br#"{"moves": ["e2e4", "e2e4"]}"#.to_vec(),
            422,
            "illegal move",
        ),
        (
            "/api/analyse/start",
            br#"{"multipv": 0}"#.to_vec(),
            422,
            "multipv",
        ),
        (
            "/api/analyse/game",
            br#"{"pgn": "1. e4 e5 2. Ke3 *"}"#.to_vec(),
            422,
            "bad PGN",
        ),
        (
            "/api/analyse/game",
            br#"{"pgn": ""}"#.to_vec(),
            422,
            "no game",
        ),
        (
            "/api/analyse/game",
            br#"{"pgn": "1. e4 *", "nodes": 0}"#.to_vec(),
            422,
            "nodes",
        ),
        (
            "/api/tsume",
            br#"{"sfen": "not an sfen"}"#.to_vec(),
            422,
            "bad SFEN",
        ),
        (
            "/api/tsume",
            br#"{"sfen": "9/9/9/9/9/9/9/9/9 b - 1"}"#.to_vec(),
            422,
            "no king",
        ),
        ("/api/tsume", br#"{}"#.to_vec(), 400, "bad JSON"),
    ];
    for (path, body, status, words) in &cases {
        let r = request(addr, "POST", path, body);
        assert_eq!(
            r.status,
            *status,
            "{path} {}: {}",
            String::from_utf8_lossy(&body[..body.len().min(60)]),
            r.text()
        );
        let e = error_of(&r);
        assert!(e.contains(words), "{path}: '{e}' should say '{words}'");
    }
    // The game is as it was.
    let after = get(addr, "/api/play").json();
    for key in ["fen", "moves", "human", "turn", "over", "settings"] {
        assert_eq!(before[key], after[key], "{key}");
    }
    // And it goes on.
    let r = post(addr, "/api/play/move", json!({"move": "Nf3"}));
    assert_eq!(r.status, 200, "{}", r.text());
}

#[test]
fn move_now_plays_the_engines_move_at_once() {
    let addr = server();
    // The engine is White with a minute a move; Move now makes it play within moments.
    let r = post(
        addr,
        "/api/play/new",
        json!({"colour": "black", "movetime_ms": 60000, "book": false}),
    );
    assert_eq!(r.status, 200);
    let s = r.json();
    assert_eq!(s["thinking"], true);
    assert_eq!(s["turn"], "white");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    let r = post(addr, "/api/play/stop", json!({}));
    assert_eq!(r.status, 200, "{}", r.text());
    let s = wait_for(addr, 5, |s| s["moves"].as_array().map_or(0, Vec::len) == 1);
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert_eq!(s["thinking"], false);
    assert_eq!(s["moves"][0]["by"], "engine");
    assert_eq!(s["turn"], "black");
    assert!(s["clocks"]["white_ms"].as_u64().unwrap() >= 300);
    // The person's move; then take back returns to the same position.
    let r = post(addr, "/api/play/move", json!({"move": "e7e5"}));
    assert_eq!(r.status, 200);
    let r = post(addr, "/api/play/undo", json!({}));
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert_eq!(s["moves"].as_array().unwrap().len(), 1);
    assert_eq!(s["thinking"], false);
    // The engine's first move cannot be taken back.
    let r = post(addr, "/api/play/undo", json!({}));
    assert_eq!(r.status, 409);
}

#[test]
fn game_clocks_run_down_gain_increments_and_move_now_works() {
    let addr = server();
    let r = post(
        addr,
        "/api/play/new",
        json!({"colour": "white", "clock": {"base_ms": 60000, "increment_ms": 1000}, "book": false}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert_eq!(
        s["settings"]["clock"],
        json!({"base_ms": 60000, "increment_ms": 1000})
    );
    assert_eq!(s["settings"]["movetime_ms"], Value::Null);
    assert_eq!(
        s["clocks"],
        json!({"white_ms": 60000, "black_ms": 60000, "running": null, "timed": true, "flagged": null})
    );
    assert!(s["pgn"]
        .as_str()
        .unwrap()
        .contains("[TimeControl \"60+1\"]"));
    // The person's first move starts the clocks and gains the increment.
    let s = post(addr, "/api/play/move", json!({"move": "e2e4"})).json();
    assert_eq!(s["clocks"]["white_ms"], 61000);
    assert_eq!(s["clocks"]["running"], "black");
    assert_eq!(s["thinking"], true);
    // The engine's clock runs while it thinks (its budget is seconds); Move now plays.
    std::thread::sleep(Duration::from_millis(400));
    let black = get(addr, "/api/play").json()["clocks"]["black_ms"]
        .as_u64()
        .unwrap();
    assert!((50_000..=59_600).contains(&black), "{black}");
    assert_eq!(post(addr, "/api/play/stop", json!({})).status, 200);
    let s = wait_for(addr, 5, |s| s["moves"].as_array().map_or(0, Vec::len) == 2);
    let black = s["clocks"]["black_ms"].as_u64().unwrap();
    assert!((51_000..=60_600).contains(&black), "{black}");
    assert_eq!(s["clocks"]["running"], "white");
    // The person's clock counts down.
    let w1 = get(addr, "/api/play").json()["clocks"]["white_ms"]
        .as_u64()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let w2 = get(addr, "/api/play").json()["clocks"]["white_ms"]
        .as_u64()
        .unwrap();
    assert!(
        w1 <= 61_000 && (250..2000).contains(&(w1 - w2)),
        "{w1} {w2}"
    );
    // Take back gives no time back.
    let s = post(addr, "/api/play/undo", json!({})).json();
    assert_eq!(s["moves"].as_array().unwrap().len(), 0);
    assert!(s["clocks"]["white_ms"].as_u64().unwrap() <= w2);
    assert_eq!(s["clocks"]["black_ms"].as_u64().unwrap(), black);
    assert_eq!(s["clocks"]["running"], "white");
}

#[test]
fn a_flag_fall_ends_the_game_on_time() {
    let addr = server();
    let mut events = Events::open(addr);
    let r = post(
        addr,
        "/api/play/new",
        json!({"colour": "white", "clock": {"base_ms": 1000}, "book": false}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    // The engine replies within its second (a budget of a few ms from its clock).
    assert_eq!(
        post(addr, "/api/play/move", json!({"move": "e4"})).status,
        200
    );
    let s = wait_for(addr, 5, |s| s["moves"].as_array().map_or(0, Vec::len) == 2);
    assert_eq!(s["over"], Value::Null);
    assert_eq!(s["clocks"]["running"], "white");
    assert!(s["clocks"]["black_ms"].as_u64().unwrap() > 200, "{s}");
    // Nobody moves: White's flag falls, and the server says so unasked.
    let (_, s) = events.until(5, |name, v| name == "play" && !v["over"].is_null());
    assert_eq!(
        s["over"],
        json!({"result": "0-1", "reason": "White lost on time"})
    );
    assert_eq!(s["clocks"]["white_ms"], 0);
    assert_eq!(s["clocks"]["flagged"], "white");
    assert_eq!(s["clocks"]["running"], Value::Null);
    let pgn = s["pgn"].as_str().unwrap();
    for tag in [
        "[Result \"0-1\"]",
        "[TimeControl \"1+0\"]",
        "[Termination \"time forfeit\"]",
    ] {
        assert!(pgn.contains(tag), "{pgn}");
    }
    assert!(pgn.trim_end().ends_with("0-1"), "{pgn}");
    // Further moves, take back and Move now are refused; the game stays as it ended.
    let r = post(addr, "/api/play/move", json!({"move": "d2d4"}));
    assert_eq!(r.status, 409);
    assert!(error_of(&r).contains("White lost on time"), "{}", r.text());
    let r = post(addr, "/api/play/undo", json!({}));
    assert_eq!(r.status, 409);
    assert!(error_of(&r).contains("on time"), "{}", r.text());
    assert_eq!(post(addr, "/api/play/stop", json!({})).status, 409);
    let after = get(addr, "/api/play").json();
    for key in ["fen", "moves", "over", "clocks", "pgn"] {
        assert_eq!(s[key], after[key], "{key}");
    }
    // A new game starts with full clocks.
    let s = post(
        addr,
        "/api/play/new",
        json!({"colour": "white", "clock": {"base_ms": 1000}}),
    )
    .json();
    assert_eq!(s["over"], Value::Null);
    assert_eq!(
        (&s["clocks"]["white_ms"], &s["clocks"]["black_ms"]),
        (&json!(1000), &json!(1000))
    );
}

#[test]
fn a_weakened_engine_replies_and_the_game_ends_by_the_rules() {
    let addr = server();
    // Level 0: at most 500 nodes, so the reply comes fast.
    let r = post(
        addr,
        "/api/play/new",
        json!({"colour": "white", "level": 0}),
    );
    assert_eq!(r.json()["settings"]["level"].as_f64(), Some(0.0));
    let (lo, hi) = (uci::strength::MIN_ELO, uci::strength::MAX_ELO);
    assert_eq!(r.json()["settings"]["elo_range"], json!([lo, hi]));
    // By Elo: the calibrated level, between two integers for a label between two points.
    let r = post(
        addr,
        "/api/play/new",
        json!({"colour": "white", "elo": 1400}),
    );
    let level = r.json()["settings"]["level"].as_f64().unwrap();
    assert_eq!(level, uci::strength::level_for_elo(1400));
    assert!(
        level > 0.0 && level < 20.0 && level.fract() != 0.0,
        "{level}"
    );
    let r = post(addr, "/api/play/new", json!({"colour": "white", "elo": hi}));
    assert_eq!(
        r.json()["settings"]["level"].as_f64(),
        Some(19.0),
        "the top label"
    );
    let r = post(
        addr,
        "/api/play/new",
        json!({"colour": "white", "level": 0}),
    );
    assert_eq!(r.status, 200);
    post(addr, "/api/play/move", json!({"move": "f2f3"}));
    let s = wait_for(addr, 10, |s| s["moves"].as_array().map_or(0, Vec::len) == 2);
    assert_eq!(s["turn"], "white");
    // A position one move from mate: the game ends, the PGN has the result.
    let r = post(
        addr,
        "/api/play/new",
        json!({"colour": "white", "fen": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "movetime_ms": 100}),
    );
    assert_eq!(r.status, 200);
    let s = post(addr, "/api/play/move", json!({"move": "Ra8#"})).json();
    assert_eq!(s["over"]["result"], "1-0");
    assert_eq!(s["thinking"], false);
    assert!(
        s["pgn"].as_str().unwrap().contains("1. Ra8# 1-0"),
        "{}",
        s["pgn"]
    );
    let r = post(addr, "/api/play/move", json!({"move": "g8h8"}));
    assert_eq!(r.status, 409);
    assert!(error_of(&r).contains("over"));
    // Stalemate is announced too.
    post(
        addr,
        "/api/play/new",
        json!({"colour": "white", "fen": "7k/8/4Q3/8/8/8/8/6K1 w - - 0 1"}),
    );
    let s = post(addr, "/api/play/move", json!({"move": "Qf7"})).json();
    assert_eq!(s["over"]["reason"], "stalemate");
}

#[test]
fn analysis_streams_multipv_lines_as_events() {
    let addr = server();
    let mut events = Events::open(addr);
    let r = post(
        addr,
        "/api/analyse/start",
        json!({"moves": ["e2e4", "e7e5"], "multipv": 2}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let id = r.json()["id"].clone();
    let (_, line) = events.until(20, |name, v: &Value| {
        name == "analysis" && v["id"] == id && v["multipv"] == 2 && v["depth"].as_i64() >= Some(4)
    });
    assert!(!line["pv_san"].as_str().unwrap().is_empty());
    assert!(line["pv_san"].as_str().unwrap().starts_with("2."));
    assert!(line["score"].as_str().is_some());
    let wdl: Vec<u64> = line["wdl"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(wdl.iter().sum::<u64>(), 1000);
    // Black to move mates in one: "#-1" from White's side.
    let r = post(
        addr,
        "/api/analyse/start",
        json!({"moves": ["f2f3", "e7e5", "g2g4"], "multipv": 1}),
    );
    let id = r.json()["id"].clone();
    let (_, line) = events.until(20, |name, v: &Value| {
        name == "analysis" && v["id"] == id && v["mate"].is_number()
    });
    assert_eq!(line["mate"], -1);
    assert_eq!(line["score"], "#-1");
    assert_eq!(line["wdl"], json!([0, 0, 1000]));
    assert!(line["pv_san"].as_str().unwrap().starts_with("2... Qh4#"));
    let r = post(addr, "/api/analyse/stop", json!({}));
    assert_eq!(r.json()["stopped"], true);
    // A mated position has nothing to search.
    let r = post(
        addr,
        "/api/analyse/start",
        json!({"moves": ["f2f3", "e7e5", "g2g4", "d8h4"]}),
    );
    assert_eq!(r.json()["over"], "checkmate");
}

#[test]
fn a_game_is_analysed_for_its_graph() {
    let addr = server();
    let r = post(
        addr,
        "/api/analyse/game",
        json!({"pgn": "[White \"A\"]\n[Black \"B\"]\n\n1. f3 e5 2. g4 Qh4# 0-1", "nodes": 3000}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let g = r.json();
    assert_eq!(g["moves"].as_array().unwrap().len(), 4);
    assert_eq!(g["fens"].as_array().unwrap().len(), 5);
    let evals = g["evals"].as_array().unwrap();
    assert_eq!(evals.len(), 5);
    assert!(evals[4]["cp"].as_i64().unwrap() < -5000, "{evals:?}");
    assert_eq!(g["moves"][3]["san"], "Qh4#");
    assert_eq!(g["moves"][2]["judgement"], "??");
}

#[test]
fn tsume_solves_a_short_mate() {
    let addr = server();
    let r = post(
        addr,
        "/api/tsume",
        json!({"sfen": "sfen 9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert_eq!(s["verdict"], "mate");
    // The defender's king may go to 1a or 2a: mate in 3 either way.
    let moves = s["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    assert_eq!((&moves[0], &moves[2]), (&json!("1d2c"), &json!("2c2b")));
    assert_eq!(s["sfens"].as_array().unwrap().len(), 4);
    assert_eq!(s["checkmate"], true);
}

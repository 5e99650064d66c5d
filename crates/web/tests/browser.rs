//! The web app in a real headless Chromium, driven over the DevTools protocol as a person
//! would use it: the play page (moves made by clicking squares, the engine's replies, Move
//! now, a game with clocks that run, kept over a reload), the analysis page (lines and the evaluation graph) and the tsume page (a short mate
//! solved and stepped through), with screenshots in `target/web-screenshots/`.
//!
//! Without a Chromium (`/usr/bin/chromium`, or `ESTUARY_CHROMIUM`) the test prints a note and
//! passes, unless `ESTUARY_REQUIRE_BROWSER=1` (CI sets it), when it fails.

mod common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The browser program, if there is one.
fn chromium() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("ESTUARY_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    [
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
}

/// The browser process and its profile folder, both gone when this is dropped.
struct Browser {
    child: Child,
    profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Starts headless Chromium; returns it and its DevTools websocket address.
fn launch(program: &PathBuf) -> (Browser, String) {
    let profile = std::env::temp_dir().join(format!("estuary-chromium-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let mut child = Command::new(program)
        .args([
            "--headless",
            "--remote-debugging-port=0",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1200,900",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    let stderr = child.stderr.take().expect("piped stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    // Reads the address, then keeps draining stderr so the browser never blocks on it.
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(at) = line.find("ws://") {
                let _ = tx.send(line[at..].trim().to_string());
            }
        }
    });
    let browser = Browser { child, profile };
    let url = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("Chromium prints 'DevTools listening on ws://...'");
    (browser, url)
}

/// A DevTools connection attached to one page (flat session mode).
struct Page {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    session: Option<String>,
    /// Uncaught JavaScript exceptions the page reported.
    exceptions: Vec<String>,
}

impl Page {
    fn connect(url: &str) -> Page {
        let (ws, _) = tungstenite::connect(url).expect("the DevTools websocket");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(60))).ok();
        }
        let mut page = Page {
            ws,
            next_id: 0,
            session: None,
            exceptions: Vec::new(),
        };
        let target = page.call("Target.createTarget", json!({"url": "about:blank"}));
        let id = target["targetId"].clone();
        let attached = page.call(
            "Target.attachToTarget",
            json!({"targetId": id, "flatten": true}),
        );
        page.session = attached["sessionId"].as_str().map(String::from);
        page.call("Page.enable", json!({}));
        page.call("Runtime.enable", json!({}));
        page.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
        );
        page
    }

    /// Sends a command and waits for its result (events that come meanwhile are looked at
    /// for exceptions and dropped).
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = &self.session {
            msg["sessionId"] = json!(s);
        }
        self.ws
            .send(Message::text(msg.to_string()))
            .expect("send to the browser");
        loop {
            let m = self.ws.read().expect("read from the browser");
            let Message::Text(text) = m else { continue };
            let v: Value = serde_json::from_str(text.as_str()).expect("DevTools sends JSON");
            if v["method"] == "Runtime.exceptionThrown" {
                let details = &v["params"]["exceptionDetails"];
                let text = details["exception"]["description"]
                    .as_str()
                    .map_or_else(|| details.to_string(), String::from);
                self.exceptions.push(text);
            }
            if v["id"] == json!(id) {
                if let Some(e) = v.get("error") {
                    panic!("{method}: {e}");
                }
                return v["result"].clone();
            }
        }
    }

    /// Evaluates a JavaScript expression in the page (promises awaited); its value.
    fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("evaluating {expr}: {e}");
        }
        r["result"]["value"].clone()
    }

    /// Waits until `expr` is true (at most `secs`).
    fn wait(&mut self, secs: u64, expr: &str) {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(secs) {
            if self.eval(expr) == json!(true) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let state = self.eval("JSON.stringify(window.estuary && window.estuary.state)");
        let error = self.eval("(document.getElementById('error') || {}).textContent");
        panic!(
            "timed out waiting for {expr}; page error line {error}; state {state}; exceptions {:?}",
            self.exceptions
        );
    }

    fn navigate(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url}));
        self.wait(20, "document.readyState === 'complete'");
    }

    /// Clicks the middle of the element `selector` with the mouse, as a person would.
    fn click(&mut self, selector: &str) {
        let expr = format!(
            "(() => {{ const r = document.querySelector({selector:?}).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2] }})()"
        );
        let at = self.eval(&expr);
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1}),
            );
        }
    }

    /// Clicks a square of the chess board.
    fn click_square(&mut self, square: &str) {
        self.click(&format!("#board rect[data-square='{square}']"));
    }

    fn screenshot(&mut self, name: &str) -> PathBuf {
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let data = shot["data"].as_str().expect("screenshot data");
        let dir = target_dir().join("web-screenshots");
        std::fs::create_dir_all(&dir).expect("create target/web-screenshots");
        let path = dir.join(name);
        std::fs::write(&path, base64_decode(data)).expect("write the screenshot");
        path
    }
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"))
}

/// Standard base64 (DevTools' screenshots).
fn base64_decode(s: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in s.bytes().filter_map(value) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// True when the pieces drawn on the page's board are those of the game's FEN.
const BOARD_MATCHES_STATE: &str = r"(() => {
    const drawn = {}
    document.querySelectorAll('#board g[data-piece][data-square]').forEach(g => drawn[g.dataset.square] = g.dataset.piece)
    const want = {}
    estuary.state.fen.split(' ')[0].split('/').forEach((row, r) => {
        let f = 0
        for (const c of row) {
            if (/[0-9]/.test(c)) { f += Number(c); continue }
            want['abcdefgh'[f] + (8 - r)] = (c === c.toUpperCase() ? 'w' : 'b') + c.toLowerCase()
            f++
        }
    })
    const text = o => JSON.stringify(Object.keys(o).sort().map(k => [k, o[k]]))
    return text(drawn) === text(want)
})()";

#[test]
fn a_person_plays_analyses_and_solves_in_chromium() {
    let Some(program) = chromium() else {
        if std::env::var("ESTUARY_REQUIRE_BROWSER").as_deref() == Ok("1") {
            panic!("ESTUARY_REQUIRE_BROWSER=1 but no Chromium: apt-get install chromium");
        }
        eprintln!("note: no Chromium (/usr/bin/chromium or ESTUARY_CHROMIUM): the browser test is skipped");
        return;
    };
    let started = Instant::now();
    let addr = common::server();
    let base = format!("http://{addr}");
    let (_browser, ws) = launch(&program);
    let mut page = Page::connect(&ws);

    // Play: a new game as White with 0.3 s a move, moves made by clicking squares.
    page.navigate(&format!("{base}/play"));
    page.wait(20, "!!(window.estuary && window.estuary.state)");
    page.eval("document.getElementById('colour').value = 'white'; document.getElementById('mode').value = 'time'; document.getElementById('seconds').value = '0.3'; true");
    page.click("#new");
    page.wait(
        10,
        "estuary.state.settings.movetime_ms === 300 && estuary.state.moves.length === 0",
    );
    for (i, (from, to)) in [("e2", "e4"), ("d2", "d4")].into_iter().enumerate() {
        page.wait(10, "estuary.input");
        page.click_square(from);
        page.click_square(to);
        let plies = 2 * (i + 1);
        page.wait(
            15,
            &format!("estuary.state.moves.length === {plies} && !estuary.state.thinking"),
        );
    }
    // The board and the move list show the game (once it is drawn and takes moves again).
    page.wait(10, "estuary.input");
    assert_eq!(page.eval(BOARD_MATCHES_STATE), json!(true));
    assert_eq!(
        page.eval("document.querySelectorAll(\"#board g[data-piece][data-square='e2']\").length"),
        json!(0)
    );
    let listed =
        page.eval("[...document.querySelectorAll('#moves span.move')].map(e => e.dataset.uci)");
    let moves = page.eval("estuary.state.moves.map(m => m.uci)");
    assert_eq!(listed, moves);
    assert_eq!(listed[0], json!("e2e4"));
    assert_eq!(listed[2], json!("d2d4"));
    assert_eq!(
        page.eval("document.getElementById('status').textContent"),
        json!("Your move.")
    );
    page.screenshot("play.png");

    // Move now: the engine, White with 30 s a move, is hurried and plays at once.
    page.eval("document.getElementById('colour').value = 'black'; document.getElementById('seconds').value = '30'; document.getElementById('book').checked = false; true");
    page.click("#new");
    page.wait(10, "estuary.state.thinking && estuary.state.human === 'black' && !document.getElementById('movenow').disabled");
    std::thread::sleep(Duration::from_millis(500));
    let pressed = Instant::now();
    page.click("#movenow");
    page.wait(
        10,
        "estuary.state.moves.length === 1 && !estuary.state.thinking",
    );
    assert!(
        pressed.elapsed() < Duration::from_secs(5),
        "Move now took {:?}",
        pressed.elapsed()
    );
    assert_eq!(
        page.eval("document.querySelectorAll('#moves span.move').length"),
        json!(1)
    );
    assert_eq!(page.eval("estuary.state.moves[0].by"), json!("engine"));
    assert_eq!(
        page.eval("document.getElementById('status').textContent"),
        json!("Your move.")
    );
    page.wait(10, "estuary.input");
    assert_eq!(page.eval(BOARD_MATCHES_STATE), json!(true));
    page.screenshot("play-move-now.png");

    // A game with a clock, 1 minute + 2 seconds, as Black: the engine's clock runs down
    // while it thinks, Move now still plays at once, then the person's clock runs.
    page.eval("document.getElementById('clock').value = 'custom'; document.getElementById('clock').dispatchEvent(new Event('change')); document.getElementById('minutes').value = '1'; document.getElementById('increment').value = '2'; true");
    assert_eq!(
        page.eval("document.getElementById('seconds').style.display"),
        json!("none"),
        "with a clock there is no time a move to give"
    );
    page.click("#new");
    page.wait(
        10,
        "estuary.state.thinking && estuary.state.settings.clock && estuary.state.settings.clock.base_ms === 60000 && estuary.state.moves.length === 0",
    );
    assert_eq!(
        page.eval("document.getElementById('clock-kind').textContent"),
        json!("1+2")
    );
    let clock_text = |page: &mut Page, side: &str| {
        page.eval(&format!(
            "document.getElementById('clock-{side}').textContent"
        ))
    };
    let running = |page: &mut Page, side: &str| {
        page.eval(&format!(
            "document.getElementById('clock-{side}').classList.contains('running')"
        ))
    };
    let before = clock_text(&mut page, "white");
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(running(&mut page, "white"), json!(true));
    assert_ne!(
        clock_text(&mut page, "white"),
        before,
        "White's clock stands"
    );
    assert_eq!(clock_text(&mut page, "black"), json!("Black 01:00"));
    page.click("#movenow");
    page.wait(
        10,
        "estuary.state.moves.length === 1 && !estuary.state.thinking && estuary.state.clocks.running === 'black'",
    );
    // The engine's clock: a minute, less its thinking, plus the increment.
    let white_ms = page.eval("estuary.state.clocks.white_ms").as_u64().unwrap();
    assert!((55_000..=62_000).contains(&white_ms), "{white_ms}");
    let before = clock_text(&mut page, "black");
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(running(&mut page, "black"), json!(true));
    assert_eq!(running(&mut page, "white"), json!(false));
    assert_ne!(
        clock_text(&mut page, "black"),
        before,
        "Black's clock stands"
    );
    // A reload shows the game's clocks as the server keeps them, still running.
    page.navigate(&format!("{base}/play"));
    page.wait(20, "!!(window.estuary && window.estuary.state)");
    assert_eq!(
        page.eval("document.getElementById('clock').value"),
        json!("custom")
    );
    page.wait(
        5,
        "document.getElementById('clock-black').classList.contains('running')",
    );
    let shown = clock_text(&mut page, "black");
    assert!(
        ["Black 00:5", "Black 01:0"]
            .iter()
            .any(|p| shown.as_str().unwrap_or("").starts_with(p)),
        "{shown}"
    );
    // The person's move gains the increment; Move now again for the engine's reply.
    page.wait(10, "estuary.input");
    let black_ms = page.eval("estuary.state.clocks.black_ms").as_u64().unwrap();
    page.click_square("e7");
    page.click_square("e5");
    page.wait(
        10,
        "estuary.state.moves.length === 2 && estuary.state.thinking",
    );
    let after = page.eval("estuary.state.clocks.black_ms").as_u64().unwrap();
    assert!(
        after > black_ms && after <= 62_000,
        "{black_ms} then {after}"
    );
    std::thread::sleep(Duration::from_millis(500));
    page.click("#movenow");
    page.wait(
        10,
        "estuary.state.moves.length === 3 && !estuary.state.thinking",
    );
    page.wait(10, "estuary.input");
    assert_eq!(page.eval(BOARD_MATCHES_STATE), json!(true));
    page.screenshot("play-clock.png");

    // Analyse: the start position's lines arrive; a game's graph is drawn.
    page.navigate(&format!("{base}/analyse"));
    page.wait(20, "document.querySelectorAll('#lines div').length >= 3");
    page.eval("document.getElementById('pgn').value = '1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1'; document.getElementById('nodes').value = '5000'; true");
    page.click("#load");
    page.wait(60, "!!document.querySelector('#graph polyline') && document.querySelectorAll('#moves span.move').length === 14");
    page.click("#last");
    page.wait(
        10,
        "document.getElementById('summary').textContent.includes('checkmate')",
    );
    page.click("#prev");
    page.wait(20, "document.querySelectorAll('#lines div').length >= 1");
    page.screenshot("analyse.png");

    // Tsume: a mate in 3 solved and stepped through to the end.
    page.navigate(&format!("{base}/tsume"));
    page.wait(20, "!!document.querySelector('#shogi svg')");
    page.eval(
        "document.getElementById('sfen').value = '9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1'; true",
    );
    page.click("#solve");
    page.wait(30, "document.querySelectorAll('#line .move').length === 3");
    assert!(page
        .eval("document.getElementById('verdict').textContent")
        .as_str()
        .unwrap()
        .starts_with("Mate in 3 plies"));
    page.click("#last");
    page.wait(
        5,
        "document.querySelectorAll('#line .move.current').length === 1",
    );
    // The gold that mates stands on 2b (the 2nd file from the right, the 2nd rank).
    assert_eq!(
        page.eval("document.querySelector('#line .move').textContent"),
        json!("☗２三金")
    );
    assert!(
        page.eval("document.querySelectorAll('#shogi g.piece').length")
            .as_u64()
            >= Some(3)
    );
    let shot = page.screenshot("tsume.png");

    assert!(
        page.exceptions.is_empty(),
        "JavaScript exceptions: {:?}",
        page.exceptions
    );
    eprintln!(
        "browser test: {:.1} s, screenshots in {}",
        started.elapsed().as_secs_f64(),
        shot.parent().unwrap().display()
    );
}

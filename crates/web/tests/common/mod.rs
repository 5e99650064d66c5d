//! A server on a free port of 127.0.0.1 and a small HTTP/1.1 client over std's TCP, for the
//! tests: the requests go through the real socket, router and engine thread.

#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// Starts a server (its own engine thread) on a free port; returns its address.
pub fn server() -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let result = web::serve("127.0.0.1", 0, |addr| {
            let _ = tx.send(addr);
        });
        if let Err(e) = result {
            eprintln!("server: {e}");
        }
    });
    rx.recv_timeout(Duration::from_secs(30))
        .expect("the server binds a port")
}

/// A response: the status code, the headers (lower-case names) and the body.
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// The body as JSON (panics with the body if it is not).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Sends `method path` with `body` (as is) and reads the whole response.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> Response {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).expect("send head");
    // A body over the server's limit may be refused before it is all sent.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    parse(&raw)
}

fn parse(raw: &[u8]) -> Response {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .expect("a status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    if headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"))
    {
        body = dechunk(&body);
    }
    Response {
        status,
        headers,
        body,
    }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = b.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&b[..eol]).trim(), 16).unwrap_or(0);
        if size == 0 || b.len() < eol + 2 + size {
            return out;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + size]);
        b = &b[eol + 2 + size + 2..];
    }
}

/// GET `path`.
pub fn get(addr: SocketAddr, path: &str) -> Response {
    request(addr, "GET", path, b"")
}

/// POST `json` to `path`.
pub fn post(addr: SocketAddr, path: &str, json: Value) -> Response {
    request(addr, "POST", path, json.to_string().as_bytes())
}

/// Polls the game until `pred` holds (at most `secs` seconds); returns that state.
pub fn wait_for(addr: SocketAddr, secs: u64, pred: impl Fn(&Value) -> bool) -> Value {
    let t = Instant::now();
    loop {
        let s = get(addr, "/api/play").json();
        if pred(&s) {
            return s;
        }
        assert!(
            t.elapsed() < Duration::from_secs(secs),
            "timed out waiting; last state {s}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Reads the server-sent events until `pred` accepts one (name, data), at most `secs`.
pub struct Events {
    reader: BufReader<TcpStream>,
}

impl Events {
    /// Subscribes to `/api/events`.
    pub fn open(addr: SocketAddr) -> Events {
        let mut s = TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(30))).ok();
        write!(
            s,
            "GET /api/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        )
        .expect("send");
        let mut reader = BufReader::new(s);
        // The response's head.
        let mut line = String::new();
        loop {
            line.clear();
            reader.read_line(&mut line).expect("read the head");
            if line == "\r\n" || line.is_empty() {
                break;
            }
        }
        Events { reader }
    }

    /// The first event (name and data) that `pred` accepts.
    pub fn until(&mut self, secs: u64, pred: impl Fn(&str, &Value) -> bool) -> (String, Value) {
        let t = Instant::now();
        let mut name = String::new();
        let mut line = String::new();
        while t.elapsed() < Duration::from_secs(secs) {
            line.clear();
            if self.reader.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            // Chunked framing: the size lines are skipped, the event lines read.
            let l = line.trim_end();
            if let Some(n) = l.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(d) = l.strip_prefix("data: ") {
                if let Ok(v) = serde_json::from_str::<Value>(d) {
                    if pred(&name, &v) {
                        return (name, v);
                    }
                }
            }
        }
        panic!("no matching event within {secs} s");
    }
}

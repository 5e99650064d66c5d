//! The search machine's host protocol (`hw::chip::protocol`) end to end against the model:
//! the CRC's published check value, positions through the wire format, and a session over
//! byte channels with corrupted, truncated, oversized and unknown frames among good ones:
//! each bad frame answered with an error, the chip never wedged.

use chess::Board;
use hw::chip::protocol::{
    crc8, decode_position, encode_position, frame, serve_model, ErrorCode, Reply, ReplyReader,
    Request, SYNC,
};
use hw::chip::{Config, Machine};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_millis(50);

#[test]
fn the_crc_has_the_published_check_value() {
    // CRC-8 (polynomial 0x07, initial 0, no reflection): "123456789" gives 0xf4.
    assert_eq!(crc8(b"123456789"), 0xf4);
}

#[test]
fn positions_cross_the_wire_unchanged() {
    // The published Chess960 perft positions (in the repository) and the bench positions.
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../chess/tests/data/chess960.epd"),
    )
    .expect("chess960.epd");
    let chess960: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split(';').next())
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .collect();
    assert!(chess960.len() > 40);
    let bench = search_free_positions();
    for (fen, is960) in chess960
        .iter()
        .map(|f| (*f, true))
        .chain(bench.iter().map(|f| (*f, false)))
    {
        let mut b = Board::from_fen(fen).unwrap();
        b.set_chess960(is960);
        let back = decode_position(&encode_position(&b)).expect(fen);
        assert_eq!(back.to_fen(), b.to_fen(), "{fen}");
        assert_eq!(back.hash(), b.hash(), "{fen}");
        assert_eq!(back.is_chess960(), b.is_chess960());
    }
    // Two white kings, and a pawn on the first rank: refused.
    let mut p = encode_position(&Board::startpos());
    p[2] = 0x66;
    assert!(decode_position(&p).is_none());
    let mut p = encode_position(&Board::startpos());
    p[0] = 0x21;
    assert!(decode_position(&p).is_none());
}

/// Positions with en passant, castling rights and promotions about.
fn search_free_positions() -> Vec<&'static str> {
    vec![
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 37 80",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ]
}

struct Session {
    to_chip: Option<Sender<u8>>,
    from_chip: Receiver<Vec<u8>>,
    reader: ReplyReader,
    pending: Vec<Result<Reply, ErrorCode>>,
    server: Option<std::thread::JoinHandle<()>>,
}

impl Session {
    fn start() -> Session {
        let machine = Machine::new(eval::chip::ChipNet::embedded_pure(), Config::default())
            .expect("the pure net runs on chip");
        let (tx, rx) = channel();
        let (rtx, rrx) = channel();
        let server = std::thread::spawn(move || serve_model(machine, rx, rtx, TIMEOUT));
        Session {
            to_chip: Some(tx),
            from_chip: rrx,
            reader: ReplyReader::default(),
            pending: Vec::new(),
            server: Some(server),
        }
    }

    fn send(&self, bytes: &[u8]) {
        for b in bytes {
            self.to_chip.as_ref().unwrap().send(*b).unwrap();
        }
    }

    /// The next reply, within `secs`.
    fn next(&mut self, secs: f64) -> Result<Reply, ErrorCode> {
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        loop {
            if !self.pending.is_empty() {
                return self.pending.remove(0);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let chunk = self
                .from_chip
                .recv_timeout(left)
                .expect("the chip answers in time");
            for b in chunk {
                if let Some(r) = self.reader.push(b) {
                    self.pending.push(r);
                }
            }
        }
    }

    /// Replies until BEST, which it returns with the INFO reports before it.
    fn until_best(&mut self, secs: f64) -> (Vec<Reply>, Reply) {
        let mut infos = Vec::new();
        loop {
            match self.next(secs).expect("a good reply") {
                r @ Reply::Best { .. } => return (infos, r),
                r => infos.push(r),
            }
        }
    }

    fn pong(&mut self) {
        self.send(&Request::Ping.encode());
        assert_eq!(self.next(5.0), Ok(Reply::Pong));
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.to_chip.take();
        if let Some(s) = self.server.take() {
            let _ = s.join();
        }
    }
}

#[test]
fn a_session_survives_bad_frames() {
    let mut s = Session::start();
    // Noise before a frame is skipped.
    s.send(&[0x00, 0x13, 0x37]);
    s.pong();
    // GO before any position.
    let go = Request::Go {
        depth: 4,
        nodes: 0,
        clocks: 0,
    };
    s.send(&go.encode());
    assert_eq!(s.next(5.0), Ok(Reply::Error(ErrorCode::NoPosition)));
    // A corrupted CRC, an unknown type, an oversized length, a bad payload, a bad position.
    let mut bad = Request::Ping.encode();
    *bad.last_mut().unwrap() ^= 0xff;
    s.send(&bad);
    assert_eq!(s.next(5.0), Ok(Reply::Error(ErrorCode::BadCrc)));
    s.send(&frame(0x7e, &[]));
    assert_eq!(s.next(5.0), Ok(Reply::Error(ErrorCode::UnknownType)));
    s.send(&[SYNC, 0x01, 0xff, 0xff]);
    assert_eq!(s.next(5.0), Ok(Reply::Error(ErrorCode::TooLong)));
    s.send(&frame(0x02, &[1, 2, 3]));
    assert_eq!(s.next(5.0), Ok(Reply::Error(ErrorCode::BadPayload)));
    let mut pos = encode_position(&Board::startpos()).to_vec();
    pos[2] = 0x66;
    s.send(&frame(0x01, &pos));
    assert_eq!(s.next(5.0), Ok(Reply::Error(ErrorCode::BadPosition)));
    // A frame cut short: the timeout answers it.
    let load = Request::Load {
        board: Board::startpos(),
        history: vec![],
    }
    .encode();
    s.send(&load[..10]);
    std::thread::sleep(TIMEOUT * 3);
    assert_eq!(s.next(5.0), Ok(Reply::Error(ErrorCode::Truncated)));
    // Still working: a whole search.
    s.pong();
    s.send(&load);
    s.send(&go.encode());
    let (infos, best) = s.until_best(30.0);
    assert_eq!(infos.len(), 4, "{infos:?}");
    let Reply::Best {
        best: Some(m),
        report,
        stopped,
    } = best
    else {
        panic!("no move: {best:?}")
    };
    assert!(!stopped && report.depth == 4);
    assert!(Board::startpos().is_legal(m));
    // Decide now: STOP ends a search without limits; a GO during it is refused.
    s.send(
        &Request::Go {
            depth: 0,
            nodes: 0,
            clocks: 0,
        }
        .encode(),
    );
    std::thread::sleep(Duration::from_millis(100));
    s.send(&go.encode());
    let t = Instant::now();
    s.send(&Request::Stop.encode());
    let mut refused = false;
    let best = loop {
        match s.next(5.0) {
            Ok(Reply::Error(ErrorCode::Busy)) => refused = true,
            Ok(r @ Reply::Best { .. }) => break r,
            Ok(Reply::Info(_)) => {}
            other => panic!("{other:?}"),
        }
    };
    assert!(refused, "GO during a search must be refused");
    assert!(t.elapsed() < Duration::from_secs(1));
    let Reply::Best { best, stopped, .. } = best else {
        unreachable!()
    };
    assert!(stopped && Board::startpos().is_legal(best.unwrap()));
    // A mated root: BEST without a move.
    let mated =
        Board::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
    s.send(
        &Request::Load {
            board: mated,
            history: vec![],
        }
        .encode(),
    );
    s.send(&go.encode());
    let (_, best) = s.until_best(5.0);
    assert!(matches!(best, Reply::Best { best: None, .. }), "{best:?}");
    s.pong();
}

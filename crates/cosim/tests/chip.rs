//! The whole search machine (hw/chip/estuary_chip.v: host interface, loader, one search core)
//! driven end to end at its UART pins with the bytes of `hw::chip::protocol`, against the
//! protocol's model (`Host` in front of `hw::chip::Machine`): the same BEST frame, byte for
//! byte (move, depth, score, nodes, clocks, stopped, PV), and INFO frames that are the
//! model's (the chip drops an INFO while its transmitter is still sending the one before);
//! bad frames and refused requests get the model's ERROR and leave the chip serving; STOP and
//! the stop pin end a search at once with a legal move.

mod common;

use chess::{Board, Move};
use common::simulator_present;
use cosim::chip::{ChipSim, SIM_BAUD_DIV, SIM_TIMEOUT, TT_ENTRIES};
use eval::chip::ChipNet;
use hw::chip::protocol::{frame, ErrorCode, Reply, ReplyReader, Request, POSITION_BYTES};
use hw::chip::{Config, Limits, Machine};

fn config() -> Config {
    Config {
        tt_entries: TT_ENTRIES,
        ..Config::default()
    }
}

/// A chip and the model beside it, given the same requests.
struct Pair {
    chip: ChipSim,
    reader: ReplyReader,
    model: Machine,
}

impl Pair {
    fn new() -> Pair {
        Pair {
            chip: ChipSim::new(config(), SIM_BAUD_DIV, SIM_TIMEOUT).unwrap(),
            reader: ReplyReader::default(),
            model: Machine::new(ChipNet::embedded_pure(), config()).unwrap(),
        }
    }

    /// Sends `bytes` and clocks until `enough` holds for the replies decoded so far (or the
    /// clock budget runs out); returns them.
    fn exchange(
        &mut self,
        bytes: &[u8],
        budget: u64,
        enough: impl Fn(&[Result<Reply, ErrorCode>]) -> bool,
    ) -> Vec<Result<Reply, ErrorCode>> {
        self.chip.send(bytes, 0);
        let mut replies = Vec::new();
        let start = self.chip.cycles();
        while self.chip.cycles() - start < budget {
            self.chip.run(500);
            for b in self.chip.take_tx() {
                if let Some(r) = self.reader.push(b) {
                    replies.push(r);
                }
            }
            if !self.chip.sending() && enough(&replies) {
                break;
            }
        }
        replies
    }

    /// Sends a request that the chip answers with one reply.
    fn ask(&mut self, bytes: &[u8]) -> Result<Reply, ErrorCode> {
        let replies = self.exchange(bytes, 200_000, |r| !r.is_empty());
        assert_eq!(replies.len(), 1, "one reply: {replies:?}");
        // Nothing more comes.
        let more = self.exchange(&[], 5_000, |_| false);
        assert!(more.is_empty(), "a second reply: {more:?}");
        replies.into_iter().next().unwrap()
    }

    /// Sends a request the chip carries out without a reply; checks none comes.
    fn carry(&mut self, bytes: &[u8]) {
        let replies = self.exchange(bytes, 5_000, |_| false);
        assert!(replies.is_empty(), "no reply: {replies:?}");
    }

    /// LOAD of `board` after `history`, on both.
    fn load(&mut self, board: &Board, history: &[u64]) {
        let req = Request::Load {
            board: *board,
            history: history.to_vec(),
        };
        self.carry(&req.encode());
        self.model.load_hashes(board, history);
    }

    /// GO on both; returns the chip's replies up to BEST and the model's BEST, and checks
    /// every INFO of the chip's is one of the model's, in order.
    fn go(&mut self, what: &str, depth: u8, nodes: u64, clocks: u64) -> (Reply, Reply) {
        let req = Request::Go {
            depth,
            nodes,
            clocks,
        };
        let replies = self.exchange(&req.encode(), 50_000_000, has_best);
        let limits = Limits::of_go(depth, nodes, clocks);
        let mut infos = Vec::new();
        let out = self
            .model
            .go(limits, |r| infos.push(Reply::Info(r.clone()).encode()));
        let mut report = out.report;
        report.nodes = out.nodes;
        report.clocks = out.clocks;
        let want = Reply::Best {
            best: out.best,
            report,
            stopped: out.stopped,
        };
        let mut next = 0;
        let mut best = None;
        for r in replies {
            match r {
                Ok(Reply::Info(i)) => {
                    let bytes = Reply::Info(i.clone()).encode();
                    let at = infos[next..].iter().position(|m| *m == bytes);
                    assert!(at.is_some(), "{what}: INFO {i:?} is not the model's next");
                    next += at.unwrap() + 1;
                }
                Ok(b @ Reply::Best { .. }) => best = Some(b),
                other => panic!("{what}: unexpected reply {other:?}"),
            }
        }
        (best.unwrap_or_else(|| panic!("{what}: no BEST")), want)
    }

    /// GO on both, and the same BEST.
    fn search(&mut self, what: &str, depth: u8, nodes: u64, clocks: u64) -> Reply {
        let (got, want) = self.go(what, depth, nodes, clocks);
        assert_eq!(
            got.encode(),
            want.encode(),
            "{what}: BEST\n{got:?}\n{want:?}"
        );
        got
    }
}

/// A position's 42 bytes from pieces (square, code: 1-6 a white pawn..king, 9-14 black), no
/// castling, no en passant.
fn raw_position(pieces: &[(u8, u8)], black: bool) -> [u8; POSITION_BYTES] {
    let mut p = [0u8; POSITION_BYTES];
    for &(sq, code) in pieces {
        p[usize::from(sq / 2)] |= code << (4 * (sq % 2));
    }
    p[32] = u8::from(black);
    p[33..38].fill(0xff);
    p[39] = 1;
    p
}

fn load_raw(p: &[u8; POSITION_BYTES]) -> Vec<u8> {
    frame(0x01, p)
}

/// A GO without limits: a search that runs until stopped.
fn go_without_limits() -> Vec<u8> {
    Request::Go {
        depth: 0,
        nodes: 0,
        clocks: 0,
    }
    .encode()
}

/// The replies hold a BEST.
fn has_best(replies: &[Result<Reply, ErrorCode>]) -> bool {
    replies.iter().any(|r| matches!(r, Ok(Reply::Best { .. })))
}

/// The replies hold a BEST, stopped, with a legal move of `board`.
fn assert_stopped_with_a_legal_move(board: &Board, replies: &[Result<Reply, ErrorCode>]) {
    let best = replies.iter().find_map(|r| match r {
        Ok(Reply::Best { best, stopped, .. }) => Some((*best, *stopped)),
        _ => None,
    });
    let Some((Some(m), true)) = best else {
        panic!("no stopped BEST with a move: {replies:?}");
    };
    assert!(board.legal_moves().contains(m), "{m:?}");
}

#[test]
fn the_chip_answers_over_its_uart_as_the_model() {
    if !simulator_present() {
        return;
    }
    let mut pair = Pair::new();
    // Bench positions, one after another on one chip (the table and the killers carry over,
    // on both).
    for (k, fen) in search::bench::POSITIONS.iter().enumerate().step_by(4) {
        let board = Board::from_fen(fen).unwrap();
        let depth = if k % 8 == 0 { 3 } else { 2 };
        pair.load(&board, &[]);
        pair.search(&format!("{fen} depth {depth}"), depth, 0, 0);
    }
    // A game with a history: knights out and back, the repetition within reach.
    let mut board = Board::startpos();
    let mut history = Vec::new();
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        history.push(board.hash());
        let m: Move = board.parse_uci_move(uci).unwrap();
        board = board.played(m);
    }
    pair.load(&board, &history);
    pair.search("repetition history depth 3", 3, 0, 0);
    // A node budget and a clock budget stop it inside an iteration.
    let board = Board::from_fen(search::bench::POSITIONS[1]).unwrap();
    pair.load(&board, &[]);
    pair.search("node budget", 0, 2_000, 0);
    pair.search("clock budget", 0, 0, 80_000);
    // Mated and stalemated: BEST without a move.
    for fen in [
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        pair.load(&Board::from_fen(fen).unwrap(), &[]);
        let best = pair.search(fen, 4, 0, 0);
        assert!(
            matches!(best, Reply::Best { best: None, .. }),
            "{fen}: {best:?}"
        );
    }
}

#[test]
fn bad_frames_and_refused_requests_get_the_models_errors() {
    if !simulator_present() {
        return;
    }
    let mut pair = Pair::new();
    let start = Board::startpos();
    let go = Request::Go {
        depth: 2,
        nodes: 0,
        clocks: 0,
    }
    .encode();
    // GO before any LOAD.
    assert_eq!(pair.ask(&go), Ok(Reply::Error(ErrorCode::NoPosition)));
    assert_eq!(pair.ask(&Request::Ping.encode()), Ok(Reply::Pong));
    // A damaged CRC, an unknown type, a payload of the wrong size, a frame cut short.
    let mut bad_crc = Request::Ping.encode();
    *bad_crc.last_mut().unwrap() ^= 0x5a;
    assert_eq!(pair.ask(&bad_crc), Ok(Reply::Error(ErrorCode::BadCrc)));
    assert_eq!(
        pair.ask(&frame(0x33, &[])),
        Ok(Reply::Error(ErrorCode::UnknownType))
    );
    assert_eq!(
        pair.ask(&frame(0x02, &[1, 2, 3])),
        Ok(Reply::Error(ErrorCode::BadPayload))
    );
    let whole = Request::Load {
        board: start,
        history: vec![],
    }
    .encode();
    pair.chip.send(&whole[..20], 0);
    let cut = pair.exchange(&[], 3 * u64::from(SIM_TIMEOUT), |r| !r.is_empty());
    assert_eq!(cut, vec![Ok(Reply::Error(ErrorCode::Truncated))]);
    // Positions the host unit refuses (two white kings) and those the loader refuses on the
    // generator: the side not to move in check, three checkers.
    let two_kings = raw_position(&[(4, 6), (5, 6), (60, 14)], false);
    let not_to_move_in_check = raw_position(&[(4, 6), (60, 14), (12, 4)], false);
    let three_checks = raw_position(&[(4, 6), (0, 14), (60, 12), (25, 11), (21, 10)], false);
    for (what, p) in [
        ("two kings", two_kings),
        ("the side not to move in check", not_to_move_in_check),
        ("three checkers", three_checks),
    ] {
        assert!(hw::chip::protocol::decode_position(&p).is_none(), "{what}");
        assert_eq!(
            pair.ask(&load_raw(&p)),
            Ok(Reply::Error(ErrorCode::BadPosition)),
            "{what}"
        );
    }
    // Still no position: a refused LOAD loads nothing.
    assert_eq!(pair.ask(&go), Ok(Reply::Error(ErrorCode::NoPosition)));
    // A good LOAD, then a refused one: the first stays loaded, on the chip as on the model.
    let board = Board::from_fen(search::bench::POSITIONS[2]).unwrap();
    pair.load(&board, &[]);
    assert_eq!(
        pair.ask(&load_raw(&not_to_move_in_check)),
        Ok(Reply::Error(ErrorCode::BadPosition))
    );
    pair.search("after a refused LOAD", 2, 0, 0);
    // During a search: PING is answered, LOAD, GO and CLEAR are Busy.
    pair.chip.send(&go_without_limits(), 0);
    let during: Vec<_> = [
        Request::Ping.encode(),
        Request::Clear.encode(),
        go.clone(),
        whole.clone(),
        load_raw(&three_checks),
    ]
    .iter()
    .map(|req| {
        pair.exchange(req, 200_000, |r| {
            r.iter().any(|r| !matches!(r, Ok(Reply::Info(_))))
        })
    })
    .collect();
    let firsts: Vec<_> = during
        .iter()
        .map(|r| r.iter().find(|r| !matches!(r, Ok(Reply::Info(_)))).cloned())
        .collect();
    assert_eq!(
        firsts,
        vec![
            Some(Ok(Reply::Pong)),
            Some(Ok(Reply::Error(ErrorCode::Busy))),
            Some(Ok(Reply::Error(ErrorCode::Busy))),
            Some(Ok(Reply::Error(ErrorCode::Busy))),
            Some(Ok(Reply::Error(ErrorCode::Busy))),
        ]
    );
    assert!(pair.chip.searching());
    // STOP: the answer at once, a legal move, stopped.
    let stop = pair.exchange(&Request::Stop.encode(), 200_000, has_best);
    assert_stopped_with_a_legal_move(&board, &stop);
    // CLEAR empties the table, the killers and the history on both: searches agree again.
    // (The CLEAR takes a clock a table or history entry; the LOAD goes on beside it and the
    // GO waits.)
    pair.carry(&Request::Clear.encode());
    pair.model.clear();
    pair.load(&board, &[]);
    pair.search("after STOP and CLEAR", 3, 0, 0);
}

#[test]
fn the_stop_pin_decides_now() {
    if !simulator_present() {
        return;
    }
    let mut pair = Pair::new();
    let board = Board::from_fen(search::bench::POSITIONS[5]).unwrap();
    pair.load(&board, &[]);
    pair.chip.send(&go_without_limits(), 0);
    pair.chip.run(400_000);
    assert!(pair.chip.searching());
    pair.chip.stop_pin(true);
    let replies = pair.exchange(&[], 100_000, has_best);
    pair.chip.stop_pin(false);
    assert_stopped_with_a_legal_move(&board, &replies);
}

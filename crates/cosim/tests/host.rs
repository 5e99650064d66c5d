//! Co-simulation of the search machine's host interface (hw/host/) at its pins, against the
//! protocol's model (`hw::chip::protocol`: `FrameReader`, `Host`, `Reply::encode`). The harness
//! plays the host's UART and the sequencer's side; every step's bytes go through the model too,
//! and the unit must send the model's replies byte for byte and raise the model's actions
//! (LOAD with the position and history, GO with its limits, STOP, CLEAR) in order. Steps mix
//! good requests with corrupted, truncated, oversized, unknown and misplaced frames, junk
//! between frames, illegal positions and a busy sequencer; then reports (INFO and BEST with
//! their PVs), a flood of bad frames, and a host clock off by 3%.

mod common;

use chess::{Board, GenMode, Move, MoveList, Position};
use common::simulator_present;
use cosim::host::{HostSim, Offer, Strobe};
use hw::chip::protocol::{
    decode_position, decode_position_why, encode_position, frame, Action, FrameReader, Host, Reply,
    ReplyReader, Request, MAX_HISTORY, POSITION_BYTES, SYNC,
};
use hw::chip::Report;

/// Clocks a bit of the UART in the simulation (the board runs 868 at 100 MHz and 115200 baud).
const DIV: u32 = 16;
/// Quiet clocks that cut a frame short.
const TIMEOUT: u32 = 4000;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Positions with castling rights, en passant, promotions and Chess960 about, and positions
/// from random games.
fn positions(rng: &mut Rng) -> Vec<Board> {
    let mut out: Vec<Board> = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 37 80",
        "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w KQkq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ]
    .iter()
    .map(|f| Board::from_fen(f).expect(f))
    .collect();
    for start in out.clone() {
        let mut pos = Position::new(start);
        for _ in 0..12 {
            let mut list = MoveList::new();
            pos.generate_into(GenMode::All, &mut list);
            if list.is_empty() {
                break;
            }
            let m = list[rng.below(list.len() as u64) as usize];
            pos.make(m);
            out.push(*pos.board());
        }
    }
    out
}

/// What the model says the unit must do for a step.
#[derive(Default)]
struct Expected {
    replies: Vec<u8>,
    strobes: Vec<(Strobe, Vec<u64>)>,
}

/// The model's side: the frame reader and the request handling.
#[derive(Default)]
struct Model {
    reader: FrameReader,
    host: Host,
}

impl Model {
    fn take(&mut self, framed: Option<hw::chip::protocol::Framed>, busy: bool, e: &mut Expected) {
        let Some(framed) = framed else { return };
        match self.host.on(framed, busy) {
            Action::Reply(r) => e.replies.extend(r.encode()),
            Action::Carry(Request::Load { board, history }) => {
                let mut position = encode_position(&board);
                // The unit keeps the payload as sent; the model's re-encoding agrees on
                // every byte of a position that decodes but the unused last one.
                position[POSITION_BYTES - 1] = 0;
                let n = history.len() as u8;
                e.strobes.push((
                    Strobe::Load {
                        position,
                        history: n,
                    },
                    history,
                ));
            }
            Action::Carry(r) => e.strobes.push((Strobe::Carry(r), vec![])),
        }
    }

    /// The bytes of a step, then the quiet that ends any frame left open.
    fn step(&mut self, bytes: &[u8], busy: bool) -> Expected {
        let mut e = Expected::default();
        for &b in bytes {
            let f = self.reader.push(b);
            self.take(f, busy, &mut e);
        }
        let f = self.reader.timeout();
        self.take(f, busy, &mut e);
        e
    }
}

/// Runs a step on the unit: the bytes, then quiet past the timeout and until the replies are
/// out; returns the replies and the strobes with the history read back for each LOAD.
fn run_step(sim: &mut HostSim, bytes: &[u8], busy: bool, rng: &mut Rng) -> Expected {
    sim.set_busy(busy);
    // Bytes back to back or with short gaps (well under the timeout).
    let gap = if rng.chance(50) {
        0
    } else {
        rng.below(40) as u32
    };
    sim.send(bytes, DIV, gap);
    sim.idle(u64::from(TIMEOUT) + 200);
    let mut got = Expected::default();
    loop {
        let r = sim.take_replies();
        if r.is_empty() {
            break;
        }
        got.replies.extend(r);
        sim.idle(20 * 10 * u64::from(DIV));
    }
    let mut strobes = Vec::new();
    while let Some(s) = sim.take_strobe() {
        strobes.push(s);
    }
    for s in strobes {
        let history = match &s {
            Strobe::Load { history, .. } => {
                (0..u32::from(*history)).map(|i| sim.history(i)).collect()
            }
            _ => vec![],
        };
        got.strobes.push((s, history));
    }
    got
}

fn load_payload(board: &Board, history: &[u64]) -> Vec<u8> {
    let mut p = encode_position(board).to_vec();
    for h in history {
        p.extend_from_slice(&h.to_le_bytes());
    }
    p
}

/// A position payload changed at random: a square, a castling file, the en-passant square or
/// the flags. Many stay legal; those that the FEN reader refuses only for attacks (which the
/// sequencer checks, not the host unit) are drawn again.
fn mutated(rng: &mut Rng, board: &Board) -> [u8; POSITION_BYTES] {
    loop {
        let mut p = encode_position(board);
        match rng.below(5) {
            0 | 1 => {
                let sq = rng.below(64) as usize;
                let code = rng.below(16) as u8;
                let shift = 4 * (sq % 2);
                p[sq / 2] = p[sq / 2] & !(15 << shift) | code << shift;
            }
            2 => {
                p[33 + rng.below(4) as usize] = match rng.below(3) {
                    0 => 0xff,
                    1 => rng.below(8) as u8,
                    _ => rng.next() as u8,
                }
            }
            3 => {
                p[37] = match rng.below(3) {
                    0 => 0xff,
                    1 => [16, 23, 40, 47, 20, 43][rng.below(6) as usize],
                    _ => rng.next() as u8,
                }
            }
            _ => p[32] = rng.below(8) as u8,
        }
        match decode_position_why(&p) {
            Err(Some(e)) if e.field == 0 => continue,
            _ => return p,
        }
    }
}

/// One step of requests, good and bad.
fn random_step(rng: &mut Rng, pool: &[Board]) -> Vec<u8> {
    let board = &pool[rng.below(pool.len() as u64) as usize];
    let history: Vec<u64> = (0..rng.below(MAX_HISTORY as u64 + 1))
        .map(|_| rng.next())
        .collect();
    let good = |rng: &mut Rng| -> Vec<u8> {
        match rng.below(6) {
            0 | 1 => frame(0x01, &load_payload(board, &history)),
            2 => Request::Go {
                depth: rng.next() as u8,
                nodes: if rng.chance(50) { 0 } else { rng.next() },
                clocks: if rng.chance(50) { 0 } else { rng.next() },
            }
            .encode(),
            3 => Request::Stop.encode(),
            4 => Request::Clear.encode(),
            _ => Request::Ping.encode(),
        }
    };
    match rng.below(12) {
        0..=2 => good(rng),
        3 => {
            let mut p = mutated(rng, board).to_vec();
            p.extend_from_slice(&load_payload(board, &history)[POSITION_BYTES..]);
            frame(0x01, &p)
        }
        4 => {
            // A payload of the wrong size for its type.
            let (kind, len) = match rng.below(5) {
                0 => (0x01, rng.below(POSITION_BYTES as u64) as usize),
                1 => (0x01, POSITION_BYTES + 1 + 8 * rng.below(10) as usize),
                2 => (0x01, POSITION_BYTES + 8 * (MAX_HISTORY + 1)),
                3 => (0x02, [0, 16, 18][rng.below(3) as usize]),
                _ => (3 + rng.below(3) as u8, 1 + rng.below(3) as usize),
            };
            let mut p = load_payload(board, &history);
            p.resize(len, 0x5a);
            frame(kind, &p)
        }
        5 => {
            // An unknown type.
            let kind = loop {
                let k = rng.next() as u8;
                if !(1..=5).contains(&k) {
                    break k;
                }
            };
            let p: Vec<u8> = (0..rng.below(60)).map(|_| rng.next() as u8).collect();
            frame(kind, &p)
        }
        6 => {
            // A bit flipped anywhere after the SYNC (a flipped length may make a frame that
            // is too long, or one that swallows what follows until the timeout).
            let mut f = good(rng);
            let at = 1 + rng.below(f.len() as u64 - 1) as usize;
            f[at] ^= 1 << rng.below(8);
            f
        }
        7 => {
            // Too long, then a good frame right behind.
            let len = 1025 + rng.below(60000) as u16;
            let mut f = vec![SYNC, 0x01, len as u8, (len >> 8) as u8];
            f.extend(good(rng));
            f
        }
        8 => {
            // Cut short.
            let f = good(rng);
            f[..1 + rng.below(f.len() as u64 - 1) as usize].to_vec()
        }
        9 => {
            // Junk (SYNC bytes among it) before a good frame.
            let mut f: Vec<u8> = (0..rng.below(12)).map(|_| rng.next() as u8).collect();
            f.extend(good(rng));
            f
        }
        _ => {
            // Several frames back to back.
            let mut f = Vec::new();
            for _ in 0..2 + rng.below(3) {
                f.extend(good(rng));
            }
            f
        }
    }
}

fn assert_same(step: usize, bytes: &[u8], want: &Expected, got: &Expected) {
    assert_eq!(
        got.replies, want.replies,
        "step {step}: replies differ for the bytes {bytes:02x?}"
    );
    assert_eq!(
        got.strobes.len(),
        want.strobes.len(),
        "step {step}: strobes {:?}, the model's {:?}",
        got.strobes,
        want.strobes
    );
    for ((g, gh), (w, wh)) in got.strobes.iter().zip(&want.strobes) {
        match (g, w) {
            (
                Strobe::Load {
                    position: gp,
                    history: gn,
                },
                Strobe::Load {
                    position: wp,
                    history: wn,
                },
            ) => {
                assert_eq!(
                    gp[..POSITION_BYTES - 1],
                    wp[..POSITION_BYTES - 1],
                    "step {step}"
                );
                assert_eq!(gn, wn, "step {step}");
                assert_eq!(gh, wh, "step {step}: history");
                let a = decode_position(gp).expect("the unit holds a legal position");
                let b = decode_position(wp).expect("the model's position");
                assert_eq!(a.hash(), b.hash(), "step {step}");
            }
            _ => assert_eq!(g, w, "step {step}"),
        }
    }
}

#[test]
fn requests_good_and_bad_match_the_model() {
    if !simulator_present() {
        return;
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let pool = positions(&mut rng);
    let mut sim = HostSim::new(DIV, TIMEOUT).expect("simulator");
    let mut model = Model::default();
    // GO before any LOAD.
    let go = Request::Go {
        depth: 3,
        nodes: 0,
        clocks: 0,
    }
    .encode();
    let mut counts = [0usize; 4];
    for step in 0..400 {
        let busy = rng.chance(20);
        let bytes = if step == 0 {
            go.clone()
        } else {
            random_step(&mut rng, &pool)
        };
        let want = model.step(&bytes, busy);
        let got = run_step(&mut sim, &bytes, busy, &mut rng);
        assert_same(step, &bytes, &want, &got);
        counts[0] += want.replies.len();
        for (s, _) in &want.strobes {
            match s {
                Strobe::Load { .. } => counts[1] += 1,
                Strobe::Carry(Request::Go { .. }) => counts[2] += 1,
                _ => counts[3] += 1,
            }
        }
    }
    eprintln!(
        "400 steps, {} clocks: {} reply bytes, {} loads, {} gos, {} stops and clears",
        sim.cycles(),
        counts[0],
        counts[1],
        counts[2],
        counts[3]
    );
    // The mix exercised every path.
    assert!(counts[1] > 20 && counts[2] > 10 && counts[3] > 20);
}

#[test]
fn every_error_code_the_unit_makes_is_the_models() {
    if !simulator_present() {
        return;
    }
    use hw::chip::protocol::ErrorCode::*;
    let b = Board::startpos();
    let mut bad_pos = encode_position(&b);
    bad_pos[2] = 0x66; // a second white king
                       // Two white castling rooks on the king's a-side; a right with the king off its first rank;
                       // an en-passant square with no pawn in front of it.
    let fen = |f: &str| encode_position(&Board::from_fen(f).expect(f));
    let mut two_rooks = fen("4k3/8/8/8/8/8/8/RR2K3 w - - 0 1");
    two_rooks[33] = 0;
    two_rooks[34] = 1;
    let mut king_up = fen("4k3/8/8/8/8/8/4K3/R7 w - - 0 1");
    king_up[34] = 0;
    let mut ep = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    ep[37] = 21;
    let mut long = vec![SYNC, 0x05, 0x01, 0x04];
    long.extend(Request::Ping.encode());
    let mut crc = Request::Ping.encode();
    crc[4] ^= 0x80;
    let cases: Vec<(Vec<u8>, bool, Vec<Reply>)> = vec![
        (crc, false, vec![Reply::Error(BadCrc)]),
        (long, false, vec![Reply::Error(TooLong), Reply::Pong]),
        (frame(0x07, &[]), false, vec![Reply::Error(UnknownType)]),
        (frame(0x03, &[1]), false, vec![Reply::Error(BadPayload)]),
        (frame(0x02, &[0; 9]), false, vec![Reply::Error(BadPayload)]),
        (
            Request::Go {
                depth: 1,
                nodes: 0,
                clocks: 0,
            }
            .encode(),
            false,
            vec![Reply::Error(NoPosition)],
        ),
        (
            Request::Ping.encode()[..3].to_vec(),
            false,
            vec![Reply::Error(Truncated)],
        ),
        (
            frame(0x01, &bad_pos),
            false,
            vec![Reply::Error(BadPosition)],
        ),
        (
            frame(0x01, &two_rooks),
            false,
            vec![Reply::Error(BadPosition)],
        ),
        (
            frame(0x01, &king_up),
            false,
            vec![Reply::Error(BadPosition)],
        ),
        (frame(0x01, &ep), false, vec![Reply::Error(BadPosition)]),
        (Request::Clear.encode(), true, vec![Reply::Error(Busy)]),
        (Request::Stop.encode(), true, vec![]),
        (Request::Ping.encode(), true, vec![Reply::Pong]),
    ];
    for (bytes, busy, replies) in &cases {
        // The model says the same (from a fresh start, GO has no position).
        let mut model = Model::default();
        let want: Vec<u8> = replies.iter().flat_map(Reply::encode).collect();
        assert_eq!(model.step(bytes, *busy).replies, want);
    }
    let mut sim = HostSim::new(DIV, TIMEOUT).expect("simulator");
    let mut rng = Rng(7);
    for (i, (bytes, busy, replies)) in cases.iter().enumerate() {
        let got = run_step(&mut sim, bytes, *busy, &mut rng);
        let want: Vec<u8> = replies.iter().flat_map(Reply::encode).collect();
        assert_eq!(got.replies, want, "case {i}");
    }
}

#[test]
fn attacks_are_left_to_the_sequencer() {
    if !simulator_present() {
        return;
    }
    // Black to move with the white king in check: the model's FEN reader refuses it (field 0,
    // a check on attacks); the host unit passes it on, for the sequencer to refuse on the
    // generator.
    let mut p = encode_position(&Board::startpos());
    p[32] = 1;
    // A black rook on e2 (square 12) instead of the pawn on e7 (52): the king on e1 is
    // attacked.
    p[6] = p[6] & 0xf0 | 12;
    p[26] &= 0xf0;
    let why = decode_position_why(&p).expect_err("refused");
    assert_eq!(why.expect("by the FEN reader").field, 0);
    let mut sim = HostSim::new(DIV, TIMEOUT).expect("simulator");
    let mut rng = Rng(11);
    let got = run_step(&mut sim, &frame(0x01, &p), false, &mut rng);
    assert!(got.replies.is_empty());
    assert!(
        matches!(&got.strobes[..], [(Strobe::Load { position, .. }, _)] if position[..] == p[..])
    );
}

fn reply_of(o: &Offer) -> Reply {
    let report = Report {
        depth: u32::from(o.depth),
        score: i32::from(o.score),
        pv: o.pv.iter().map(|&m| Move::from_raw(m)).collect(),
        nodes: o.nodes,
        clocks: o.clocks,
    };
    if o.last {
        Reply::Best {
            best: report.pv.first().copied(),
            report,
            stopped: o.stopped,
        }
    } else {
        Reply::Info(report)
    }
}

fn drain(sim: &mut HostSim) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        sim.idle(40 * 10 * u64::from(DIV));
        let r = sim.take_replies();
        if r.is_empty() {
            return out;
        }
        out.extend(r);
    }
}

#[test]
fn reports_go_out_as_the_model_encodes_them() {
    if !simulator_present() {
        return;
    }
    let mut rng = Rng(0x1234_5678);
    let mut sim = HostSim::new(DIV, TIMEOUT).expect("simulator");
    for i in 0..60 {
        let n = match i {
            0 => 0,
            1 => 255,
            _ => rng.below(40) as usize,
        };
        let o = Offer {
            last: rng.chance(50),
            depth: rng.next() as u8,
            score: rng.next() as i16,
            nodes: rng.next(),
            clocks: rng.next(),
            stopped: rng.chance(50),
            pv: (0..n).map(|_| rng.next() as u16).collect(),
        };
        let o = Offer {
            stopped: o.stopped && o.last,
            ..o
        };
        sim.offer(&o).expect("acked");
        assert_eq!(drain(&mut sim), reply_of(&o).encode(), "report {i}");
    }
    // While a report goes out: a second INFO is dropped at once, a PONG waits for the frame
    // under way, a BEST waits for the buffer; the search never waits on an INFO.
    let info = |d: u8| Offer {
        depth: d,
        nodes: 1000 * u64::from(d),
        pv: vec![0x1234; 20],
        ..Offer::default()
    };
    let best = Offer {
        last: true,
        depth: 9,
        pv: vec![0x0c1c, 0x3424],
        ..Offer::default()
    };
    sim.offer(&info(7)).expect("taken");
    sim.idle(100);
    let waited = sim.offer(&info(8)).expect("dropped");
    assert!(waited <= 2, "an INFO waited {waited} clocks");
    sim.send(&Request::Ping.encode(), DIV, 0);
    sim.offer(&best).expect("taken when the buffer frees");
    let mut want = reply_of(&info(7)).encode();
    want.extend(Reply::Pong.encode());
    want.extend(reply_of(&best).encode());
    let got = drain(&mut sim);
    let mut reader = ReplyReader::default();
    let parsed: Vec<_> = got.iter().filter_map(|&b| reader.push(b)).collect();
    assert_eq!(got, want, "{parsed:?}");
}

#[test]
fn a_flood_of_bad_frames_never_wedges_it() {
    if !simulator_present() {
        return;
    }
    let mut sim = HostSim::new(DIV, TIMEOUT).expect("simulator");
    // 100 frames too long for the chip back to back: each ends after its 4 header bytes and
    // its ERROR takes 6, so the queue of short replies fills and the overflow is dropped; then
    // a PING is answered.
    let bad = [SYNC, 0x01, 0xff, 0xff];
    let flood: Vec<u8> = (0..100).flat_map(|_| bad).collect();
    sim.send(&flood, DIV, 0);
    let mut got = drain(&mut sim);
    sim.send(&Request::Ping.encode(), DIV, 0);
    got.extend(drain(&mut sim));
    let mut reader = ReplyReader::default();
    let replies: Vec<Reply> = got
        .iter()
        .filter_map(|&b| reader.push(b))
        .map(|r| r.expect("a well-formed reply"))
        .collect();
    let errors = replies.len() - 1;
    assert!((16..100).contains(&errors), "{errors} errors");
    assert!(replies[..errors]
        .iter()
        .all(|r| *r == Reply::Error(hw::chip::protocol::ErrorCode::TooLong)));
    assert_eq!(replies[errors], Reply::Pong);
}

#[test]
fn a_host_clock_three_percent_off_is_read() {
    if !simulator_present() {
        return;
    }
    // 32 clocks a bit on the unit, 31 and 33 on the host.
    for bit in [31, 33] {
        let mut sim = HostSim::new(32, 20_000).expect("simulator");
        let b =
            Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .expect("fen");
        let load = frame(0x01, &load_payload(&b, &[0x0123_4567_89ab_cdef]));
        sim.send(&load, bit, 0);
        sim.send(&Request::Ping.encode(), bit, 5);
        sim.idle(20 * 10 * 32);
        assert_eq!(
            sim.take_replies(),
            Reply::Pong.encode(),
            "{bit} clocks a bit"
        );
        assert!(matches!(
            sim.take_strobe(),
            Some(Strobe::Load { history: 1, .. })
        ));
        assert_eq!(sim.history(0), 0x0123_4567_89ab_cdef);
    }
}

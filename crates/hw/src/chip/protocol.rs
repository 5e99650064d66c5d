//! The host interface of the search machine: frames over a byte stream (the board's UART),
//! and the model behind it (`ModelChip`), so the host side can be tested end to end before
//! the RTL speaks it.
//!
//! A frame: `SYNC (0xA5)`, type, length (16 bits, little endian), payload, CRC-8 (polynomial
//! 0x07, initial 0, over type, length and payload). Requests (host to chip):
//!
//! | type | request | payload |
//! |---|---|---|
//! | 0x01 | LOAD | the position (42 bytes, below), then 8 bytes a history hash (oldest first, at most 100) |
//! | 0x02 | GO | depth (1 byte, 0: no limit), nodes (8 bytes, 0: none), clocks (8 bytes, 0: none) |
//! | 0x03 | STOP | none: decide now (a search answers at once; also a pin on the board) |
//! | 0x04 | CLEAR | none: empty the table and the killers |
//! | 0x05 | PING | none |
//!
//! The position: 32 bytes of squares a1..h8, two a byte (low nibble first; 0 empty, 1-6 a
//! white pawn..king, 9-14 black); flags (bit 0: Black to move, bit 1: Chess960); the castling
//! rooks' files, White short, White long, Black short, Black long (0xff: no right); the
//! en-passant square (0xff: none); the halfmove clock; the fullmove number (2 bytes).
//!
//! Replies (chip to host): 0x81 INFO (an iteration) and 0x82 BEST (the answer), both depth
//! (1), score (2, signed), nodes (8), clocks (8), then BEST a stopped flag (1), then the PV's
//! length (1) and moves (2 bytes each, the 16-bit move; BEST's first is the move to play, none
//! for a mated or stalemated root); 0x85 PONG; 0x8f ERROR with a code (1 byte, [`ErrorCode`]).
//! A bad frame (CRC, length, type, payload) or one cut short (no byte for the inter-byte
//! timeout) is answered with ERROR and forgotten: the chip goes on reading the next SYNC.

use super::{Limits, Machine, Report};
use chess::{Board, CastleSide, Color, Move, PieceKind, Square};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::Duration;

/// The first byte of every frame.
pub const SYNC: u8 = 0xa5;
/// The longest payload a frame may carry.
pub const MAX_PAYLOAD: usize = 1024;
/// History hashes a LOAD may carry.
pub const MAX_HISTORY: usize = 100;
/// Bytes of an encoded position.
pub const POSITION_BYTES: usize = 42;

const T_LOAD: u8 = 0x01;
const T_GO: u8 = 0x02;
const T_STOP: u8 = 0x03;
const T_CLEAR: u8 = 0x04;
const T_PING: u8 = 0x05;
const T_INFO: u8 = 0x81;
const T_BEST: u8 = 0x82;
const T_PONG: u8 = 0x85;
const T_ERROR: u8 = 0x8f;

/// A request from the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// The position to search and the hashes of the game before it.
    Load {
        /// The position.
        board: Board,
        /// Hashes of the earlier positions, oldest first.
        history: Vec<u64>,
    },
    /// Search within these limits (0: none).
    Go {
        /// Deepest iteration.
        depth: u8,
        /// Nodes.
        nodes: u64,
        /// Clocks.
        clocks: u64,
    },
    /// Decide now.
    Stop,
    /// Empty the table and the killers.
    Clear,
    /// Are you there?
    Ping,
}

/// Why the chip refused a frame or a request.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ErrorCode {
    /// The CRC does not match.
    BadCrc = 1,
    /// The length is over [`MAX_PAYLOAD`].
    TooLong = 2,
    /// An unknown frame type.
    UnknownType = 3,
    /// The payload's size or content does not fit the type.
    BadPayload = 4,
    /// The frame stopped before its end (no byte for the inter-byte timeout).
    Truncated = 5,
    /// The position is not a legal chess position.
    BadPosition = 6,
    /// A LOAD, GO or CLEAR while a search runs.
    Busy = 7,
    /// GO before any LOAD.
    NoPosition = 8,
}

impl ErrorCode {
    fn from_byte(b: u8) -> Option<ErrorCode> {
        use ErrorCode::*;
        [
            BadCrc,
            TooLong,
            UnknownType,
            BadPayload,
            Truncated,
            BadPosition,
            Busy,
            NoPosition,
        ]
        .into_iter()
        .find(|c| *c as u8 == b)
    }
}

/// A reply from the chip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A completed iteration.
    Info(Report),
    /// The answer to a GO: the move to play (none when mated or stalemated) and the last
    /// iteration's figures, with the whole search's nodes and clocks.
    Best {
        /// The move.
        best: Option<Move>,
        /// Figures: depth and score of the last completed iteration, the search's nodes and
        /// clocks, its PV.
        report: Report,
        /// The budget or STOP ended the search early.
        stopped: bool,
    },
    /// Here.
    Pong,
    /// A refused frame or request.
    Error(ErrorCode),
}

/// CRC-8, polynomial 0x07, initial value 0.
pub fn crc8(bytes: &[u8]) -> u8 {
    let mut c = 0u8;
    for &b in bytes {
        c ^= b;
        for _ in 0..8 {
            c = if c & 0x80 != 0 { c << 1 ^ 0x07 } else { c << 1 };
        }
    }
    c
}

/// The little-endian `u64` at `at` of `p` (the caller has checked the length).
fn le_u64(p: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&p[at..at + 8]);
    u64::from_le_bytes(b)
}

/// A frame of `kind` carrying `payload`.
pub fn frame(kind: u8, payload: &[u8]) -> Vec<u8> {
    let len = payload.len() as u16;
    let mut body = vec![kind, len as u8, (len >> 8) as u8];
    body.extend_from_slice(payload);
    let crc = crc8(&body);
    let mut out = Vec::with_capacity(body.len() + 2);
    out.push(SYNC);
    out.extend_from_slice(&body);
    out.push(crc);
    out
}

fn piece_code(b: &Board, s: Square) -> u8 {
    match b.piece_on(s) {
        None => 0,
        Some(p) => 1 + p.kind.index() as u8 + if p.color == Color::Black { 8 } else { 0 },
    }
}

/// The 42 bytes of a position.
pub fn encode_position(b: &Board) -> [u8; POSITION_BYTES] {
    let mut out = [0u8; POSITION_BYTES];
    for (i, byte) in out[..32].iter_mut().enumerate() {
        let lo = piece_code(b, Square::new(2 * i as u8));
        let hi = piece_code(b, Square::new(2 * i as u8 + 1));
        *byte = lo | hi << 4;
    }
    out[32] = u8::from(b.side_to_move() == Color::Black) | u8::from(b.is_chess960()) << 1;
    let rooks = [
        (Color::White, CastleSide::Short),
        (Color::White, CastleSide::Long),
        (Color::Black, CastleSide::Short),
        (Color::Black, CastleSide::Long),
    ];
    for (i, (c, side)) in rooks.iter().enumerate() {
        out[33 + i] = b.castle_rook(*c, *side).map_or(0xff, |s| s.file());
    }
    out[37] = b.ep_square().map_or(0xff, |s| s.index() as u8);
    out[38] = b.halfmove_clock().min(255) as u8;
    let full = b.fullmove_number().min(u16::MAX as u32) as u16;
    out[39] = full as u8;
    out[40] = (full >> 8) as u8;
    out
}

/// The position of 42 bytes, checked legal (through the FEN reader); `None` if it is not.
pub fn decode_position(p: &[u8]) -> Option<Board> {
    decode_position_why(p).ok()
}

/// The position of 42 bytes, or why not: `Err(None)` for a byte out of its range (a piece
/// code, the flags, a castling file, the en-passant square), `Err(Some(e))` for what the FEN
/// reader refuses. Its field is 0 for the checks on attacks (the side not to move in check,
/// more than two checkers), which the host unit of the RTL leaves to the sequencer: every
/// other refusal the host unit makes itself (hw/host/).
pub fn decode_position_why(p: &[u8]) -> Result<Board, Option<chess::FenError>> {
    if p.len() != POSITION_BYTES {
        return Err(None);
    }
    let mut placement = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = rank * 8 + file;
            let code = p[sq / 2] >> (4 * (sq % 2)) & 15;
            if code == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                placement.push(char::from(b'0' + empty));
                empty = 0;
            }
            let kind = PieceKind::from_index(
                usize::from(code & 7)
                    .checked_sub(1)
                    .filter(|k| *k < 6)
                    .ok_or(None)?,
            );
            let ch = kind.char();
            placement.push(if code & 8 != 0 {
                ch
            } else {
                ch.to_ascii_uppercase()
            });
        }
        if empty > 0 {
            placement.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    if p[32] & !3 != 0 {
        return Err(None);
    }
    let side = if p[32] & 1 != 0 { "b" } else { "w" };
    let mut castling = String::new();
    for (i, upper) in [(33, true), (34, true), (35, false), (36, false)] {
        match p[i] {
            0xff => {}
            f @ 0..=7 => {
                let c = char::from(b'a' + f);
                castling.push(if upper { c.to_ascii_uppercase() } else { c });
            }
            _ => return Err(None),
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let ep = match p[37] {
        0xff => "-".to_string(),
        s @ 0..=63 => format!("{}", Square::new(s)),
        _ => return Err(None),
    };
    let full = u16::from(p[39]) | u16::from(p[40]) << 8;
    let fen = format!(
        "{placement} {side} {castling} {ep} {} {}",
        p[38],
        full.max(1)
    );
    let mut b = Board::from_fen(&fen).map_err(Some)?;
    b.set_chess960(p[32] & 2 != 0);
    Ok(b)
}

impl Request {
    /// The request's frame.
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Request::Load { board, history } => {
                let mut p = encode_position(board).to_vec();
                for h in history {
                    p.extend_from_slice(&h.to_le_bytes());
                }
                frame(T_LOAD, &p)
            }
            Request::Go {
                depth,
                nodes,
                clocks,
            } => {
                let mut p = vec![*depth];
                p.extend_from_slice(&nodes.to_le_bytes());
                p.extend_from_slice(&clocks.to_le_bytes());
                frame(T_GO, &p)
            }
            Request::Stop => frame(T_STOP, &[]),
            Request::Clear => frame(T_CLEAR, &[]),
            Request::Ping => frame(T_PING, &[]),
        }
    }

    fn decode(kind: u8, p: &[u8]) -> Result<Request, ErrorCode> {
        let empty = |r: Request| {
            if p.is_empty() {
                Ok(r)
            } else {
                Err(ErrorCode::BadPayload)
            }
        };
        match kind {
            T_LOAD => {
                let rest = p.get(POSITION_BYTES..).ok_or(ErrorCode::BadPayload)?;
                if rest.len() % 8 != 0 || rest.len() / 8 > MAX_HISTORY {
                    return Err(ErrorCode::BadPayload);
                }
                let board = decode_position(&p[..POSITION_BYTES]).ok_or(ErrorCode::BadPosition)?;
                let history = (0..rest.len() / 8).map(|i| le_u64(rest, 8 * i)).collect();
                Ok(Request::Load { board, history })
            }
            T_GO => {
                if p.len() != 17 {
                    return Err(ErrorCode::BadPayload);
                }
                Ok(Request::Go {
                    depth: p[0],
                    nodes: le_u64(p, 1),
                    clocks: le_u64(p, 9),
                })
            }
            T_STOP => empty(Request::Stop),
            T_CLEAR => empty(Request::Clear),
            T_PING => empty(Request::Ping),
            _ => Err(ErrorCode::UnknownType),
        }
    }
}

fn report_bytes(r: &Report, stopped: Option<bool>, pv: &[Move]) -> Vec<u8> {
    let mut p = vec![r.depth.min(255) as u8];
    p.extend_from_slice(&(r.score as i16).to_le_bytes());
    p.extend_from_slice(&r.nodes.to_le_bytes());
    p.extend_from_slice(&r.clocks.to_le_bytes());
    if let Some(s) = stopped {
        p.push(u8::from(s));
    }
    let pv = &pv[..pv.len().min(255)];
    p.push(pv.len() as u8);
    for m in pv {
        p.extend_from_slice(&m.raw().to_le_bytes());
    }
    p
}

impl Reply {
    /// The reply's frame.
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Reply::Info(r) => frame(T_INFO, &report_bytes(r, None, &r.pv)),
            Reply::Best {
                best,
                report,
                stopped,
            } => {
                // The PV sent starts with the move to play.
                let mut pv: Vec<Move> = best.iter().copied().collect();
                if best.is_some() && report.pv.first() == best.as_ref() {
                    pv.extend_from_slice(&report.pv[1..]);
                }
                frame(T_BEST, &report_bytes(report, Some(*stopped), &pv))
            }
            Reply::Pong => frame(T_PONG, &[]),
            Reply::Error(c) => frame(T_ERROR, &[*c as u8]),
        }
    }

    fn decode(kind: u8, p: &[u8]) -> Option<Reply> {
        let report = |p: &[u8], stopped: bool| -> Option<(Report, Option<bool>)> {
            let fixed = 19 + usize::from(stopped);
            let head = p.get(..fixed)?;
            let n = usize::from(*p.get(fixed)?);
            let moves = p.get(fixed + 1..)?;
            if moves.len() != 2 * n {
                return None;
            }
            let pv = moves
                .chunks(2)
                .map(|c| Move::from_raw(u16::from_le_bytes([c[0], c[1]])))
                .collect();
            Some((
                Report {
                    depth: u32::from(head[0]),
                    score: i32::from(i16::from_le_bytes([head[1], head[2]])),
                    nodes: le_u64(head, 3),
                    clocks: le_u64(head, 11),
                    pv,
                },
                stopped.then(|| head[19] != 0),
            ))
        };
        match kind {
            T_INFO => report(p, false).map(|(r, _)| Reply::Info(r)),
            T_BEST => report(p, true).map(|(r, s)| Reply::Best {
                best: r.pv.first().copied(),
                report: r,
                stopped: s.unwrap_or(false),
            }),
            T_PONG => p.is_empty().then_some(Reply::Pong),
            T_ERROR => match p {
                [c] => ErrorCode::from_byte(*c).map(Reply::Error),
                _ => None,
            },
            _ => None,
        }
    }
}

/// What the frame reader gives for each frame it finishes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Framed {
    /// A whole frame with a good CRC: its type and payload.
    Frame(u8, Vec<u8>),
    /// A bad frame, forgotten.
    Bad(ErrorCode),
}

/// The frame reader, one byte at a time (the UART receiver's state machine).
#[derive(Default)]
pub struct FrameReader {
    state: ReadState,
    kind: u8,
    len: usize,
    body: Vec<u8>,
}

#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum ReadState {
    #[default]
    Sync,
    Kind,
    LenLo,
    LenHi,
    Payload,
    Crc,
}

impl FrameReader {
    /// Takes one byte; returns a finished frame or a refused one.
    pub fn push(&mut self, byte: u8) -> Option<Framed> {
        use ReadState::*;
        match self.state {
            Sync => {
                if byte == SYNC {
                    self.state = Kind;
                    self.body.clear();
                }
                None
            }
            Kind => {
                self.kind = byte;
                self.body.push(byte);
                self.state = LenLo;
                None
            }
            LenLo => {
                self.len = usize::from(byte);
                self.body.push(byte);
                self.state = LenHi;
                None
            }
            LenHi => {
                self.len |= usize::from(byte) << 8;
                self.body.push(byte);
                if self.len > MAX_PAYLOAD {
                    self.state = Sync;
                    return Some(Framed::Bad(ErrorCode::TooLong));
                }
                self.state = if self.len == 0 { Crc } else { Payload };
                None
            }
            Payload => {
                self.body.push(byte);
                if self.body.len() == 3 + self.len {
                    self.state = Crc;
                }
                None
            }
            Crc => {
                self.state = Sync;
                if crc8(&self.body) != byte {
                    return Some(Framed::Bad(ErrorCode::BadCrc));
                }
                Some(Framed::Frame(self.kind, self.body[3..].to_vec()))
            }
        }
    }

    /// The inter-byte timeout passed with no byte: a frame under way is cut short.
    pub fn timeout(&mut self) -> Option<Framed> {
        let cut = self.state != ReadState::Sync;
        self.state = ReadState::Sync;
        cut.then_some(Framed::Bad(ErrorCode::Truncated))
    }
}

/// What the chip does with a frame: its request handling apart from the search. The model
/// (`serve_model`) and the RTL's host unit (hw/host/) both follow it, one action a frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Send this reply (PONG, or ERROR for a refused frame or request).
    Reply(Reply),
    /// Carry out this request: LOAD, GO, STOP or CLEAR (never PING, which is answered).
    Carry(Request),
}

/// The host interface's state: whether a position was ever loaded.
#[derive(Default)]
pub struct Host {
    loaded: bool,
}

impl Host {
    /// The action for a finished frame, given whether a search runs. The order of the checks
    /// is the chip's: the frame, the payload, then PING and STOP (served during a search),
    /// then busy, then GO without a position. A LOAD whose position fails only the checks on
    /// attacks is refused as Busy during a search: the chip makes those checks on the move
    /// generator, which the search holds (hw/chip/loader.v).
    pub fn on(&mut self, framed: Framed, busy: bool) -> Action {
        let (kind, payload) = match framed {
            Framed::Bad(e) => return Action::Reply(Reply::Error(e)),
            Framed::Frame(k, p) => (k, p),
        };
        let request = match Request::decode(kind, &payload) {
            Ok(r) => r,
            Err(ErrorCode::BadPosition) if busy && attacks_refused(&payload) => {
                return Action::Reply(Reply::Error(ErrorCode::Busy))
            }
            Err(e) => return Action::Reply(Reply::Error(e)),
        };
        match request {
            Request::Ping => Action::Reply(Reply::Pong),
            Request::Stop => Action::Carry(request),
            _ if busy => Action::Reply(Reply::Error(ErrorCode::Busy)),
            Request::Go { .. } if !self.loaded => {
                Action::Reply(Reply::Error(ErrorCode::NoPosition))
            }
            Request::Load { .. } => {
                self.loaded = true;
                Action::Carry(request)
            }
            Request::Go { .. } | Request::Clear => Action::Carry(request),
        }
    }
}

/// True when a LOAD payload's position is refused only by the checks on attacks (the side not
/// to move in check, more than two checkers).
fn attacks_refused(payload: &[u8]) -> bool {
    payload.len() >= POSITION_BYTES
        && matches!(decode_position_why(&payload[..POSITION_BYTES]), Err(Some(e)) if e.field == 0)
}

/// Decodes the chip's replies from a byte stream (the host's side).
#[derive(Default)]
pub struct ReplyReader(FrameReader);

impl ReplyReader {
    /// Takes one byte; returns a reply when one is complete, or `Err` for a frame that is not
    /// a valid reply.
    pub fn push(&mut self, byte: u8) -> Option<Result<Reply, ErrorCode>> {
        match self.0.push(byte)? {
            Framed::Frame(kind, p) => Some(Reply::decode(kind, &p).ok_or(ErrorCode::BadPayload)),
            Framed::Bad(e) => Some(Err(e)),
        }
    }
}

/// The model behind the protocol: reads request bytes from `rx`, answers on `tx`, searches
/// on `machine` in a thread of its own so that STOP is read during a search, and returns when
/// `rx` closes. `timeout` is the inter-byte timeout.
pub fn serve_model(machine: Machine, rx: Receiver<u8>, tx: Sender<Vec<u8>>, timeout: Duration) {
    let stop: Arc<AtomicBool> = machine.stop_line();
    let machine = Arc::new(std::sync::Mutex::new(machine));
    let busy = Arc::new(AtomicBool::new(false));
    let mut host = Host::default();
    let mut search: Option<std::thread::JoinHandle<()>> = None;
    let mut reader = FrameReader::default();
    loop {
        let framed = match rx.recv_timeout(timeout) {
            Ok(b) => reader.push(b),
            Err(RecvTimeoutError::Timeout) => reader.timeout(),
            Err(RecvTimeoutError::Disconnected) => break,
        };
        let Some(framed) = framed else { continue };
        match host.on(framed, busy.load(Ordering::Acquire)) {
            Action::Reply(r) => {
                let _ = tx.send(r.encode());
            }
            Action::Carry(Request::Stop) => stop.store(true, Ordering::Relaxed),
            Action::Carry(Request::Clear) => {
                if let Ok(mut m) = machine.lock() {
                    m.clear();
                }
            }
            Action::Carry(Request::Load { board, history }) => {
                if let Ok(mut m) = machine.lock() {
                    m.load_hashes(&board, &history);
                }
            }
            Action::Carry(Request::Ping) => {}
            Action::Carry(Request::Go {
                depth,
                nodes,
                clocks,
            }) => {
                if let Some(h) = search.take() {
                    let _ = h.join();
                }
                let limits = Limits::of_go(depth, nodes, clocks);
                stop.store(false, Ordering::Relaxed);
                busy.store(true, Ordering::Release);
                let (machine, busy, tx) = (machine.clone(), busy.clone(), tx.clone());
                search = Some(std::thread::spawn(move || {
                    let mut m = match machine.lock() {
                        Ok(m) => m,
                        Err(e) => e.into_inner(),
                    };
                    let out = m.go(limits, |r: &Report| {
                        let _ = tx.send(Reply::Info(r.clone()).encode());
                    });
                    let mut report = out.report;
                    report.nodes = out.nodes;
                    report.clocks = out.clocks;
                    busy.store(false, Ordering::Release);
                    let _ = tx.send(
                        Reply::Best {
                            best: out.best,
                            report,
                            stopped: out.stopped,
                        }
                        .encode(),
                    );
                }));
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    if let Some(h) = search {
        let _ = h.join();
    }
}

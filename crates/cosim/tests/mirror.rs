//! Co-simulation of the search machine's mirror of the position (hw/chip/mirror.v) against the
//! chess crate, at every node of game trees: after each LOAD, MAKE, NULL and UNMAKE, the hash
//! (two clocks after the command) is `Board::hash`, the halfmove clock, side, castling rights
//! and en-passant file are the board's, and the MAKE and UNMAKE words the mirror forms for
//! each move are `cosim::movegen`'s (the words the generator is already checked with). Then
//! random walks with commands as close as they may come (every third clock), checked at
//! random points, and LOADs from the host protocol's bytes with the FEN reader's rules.

mod common;

use chess::{Board, GenMode, Move, MoveList, Position};
use common::simulator_present;
use cosim::mirror::{Command, MirrorSim};
use cosim::movegen::{make_word, unmake_word};
use hw::chip::protocol::encode_position;

const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // Chess960: castling rooks beside and behind the king.
    "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

fn board_of(fen: &str) -> Board {
    let mut b = Board::from_fen(fen).expect(fen);
    b.set_chess960(fen.contains("HFhf") || fen.starts_with("1r4kr"));
    b
}

/// The mirror's state against the board's.
fn check(sim: &mut MirrorSim, b: &Board, what: &str) {
    let s = sim.state();
    assert_eq!(s.hash, b.hash(), "hash after {what}: {}", b.to_fen());
    assert_eq!(u32::from(s.halfmove), b.halfmove_clock().min(255), "{what}");
    assert_eq!(s.black, b.side_to_move() == chess::Color::Black, "{what}");
    assert_eq!(
        s.rights,
        b.castle_bits(),
        "rights after {what}: {}",
        b.to_fen()
    );
    let ep = b.ep_square().map_or(8, |e| e.index() as u8 & 7);
    assert_eq!(s.ep_file, ep, "ep after {what}: {}", b.to_fen());
}

/// Every line of the tree to `depth`, null moves too (not in check): the words of every move
/// before it is made, the state after every command. Returns the nodes.
fn walk(sim: &mut MirrorSim, pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate_into(GenMode::All, &mut list);
    let mut n = 1;
    for &m in list.iter() {
        let before = *pos.board();
        let (mw, uw) = sim.command(Command::Make, m.raw());
        assert_eq!(
            mw,
            make_word(&before, m),
            "make word of {m:?} in {}",
            before.to_fen()
        );
        assert_eq!(uw, unmake_word(&before, Some(m)), "unmake word of {m:?}");
        pos.make(m);
        sim.tick(1);
        check(sim, pos.board(), &format!("{m:?}"));
        assert_eq!(sim.state().undo_word, unmake_word(&before, Some(m)));
        n += walk(sim, pos, depth - 1);
        sim.command(Command::Unmake, 0);
        assert!(pos.unmake());
        check(sim, pos.board(), &format!("unmake {m:?}"));
    }
    if !pos.board().in_check() && depth >= 2 {
        let before = *pos.board();
        sim.command(Command::Null, 0);
        pos.make_null();
        sim.tick(1);
        check(sim, pos.board(), "null");
        assert_eq!(sim.state().undo_word, unmake_word(&before, None));
        n += walk(sim, pos, depth - 1);
        sim.command(Command::Unmake, 0);
        assert!(pos.unmake());
        check(sim, pos.board(), "unmake null");
    }
    n
}

#[test]
fn the_mirror_follows_the_board_through_game_trees() {
    if !simulator_present() {
        return;
    }
    let mut sim = MirrorSim::new().expect("simulator");
    let mut nodes = 0;
    let mut load_clocks = 0;
    for fen in FENS {
        let b = board_of(fen);
        let clocks = sim.load(&encode_position(&b)).expect("load");
        assert!(clocks <= 40, "LOAD took {clocks} clocks");
        load_clocks = load_clocks.max(clocks);
        check(&mut sim, &b, "load");
        let mut pos = Position::new(b);
        nodes += walk(&mut sim, &mut pos, 3);
        assert_eq!(sim.state().ply, 0);
    }
    eprintln!(
        "{nodes} nodes, {} clocks; LOAD busy for {load_clocks} clocks",
        sim.cycles()
    );
    assert!(nodes > 50_000);
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn commands_as_close_as_allowed_keep_the_hash() {
    if !simulator_present() {
        return;
    }
    // Random walks where each MAKE, NULL or UNMAKE follows the last as closely as it may: its
    // move on the input the two clocks after the last command, itself the clock after that.
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut sim = MirrorSim::new().expect("simulator");
    for fen in FENS {
        let b = board_of(fen);
        sim.load(&encode_position(&b)).expect("load");
        let mut pos = Position::new(b);
        let mut made = 0usize;
        for step in 0..3000 {
            let mut list = MoveList::new();
            pos.generate_into(GenMode::All, &mut list);
            let choice = rng.below(10);
            if made > 0 && (choice < 4 || list.is_empty() || made >= 60) {
                sim.command(Command::Unmake, 0);
                assert!(pos.unmake());
                made -= 1;
            } else if choice == 4 && !pos.board().in_check() {
                sim.command(Command::Null, 0);
                pos.make_null();
                made += 1;
            } else if !list.is_empty() {
                let m: Move = list[rng.below(list.len())];
                sim.command(Command::Make, m.raw());
                pos.make(m);
                made += 1;
            }
            if rng.below(3) == 0 {
                sim.tick(1);
                check(&mut sim, pos.board(), &format!("step {step}"));
            }
        }
    }
}

#[test]
fn loads_keep_the_fen_readers_castling_and_en_passant() {
    if !simulator_present() {
        return;
    }
    let mut sim = MirrorSim::new().expect("simulator");
    // En passant kept only where a pawn can take; castling rooks sorted by side of the king
    // (the bytes name files: a long-side file in the short slot still means long castling).
    let cases = [
        "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2",
        "rnbqkbnr/pppp1ppp/8/8/4p3/3P4/PPP1PPPP/RNBQKBNR b KQkq - 0 2",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 7 40",
        "r3k3/8/8/8/8/8/8/4K2R b Kq - 99 80",
    ];
    for fen in cases {
        let b = Board::from_fen(fen).expect(fen);
        sim.load(&encode_position(&b)).expect("load");
        check(&mut sim, &b, fen);
    }
    // The same position with the castling bytes swapped between the slots, and a double push
    // whose en passant no pawn can take (the FEN reader drops it).
    let b = Board::from_fen("r3k2r/8/8/8/4P3/8/8/R3K2R b KQkq e3 0 1").expect("fen");
    assert!(b.ep_square().is_none());
    let mut p = encode_position(&b);
    p.swap(33, 34);
    p[37] = 20;
    let back = hw::chip::protocol::decode_position(&p).expect("legal");
    assert_eq!(back.hash(), b.hash());
    sim.load(&p).expect("load");
    check(&mut sim, &b, "swapped slots");
}

//! Differential perft against Debian's Fairy-Stockfish on positions from random playouts.
//!
//! Fairy-Stockfish 11.1 (Debian) does not apply uchifuzume in `go perft`: it counts a pawn drop
//! that mates as a legal move (checked by hand on `8k/6G2/7S1/9/9/9/9/9/K8 b P 1`, where it
//! lists P*1b). Its count is therefore ours plus the number of mating pawn drops at the last
//! ply (a mated position has no moves, so such a drop adds nothing deeper). The test counts
//! those drops with our own generator and checks the sum.

mod common;

use common::{fairy_fen, fairy_stockfish, random_playouts};
use shogi::{perft, Color, MoveList, PieceKind, Position, Square};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Runs `go perft depth` in Fairy-Stockfish for each position; returns the node counts.
fn fairy_perft(exe: &std::path::Path, jobs: &[(Position, u32)]) -> Vec<u64> {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start fairy-stockfish");
    let mut input = String::from("uci\nsetoption name UCI_Variant value shogi\n");
    for (pos, d) in jobs {
        input.push_str(&format!("position fen {}\ngo perft {d}\n", fairy_fen(pos)));
    }
    input.push_str("quit\n");
    let mut stdin = child.stdin.take().expect("stdin");
    std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut counts = Vec::new();
    for line in out.lines().map_while(Result::ok) {
        if let Some(n) = line.strip_prefix("Nodes searched: ") {
            counts.push(n.trim().parse().expect("count"));
        }
    }
    let _ = child.wait();
    counts
}

/// Pawn drops that would mate (illegal by uchifuzume) at the last ply of a depth-`d` tree.
fn mating_pawn_drops(pos: &Position, d: u32) -> u64 {
    let mut list = MoveList::new();
    if d > 1 {
        pos.legal_moves(&mut list);
        return list
            .iter()
            .map(|&m| mating_pawn_drops(&pos.after(m), d - 1))
            .sum();
    }
    let us = pos.side_to_move();
    if !pos.hand(us).has(PieceKind::Pawn) || pos.in_check() {
        // In check, a pawn drop that mates would have to interpose; none here is adjacent
        // to both kings, so no uchifuzume interposition occurs in these tests.
        return 0;
    }
    let Some(k) = pos.king_square(us.flip()) else {
        return 0;
    };
    let to = match us {
        Color::Black if k.rank() < 8 => Square(k.0 + 9),
        Color::White if k.rank() > 0 => Square(k.0 - 9),
        _ => return 0,
    };
    let live = shogi::live_squares(us, PieceKind::Pawn).has(to);
    let nifu =
        (pos.pieces_of(us, PieceKind::Pawn).files() & shogi::Bitboard::from_square(to)).any();
    if pos.piece_at(to).is_none() && live && !nifu && pos.pawn_drop_mates(to) {
        1
    } else {
        0
    }
}

#[test]
fn perft_matches_fairy_stockfish_on_random_positions() {
    let Some(exe) = fairy_stockfish() else {
        return;
    };
    let mut jobs = Vec::new();
    let mut n = 0usize;
    random_playouts(0xFA1E, 40, 120, |p| {
        n += 1;
        if matches!(n % 7, 0) {
            let depth = if matches!(n % 5, 0) { 3 } else { 2 };
            jobs.push((p.clone(), depth));
        }
    });
    let theirs = fairy_perft(&exe, &jobs);
    assert_eq!(
        theirs.len(),
        jobs.len(),
        "fairy-stockfish answered {} of {} perfts",
        theirs.len(),
        jobs.len()
    );
    let mut checked = 0;
    for ((pos, d), &t) in jobs.iter().zip(&theirs) {
        let ours = perft(pos, *d) + mating_pawn_drops(pos, *d);
        assert_eq!(
            ours,
            t,
            "perft {d} of {} (FEN {})",
            pos.to_sfen(),
            fairy_fen(pos)
        );
        checked += 1;
    }
    assert!(checked >= 300, "only {checked} positions compared");
    eprintln!("compared {checked} positions with fairy-stockfish");
}

#[test]
fn startpos_matches_fairy_stockfish() {
    let Some(exe) = fairy_stockfish() else {
        return;
    };
    let counts = fairy_perft(&exe, &[(Position::startpos(), 3)]);
    assert_eq!(counts, vec![25_470]);
}

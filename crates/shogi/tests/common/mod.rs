//! Helpers shared by the integration tests: random playouts and the Fairy-Stockfish FEN form
//! of a position.

#![allow(dead_code)]

use chess::rng::Rng;
use shogi::{Color, MoveList, Position, HAND_KINDS};

/// Positions along random games from the start: captures and checks are favoured so that
/// hands fill up and drops, promotions and evasions are common. Calls `f` on every position.
pub fn random_playouts(seed: u64, games: usize, max_plies: usize, mut f: impl FnMut(&Position)) {
    // xorshift64*: the positions compared with Fairy-Stockfish's counts come from this sequence.
    let mut rng = Rng::xorshift64_star(seed | 1);
    let mut list = MoveList::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..max_plies {
            f(&pos);
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            // Prefer captures and checks half of the time.
            let m = if rng.below(2) == 0 {
                let pick: Vec<_> = list
                    .iter()
                    .copied()
                    .filter(|&m| !m.is_drop() && pos.piece_at(m.to()).is_some())
                    .collect();
                if pick.is_empty() {
                    list[rng.below(list.len())]
                } else {
                    pick[rng.below(pick.len())]
                }
            } else {
                list[rng.below(list.len())]
            };
            pos.play(m);
        }
    }
}

/// Fairy-Stockfish's FEN for shogi: the SFEN board, the hands in brackets (upper case for
/// the first player, one letter per piece), and `w` for the first player to move.
pub fn fairy_fen(pos: &Position) -> String {
    let sfen = pos.to_sfen();
    let board = sfen.split(' ').next().unwrap_or("");
    let mut hand = String::new();
    for c in [Color::Black, Color::White] {
        for k in HAND_KINDS {
            for _ in 0..pos.hand(c).count(k) {
                let l = k.letter();
                hand.push(if c == Color::Black {
                    l
                } else {
                    l.to_ascii_lowercase()
                });
            }
        }
    }
    let side = if pos.side_to_move() == Color::Black {
        "w"
    } else {
        "b"
    };
    format!("{board}[{hand}] {side} - - 0 1")
}

/// Path of Debian's fairy-stockfish if installed. Under CI its absence is an error.
pub fn fairy_stockfish() -> Option<std::path::PathBuf> {
    for p in ["/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish"] {
        let p = std::path::PathBuf::from(p);
        if p.exists() {
            return Some(p);
        }
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join("fairy-stockfish");
            if p.exists() {
                return Some(p);
            }
        }
    }
    if std::env::var_os("CI").is_some() {
        panic!("fairy-stockfish is not installed but CI is set: .ci/run must install it (apt-get install fairy-stockfish)");
    }
    eprintln!("note: fairy-stockfish not found; skipping the comparison (apt-get install fairy-stockfish)");
    None
}

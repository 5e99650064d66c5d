//! Self-play: the engine against itself at a fixed node count per move from random openings,
//! with adjudication, for training data (`estuary datagen`, `estuary texel gen`); and the
//! rules' verdict on a finished game ([`game_over`]), which `estuary play` shares.
//!
//! A game starts from `random_plies` random moves after the start position and plays `nodes`
//! a move. It ends by the rules, at 400 plies, or by adjudication: a win when the score stays
//! beyond 1000 for 8 plies in a row, a draw when it stays within 10 for 20 plies after ply 80.
//! Its samples are the quiet positions (side to move not in check, the engine's move not a
//! capture or promotion, |score| below 2500) with the search score from White's side.

use crate::{Event, Job, Limits, Listener, ThreadPool};
use chess::rng::Rng;
use chess::{Board, Color, Move, Position};
use std::sync::{Arc, Mutex};

/// How a game ended, if it did.
pub fn game_over(pos: &Position) -> Option<(&'static str, String)> {
    if !pos.has_legal_move() {
        return Some(if pos.in_check() {
            if pos.side_to_move() == Color::White {
                ("0-1", "Black mates".into())
            } else {
                ("1-0", "White mates".into())
            }
        } else {
            ("1/2-1/2", "stalemate".into())
        });
    }
    if pos.halfmove_clock() >= 100 {
        return Some(("1/2-1/2", "fifty-move rule".into()));
    }
    if pos.repetitions() >= 2 {
        return Some(("1/2-1/2", "threefold repetition".into()));
    }
    if pos.is_insufficient_material() {
        return Some(("1/2-1/2", "insufficient material".into()));
    }
    None
}

/// One self-play game's training positions.
pub struct Game {
    /// Quiet positions: FEN and the search score from White's side.
    pub samples: Vec<(String, i32)>,
    /// The result from White's side: 1.0, 0.5 or 0.0.
    pub result: f32,
    /// Plies played.
    pub plies: usize,
}

/// Plays the engine against itself on a one-thread pool (16 MB table).
pub struct SelfPlay {
    pool: ThreadPool,
    slot: Arc<Mutex<(Move, i32)>>,
    listener: Listener,
}

impl SelfPlay {
    /// A fresh player.
    pub fn new() -> SelfPlay {
        let slot = Arc::new(Mutex::new((Move::NULL, 0)));
        let s2 = slot.clone();
        let listener: Listener = Arc::new(move |_: &Board, ev: Event| {
            if let Event::BestMove { best, score, .. } = ev {
                if let Ok(mut s) = s2.lock() {
                    *s = (best, score);
                }
            }
        });
        SelfPlay {
            pool: ThreadPool::new(1, 16, device::SoftwareDevice::default),
            slot,
            listener,
        }
    }

    /// One game: `random_plies` random moves from the start position, then `nodes` a move,
    /// with the adjudication of the module's description. Returns the quiet positions (side
    /// to move not in check, the engine's move not a capture or promotion, |score| < 2500),
    /// or `None` when the random opening already ended the game.
    pub fn play(&self, rng: &mut Rng, random_plies: usize, nodes: u64) -> Option<Game> {
        self.pool.clear();
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..random_plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                return None;
            }
            let m = legal[rng.below(legal.len())];
            pos.make(m);
            moves.push(m);
        }
        if game_over(&pos).is_some() {
            return None;
        }
        let mut samples = Vec::new();
        let (mut win_run, mut win_side, mut draw_run) = (0, 0, 0);
        let result = loop {
            if let Some((r, _)) = game_over(&pos) {
                break match r {
                    "1-0" => 1.0,
                    "0-1" => 0.0,
                    _ => 0.5,
                };
            }
            if pos.ply() >= 400 {
                break 0.5;
            }
            let job = Job {
                start: Board::startpos(),
                moves: moves.clone(),
                limits: Limits::nodes(nodes),
                multipv: 1,
                move_overhead: 0,
                listener: self.listener.clone(),
                tt: self.pool.tt().clone(),
            };
            self.pool.search_sync(job);
            let (m, score) = self.slot.lock().map(|s| *s).unwrap_or((Move::NULL, 0));
            if m == Move::NULL {
                break 0.5;
            }
            let white = if pos.side_to_move() == Color::White {
                score
            } else {
                -score
            };
            if white.abs() > 1000 {
                let side = white.signum();
                win_run = if side == win_side { win_run + 1 } else { 1 };
                win_side = side;
                if win_run >= 8 {
                    break if side > 0 { 1.0 } else { 0.0 };
                }
            } else {
                win_run = 0;
            }
            if pos.ply() >= 80 && white.abs() <= 10 {
                draw_run += 1;
                if draw_run >= 20 {
                    break 0.5;
                }
            } else {
                draw_run = 0;
            }
            if !pos.in_check() && !m.is_tactical() && white.abs() < 2500 {
                samples.push((pos.to_fen(), white));
            }
            pos.make(m);
            moves.push(m);
        };
        Some(Game {
            samples,
            result,
            plies: pos.ply(),
        })
    }
}

impl Default for SelfPlay {
    fn default() -> Self {
        SelfPlay::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_over_knows_mate_stalemate_and_the_draw_rules() {
        let at = |fen: &str| game_over(&Position::from_fen(fen).expect("test FEN")).map(|g| g.0);
        assert_eq!(at("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), Some("1-0"));
        assert_eq!(at("7k/8/6QK/8/8/8/8/8 b - - 0 1"), Some("1/2-1/2"));
        assert_eq!(at("7k/8/6K1/8/8/8/8/6R1 b - - 100 80"), Some("1/2-1/2"));
        assert_eq!(at("7k/8/6K1/8/8/8/8/6N1 b - - 0 1"), Some("1/2-1/2"));
        assert_eq!(at(chess::STARTPOS), None);
    }

    #[test]
    fn self_play_is_reproducible_and_samples_quiet_positions() {
        let player = SelfPlay::new();
        let game = |seed| player.play(&mut Rng::new(seed), 8, 300);
        let (a, b) = (game(7), game(7));
        let (a, b) = (a.expect("a game"), b.expect("a game"));
        assert_eq!(a.samples, b.samples);
        assert!(a.result == 0.0 || a.result == 0.5 || a.result == 1.0);
        assert!(!a.samples.is_empty() && a.plies > 8);
        for (fen, score) in &a.samples {
            let p = Position::from_fen(fen).expect("a sample FEN");
            assert!(!p.in_check() && score.abs() < 2500, "{fen} {score}");
        }
    }
}

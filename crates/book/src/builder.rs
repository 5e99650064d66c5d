//! Building a book from games: each (position, move) of the first plies of each game's main
//! line is counted once per game, with points from the game's result for the side that moved;
//! moves played in enough games become entries weighted by their points.
//!
//! The weight rule: a move earns 2 points in each game that the side that played it won, 1 in
//! each draw or unfinished game (`*`) and 0 in each loss. Its weight is the sum of its points.
//! Where a position's largest sum is above 65,535 (a weight's 16 bits), all of that position's
//! weights are scaled down in proportion, a move with any points keeping at least 1. A move
//! that only lost keeps an entry of weight 0: shown by a probe, never chosen.

use crate::book::Book;
use crate::entry::{encode_move, Entry};
use crate::key::polyglot_key;
use chess::pgn::{Game, GameResult};
use chess::Color;
use std::collections::{HashMap, HashSet};

/// What the games say of one (position, move).
#[derive(Copy, Clone, Default)]
struct Tally {
    games: u32,
    points: u64,
}

/// Counts games into a book; [`BookBuilder::finish`] makes the book.
pub struct BookBuilder {
    max_ply: usize,
    min_games: u32,
    games: usize,
    tallies: HashMap<(u64, u16), Tally>,
}

/// Points of a move by `mover` in a game that ended with `result` (see the module's rule).
fn points(result: GameResult, mover: Color) -> u64 {
    match result.winner() {
        Some(w) if w == mover => 2,
        Some(_) => 0,
        None => 1,
    }
}

impl BookBuilder {
    /// A builder counting the first `max_ply` plies of each game and keeping the moves played
    /// in at least `min_games` games (0 counts as 1).
    pub fn new(max_ply: usize, min_games: u32) -> BookBuilder {
        BookBuilder {
            max_ply,
            min_games: min_games.max(1),
            games: 0,
            tallies: HashMap::new(),
        }
    }

    /// Counts one game's main line.
    pub fn add_game(&mut self, game: &Game) {
        self.games += 1;
        let mut seen = HashSet::new();
        for (board, mv) in game.positions().take(self.max_ply) {
            let pair = (polyglot_key(&board), encode_move(mv));
            // A position repeated within a game counts that game once.
            if seen.insert(pair) {
                let t = self.tallies.entry(pair).or_default();
                t.games += 1;
                t.points += points(game.result, board.side_to_move());
            }
        }
    }

    /// Games counted so far.
    pub fn games(&self) -> usize {
        self.games
    }

    /// The book: an entry for each move played in at least `min_games` games, sorted.
    pub fn finish(self) -> Book {
        let kept: Vec<((u64, u16), Tally)> = self
            .tallies
            .into_iter()
            .filter(|(_, t)| t.games >= self.min_games)
            .collect();
        let mut most: HashMap<u64, u64> = HashMap::new();
        for ((key, _), t) in &kept {
            let m = most.entry(*key).or_default();
            *m = (*m).max(t.points);
        }
        let entries = kept
            .into_iter()
            .map(|((key, raw_move), t)| Entry {
                key,
                raw_move,
                weight: scaled_weight(t.points, most[&key]),
                learn: 0,
            })
            .collect();
        Book::from_entries(entries)
    }
}

/// `points` as a 16-bit weight, scaled by 65,535 / `most` when `most` is above 65,535, and
/// at least 1 when `points` is not 0.
fn scaled_weight(points: u64, most: u64) -> u16 {
    let max = u64::from(u16::MAX);
    let w = if most <= max {
        points
    } else {
        ((u128::from(points) * u128::from(max) + u128::from(most) / 2) / u128::from(most)) as u64
    };
    let w = if points > 0 { w.max(1) } else { 0 };
    w.min(max) as u16
}

/// A book of `games`: their first `max_ply` plies, the moves played in at least `min_games`
/// of them, weighted by the rule of this module.
pub fn build<'a>(
    games: impl IntoIterator<Item = &'a Game>,
    max_ply: usize,
    min_games: u32,
) -> Book {
    let mut b = BookBuilder::new(max_ply, min_games);
    for g in games {
        b.add_game(g);
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_fit_in_16_bits_and_keep_their_order() {
        assert_eq!(scaled_weight(0, 10), 0);
        assert_eq!(scaled_weight(7, 10), 7);
        assert_eq!(scaled_weight(65_535, 65_535), 65_535);
        assert_eq!(scaled_weight(200_000, 200_000), 65_535);
        assert_eq!(scaled_weight(100_000, 200_000), 32_768);
        assert_eq!(
            scaled_weight(1, 1_000_000),
            1,
            "a move with points keeps weight 1"
        );
        assert_eq!(scaled_weight(0, 1_000_000), 0);
    }

    #[test]
    fn points_by_result_and_mover() {
        assert_eq!(points(GameResult::WhiteWins, Color::White), 2);
        assert_eq!(points(GameResult::WhiteWins, Color::Black), 0);
        assert_eq!(points(GameResult::BlackWins, Color::Black), 2);
        assert_eq!(points(GameResult::Draw, Color::White), 1);
        assert_eq!(points(GameResult::Unknown, Color::Black), 1);
    }
}

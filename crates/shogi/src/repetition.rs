//! Sennichite: a game record that detects the fourfold repetition and the rule that the side
//! giving perpetual check loses.

use crate::moves::Move;
use crate::position::Position;
use crate::types::Color;

/// The outcome of a fourfold repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sennichite {
    /// An ordinary repetition: the game is drawn.
    Draw,
    /// One side checked on every move of the cycle: that side loses.
    PerpetualCheckBy(Color),
}

/// A position with the keys and check states of every position since the start.
#[derive(Clone, Debug)]
pub struct Game {
    pos: Position,
    /// (full key, side to move, side to move in check) per position, the current one last.
    history: Vec<(u64, Color, bool)>,
}

impl Game {
    /// A game starting at `pos`.
    pub fn new(pos: Position) -> Game {
        let history = vec![(pos.key(), pos.side_to_move(), pos.in_check())];
        Game { pos, history }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        self.pos.play(m);
        self.history
            .push((self.pos.key(), self.pos.side_to_move(), self.pos.in_check()));
    }

    /// How many times the current position has occurred, this time included.
    pub fn occurrences(&self) -> usize {
        let k = self.pos.key();
        self.history.iter().filter(|e| e.0 == k).count()
    }

    /// The sennichite verdict once the current position has occurred four times.
    pub fn sennichite(&self) -> Option<Sennichite> {
        let k = self.pos.key();
        let idx: Vec<usize> = (0..self.history.len())
            .filter(|&i| self.history[i].0 == k)
            .collect();
        if idx.len() < 4 {
            return None;
        }
        let first = idx[idx.len() - 4];
        let cycle = &self.history[first + 1..];
        for checker in [Color::Black, Color::White] {
            let victim = checker.flip();
            let all_checks = cycle.iter().filter(|e| e.1 == victim).all(|e| e.2);
            if all_checks {
                return Some(Sennichite::PerpetualCheckBy(checker));
            }
        }
        Some(Sennichite::Draw)
    }
}

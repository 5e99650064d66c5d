//! Playing weaker on purpose: `Skill Level`, `UCI_LimitStrength` and `UCI_Elo`.
//!
//! A level from 0 to 19 (20 is full strength) weakens the engine in two ways:
//!
//! - **fewer nodes**: each search stops after `500 x 1.45^level` nodes at most (500 at level
//!   0, about 20,000 at 10, 580,000 at 19), besides the usual clock;
//! - **a human-like choice**: the search looks at four lines or more (MultiPV), and the move
//!   played is drawn among the last completed iteration's lines with weight
//!   `exp(-(best score - line score) / T)`, `T = 15 x (20 - level)` centipawns (300 at level
//!   0, 15 at 19): near-equal moves are picked about as often as each other, a move a pawn
//!   worse often at low levels and almost never at high ones. The draw is seeded by the
//!   position and the number of searches so far in the session, so a scripted session plays
//!   the same moves every time.
//!
//! With `UCI_LimitStrength`, `UCI_Elo` (1000 to 2600) picks the level linearly
//! (`(Elo - 1000) / 80`, so 1000 is level 0 and 2600 full strength), and the weaker of that
//! and `Skill Level` applies. The Elo labels are **not calibrated** yet (docs/protocols.md).

use chess::rng::Rng;
use chess::Move;
use search::score::is_mate;

/// The level of full strength.
pub const MAX_LEVEL: u32 = 20;
/// The lowest `UCI_Elo`.
pub const MIN_ELO: u32 = 1000;
/// The highest `UCI_Elo` (full strength).
pub const MAX_ELO: u32 = 2600;
/// Lines searched (at least) when weakened, to choose among.
pub const CANDIDATES: usize = 4;

/// The strength options.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Strength {
    /// `Skill Level`, 0 to 20.
    pub skill_level: u32,
    /// `UCI_LimitStrength`.
    pub limit: bool,
    /// `UCI_Elo`.
    pub elo: u32,
}

impl Default for Strength {
    fn default() -> Strength {
        Strength {
            skill_level: MAX_LEVEL,
            limit: false,
            elo: MAX_ELO,
        }
    }
}

impl Strength {
    /// The level in force, or `None` at full strength.
    pub fn level(&self) -> Option<u32> {
        let mut level = self.skill_level.min(MAX_LEVEL);
        if self.limit {
            let elo = self.elo.clamp(MIN_ELO, MAX_ELO);
            level = level.min((elo - MIN_ELO) * MAX_LEVEL / (MAX_ELO - MIN_ELO));
        }
        (level < MAX_LEVEL).then_some(level)
    }
}

/// The most nodes a search may take at `level`.
pub fn node_cap(level: u32) -> u64 {
    (500.0 * 1.45f64.powi(level as i32)) as u64
}

/// The temperature of the choice at `level`, in centipawns.
pub fn temperature(level: u32) -> f64 {
    15.0 * f64::from(MAX_LEVEL.saturating_sub(level))
}

/// One line of the last completed iteration: its score and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Score from the side to move's view.
    pub score: i32,
    /// The line; its first move is the candidate.
    pub pv: Vec<Move>,
}

/// Draws the move to play among `lines` at `level` with the generator seeded by `seed`:
/// the index of the chosen line, or `None` with no line. A mate the engine has found is
/// always played (a weak player still sees a mate the search proved).
pub fn choose(lines: &[Candidate], level: u32, seed: u64) -> Option<usize> {
    let best = lines.iter().map(|c| c.score).max()?;
    if is_mate(best) && best > 0 {
        return lines.iter().position(|c| c.score == best);
    }
    let t = temperature(level).max(1.0);
    let weights: Vec<f64> = lines
        .iter()
        .map(|c| (-(f64::from(best) - f64::from(c.score)) / t).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut rng = Rng::new(seed | 1);
    let mut pick = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (i, w) in weights.iter().enumerate() {
        if pick < *w {
            return Some(i);
        }
        pick -= w;
    }
    Some(lines.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(scores: &[i32]) -> Vec<Candidate> {
        let b = chess::Board::startpos();
        let moves = b.legal_moves();
        scores
            .iter()
            .zip(moves.iter())
            .map(|(&score, &m)| Candidate { score, pv: vec![m] })
            .collect()
    }

    #[test]
    fn levels_from_the_options() {
        assert_eq!(Strength::default().level(), None);
        let s = |skill_level, limit, elo| Strength {
            skill_level,
            limit,
            elo,
        };
        assert_eq!(s(5, false, 1000).level(), Some(5));
        assert_eq!(s(20, true, 1000).level(), Some(0));
        assert_eq!(s(20, true, 1800).level(), Some(10));
        assert_eq!(s(3, true, 1800).level(), Some(3));
        assert_eq!(s(20, true, 2600).level(), None);
        assert_eq!(s(20, true, 99_999).level(), None);
        assert_eq!(s(20, true, 0).level(), Some(0));
        assert!(node_cap(0) == 500 && node_cap(19) > 500_000);
        assert!((1..20).all(|l| node_cap(l) > node_cap(l - 1)));
    }

    #[test]
    fn the_choice_is_seeded_and_weighed_by_score() {
        let four = lines(&[50, 40, -60, -400]);
        let count = |level| {
            let mut n = [0; 4];
            for seed in 0..4000 {
                n[choose(&four, level, seed).unwrap()] += 1;
            }
            n
        };
        let low = count(0);
        let high = count(19);
        // Level 0: the two near-equal moves about as often, the worse ones less, the
        // hopeless one least; level 19: almost always the best.
        assert!(
            low[0] > low[2] && low[1] > low[2] && low[2] > low[3],
            "{low:?}"
        );
        assert!(low[0] < 2 * low[1], "{low:?}");
        assert!(high[0] > 2000 && high[3] == 0, "{high:?}");
        assert_eq!(choose(&four, 3, 77), choose(&four, 3, 77));
        assert_eq!(choose(&[], 3, 77), None);
        // A mate found is played.
        let mate = lines(&[10, search::score::MATE - 3, 0]);
        assert!((0..100).all(|s| choose(&mate, 0, s) == Some(1)));
    }
}

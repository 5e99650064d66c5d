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
//! With `UCI_LimitStrength`, `UCI_Elo` picks the level from [`CALIBRATION`], the levels'
//! strengths measured against Stockfish 15.1 at its own `UCI_Elo` (docs/results/strength.md),
//! interpolated between the measured points, so the level may fall between two integers; the
//! weaker of that and `Skill Level` applies.

use chess::rng::Rng;
use chess::Move;
use search::score::is_mate;

/// The level of full strength.
pub const MAX_LEVEL: u32 = 20;
/// Lines searched (at least) when weakened, to choose among.
pub const CANDIDATES: usize = 4;

/// Levels and their strength on Stockfish 15.1's `UCI_Elo` scale, weakest first, linear
/// between the points: the straight line fitted to seven matches of levels 6 to 18.8 against
/// Stockfish at a `UCI_Elo` near each (5s+0.05s; 69.7 Elo a level, chi-square 2.1 over 5
/// degrees of freedom; the matches and the commands in docs/results/strength.md). Level 20,
/// full strength, is not on the line (about 2440, docs/results/engine-ladder.md): the four
/// lines a weakened search keeps cost it more than the draw among them, so the levels rise
/// evenly to about 2100 at 19 and full strength is a step above. Below level 6 (1210) the
/// line is extrapolated: Stockfish's scale stops at 1350.
pub const CALIBRATION: [(f64, u32); 2] = [(0.0, 790), (19.0, 2115)];
/// The lowest `UCI_Elo`: level 0.
pub const MIN_ELO: u32 = CALIBRATION[0].1;
/// The highest `UCI_Elo`: level 19, the strongest weakened level (full strength is
/// `UCI_LimitStrength` off).
pub const MAX_ELO: u32 = CALIBRATION[CALIBRATION.len() - 1].1;

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
    /// The level in force (0 to below 20), or `None` at full strength.
    pub fn level(&self) -> Option<f64> {
        let mut level = f64::from(self.skill_level.min(MAX_LEVEL));
        if self.limit {
            level = level.min(level_for_elo(self.elo));
        }
        (level < f64::from(MAX_LEVEL)).then_some(level)
    }
}

/// The level whose strength is `elo` on Stockfish's scale ([`CALIBRATION`], linear between
/// its points; clamped to the table's range, so never full strength).
pub fn level_for_elo(elo: u32) -> f64 {
    let e = f64::from(elo.clamp(MIN_ELO, MAX_ELO));
    for w in CALIBRATION.windows(2) {
        let ((l0, e0), (l1, e1)) = (w[0], w[1]);
        if e <= f64::from(e1) {
            return l0 + (l1 - l0) * (e - f64::from(e0)) / f64::from(e1 - e0);
        }
    }
    f64::from(MAX_LEVEL)
}

/// A level as `info string` shows it: `10`, or `13.4` between integers.
pub fn level_text(level: f64) -> String {
    if level.fract() == 0.0 {
        format!("{level}")
    } else {
        format!("{level:.1}")
    }
}

/// The most nodes a search may take at `level`.
pub fn node_cap(level: f64) -> u64 {
    (500.0 * 1.45f64.powf(level)) as u64
}

/// The temperature of the choice at `level`, in centipawns.
pub fn temperature(level: f64) -> f64 {
    15.0 * (f64::from(MAX_LEVEL) - level).max(0.0)
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
pub fn choose(lines: &[Candidate], level: f64, seed: u64) -> Option<usize> {
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
        assert_eq!(s(5, false, MIN_ELO).level(), Some(5.0));
        assert_eq!(s(20, true, MIN_ELO).level(), Some(0.0));
        assert_eq!(s(20, true, 0).level(), Some(0.0));
        assert_eq!(s(20, false, MAX_ELO).level(), None);
        assert_eq!(s(20, true, MAX_ELO).level(), Some(19.0));
        assert_eq!(s(20, true, 99_999).level(), Some(19.0));
        // Every point gives its level back; between two, the level is between.
        for &(level, elo) in &CALIBRATION {
            assert_eq!(s(20, true, elo).level(), Some(level));
        }
        let mid = s(20, true, (CALIBRATION[0].1 + CALIBRATION[1].1) / 2)
            .level()
            .unwrap();
        assert!(mid > CALIBRATION[0].0 && mid < CALIBRATION[1].0, "{mid}");
        assert_eq!(s(3, true, 1800).level(), Some(3.0));
        // The table rises, and so does the level with the label.
        assert!(CALIBRATION
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        assert!((MIN_ELO..MAX_ELO)
            .step_by(10)
            .all(|e| level_for_elo(e) <= level_for_elo(e + 10)));
        assert!(node_cap(0.0) == 500 && node_cap(19.0) > 500_000);
        assert!((1..20).all(|l| node_cap(f64::from(l)) > node_cap(f64::from(l - 1))));
        assert_eq!(
            (level_text(10.0), level_text(13.44)),
            ("10".into(), "13.4".into())
        );
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
        let low = count(0.0);
        let high = count(19.0);
        // Level 0: the two near-equal moves about as often, the worse ones less, the
        // hopeless one least; level 19: almost always the best.
        assert!(
            low[0] > low[2] && low[1] > low[2] && low[2] > low[3],
            "{low:?}"
        );
        assert!(low[0] < 2 * low[1], "{low:?}");
        assert!(high[0] > 2000 && high[3] == 0, "{high:?}");
        assert_eq!(choose(&four, 3.0, 77), choose(&four, 3.0, 77));
        assert_eq!(choose(&[], 3.0, 77), None);
        // A mate found is played.
        let mate = lines(&[10, search::score::MATE - 3, 0]);
        assert!((0..100).all(|s| choose(&mate, 0.0, s) == Some(1)));
    }
}

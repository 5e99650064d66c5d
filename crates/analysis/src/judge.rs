//! Judging a move by what it costs: the drop in the mover's expected score.
//!
//! A score `s` in centipawns (from the mover's view) is read as an expected score
//! `E(s) = 1 / (1 + exp(-s / 250))`, between 0 (a loss) and 1 (a win); a mate for the mover is
//! 1, a mate against them 0. A move that takes the mover from `E(before)` to `E(after)` drops
//! `E(before) - E(after)`, and is marked
//!
//! | drop | mark | NAG |
//! |---|---|---|
//! | 0.25 or more | `??` blunder | 4 |
//! | 0.14 or more | `?` mistake | 2 |
//! | 0.07 or more | `?!` inaccuracy | 6 |
//!
//! From an equal position that is about 3, 1.5 and 0.7 pawns; a move that keeps a won game won
//! (from +9 to +6, say) or a lost one lost costs little and is not marked, as a human annotator
//! would not mark it.

use search::score::{is_mate, MATE_BOUND};

/// Centipawns that make the expected score go from 0.5 to 1 / (1 + e^-1), about 0.73.
pub const SCALE_CP: f64 = 250.0;
/// The smallest drop marked `?!`.
pub const INACCURACY: f64 = 0.07;
/// The smallest drop marked `?`.
pub const MISTAKE: f64 = 0.14;
/// The smallest drop marked `??`.
pub const BLUNDER: f64 = 0.25;

/// What a move is judged to be.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// Not marked.
    Good,
    /// `?!`.
    Inaccuracy,
    /// `?`.
    Mistake,
    /// `??`.
    Blunder,
}

impl Judgement {
    /// The NAG a PGN file carries for it (`$6`, `$2`, `$4`); none for a good move.
    pub const fn nag(self) -> Option<u8> {
        match self {
            Judgement::Good => None,
            Judgement::Inaccuracy => Some(6),
            Judgement::Mistake => Some(2),
            Judgement::Blunder => Some(4),
        }
    }

    /// The suffix people write: `?!`, `?`, `??`, or nothing.
    pub const fn suffix(self) -> &'static str {
        match self {
            Judgement::Good => "",
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

/// The expected score (0 to 1) of a search score from the mover's view.
pub fn expected_score(score: i32) -> f64 {
    if is_mate(score) {
        if score >= MATE_BOUND {
            1.0
        } else {
            0.0
        }
    } else {
        1.0 / (1.0 + (-f64::from(score) / SCALE_CP).exp())
    }
}

/// Judges a move from the mover's score before it (the engine's score of the position the
/// move was played in) and after it (the engine's score of the position it led to, negated).
pub fn judge(before: i32, after: i32) -> Judgement {
    let drop = expected_score(before) - expected_score(after);
    if drop >= BLUNDER {
        Judgement::Blunder
    } else if drop >= MISTAKE {
        Judgement::Mistake
    } else if drop >= INACCURACY {
        Judgement::Inaccuracy
    } else {
        Judgement::Good
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use search::score::MATE;

    #[test]
    fn drops_from_equal_and_from_won_positions() {
        assert_eq!(judge(0, 0), Judgement::Good);
        assert_eq!(judge(0, -50), Judgement::Good);
        assert_eq!(judge(0, -80), Judgement::Inaccuracy);
        assert_eq!(judge(0, -160), Judgement::Mistake);
        assert_eq!(judge(0, -300), Judgement::Blunder);
        assert_eq!(judge(0, -900), Judgement::Blunder);
        // Getting mated, or letting a forced mate go for a merely good position.
        assert_eq!(judge(0, -MATE + 1), Judgement::Blunder);
        assert_eq!(judge(MATE - 3, 100), Judgement::Blunder);
        assert_eq!(judge(MATE - 3, 300), Judgement::Mistake);
        // Still winning, still losing: no mark. Better than the engine thought: no mark.
        assert_eq!(judge(900, 600), Judgement::Good);
        assert_eq!(judge(MATE - 1, 1200), Judgement::Good);
        assert_eq!(judge(-800, -1500), Judgement::Good);
        assert_eq!(judge(-100, 200), Judgement::Good);
    }

    #[test]
    fn the_expected_score_is_monotone_and_symmetric() {
        let mut last = 0.0;
        for s in (-3000..=3000).step_by(10) {
            let e = expected_score(s);
            assert!(e >= last && (0.0..=1.0).contains(&e));
            assert!((e + expected_score(-s) - 1.0).abs() < 1e-12);
            last = e;
        }
        assert_eq!(expected_score(MATE - 5), 1.0);
        assert_eq!(expected_score(-MATE), 0.0);
    }

    #[test]
    fn nags_and_suffixes() {
        assert_eq!(Judgement::Blunder.nag(), Some(4));
        assert_eq!(Judgement::Mistake.nag(), Some(2));
        assert_eq!(Judgement::Inaccuracy.nag(), Some(6));
        assert_eq!(Judgement::Good.nag(), None);
        assert_eq!(Judgement::Blunder.suffix(), "??");
    }
}

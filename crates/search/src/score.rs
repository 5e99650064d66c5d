//! Score constants and mate-score arithmetic.

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Larger than any score.
pub const INF: i32 = 32_001;
/// Score of delivering mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores at or beyond this are mates found by the search.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
/// Score of a draw.
pub const DRAW: i32 = 0;

/// True for scores that announce a mate for either side.
#[inline]
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Moves to mate for UCI (`mate N`): positive when the side to move mates, negative when mated.
pub fn mate_moves(score: i32) -> i32 {
    if score > 0 {
        (MATE - score + 1) / 2
    } else {
        -(MATE + score) / 2
    }
}

/// Converts a search score at `ply` into the node-relative form the TT stores.
#[inline]
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a TT score back to the search's root-relative form at `ply`.
#[inline]
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// UCI text for a score: `cp N` or `mate N`.
pub fn uci_score(score: i32) -> String {
    if is_mate(score) {
        format!("mate {}", mate_moves(score))
    } else {
        format!("cp {score}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip() {
        assert_eq!(mate_moves(MATE - 1), 1);
        assert_eq!(mate_moves(MATE - 3), 2);
        assert_eq!(mate_moves(-MATE + 2), -1);
        assert_eq!(mate_moves(-MATE), 0);
        for ply in [0, 5, 40] {
            for s in [MATE - 7, -MATE + 9, 35, -400] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
    }
}

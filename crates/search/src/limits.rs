//! What a search is asked to do (`go` parameters) and how long it may take.

use chess::{Color, Move};

/// The `go` command's limits. Times are in milliseconds and may be zero or negative.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// White's clock.
    pub wtime: Option<i64>,
    /// Black's clock.
    pub btime: Option<i64>,
    /// White's increment.
    pub winc: Option<i64>,
    /// Black's increment.
    pub binc: Option<i64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Maximum depth.
    pub depth: Option<i32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Exact time for this move.
    pub movetime: Option<i64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder: search until `ponderhit` (then the clock applies) or `stop`.
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(d: i32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// A fixed-time search.
    pub fn movetime(ms: i64) -> Limits {
        Limits {
            movetime: Some(ms),
            ..Limits::default()
        }
    }

    /// A fixed-node search.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// True when a clock or a move time bounds the search.
    pub fn use_time(&self) -> bool {
        self.movetime.is_some() || self.wtime.is_some() || self.btime.is_some()
    }
}

/// Time budget in milliseconds: `soft` is checked between iterations (scaled by best-move
/// stability), `hard` during the search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeBudget {
    /// Target time; no new iteration once it has passed.
    pub soft: Option<u64>,
    /// Absolute limit.
    pub hard: Option<u64>,
}

impl TimeBudget {
    /// Plans the time of one move for side `us`, leaving `overhead` ms for communication.
    pub fn plan(limits: &Limits, us: Color, overhead: u64) -> TimeBudget {
        if let Some(mt) = limits.movetime {
            let t = (mt.max(0) as u64).saturating_sub(overhead).max(1);
            return TimeBudget {
                soft: Some(t),
                hard: Some(t),
            };
        }
        let (time, inc) = match us {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return TimeBudget::default();
        };
        let time = time.max(0) as u64;
        let inc = inc.unwrap_or(0).max(0) as u64;
        // Besides the overhead of every move, a reserve of a few overheads is never planned
        // for: at small increments the clock otherwise settles just above the overhead in long
        // games, where one scheduling stall on a loaded machine loses on time.
        let reserve = overhead * 4;
        let avail = time.saturating_sub(overhead + reserve).max(1);
        let mtg = limits.movestogo.map_or(25, |m| m.clamp(1, 40)) as u64;
        let base = avail / mtg + inc * 3 / 4;
        let soft = base.min(avail * 6 / 10).max(1);
        let hard = (base * 3).min(avail * 8 / 10).max(soft);
        TimeBudget {
            soft: Some(soft),
            hard: Some(hard),
        }
    }
}

/// What the iterations so far say about the root, for deciding whether to start another.
#[derive(Copy, Clone, Debug, Default)]
pub struct IterationSignals {
    /// Completed iterations in a row that kept the best move (0: it has just changed).
    pub stable: i32,
    /// The best score of the last completed iteration.
    pub score: i32,
    /// The best score of the iteration before it (`None` after the first).
    pub prev_score: Option<i32>,
    /// How long the last completed iteration took (ms).
    pub last_ms: u64,
    /// How long the iteration before it took (ms; 0 if none).
    pub prev_ms: u64,
}

impl IterationSignals {
    /// The signals after one more completed iteration: whether it is the first, whether it
    /// kept the best move of the one before, its score, and how long it took (ms).
    pub fn next(&self, first: bool, kept: bool, score: i32, ms: u64) -> IterationSignals {
        IterationSignals {
            stable: if kept { (self.stable + 1).min(6) } else { 0 },
            score,
            prev_score: (!first).then_some(self.score),
            last_ms: ms,
            prev_ms: self.last_ms,
        }
    }
}

impl TimeBudget {
    /// The soft target scaled by what the iterations say: a stable best move needs less time;
    /// a fresh change of best move or a falling score earns more. Never above the hard limit.
    pub fn scaled_soft(&self, s: &IterationSignals) -> Option<u64> {
        let soft = self.soft?;
        let stability = [140, 110, 95, 85, 75, 65, 60][s.stable.clamp(0, 6) as usize];
        let falling = match s.prev_score {
            Some(prev) => 100 + (prev - s.score).clamp(-10, 50) as u64,
            None => 100,
        };
        let t = soft * stability / 100 * falling / 100;
        Some(self.hard.map_or(t, |h| t.min(h)).max(1))
    }

    /// Between iterations at `elapsed` ms: true when the scaled soft target has passed, or
    /// when the next iteration, predicted from the growth of the last two, would run into the
    /// hard limit and be cut off (its time mostly lost).
    pub fn stop_after_iteration(&self, elapsed: u64, s: &IterationSignals) -> bool {
        let Some(target) = self.scaled_soft(s) else {
            return false;
        };
        if elapsed >= target {
            return true;
        }
        let growth_pct = (s.last_ms * 100)
            .checked_div(s.prev_ms)
            .map_or(200, |g| g.clamp(150, 300));
        let next = s.last_ms * growth_pct / 100;
        self.hard.is_some_and(|h| elapsed + next > h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_are_within_the_clock() {
        let l = Limits {
            wtime: Some(1000),
            winc: Some(10),
            ..Limits::default()
        };
        let t = TimeBudget::plan(&l, Color::White, 20);
        assert!(t.soft.unwrap() < t.hard.unwrap() && t.hard.unwrap() < 980);
        // Zero and negative clocks still give a positive, tiny budget.
        for c in [0, -500] {
            let l = Limits {
                btime: Some(c),
                ..Limits::default()
            };
            let t = TimeBudget::plan(&l, Color::Black, 20);
            assert_eq!(t.hard, Some(1));
        }
        // movestogo 1 may use most, not all, of the clock.
        let l = Limits {
            wtime: Some(5000),
            movestogo: Some(1),
            ..Limits::default()
        };
        let t = TimeBudget::plan(&l, Color::White, 100);
        assert!(t.hard.unwrap() <= 4900 * 8 / 10 && t.soft.unwrap() >= 2000);
        // A long game at 1s+0.01s spending the hard limit on every move: the clock settles
        // above the overhead and its reserve instead of draining towards zero.
        let mut clock = 1000i64;
        for _ in 0..500 {
            let l = Limits {
                wtime: Some(clock),
                winc: Some(10),
                ..Limits::default()
            };
            clock -= TimeBudget::plan(&l, Color::White, 50).hard.unwrap() as i64;
            assert!(clock >= 200, "clock fell to {clock} ms");
            clock += 10;
        }
        // Move Overhead comes off a fixed move time.
        assert_eq!(
            TimeBudget::plan(&Limits::movetime(1000), Color::White, 50).hard,
            Some(950)
        );
    }

    #[test]
    fn iterations_stop_on_the_scaled_target_or_before_a_cut_off_one() {
        let t = TimeBudget {
            soft: Some(1000),
            hard: Some(3000),
        };
        let calm = IterationSignals {
            stable: 6,
            score: 30,
            prev_score: Some(30),
            last_ms: 100,
            prev_ms: 50,
        };
        let troubled = IterationSignals {
            stable: 0,
            score: -20,
            prev_score: Some(30),
            ..calm
        };
        let (a, b) = (
            t.scaled_soft(&calm).unwrap(),
            t.scaled_soft(&troubled).unwrap(),
        );
        assert!(a < 1000 && b > 1000 && b <= 3000, "{a} {b}");
        assert!(!t.stop_after_iteration(a - 1, &calm) && t.stop_after_iteration(a, &calm));
        // An iteration predicted to end past the hard limit is not started.
        let slow = IterationSignals {
            last_ms: 900,
            prev_ms: 400,
            ..troubled
        };
        assert!(t.stop_after_iteration(1200, &slow) && !t.stop_after_iteration(1200, &troubled));
        // No clock: only the other limits stop the search.
        assert!(!TimeBudget::default().stop_after_iteration(u64::MAX, &calm));
    }
}

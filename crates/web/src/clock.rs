//! The play page's game clocks: a time control (minutes + increment) counted down, or, in an
//! untimed game, the thinking time each side has used counted up. The clocks keep monotonic
//! time ([`Instant`]); every method is told the moment it acts at, so the tests can move
//! time forward without waiting.

use crate::error::ApiError;
use chess::Color;
use serde::Deserialize;
use serde_json::Value;
use std::time::{Duration, Instant};

/// The shortest and longest base time of a time control, ms (0.1 s to 3 hours).
pub const BASE_RANGE: (u64, u64) = (100, 3 * 3_600_000);
/// The largest increment, ms (3 minutes).
pub const MAX_INCREMENT: u64 = 180_000;

/// A game time control: each side has `base_ms` for the game and gains `increment_ms` after
/// each of its moves (Fischer).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Each side's time at the start, ms.
    pub base_ms: u64,
    /// Added to a side's clock after each of its moves, ms.
    pub increment_ms: u64,
}

impl TimeControl {
    /// The PGN `TimeControl` tag's value: seconds, `+`, increment seconds (`180+2`; a
    /// fraction of a second written as a decimal, `0.5+0`).
    pub fn pgn_tag(&self) -> String {
        format!("{}+{}", seconds(self.base_ms), seconds(self.increment_ms))
    }
}

/// Milliseconds as seconds, without a fraction when there is none.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_string()
    }
}

/// The `clock` of a new-game request: `{"base_ms": 180000, "increment_ms": 2000}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    /// Each side's time, ms: a number from 100 to 10,800,000.
    pub base_ms: Value,
    /// The increment, ms (default 0): a number from 0 to 180,000.
    #[serde(default)]
    pub increment_ms: Option<Value>,
}

impl ClockRequest {
    /// The time control asked for: 400 when a value is not a number, 422 when it is out of
    /// range (negative, or absurdly large).
    pub fn check(&self) -> Result<TimeControl, ApiError> {
        let base_ms = millis("clock.base_ms", &self.base_ms, BASE_RANGE)?;
        let increment_ms = match &self.increment_ms {
            None => 0,
            Some(v) => millis("clock.increment_ms", v, (0, MAX_INCREMENT))?,
        };
        Ok(TimeControl {
            base_ms,
            increment_ms,
        })
    }
}

/// A request's number of milliseconds, rounded, within `range`.
fn millis(name: &str, v: &Value, range: (u64, u64)) -> Result<u64, ApiError> {
    let Some(x) = v.as_f64() else {
        return Err(ApiError::bad_request(format!(
            "{name} must be a number of milliseconds, not {v}"
        )));
    };
    let (lo, hi) = range;
    if !(lo as f64..=hi as f64).contains(&x.round()) {
        return Err(ApiError::invalid(format!(
            "{name} must be {lo} to {hi} ms, not {v}"
        )));
    }
    Ok(x.round() as u64)
}

/// Both sides' clocks.
#[derive(Clone, Debug)]
pub struct GameClock {
    /// The time control; `None`: untimed, the clocks count the time used.
    control: Option<TimeControl>,
    /// By colour: the time left when the current turn began (timed), or the time used
    /// before it (untimed), ms. Timed clocks may go below zero only by the flag's fall.
    ms: [i64; 2],
    /// When the side to move's clock started running; `None` while the clocks stand (before
    /// the game's first move when the person moves first, after the game's end).
    since: Option<Instant>,
}

impl GameClock {
    /// Clocks at the start of a game; they run at once when `running`.
    pub fn new(control: Option<TimeControl>, running: bool, now: Instant) -> GameClock {
        let start = control.map_or(0, |c| c.base_ms as i64);
        GameClock {
            control,
            ms: [start, start],
            since: running.then_some(now),
        }
    }

    /// True while the side to move's clock runs.
    pub fn running(&self) -> bool {
        self.since.is_some()
    }

    /// Milliseconds the side to move has used of its turn at `now`.
    fn turn_ms(&self, now: Instant) -> i64 {
        self.since
            .map_or(0, |t| now.saturating_duration_since(t).as_millis() as i64)
    }

    /// `side`'s clock at `now` with `turn` to move: the time left (timed; negative once the
    /// flag has fallen) or the time used (untimed), ms.
    pub fn reading(&self, side: Color, turn: Color, now: Instant) -> i64 {
        let running = if side == turn { self.turn_ms(now) } else { 0 };
        if self.control.is_some() {
            self.ms[side as usize] - running
        } else {
            self.ms[side as usize] + running
        }
    }

    /// How long until the flag of `turn`, the side to move, falls (zero once it has); `None`
    /// in an untimed game or while the clocks stand.
    pub fn until_flag(&self, turn: Color, now: Instant) -> Option<Duration> {
        if self.control.is_none() || !self.running() {
            return None;
        }
        let left = self.reading(turn, turn, now).max(0) as u64;
        Some(Duration::from_millis(left))
    }

    /// `mover` has moved at `now`: its turn's time is charged, its increment added, and the
    /// other side's clock starts.
    pub fn moved(&mut self, mover: Color, now: Instant) {
        self.charge(mover, now);
        if let Some(c) = self.control {
            self.ms[mover as usize] += c.increment_ms as i64;
        }
        self.since = Some(now);
    }

    /// Charges `turn`'s time used so far at `now` and starts its count again (a take back:
    /// time spent stays spent).
    pub fn restart(&mut self, turn: Color, now: Instant) {
        self.charge(turn, now);
        self.since = Some(now);
    }

    /// Charges `turn`'s time used so far at `now` and stops the clocks (the game is over).
    pub fn stop(&mut self, turn: Color, now: Instant) {
        self.charge(turn, now);
        self.since = None;
    }

    /// Charges `turn`'s time used of its turn at `now` (each caller then sets `since`).
    fn charge(&mut self, turn: Color, now: Instant) {
        let used = self.turn_ms(now);
        if self.control.is_some() {
            self.ms[turn as usize] -= used;
        } else {
            self.ms[turn as usize] += used;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn a_timed_clock_counts_down_and_gains_its_increment() {
        let t0 = Instant::now();
        let tc = TimeControl {
            base_ms: 1000,
            increment_ms: 100,
        };
        let mut c = GameClock::new(Some(tc), true, t0);
        assert_eq!(c.reading(Color::White, Color::White, t0 + ms(300)), 700);
        assert_eq!(c.reading(Color::Black, Color::White, t0 + ms(300)), 1000);
        c.moved(Color::White, t0 + ms(300));
        assert_eq!(c.reading(Color::White, Color::Black, t0 + ms(500)), 800);
        assert_eq!(c.reading(Color::Black, Color::Black, t0 + ms(500)), 800);
        assert_eq!(c.until_flag(Color::Black, t0 + ms(500)), Some(ms(800)));
        assert_eq!(c.until_flag(Color::Black, t0 + ms(2000)), Some(ms(0)));
        // A take back keeps the time spent.
        c.restart(Color::Black, t0 + ms(600));
        assert_eq!(c.reading(Color::Black, Color::Black, t0 + ms(600)), 700);
        c.stop(Color::Black, t0 + ms(700));
        assert_eq!(c.reading(Color::Black, Color::Black, t0 + ms(5000)), 600);
        assert_eq!(c.until_flag(Color::Black, t0 + ms(5000)), None);
    }

    #[test]
    fn an_untimed_clock_counts_the_time_used() {
        let t0 = Instant::now();
        let mut c = GameClock::new(None, false, t0);
        assert_eq!(c.reading(Color::White, Color::White, t0 + ms(300)), 0);
        c.moved(Color::White, t0 + ms(300));
        assert_eq!(c.reading(Color::Black, Color::Black, t0 + ms(700)), 400);
        assert_eq!(c.until_flag(Color::Black, t0 + ms(700)), None);
    }

    #[test]
    fn clock_requests_are_checked() {
        let req = |v: Value| serde_json::from_value::<ClockRequest>(v).map(|r| r.check());
        let tc = req(json!({"base_ms": 180000, "increment_ms": 2000}));
        assert_eq!(
            tc.unwrap().unwrap(),
            TimeControl {
                base_ms: 180_000,
                increment_ms: 2000
            }
        );
        assert_eq!(tc_tag(180_000, 2000), "180+2");
        assert_eq!(tc_tag(200, 0), "0.2+0");
        assert_eq!(tc_tag(1500, 250), "1.5+0.25");
        assert_eq!(
            req(json!({"base_ms": 500})).unwrap().unwrap().increment_ms,
            0
        );
        for (bad, status) in [
            (json!({"base_ms": -1}), 422),
            (json!({"base_ms": 0}), 422),
            (json!({"base_ms": 1e300}), 422),
            (json!({"base_ms": 60000, "increment_ms": -5}), 422),
            (json!({"base_ms": 60000, "increment_ms": 1e9}), 422),
            (json!({"base_ms": "fast"}), 400),
            (json!({"base_ms": null}), 400),
            (json!({"base_ms": 60000, "increment_ms": [1]}), 400),
        ] {
            let e = req(bad.clone()).unwrap().unwrap_err();
            assert_eq!(e.status.as_u16(), status, "{bad}: {e}");
            assert!(e.message.starts_with("clock."), "{e}");
        }
        assert!(req(json!({"base_ms": 1000, "inc": 5})).is_err());
    }

    fn tc_tag(base_ms: u64, increment_ms: u64) -> String {
        TimeControl {
            base_ms,
            increment_ms,
        }
        .pgn_tag()
    }
}

//! Staged move picking: TT move, good captures (MVV-LVA and capture history, kept only if
//! SEE does not lose),
//! killers and countermove, quiets by history, then the bad captures. Each stage asks the
//! device for one generator mode only when the earlier stages did not cut off.

use crate::history::{victim_of, History, PieceTo};
use crate::see::{capture_gain, see_ge};
use chess::{Board, GenMode, Move, MoveList, MAX_MOVES};
use device::MoveGenDevice;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    GenQuiets,
    Quiets,
    BadCaptures,
    EvasionTt,
    GenEvasions,
    Evasions,
    QsGen,
    QsCaptures,
    Done,
}

/// Context for scoring quiet moves.
#[derive(Copy, Clone)]
pub struct QuietContext {
    /// Killer moves of this ply.
    pub killers: [Move; 2],
    /// The countermove to the previous move.
    pub counter: Move,
    /// Piece-to of the move one ply up.
    pub prev1: PieceTo,
    /// Piece-to of the move two plies up.
    pub prev2: PieceTo,
}

/// Hands out moves one at a time in order of promise.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    quiet: QuietContext,
    list: MoveList,
    scores: [i32; MAX_MOVES],
    cur: usize,
    bad: MoveList,
    bad_cur: usize,
    /// Set by the search to skip the remaining quiet moves (late-move and futility pruning).
    pub skip_quiets: bool,
}

/// Piece-to index of `m` on `b` (before it is played).
#[inline(always)]
pub fn piece_to(b: &Board, m: Move) -> PieceTo {
    let p = b.piece_on(m.from()).map_or(0, |p| p.index());
    let to = if m.is_castle() {
        let kf = if m.to().index() > m.from().index() {
            6
        } else {
            2
        };
        chess::Square::from_coords(kf, m.from().rank()).index()
    } else {
        m.to().index()
    };
    p * 64 + to
}

#[inline(always)]
fn mvv_lva(b: &Board, m: Move) -> i32 {
    let attacker = b.kind_on(m.from()).map_or(0, |k| k.index() as i32);
    capture_gain(b, m) * 8 - attacker
}

impl MovePicker {
    /// Picker for a full-width node.
    pub fn new(tt_move: Move, in_check: bool, quiet: QuietContext) -> MovePicker {
        let stage = if in_check {
            Stage::EvasionTt
        } else {
            Stage::TtMove
        };
        Self::with_stage(stage, tt_move, quiet)
    }

    /// Picker for quiescence: captures (and queen promotions), or every evasion in check.
    pub fn qsearch(tt_move: Move, in_check: bool) -> MovePicker {
        let q = QuietContext {
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            prev1: crate::history::NO_PIECE_TO,
            prev2: crate::history::NO_PIECE_TO,
        };
        let stage = if in_check {
            Stage::EvasionTt
        } else {
            Stage::QsGen
        };
        let mut p = Self::with_stage(stage, tt_move, q);
        if !in_check {
            p.tt_move = Move::NULL;
        }
        p
    }

    fn with_stage(stage: Stage, tt_move: Move, quiet: QuietContext) -> MovePicker {
        MovePicker {
            stage,
            tt_move,
            quiet,
            list: MoveList::new(),
            scores: [0; MAX_MOVES],
            cur: 0,
            bad: MoveList::new(),
            bad_cur: 0,
            skip_quiets: false,
        }
    }

    /// Index of the best-scored move not yet handed out, moved to `cur`.
    #[inline(always)]
    fn pick_best(&mut self) -> Option<Move> {
        let n = self.list.len();
        if self.cur >= n {
            return None;
        }
        let mut best = self.cur;
        for i in self.cur + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.list.as_mut_slice().swap(self.cur, best);
        self.scores.swap(self.cur, best);
        let m = self.list[self.cur];
        self.cur += 1;
        Some(m)
    }

    /// Captures by victim value first, then capture history, then least valuable attacker.
    fn score_captures(&mut self, b: &Board, hist: &History) {
        for i in 0..self.list.len() {
            let m = self.list[i];
            self.scores[i] = mvv_lva(b, m) * 2 + hist.capture(piece_to(b, m), victim_of(b, m)) / 8;
        }
        self.cur = 0;
    }

    /// The next move, or `None` when all are out.
    #[inline]
    pub fn next<D: MoveGenDevice>(&mut self, dev: &mut D, hist: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove | Stage::EvasionTt => {
                    self.stage = if self.stage == Stage::TtMove {
                        Stage::GenCaptures
                    } else {
                        Stage::GenEvasions
                    };
                    // The host mirror checks a TT move (it may come from a hash collision).
                    if self.tt_move != Move::NULL && dev.position().is_legal(self.tt_move) {
                        return Some(self.tt_move);
                    }
                    self.tt_move = Move::NULL;
                }
                Stage::GenCaptures | Stage::QsGen => {
                    dev.generate(GenMode::Captures, &mut self.list);
                    self.score_captures(dev.position(), hist);
                    self.stage = if self.stage == Stage::GenCaptures {
                        Stage::GoodCaptures
                    } else {
                        Stage::QsCaptures
                    };
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(m) if m == self.tt_move => continue,
                    Some(m) => {
                        let b = dev.position();
                        // Captures that lose material wait until after the quiets.
                        if !see_ge(b, m, 0) {
                            self.bad.push(m);
                            continue;
                        }
                        return Some(m);
                    }
                    None => self.stage = Stage::GenQuiets,
                },
                Stage::GenQuiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    dev.generate(GenMode::Quiet, &mut self.list);
                    let b = dev.position();
                    let side = b.side_to_move();
                    let q = self.quiet;
                    for i in 0..self.list.len() {
                        let m = self.list[i];
                        self.scores[i] = if m == q.killers[0] {
                            1 << 22
                        } else if m == q.killers[1] {
                            (1 << 22) - 1
                        } else if m == q.counter {
                            1 << 21
                        } else {
                            hist.quiet_score(side, m, piece_to(b, m), q.prev1, q.prev2)
                        };
                    }
                    self.cur = 0;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    match self.pick_best() {
                        Some(m) if m == self.tt_move => continue,
                        Some(m) => return Some(m),
                        None => self.stage = Stage::BadCaptures,
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_cur < self.bad.len() {
                        let m = self.bad[self.bad_cur];
                        self.bad_cur += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    dev.generate(GenMode::Evasions, &mut self.list);
                    let b = dev.position();
                    let side = b.side_to_move();
                    let q = self.quiet;
                    for i in 0..self.list.len() {
                        let m = self.list[i];
                        self.scores[i] = if m.is_tactical() {
                            (1 << 24) + mvv_lva(b, m)
                        } else {
                            hist.quiet_score(side, m, piece_to(b, m), q.prev1, q.prev2)
                        };
                    }
                    self.cur = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.pick_best() {
                    Some(m) if m == self.tt_move => continue,
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::QsCaptures => return self.pick_best(),
                Stage::Done => return None,
            }
        }
    }
}

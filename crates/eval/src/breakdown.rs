//! The per-term table `estuary eval` prints.

use crate::params::{Term, NUM_PARAMS};
use crate::{endgame_scale, evaluate_with, phase, taper, Trace, PHASE_MAX, WEIGHTS};
use chess::{Board, Color};
use std::fmt;

/// Per-term middlegame and endgame sums for each side, with the final score.
#[derive(Clone, Debug)]
pub struct Breakdown {
    /// `(term, [white (mg, eg), black (mg, eg)])` in display order.
    pub terms: Vec<(Term, [(i32, i32); 2])>,
    /// Game phase (24 = all pieces on).
    pub phase: i32,
    /// Endgame scale out of 64 applied to the endgame sum.
    pub scale: i32,
    /// The final score from White's point of view.
    pub white_score: i32,
    /// The final score from the side to move's point of view (what the search sees).
    pub score: i32,
}

struct PerSide(Vec<[i32; 2]>);

impl Trace for PerSide {
    fn add(&mut self, idx: usize, c: Color, n: i32) {
        self.0[idx][c.index()] += n;
    }
}

impl Breakdown {
    /// Evaluates `b` and splits the score by term and side.
    pub fn of(b: &Board) -> Breakdown {
        let mut t = PerSide(vec![[0; 2]; NUM_PARAMS]);
        let score = evaluate_with(b, &WEIGHTS, &mut t);
        let mut terms: Vec<(Term, [(i32, i32); 2])> =
            Term::ALL.iter().map(|&t| (t, [(0, 0); 2])).collect();
        let (mut mg, mut eg) = (0, 0);
        for (idx, n) in t.0.iter().enumerate() {
            let term = Term::of(idx);
            let slot = terms.iter_mut().find(|(t, _)| *t == term).map(|(_, v)| v);
            // Every index maps to one of Term::ALL, so the slot exists.
            let slot = slot.expect("term of every index is listed");
            for c in 0..2 {
                slot[c].0 += WEIGHTS[idx].0 * n[c];
                slot[c].1 += WEIGHTS[idx].1 * n[c];
            }
            mg += WEIGHTS[idx].0 * (n[0] - n[1]);
            eg += WEIGHTS[idx].1 * (n[0] - n[1]);
        }
        let ph = phase(b);
        let scale = endgame_scale(b, eg);
        let white_score = taper(mg, eg * scale / 64, ph);
        Breakdown {
            terms,
            phase: ph,
            scale,
            white_score,
            score,
        }
    }
}

impl fmt::Display for Breakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cp = |v: i32| format!("{:7.2}", v as f64 / 100.0);
        writeln!(
            f,
            "      Term      |    White     |    Black     |    Total"
        )?;
        writeln!(
            f,
            "                |   MG     EG  |   MG     EG  |   MG     EG"
        )?;
        writeln!(
            f,
            "----------------+--------------+--------------+-------------"
        )?;
        for (term, s) in &self.terms {
            let (w, b) = (s[0], s[1]);
            writeln!(
                f,
                "{:>15} |{}{}|{}{}|{}{}",
                term.name(),
                cp(w.0),
                cp(w.1),
                cp(b.0),
                cp(b.1),
                cp(w.0 - b.0),
                cp(w.1 - b.1)
            )?;
        }
        writeln!(
            f,
            "----------------+--------------+--------------+-------------"
        )?;
        writeln!(
            f,
            "Phase {}/{} (middlegame weight), endgame scale {}/64",
            self.phase, PHASE_MAX, self.scale
        )?;
        writeln!(
            f,
            "Final evaluation: {:+.2} (White's view), {:+.2} (side to move)",
            self.white_score as f64 / 100.0,
            self.score as f64 / 100.0
        )
    }
}

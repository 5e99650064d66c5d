//! Shortening the attacker's part of a line read from the table.
//!
//! A line read move by move from a long proof follows the proof df-pn found, and the
//! attacker's moves there need not be the shortest: in Microcosmos the proof walks the king
//! around a corner (4 plies) before a knight drop that could have come first, thirteen times.
//! Ply-limited searches of the whole problem are far too large at such lengths, but a detour
//! is local: from an attacker position `i` of the line, with `r` plies left along it, a mate
//! within `r - 2` plies usually reaches a later position `j` of the line a few plies on. The
//! positions of the line are entered in the table as proven with the plies left along the line
//! (`n - j`), so a ply-limited search from `i` with a small budget finds such a shortcut
//! quickly (or runs out and leaves the line as it is). The shortcut is read from the limited
//! search's table until it rejoins the line (or mates), and spliced in.

use super::MateSolver;
use crate::game::MateGame;
use std::collections::HashMap;

/// Nodes of the shortcut search at one attacker position of the line.
const SHORTCUT_NODES: u64 = 20_000;
/// Longest stretch (plies) a shortcut may run off the line before it rejoins it or mates.
const SHORTCUT_MAX_PLIES: u32 = 48;

impl<G: MateGame> MateSolver<G> {
    /// `line` (a mate from `root`) with shortcuts for the attacker spliced in, from the root
    /// down. Every shortcut is a mate within fewer plies than the part of the line it
    /// replaces, whatever the defender plays (a ply-limited proof), where the positions it
    /// rejoins count at the line's own lengths: it is as right as the line's later defender
    /// choices. The defender's choices inside it are the longest ones the table shows. Stops
    /// early (keeping what it found) when the overall limits run out.
    pub(super) fn shorten_attacker(&mut self, root: &G, mut line: Vec<G::Move>) -> Vec<G::Move> {
        let mut i = 0usize;
        while i + 2 < line.len() {
            let n = line.len();
            let mut positions = Vec::with_capacity(n + 1);
            positions.push(root.clone());
            for &m in &line {
                let g = positions.last().expect("not empty").after(m);
                positions.push(g);
            }
            let index: HashMap<u64, usize> = positions
                .iter()
                .enumerate()
                .map(|(j, g)| (g.key(), j))
                .collect();
            for (j, g) in positions.iter().enumerate().skip(i + 1) {
                self.main.record_mate_length(g, (n - j) as u16);
            }
            let limit = (n - i - 2) as u32;
            let (found, _) = self.with_budget(SHORTCUT_NODES, |s| {
                s.main.set_depth_limit(Some(limit));
                let proven = s.main.prove_at(&positions[i], true, 0).pn == 0;
                let cut = s.main.aborted();
                let shortcut = if proven && !cut {
                    s.read_shortcut(&positions[i], i, n, &index)
                } else {
                    None
                };
                s.main.set_depth_limit(None);
                shortcut
            });
            if self.main.aborted() {
                break;
            }
            match found {
                Some((seg, j)) if seg.len() + (n - j) < n - i => {
                    line.splice(i..j, seg);
                    // The same position may have a further shortcut.
                }
                _ => i += 2,
            }
        }
        line
    }

    /// Reads the shortcut the ply-limited search proved from `start` (line position `i` of a
    /// line of `n` plies, positions indexed in `index` by key), as the moves up to the line
    /// position `j` where it rejoins the line, or to mate (`j = n`). `None` when the table
    /// does not show one within [`SHORTCUT_MAX_PLIES`], or it would repeat a position of the
    /// line before `i`.
    fn read_shortcut(
        &mut self,
        start: &G,
        i: usize,
        n: usize,
        index: &HashMap<u64, usize>,
    ) -> Option<(Vec<G::Move>, usize)> {
        let mut g = start.clone();
        let mut seg = Vec::new();
        let mut moves = Vec::new();
        for t in 0..SHORTCUT_MAX_PLIES {
            let or_node = t % 2 == 0;
            if or_node {
                g.attacker_moves(&mut moves);
            } else {
                g.defender_moves(&mut moves);
                if moves.is_empty() {
                    return g.is_mated().then_some((seg, n));
                }
            }
            // (move, plies to mate from `start` through it, line position it reaches)
            let mut pick: Option<(G::Move, u32, Option<usize>)> = None;
            for &m in moves.iter() {
                let c = g.after(m);
                let (total, j) = match index.get(&c.key()) {
                    Some(&j) if j <= i => {
                        // Back to the line's past: a repetition.
                        if or_node {
                            continue;
                        }
                        return None;
                    }
                    Some(&j) => (t + 1 + (n - j) as u32, Some(j)),
                    None => match self.proven_child(&c, or_node, t + 1) {
                        Some(len) => (t + 1 + u32::from(len), None),
                        None if or_node => continue,
                        None => return None,
                    },
                };
                let better = match pick {
                    None => true,
                    // The attacker takes the shortest, the defender the longest; a line
                    // position wins ties (its length is that of the line itself).
                    Some((_, best, bj)) => {
                        if or_node {
                            total < best || (total == best && j.is_some() && bj.is_none())
                        } else {
                            total > best || (total == best && j.is_some() && bj.is_none())
                        }
                    }
                };
                if better {
                    pick = Some((m, total, j));
                }
            }
            let (m, _, j) = pick?;
            seg.push(m);
            if let Some(j) = j {
                return Some((seg, j));
            }
            g = g.after(m);
        }
        None
    }
}

//! The shogi adapter: the attacker is the side to move at the root.

use crate::game::{HandSet, MateGame};
use shogi::{attacks, Color, Hand, Move, MoveList, Position, HAND_KINDS};

impl HandSet for Hand {
    #[inline]
    fn covers(self, other: Hand) -> bool {
        Hand::covers(self, other)
    }
    fn max(self, other: Hand) -> Hand {
        Hand::max(self, other)
    }
    fn min(self, other: Hand) -> Hand {
        Hand::min(self, other)
    }
    fn bits(self) -> u64 {
        u64::from(self.0)
    }
}

/// A tsume-shogi position: who attacks is fixed at the root.
#[derive(Clone, Debug)]
pub struct Tsume {
    /// The position.
    pub pos: Position,
    /// The attacking side.
    pub attacker: Color,
}

impl Tsume {
    /// The problem with the side to move as attacker.
    pub fn new(pos: Position) -> Tsume {
        let attacker = pos.side_to_move();
        Tsume { pos, attacker }
    }

    /// Raises the proof hand to the attacker's full count of each kind the defender lacks, when
    /// the defender could interpose a drop (a lone non-adjacent checker). A smaller attacker
    /// hand would give the defender those pieces and new interpositions.
    fn with_interposition_kinds(&self, mut p: Hand) -> Hand {
        let defender = self.attacker.flip();
        let ch = self.pos.checkers();
        let (Some(c), Some(k)) = (ch.first(), self.pos.king_square(defender)) else {
            return p;
        };
        if ch.more_than_one() || attacks::between(k, c).is_empty() {
            return p;
        }
        let ah = self.pos.hand(self.attacker);
        let dh = self.pos.hand(defender);
        for (i, kind) in HAND_KINDS.into_iter().enumerate() {
            if !dh.has(kind) {
                p.set_count_index(i, ah.count(kind));
            }
        }
        p
    }
}

fn push_all(l: &MoveList, out: &mut Vec<Move>) {
    out.clear();
    out.extend_from_slice(l.as_slice());
}

impl MateGame for Tsume {
    type Move = Move;
    type Hand = Hand;

    fn attacker_moves(&self, out: &mut Vec<Move>) {
        let mut l = MoveList::new();
        self.pos.check_moves(&mut l);
        push_all(&l, out);
    }

    fn defender_moves(&self, out: &mut Vec<Move>) {
        let mut l = MoveList::new();
        self.pos.evasions(&mut l);
        push_all(&l, out);
    }

    fn interposition_square(&self, m: Move) -> Option<u8> {
        m.is_drop().then_some(m.to().0)
    }

    fn mate_candidates(&self, out: &mut Vec<Move>) {
        let mut l = MoveList::new();
        self.pos.mate_candidates(&mut l);
        push_all(&l, out);
    }

    #[inline]
    fn is_mated(&self) -> bool {
        self.pos.is_checkmate()
    }

    #[inline]
    fn defender_move_count(&self) -> usize {
        self.pos.evasion_count()
    }

    #[inline]
    fn defender_move_groups(&self) -> usize {
        self.pos.evasion_count_by_drop_square()
    }

    #[inline]
    fn after(&self, m: Move) -> Tsume {
        // Built in the return slot: one copy of the position, not one per wrapper.
        let mut t = self.clone();
        t.pos.play(m);
        t
    }

    #[inline]
    fn after_into(&self, m: Move, out: &mut Tsume) {
        out.pos.clone_from(&self.pos);
        out.attacker = self.attacker;
        out.pos.play(m);
    }

    #[inline]
    fn next_child_into(&self, prev: Move, m: Move, out: &mut Tsume) {
        out.pos.replay_from(&self.pos, prev, m);
    }

    #[inline]
    fn child_keys(&self, m: Move) -> (u64, u64, Hand) {
        let (board, full) = self.pos.keys_after(m);
        let mut hand = self.attacker_hand();
        if self.pos.side_to_move() == self.attacker {
            if m.is_drop() {
                hand.remove(m.drop_kind());
            } else if let Some(cap) = self.pos.piece_at(m.to()) {
                hand.add(cap.kind.unpromoted());
            }
        }
        (board, full, hand)
    }

    #[inline]
    fn board_key(&self) -> u64 {
        // The defender's hand is implied by the board and the attacker's hand.
        self.pos.board_key()
    }

    #[inline]
    fn key(&self) -> u64 {
        self.pos.key()
    }

    #[inline]
    fn attacker_hand(&self) -> Hand {
        self.pos.hand(self.attacker)
    }

    fn move_text(&self, m: Move) -> String {
        m.usi()
    }

    fn mated_proof_hand(&self) -> Hand {
        self.with_interposition_kinds(Hand::EMPTY)
    }

    fn and_proof_hand(&self, children_max: Hand) -> Hand {
        self.with_interposition_kinds(children_max)
    }

    fn or_proof_hand(&self, m: Move, child: Hand) -> Hand {
        let mut p = child;
        if m.is_drop() {
            p.add(m.drop_kind());
        } else if let Some(cap) = self.pos.piece_at(m.to()) {
            p.remove_saturating(cap.kind.unpromoted());
        }
        p
    }

    fn no_check_disproof_hand(&self) -> Hand {
        self.attacker_hand()
    }

    fn or_disproof_hand(&self, m: Move, child: Hand) -> Hand {
        let mut d = child;
        if m.is_drop() {
            d.add(m.drop_kind());
        } else if let Some(cap) = self.pos.piece_at(m.to()) {
            d.remove_saturating(cap.kind.unpromoted());
        }
        d
    }

    fn or_disproof_hand_final(&self, children_min: Hand) -> Hand {
        // Kinds the attacker does not hold: holding one would allow new drop checks.
        let h = self.attacker_hand();
        let mut d = children_min.max(h);
        for (i, kind) in HAND_KINDS.into_iter().enumerate() {
            if !h.has(kind) {
                d.set_count_index(i, 0);
            }
        }
        d
    }

    fn and_disproof_hand(&self, m: Move, child: Hand) -> Hand {
        // The defender's drop needs the piece: the attacker may not hold more of that kind.
        let mut d = child;
        if m.is_drop() {
            let k = m.drop_kind();
            let i = k.index();
            let cap = self.attacker_hand().count(k);
            if d.count(k) > cap {
                d.set_count_index(i, cap);
            }
        }
        d
    }

    fn checker_moved_to_interposition(&self, m: Move) -> Option<Tsume> {
        if !m.is_drop() {
            return None;
        }
        let ch = self.pos.checkers();
        let c = ch.first()?;
        if ch.more_than_one() {
            return None;
        }
        let after_drop = self.pos.after(m);
        let to = m.to();
        let plain = Move::normal(c, to, false);
        let promo = Move::normal(c, to, true);
        let mv = if after_drop.is_legal(plain) {
            plain
        } else if after_drop.is_legal(promo) {
            promo
        } else {
            return None;
        };
        let mut pos = after_drop.after(mv);
        // As if the piece had never been dropped: it stays in the defender's hand.
        pos.transfer_hand_piece(self.attacker, m.drop_kind());
        Some(Tsume {
            pos,
            attacker: self.attacker,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys and hand computed without playing a move equal those of the position played, for
    /// attacker moves (drops, captures, promotions) and the defender's answers.
    #[test]
    fn child_keys_equal_the_keys_of_the_child() {
        let sfens = [
            "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1",
            "8S/6SSk/7p1/9/9/9/9/9/9 b 2r2b4gs4n4l17p 1",
            "9/7R1/9/7G1/8k/8N/9/9/9 b r2b3g4s3n4l18p 1",
            "6G2/8L/8P/6GRP/6G1k/9/9/5S3/9 b r2bg3s4n3l16p 1",
        ];
        let mut checked = 0;
        for sfen in sfens {
            let root = Tsume::new(Position::from_sfen_relaxed(sfen).expect("valid SFEN"));
            let mut checks = Vec::new();
            root.attacker_moves(&mut checks);
            for &m in &checks {
                let c = root.after(m);
                assert_eq!(
                    root.child_keys(m),
                    (c.board_key(), c.key(), c.attacker_hand())
                );
                let mut answers = Vec::new();
                c.defender_moves(&mut answers);
                for &a in &answers {
                    let d = c.after(a);
                    assert_eq!(c.child_keys(a), (d.board_key(), d.key(), d.attacker_hand()));
                    checked += 1;
                }
            }
        }
        assert!(checked > 50, "only {checked} moves");
    }
}

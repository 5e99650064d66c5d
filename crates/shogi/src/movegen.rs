//! Legal move generation, with the dedicated generators a mate solver needs: checks (direct,
//! discovered and by drop) and evasions (king moves, capture of the checker, interposition by
//! move or by drop). Every generator returns legal moves only.

use crate::attacks;
use crate::bitboard::{Bitboard, RANK_MASKS};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, PieceKind, Square, ALL_KINDS, HAND_KINDS};

/// Squares of the promotion zone of `c`.
#[inline]
fn zone(c: Color) -> Bitboard {
    match c {
        Color::Black => Bitboard(RANK_MASKS[0] | RANK_MASKS[1] | RANK_MASKS[2]),
        Color::White => Bitboard(RANK_MASKS[6] | RANK_MASKS[7] | RANK_MASKS[8]),
    }
}

/// Squares where a piece of `kind` and color `c` may stand (not a dead square).
#[inline]
pub fn live_squares(c: Color, kind: PieceKind) -> Bitboard {
    let far = |n: usize| -> u128 {
        (0..n)
            .map(|i| match c {
                Color::Black => RANK_MASKS[i],
                Color::White => RANK_MASKS[8 - i],
            })
            .fold(0, |a, b| a | b)
    };
    !Bitboard(far(kind.dead_ranks() as usize))
}

impl Position {
    /// Pushes `from`-`to` with every legal promotion choice.
    #[inline]
    fn push_promotions(&self, list: &mut MoveList, kind: PieceKind, from: Square, to: Square) {
        let us = self.side;
        let may = kind.can_promote() && (zone(us).has(from) || zone(us).has(to));
        if may {
            list.push(Move::normal(from, to, true));
        }
        if to.relative_rank(us) >= kind.dead_ranks() {
            list.push(Move::normal(from, to, false));
        }
    }

    /// Moves of non-king pieces onto `target`, respecting pins.
    fn piece_moves(&self, list: &mut MoveList, target: Bitboard) {
        let us = self.side;
        let occ = self.occupied();
        let ksq = self.king_square(us);
        let pinned = self.pinned(us);
        let movers = self.by_color[us.index()] & !self.by_kind[PieceKind::King.index()];
        for from in movers {
            let Some(p) = self.board[from.index()] else {
                continue;
            };
            let mut to_bb = attacks::attacks(p.kind, us, from, occ) & target;
            if let (true, Some(k)) = (pinned.has(from), ksq) {
                to_bb &= attacks::ray_through(k, from);
            }
            for to in to_bb {
                self.push_promotions(list, p.kind, from, to);
            }
        }
    }

    /// King moves onto `target` squares that are not attacked. The enemy's pieces are sorted
    /// by how they move once, then each destination is tested (cheapest tests first; a slider
    /// only when one stands on a line through the square).
    fn king_moves(&self, list: &mut MoveList, target: Bitboard) {
        let us = self.side;
        let Some(k) = self.king_square(us) else {
            return;
        };
        let cand = attacks::king(k) & target & !self.by_color[us.index()];
        if cand.is_empty() {
            return;
        }
        let occ = self.occupied() ^ Bitboard::from_square(k);
        let theirs = self.by_color[us.flip().index()];
        let of = |kind: PieceKind| self.by_kind[kind.index()] & theirs;
        let golds = self.golds() & theirs;
        let silvers = of(PieceKind::Silver);
        let pawns = of(PieceKind::Pawn);
        let knights = of(PieceKind::Knight);
        let near = of(PieceKind::King) | of(PieceKind::Horse) | of(PieceKind::Dragon);
        let rooks = self.rook_likes() & theirs;
        let bishops = self.bishop_likes() & theirs;
        let lances = of(PieceKind::Lance);
        for to in cand {
            // A piece of theirs attacks `to` when a piece of ours there would attack it.
            let steps = (attacks::gold(us, to) & golds)
                | (attacks::silver(us, to) & silvers)
                | (attacks::pawn(us, to) & pawns)
                | (attacks::knight(us, to) & knights)
                | (attacks::king(to) & near);
            if steps.any()
                || ((attacks::rook_empty(to) & rooks).any()
                    && (attacks::rook(to, occ) & rooks).any())
                || ((attacks::bishop_empty(to) & bishops).any()
                    && (attacks::bishop(to, occ) & bishops).any())
                || (lances.any() && (attacks::lance(us, to, occ) & lances).any())
            {
                continue;
            }
            list.push(Move::normal(k, to, false));
        }
    }

    /// Drops of every held kind onto the empty squares of `target`, with the drop rules.
    fn drop_moves(&self, list: &mut MoveList, target: Bitboard, per_kind: Option<&[Bitboard; 14]>) {
        let us = self.side;
        let hand = self.hands[us.index()];
        if hand.is_empty() {
            return;
        }
        let empty = !self.occupied() & target;
        for kind in HAND_KINDS {
            if !hand.has(kind) {
                continue;
            }
            let mut to_bb = empty & live_squares(us, kind);
            if let Some(pk) = per_kind {
                to_bb &= pk[kind.index()];
            }
            if kind == PieceKind::Pawn {
                to_bb &= !self.pieces_of(us, PieceKind::Pawn).files();
                for to in to_bb {
                    if !self.pawn_drop_mates(to) {
                        list.push(Move::drop(kind, to));
                    }
                }
            } else {
                for to in to_bb {
                    list.push(Move::drop(kind, to));
                }
            }
        }
    }

    /// True when dropping a pawn on `to` would checkmate (uchifuzume: such a drop is illegal).
    pub fn pawn_drop_mates(&self, to: Square) -> bool {
        let them = self.side.flip();
        match self.king_square(them) {
            Some(k) if attacks::pawn(self.side, to).has(k) => {
                let after = self.after(Move::drop(PieceKind::Pawn, to));
                let mut l = MoveList::new();
                after.evasions(&mut l);
                l.is_empty()
            }
            _ => false,
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        if self.in_check() {
            self.evasions(list);
            return;
        }
        let not_own = !self.by_color[self.side.index()];
        self.piece_moves(list, not_own);
        self.king_moves(list, not_own);
        self.drop_moves(list, Bitboard::FULL, None);
    }

    /// The legal moves when in check (call only when in check): king moves, captures of the
    /// checker and interpositions by move or drop.
    pub fn evasions(&self, list: &mut MoveList) {
        list.clear();
        let us = self.side;
        let not_own = !self.by_color[us.index()];
        self.king_moves(list, not_own);
        let ch = self.checkers;
        if ch.more_than_one() {
            return;
        }
        let (Some(c), Some(k)) = (ch.first(), self.king_square(us)) else {
            return;
        };
        let between = attacks::between(k, c);
        self.piece_moves(list, between | Bitboard::from_square(c));
        if between.any() {
            self.drop_moves(list, between, None);
        }
    }

    /// The legal moves that give check.
    pub fn check_moves(&self, list: &mut MoveList) {
        list.clear();
        let us = self.side;
        let them = us.flip();
        let Some(eksq) = self.king_square(them) else {
            return;
        };
        if self.in_check() {
            let mut all = MoveList::new();
            self.evasions(&mut all);
            for &m in all.iter() {
                if self.gives_check(m) {
                    list.push(m);
                }
            }
            return;
        }
        let occ = self.occupied();
        // Squares from which a piece of each kind of ours would attack the enemy king.
        let mut chk = [Bitboard::EMPTY; 14];
        for kind in ALL_KINDS {
            if kind != PieceKind::King {
                chk[kind.index()] = attacks::attacks(kind, them, eksq, occ);
            }
        }
        let discoverers = self.blockers_for(eksq, us) & self.by_color[us.index()];
        let ksq = self.king_square(us);
        let pinned = self.pinned(us);
        let not_own = !self.by_color[us.index()];
        let movers = self.by_color[us.index()] & !self.by_kind[PieceKind::King.index()];
        for from in movers {
            let Some(p) = self.board[from.index()] else {
                continue;
            };
            let mut to_bb = attacks::attacks(p.kind, us, from, occ) & not_own;
            if let (true, Some(k)) = (pinned.has(from), ksq) {
                to_bb &= attacks::ray_through(k, from);
            }
            let mut direct = to_bb;
            if discoverers.has(from) {
                let disc = to_bb & !attacks::ray_through(eksq, from);
                for to in disc {
                    self.push_promotions(list, p.kind, from, to);
                }
                direct &= !disc;
            }
            let kind = p.kind;
            let may_zone = kind.can_promote() && zone(us).has(from);
            let pro = chk[kind.promoted().index()];
            let plain = chk[kind.index()];
            for to in direct & (plain | pro) {
                let may = kind.can_promote() && (may_zone || zone(us).has(to));
                if may && pro.has(to) {
                    list.push(Move::normal(from, to, true));
                }
                if plain.has(to) && to.relative_rank(us) >= kind.dead_ranks() {
                    list.push(Move::normal(from, to, false));
                }
            }
        }
        if let Some(k) = ksq {
            if discoverers.has(k) {
                let mut l = MoveList::new();
                self.king_moves(&mut l, !attacks::ray_through(eksq, k));
                for &m in l.iter() {
                    list.push(m);
                }
            }
        }
        self.drop_moves(list, Bitboard::FULL, Some(&chk));
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut l = MoveList::new();
        self.legal_moves(&mut l);
        !l.is_empty()
    }

    /// True when the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        if !self.in_check() {
            return false;
        }
        let mut l = MoveList::new();
        self.evasions(&mut l);
        l.is_empty()
    }

    /// True when `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        let mut l = MoveList::new();
        self.legal_moves(&mut l);
        l.contains(m)
    }
}

//! Legal move generation, with the dedicated generators a mate solver needs: checks (direct,
//! discovered and by drop) and evasions (king moves, capture of the checker, interposition by
//! move or by drop). Every generator returns legal moves only.

use crate::attacks;
use crate::bitboard::{Bitboard, RANK_MASKS};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, PieceKind, Square, HAND_KINDS};

/// Squares of the promotion zone of `c`.
#[inline]
fn zone(c: Color) -> Bitboard {
    match c {
        Color::Black => Bitboard(RANK_MASKS[0] | RANK_MASKS[1] | RANK_MASKS[2]),
        Color::White => Bitboard(RANK_MASKS[6] | RANK_MASKS[7] | RANK_MASKS[8]),
    }
}

/// Squares where a piece of color `c` may stand with 0, 1 or 2 dead ranks: `[c][dead ranks]`.
const LIVE: [[u128; 3]; 2] = {
    let mut t = [[0u128; 3]; 2];
    let mut d = 0;
    while d < 3 {
        let mut far = [0u128; 2];
        let mut i = 0;
        while i < d {
            far[0] |= RANK_MASKS[i];
            far[1] |= RANK_MASKS[8 - i];
            i += 1;
        }
        t[0][d] = crate::bitboard::ALL & !far[0];
        t[1][d] = crate::bitboard::ALL & !far[1];
        d += 1;
    }
    t
};

/// Squares where a piece of `kind` and color `c` may stand (not a dead square).
#[inline]
pub fn live_squares(c: Color, kind: PieceKind) -> Bitboard {
    Bitboard(LIVE[c.index()][kind.dead_ranks() as usize])
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

    /// Calls `f(kind, from, destinations)` for each non-king piece of the side to move with
    /// legal destinations in `target` (pins are computed only when some piece reaches it).
    #[inline]
    fn each_piece_onto(&self, target: Bitboard, mut f: impl FnMut(PieceKind, Square, Bitboard)) {
        let us = self.side;
        let occ = self.occupied();
        let ksq = self.king_square(us);
        let mut pinned = None;
        let movers = self.by_color[us.index()] & !self.by_kind[PieceKind::King.index()];
        for from in movers {
            let Some(p) = self.board[from.index()] else {
                continue;
            };
            let mut to_bb = attacks::attacks(p.kind, us, from, occ) & target;
            if to_bb.is_empty() {
                continue;
            }
            if let Some(k) = ksq {
                if pinned.get_or_insert_with(|| self.pinned(us)).has(from) {
                    to_bb &= attacks::ray_through(k, from);
                }
            }
            f(p.kind, from, to_bb);
        }
    }

    /// Moves of non-king pieces onto `target`, respecting pins.
    fn piece_moves(&self, list: &mut MoveList, target: Bitboard) {
        self.each_piece_onto(target, |kind, from, to_bb| {
            for to in to_bb {
                self.push_promotions(list, kind, from, to);
            }
        });
    }

    /// The number of moves [`Position::piece_moves`] would list for `target`.
    fn piece_move_count(&self, target: Bitboard) -> usize {
        let us = self.side;
        let zone = zone(us);
        let mut n = 0;
        self.each_piece_onto(target, |kind, from, to_bb| {
            // As in `push_promotions`: promotion when either end is in the zone, the plain
            // move when the destination is not a dead square.
            if kind.can_promote() {
                n += if zone.has(from) {
                    to_bb.count_few()
                } else {
                    (to_bb & zone).count_few()
                };
            }
            n += (to_bb & live_squares(us, kind)).count_few();
        });
        n as usize
    }

    /// The squares of `cand` (next to the king of the side to move, on `k`) that the other
    /// side does not attack, with the king lifted off the board so that a slider's line
    /// through it counts. Only the enemy pieces that can reach the king's neighbourhood are
    /// looked at, step pieces first; sliders only while a candidate is still free.
    #[inline(always)]
    fn king_escapes(&self, k: Square, cand: Bitboard) -> Bitboard {
        self.unattacked_near(k, cand, self.side.flip())
    }

    /// The squares of `cand` (next to a king on `k`) that `them` does not attack, with the
    /// king lifted off the board ([`Position::king_escapes`] for either king).
    #[inline(always)]
    fn unattacked_near(&self, k: Square, cand: Bitboard, them: Color) -> Bitboard {
        let theirs = self.by_color[them.index()];
        let of = |kind: PieceKind| self.by_kind[kind.index()] & theirs;
        let pawns = of(PieceKind::Pawn);
        let mut att = Bitboard(match them {
            Color::Black => pawns.0 >> 9,
            Color::White => pawns.0 << 9,
        });
        for s in (theirs ^ pawns) & attacks::near_king(them, k) {
            if let Some(p) = self.board[s.index()] {
                att |= attacks::step_attacks(p.kind, them, s);
            }
        }
        let mut free = cand & !att;
        if free.is_empty() {
            return free;
        }
        // Sliders: only those with a line through a square still free.
        let occ = self.occupied() ^ Bitboard::from_square(k);
        for s in self.rook_likes() & theirs {
            if (attacks::rook_empty(s) & free).any() {
                free &= !attacks::rook(s, occ);
                if free.is_empty() {
                    return free;
                }
            }
        }
        for s in self.bishop_likes() & theirs {
            if (attacks::bishop_empty(s) & free).any() {
                free &= !attacks::bishop(s, occ);
                if free.is_empty() {
                    return free;
                }
            }
        }
        for s in of(PieceKind::Lance) {
            if (attacks::lance(them, s, Bitboard::EMPTY) & free).any() {
                free &= !attacks::lance(them, s, occ);
            }
        }
        free
    }

    /// King moves onto `target` squares that are not attacked.
    fn king_moves(&self, list: &mut MoveList, target: Bitboard) {
        let us = self.side;
        let Some(k) = self.king_square(us) else {
            return;
        };
        let cand = attacks::king(k) & target & !self.by_color[us.index()];
        if cand.is_empty() {
            return;
        }
        for to in self.king_escapes(k, cand) {
            list.push(Move::normal(k, to, false));
        }
    }

    /// Drops of every held kind onto the empty squares of `target`, with the drop rules.
    fn drop_moves(&self, list: &mut MoveList, target: Bitboard, per_kind: Option<&[Bitboard; 14]>) {
        self.each_drop_onto(target, per_kind, |kind, to_bb| {
            for to in to_bb {
                list.push(Move::drop(kind, to));
            }
        });
    }

    /// The number of drops [`Position::drop_moves`] would list for `target` (no per-kind
    /// restriction), or with `by_square` the number of squares of `target` some piece in hand
    /// can drop on: silver, gold, bishop and rook drop on every empty square of `target`, so
    /// they are counted together; lance, knight and pawn have their own squares.
    fn drop_count(&self, target: Bitboard, by_square: bool) -> usize {
        let us = self.side;
        let hand = self.hands[us.index()];
        if hand.is_empty() {
            return 0;
        }
        let empty = !self.occupied() & target;
        let anywhere = [
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
        ]
        .into_iter()
        .filter(|&k| hand.has(k))
        .count() as u32;
        if by_square && anywhere > 0 {
            return empty.count_few() as usize;
        }
        let mut n = anywhere * empty.count_few();
        let mut squares = Bitboard::EMPTY;
        let mut add = |s: Bitboard| {
            if by_square {
                squares |= s;
            } else {
                n += s.count_few();
            }
        };
        for kind in [PieceKind::Lance, PieceKind::Knight] {
            if hand.has(kind) {
                add(empty & live_squares(us, kind));
            }
        }
        if hand.has(PieceKind::Pawn) {
            add(self.pawn_drop_squares(empty));
        }
        (n + squares.count_few()) as usize
    }

    /// Calls `f(kind, squares)` for each kind in the hand of the side to move with its legal
    /// drop squares among the empty squares of `target` (and of `per_kind[kind]` if given):
    /// dead squares, nifu files and a mating pawn drop (uchifuzume) removed.
    #[inline]
    fn each_drop_onto(
        &self,
        target: Bitboard,
        per_kind: Option<&[Bitboard; 14]>,
        mut f: impl FnMut(PieceKind, Bitboard),
    ) {
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
            let mut to_bb = empty;
            if let Some(pk) = per_kind {
                to_bb &= pk[kind.index()];
            }
            let to_bb = if kind == PieceKind::Pawn {
                self.pawn_drop_squares(to_bb)
            } else {
                to_bb & live_squares(us, kind)
            };
            f(kind, to_bb);
        }
    }

    /// The squares of `empty` (empty squares) where the side to move may drop a pawn: not a
    /// dead square, not on a file with its own unpromoted pawn (nifu), and not a drop that
    /// mates (uchifuzume).
    #[inline]
    fn pawn_drop_squares(&self, empty: Bitboard) -> Bitboard {
        let us = self.side;
        let mut to_bb = empty
            & live_squares(us, PieceKind::Pawn)
            & !self.pieces_of(us, PieceKind::Pawn).files();
        // Only a pawn dropped in front of the enemy king can mate.
        if let Some(ek) = self.king_square(us.flip()) {
            for to in to_bb & attacks::pawn(us.flip(), ek) {
                if self.pawn_drop_mates(to) {
                    to_bb &= !Bitboard::from_square(to);
                }
            }
        }
        to_bb
    }

    /// True when dropping a pawn on `to` would checkmate (uchifuzume: such a drop is illegal).
    pub fn pawn_drop_mates(&self, to: Square) -> bool {
        let them = self.side.flip();
        match self.king_square(them) {
            Some(k) if attacks::pawn(self.side, to).has(k) => {
                self.after(Move::drop(PieceKind::Pawn, to)).evasion_count() == 0
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

    /// The number of moves [`Position::evasions`] lists, counted without listing them (bulk
    /// counts of destination sets): what a mate solver needs for every check it considers.
    pub fn evasion_count(&self) -> usize {
        self.evasion_count_with(false)
    }

    /// [`Position::evasion_count`] with the drops on one square counted once (a square any
    /// piece in hand can drop on counts one): the evasions a mate solver that searches those
    /// drops one at a time has open at first.
    pub fn evasion_count_by_drop_square(&self) -> usize {
        self.evasion_count_with(true)
    }

    #[inline]
    fn evasion_count_with(&self, drops_by_square: bool) -> usize {
        let us = self.side;
        let Some(k) = self.king_square(us) else {
            return 0;
        };
        let cand = attacks::king(k) & !self.by_color[us.index()];
        let mut n = if cand.any() {
            self.king_escapes(k, cand).count_few() as usize
        } else {
            0
        };
        let ch = self.checkers;
        if ch.more_than_one() {
            return n;
        }
        let Some(c) = ch.first() else {
            return n;
        };
        let between = attacks::between(k, c);
        n += self.piece_move_count(between | Bitboard::from_square(c));
        if between.any() {
            n += self.drop_count(between, drops_by_square);
        }
        n
    }

    /// The legal moves that give check.
    pub fn check_moves(&self, list: &mut MoveList) {
        self.checks_covering(list, None);
    }

    /// The checks that may mate at once (a superset of them, a subset of
    /// [`Position::check_moves`]): a check leaves the enemy king a square to step to unless
    /// the checking piece covers every square next to the king that the side to move does
    /// not already attack ([`Position::enemy_king_free_squares`]), so only destinations from
    /// which it could are generated, for each kind (sliders judged on an empty board). The
    /// moves of a piece that alone blocks one of our sliders from such a square (its
    /// departure would open the line) and discovered checks are all kept.
    pub fn mate_candidates(&self, list: &mut MoveList) {
        let free = self.enemy_king_free_squares();
        if free.is_empty() {
            self.checks_covering(list, None);
            return;
        }
        let us = self.side;
        let them = us.flip();
        let mut cover = [Bitboard::FULL; 14];
        // Our pieces that alone stand between one of our sliders and a free square (the king
        // lifted off the board): moving one might open the line.
        let mut openers = Bitboard::EMPTY;
        let ours = self.by_color[us.index()];
        let occ = match self.king_square(them) {
            Some(k) => self.occupied() ^ Bitboard::from_square(k),
            None => self.occupied(),
        };
        // The kinds a checking piece can be: those in hand, and those of our pieces on the
        // board, promoted or not.
        let mut kinds = 0u16;
        for kind in HAND_KINDS {
            if self.hands[us.index()].has(kind) {
                kinds |= 1 << kind.index();
            }
        }
        for (i, bb) in self.by_kind.iter().enumerate() {
            if (*bb & ours).any() {
                let kind = PieceKind::from_index(i);
                kinds |= 1 << i | 1 << kind.promoted().index();
            }
        }
        let lances = self.by_kind[PieceKind::Lance.index()];
        for f in free {
            let here = Bitboard::from_square(f);
            let mut left = kinds;
            while left != 0 {
                let i = left.trailing_zeros() as usize;
                left &= left - 1;
                cover[i] &= attacks::attacks_empty(PieceKind::from_index(i), them, f) | here;
            }
            let snipers = ((attacks::rook_empty(f) & self.rook_likes())
                | (attacks::bishop_empty(f) & self.bishop_likes())
                | (attacks::lance(them, f, Bitboard::EMPTY) & lances))
                & ours;
            for s in snipers {
                let b = attacks::between(f, s) & occ;
                if b.any() && !b.more_than_one() {
                    openers |= b & ours;
                }
            }
        }
        self.checks_covering(list, Some((&cover, openers)));
    }

    /// [`Position::check_moves`], or with `cover` = `(per_kind, openers)` only the checks
    /// whose piece (of its kind after the move) lands in `per_kind[kind]`, but for the moves of
    /// the pieces in `openers` and discovered checks.
    fn checks_covering(&self, list: &mut MoveList, cover: Option<(&[Bitboard; 14], Bitboard)>) {
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
        // (Each slider line is computed once and shared by the kinds that use it.)
        let rook = attacks::rook(eksq, occ);
        let bishop = attacks::bishop(eksq, occ);
        let gold = attacks::gold(them, eksq);
        let king = attacks::king(eksq);
        let mut chk = [gold; 14];
        chk[PieceKind::Pawn.index()] = attacks::pawn(them, eksq);
        chk[PieceKind::Lance.index()] = rook & attacks::lance(them, eksq, Bitboard::EMPTY);
        chk[PieceKind::Knight.index()] = attacks::knight(them, eksq);
        chk[PieceKind::Silver.index()] = attacks::silver(them, eksq);
        chk[PieceKind::Bishop.index()] = bishop;
        chk[PieceKind::Rook.index()] = rook;
        chk[PieceKind::King.index()] = Bitboard::EMPTY;
        chk[PieceKind::Horse.index()] = bishop | king;
        chk[PieceKind::Dragon.index()] = rook | king;
        let mut covering = chk;
        let mut unfiltered = Bitboard::FULL;
        if let Some((per_kind, openers)) = cover {
            for (c, p) in covering.iter_mut().zip(per_kind) {
                *c &= *p;
            }
            unfiltered = openers;
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
            let kind = p.kind;
            let masks = if unfiltered.has(from) {
                &chk
            } else {
                &covering
            };
            let pro = masks[kind.promoted().index()];
            let plain = masks[kind.index()];
            // Most pieces cannot reach a checking square even on an empty board.
            if !discoverers.has(from)
                && (attacks::attacks_empty(kind, us, from) & (plain | pro)).is_empty()
            {
                continue;
            }
            let mut to_bb = attacks::attacks(kind, us, from, occ) & not_own;
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
            let may_zone = kind.can_promote() && zone(us).has(from);
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
        self.drop_moves(list, Bitboard::FULL, Some(&covering));
    }

    /// The squares the enemy king (of the side not to move) could step to now: next to it,
    /// not held by its own side, and attacked by no piece of the side to move, with the king
    /// taken off the board so that a slider's line runs on through its square: a check that
    /// leaves one of them uncovered does not mate ([`Position::mate_candidates`]).
    pub fn enemy_king_free_squares(&self) -> Bitboard {
        let us = self.side;
        let them = us.flip();
        let Some(ek) = self.king_square(them) else {
            return Bitboard::EMPTY;
        };
        self.unattacked_near(ek, attacks::king(ek) & !self.by_color[them.index()], us)
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut l = MoveList::new();
        self.legal_moves(&mut l);
        !l.is_empty()
    }

    /// True when the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && self.evasion_count() == 0
    }

    /// True when `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        let mut l = MoveList::new();
        self.legal_moves(&mut l);
        l.contains(m)
    }
}

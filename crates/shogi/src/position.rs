//! The position: board, bitboards, hands, side to move, keys; making moves; attack queries.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::hand::Hand;
use crate::moves::Move;
use crate::types::{Color, Piece, PieceKind, Square};
use crate::zobrist;

/// A shogi position. Either king may be missing (tsume problems usually have no attacking
/// king); a side without a king can never be in check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [Option<Piece>; 81],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) by_kind: [Bitboard; 14],
    pub(crate) hands: [Hand; 2],
    pub(crate) side: Color,
    pub(crate) ply: u32,
    pub(crate) board_key: u64,
    pub(crate) hand_key: u64,
    pub(crate) checkers: Bitboard,
}

impl Position {
    pub(crate) fn empty() -> Position {
        Position {
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 14],
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            ply: 1,
            board_key: 0,
            hand_key: 0,
            checkers: Bitboard::EMPTY,
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        // The constant is valid SFEN (tested).
        Position::from_sfen(crate::sfen::STARTPOS).expect("start position parses")
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Move number as in SFEN (1 at the start).
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.ply
    }

    /// The hand of `c`.
    #[inline]
    pub fn hand(&self, c: Color) -> Hand {
        self.hands[c.index()]
    }

    /// Squares occupied by `c`.
    #[inline]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// Squares occupied by pieces of `kind` (both colors).
    #[inline]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Squares occupied by pieces of `c` and `kind`.
    #[inline]
    pub fn pieces_of(&self, c: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[c.index()]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The king square of `c`, if it has a king.
    #[inline]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        self.pieces_of(c, PieceKind::King).first()
    }

    /// Key of board and side to move, without hands (for hand-dominance tables).
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }

    /// Key of the whole position: board, side to move and both hands.
    #[inline]
    pub fn key(&self) -> u64 {
        self.board_key ^ self.hand_key
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// True when the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    pub(crate) fn put(&mut self, sq: Square, p: Piece) {
        self.board[sq.index()] = Some(p);
        let b = Bitboard::from_square(sq);
        self.by_color[p.color.index()] |= b;
        self.by_kind[p.kind.index()] |= b;
        self.board_key ^= zobrist::PIECE[p.color.index()][p.kind.index()][sq.index()];
    }

    pub(crate) fn remove(&mut self, sq: Square, p: Piece) {
        self.board[sq.index()] = None;
        let b = Bitboard::from_square(sq);
        self.by_color[p.color.index()] ^= b;
        self.by_kind[p.kind.index()] ^= b;
        self.board_key ^= zobrist::PIECE[p.color.index()][p.kind.index()][sq.index()];
    }

    pub(crate) fn add_hand(&mut self, c: Color, k: PieceKind) {
        self.hands[c.index()].add(k);
        self.hand_key = self
            .hand_key
            .wrapping_add(zobrist::HAND[c.index()][k.index()]);
    }

    pub(crate) fn remove_hand(&mut self, c: Color, k: PieceKind) {
        self.hands[c.index()].remove(k);
        self.hand_key = self
            .hand_key
            .wrapping_sub(zobrist::HAND[c.index()][k.index()]);
    }

    /// Moves one piece of hand kind `kind` from `from`'s hand to the other side's hand, if
    /// `from` holds one (used to build positions for futile-interposition tests). Returns
    /// whether a piece moved.
    pub fn transfer_hand_piece(&mut self, from: Color, kind: PieceKind) -> bool {
        if kind.index() >= 7 || !self.hands[from.index()].has(kind) {
            return false;
        }
        self.remove_hand(from, kind);
        self.add_hand(from.flip(), kind);
        true
    }

    /// Plays `m`, which must be legal (or at least pseudo-legal) in this position.
    pub fn play(&mut self, m: Move) {
        let us = self.side;
        let to = m.to();
        if m.is_drop() {
            let k = m.drop_kind();
            self.remove_hand(us, k);
            self.put(to, Piece::new(us, k));
        } else {
            let from = m.from();
            // A generated move always starts on a piece of the side to move.
            let Some(p) = self.board[from.index()] else {
                debug_assert!(false, "no piece on {from}");
                return;
            };
            if let Some(cap) = self.board[to.index()] {
                self.remove(to, cap);
                self.add_hand(us, cap.kind.unpromoted());
            }
            self.remove(from, p);
            let kind = if m.is_promotion() {
                p.kind.promoted()
            } else {
                p.kind
            };
            self.put(to, Piece::new(us, kind));
        }
        self.side = us.flip();
        self.board_key ^= zobrist::SIDE;
        self.ply += 1;
        self.checkers = self.checkers_after(m);
    }

    /// The checkers after `m` (just played by the side not to move): the moved or dropped
    /// piece itself, and a slider of the mover uncovered on the line from the king through the
    /// square the piece left. Equal to [`Position::compute_checkers`], without testing every
    /// kind of attacker.
    fn checkers_after(&self, m: Move) -> Bitboard {
        let Some(k) = self.king_square(self.side) else {
            return Bitboard::EMPTY;
        };
        let us = self.side.flip();
        let occ = self.occupied();
        let to = m.to();
        let mut ch = Bitboard::EMPTY;
        if let Some(p) = self.board[to.index()] {
            if attacks::attacks_square(p.kind, us, to, k, occ) {
                ch = Bitboard::from_square(to);
            }
        }
        if m.is_drop() {
            return ch;
        }
        let Some(d) = attacks::direction(k, m.from()) else {
            return ch;
        };
        let Some(s) = attacks::first_on_ray(d, k, occ) else {
            return ch;
        };
        let Some(p) = self.board[s.index()] else {
            return ch;
        };
        // Directions 0, 2, 4, 6 are orthogonal; a lance attacks the king when the ray from the
        // king to it points the lance's way back (south for Black, north for White).
        let slides = match p.kind {
            PieceKind::Rook | PieceKind::Dragon => d % 2 == 0,
            PieceKind::Bishop | PieceKind::Horse => d % 2 == 1,
            PieceKind::Lance => d == if us == Color::Black { 4 } else { 0 },
            _ => false,
        };
        if p.color == us && slides {
            ch |= Bitboard::from_square(s);
        }
        ch
    }

    /// The board key and the full key ([`Position::board_key`], [`Position::key`]) of the
    /// position after `m`, computed from the pieces it moves without playing it.
    #[inline(always)]
    pub fn keys_after(&self, m: Move) -> (u64, u64) {
        let us = self.side;
        let ui = us.index();
        let to = m.to();
        let mut board = self.board_key ^ zobrist::SIDE;
        let mut hand = self.hand_key;
        if m.is_drop() {
            let k = m.drop_kind();
            board ^= zobrist::PIECE[ui][k.index()][to.index()];
            hand = hand.wrapping_sub(zobrist::HAND[ui][k.index()]);
        } else {
            let from = m.from();
            let Some(p) = self.board[from.index()] else {
                debug_assert!(false, "no piece on {from}");
                return (board, board ^ hand);
            };
            if let Some(cap) = self.board[to.index()] {
                board ^= zobrist::PIECE[cap.color.index()][cap.kind.index()][to.index()];
                hand = hand.wrapping_add(zobrist::HAND[ui][cap.kind.unpromoted().index()]);
            }
            let kind = if m.is_promotion() {
                p.kind.promoted()
            } else {
                p.kind
            };
            board ^= zobrist::PIECE[ui][p.kind.index()][from.index()]
                ^ zobrist::PIECE[ui][kind.index()][to.index()];
        }
        (board, board ^ hand)
    }

    /// Makes this position, which is `parent` after `prev`, the position `parent` after `m`:
    /// only what `prev` changed is copied back from `parent` (a few squares, bitboards, hands
    /// and keys instead of the whole position), then `m` is played. For building the children
    /// of one position one after another in one place.
    pub fn replay_from(&mut self, parent: &Position, prev: Move, m: Move) {
        self.restore_from(parent, prev);
        debug_assert!(
            *self == *parent,
            "restore after {prev} left a different position"
        );
        self.play(m);
    }

    /// Undoes `prev` by copying back from `parent` what [`Position::play`] changed.
    #[inline]
    fn restore_from(&mut self, parent: &Position, prev: Move) {
        let to = prev.to().index();
        self.board[to] = parent.board[to];
        if prev.is_drop() {
            let k = prev.drop_kind().index();
            self.by_kind[k] = parent.by_kind[k];
        } else {
            let from = prev.from().index();
            self.board[from] = parent.board[from];
            if let Some(p) = parent.board[from] {
                let (k, pk) = (p.kind.index(), p.kind.promoted().index());
                self.by_kind[k] = parent.by_kind[k];
                self.by_kind[pk] = parent.by_kind[pk];
            }
            if let Some(cap) = parent.board[to] {
                let c = cap.kind.index();
                self.by_kind[c] = parent.by_kind[c];
            }
        }
        self.by_color = parent.by_color;
        self.hands = parent.hands;
        self.side = parent.side;
        self.ply = parent.ply;
        self.board_key = parent.board_key;
        self.hand_key = parent.hand_key;
        self.checkers = parent.checkers;
    }

    /// The position after `m`.
    #[inline]
    pub fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.play(m);
        p
    }

    pub(crate) fn compute_checkers(&self) -> Bitboard {
        match self.king_square(self.side) {
            Some(k) => self.attackers_to(self.side.flip(), k, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Gold-moving pieces: gold and the four promoted minor pieces.
    #[inline]
    pub fn golds(&self) -> Bitboard {
        self.by_kind[PieceKind::Gold.index()]
            | self.by_kind[PieceKind::ProPawn.index()]
            | self.by_kind[PieceKind::ProLance.index()]
            | self.by_kind[PieceKind::ProKnight.index()]
            | self.by_kind[PieceKind::ProSilver.index()]
    }

    /// Rook and dragon.
    #[inline]
    pub fn rook_likes(&self) -> Bitboard {
        self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Dragon.index()]
    }

    /// Bishop and horse.
    #[inline]
    pub fn bishop_likes(&self) -> Bitboard {
        self.by_kind[PieceKind::Bishop.index()] | self.by_kind[PieceKind::Horse.index()]
    }

    /// Pieces of `by` attacking `sq` when the board occupancy is `occ`.
    pub fn attackers_to(&self, by: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let them = by.flip();
        let k = |kind: PieceKind| self.by_kind[kind.index()];
        let a = (attacks::pawn(them, sq) & k(PieceKind::Pawn))
            | (attacks::knight(them, sq) & k(PieceKind::Knight))
            | (attacks::silver(them, sq) & k(PieceKind::Silver))
            | (attacks::gold(them, sq) & self.golds())
            | (attacks::king(sq)
                & (k(PieceKind::King) | k(PieceKind::Horse) | k(PieceKind::Dragon)))
            | (attacks::lance(them, sq, occ) & k(PieceKind::Lance));
        let mine = self.by_color[by.index()];
        let rooks = self.rook_likes() & mine;
        let bishops = self.bishop_likes() & mine;
        let mut sliders = Bitboard::EMPTY;
        if (attacks::rook_empty(sq) & rooks).any() {
            sliders |= attacks::rook(sq, occ) & rooks;
        }
        if (attacks::bishop_empty(sq) & bishops).any() {
            sliders |= attacks::bishop(sq, occ) & bishops;
        }
        (a & mine) | sliders
    }

    /// True when `sq` is attacked by `by` (cheapest tests first; sliders only when one is
    /// on a line through `sq`).
    #[inline]
    pub fn is_attacked(&self, by: Color, sq: Square, occ: Bitboard) -> bool {
        let them = by.flip();
        let mine = self.by_color[by.index()];
        let k = |kind: PieceKind| self.by_kind[kind.index()] & mine;
        if (attacks::gold(them, sq) & (self.golds() & mine)).any()
            || (attacks::silver(them, sq) & k(PieceKind::Silver)).any()
            || (attacks::pawn(them, sq) & k(PieceKind::Pawn)).any()
            || (attacks::knight(them, sq) & k(PieceKind::Knight)).any()
            || (attacks::king(sq)
                & (k(PieceKind::King) | k(PieceKind::Horse) | k(PieceKind::Dragon)))
            .any()
        {
            return true;
        }
        let rooks = self.rook_likes() & mine;
        if (attacks::rook_empty(sq) & rooks).any() && (attacks::rook(sq, occ) & rooks).any() {
            return true;
        }
        let bishops = self.bishop_likes() & mine;
        if (attacks::bishop_empty(sq) & bishops).any() && (attacks::bishop(sq, occ) & bishops).any()
        {
            return true;
        }
        let lances = k(PieceKind::Lance);
        lances.any() && (attacks::lance(them, sq, occ) & lances).any()
    }

    /// Pieces (of either color) that alone block a slider of `slider_color` from `target`.
    pub fn blockers_for(&self, target: Square, slider_color: Color) -> Bitboard {
        let occ = self.occupied();
        let snipers = ((attacks::rook_empty(target) & self.rook_likes())
            | (attacks::bishop_empty(target) & self.bishop_likes())
            | (attacks::lance(slider_color.flip(), target, Bitboard::EMPTY)
                & self.by_kind[PieceKind::Lance.index()]))
            & self.by_color[slider_color.index()];
        let mut out = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(target, s) & occ;
            if b.any() && !b.more_than_one() {
                out |= b;
            }
        }
        out
    }

    /// Pieces of `c` pinned to `c`'s king.
    #[inline]
    pub fn pinned(&self, c: Color) -> Bitboard {
        match self.king_square(c) {
            Some(k) => self.blockers_for(k, c.flip()) & self.by_color[c.index()],
            None => Bitboard::EMPTY,
        }
    }

    /// True when `m` (legal here) gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        self.after(m).in_check()
    }
}

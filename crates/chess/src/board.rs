//! `Board`: the complete state of a chess position as a small `Copy` value, and the code that
//! plays a move on it (make). Repetition history lives in [`crate::Position`].

use crate::attacks::{
    self, between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::types::{Color, Piece, PieceKind, Square};
use crate::zobrist;

/// Castling side: short (toward the h-file) or long (toward the a-file).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CastleSide {
    /// King goes to the g-file, rook to the f-file.
    Short = 0,
    /// King goes to the c-file, rook to the d-file.
    Long = 1,
}

impl CastleSide {
    /// King's destination file.
    pub const fn king_file(self) -> u8 {
        match self {
            CastleSide::Short => 6,
            CastleSide::Long => 2,
        }
    }
    /// Rook's destination file.
    pub const fn rook_file(self) -> u8 {
        match self {
            CastleSide::Short => 5,
            CastleSide::Long => 3,
        }
    }
}

const NO_SQ: u8 = 64;

/// A chess position without history: pieces, side to move, castling rights (by rook square,
/// so Chess960 works), en-passant square, move counters and the Zobrist key, plus the
/// checkers and pinned pieces of the side to move, kept up to date by [`Board::play`].
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Board {
    pub(crate) by_kind: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) side: Color,
    /// Rook square per colour and side, `NO_SQ` when the right is gone.
    pub(crate) castle_rooks: [[u8; 2]; 2],
    pub(crate) ep: u8,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) hash: u64,
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
    pub(crate) chess960: bool,
}

impl Board {
    /// An empty board, White to move, no rights. Used by the FEN reader.
    pub(crate) fn empty() -> Board {
        attacks::init();
        Board {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            side: Color::White,
            castle_rooks: [[NO_SQ; 2]; 2],
            ep: NO_SQ,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            chess960: false,
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Board {
        Board::from_fen(crate::fen::STARTPOS).expect("the start position is valid")
    }

    // ---- queries -------------------------------------------------------------------------

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// All pieces of one kind, both colours.
    #[inline(always)]
    pub fn kind(&self, k: PieceKind) -> Bitboard {
        self.by_kind[k.index()]
    }

    /// All pieces of one colour.
    #[inline(always)]
    pub fn color(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// Pieces of colour `c` and kind `k`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceKind) -> Bitboard {
        self.by_color[c.index()] & self.by_kind[k.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The piece on `s`, if any.
    #[inline(always)]
    pub fn piece_on(&self, s: Square) -> Option<Piece> {
        let kind = self.kind_on(s)?;
        let color = if self.by_color[1].has(s) {
            Color::Black
        } else {
            Color::White
        };
        Some(Piece::new(color, kind))
    }

    /// The kind of piece on `s`, if any. (No mailbox: the board stays small for copy-make.)
    #[inline(always)]
    pub fn kind_on(&self, s: Square) -> Option<PieceKind> {
        if !self.occupied().has(s) {
            return None;
        }
        Some(self.kind_on_occupied(s))
    }

    /// The kind of the piece on `s`, which must be occupied.
    #[inline(always)]
    pub(crate) fn kind_on_occupied(&self, s: Square) -> PieceKind {
        let b = s.index();
        let k = &self.by_kind;
        // Pawns, knights, bishops and rooks first: the usual movers and victims.
        if k[0].0 >> b & 1 != 0 {
            PieceKind::Pawn
        } else if k[1].0 >> b & 1 != 0 {
            PieceKind::Knight
        } else if k[2].0 >> b & 1 != 0 {
            PieceKind::Bishop
        } else if k[3].0 >> b & 1 != 0 {
            PieceKind::Rook
        } else if k[4].0 >> b & 1 != 0 {
            PieceKind::Queen
        } else {
            PieceKind::King
        }
    }

    /// Square of `c`'s king.
    #[inline(always)]
    pub fn king(&self, c: Color) -> Square {
        self.pieces(c, PieceKind::King).lsb()
    }

    /// En-passant target square, kept only when a pawn of the side to move attacks it.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        (self.ep != NO_SQ).then(|| Square::new(self.ep))
    }

    /// Halfmoves since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }

    /// Move number, starting at 1 and increasing after Black moves.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove as u32
    }

    /// Zobrist key, maintained incrementally.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// True when the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Pieces of the side to move pinned to their own king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// True when Chess960 castling notation is in use (UCI king-takes-rook, Shredder/X-FEN).
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches Chess960 notation on or off (the rules of play are the same).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// The rook square of `c`'s castling right on `side`, if the right is still there.
    #[inline(always)]
    pub fn castle_rook(&self, c: Color, side: CastleSide) -> Option<Square> {
        let s = self.castle_rooks[c.index()][side as usize];
        (s != NO_SQ).then(|| Square::new(s))
    }

    /// True when either side still has a castling right.
    #[inline(always)]
    pub fn has_castle_rights(&self) -> bool {
        let r = self.castle_rooks;
        u32::from_ne_bytes([r[0][0], r[0][1], r[1][0], r[1][1]]) != u32::from_ne_bytes([NO_SQ; 4])
    }

    /// Castling rights as four bits: white short, white long, black short, black long.
    #[inline(always)]
    pub fn castle_bits(&self) -> u8 {
        let mut b = 0;
        for (i, s) in self.castle_rooks.iter().flatten().enumerate() {
            if *s != NO_SQ {
                b |= 1 << i;
            }
        }
        b
    }

    /// Every piece of either colour attacking `s`, given occupancy `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, s: Square, occ: Bitboard) -> Bitboard {
        let rq = self.by_kind[3] | self.by_kind[4];
        let bq = self.by_kind[2] | self.by_kind[4];
        (pawn_attacks(Color::White, s) & self.pieces(Color::Black, PieceKind::Pawn))
            | (pawn_attacks(Color::Black, s) & self.pieces(Color::White, PieceKind::Pawn))
            | (knight_attacks(s) & self.by_kind[1])
            | (king_attacks(s) & self.by_kind[5])
            | (rook_attacks(s, occ) & rq)
            | (bishop_attacks(s, occ) & bq)
    }

    /// True when any piece of colour `by` attacks `s` with occupancy `occ`.
    #[inline(always)]
    pub fn is_attacked_by(&self, s: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        (knight_attacks(s) & self.by_kind[1] & them).any()
            || (pawn_attacks(by.flip(), s) & self.by_kind[0] & them).any()
            || (king_attacks(s) & self.by_kind[5] & them).any()
            || (rook_attacks(s, occ) & (self.by_kind[3] | self.by_kind[4]) & them).any()
            || (bishop_attacks(s, occ) & (self.by_kind[2] | self.by_kind[4]) & them).any()
    }

    /// Pieces (of either colour) that alone stand between `c`'s king and an enemy slider:
    /// our pieces among them are pinned, the enemy's can give discovered check.
    pub fn blockers_for_king(&self, c: Color) -> Bitboard {
        let k = self.king(c);
        let them = self.by_color[c.flip().index()];
        let snipers = ((rook_attacks(k, Bitboard::EMPTY) & (self.by_kind[3] | self.by_kind[4]))
            | (bishop_attacks(k, Bitboard::EMPTY) & (self.by_kind[2] | self.by_kind[4])))
            & them;
        let occ = self.occupied();
        let mut out = Bitboard::EMPTY;
        for s in snipers {
            let b = between(k, s) & occ & !Bitboard::from_square(s);
            if b.any() && !b.more_than_one() {
                out |= b;
            }
        }
        out
    }

    /// Recomputes checkers and pinned pieces for the side to move.
    #[inline(always)]
    pub(crate) fn update_check_info(&mut self) {
        let us = self.side;
        let k = self.king(us);
        let them = self.by_color[us.flip().index()];
        let occ = self.occupied();
        self.checkers = self.attackers_to(k, occ) & them;
        let snipers = ((attacks::rook_rays(k) & (self.by_kind[3] | self.by_kind[4]))
            | (attacks::bishop_rays(k) & (self.by_kind[2] | self.by_kind[4])))
            & them;
        let ours = self.by_color[us.index()];
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = between(k, s) & occ & !Bitboard::from_square(s);
            if !b.more_than_one() {
                pinned |= b & ours;
            }
        }
        self.pinned = pinned;
    }

    /// Zobrist key recomputed from scratch (tests compare it with the incremental one).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for s in Square::all() {
            if let Some(p) = self.piece_on(s) {
                h ^= zobrist::piece(p.index(), s.index());
            }
        }
        if self.side == Color::Black {
            h ^= zobrist::side();
        }
        let bits = self.castle_bits();
        for i in 0..4 {
            if bits >> i & 1 != 0 {
                h ^= zobrist::castle(i);
            }
        }
        if let Some(e) = self.ep_square() {
            h ^= zobrist::ep_file(e.file() as usize);
        }
        h
    }

    // ---- editing ---------------------------------------------------------------------------

    #[inline(always)]
    pub(crate) fn put(&mut self, p: Piece, s: Square) {
        self.put_h::<true>(p, s)
    }

    #[inline(always)]
    fn put_h<const HASH: bool>(&mut self, p: Piece, s: Square) {
        let b = Bitboard::from_square(s);
        self.by_kind[p.kind.index()] |= b;
        self.by_color[p.color.index()] |= b;
        if HASH {
            self.hash ^= zobrist::piece(p.index(), s.index());
        }
    }

    #[inline(always)]
    fn remove<const HASH: bool>(&mut self, p: Piece, s: Square) {
        let b = Bitboard::from_square(s);
        self.by_kind[p.kind.index()] ^= b;
        self.by_color[p.color.index()] ^= b;
        if HASH {
            self.hash ^= zobrist::piece(p.index(), s.index());
        }
    }

    #[inline(always)]
    fn shift<const HASH: bool>(&mut self, p: Piece, from: Square, to: Square) {
        let b = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_kind[p.kind.index()] ^= b;
        self.by_color[p.color.index()] ^= b;
        if HASH {
            self.hash ^=
                zobrist::piece(p.index(), from.index()) ^ zobrist::piece(p.index(), to.index());
        }
    }

    #[inline(always)]
    fn set_castle_bits_hash(&mut self, before: u8) {
        let diff = before ^ self.castle_bits();
        for i in 0..4 {
            if diff >> i & 1 != 0 {
                self.hash ^= zobrist::castle(i);
            }
        }
    }

    /// Plays a legal move in place (the "make" of copy-make). `m` must be legal here.
    #[inline]
    pub fn play(&mut self, m: Move) {
        self.play_impl::<true>(m)
    }

    /// `play`, with the Zobrist key left alone when `HASH` is false (perft needs no key).
    #[inline(always)]
    pub(crate) fn play_impl<const HASH: bool>(&mut self, m: Move) {
        let us = self.side;
        let them = us.flip();
        let from = m.from();
        let to = m.to();
        if self.ep != NO_SQ {
            if HASH {
                self.hash ^= zobrist::ep_file((self.ep & 7) as usize);
            }
            self.ep = NO_SQ;
        }
        let moved = Piece::new(us, self.kind_on_occupied(from));
        self.halfmove += 1;
        let rights_before = if HASH { self.castle_bits() } else { 0 };
        let has_rights = self.has_castle_rights();
        let mut rook_captured = false;

        if m.is_castle() {
            let side = if to.index() > from.index() {
                CastleSide::Short
            } else {
                CastleSide::Long
            };
            let rank = from.rank();
            let kdest = Square::from_coords(side.king_file(), rank);
            let rdest = Square::from_coords(side.rook_file(), rank);
            let rook = Piece::new(us, PieceKind::Rook);
            self.remove::<HASH>(moved, from);
            self.remove::<HASH>(rook, to);
            self.put_h::<HASH>(moved, kdest);
            self.put_h::<HASH>(rook, rdest);
            self.castle_rooks[us.index()] = [NO_SQ; 2];
        } else {
            if m.is_en_passant() {
                let cap = Square::from_coords(to.file(), from.rank());
                self.remove::<HASH>(Piece::new(them, PieceKind::Pawn), cap);
                self.halfmove = 0;
            } else if m.is_capture() {
                let victim = Piece::new(them, self.kind_on_occupied(to));
                rook_captured = victim.kind == PieceKind::Rook;
                self.remove::<HASH>(victim, to);
                self.halfmove = 0;
            }
            if let Some(k) = m.promotion() {
                self.remove::<HASH>(moved, from);
                self.put_h::<HASH>(Piece::new(us, k), to);
            } else {
                self.shift::<HASH>(moved, from, to);
            }
            if moved.kind == PieceKind::Pawn {
                self.halfmove = 0;
                if m.is_double_push() {
                    let ep = Square::new(((from.index() + to.index()) / 2) as u8);
                    if (pawn_attacks(us, ep) & self.pieces(them, PieceKind::Pawn)).any() {
                        self.ep = ep.index() as u8;
                        if HASH {
                            self.hash ^= zobrist::ep_file(ep.file() as usize);
                        }
                    }
                }
            }
            // Rights change only when a king or rook moves or a rook is taken.
            if has_rights
                && (rook_captured || moved.kind == PieceKind::King || moved.kind == PieceKind::Rook)
            {
                if moved.kind == PieceKind::King {
                    self.castle_rooks[us.index()] = [NO_SQ; 2];
                }
                for c in 0..2 {
                    for s in 0..2 {
                        let r = self.castle_rooks[c][s];
                        if r == from.index() as u8 || r == to.index() as u8 {
                            self.castle_rooks[c][s] = NO_SQ;
                        }
                    }
                }
            }
        }
        if HASH && has_rights {
            self.set_castle_bits_hash(rights_before);
        }
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = them;
        if HASH {
            self.hash ^= zobrist::side();
        }
        self.update_check_info();
    }

    /// Returns a copy with `m` played (copy-make).
    #[inline]
    pub fn played(&self, m: Move) -> Board {
        let mut b = *self;
        b.play(m);
        b
    }

    /// `played` without maintaining the Zobrist key (for perft).
    #[inline(always)]
    pub(crate) fn played_unhashed(&self, m: Move) -> Board {
        let mut b = *self;
        b.play_impl::<false>(m);
        b
    }

    /// Passes the turn (null move for search). Must not be called in check.
    pub fn play_null(&mut self) {
        if self.ep != NO_SQ {
            self.hash ^= zobrist::ep_file((self.ep & 7) as usize);
            self.ep = NO_SQ;
        }
        self.halfmove += 1;
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.flip();
        self.hash ^= zobrist::side();
        self.update_check_info();
    }

    /// True when `m` (legal here) gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let ek = self.king(us.flip());
        let from = m.from();
        let to = m.to();
        if m.is_castle() || m.is_en_passant() || m.promotion().is_some() {
            let after = self.played(m);
            return after.in_check();
        }
        let kind = match self.kind_on(from) {
            Some(k) => k,
            None => return false,
        };
        let occ = (self.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
        let direct = match kind {
            PieceKind::Pawn => pawn_attacks(us, to).has(ek),
            PieceKind::Knight => knight_attacks(to).has(ek),
            PieceKind::Bishop => bishop_attacks(to, occ).has(ek),
            PieceKind::Rook => rook_attacks(to, occ).has(ek),
            PieceKind::Queen => (rook_attacks(to, occ) | bishop_attacks(to, occ)).has(ek),
            PieceKind::King => false,
        };
        if direct {
            return true;
        }
        // Discovered check: `from` shielded the enemy king from one of our sliders.
        let ours = self.by_color[us.index()];
        if !(self.blockers_for_king(us.flip()) & ours).has(from) {
            return false;
        }
        !line(ek, from).has(to)
    }

    /// True when the side to move has insufficient material to mate against any defence and so
    /// does the opponent: K v K, K+minor v K, and K+B v K+B with same-coloured bishops.
    pub fn is_insufficient_material(&self) -> bool {
        if (self.by_kind[0] | self.by_kind[3] | self.by_kind[4]).any() {
            return false;
        }
        let minors = self.by_kind[1] | self.by_kind[2];
        if minors.count() <= 1 {
            return true;
        }
        if self.by_kind[1].is_empty() {
            let b = self.by_kind[2];
            return (b & Bitboard::DARK_SQUARES).is_empty()
                || (b & !Bitboard::DARK_SQUARES).is_empty();
        }
        false
    }
}

impl core::fmt::Debug for Board {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}

impl core::fmt::Display for Board {
    /// An ASCII diagram with White at the bottom.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for r in (0..8).rev() {
            write!(f, " {} ", r + 1)?;
            for file in 0..8 {
                let c = self
                    .piece_on(Square::from_coords(file, r))
                    .map_or('.', |p| p.char());
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "    a b c d e f g h")
    }
}

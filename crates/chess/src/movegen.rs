//! Legal move generation in the modes the hardware generators had.
//!
//! One generator, generic over a [`Sink`]: a [`MoveList`] collects moves, a counter adds up
//! popcounts (perft's bulk counting at the last ply). Legality is decided during generation from
//! the checkers and pinned pieces that `Board::play` keeps, so no move is ever made and taken
//! back to test it.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::board::{Board, CastleSide};
use crate::moves::{Move, MoveFlag, MoveList};
use crate::types::{Color, PieceKind, Square};

/// Which moves to generate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GenMode {
    /// Every legal move.
    All,
    /// Captures (en passant and capturing promotions included) and non-capturing queen
    /// promotions: the quiescence / captures-only mode.
    Captures,
    /// Everything `Captures` leaves out: non-captures, underpromotions by push, castling.
    Quiet,
    /// Legal moves out of check; nothing when not in check.
    Evasions,
    /// Quiet moves (as in `Quiet`) that give check, direct or discovered.
    QuietChecks,
}

const ALL: u8 = 0;
const CAPTURES: u8 = 1;
const QUIET: u8 = 2;

/// Receives generated moves.
pub(crate) trait Sink {
    /// Moves of a piece on `from` to each square of `targets`; squares in `them` are captures.
    fn piece(&mut self, from: Square, targets: Bitboard, them: Bitboard);
    /// Pawn moves to each square of `targets`, each from `to - delta`, all with `flag`.
    fn pawns(&mut self, targets: Bitboard, delta: i8, flag: MoveFlag);
    /// Promotions to each square of `targets` from `to - delta`: queen if `queen`, and the three
    /// underpromotions if `under`.
    fn promotions(&mut self, targets: Bitboard, delta: i8, capture: bool, queen: bool, under: bool);
    /// One move.
    fn one(&mut self, m: Move);
}

impl Sink for MoveList {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard, them: Bitboard) {
        for to in targets & them {
            self.push(Move::new(from, to, MoveFlag::Capture));
        }
        for to in targets & !them {
            self.push(Move::new(from, to, MoveFlag::Quiet));
        }
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i8, flag: MoveFlag) {
        for to in targets {
            let from = Square::new((to.index() as i8 - delta) as u8);
            self.push(Move::new(from, to, flag));
        }
    }
    #[inline(always)]
    fn promotions(
        &mut self,
        targets: Bitboard,
        delta: i8,
        capture: bool,
        queen: bool,
        under: bool,
    ) {
        for to in targets {
            let from = Square::new((to.index() as i8 - delta) as u8);
            if queen {
                self.push(Move::new(from, to, Move::promo_flag(4, capture)));
            }
            if under {
                for k in 1..4 {
                    self.push(Move::new(from, to, Move::promo_flag(k, capture)));
                }
            }
        }
    }
    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts moves without listing them.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: Bitboard, _them: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _delta: i8, _flag: MoveFlag) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn promotions(
        &mut self,
        targets: Bitboard,
        _delta: i8,
        _capture: bool,
        queen: bool,
        under: bool,
    ) {
        self.0 += targets.count() as u64 * (queen as u64 + 3 * under as u64);
    }
    #[inline(always)]
    fn one(&mut self, _m: Move) {
        self.0 += 1;
    }
}

#[inline(always)]
fn shift(b: Bitboard, delta: i8) -> Bitboard {
    if delta > 0 {
        Bitboard(b.0 << delta)
    } else {
        Bitboard(b.0 >> (-delta))
    }
}

impl Board {
    /// Generates the legal moves of `mode` into `list` (which is cleared first).
    pub fn generate_into(&self, mode: GenMode, list: &mut MoveList) {
        list.clear();
        match mode {
            GenMode::All => self.gen::<_, ALL>(list),
            GenMode::Captures => self.gen::<_, CAPTURES>(list),
            GenMode::Quiet => self.gen::<_, QUIET>(list),
            GenMode::Evasions => {
                if self.in_check() {
                    self.gen::<_, ALL>(list);
                }
            }
            GenMode::QuietChecks => self.gen_quiet_checks(list),
        }
    }

    /// Returns the legal moves of `mode`.
    pub fn generate(&self, mode: GenMode) -> MoveList {
        let mut l = MoveList::new();
        self.generate_into(mode, &mut l);
        l
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        self.generate(GenMode::All)
    }

    /// Number of legal moves, counted without listing them.
    #[inline]
    pub fn count_legal(&self) -> u64 {
        self.count_legal_inline()
    }

    #[inline(always)]
    pub(crate) fn count_legal_inline(&self) -> u64 {
        let mut c = Counter(0);
        self.gen::<_, ALL>(&mut c);
        c.0
    }

    /// All legal moves into `list` (not cleared), inlined into the caller.
    #[inline(always)]
    pub(crate) fn gen_list_all(&self, list: &mut MoveList) {
        self.gen::<_, ALL>(list);
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// True when `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        m != Move::NULL && self.legal_moves().contains(m)
    }

    #[inline(always)]
    pub(crate) fn gen<S: Sink, const MODE: u8>(&self, sink: &mut S) {
        let us = self.side;
        let them_c = us.flip();
        let ours = self.by_color[us.index()];
        let them = self.by_color[them_c.index()];
        let occ = ours | them;
        let ksq = self.king(us);
        let checkers = self.checkers;

        // King moves: legal when the destination is not attacked once the king has left.
        let king_targets = king_attacks(ksq)
            & match MODE {
                ALL => !ours,
                CAPTURES => them,
                _ => !occ,
            };
        let occ_no_king = occ ^ Bitboard::from_square(ksq);
        let mut legal_king = Bitboard::EMPTY;
        for to in king_targets {
            if !self.is_attacked_by(to, them_c, occ_no_king) {
                legal_king |= Bitboard::from_square(to);
            }
        }
        sink.piece(ksq, legal_king, them);

        if checkers.more_than_one() {
            return;
        }
        // Squares that answer a single check: capture the checker or block the line.
        let check_mask = if checkers.any() {
            between(ksq, checkers.lsb())
        } else {
            Bitboard::FULL
        };
        let target = check_mask
            & match MODE {
                ALL => !ours,
                CAPTURES => them,
                _ => !occ,
            };
        let pinned = self.pinned;

        // Knights (a pinned knight can never move).
        for from in self.pieces(us, PieceKind::Knight) & !pinned {
            sink.piece(from, knight_attacks(from) & target, them);
        }
        // Sliders: pinned ones stay on the line through their king.
        let queens = self.by_kind[4] & ours;
        for from in self.by_kind[2] & ours {
            let mut t = bishop_attacks(from, occ) & target;
            if pinned.has(from) {
                t &= line(ksq, from);
            }
            sink.piece(from, t, them);
        }
        for from in self.by_kind[3] & ours {
            let mut t = rook_attacks(from, occ) & target;
            if pinned.has(from) {
                t &= line(ksq, from);
            }
            sink.piece(from, t, them);
        }
        for from in queens {
            let mut t = queen_attacks(from, occ) & target;
            if pinned.has(from) {
                t &= line(ksq, from);
            }
            sink.piece(from, t, them);
        }

        self.gen_pawns::<S, MODE>(sink, check_mask, ksq);

        if MODE != CAPTURES && checkers.is_empty() {
            self.gen_castling(sink, ksq, occ);
        }
    }

    /// The checking-move generator: quiet moves that give check. Pieces aim only at the squares
    /// from which they would attack the enemy king, pieces that shield the king from one of our
    /// sliders add every move off that line (discovered checks), and pawn moves and castling are
    /// tested one by one.
    fn gen_quiet_checks(&self, list: &mut MoveList) {
        if self.in_check() {
            self.gen::<_, QUIET>(list);
            list.retain(|m| self.gives_check(m));
            return;
        }
        let us = self.side;
        let ours = self.by_color[us.index()];
        let occ = self.occupied();
        let empty = !occ;
        let ek = self.king(us.flip());
        let ksq = self.king(us);
        let disc = self.blockers_for_king(us.flip()) & ours;
        let knight_sq = knight_attacks(ek);
        let bishop_sq = bishop_attacks(ek, occ);
        let rook_sq = rook_attacks(ek, occ);
        let pinned = self.pinned;
        let aim = |from: Square, direct: Bitboard| -> Bitboard {
            let mut t = direct;
            if disc.has(from) {
                t |= !line(ek, from);
            }
            if pinned.has(from) {
                t &= line(ksq, from);
            }
            t & empty
        };
        for from in self.pieces(us, PieceKind::Knight) & !pinned {
            list.piece(
                from,
                knight_attacks(from) & aim(from, knight_sq),
                Bitboard::EMPTY,
            );
        }
        for from in self.pieces(us, PieceKind::Bishop) {
            list.piece(
                from,
                bishop_attacks(from, occ) & aim(from, bishop_sq),
                Bitboard::EMPTY,
            );
        }
        for from in self.pieces(us, PieceKind::Rook) {
            list.piece(
                from,
                rook_attacks(from, occ) & aim(from, rook_sq),
                Bitboard::EMPTY,
            );
        }
        for from in self.pieces(us, PieceKind::Queen) {
            list.piece(
                from,
                queen_attacks(from, occ) & aim(from, bishop_sq | rook_sq),
                Bitboard::EMPTY,
            );
        }
        if disc.has(ksq) {
            let mut legal = Bitboard::EMPTY;
            let occ_no_king = occ ^ Bitboard::from_square(ksq);
            for to in king_attacks(ksq) & empty & !line(ek, ksq) {
                if !self.is_attacked_by(to, us.flip(), occ_no_king) {
                    legal |= Bitboard::from_square(to);
                }
            }
            list.piece(ksq, legal, Bitboard::EMPTY);
        }
        let mut rest = MoveList::new();
        self.gen_pawns::<_, QUIET>(&mut rest, Bitboard::FULL, ksq);
        self.gen_castling(&mut rest, ksq, occ);
        for &m in rest.iter() {
            if self.gives_check(m) {
                list.push(m);
            }
        }
    }

    #[inline(always)]
    fn gen_pawns<S: Sink, const MODE: u8>(&self, sink: &mut S, check_mask: Bitboard, ksq: Square) {
        let us = self.side;
        let white = us == Color::White;
        let ours = self.by_color[us.index()];
        let them = self.by_color[us.flip().index()];
        let occ = ours | them;
        let empty = !occ;
        let pawns = self.by_kind[0] & ours;
        let up: i8 = if white { 8 } else { -8 };
        let (left, right): (i8, i8) = if white { (7, 9) } else { (-9, -7) };
        let rank7 = Bitboard::rank(if white { 6 } else { 1 });
        let rank3 = Bitboard::rank(if white { 2 } else { 5 });
        let not_a = !Bitboard::file(0);
        let not_h = !Bitboard::file(7);

        // Pinned pawns may only move along the pin line: handled one by one below.
        let free = pawns & !self.pinned;
        let pinned_pawns = pawns & self.pinned;

        let gen_quiet = MODE != CAPTURES;
        let gen_capt = MODE != QUIET;

        // Non-promoting pawns.
        let p = free & !rank7;
        if gen_quiet {
            let single = shift(p, up) & empty;
            let double = shift(single & rank3, up) & empty;
            sink.pawns(single & check_mask, up, MoveFlag::Quiet);
            sink.pawns(double & check_mask, up + up, MoveFlag::DoublePush);
        }
        if gen_capt {
            // West captures (toward the a-file) come from pawns not on the a-file.
            let l = shift(p & not_a, left) & them & check_mask;
            let r = shift(p & not_h, right) & them & check_mask;
            sink.pawns(l, left, MoveFlag::Capture);
            sink.pawns(r, right, MoveFlag::Capture);
        }
        // Promotions: captures mode takes queen pushes and all capturing promotions,
        // quiet mode takes underpromotion pushes.
        let p7 = free & rank7;
        if p7.any() {
            let push = shift(p7, up) & empty & check_mask;
            let l = shift(p7 & not_a, left) & them & check_mask;
            let r = shift(p7 & not_h, right) & them & check_mask;
            match MODE {
                ALL => {
                    sink.promotions(push, up, false, true, true);
                    sink.promotions(l, left, true, true, true);
                    sink.promotions(r, right, true, true, true);
                }
                CAPTURES => {
                    sink.promotions(push, up, false, true, false);
                    sink.promotions(l, left, true, true, true);
                    sink.promotions(r, right, true, true, true);
                }
                _ => sink.promotions(push, up, false, false, true),
            }
        }
        // Pinned pawns (none can move when in check).
        if self.checkers.is_empty() {
            for from in pinned_pawns {
                let pin = line(ksq, from);
                let fb = Bitboard::from_square(from);
                let promo = rank7.has(from);
                if gen_quiet || promo {
                    let single = shift(fb, up) & empty & pin;
                    if promo {
                        match MODE {
                            ALL => sink.promotions(single, up, false, true, true),
                            CAPTURES => sink.promotions(single, up, false, true, false),
                            _ => sink.promotions(single, up, false, false, true),
                        }
                    } else {
                        sink.pawns(single, up, MoveFlag::Quiet);
                        let double = shift(single & rank3, up) & empty & pin;
                        sink.pawns(double, up + up, MoveFlag::DoublePush);
                    }
                }
                if gen_capt {
                    let caps = pawn_attacks(us, from) & them & pin;
                    if promo {
                        for to in caps {
                            let d = to.index() as i8 - from.index() as i8;
                            sink.promotions(Bitboard::from_square(to), d, true, true, true);
                        }
                    } else {
                        sink.piece(from, caps, them);
                    }
                }
            }
        }
        // En passant: decided by replaying the occupancy change, which covers the horizontal pin
        // (both pawns leave the rank) and a capture that removes the checking pawn.
        if gen_capt && self.ep != 64 {
            let ep = Square::new(self.ep);
            let cap_sq = Square::new((ep.index() as i8 - up) as u8);
            for from in pawn_attacks(us.flip(), ep) & pawns {
                let occ2 = (occ ^ Bitboard::from_square(from) ^ Bitboard::from_square(cap_sq))
                    | Bitboard::from_square(ep);
                let them2 = them ^ Bitboard::from_square(cap_sq);
                let rq = (self.by_kind[3] | self.by_kind[4]) & them2;
                let bq = (self.by_kind[2] | self.by_kind[4]) & them2;
                let attacked = (rook_attacks(ksq, occ2) & rq).any()
                    || (bishop_attacks(ksq, occ2) & bq).any()
                    || (knight_attacks(ksq) & self.by_kind[1] & them2).any()
                    || (pawn_attacks(us, ksq) & self.by_kind[0] & them2).any();
                if !attacked {
                    sink.one(Move::new(from, ep, MoveFlag::EnPassant));
                }
            }
        }
    }

    #[inline(always)]
    fn gen_castling<S: Sink>(&self, sink: &mut S, ksq: Square, occ: Bitboard) {
        let us = self.side;
        for side in [CastleSide::Short, CastleSide::Long] {
            let r = self.castle_rooks[us.index()][side as usize];
            if r == 64 {
                continue;
            }
            let rsq = Square::new(r);
            let rank = ksq.rank();
            let kdest = Square::from_coords(side.king_file(), rank);
            let rdest = Square::from_coords(side.rook_file(), rank);
            let movers = Bitboard::from_square(ksq) | Bitboard::from_square(rsq);
            let path = between(ksq, kdest)
                | between(rsq, rdest)
                | Bitboard::from_square(kdest)
                | Bitboard::from_square(rdest);
            if (path & occ & !movers).any() {
                continue;
            }
            let occ2 = occ ^ movers;
            let mut safe = true;
            for s in between(ksq, kdest) | Bitboard::from_square(kdest) {
                if self.is_attacked_by(s, us.flip(), occ2) {
                    safe = false;
                    break;
                }
            }
            if safe {
                sink.one(Move::new(ksq, rsq, MoveFlag::Castle));
            }
        }
    }
}

//! Static exchange evaluation: does a capture sequence on one square win at least a threshold?
//! Least valuable attacker first, with sliders behind the capturers (x-rays) joining in as the
//! square's attackers are used up.

use chess::attacks::{bishop_attacks, rook_attacks};
use chess::{Bitboard, Board, Move, PieceKind};

/// Piece values for exchange counting.
pub const SEE_VALUE: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

/// Value won by the capture itself (victim plus promotion gain).
#[inline]
pub fn capture_gain(b: &Board, m: Move) -> i32 {
    let victim = if m.is_en_passant() {
        SEE_VALUE[0]
    } else if m.is_castle() {
        0
    } else {
        b.kind_on(m.to()).map_or(0, |k| SEE_VALUE[k.index()])
    };
    victim
        + m.promotion()
            .map_or(0, |k| SEE_VALUE[k.index()] - SEE_VALUE[0])
}

/// True when `m`'s exchange on its target square nets at least `threshold` for the mover.
pub fn see_ge(b: &Board, m: Move, threshold: i32) -> bool {
    if m.is_castle() || m.promotion().is_some() {
        return 0 >= threshold;
    }
    let from = m.from();
    let to = m.to();
    let mut swap = capture_gain(b, m) - threshold;
    if swap < 0 {
        return false;
    }
    let mover = match b.kind_on(from) {
        Some(k) => k,
        None => return false,
    };
    swap = SEE_VALUE[mover.index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = b.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    if m.is_en_passant() {
        occ ^= Bitboard::from_square(chess::Square::from_coords(to.file(), from.rank()));
    }
    let diag = b.kind(PieceKind::Bishop) | b.kind(PieceKind::Queen);
    let straight = b.kind(PieceKind::Rook) | b.kind(PieceKind::Queen);
    let mut attackers = b.attackers_to(to, occ) & occ;
    let mut stm = b.side_to_move();
    let mut res = true;
    loop {
        stm = !stm;
        attackers &= occ;
        let mine = attackers & b.color(stm);
        if mine.is_empty() {
            break;
        }
        res = !res;
        let mut kind = PieceKind::King;
        for k in [
            PieceKind::Pawn,
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ] {
            if (mine & b.kind(k)).any() {
                kind = k;
                break;
            }
        }
        if kind == PieceKind::King {
            // The king may only recapture when the other side has nothing left to take back.
            return if (attackers & !b.color(stm)).any() {
                !res
            } else {
                res
            };
        }
        swap = SEE_VALUE[kind.index()] - swap;
        if swap < res as i32 {
            break;
        }
        occ ^= Bitboard::from_square((mine & b.kind(kind)).lsb());
        if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
            attackers |= bishop_attacks(to, occ) & diag;
        }
        if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
            attackers |= rook_attacks(to, occ) & straight;
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, uci: &str, t: i32) -> bool {
        let b = Board::from_fen(fen).unwrap();
        let m = b.parse_uci_move(uci).unwrap();
        see_ge(&b, m, t)
    }

    #[test]
    fn exchanges() {
        // Pawn takes an undefended knight.
        assert!(see("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 300));
        // With the king defending too, the rook trade only breaks even.
        assert!(see("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 0));
        assert!(!see("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 1));
        // Queen takes a pawn defended by a pawn: loses.
        assert!(!see("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 0));
        // Rook takes a defended rook with our second rook behind it (x-ray): nets a rook.
        assert!(see("3r3k/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 500));
        assert!(!see("3r3k/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 501));
    }
}

//! The final adjustment the search makes to a static score: endgames that the material alone
//! marks as (nearly) drawn are scaled towards zero.
//!
//! The network is trained on the engine's own search scores, so it learns what the search
//! believed, not how games end: in the engine ladder it kept `+4` for twenty moves in
//! bishop-against-knight and rook endgames it could not win, shuffled, and drew, and traded
//! into a wrong-bishop rook-pawn ending it scored +11. Scaling by material knowledge tells the
//! search which trades throw a win away.

use chess::{Bitboard, Board, Color, PieceKind, Square};

/// Non-pawn material of `c` in pawns (minor 3, rook 5, queen 9).
pub(crate) fn npm(b: &Board, c: Color) -> i32 {
    (b.pieces(c, PieceKind::Knight).count() as i32 + b.pieces(c, PieceKind::Bishop).count() as i32)
        * 3
        + b.pieces(c, PieceKind::Rook).count() as i32 * 5
        + b.pieces(c, PieceKind::Queen).count() as i32 * 9
}

fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// How much of its advantage `strong` keeps, out of 64, judged by the material on the board:
/// 64 for anything not known to be drawish.
///
/// - No pawns and at most a minor piece ahead: 0 with a minor piece or less, 4 against a minor
///   piece or less, 14 otherwise (rook against bishop, rook and minor against rook).
/// - Two knights and nothing else against a king without pawns: 0.
/// - Pawns all on one rook file, no pieces but bishops of the wrong colour for the queening
///   square (or none), against a side without pieces whose king stands on or next to that
///   square: 2.
/// - Opposite-coloured bishops, no other pieces: 24 plus 8 per pawn of advantage, at most 48.
pub fn material_scale(b: &Board, strong: Color) -> i32 {
    let weak = strong.flip();
    let pawns = b.pieces(strong, PieceKind::Pawn);
    let (ns, nw) = (npm(b, strong), npm(b, weak));
    if pawns.is_empty() {
        if ns - nw <= 3 {
            return if ns < 5 {
                0
            } else if nw <= 3 {
                4
            } else {
                14
            };
        }
        let knights = b.pieces(strong, PieceKind::Knight);
        if ns == 6 && knights.count() == 2 && b.pieces(weak, PieceKind::Pawn).is_empty() {
            return 0;
        }
        return 64;
    }
    let bishops = b.pieces(strong, PieceKind::Bishop);
    if nw == 0 && ns == 3 * bishops.count() as i32 {
        let (a_file, h_file) = (Bitboard::file(0), Bitboard::file(7));
        let file = if (pawns & !a_file).is_empty() {
            Some(0)
        } else if (pawns & !h_file).is_empty() {
            Some(7)
        } else {
            None
        };
        if let Some(f) = file {
            let queening = Square::from_coords(f, if strong == Color::White { 7 } else { 0 });
            // No bishop on the queening square's colour.
            let q_colour = if Bitboard::DARK_SQUARES.has(queening) {
                Bitboard::DARK_SQUARES
            } else {
                !Bitboard::DARK_SQUARES
            };
            let wrong = (bishops & q_colour).is_empty();
            if wrong && distance(b.king(weak), queening) <= 1 {
                return 2;
            }
        }
    }
    let wb = b.pieces(weak, PieceKind::Bishop);
    if ns == 3 && nw == 3 && bishops.count() == 1 && wb.count() == 1 {
        let dark = Bitboard::DARK_SQUARES;
        if (bishops & dark).is_empty() != (wb & dark).is_empty() {
            let ahead = pawns.count() as i32 - b.pieces(weak, PieceKind::Pawn).count() as i32;
            return (24 + 8 * ahead.max(0)).min(48);
        }
    }
    64
}

/// The search's final score for `b` from the network's `v` (centipawns, side to move):
/// scaled by [`material_scale`] for the side it favours.
///
/// Damping by the fifty-move counter as well (`(200 - clock) / 200`) lost in self-play
/// (with the material scaling, against neither: -19.7 +/- 28.9 Elo over 300 games at 2s+0.02s,
/// most lost games decided before move 40, where only the damping acts),
/// so it is not done.
#[inline]
pub fn adjust(b: &Board, v: i32) -> i32 {
    v * scale_for(b, v) / 64
}

/// The [`material_scale`] that [`adjust`] applies to `v` (side to move's view): the scale of
/// the side `v` favours.
#[inline]
pub fn scale_for(b: &Board, v: i32) -> i32 {
    let stm = b.side_to_move();
    material_scale(b, if v > 0 { stm } else { stm.flip() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    /// Asserts `material_scale` for each (FEN, strong side, expected scale).
    fn check(cases: &[(&str, Color, i32)]) {
        for &(fen, strong, want) in cases {
            assert_eq!(material_scale(&board(fen), strong), want, "{fen}");
        }
    }

    #[test]
    fn drawn_material_is_scaled_and_winning_material_is_not() {
        check(&[
            // Rook against bishop, no pawns.
            ("8/8/3k4/8/8/2b5/8/R3K3 w - - 0 1", Color::White, 4),
            // Knight against pawns: the knight side cannot win.
            ("8/8/3k4/5pp1/8/2N5/8/4K3 w - - 0 1", Color::White, 0),
            // Two knights.
            ("8/8/3k4/8/8/2N2N2/8/4K3 w - - 0 1", Color::White, 0),
            // Bishop and knight mate, queen against rook, rook and pawn: not drawish.
            ("8/8/3k4/8/8/2N2B2/8/4K3 w - - 0 1", Color::White, 64),
            ("8/8/3k4/8/8/2r5/8/Q3K3 w - - 0 1", Color::White, 64),
            ("8/8/3k4/8/3P4/2r5/8/R3K3 w - - 0 1", Color::White, 64),
        ]);
    }

    #[test]
    fn wrong_rook_pawn_needs_the_defending_king_in_the_corner() {
        check(&[
            // White's h-pawn queens on h8 (dark); a light bishop on d3 cannot cover it.
            ("7k/8/6KP/8/8/3B4/8/8 w - - 0 1", Color::White, 2),
            // The right bishop (dark, e3) wins.
            ("7k/8/6KP/8/8/4B3/8/8 w - - 0 1", Color::White, 64),
            // Defending king far from the corner: not scaled.
            ("8/8/6KP/8/8/3B4/1k6/8 w - - 0 1", Color::White, 64),
            // Black's a-pawn queens on a1 (dark): a light bishop on c4 is wrong.
            ("8/8/8/8/2b5/p7/2k5/K7 b - - 0 1", Color::Black, 2),
            // A bare rook pawn with the king in front.
            ("k7/8/P7/1K6/8/8/8/8 w - - 0 1", Color::White, 2),
        ]);
    }

    #[test]
    fn opposite_bishops_scale_by_the_pawns_ahead() {
        check(&[
            // e3 is dark, e6 light, f6 dark; White is a pawn up.
            ("8/5k2/4b3/5p2/5P2/3PB3/5K2/8 w - - 0 1", Color::White, 32),
            // Same-coloured bishops.
            ("8/5k2/5b2/5p2/5P2/3PB3/5K2/8 w - - 0 1", Color::White, 64),
            // Two pawns up.
            ("8/5k2/4b3/5p2/3P1P2/3PB3/5K2/8 w - - 0 1", Color::White, 40),
        ]);
    }

    #[test]
    fn adjust_is_colour_symmetric_and_ignores_the_fifty_move_counter() {
        let b = board("8/5k2/4b3/5p2/5P2/3PB3/5K2/8 w - - 0 1");
        let m = board("8/5k2/3pb3/5p2/5P2/4B3/5K2/8 b - - 0 1");
        assert_eq!(adjust(&b, 200), 100);
        assert_eq!(adjust(&b, 200), adjust(&m, 200));
        assert_eq!(adjust(&b, -200), adjust(&m, -200));
        let fresh = board("8/5k2/8/8/3P4/2r5/8/R3K3 w - - 0 1");
        let old = board("8/5k2/8/8/3P4/2r5/8/R3K3 w - - 60 90");
        assert_eq!(adjust(&fresh, 300), 300);
        assert_eq!(adjust(&old, 300), 300);
        // Black ahead here means a rook against rook and pawn: 14/64.
        assert_eq!(adjust(&old, -300), -300 * 14 / 64);
    }
}

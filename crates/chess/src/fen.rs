//! FEN, X-FEN and Shredder-FEN: reading with validation, and writing.

use crate::attacks::pawn_attacks;
use crate::bitboard::Bitboard;
use crate::board::{Board, CastleSide};
use crate::types::{Color, Piece, PieceKind, Square};
use core::fmt;

/// The standard starting position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN was rejected; the message says what was wrong and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError {
    /// Which field (1-6) the problem is in, 0 when it concerns the whole position.
    pub field: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const NAMES: [&str; 7] = [
            "position",
            "piece placement",
            "side to move",
            "castling",
            "en passant",
            "halfmove clock",
            "fullmove number",
        ];
        write!(
            f,
            "bad FEN ({}): {}",
            NAMES[self.field.min(6)],
            self.message
        )
    }
}

impl std::error::Error for FenError {}

fn err(field: usize, message: impl Into<String>) -> FenError {
    FenError {
        field,
        message: message.into(),
    }
}

impl Board {
    /// Reads a FEN (4 to 6 fields; missing counters default to `0 1`). The castling field may be
    /// `KQkq`, X-FEN (`KQkq` meaning the outermost rook, or a rook file letter) or Shredder-FEN
    /// (rook file letters `A-H`/`a-h`). A file letter switches Chess960 notation on.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 || fields.len() > 6 {
            return Err(err(
                0,
                format!(
                    "expected 4 to 6 space-separated fields, found {}",
                    fields.len()
                ),
            ));
        }
        let mut b = Board::empty();

        // 1. Piece placement, from rank 8 down.
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(err(
                1,
                format!("expected 8 ranks separated by '/', found {}", ranks.len()),
            ));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            let mut last_digit = false;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 || d > 8 || last_digit {
                        return Err(err(
                            1,
                            format!("rank {}: bad empty-square count '{c}'", rank + 1),
                        ));
                    }
                    file += d as u8;
                    last_digit = true;
                } else if let Some(p) = Piece::from_char(c) {
                    if file >= 8 {
                        return Err(err(1, format!("rank {} has more than 8 squares", rank + 1)));
                    }
                    b.put(p, Square::from_coords(file, rank));
                    file += 1;
                    last_digit = false;
                } else {
                    return Err(err(
                        1,
                        format!(
                            "rank {}: '{c}' is not a piece letter (PNBRQK or pnbrqk)",
                            rank + 1
                        ),
                    ));
                }
                if file > 8 {
                    return Err(err(1, format!("rank {} has more than 8 squares", rank + 1)));
                }
            }
            if file != 8 {
                return Err(err(
                    1,
                    format!("rank {} has {file} squares, not 8", rank + 1),
                ));
            }
        }
        for c in Color::ALL {
            let n = b.pieces(c, PieceKind::King).count();
            if n != 1 {
                let who = if c == Color::White { "White" } else { "Black" };
                return Err(err(1, format!("{who} has {n} kings, not 1")));
            }
        }
        let back = Bitboard::rank(0) | Bitboard::rank(7);
        if let Some(s) = (b.by_kind[0] & back).pop() {
            return Err(err(
                1,
                format!("pawn on {s}: pawns cannot stand on the first or last rank"),
            ));
        }
        for c in Color::ALL {
            if b.color(c).count() > 16 {
                return Err(err(1, "a side has more than 16 pieces"));
            }
        }

        // 2. Side to move.
        b.side = match fields[1] {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            other => return Err(err(2, format!("'{other}' is not 'w' or 'b'"))),
        };

        // 3. Castling.
        if fields[2] != "-" {
            for ch in fields[2].chars() {
                let color = if ch.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let rank = if color == Color::White { 0 } else { 7 };
                let king = b.king(color);
                let who = if color == Color::White {
                    "White"
                } else {
                    "Black"
                };
                if king.rank() != rank {
                    return Err(err(
                        3,
                        format!("'{ch}': {who}'s king is not on its first rank"),
                    ));
                }
                let rooks = b.pieces(color, PieceKind::Rook) & Bitboard::rank(rank);
                let rook_sq = match ch.to_ascii_lowercase() {
                    'k' => {
                        // Outermost rook on the king's h-side (X-FEN rule).
                        let cand = rooks
                            .filter(|s| s.file() > king.file())
                            .max_by_key(|s| s.file());
                        cand.ok_or_else(|| {
                            err(3, format!("'{ch}': no {who} rook on the king's h-side"))
                        })?
                    }
                    'q' => {
                        let cand = rooks
                            .filter(|s| s.file() < king.file())
                            .min_by_key(|s| s.file());
                        cand.ok_or_else(|| {
                            err(3, format!("'{ch}': no {who} rook on the king's a-side"))
                        })?
                    }
                    f @ 'a'..='h' => {
                        let s = Square::from_coords(f as u8 - b'a', rank);
                        if !rooks.has(s) {
                            return Err(err(3, format!("'{ch}': no {who} rook on {s}")));
                        }
                        b.chess960 = true;
                        s
                    }
                    _ => {
                        return Err(err(
                            3,
                            format!("'{ch}' is not a castling letter (KQkq, A-H, a-h or -)"),
                        ))
                    }
                };
                let side = if rook_sq.file() > king.file() {
                    CastleSide::Short
                } else {
                    CastleSide::Long
                };
                let slot = &mut b.castle_rooks[color.index()][side as usize];
                if *slot != 64 && *slot != rook_sq.index() as u8 {
                    return Err(err(
                        3,
                        format!("'{ch}': two castling rooks on the same side for {who}"),
                    ));
                }
                *slot = rook_sq.index() as u8;
            }
            // A non-standard king or rook square also means Chess960.
            for c in Color::ALL {
                let rank = if c == Color::White { 0 } else { 7 };
                for side in [CastleSide::Short, CastleSide::Long] {
                    if let Some(r) = b.castle_rook(c, side) {
                        let std_rook = if side == CastleSide::Short { 7 } else { 0 };
                        if r.file() != std_rook || b.king(c) != Square::from_coords(4, rank) {
                            b.chess960 = true;
                        }
                    }
                }
            }
        }

        // 4. En passant.
        let mut ep = None;
        if fields[3] != "-" {
            let s = Square::parse(fields[3])
                .ok_or_else(|| err(4, format!("'{}' is not a square", fields[3])))?;
            let (ep_rank, dir): (u8, i8) = if b.side == Color::White {
                (5, -8)
            } else {
                (2, 8)
            };
            if s.rank() != ep_rank {
                return Err(err(
                    4,
                    format!("{s} is not on rank {} for this side to move", ep_rank + 1),
                ));
            }
            let pawn_sq = Square::new((s.index() as i8 + dir) as u8);
            let origin = Square::new((s.index() as i8 - dir) as u8);
            let them = b.side.flip();
            if !b.pieces(them, PieceKind::Pawn).has(pawn_sq) {
                return Err(err(
                    4,
                    format!("{s}: no pawn on {pawn_sq} that could just have moved two squares"),
                ));
            }
            if b.occupied().has(s) || b.occupied().has(origin) {
                return Err(err(
                    4,
                    format!("{s}: the squares the pawn passed over are not empty"),
                ));
            }
            ep = Some(s);
        }

        // 5-6. Counters.
        if let Some(h) = fields.get(4) {
            b.halfmove = h
                .parse::<u16>()
                .map_err(|_| err(5, format!("'{h}' is not a number")))?;
        }
        if let Some(f) = fields.get(5) {
            let n = f
                .parse::<u16>()
                .map_err(|_| err(6, format!("'{f}' is not a number")))?;
            b.fullmove = n.max(1);
        }

        // Keep the en-passant square only when a pawn can take on it (as `play` does).
        if let Some(s) = ep {
            if (pawn_attacks(b.side.flip(), s) & b.pieces(b.side, PieceKind::Pawn)).any() {
                b.ep = s.index() as u8;
            }
        }
        let us = b.side;
        if b.is_attacked_by(b.king(us.flip()), us, b.occupied()) {
            return Err(err(0, "the side not to move is in check"));
        }
        b.update_check_info();
        if b.checkers.count() > 2 {
            return Err(err(
                0,
                "the side to move is in check from more than two pieces",
            ));
        }
        b.hash = b.hash_from_scratch();
        Ok(b)
    }

    /// Writes X-FEN: `KQkq` for outermost rooks (so a standard position gives ordinary FEN),
    /// a file letter where a Chess960 right needs one.
    pub fn to_fen(&self) -> String {
        self.write_fen(false)
    }

    /// Writes Shredder-FEN: castling rights as rook file letters (`HAha`).
    pub fn to_shredder_fen(&self) -> String {
        self.write_fen(true)
    }

    fn write_fen(&self, shredder: bool) -> String {
        let mut s = String::with_capacity(90);
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match self.piece_on(Square::from_coords(f, r)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        let mut any = false;
        for c in Color::ALL {
            for side in [CastleSide::Short, CastleSide::Long] {
                if let Some(r) = self.castle_rook(c, side) {
                    any = true;
                    let rooks = self.pieces(c, PieceKind::Rook) & Bitboard::rank(r.rank());
                    let k = self.king(c);
                    let outermost = match side {
                        CastleSide::Short => rooks
                            .filter(|x| x.file() > k.file())
                            .all(|x| x.file() <= r.file()),
                        CastleSide::Long => rooks
                            .filter(|x| x.file() < k.file())
                            .all(|x| x.file() >= r.file()),
                    };
                    let ch = if !shredder && outermost {
                        if side == CastleSide::Short {
                            'k'
                        } else {
                            'q'
                        }
                    } else {
                        (b'a' + r.file()) as char
                    };
                    s.push(if c == Color::White {
                        ch.to_ascii_uppercase()
                    } else {
                        ch
                    });
                }
            }
        }
        if !any {
            s.push('-');
        }
        s.push(' ');
        match self.ep_square() {
            Some(e) => s.push_str(&e.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }
}

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

/// Field 2, the side to move.
fn read_side(text: &str) -> Result<Color, FenError> {
    match text {
        "w" | "W" => Ok(Color::White),
        "b" | "B" => Ok(Color::Black),
        other => Err(err(2, format!("'{other}' is not 'w' or 'b'"))),
    }
}

/// "White" or "Black", for messages.
fn color_name(c: Color) -> &'static str {
    if c == Color::White {
        "White"
    } else {
        "Black"
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
        b.read_placement(fields[0])?;
        b.side = read_side(fields[1])?;
        if fields[2] != "-" {
            b.read_castling(fields[2])?;
        }
        let ep = match fields[3] {
            "-" => None,
            text => Some(b.read_en_passant(text)?),
        };
        b.read_counters(fields.get(4).copied(), fields.get(5).copied())?;
        // Keep the en-passant square only when a pawn can take on it (as `play` does).
        if let Some(s) = ep {
            if (pawn_attacks(b.side.flip(), s) & b.pieces(b.side, PieceKind::Pawn)).any() {
                b.ep = s.index() as u8;
            }
        }
        b.finish_from_fen()?;
        Ok(b)
    }

    /// Field 1, the piece placement (from rank 8 down), onto the empty board; then the checks
    /// that concern the pieces alone.
    fn read_placement(&mut self, text: &str) -> Result<(), FenError> {
        let ranks: Vec<&str> = text.split('/').collect();
        if ranks.len() != 8 {
            return Err(err(
                1,
                format!("expected 8 ranks separated by '/', found {}", ranks.len()),
            ));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            self.read_rank(7 - i as u8, rank_text)?;
        }
        self.check_pieces()
    }

    /// One rank of the placement: piece letters and counts of empty squares, eight squares.
    fn read_rank(&mut self, rank: u8, text: &str) -> Result<(), FenError> {
        let mut file = 0u8;
        let mut last_digit = false;
        for c in text.chars() {
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
                self.put(p, Square::from_coords(file, rank));
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
        Ok(())
    }

    /// One king a side, no pawn on the first or last rank, at most 16 pieces a side.
    fn check_pieces(&self) -> Result<(), FenError> {
        for c in Color::ALL {
            let n = self.pieces(c, PieceKind::King).count();
            if n != 1 {
                return Err(err(1, format!("{} has {n} kings, not 1", color_name(c))));
            }
        }
        let back = Bitboard::rank(0) | Bitboard::rank(7);
        if let Some(s) = (self.by_kind[0] & back).pop() {
            return Err(err(
                1,
                format!("pawn on {s}: pawns cannot stand on the first or last rank"),
            ));
        }
        for c in Color::ALL {
            if self.color(c).count() > 16 {
                return Err(err(1, "a side has more than 16 pieces"));
            }
        }
        Ok(())
    }

    /// Field 3, the castling rights (not `-`): each letter names a rook, which becomes its
    /// side's castling rook.
    fn read_castling(&mut self, text: &str) -> Result<(), FenError> {
        for ch in text.chars() {
            let color = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let rook = self.castling_rook(ch, color)?;
            let side = if rook.file() > self.king(color).file() {
                CastleSide::Short
            } else {
                CastleSide::Long
            };
            let slot = &mut self.castle_rooks[color.index()][side as usize];
            if *slot != 64 && *slot != rook.index() as u8 {
                return Err(err(
                    3,
                    format!(
                        "'{ch}': two castling rooks on the same side for {}",
                        color_name(color)
                    ),
                ));
            }
            *slot = rook.index() as u8;
        }
        // A non-standard king or rook square also means Chess960.
        for c in Color::ALL {
            for side in [CastleSide::Short, CastleSide::Long] {
                if let Some(r) = self.castle_rook(c, side) {
                    let std_rook = if side == CastleSide::Short { 7 } else { 0 };
                    if r.file() != std_rook || self.king(c) != Square::from_coords(4, c.back_rank())
                    {
                        self.chess960 = true;
                    }
                }
            }
        }
        Ok(())
    }

    /// The rook castling letter `ch` of `color` names: `K`/`Q` the outermost rook on the
    /// king's h-side / a-side (the X-FEN rule), a file letter the rook on that file (which
    /// switches Chess960 notation on).
    fn castling_rook(&mut self, ch: char, color: Color) -> Result<Square, FenError> {
        let rank = color.back_rank();
        let king = self.king(color);
        let who = color_name(color);
        if king.rank() != rank {
            return Err(err(
                3,
                format!("'{ch}': {who}'s king is not on its first rank"),
            ));
        }
        let rooks = self.pieces(color, PieceKind::Rook) & Bitboard::rank(rank);
        match ch.to_ascii_lowercase() {
            'k' => rooks
                .filter(|s| s.file() > king.file())
                .max_by_key(|s| s.file())
                .ok_or_else(|| err(3, format!("'{ch}': no {who} rook on the king's h-side"))),
            'q' => rooks
                .filter(|s| s.file() < king.file())
                .min_by_key(|s| s.file())
                .ok_or_else(|| err(3, format!("'{ch}': no {who} rook on the king's a-side"))),
            f @ 'a'..='h' => {
                let s = Square::from_coords(f as u8 - b'a', rank);
                if !rooks.has(s) {
                    return Err(err(3, format!("'{ch}': no {who} rook on {s}")));
                }
                self.chess960 = true;
                Ok(s)
            }
            _ => Err(err(
                3,
                format!("'{ch}' is not a castling letter (KQkq, A-H, a-h or -)"),
            )),
        }
    }

    /// Field 4, the en-passant square (not `-`): behind a pawn of the side not to move that
    /// could just have moved two squares, over empty squares.
    fn read_en_passant(&self, text: &str) -> Result<Square, FenError> {
        let s = Square::parse(text).ok_or_else(|| err(4, format!("'{text}' is not a square")))?;
        let (ep_rank, dir): (u8, i8) = if self.side == Color::White {
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
        if !self.pieces(self.side.flip(), PieceKind::Pawn).has(pawn_sq) {
            return Err(err(
                4,
                format!("{s}: no pawn on {pawn_sq} that could just have moved two squares"),
            ));
        }
        if self.occupied().has(s) || self.occupied().has(origin) {
            return Err(err(
                4,
                format!("{s}: the squares the pawn passed over are not empty"),
            ));
        }
        Ok(s)
    }

    /// Fields 5 and 6, the halfmove clock and the fullmove number, where present.
    fn read_counters(
        &mut self,
        halfmove: Option<&str>,
        fullmove: Option<&str>,
    ) -> Result<(), FenError> {
        if let Some(h) = halfmove {
            self.halfmove = h
                .parse::<u16>()
                .map_err(|_| err(5, format!("'{h}' is not a number")))?;
        }
        if let Some(f) = fullmove {
            let n = f
                .parse::<u16>()
                .map_err(|_| err(6, format!("'{f}' is not a number")))?;
            self.fullmove = n.max(1);
        }
        Ok(())
    }

    /// The checks on the whole position (the side not to move not in check, at most two
    /// checkers), then the check information and the key.
    fn finish_from_fen(&mut self) -> Result<(), FenError> {
        let us = self.side;
        if self.is_attacked_by(self.king(us.flip()), us, self.occupied()) {
            return Err(err(0, "the side not to move is in check"));
        }
        self.update_check_info();
        if self.checkers.count() > 2 {
            return Err(err(
                0,
                "the side to move is in check from more than two pieces",
            ));
        }
        self.hash = self.hash_from_scratch();
        Ok(())
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

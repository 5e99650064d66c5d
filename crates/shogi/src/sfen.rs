//! SFEN text: parsing with validation errors that say what is wrong and where, and printing.

use crate::hand::MAX_IN_SET;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, Piece, PieceKind, Square, HAND_KINDS};
use crate::zobrist;
use std::fmt;

/// The standard starting position.
pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// An SFEN that could not be read: which field, and what was wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SfenError {
    /// The field: "board", "side", "hand", "move number" or "position".
    pub field: &'static str,
    /// What was wrong, naming the rank, square or character.
    pub what: String,
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad SFEN {}: {}", self.field, self.what)
    }
}

impl std::error::Error for SfenError {}

fn err(field: &'static str, what: String) -> SfenError {
    SfenError { field, what }
}

/// The owner of a piece letter: upper case Black (sente), lower case White.
fn letter_color(ch: char) -> Color {
    if ch.is_ascii_uppercase() {
        Color::Black
    } else {
        Color::White
    }
}

/// The move-number field: a positive number.
fn read_move_number(text: &str) -> Result<u32, SfenError> {
    match text.parse::<u32>() {
        Ok(v) if v >= 1 => Ok(v),
        _ => Err(err(
            "move number",
            format!("'{text}' is not a positive number"),
        )),
    }
}

/// A USI move that could not be read or is not legal here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError(pub String);

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// Parses SFEN (`board side hand [move number]`), validating the position: nine ranks of
    /// nine squares, known pieces, no piece on a square it could never leave, no two unpromoted
    /// pawns of one side on a file, at most one king a side, no more pieces than a set holds,
    /// and the side not to move not in check.
    pub fn from_sfen(s: &str) -> Result<Position, SfenError> {
        Position::parse_sfen(s, true)
    }

    /// Like [`Position::from_sfen`] but accepting two unpromoted pawns of one side on a file
    /// (nifu) on the board, as some generated tsume collections contain: the rules still
    /// forbid dropping a pawn on such a file.
    pub fn from_sfen_relaxed(s: &str) -> Result<Position, SfenError> {
        Position::parse_sfen(s, false)
    }

    fn parse_sfen(s: &str, strict: bool) -> Result<Position, SfenError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() < 3 || fields.len() > 4 {
            return Err(err(
                "position",
                format!(
                    "expected 3 or 4 fields (board side hand [move]), found {}",
                    fields.len()
                ),
            ));
        }
        let mut pos = Position::empty();
        pos.read_board(fields[0])?;
        pos.read_side(fields[1])?;
        if fields[2] != "-" {
            pos.read_hands(fields[2])?;
        }
        if let Some(m) = fields.get(3) {
            pos.ply = read_move_number(m)?;
        }
        pos.validate(strict)?;
        pos.checkers = pos.compute_checkers();
        Ok(pos)
    }

    /// The board field: nine ranks from rank a (the top, White's side) down.
    fn read_board(&mut self, text: &str) -> Result<(), SfenError> {
        let ranks: Vec<&str> = text.split('/').collect();
        if ranks.len() != 9 {
            return Err(err(
                "board",
                format!("expected 9 ranks, found {}", ranks.len()),
            ));
        }
        for (r, rank_text) in ranks.iter().enumerate() {
            self.read_rank(r as u8, rank_text)?;
        }
        Ok(())
    }

    /// Rank `r` (0 for rank a): pieces (`+` before a promoted one) and counts of empty
    /// squares, nine squares, no piece where it could never move again.
    fn read_rank(&mut self, r: u8, text: &str) -> Result<(), SfenError> {
        let rank_name = (b'a' + r) as char;
        let mut col = 0u8;
        let mut promoted = false;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if promoted || d == 0 {
                    return Err(err("board", format!("rank {rank_name}: unexpected '{ch}'")));
                }
                col += d as u8;
            } else if ch == '+' {
                if promoted {
                    return Err(err("board", format!("rank {rank_name}: '++'")));
                }
                promoted = true;
                continue;
            } else {
                let Some(mut kind) = PieceKind::from_letter(ch) else {
                    return Err(err(
                        "board",
                        format!("rank {rank_name}: unknown piece '{ch}'"),
                    ));
                };
                if col >= 9 {
                    return Err(err(
                        "board",
                        format!("rank {rank_name} has more than 9 squares"),
                    ));
                }
                if promoted {
                    if !kind.can_promote() {
                        return Err(err(
                            "board",
                            format!("rank {rank_name}: '+{ch}' cannot be promoted"),
                        ));
                    }
                    kind = kind.promoted();
                }
                let color = letter_color(ch);
                let sq = Square(r * 9 + col);
                if sq.relative_rank(color) < kind.dead_ranks() {
                    return Err(err("board", format!("{ch} on {sq} could never move again")));
                }
                self.put(sq, Piece::new(color, kind));
                col += 1;
            }
            promoted = false;
            if col > 9 {
                return Err(err(
                    "board",
                    format!("rank {rank_name} has more than 9 squares"),
                ));
            }
        }
        if promoted {
            return Err(err("board", format!("rank {rank_name} ends with '+'")));
        }
        if col != 9 {
            return Err(err(
                "board",
                format!("rank {rank_name} has {col} squares, expected 9"),
            ));
        }
        Ok(())
    }

    /// The side field, `b` (Black, sente) or `w`, into the side and the board key.
    fn read_side(&mut self, text: &str) -> Result<(), SfenError> {
        self.side = match text {
            "b" => Color::Black,
            "w" => Color::White,
            other => return Err(err("side", format!("expected 'b' or 'w', found '{other}'"))),
        };
        if self.side == Color::White {
            self.board_key ^= zobrist::SIDE;
        }
        Ok(())
    }

    /// The hand field (not `-`): piece letters, each after an optional count (Black's upper
    /// case), no more of a kind than a set holds.
    fn read_hands(&mut self, text: &str) -> Result<(), SfenError> {
        let mut n: u32 = 0;
        let mut saw_digit = false;
        for (i, ch) in text.chars().enumerate() {
            if let Some(d) = ch.to_digit(10) {
                n = n * 10 + d;
                saw_digit = true;
                if n > 18 {
                    return Err(err(
                        "hand",
                        format!("count too large at character {}", i + 1),
                    ));
                }
                continue;
            }
            let kind = match PieceKind::from_letter(ch) {
                Some(k) if k != PieceKind::King => k,
                _ => {
                    return Err(err(
                        "hand",
                        format!("'{ch}' at character {} is not a hand piece", i + 1),
                    ))
                }
            };
            let count = if saw_digit { n } else { 1 };
            if count == 0 {
                return Err(err("hand", format!("zero count at character {}", i + 1)));
            }
            let color = letter_color(ch);
            for _ in 0..count {
                if self.hands[color.index()].count(kind) >= MAX_IN_SET[kind.index()] {
                    return Err(err("hand", format!("too many '{ch}'")));
                }
                self.add_hand(color, kind);
            }
            n = 0;
            saw_digit = false;
        }
        if saw_digit {
            return Err(err("hand", "ends with a count".to_string()));
        }
        Ok(())
    }

    fn validate(&self, strict: bool) -> Result<(), SfenError> {
        for c in [Color::Black, Color::White] {
            if self.pieces_of(c, PieceKind::King).more_than_one() {
                return Err(err("board", format!("{c:?} has more than one king")));
            }
            let pawns = self.pieces_of(c, PieceKind::Pawn);
            for col in 0..9 {
                if strict
                    && (pawns & crate::bitboard::Bitboard(crate::bitboard::FILE_MASKS[col]))
                        .more_than_one()
                {
                    return Err(err(
                        "board",
                        format!("{c:?} has two unpromoted pawns on file {} (nifu)", 9 - col),
                    ));
                }
            }
        }
        for kind in HAND_KINDS {
            let mut n = self.hands[0].count(kind) + self.hands[1].count(kind);
            n += self.by_kind[kind.index()].count();
            if kind != PieceKind::Gold {
                n += self.by_kind[kind.promoted().index()].count();
            }
            if n > MAX_IN_SET[kind.index()] {
                return Err(err(
                    "position",
                    format!(
                        "{n} pieces of kind {}, a set has {}",
                        kind.letter(),
                        MAX_IN_SET[kind.index()]
                    ),
                ));
            }
        }
        let them = self.side.flip();
        if let Some(k) = self.king_square(them) {
            if self.is_attacked(self.side, k, self.occupied()) {
                return Err(err(
                    "position",
                    "the side not to move is in check".to_string(),
                ));
            }
        }
        Ok(())
    }

    /// SFEN text of this position.
    pub fn to_sfen(&self) -> String {
        let mut s = String::new();
        for r in 0..9 {
            let mut empty = 0;
            for c in 0..9 {
                match self.board[r * 9 + c] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push_str(&p.sfen());
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if r < 8 {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::Black {
            " b "
        } else {
            " w "
        });
        let mut hand = String::new();
        for c in [Color::Black, Color::White] {
            // Conventional order: rook, bishop, gold, silver, knight, lance, pawn.
            for kind in HAND_KINDS.iter().rev() {
                let n = self.hands[c.index()].count(*kind);
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                if n > 0 {
                    let l = kind.letter();
                    hand.push(if c == Color::Black {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    });
                }
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        s.push_str(&hand);
        s.push(' ');
        s.push_str(&self.ply.to_string());
        s
    }

    /// Reads a USI move (`7g7f`, `8h2b+`, `P*5e`) and checks that it is legal here.
    pub fn parse_usi(&self, text: &str) -> Result<Move, MoveError> {
        let bad = || MoveError(format!("'{text}' is not a USI move"));
        let m = if let Some((p, sq)) = text.split_once('*') {
            let mut pc = p.chars();
            let (Some(ch), None) = (pc.next(), pc.next()) else {
                return Err(bad());
            };
            let kind = match PieceKind::from_letter(ch) {
                Some(k) if k != PieceKind::King && ch.is_ascii_uppercase() => k,
                _ => return Err(bad()),
            };
            Move::drop(kind, Square::parse(sq).ok_or_else(bad)?)
        } else {
            let (body, promote) = match text.strip_suffix('+') {
                Some(b) => (b, true),
                None => (text, false),
            };
            if body.len() != 4 || !body.is_ascii() {
                return Err(bad());
            }
            let from = Square::parse(&body[..2]).ok_or_else(bad)?;
            let to = Square::parse(&body[2..]).ok_or_else(bad)?;
            Move::normal(from, to, promote)
        };
        let mut l = MoveList::new();
        self.legal_moves(&mut l);
        if l.contains(m) {
            Ok(m)
        } else {
            Err(MoveError(format!(
                "'{text}' is not legal in {}",
                self.to_sfen()
            )))
        }
    }
}

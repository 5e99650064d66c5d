//! Move text: UCI long algebraic (`e2e4`, `e7e8q`, castling as `e1g1` or, in Chess960 mode,
//! king-takes-rook `e1h1`) and SAN (`Nbd7`, `exd6`, `O-O`, `e8=Q+`, `Qh4#`).

use crate::bitboard::Bitboard;
use crate::board::{Board, CastleSide};
use crate::movegen::GenMode;
use crate::moves::Move;
use crate::types::{PieceKind, Square};
use core::fmt;

/// Why a move text was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not move notation at all.
    Syntax(String),
    /// The text reads as a move, but not a legal one here.
    Illegal(String),
    /// More than one legal move fits the text.
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "'{s}' is not a move in this notation"),
            MoveError::Illegal(s) => write!(f, "'{s}' is not a legal move in this position"),
            MoveError::Ambiguous(s) => write!(f, "'{s}' fits more than one legal move"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Board {
    /// King destination square of a castling move.
    fn castle_king_dest(&self, m: Move) -> Square {
        let side = if m.to().index() > m.from().index() {
            CastleSide::Short
        } else {
            CastleSide::Long
        };
        Square::from_coords(side.king_file(), m.from().rank())
    }

    /// Formats `m` in UCI notation; castling is king-takes-rook only in Chess960 mode.
    pub fn move_to_uci(&self, m: Move) -> String {
        if m == Move::NULL {
            return "0000".to_string();
        }
        let to = if m.is_castle() && !self.chess960 {
            self.castle_king_dest(m)
        } else {
            m.to()
        };
        let mut s = format!("{}{}", m.from(), to);
        if let Some(p) = m.promotion() {
            s.push(p.char());
        }
        s
    }

    /// Reads a UCI move and checks that it is legal. Castling is accepted both as the king's
    /// two-square move and as king-takes-rook.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let bytes = t.as_bytes();
        if !(4..=5).contains(&bytes.len()) || !t.is_ascii() {
            return Err(MoveError::Syntax(t.to_string()));
        }
        let from = Square::parse(&t[0..2]).ok_or_else(|| MoveError::Syntax(t.to_string()))?;
        let to = Square::parse(&t[2..4]).ok_or_else(|| MoveError::Syntax(t.to_string()))?;
        let promo = match bytes.get(4) {
            None => None,
            Some(&c) => match PieceKind::from_char(c as char) {
                Some(
                    k
                    @ (PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen),
                ) => Some(k),
                _ => return Err(MoveError::Syntax(t.to_string())),
            },
        };
        for &m in self.legal_moves().iter() {
            if m.from() != from || m.promotion() != promo {
                continue;
            }
            let fits = if m.is_castle() {
                // King-takes-rook always; the king's two-square form outside Chess960 mode (in
                // Chess960 it could be confused with an ordinary king move).
                to == m.to() || (!self.chess960 && to == self.castle_king_dest(m))
            } else {
                m.to() == to
            };
            if fits {
                return Ok(m);
            }
        }
        Err(MoveError::Illegal(t.to_string()))
    }

    /// Formats `m` (legal here) in SAN, with `+` or `#`.
    pub fn move_to_san(&self, m: Move) -> String {
        let mut s = String::with_capacity(8);
        if m.is_castle() {
            s.push_str(if m.to().index() > m.from().index() {
                "O-O"
            } else {
                "O-O-O"
            });
        } else {
            let kind = self.kind_on(m.from()).unwrap_or(PieceKind::Pawn);
            if kind == PieceKind::Pawn {
                if m.is_capture() {
                    s.push((b'a' + m.from().file()) as char);
                    s.push('x');
                }
                s.push_str(&m.to().to_string());
                if let Some(p) = m.promotion() {
                    s.push('=');
                    s.push(p.char().to_ascii_uppercase());
                }
            } else {
                s.push(kind.char().to_ascii_uppercase());
                // Disambiguation: other pieces of the same kind that can reach the same square.
                let mut others = Bitboard::EMPTY;
                for &o in self.legal_moves().iter() {
                    if o.to() == m.to()
                        && o.from() != m.from()
                        && !o.is_castle()
                        && self.kind_on(o.from()) == Some(kind)
                    {
                        others |= Bitboard::from_square(o.from());
                    }
                }
                if others.any() {
                    let same_file = (others & Bitboard::file(m.from().file())).any();
                    let same_rank = (others & Bitboard::rank(m.from().rank())).any();
                    if !same_file {
                        s.push((b'a' + m.from().file()) as char);
                    } else if !same_rank {
                        s.push((b'1' + m.from().rank()) as char);
                    } else {
                        s.push_str(&m.from().to_string());
                    }
                }
                if m.is_capture() {
                    s.push('x');
                }
                s.push_str(&m.to().to_string());
            }
        }
        let after = self.played(m);
        if after.in_check() {
            s.push(if after.has_legal_move() { '+' } else { '#' });
        }
        s
    }

    /// Reads SAN (tolerating `0-0`, a missing `=` before the promotion piece, and trailing
    /// `+ # ! ?` and `e.p.`) and checks that the move is legal and unambiguous.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        let raw = text.trim();
        let mut t: &str = raw.trim_end_matches(['+', '#', '!', '?']);
        if let Some(x) = t.strip_suffix("e.p.") {
            t = x.trim_end();
        }
        if t.is_empty() || !t.is_ascii() {
            return Err(MoveError::Syntax(raw.to_string()));
        }
        let legal = self.generate(GenMode::All);
        if matches!(t, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let long = t.len() == 5;
            return legal
                .iter()
                .copied()
                .find(|m| m.is_castle() && (m.to().index() < m.from().index()) == long)
                .ok_or_else(|| MoveError::Illegal(raw.to_string()));
        }
        let b = t.as_bytes();
        let (kind, mut rest) = match b[0] {
            b'N' | b'B' | b'R' | b'Q' | b'K' => (
                PieceKind::from_char(b[0] as char).unwrap_or(PieceKind::Pawn),
                &b[1..],
            ),
            _ => (PieceKind::Pawn, b),
        };
        // Promotion suffix: "=Q" or "Q".
        let mut promo = None;
        if let Some(&last) = rest.last() {
            if kind == PieceKind::Pawn
                && matches!(last, b'N' | b'B' | b'R' | b'Q' | b'n' | b'b' | b'r' | b'q')
                && rest.len() >= 3
            {
                promo = PieceKind::from_char(last as char);
                rest = &rest[..rest.len() - 1];
                if rest.last() == Some(&b'=') {
                    rest = &rest[..rest.len() - 1];
                }
            }
        }
        if rest.len() < 2 {
            return Err(MoveError::Syntax(raw.to_string()));
        }
        let to_txt = core::str::from_utf8(&rest[rest.len() - 2..])
            .map_err(|_| MoveError::Syntax(raw.to_string()))?;
        let to = Square::parse(to_txt).ok_or_else(|| MoveError::Syntax(raw.to_string()))?;
        let mut head = &rest[..rest.len() - 2];
        let capture = head.last() == Some(&b'x');
        if capture {
            head = &head[..head.len() - 1];
        }
        let mut from_file = None;
        let mut from_rank = None;
        for &c in head {
            match c {
                b'a'..=b'h' if from_file.is_none() => from_file = Some(c - b'a'),
                b'1'..=b'8' if from_rank.is_none() => from_rank = Some(c - b'1'),
                _ => return Err(MoveError::Syntax(raw.to_string())),
            }
        }
        if kind == PieceKind::Pawn && from_rank.is_some() {
            return Err(MoveError::Syntax(raw.to_string()));
        }
        let mut found = None;
        for &m in legal.iter() {
            if m.is_castle()
                || m.to() != to
                || self.kind_on(m.from()) != Some(kind)
                || m.promotion() != promo
            {
                continue;
            }
            if from_file.is_some_and(|f| f != m.from().file())
                || from_rank.is_some_and(|r| r != m.from().rank())
            {
                continue;
            }
            if kind == PieceKind::Pawn && m.is_capture() != capture {
                continue;
            }
            if found.is_some() {
                return Err(MoveError::Ambiguous(raw.to_string()));
            }
            found = Some(m);
        }
        found.ok_or_else(|| MoveError::Illegal(raw.to_string()))
    }
}

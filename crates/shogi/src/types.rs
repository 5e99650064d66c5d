//! Colors, squares, piece kinds and pieces.

/// A player. Black (sente) moves first and moves toward rank `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Sente, the first player (upper-case letters in SFEN).
    Black = 0,
    /// Gote, the second player (lower-case letters in SFEN).
    White = 1,
}

impl Color {
    /// The other player.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// One of the 81 squares. Index = `rank * 9 + (9 - file)`: 0 is 9a, 8 is 1a, 80 is 1i, which is
/// the order squares are written in SFEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square at `file` (1..=9) and `rank` (0 = `a` .. 8 = `i`).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 9 + (9 - file))
    }

    /// The square with this index (0..81).
    #[inline]
    pub const fn from_index(i: usize) -> Square {
        Square(i as u8)
    }

    /// Index 0..81.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 1..=9 (as written in USI).
    #[inline]
    pub const fn file(self) -> u8 {
        9 - self.0 % 9
    }

    /// Rank 0..=8 (`a`..`i`).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// Column 0..=8 in SFEN order (0 is file 9).
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 % 9
    }

    /// The rank as seen by `c`: 0 is the far rank, where `c`'s pieces promote last.
    #[inline]
    pub const fn relative_rank(self, c: Color) -> u8 {
        match c {
            Color::Black => self.rank(),
            Color::White => 8 - self.rank(),
        }
    }

    /// Parses USI square text such as `7g`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'0');
        let rank = b[1].wrapping_sub(b'a');
        if (1..=9).contains(&file) && rank < 9 {
            Some(Square::new(file, rank))
        } else {
            None
        }
    }
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank()) as char)
    }
}

/// The 14 piece kinds. The first seven are the kinds a hand can hold, in hand order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// Fuhyo.
    Pawn = 0,
    /// Kyosha.
    Lance,
    /// Keima.
    Knight,
    /// Ginsho.
    Silver,
    /// Kinsho.
    Gold,
    /// Kakugyo.
    Bishop,
    /// Hisha.
    Rook,
    /// Gyokusho / Osho.
    King,
    /// Tokin.
    ProPawn,
    /// Narikyo.
    ProLance,
    /// Narikei.
    ProKnight,
    /// Narigin.
    ProSilver,
    /// Ryuma (promoted bishop).
    Horse,
    /// Ryuo (promoted rook).
    Dragon,
}

/// All piece kinds in index order.
pub const ALL_KINDS: [PieceKind; 14] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::King,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::ProSilver,
    PieceKind::Horse,
    PieceKind::Dragon,
];

/// The seven kinds a hand can hold, in SFEN hand order index (pawn first).
pub const HAND_KINDS: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
];

impl PieceKind {
    /// Index 0..14.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index (0..14).
    #[inline]
    pub const fn from_index(i: usize) -> PieceKind {
        ALL_KINDS[i]
    }

    /// True for pawn, lance, knight, silver, bishop and rook.
    #[inline]
    pub const fn can_promote(self) -> bool {
        matches!(
            self,
            PieceKind::Pawn
                | PieceKind::Lance
                | PieceKind::Knight
                | PieceKind::Silver
                | PieceKind::Bishop
                | PieceKind::Rook
        )
    }

    /// The promoted kind (itself when it cannot promote).
    #[inline]
    pub const fn promoted(self) -> PieceKind {
        match self {
            PieceKind::Pawn => PieceKind::ProPawn,
            PieceKind::Lance => PieceKind::ProLance,
            PieceKind::Knight => PieceKind::ProKnight,
            PieceKind::Silver => PieceKind::ProSilver,
            PieceKind::Bishop => PieceKind::Horse,
            PieceKind::Rook => PieceKind::Dragon,
            k => k,
        }
    }

    /// The unpromoted kind: what a captured piece becomes in hand.
    #[inline]
    pub const fn unpromoted(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        }
    }

    /// True for the promoted kinds.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        self as u8 >= PieceKind::ProPawn as u8
    }

    /// The SFEN letter of the unpromoted kind, upper case.
    pub const fn letter(self) -> char {
        match self.unpromoted() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Gold => 'G',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            _ => 'K',
        }
    }

    /// The unpromoted kind for an SFEN letter (either case).
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'P' => PieceKind::Pawn,
            'L' => PieceKind::Lance,
            'N' => PieceKind::Knight,
            'S' => PieceKind::Silver,
            'G' => PieceKind::Gold,
            'B' => PieceKind::Bishop,
            'R' => PieceKind::Rook,
            'K' => PieceKind::King,
            _ => return None,
        })
    }

    /// How many ranks at the far end a piece of this kind could never leave (dead squares):
    /// 1 for pawn and lance, 2 for knight, 0 otherwise.
    #[inline]
    pub const fn dead_ranks(self) -> u8 {
        match self {
            PieceKind::Pawn | PieceKind::Lance => 1,
            PieceKind::Knight => 2,
            _ => 0,
        }
    }
}

/// A piece: a color and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its owner.
    pub color: Color,
    /// Its kind.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// SFEN text: `+P`, `k`, ...
    pub fn sfen(self) -> String {
        let mut s = String::new();
        if self.kind.is_promoted() {
            s.push('+');
        }
        let l = self.kind.letter();
        s.push(match self.color {
            Color::Black => l,
            Color::White => l.to_ascii_lowercase(),
        });
        s
    }
}

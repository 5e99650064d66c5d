//! The layout of the weight vector: every evaluation term is a linear feature with a
//! (middlegame, endgame) weight pair, found at a fixed index. The tuner and the `eval`
//! breakdown both walk this layout.

/// A (middlegame, endgame) weight pair in centipawns.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

/// Material per piece kind (pawn..queen; the king's slot is unused).
pub const MATERIAL: usize = 0;
/// Piece-square tables: `PSQT + kind * 64 + square` from the owner's side.
pub const PSQT: usize = MATERIAL + 6;
/// Knight mobility by number of safe target squares (0..=8).
pub const MOB_KNIGHT: usize = PSQT + 6 * 64;
/// Bishop mobility (0..=13).
pub const MOB_BISHOP: usize = MOB_KNIGHT + 9;
/// Rook mobility (0..=14).
pub const MOB_ROOK: usize = MOB_BISHOP + 14;
/// Queen mobility (0..=27).
pub const MOB_QUEEN: usize = MOB_ROOK + 15;
/// Passed pawn by relative rank.
pub const PASSED: usize = MOB_QUEEN + 28;
/// Connected (phalanx or supported) pawn by relative rank.
pub const CONNECTED: usize = PASSED + 8;
/// Each extra pawn on a file.
pub const DOUBLED: usize = CONNECTED + 8;
/// Pawn with no friendly pawn on the adjacent files.
pub const ISOLATED: usize = DOUBLED + 1;
/// Pawn that cannot be supported and whose stop square an enemy pawn controls.
pub const BACKWARD: usize = ISOLATED + 1;
/// King pawn shield: `SHIELD + edge_distance(file) * 4 + bucket` (bucket: own pawn 1, 2, 3+
/// ranks ahead of the king, or none).
pub const SHIELD: usize = BACKWARD + 1;
/// Enemy pawn storm: `STORM + edge_distance(file) * 4 + bucket` (enemy pawn 1, 2, 3 ranks
/// ahead of the king, or farther/none).
pub const STORM: usize = SHIELD + 16;
/// King-zone attack units per attacking piece kind (knight..queen), counted when at least two
/// pieces attack the zone.
pub const KING_ATTACK: usize = STORM + 16;
/// Two bishops.
pub const BISHOP_PAIR: usize = KING_ATTACK + 4;
/// Rook on a file without pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// Rook on a file without own pawns.
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// Rook on the seventh rank.
pub const ROOK_SEVENTH: usize = ROOK_SEMI_OPEN + 1;
/// Side to move.
pub const TEMPO: usize = ROOK_SEVENTH + 1;
/// Enemy knight, bishop, rook or queen attacked by one of our pawns.
pub const THREAT_BY_PAWN: usize = TEMPO + 1;
/// Enemy rook or queen attacked by one of our knights or bishops.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
/// Enemy queen attacked by one of our rooks.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 1;
/// Enemy knight, bishop, rook or queen that we attack and no enemy piece defends.
pub const HANGING: usize = THREAT_BY_ROOK + 1;
/// Number of weights.
pub const NUM_PARAMS: usize = HANGING + 1;

/// The evaluation's term groups, as shown by `estuary eval`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// Piece values.
    Material,
    /// Piece-square tables.
    Psqt,
    /// Safe target squares of the pieces.
    Mobility,
    /// Passed pawns.
    PassedPawns,
    /// Doubled, isolated, backward and connected pawns.
    PawnStructure,
    /// Pawn shield, pawn storm and attacks on the king zone.
    KingSafety,
    /// Bishop pair and rook files/ranks.
    Pieces,
    /// Side to move.
    Tempo,
    /// Pieces attacked by lesser pieces, or attacked and undefended.
    Threats,
}

impl Term {
    /// Every term, in display order.
    pub const ALL: [Term; 9] = [
        Term::Material,
        Term::Psqt,
        Term::Mobility,
        Term::PassedPawns,
        Term::PawnStructure,
        Term::KingSafety,
        Term::Pieces,
        Term::Tempo,
        Term::Threats,
    ];

    /// The term a weight index belongs to.
    pub fn of(idx: usize) -> Term {
        match idx {
            i if i < PSQT => Term::Material,
            i if i < MOB_KNIGHT => Term::Psqt,
            i if i < PASSED => Term::Mobility,
            i if i < CONNECTED => Term::PassedPawns,
            i if i < SHIELD => Term::PawnStructure,
            i if i < BISHOP_PAIR => Term::KingSafety,
            i if i < TEMPO => Term::Pieces,
            TEMPO => Term::Tempo,
            _ => Term::Threats,
        }
    }

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Psqt => "Piece-square",
            Term::Mobility => "Mobility",
            Term::PassedPawns => "Passed pawns",
            Term::PawnStructure => "Pawn structure",
            Term::KingSafety => "King safety",
            Term::Pieces => "Pieces",
            Term::Tempo => "Tempo",
            Term::Threats => "Threats",
        }
    }
}

/// A readable name for weight `idx` (used in the tuner's output file).
pub fn param_name(idx: usize) -> String {
    const KINDS: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    let sq = |i: usize| format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1);
    match idx {
        i if i < PSQT => format!("material {}", KINDS[i - MATERIAL]),
        i if i < MOB_KNIGHT => format!("psqt {} {}", KINDS[(i - PSQT) / 64], sq((i - PSQT) % 64)),
        i if i < MOB_BISHOP => format!("mobility knight {}", i - MOB_KNIGHT),
        i if i < MOB_ROOK => format!("mobility bishop {}", i - MOB_BISHOP),
        i if i < MOB_QUEEN => format!("mobility rook {}", i - MOB_ROOK),
        i if i < PASSED => format!("mobility queen {}", i - MOB_QUEEN),
        i if i < CONNECTED => format!("passed rank {}", i - PASSED + 1),
        i if i < DOUBLED => format!("connected rank {}", i - CONNECTED + 1),
        DOUBLED => "doubled".into(),
        ISOLATED => "isolated".into(),
        BACKWARD => "backward".into(),
        i if i < STORM => format!(
            "shield edge {} bucket {}",
            (i - SHIELD) / 4,
            (i - SHIELD) % 4
        ),
        i if i < KING_ATTACK => {
            format!("storm edge {} bucket {}", (i - STORM) / 4, (i - STORM) % 4)
        }
        i if i < BISHOP_PAIR => format!("king attack {}", KINDS[i - KING_ATTACK + 1]),
        BISHOP_PAIR => "bishop pair".into(),
        ROOK_OPEN => "rook open file".into(),
        ROOK_SEMI_OPEN => "rook semi-open file".into(),
        ROOK_SEVENTH => "rook seventh".into(),
        TEMPO => "tempo".into(),
        THREAT_BY_PAWN => "threat by pawn".into(),
        THREAT_BY_MINOR => "threat by minor".into(),
        THREAT_BY_ROOK => "threat by rook".into(),
        _ => "hanging".into(),
    }
}

/// Hand-set starting weights (the tuner's starting point): simple shapes, not copied tables.
pub fn start_weights() -> Vec<S> {
    let mut w = vec![S::default(); NUM_PARAMS];
    let mat = [
        S(90, 110),
        S(320, 300),
        S(330, 320),
        S(470, 540),
        S(950, 1000),
        S(0, 0),
    ];
    w[MATERIAL..MATERIAL + 6].copy_from_slice(&mat);
    for sq in 0..64usize {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let cd = ((2 * f - 7).abs() + (2 * r - 7).abs()) / 2; // 1 (centre) .. 7 (corner)
        let center_file = f == 3 || f == 4;
        let pawn = if r == 0 || r == 7 {
            S(0, 0)
        } else {
            S(
                (r - 1) * 5
                    + if center_file && (2..=4).contains(&r) {
                        10
                    } else {
                        0
                    },
                (r - 1) * 10,
            )
        };
        let knight = S(20 - cd * 8, 15 - cd * 6);
        let bishop = S(10 - cd * 4, 10 - cd * 4);
        let rook = S(
            if r == 6 { 10 } else { 0 } + if center_file { 5 } else { 0 },
            0,
        );
        let queen = S(-cd * 2, 10 - cd * 4);
        let king_mg = if r == 0 {
            [10, 20, 10, 0, 0, 0, 20, 10][f as usize]
        } else {
            -20 * r
        };
        let king = S(king_mg, 30 - cd * 10);
        for (k, v) in [pawn, knight, bishop, rook, queen, king]
            .into_iter()
            .enumerate()
        {
            w[PSQT + k * 64 + sq] = v;
        }
    }
    for n in 0..9 {
        w[MOB_KNIGHT + n] = S((n as i32 - 4) * 4, (n as i32 - 4) * 4);
    }
    for n in 0..14 {
        w[MOB_BISHOP + n] = S((n as i32 - 6) * 4, (n as i32 - 6) * 5);
    }
    for n in 0..15 {
        w[MOB_ROOK + n] = S((n as i32 - 7) * 2, (n as i32 - 7) * 4);
    }
    for n in 0..28 {
        w[MOB_QUEEN + n] = S(n as i32 - 13, (n as i32 - 13) * 2);
    }
    let passed_mg = [0, 5, 10, 20, 35, 60, 100, 0];
    let passed_eg = [0, 10, 20, 40, 70, 110, 160, 0];
    for r in 0..8 {
        w[PASSED + r] = S(passed_mg[r], passed_eg[r]);
        w[CONNECTED + r] = S(r as i32 * 3, r as i32 * 3);
    }
    w[DOUBLED] = S(-10, -20);
    w[ISOLATED] = S(-10, -10);
    w[BACKWARD] = S(-8, -6);
    for e in 0..4 {
        let shield = [15, 8, 0, -15];
        let storm = [0, -15, -8, 0];
        for b in 0..4 {
            w[SHIELD + e * 4 + b] = S(shield[b], 0);
            w[STORM + e * 4 + b] = S(storm[b], 0);
        }
    }
    w[KING_ATTACK..KING_ATTACK + 4].copy_from_slice(&[S(6, 0), S(6, 0), S(8, 0), S(12, 0)]);
    w[BISHOP_PAIR] = S(30, 50);
    w[ROOK_OPEN] = S(25, 10);
    w[ROOK_SEMI_OPEN] = S(12, 8);
    w[ROOK_SEVENTH] = S(15, 25);
    w[TEMPO] = S(15, 5);
    w[THREAT_BY_PAWN] = S(45, 30);
    w[THREAT_BY_MINOR] = S(35, 25);
    w[THREAT_BY_ROOK] = S(35, 20);
    w[HANGING] = S(25, 15);
    w
}

/// Renders `w` as the Rust source of `weights.rs` (what the tuner writes).
pub fn weights_source(w: &[S], header: &str) -> String {
    let mut s = String::new();
    s.push_str("//! Evaluation weights (middlegame, endgame) in the layout of `params.rs`.\n");
    for line in header.lines() {
        s.push_str("//! ");
        s.push_str(line);
        s.push('\n');
    }
    s.push_str("\nuse crate::params::{NUM_PARAMS, S};\n\n");
    s.push_str("/// The weights the engine plays with.\n");
    s.push_str("#[rustfmt::skip]\npub static WEIGHTS: [S; NUM_PARAMS] = [\n");
    for (i, v) in w.iter().enumerate() {
        s.push_str(&format!("    S({}, {}), // {}\n", v.0, v.1, param_name(i)));
    }
    s.push_str("];\n");
    s
}

//! Hand-crafted, tapered evaluation for Estuary's chess engine.
//!
//! Every term is a linear feature (a count, white minus black) times a (middlegame, endgame)
//! weight pair from [`WEIGHTS`]; the two sums are blended by game phase. Because the
//! evaluation is linear in its weights, one walk can both score a position and record its
//! feature counts ([`Trace`]): the Texel tuner and the `estuary eval` breakdown use the same code
//! the search does, with a no-op trace that compiles away.

mod breakdown;
pub mod chip;
pub mod drawish;
mod masks;
pub mod net;
pub mod nnue;
pub mod params;
mod pawns;
pub mod tune;
mod weights;

pub use breakdown::Breakdown;
pub use net::Net;
pub use params::{Term, NUM_PARAMS, S};
pub use pawns::{pawn_key, PawnCache};
pub use weights::WEIGHTS;

use chess::attacks::{attacks_from, king_attacks, pawn_attacks};
use chess::{Bitboard, Board, Color, PieceKind};
use masks::{ADJACENT_FILES, FILES, FORWARD_RANKS, PASSED_SPAN};
use params::*;

/// Game phase at full material (knights and bishops 1, rooks 2, queens 4).
pub const PHASE_MAX: i32 = 24;

/// Records feature counts as the evaluation finds them.
pub trait Trace {
    /// Feature `idx` occurs `n` times for side `c`.
    fn add(&mut self, idx: usize, c: Color, n: i32);
}

/// The trace the search uses: records nothing.
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _idx: usize, _c: Color, _n: i32) {}
}

/// Static evaluation in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(b: &Board) -> i32 {
    evaluate_with(b, &WEIGHTS, &mut NoTrace)
}

/// The game phase of `b`: 24 with all pieces on, 0 with pawns and kings only.
pub fn phase(b: &Board) -> i32 {
    let n = b.kind(PieceKind::Knight).count() + b.kind(PieceKind::Bishop).count();
    let r = b.kind(PieceKind::Rook).count();
    let q = b.kind(PieceKind::Queen).count();
    ((n + 2 * r + 4 * q) as i32).min(PHASE_MAX)
}

/// Blends middlegame and endgame scores by phase.
#[inline]
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The endgame scale (out of 64) for the side that the endgame score favours: drawish material
/// (no pawns and at most a minor piece ahead) is scaled down.
pub fn endgame_scale(b: &Board, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    if b.pieces(strong, PieceKind::Pawn).any() {
        return 64;
    }
    if drawish::npm(b, strong) - drawish::npm(b, !strong) <= 3 {
        16
    } else {
        64
    }
}

pub(crate) struct Acc<'a, T: Trace> {
    mg: i32,
    eg: i32,
    w: &'a [S],
    t: &'a mut T,
}

impl<T: Trace> Acc<'_, T> {
    #[inline(always)]
    fn add(&mut self, idx: usize, c: Color, n: i32) {
        let s = if c == Color::White { n } else { -n };
        let w = self.w[idx];
        self.mg += w.0 * s;
        self.eg += w.1 * s;
        self.t.add(idx, c, n);
    }
}

/// Squares attacked by the pawns `p` of colour `c`.
#[inline(always)]
fn pawn_attack_set(p: Bitboard, c: Color) -> Bitboard {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    match c {
        Color::White => Bitboard(((p.0 & NOT_A) << 7) | ((p.0 & NOT_H) << 9)),
        Color::Black => Bitboard(((p.0 & NOT_A) >> 9) | ((p.0 & NOT_H) >> 7)),
    }
}

/// Evaluates `b` with weights `w`, reporting every feature to `t`. Returns the score from the
/// side to move's point of view.
pub fn evaluate_with<T: Trace>(b: &Board, w: &[S], t: &mut T) -> i32 {
    let mut acc = Acc { mg: 0, eg: 0, w, t };
    for c in Color::ALL {
        pawn_terms(b, c, &mut acc);
    }
    finish(b, acc)
}

/// Static evaluation like [`evaluate`], with the pawn-only terms read from (or stored in)
/// `cache`: the same score, computed faster when pawn structures repeat.
#[inline]
pub fn evaluate_cached(b: &Board, cache: &mut PawnCache) -> i32 {
    let (mg, eg) = cache.pawn_score(b);
    finish(
        b,
        Acc {
            mg,
            eg,
            w: &WEIGHTS,
            t: &mut NoTrace,
        },
    )
}

/// Adds every term but the pawn-only ones to `acc` (which holds those) and returns the
/// tapered score from the side to move's point of view.
#[inline(always)]
fn finish<T: Trace>(b: &Board, mut acc: Acc<'_, T>) -> i32 {
    let attacks = Color::ALL.map(|c| side(b, c, &mut acc));
    for c in Color::ALL {
        threats(b, c, &attacks, &mut acc);
    }
    acc.add(TEMPO, b.side_to_move(), 1);
    let phase = phase(b);
    let eg = acc.eg * endgame_scale(b, acc.eg) / 64;
    let white = taper(acc.mg, eg, phase);
    match b.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The pawn-only terms for side `c` (material, squares, passed, isolated, connected,
/// backward, doubled): they depend on the pawns alone, so the search caches their sum by
/// pawn key ([`PawnCache`]).
pub(crate) fn pawn_terms<T: Trace>(b: &Board, c: Color, acc: &mut Acc<'_, T>) {
    let them = !c;
    let our_pawns = b.pieces(c, PieceKind::Pawn);
    let their_pawns = b.pieces(them, PieceKind::Pawn);
    let their_pawn_attacks = pawn_attack_set(their_pawns, them);
    let ci = c.index();
    for sq in our_pawns {
        let rel = sq.relative(c);
        let r = rel.rank() as usize;
        acc.add(MATERIAL, c, 1);
        acc.add(PSQT + rel.index(), c, 1);
        let f = sq.file() as usize;
        let adjacent = ADJACENT_FILES[f];
        if (PASSED_SPAN[ci][sq.index()] & their_pawns).is_empty() {
            acc.add(PASSED + r, c, 1);
        }
        let isolated = (adjacent & our_pawns).is_empty();
        if isolated {
            acc.add(ISOLATED, c, 1);
        } else {
            let phalanx = (adjacent & Bitboard::rank(sq.rank()) & our_pawns).any();
            let supported = (pawn_attacks(them, sq) & our_pawns).any();
            if phalanx || supported {
                acc.add(CONNECTED + r, c, 1);
            } else {
                // No friendly pawn level with or behind it on the adjacent files.
                let ahead = FORWARD_RANKS[ci][sq.rank() as usize];
                let helpers = adjacent & our_pawns & !ahead;
                let stop = Bitboard::from_square(sq).forward(c == Color::White);
                if helpers.is_empty() && (stop & their_pawn_attacks).any() {
                    acc.add(BACKWARD, c, 1);
                }
            }
        }
    }
    for file in FILES {
        let n = (our_pawns & file).count() as i32;
        if n > 1 {
            acc.add(DOUBLED, c, n - 1);
        }
    }
}

/// Squares a side's pieces attack, gathered by [`side`] for the threat terms.
#[derive(Copy, Clone, Default)]
struct Attacks {
    /// By every piece, pawns and king included.
    all: Bitboard,
    /// By pawns.
    pawns: Bitboard,
    /// By knights and bishops.
    minors: Bitboard,
    /// By rooks.
    rooks: Bitboard,
}

/// Threats by side `c`: enemy pieces attacked by lesser ones, or attacked and undefended.
#[inline(always)]
fn threats<T: Trace>(b: &Board, c: Color, attacks: &[Attacks; 2], acc: &mut Acc<'_, T>) {
    let them = !c;
    let theirs = b.color(them);
    let queens = b.pieces(them, PieceKind::Queen);
    let majors = queens | b.pieces(them, PieceKind::Rook);
    let pieces = majors | b.pieces(them, PieceKind::Knight) | b.pieces(them, PieceKind::Bishop);
    debug_assert!((pieces & !theirs).is_empty());
    let ours = &attacks[c.index()];
    let pawn_hits = ours.pawns & pieces;
    let counts = [
        (THREAT_BY_PAWN, pawn_hits),
        (THREAT_BY_MINOR, ours.minors & majors),
        (THREAT_BY_ROOK, ours.rooks & queens),
        (HANGING, pieces & ours.all & !attacks[them.index()].all),
    ];
    for (idx, set) in counts {
        let n = set.count() as i32;
        if n > 0 {
            acc.add(idx, c, n);
        }
    }
}

/// Every term for side `c` but the pawn-only ones; returns the squares `c` attacks.
fn side<T: Trace>(b: &Board, c: Color, acc: &mut Acc<'_, T>) -> Attacks {
    let them = !c;
    let occ = b.occupied();
    let own = b.color(c);
    let our_pawns = b.pieces(c, PieceKind::Pawn);
    let their_pawns = b.pieces(them, PieceKind::Pawn);
    let their_pawn_attacks = pawn_attack_set(their_pawns, them);
    let area = !own & !their_pawn_attacks;
    let their_king = b.king(them);
    let zone = king_attacks(their_king) | Bitboard::from_square(their_king);
    let ci = c.index();

    // Pieces.
    let our_pawn_attacks = pawn_attack_set(our_pawns, c);
    let mut attacked = Attacks {
        all: our_pawn_attacks | king_attacks(b.king(c)),
        pawns: our_pawn_attacks,
        ..Attacks::default()
    };
    let mut attackers = 0;
    let mut units = [0i32; 4];
    for kind in [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let k = kind.index();
        let mob_base = [0, MOB_KNIGHT, MOB_BISHOP, MOB_ROOK, MOB_QUEEN][k];
        for sq in b.pieces(c, kind) {
            let rel = sq.relative(c);
            acc.add(MATERIAL + k, c, 1);
            acc.add(PSQT + k * 64 + rel.index(), c, 1);
            let att = attacks_from(kind, c, sq, occ);
            attacked.all |= att;
            match kind {
                PieceKind::Knight | PieceKind::Bishop => attacked.minors |= att,
                PieceKind::Rook => attacked.rooks |= att,
                _ => {}
            }
            acc.add(mob_base + (att & area).count() as usize, c, 1);
            let hits = (att & zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                units[k - 1] += hits;
            }
            if kind == PieceKind::Rook {
                let file = FILES[sq.file() as usize];
                if (file & our_pawns).is_empty() {
                    if (file & their_pawns).is_empty() {
                        acc.add(ROOK_OPEN, c, 1);
                    } else {
                        acc.add(ROOK_SEMI_OPEN, c, 1);
                    }
                }
                if rel.rank() == 6 {
                    acc.add(ROOK_SEVENTH, c, 1);
                }
            }
        }
    }
    if b.pieces(c, PieceKind::Bishop).more_than_one() {
        acc.add(BISHOP_PAIR, c, 1);
    }
    if attackers >= 2 {
        for (i, &u) in units.iter().enumerate() {
            if u > 0 {
                acc.add(KING_ATTACK + i, c, u);
            }
        }
    }

    // Our king: placement, shield and storm.
    let ksq = b.king(c);
    let krel = ksq.relative(c);
    acc.add(PSQT + 5 * 64 + krel.index(), c, 1);
    let kf = ksq.file() as i32;
    for f in (kf - 1).max(0)..=(kf + 1).min(7) {
        let edge = f.min(7 - f) as usize;
        let ahead = FILES[f as usize] & FORWARD_RANKS[ci][ksq.rank() as usize];
        let nearest = |p: Bitboard| -> Option<i32> {
            p.map(|s| s.relative(c).rank() as i32 - krel.rank() as i32)
                .min()
        };
        let shield = match nearest(ahead & our_pawns) {
            Some(1) => 0,
            Some(2) => 1,
            Some(_) => 2,
            None => 3,
        };
        acc.add(SHIELD + edge * 4 + shield, c, 1);
        let storm = match nearest(ahead & their_pawns) {
            Some(1) => 0,
            Some(2) => 1,
            Some(3) => 2,
            _ => 3,
        };
        acc.add(STORM + edge * 4 + storm, c, 1);
    }
    attacked
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The colour-flipped mirror of a FEN: ranks reversed, colours swapped, side to move swapped.
    pub(crate) fn mirror(fen: &str) -> String {
        let parts: Vec<&str> = fen.split_whitespace().collect();
        let board: Vec<String> = parts[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|ch| {
                        if ch.is_ascii_uppercase() {
                            ch.to_ascii_lowercase()
                        } else {
                            ch.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let stm = if parts[1] == "w" { "b" } else { "w" };
        let castle: String = if parts[2] == "-" {
            "-".into()
        } else {
            let mut v: Vec<char> = parts[2]
                .chars()
                .map(|ch| {
                    if ch.is_ascii_uppercase() {
                        ch.to_ascii_lowercase()
                    } else {
                        ch.to_ascii_uppercase()
                    }
                })
                .collect();
            v.sort_by_key(|ch| (ch.is_ascii_lowercase(), "KQkq".find(*ch).unwrap_or(9)));
            v.into_iter().collect()
        };
        let ep = if parts[3] == "-" {
            "-".to_string()
        } else {
            let f = &parts[3][..1];
            let r = if &parts[3][1..] == "3" { "6" } else { "3" };
            format!("{f}{r}")
        };
        format!(
            "{} {} {} {} {} {}",
            board.join("/"),
            stm,
            castle,
            ep,
            parts[4],
            parts[5]
        )
    }

    const FENS: [&str; 8] = [
        chess::STARTPOS,
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        "2kr3r/pp1q1ppp/2n1pn2/3p4/3P4/2PBPN2/P1Q2PPP/R4RK1 b - - 3 14",
        "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
        "6k1/5ppp/8/8/8/8/1R3PPP/6K1 b - - 0 1",
    ];

    #[test]
    fn mirrored_positions_score_the_same() {
        for fen in FENS {
            let a = Board::from_fen(fen).unwrap();
            let m = mirror(fen);
            let b = Board::from_fen(&m).unwrap_or_else(|e| panic!("{m}: {e}"));
            assert_eq!(evaluate(&a), evaluate(&b), "{fen} vs {m}");
        }
    }

    #[test]
    fn startpos_is_near_level_and_material_counts() {
        let s = evaluate(&Board::startpos());
        assert!(s.abs() < 40, "startpos {s}");
        let up_queen =
            Board::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(evaluate(&up_queen) > 600);
    }

    #[test]
    fn trace_reproduces_the_score() {
        struct Sum(Vec<i32>);
        impl Trace for Sum {
            fn add(&mut self, idx: usize, c: Color, n: i32) {
                self.0[idx] += if c == Color::White { n } else { -n };
            }
        }
        for fen in FENS {
            let b = Board::from_fen(fen).unwrap();
            let mut t = Sum(vec![0; NUM_PARAMS]);
            let score = evaluate_with(&b, &WEIGHTS, &mut t);
            let (mut mg, mut eg) = (0, 0);
            for (i, &n) in t.0.iter().enumerate() {
                mg += WEIGHTS[i].0 * n;
                eg += WEIGHTS[i].1 * n;
            }
            let eg = eg * endgame_scale(&b, eg) / 64;
            let white = taper(mg, eg, phase(&b));
            let stm = if b.side_to_move() == Color::White {
                white
            } else {
                -white
            };
            assert_eq!(score, stm, "{fen}");
        }
    }
}

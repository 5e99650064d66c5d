//! The generator's stream order and clocks: what `hw/movegen/move_stream.v` hands out, move
//! for move, and when. The search machine's model (`hw::chip`) walks moves in this order, so
//! the RTL and the model visit the same tree; the co-simulation holds the Verilog to it at
//! every node (`crates/cosim/tests/cosim.rs`).
//!
//! The stream runs by phases, and within a phase by sources in attacker order
//! (hw/README.md, "Stream order"):
//!
//! * phases 0-4: captures of a queen, rook, bishop, knight, pawn (en passant in the pawn
//!   phase); 5: promotion pushes; 6: quiet moves (all mode only);
//! * sources 0-8: pawn channels (captures west / east, promotion captures west / east, en
//!   passant west / east, push, double push, promotion push); 9-24: the knights, bishops,
//!   rooks and queens in that order, each kind from its lowest square; 25: the king;
//!   26-27: castling short / long;
//! * within a source, destinations from the lowest square (a1 = 0); a promotion destination
//!   four times (queen, knight, bishop, rook), or the queen only for a promotion push in
//!   captures-only mode.

use chess::{Board, GenMode, Move, MoveList, PieceKind};

/// Clocks from the GEN command to the first move, at least (decode and the 9 analysis stages,
/// then the 12 stages of flags, selector, fetch, queue, emitter and output).
pub const START_UP: u64 = 23;
/// With `P` knights, bishops, rooks and queens to move, the sets are built one a clock: the
/// first move comes `P + PIECE_START_UP` clocks after the GEN command when that is later.
pub const PIECE_START_UP: u64 = 22;
/// A generate with no move to stream ends this many clocks sooner: no group goes through
/// the fetch, the queue and the emitter.
pub const EMPTY_STREAM_SAVES: u64 = 4;

/// Victim order of the capture phases: most valuable first.
const VICTIMS: [PieceKind; 5] = [
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
    PieceKind::Pawn,
];

/// The side to move's knights, bishops, rooks and queens: the piece sets the generator
/// builds one a clock.
pub fn piece_sets(b: &Board) -> u64 {
    let us = b.side_to_move();
    [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ]
    .iter()
    .map(|k| u64::from(b.pieces(us, *k).count()))
    .sum()
}

/// Clocks of a generate that streams `moves` moves, from the GEN command to the done pulse:
/// the start-up, then one move a clock. Exact: the co-simulation asserts it at every node.
pub fn generate_clocks(b: &Board, moves: u64) -> u64 {
    let start_up = START_UP.max(piece_sets(b) + PIECE_START_UP);
    if moves == 0 {
        start_up - EMPTY_STREAM_SAVES
    } else {
        moves + start_up
    }
}

/// The generator's gives-check flag of quiet move `m` of `b` (hw/movegen/check_flags.v):
/// whether it checks, castling always flagged. The search machine's late-move pruning never
/// passes over a quiet move with the flag (the flag is exact only for quiet moves).
pub fn quiet_check_flag(b: &Board, m: Move) -> bool {
    m.is_castle() || b.gives_check(m)
}

/// The move's place in the stream of `b`: phase, source, destination and promotion, packed
/// so that the stream is in ascending order of it.
pub fn stream_key(b: &Board, m: Move) -> u32 {
    let from = m.from();
    let to = m.to();
    let moving = b.kind_on(from).unwrap_or(PieceKind::Pawn);
    let phase = if m.is_en_passant() {
        4
    } else if m.is_capture() {
        let victim = b.kind_on(to).unwrap_or(PieceKind::Pawn);
        VICTIMS.iter().position(|v| *v == victim).unwrap_or(4) as u32
    } else if m.promotion().is_some() {
        5
    } else {
        6
    };
    let west = to.file() < from.file();
    let source = match moving {
        PieceKind::Pawn => {
            if m.is_en_passant() {
                if west {
                    4
                } else {
                    5
                }
            } else if m.is_capture() {
                let side = if west { 0 } else { 1 };
                if m.promotion().is_some() {
                    2 + side
                } else {
                    side
                }
            } else if m.promotion().is_some() {
                8
            } else if m.is_double_push() {
                7
            } else {
                6
            }
        }
        PieceKind::King if m.is_castle() => {
            if to.file() > from.file() {
                26
            } else {
                27
            }
        }
        PieceKind::King => 25,
        kind => {
            // The slot: the pieces before it in attacker order, kind by kind from the lowest
            // square.
            let us = b.side_to_move();
            let mut slot = 0;
            for k in [
                PieceKind::Knight,
                PieceKind::Bishop,
                PieceKind::Rook,
                PieceKind::Queen,
            ] {
                let set = b.pieces(us, k);
                if k == kind {
                    slot += set.0 & ((1u64 << from.index()) - 1);
                    break;
                }
                slot += set.0;
            }
            9 + slot.count_ones()
        }
    };
    // Queen, knight, bishop, rook: the promotion kinds of the emitter.
    let promo = match m.promotion() {
        None | Some(PieceKind::Queen) => 0,
        Some(PieceKind::Knight) => 1,
        Some(PieceKind::Bishop) => 2,
        Some(_) => 3,
    };
    phase << 16 | source << 8 | (to.index() as u32) << 2 | promo
}

/// The legal moves of `b` in the generator's stream order: all, or captures only (the
/// model's [`GenMode::Captures`]).
pub fn stream_order(b: &Board, captures_only: bool, out: &mut MoveList) {
    let mode = if captures_only {
        GenMode::Captures
    } else {
        GenMode::All
    };
    b.generate_into(mode, out);
    out.as_mut_slice()
        .sort_unstable_by_key(|m| stream_key(b, *m));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_streams_pawns_first_then_knights() {
        let b = Board::startpos();
        let mut l = MoveList::new();
        stream_order(&b, false, &mut l);
        let s: Vec<String> = l.iter().map(|m| format!("{m:?}")).collect();
        // Single pushes a2 to h2, double pushes, then the b1 knight's moves, then g1's.
        assert_eq!(s[0], "a2a3");
        assert_eq!(s[7], "h2h3");
        assert_eq!(s[8], "a2a4");
        assert_eq!(&s[16..], ["b1a3", "b1c3", "g1f3", "g1h3"]);
        assert_eq!(generate_clocks(&b, 20), 20 + 29);
        // No capture: the start-up less the stream's stages.
        assert_eq!(generate_clocks(&b, 0), 25);
    }

    #[test]
    fn captures_come_by_victim_then_attacker() {
        // A pawn and a knight can both take the queen on d5; the knight and the rook the pawn
        // on a2.
        let b = Board::from_fen("4k3/8/8/3q4/4P3/2N5/p7/R3K3 w - - 0 1").unwrap();
        let mut l = MoveList::new();
        stream_order(&b, true, &mut l);
        let s: Vec<String> = l.iter().map(|m| format!("{m:?}")).collect();
        assert_eq!(s, ["e4d5", "c3d5", "c3a2", "a1a2"]);
    }
}

//! The words the host sends the generator: a whole position's load words, and the make and
//! unmake words it builds from its mirror of the position (layouts in
//! hw/movegen/board_state.v).

use chess::{Board, CastleSide, Color, Move, PieceKind};

/// Words of a whole-position load.
pub const LOAD_WORDS: u32 = 18;
/// `KIND_NONE` of the unmake word.
const KIND_NONE: u32 = 7;

/// The 18 load words of `board` (layout in hw/movegen/board_state.v).
pub fn load_words(board: &Board) -> [u32; LOAD_WORDS as usize] {
    let mut w = [0u32; LOAD_WORDS as usize];
    for k in PieceKind::ALL {
        let b = board.kind(k).0;
        w[2 * k.index()] = b as u32;
        w[2 * k.index() + 1] = (b >> 32) as u32;
    }
    for c in Color::ALL {
        let b = board.color(c).0;
        w[12 + 2 * c.index()] = b as u32;
        w[13 + 2 * c.index()] = (b >> 32) as u32;
    }
    let ep = board.ep_square().map_or(64, |s| s.index() as u32);
    w[16] =
        (board.side_to_move() == Color::Black) as u32 | ep << 1 | (board.castle_bits() as u32) << 8;
    let mut rooks = 0u32;
    for (i, (c, side)) in [
        (Color::White, CastleSide::Short),
        (Color::White, CastleSide::Long),
        (Color::Black, CastleSide::Short),
        (Color::Black, CastleSide::Long),
    ]
    .into_iter()
    .enumerate()
    {
        let sq = board.castle_rook(c, side).map_or(0, |s| s.index() as u32);
        rooks |= sq << (6 * i);
    }
    w[17] = rooks;
    w
}

/// The en-passant field of the make and unmake words: the file, or 8 (bit 3) for none (the
/// device knows the rank from the side to move).
fn ep_file(board: &Board) -> u32 {
    board.ep_square().map_or(8, |s| s.index() as u32 & 7)
}

/// The kind of the piece `m` moves on `before` (for castling, the king).
fn moving_kind(before: &Board, m: Move) -> u32 {
    before
        .kind_on(m.from())
        .map_or(KIND_NONE, |k| k.index() as u32)
}

/// The make word of `m` played from `before` (layout in hw/movegen/board_state.v): the move, the
/// moving kind, the castling rights and en-passant file after the move and the captured kind,
/// which the host knows from its mirror of the position, so that no device needs a look-up in
/// a board (the generator reads the captured kind only from unmake words; the evaluation unit
/// takes a capture's victim from it).
pub fn make_word(before: &Board, m: Move) -> u32 {
    let after = before.played(m);
    captured_kind(before, m) << 27
        | ep_file(&after) << 23
        | (after.castle_bits() as u32) << 19
        | moving_kind(before, m) << 16
        | m.raw() as u32
}

/// The kind `m` captures on its destination square (`KIND_NONE` for a quiet move, castling and
/// en passant, whose pawn stands elsewhere).
fn captured_kind(before: &Board, m: Move) -> u32 {
    if m.is_capture() && !m.is_en_passant() {
        before
            .kind_on(m.to())
            .map_or(KIND_NONE, |k| k.index() as u32)
    } else {
        KIND_NONE
    }
}

/// The unmake word of `m` played from `before` (layout in hw/movegen/board_state.v); `None`
/// for a null move.
pub fn unmake_word(before: &Board, m: Option<Move>) -> u32 {
    let ep = ep_file(before);
    let rights = before.castle_bits() as u32;
    match m {
        None => 1 << 30 | ep << 23 | rights << 19,
        Some(m) => {
            captured_kind(before, m) << 27
                | ep << 23
                | rights << 19
                | moving_kind(before, m) << 16
                | m.raw() as u32
        }
    }
}

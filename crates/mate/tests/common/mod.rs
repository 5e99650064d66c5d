//! Helpers shared by the solver's integration tests.

use shogi::{MoveList, Position};

/// Checks that `line` is legal from `pos`, that the attacker checks on every move and that
/// the final position is checkmate.
pub fn verify(pos: &Position, line: &[shogi::Move]) -> Result<(), String> {
    let mut p = pos.clone();
    let mut l = MoveList::new();
    for (i, &m) in line.iter().enumerate() {
        p.legal_moves(&mut l);
        if !l.contains(m) {
            return Err(format!("ply {}: {} illegal", i + 1, m.usi()));
        }
        p.play(m);
        if i % 2 == 0 && !p.in_check() {
            return Err(format!("ply {}: {} is not a check", i + 1, m.usi()));
        }
    }
    if !p.is_checkmate() {
        return Err("the last position is not checkmate".into());
    }
    Ok(())
}

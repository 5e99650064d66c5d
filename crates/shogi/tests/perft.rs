//! Start-position perft against the published counts.

use shogi::{perft, Position};

#[test]
fn startpos_depth_1_to_4() {
    let pos = Position::startpos();
    let expect = [30u64, 900, 25_470, 719_731];
    for (d, &n) in expect.iter().enumerate() {
        assert_eq!(perft(&pos, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn startpos_depth_5() {
    assert_eq!(perft(&Position::startpos(), 5), 19_861_490);
}

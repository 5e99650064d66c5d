//! Software side of the boundary comparison in hw/README.md: time per node of the model's own
//! generate + make/unmake on the perft trees the `estuary hw traffic` command walks.
//! `cargo run --release -p estuary-cosim --example software_rate`

use chess::{GenMode, MoveList, Position};
use hw::movegen::traffic::FOUR_POSITIONS;
use std::time::Instant;

fn walk(pos: &mut Position, depth: u32, nodes: &mut u64, moves: &mut u64) {
    *nodes += 1;
    if depth == 0 {
        return;
    }
    let mut list = MoveList::new();
    pos.generate_into(GenMode::All, &mut list);
    *moves += list.len() as u64;
    for &m in list.iter() {
        pos.make(m);
        walk(pos, depth - 1, nodes, moves);
        pos.unmake();
    }
}

fn main() {
    for (_, fen) in FOUR_POSITIONS {
        let mut pos = Position::from_fen(fen).unwrap();
        let (mut nodes, mut moves) = (0, 0);
        let t = Instant::now();
        walk(&mut pos, 4, &mut nodes, &mut moves);
        let s = t.elapsed().as_secs_f64();
        println!(
            "{nodes:>9} nodes {:>7.1} ns/node {:>7.1}M moves/s generated  {fen}",
            s * 1e9 / nodes as f64,
            moves as f64 / s / 1e6
        );
    }
}

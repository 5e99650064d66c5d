use super::*;
use chess::{GenMode, MoveList, Position};

const FENS: [&str; 3] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // Chess960 castling with the king and a rook on their own target squares.
    "1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1",
];

/// Walks every line of a small tree: the incrementally updated accumulators equal a refresh
/// at every node.
fn walk(net: &ChipNet, stack: &mut Vec<ChipAcc>, pos: &mut Position, depth: u32) -> u64 {
    let mut fresh = ChipAcc::default();
    net.refresh(&mut fresh, pos.board());
    let top = stack.last().expect("a root accumulator");
    for p in 0..net.arch.perspectives {
        assert_eq!(top.v[p][..net.arch.lanes], fresh.v[p][..net.arch.lanes]);
    }
    assert_eq!(
        net.evaluate(top, pos.board().side_to_move()),
        net.evaluate(&fresh, pos.board().side_to_move())
    );
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate_into(GenMode::All, &mut list);
    let mut n = 1;
    for &m in list.iter() {
        let before = PieceBoards::of(pos.board());
        pos.make(m);
        let mut child = ChipAcc::default();
        net.update(
            &mut child,
            stack.last().unwrap(),
            &before,
            &PieceBoards::of(pos.board()),
        );
        stack.push(child);
        n += walk(net, stack, pos, depth - 1);
        stack.pop();
        pos.unmake();
    }
    n
}

#[test]
fn incremental_updates_equal_a_refresh_for_both_shapes() {
    for arch in [Arch::estuary(), Arch::onechan()] {
        let net = ChipNet::random(arch, 7);
        for fen in FENS {
            let mut pos = Position::from_fen(fen).expect("test FEN");
            let mut root = ChipAcc::default();
            net.refresh(&mut root, pos.board());
            let nodes = walk(&net, &mut vec![root], &mut pos, 3);
            assert!(nodes > 100, "{fen}: {nodes}");
        }
    }
}

/// The integer inference written out plainly, with `i64` sums and division by powers of two,
/// against the reference's wrapping `i32` arithmetic and shifts.
fn plain(net: &ChipNet, b: &Board) -> i64 {
    let stm = b.side_to_move();
    let persps: Vec<Color> = if net.arch.perspectives == 2 {
        vec![stm, stm.flip()]
    } else {
        vec![Color::White]
    };
    let mut x: Vec<i64> = Vec::new();
    for p in persps {
        let mut lanes: Vec<i64> = net.ft_bias.iter().map(|&v| v as i64).collect();
        for c in Color::ALL {
            for k in PieceKind::ALL {
                for sq in b.pieces(c, k) {
                    for (l, &w) in lanes.iter_mut().zip(net.row(feature(p, c, k, sq))) {
                        *l += w as i64;
                    }
                }
            }
        }
        x.extend(lanes.iter().map(|&v| v.clamp(0, 127)));
    }
    for (l, d) in net.dense.iter().enumerate() {
        let sums: Vec<i64> = (0..d.outputs)
            .map(|j| {
                d.bias[j] as i64
                    + (0..d.inputs)
                        .map(|i| d.weights[j * d.inputs + i] as i64 * x[i])
                        .sum::<i64>()
            })
            .collect();
        if l + 1 == net.dense.len() {
            let cp = (sums[0] * 400).div_euclid(8192);
            return if net.arch.perspectives == 1 && stm == Color::Black {
                -cp
            } else {
                cp
            };
        }
        x = sums
            .iter()
            .map(|&s| s.div_euclid(64).clamp(0, 127))
            .collect();
    }
    unreachable!()
}

#[test]
fn the_reference_is_the_documented_arithmetic() {
    for (i, arch) in [Arch::estuary(), Arch::onechan()].into_iter().enumerate() {
        for seed in 0..4 {
            let net = ChipNet::random(arch.clone(), 100 + seed);
            for fen in FENS
                .iter()
                .chain(&["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"])
            {
                let b = Board::from_fen(fen).expect("test FEN");
                let mut acc = ChipAcc::default();
                net.refresh(&mut acc, &b);
                let got = net.evaluate(&acc, b.side_to_move()) as i64;
                assert_eq!(got, plain(&net, &b), "arch {i} seed {seed} {fen}");
            }
        }
    }
}

#[test]
fn random_nets_are_neither_dead_nor_saturated() {
    for arch in [Arch::estuary(), Arch::onechan()] {
        let net = ChipNet::random(arch, 3);
        let b = Board::startpos();
        let mut acc = ChipAcc::default();
        net.refresh(&mut acc, &b);
        let mut trace = Vec::new();
        net.output_sum(&acc, Color::White, Some(&mut trace));
        for (l, t) in trace.iter().enumerate() {
            let live = t.iter().filter(|&&v| v > 0 && v < 127).count();
            assert!(live > 0, "{}: layer {l} {t:?}", net.arch);
        }
    }
}

#[test]
fn files_round_trip_and_bad_files_say_why() {
    for arch in [Arch::estuary(), Arch::onechan()] {
        let mut net = ChipNet::random(arch, 9);
        net.hybrid = true;
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), ChipNet::file_bytes(&net.arch));
        assert_eq!(ChipNet::from_bytes(&bytes), Ok(net.clone()));
        assert!(ChipNet::is_chip_file(&bytes));
        assert_eq!(
            ChipNet::from_bytes(&bytes[..bytes.len() - 1]),
            Err(ChipNetError::Truncated {
                expected: bytes.len(),
                got: bytes.len() - 1
            })
        );
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(
            ChipNet::from_bytes(&long),
            Err(ChipNetError::TrailingBytes(1))
        );
        for cut in 0..32 {
            assert!(ChipNet::from_bytes(&bytes[..cut]).is_err());
        }
        let mut bad = bytes.clone();
        bad[20] = 0; // no dense layers
        assert!(matches!(
            ChipNet::from_bytes(&bad),
            Err(ChipNetError::Shape(_))
        ));
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(ChipNet::from_bytes(&bad), Err(ChipNetError::BadMagic));
    }
    assert!(Arch {
        perspectives: 2,
        lanes: 64,
        layers: vec![8, 2]
    }
    .check()
    .is_err());
    assert!(Arch {
        perspectives: 3,
        lanes: 64,
        layers: vec![1]
    }
    .check()
    .is_err());
    assert_eq!(
        Arch::estuary().to_string(),
        "768 -> 128 (x2) -> 8 -> 16 -> 1"
    );
}

#[test]
fn avx2_and_scalar_inference_give_the_same_bits() {
    if !simd::avx2_available() {
        eprintln!("skipped: no AVX2 on this CPU");
        return;
    }
    for arch in [Arch::estuary(), Arch::onechan()] {
        let net = ChipNet::random(arch, 31);
        let mut pos = Position::from_fen(FENS[0]).expect("test FEN");
        let mut root = ChipAcc::default();
        net.refresh(&mut root, pos.board());
        let mut list = MoveList::new();
        pos.generate_into(GenMode::All, &mut list);
        for &m in list.iter() {
            let before = PieceBoards::of(pos.board());
            pos.make(m);
            let after = PieceBoards::of(pos.board());
            let (mut a, mut b) = (ChipAcc::default(), ChipAcc::default());
            net.update_using(&mut a, &root, &before, &after, true);
            net.update_using(&mut b, &root, &before, &after, false);
            assert_eq!(a, b);
            let stm = pos.board().side_to_move();
            assert_eq!(
                net.evaluate_using(&a, stm, true),
                net.evaluate_using(&a, stm, false)
            );
            pos.unmake();
        }
    }
}

#[test]
fn a_float_net_quantises_back_to_the_net_it_came_from() {
    for arch in [Arch::estuary(), Arch::onechan()] {
        let net = ChipNet::random(arch.clone(), 5);
        assert_eq!(ChipFloat::from_chip(&net).quantise(), net);
        let float = ChipFloat::random(arch.clone(), 5);
        let q = float.quantise();
        assert_eq!(ChipNet::from_bytes(&q.to_bytes()), Ok(q.clone()));
        assert_eq!(ChipFloat::from_chip(&q).quantise(), q);
    }
}

#[test]
fn clipped_weights_fit_their_integer_types() {
    for arch in [Arch::estuary(), Arch::onechan(), Arch::estuary_narrow()] {
        let mut float = ChipFloat::random(arch.clone(), 9);
        let big = |i: usize| if i & 1 == 0 { 1000.0 } else { -1000.0 };
        float
            .ft_bias
            .iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w = big(i));
        float
            .ft
            .iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w = big(i));
        for d in &mut float.dense {
            d.weights
                .iter_mut()
                .enumerate()
                .for_each(|(i, w)| *w = big(i));
        }
        float.clip();
        let q = float.quantise();
        let ft_max = if arch.first_layer_i8() { 127 } else { 7 * 127 };
        assert!(q.ft.iter().all(|w| w.abs() == ft_max), "{arch}");
        assert!(q.ft_bias.iter().all(|w| w.abs() == ft_max), "{arch}");
        // Clipping, not the integer types' saturation, bounds the weights.
        for d in &q.dense {
            assert!(d.weights.iter().all(|w| w.abs() == 127), "{arch}");
        }
    }
}

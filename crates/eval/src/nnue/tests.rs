use super::*;
use chess::Position;

use chess::rng::Rng;

/// Boards from random playouts (captures, castling, en passant and promotions happen).
fn random_boards(n: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::startpos();
        for _ in 0..(rng.next() % 120) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.make(legal[(rng.next() % legal.len() as u64) as usize]);
        }
        out.push(*pos.board());
    }
    out
}

/// A trained-looking random net: larger first-layer weights than `FloatNet::random`.
fn test_net(seed: u64) -> FloatNet {
    let mut f = FloatNet::random(seed);
    f.w1.iter_mut().for_each(|w| *w *= 2.0);
    f.w2.iter_mut().for_each(|w| *w *= 4.0);
    f.b2 = 0.05;
    f.clip();
    f
}

/// The colour-flipped mirror (castling and en passant dropped: the net does not see them).
fn mirror(b: &Board) -> Board {
    let fen = crate::tests::mirror(&b.to_fen());
    let f: Vec<&str> = fen.split_whitespace().collect();
    Board::from_fen(&format!("{} {} - - 0 1", f[0], f[1])).expect("mirror is valid")
}

/// `f` with every weight rounded to the quantisation grid (what the integer net holds).
fn on_grid(f: &FloatNet) -> FloatNet {
    let g = |x: f32, s: i32| (x * s as f32).round() / s as f32;
    FloatNet {
        w1: f.w1.iter().map(|&x| g(x, QA)).collect(),
        b1: f.b1.iter().map(|&x| g(x, QA)).collect(),
        w2: f.w2.iter().map(|&x| g(x, QB)).collect(),
        b2: g(f.b2, QA * QB),
        hybrid: f.hybrid,
    }
}

#[test]
fn quantised_inference_follows_the_float_reference() {
    let float = test_net(7);
    let net = float.quantise();
    let exact = on_grid(&float);
    let (mut worst, mut total) = (0.0f32, 0.0f32);
    let boards = random_boards(400, 3);
    for b in &boards {
        let q = net.evaluate_board(b) as f32;
        // Integer arithmetic on the same weights: only the final truncations differ.
        let e = exact.evaluate(b);
        assert!((q - e).abs() < 1.5, "{}: {q} vs {e}", b.to_fen());
        let f = float.evaluate(b);
        worst = worst.max((q - f).abs());
        total += (q - f).abs();
    }
    // Rounding the weights themselves costs a little.
    let mean = total / boards.len() as f32;
    assert!(
        worst < 60.0 && mean < 15.0,
        "worst {worst} cp, mean {mean} cp"
    );
    // And the evaluations are not all the same (the test would pass on a dead net).
    let spread: std::collections::HashSet<i32> =
        boards.iter().map(|b| net.evaluate_board(b)).collect();
    assert!(spread.len() > 50, "{} distinct scores", spread.len());
}

#[test]
fn incremental_updates_equal_a_refresh_on_random_games() {
    for avx2 in [false, true] {
        let mut net = test_net(11).quantise();
        net.set_avx2(avx2);
        let mut rng = Rng::new(99);
        for _ in 0..60 {
            let mut pos = Position::startpos();
            let mut stack = vec![Accumulator::default()];
            stack[0].refresh(&net, &pos);
            for _ in 0..200 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let before = PieceBoards::of(&pos);
                if rng.next().is_multiple_of(10) && !pos.in_check() {
                    pos.make_null();
                } else {
                    pos.make(legal[(rng.next() % legal.len() as u64) as usize]);
                }
                let mut next = Accumulator::default();
                next.update_from(stack.last().unwrap(), &net, &before, &PieceBoards::of(&pos));
                stack.push(next);
                let mut fresh = Accumulator::default();
                fresh.refresh(&net, &pos);
                assert_eq!(next, fresh, "{}", pos.to_fen());
                // Sometimes take moves back: the stack below must still be right.
                if rng.next().is_multiple_of(4) {
                    pos.unmake();
                    stack.pop();
                    let mut fresh = Accumulator::default();
                    fresh.refresh(&net, &pos);
                    assert_eq!(*stack.last().unwrap(), fresh);
                }
            }
        }
    }
}

#[test]
fn avx2_and_scalar_evaluate_the_same() {
    let mut net = test_net(5).quantise();
    if !net.uses_avx2() {
        eprintln!("no AVX2 on this CPU: nothing to compare");
        return;
    }
    for b in random_boards(500, 17) {
        net.set_avx2(true);
        let (mut a, mut s) = (Accumulator::default(), Accumulator::default());
        a.refresh(&net, &b);
        let ea = net.evaluate(&a, b.side_to_move());
        net.set_avx2(false);
        s.refresh(&net, &b);
        assert_eq!(a, s);
        assert_eq!(ea, net.evaluate(&s, b.side_to_move()));
    }
}

#[test]
fn colour_flipped_mirrors_score_the_same() {
    let net = test_net(23).quantise();
    let float = test_net(23);
    for b in random_boards(300, 29) {
        let m = mirror(&b);
        assert_eq!(
            net.evaluate_board(&b),
            net.evaluate_board(&m),
            "{}",
            b.to_fen()
        );
        assert!((float.evaluate(&b) - float.evaluate(&m)).abs() < 1e-3);
    }
    let shipped = Network::embedded();
    for b in random_boards(100, 31) {
        assert_eq!(
            shipped.evaluate_board(&b),
            shipped.evaluate_board(&mirror(&b))
        );
    }
}

#[test]
fn net_files_round_trip_and_bad_files_are_errors() {
    let net = test_net(3).quantise();
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), FILE_BYTES);
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back.to_bytes(), bytes);
    let b = Board::startpos();
    assert_eq!(back.evaluate_board(&b), net.evaluate_board(&b));

    assert_eq!(
        Network::from_bytes(&bytes[..10]).unwrap_err(),
        NetError::TooShort(10)
    );
    let mut bad = bytes.clone();
    bad[0] = b'X';
    assert_eq!(Network::from_bytes(&bad).unwrap_err(), NetError::BadMagic);
    let mut bad = bytes.clone();
    bad[12] = 64;
    bad[13] = 0;
    assert!(matches!(
        Network::from_bytes(&bad),
        Err(NetError::Shape { hidden: 64, .. })
    ));
    assert!(matches!(
        Network::from_bytes(&bytes[..bytes.len() - 1]),
        Err(NetError::Length { .. })
    ));
    let err = Network::load("/nonexistent/net.nnue").unwrap_err();
    assert!(err.to_string().contains("/nonexistent/net.nnue"));
    // Random and truncated bytes: errors, never panics.
    let mut rng = Rng::new(5);
    for len in [
        0usize,
        1,
        8,
        15,
        16,
        17,
        100,
        FILE_BYTES - 2,
        FILE_BYTES + 2,
    ] {
        let mut junk: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        assert!(Network::from_bytes(&junk).is_err());
        if len >= 16 {
            junk[..8].copy_from_slice(MAGIC);
            assert!(Network::from_bytes(&junk).is_err());
        }
    }
    // A hybrid net keeps its kind through the file and adds the hand-crafted score.
    let mut hybrid = test_net(3);
    hybrid.hybrid = true;
    let h = Network::from_bytes(&hybrid.quantise().to_bytes()).unwrap();
    assert!(h.is_hybrid() && !back.is_hybrid());
    assert_eq!(
        h.evaluate_board(&b),
        net.evaluate_board(&b) + crate::evaluate(&b)
    );
    // The shipped net parses.
    assert!(Network::from_bytes(EMBEDDED).is_ok());
}

#[test]
fn float_weights_read_back_from_a_net_quantise_to_the_same_net() {
    // The shipped net (hybrid) and a random stand-alone one: reading the integers back as
    // floats and quantising again gives the same file, and the float net scores as the
    // integer one up to the final rounding.
    let shipped = Network::from_bytes(EMBEDDED).unwrap();
    let random = test_net(11).quantise();
    for net in [&shipped, &random] {
        let float = FloatNet::from_network(net);
        assert_eq!(float.hybrid, net.is_hybrid());
        assert_eq!(float.quantise().to_bytes(), net.to_bytes());
        for b in random_boards(50, 9) {
            let d = (float.evaluate(&b) - net.evaluate_board(&b) as f32).abs();
            assert!(
                d <= 1.5,
                "{}: float {} int {}",
                b.to_fen(),
                float.evaluate(&b),
                net.evaluate_board(&b)
            );
        }
    }
}

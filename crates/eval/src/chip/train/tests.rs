use super::*;
use crate::nnue::data;
use crate::nnue::train::tests::random_game_lines;
use crate::nnue::train::{Dataset, Epoch, Start, TrainConfig, Trainer};

fn sample(line: &str) -> Pos {
    Pos::from_sample(&data::parse_line(line).expect("test line")).expect("at most 32 pieces")
}

/// Every parameter's analytic derivative next to the central difference, for the parameters
/// the position moves. A step of `h` that crosses a clipped ReLU's corner spoils the
/// difference of every weight feeding that unit, so a few per layer may disagree; a wrong
/// backward pass would spoil whole layers.
#[test]
fn the_gradient_matches_finite_differences() {
    let lines = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4 | 35 | 1.0",
        "8/5pk1/6p1/8/3R4/6P1/5PK1/2r5 w - - 0 40 | -20 | 0.5",
    ];
    for arch in [Arch::estuary(), Arch::onechan()] {
        for (seed, line) in lines.iter().enumerate() {
            let p = sample(line);
            let mut net = ChipFloat::random(arch.clone(), seed as u64 + 3);
            net.hybrid = seed == 1;
            let flip = 7 * seed;
            let mut g = ChipFloat::zeroed(arch.clone());
            net.error(&p, flip, 0.3, Some(&mut g));
            for (s, slice) in g.params().iter().enumerate() {
                let (mut checked, mut bad) = (0, 0);
                for (idx, &analytic) in slice.iter().enumerate() {
                    if analytic.abs() < 1e-5 {
                        continue;
                    }
                    let h = 1e-3f32;
                    let bump = |d: f32| {
                        let mut n = net.clone();
                        n.params_mut()[s][idx] += d;
                        n.error(&p, flip, 0.3, None)
                    };
                    let numeric = (bump(h) - bump(-h)) / (2.0 * h);
                    checked += 1;
                    if (numeric - analytic).abs() > 0.05 * analytic.abs().max(1e-3) {
                        bad += 1;
                    }
                }
                assert!(
                    bad * 10 <= checked,
                    "{arch}, {line}, parameters {s}: {bad} of {checked} derivatives off"
                );
            }
        }
    }
}

fn run(arch: &Arch, lines: &[String], cfg: &TrainConfig) -> (f64, Vec<Epoch<ChipFloat>>) {
    let data = Dataset::from_lines(lines.iter().map(|l| l.as_str()));
    let mut t = Trainer::new(cfg.clone(), Start::<ChipFloat>::Random(arch.clone()), data).unwrap();
    let start = t.start_loss();
    (start, std::iter::from_fn(|| t.next_epoch()).collect())
}

#[test]
fn a_few_epochs_lower_the_loss_deterministically() {
    // A few thousand positions: the chip nets' first layers need most squares seen to
    // generalise to the held-out games.
    let lines = random_game_lines(200, 16);
    let cfg = TrainConfig {
        epochs: 4,
        batch: 64,
        lr: 0.001,
        validation: 0.1,
        ..TrainConfig::default()
    };
    for arch in [Arch::estuary(), Arch::onechan()] {
        let (start, epochs) = run(&arch, &lines, &cfg);
        let (first, last) = (&epochs[0], &epochs[3]);
        assert!(
            last.train_loss < first.train_loss && last.validation_loss < start,
            "{arch}: train {} -> {}, validation {start} -> {}",
            first.train_loss,
            last.train_loss,
            last.validation_loss
        );
        let bytes = last.net.to_bytes();
        assert_eq!(ChipNet::from_bytes(&bytes).unwrap(), last.net);
        let (_, again) = run(&arch, &lines, &cfg);
        assert_eq!(again[3].net.to_bytes(), bytes, "{arch}: the same run again");
    }
}

#[test]
fn a_hybrid_run_starts_as_the_hand_crafted_evaluation() {
    let lines = random_game_lines(2, 10);
    let cfg = TrainConfig {
        epochs: 0,
        hybrid: true,
        ..TrainConfig::default()
    };
    let data = Dataset::from_lines(lines.iter().map(|l| l.as_str()));
    let t = Trainer::new(
        cfg.clone(),
        Start::<ChipFloat>::Random(Arch::estuary()),
        data,
    )
    .unwrap();
    let net = t.net().quantise();
    assert!(net.hybrid);
    let b = Board::startpos();
    assert_eq!(net.evaluate_board(&b), crate::evaluate(&b));
    assert!(Start::from_model(ChipFloat::random(Arch::estuary(), 1), &cfg).is_err());
}

#[test]
fn the_quantised_net_scores_close_to_the_float_net() {
    let lines = random_game_lines(6, 40);
    let cfg = TrainConfig {
        epochs: 3,
        batch: 32,
        lr: 0.005,
        validation: 0.0,
        ..TrainConfig::default()
    };
    for arch in [Arch::estuary(), Arch::onechan()] {
        let data = Dataset::from_lines(lines.iter().map(|l| l.as_str()));
        let mut t =
            Trainer::new(cfg.clone(), Start::<ChipFloat>::Random(arch.clone()), data).unwrap();
        while t.next_epoch().is_some() {}
        let (float, int) = (t.net(), t.net().quantise());
        let (mut sum, mut worst) = (0.0f64, 0.0f32);
        for line in &lines {
            let b = data::parse_line(line).unwrap().board;
            let e = (float.evaluate(&b) - int.evaluate_board(&b) as f32).abs();
            sum += e as f64;
            worst = worst.max(e);
        }
        let mean = sum / lines.len() as f64;
        eprintln!("{arch}: quantisation error mean {mean:.2} cp, worst {worst:.1} cp");
        assert!(
            mean < 10.0 && worst < 25.0,
            "{arch}: quantisation error mean {mean:.2} cp, worst {worst:.1} cp"
        );
    }
}

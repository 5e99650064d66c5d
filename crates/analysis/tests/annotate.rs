//! Annotating real games with known blunders: the `??` lands on the blunder, the engine's
//! better move is a legal variation, the annotated game reads back the same, and the graph
//! marks the move. Scores are not asserted: only what any sound search must see.

use analysis::{annotate, graph::evaluation_graph, Analyser, AnnotatedGame, Judgement};
use chess::pgn::read_games;
use search::Limits;

/// Legall de Kermeur - Saint Brie, Paris 1750: 5... Bxd1?? walks into mate in two.
const LEGAL: &str = "[Event \"Paris\"]\n[Site \"Paris FRA\"]\n[Date \"1750.??.??\"]\n\
[White \"Legall de Kermeur\"]\n[Black \"Saint Brie\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Bc4 d6 3. Nf3 Bg4 4. Nc3 g6 5. Nxe5 {the trap} Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0\n";

/// The scholar's mate: 3... Nf6?? lets White mate at once.
const SCHOLAR: &str = "[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

fn annotated(text: &str) -> AnnotatedGame {
    let (games, err) = read_games(text);
    assert_eq!(err, None);
    let mut analyser = Analyser::new(1, 16, Limits::nodes(30_000));
    let mut seen = 0;
    let a = annotate(&games[0], &mut analyser, |n| {
        assert_eq!(n, seen + 1, "progress counts each position once");
        seen = n;
    });
    assert_eq!(seen, games[0].main.moves.len() + 1);
    assert_eq!(a.evaluations.len(), seen);
    assert_eq!(a.judgements.len(), seen - 1);
    a
}

/// Checks the blunder at main-line index `i`: the `??`, a legal better move as a variation,
/// an evaluation comment on every move.
fn check_blunder(a: &AnnotatedGame, i: usize) {
    let g = &a.game;
    let pm = &g.main.moves[i];
    assert_eq!(a.judgements[i], Judgement::Blunder);
    assert!(pm.nags.contains(&4), "{:?}", pm.nags);
    let (before, played) = g.positions().nth(i).unwrap();
    assert_eq!(played, pm.mv);
    let better = pm.variations.last().expect("a better-move variation");
    let first = better.moves[0].mv;
    assert!(before.is_legal(first));
    assert_ne!(first, played);
    // The whole variation replays legally.
    let mut b = before;
    for m in &better.moves {
        assert!(b.is_legal(m.mv));
        b.play(m.mv);
    }
    assert!(better.moves[0].comment.is_some());
    for m in &g.main.moves {
        assert!(m.comment.is_some(), "every move has its evaluation");
    }
    assert_eq!(
        g.tag("Annotator").map(|a| a.starts_with("Estuary")),
        Some(true)
    );
}

/// The annotated game written out reads back as the same game.
fn check_round_trip(a: &AnnotatedGame) {
    let text = a.game.to_pgn();
    let (back, err) = read_games(&text);
    assert_eq!(err, None, "{text}");
    assert_eq!(back, vec![a.game.clone()], "{text}");
}

#[test]
fn legals_mate_the_bishop_grab_is_a_blunder() {
    let a = annotated(LEGAL);
    check_blunder(&a, 9);
    let g = &a.game;
    // The comment already there comes first, then the evaluation.
    let c = g.main.moves[8].comment.as_deref().unwrap();
    assert!(c.starts_with("the trap "), "{c}");
    // The last move mates: so says its comment.
    assert_eq!(
        g.main.moves.last().unwrap().comment.as_deref(),
        Some("checkmate")
    );
    // White's moves after the blunder were the engine's, and mate: not marked.
    assert_eq!(&a.judgements[10..], &[Judgement::Good; 3]);
    check_round_trip(&a);
    let svg = evaluation_graph(&a);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("5... Bxd1??"), "the blunder's dot names it");
    assert!(svg.contains("Legall de Kermeur - Saint Brie, Paris, 1-0"));
}

#[test]
fn the_scholars_mate_knight_move_is_a_blunder() {
    let a = annotated(SCHOLAR);
    check_blunder(&a, 5);
    // The better move stops the mate: after it White has no mate in one.
    let g = &a.game;
    let (before, _) = g.positions().nth(5).unwrap();
    let better = g.main.moves[5].variations[0].moves[0].mv;
    let after = before.played(better);
    for m in after.legal_moves().iter() {
        let b = after.played(*m);
        assert!(
            b.has_legal_move() || !b.in_check(),
            "{} still mates",
            after.move_to_san(*m)
        );
    }
    check_round_trip(&a);
}

#[test]
fn a_game_without_moves_and_one_that_starts_with_black() {
    let (games, _) = read_games(
        "[FEN \"4k3/8/8/8/8/8/4q3/4K3 w - - 0 60\"]\n\n*\n\n\
         [FEN \"6k1/8/8/8/8/8/r4PPP/6K1 b - - 0 60\"]\n\n60... Ra1# 0-1\n",
    );
    assert_eq!(games.len(), 2);
    let mut analyser = Analyser::new(1, 16, Limits::nodes(5_000));
    let a = annotate(&games[0], &mut analyser, |_| {});
    assert_eq!(a.evaluations.len(), 1);
    assert!(evaluation_graph(&a).contains("</svg>"));
    let b = annotate(&games[1], &mut analyser, |_| {});
    assert_eq!(b.judgements, [Judgement::Good]);
    assert_eq!(b.game.main.moves[0].comment.as_deref(), Some("checkmate"));
    check_round_trip(&b);
}

//! A game annotated: the engine's evaluation after every move as a comment, the judgement of
//! each move as a NAG, and, for a marked move, the engine's line as a variation.

use crate::engine::{Analyser, Evaluation};
use crate::judge::{judge, Judgement};
use chess::pgn::{Game, Line, PgnMove};
use chess::{Board, Color, Move};
use search::score::{is_mate, mate_moves};

/// Plies of the engine's line given as the better move's variation.
pub const MAX_VARIATION_PLIES: usize = 8;

/// A game with its analysis.
#[derive(Clone, Debug)]
pub struct AnnotatedGame {
    /// The annotated copy of the game: its comments, NAGs and variations kept, the analysis
    /// added, and an `Annotator` tag.
    pub game: Game,
    /// The engine's evaluation of each position of the main line, the start first and the
    /// position after the last move last.
    pub evaluations: Vec<Evaluation>,
    /// The judgement of each move of the main line.
    pub judgements: Vec<Judgement>,
}

impl AnnotatedGame {
    /// The evaluation of each position from White's view (as [`Evaluation::score`]).
    pub fn white_scores(&self) -> Vec<i32> {
        let mut board = self.game.start;
        let mut scores = Vec::with_capacity(self.evaluations.len());
        let mut moves = self.game.moves();
        for e in &self.evaluations {
            scores.push(white_view(&board, e.score));
            if let Some(m) = moves.next() {
                board.play(m);
            }
        }
        scores
    }

    /// How many moves were judged `j`.
    pub fn count(&self, j: Judgement) -> usize {
        self.judgements.iter().filter(|&&x| x == j).count()
    }
}

/// A side-to-move score seen from White.
fn white_view(board: &Board, score: i32) -> i32 {
    if board.side_to_move() == Color::White {
        score
    } else {
        -score
    }
}

/// An evaluation as a comment writes it, from White's view: `+0.35/12` (pawns, then depth),
/// `#3` (White mates in 3), `#-2` (Black mates in 2); `checkmate` or `stalemate` for a
/// position with no legal move. `e` is the evaluation of `board`. (A mate's depth is left
/// out: once the search has found one it runs on to its last depth at little cost, so the
/// depth says nothing.)
pub fn eval_text(board: &Board, e: &Evaluation) -> String {
    if !board.has_legal_move() {
        return if board.in_check() {
            "checkmate"
        } else {
            "stalemate"
        }
        .into();
    }
    let score = white_view(board, e.score);
    if is_mate(score) {
        // `mate_moves` counts from the side to move; seen from White the sign follows the
        // score.
        let n = mate_moves(e.score).abs();
        format!("#{}{n}", if score < 0 { "-" } else { "" })
    } else {
        format!("{:+.2}/{}", f64::from(score) / 100.0, e.depth)
    }
}

/// Appends `text` to a comment slot, after what is there.
fn add_comment(slot: &mut Option<String>, text: &str) {
    match slot {
        Some(c) if !c.is_empty() => {
            c.push(' ');
            c.push_str(text);
        }
        _ => *slot = Some(text.to_string()),
    }
}

/// The engine's line from `board` as a variation, its first move commented with `comment`.
fn engine_line(board: &Board, pv: &[Move], comment: String) -> Line {
    let mut b = *board;
    let mut line = Line::default();
    for &m in pv.iter().take(MAX_VARIATION_PLIES) {
        if !b.is_legal(m) {
            break;
        }
        b.play(m);
        line.moves.push(PgnMove::new(m));
    }
    if let Some(first) = line.moves.first_mut() {
        first.comment = Some(comment);
    }
    line
}

/// True for the NAGs that judge a move (`!` `?` `!!` `??` `!?` `?!`).
fn is_move_assessment(nag: u8) -> bool {
    (1..=6).contains(&nag)
}

/// Analyses every position of `game`'s main line with `analyser` (which it starts on a new
/// game) and returns the annotated game. `progress` is called after each position with the
/// number searched so far (the main line's moves + 1 in all).
///
/// Each move gets the evaluation of the position it led to as a comment (after any comment
/// it had). A move the engine would not have played whose drop in expected score marks it
/// ([`judge`]) gets the NAG of its judgement, unless it already carries a move assessment
/// (a person's judgement stands), and the engine's line from the position before it as a
/// variation (after any it had). A move that was the only legal one is never marked.
pub fn annotate(
    game: &Game,
    analyser: &mut Analyser,
    mut progress: impl FnMut(usize),
) -> AnnotatedGame {
    analyser.new_game();
    let moves: Vec<Move> = game.moves().collect();
    let mut evaluations = Vec::with_capacity(moves.len() + 1);
    for k in 0..=moves.len() {
        evaluations.push(analyser.evaluate(&game.start, &moves[..k]));
        progress(k + 1);
    }
    let mut out = game.clone();
    out.tags.retain(|(name, _)| name != "Annotator");
    out.tags.push((
        "Annotator".into(),
        concat!("Estuary ", env!("CARGO_PKG_VERSION")).into(),
    ));
    let mut judgements = Vec::with_capacity(moves.len());
    let mut board = game.start;
    for (i, pm) in out.main.moves.iter_mut().enumerate() {
        let (before, after) = (&evaluations[i], &evaluations[i + 1]);
        let forced = board.legal_moves().len() == 1;
        let j = if forced || before.best() == Some(pm.mv) {
            Judgement::Good
        } else {
            judge(before.score, -after.score)
        };
        judgements.push(j);
        let next = board.played(pm.mv);
        add_comment(&mut pm.comment, &eval_text(&next, after));
        if let Some(nag) = j.nag() {
            if !pm.nags.iter().any(|&n| is_move_assessment(n)) {
                pm.nags.push(nag);
            }
            if let Some(best) = before.best() {
                let after_best = board.played(best);
                let shown = Evaluation {
                    score: -before.score,
                    depth: before.depth,
                    pv: before.pv[1..].to_vec(),
                };
                pm.variations.push(engine_line(
                    &board,
                    &before.pv,
                    eval_text(&after_best, &shown),
                ));
            }
        }
        board = next;
    }
    AnnotatedGame {
        game: out,
        evaluations,
        judgements,
    }
}

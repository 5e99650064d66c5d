//! The analysis page's game: a PGN read, every position of its main line searched with the
//! analysis crate ([`analysis::annotate`]), and the scores, judgements and positions handed to
//! the page for its evaluation graph and for stepping through the game.

use crate::error::ApiError;
use chess::Color;
use search::score::{is_mate, MATE};
use serde::Deserialize;
use serde_json::{json, Value};

/// The most plies of a game analysed at once.
pub const MAX_PLIES: usize = 400;
/// Nodes a position when the request names none.
pub const DEFAULT_NODES: u64 = 20_000;
/// The most nodes a position a request may ask for.
pub const MAX_NODES: u64 = 2_000_000;

/// The body of `POST /api/analyse/game`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    /// The game (the first of the text, if several).
    pub pgn: String,
    /// Nodes a position (default [`DEFAULT_NODES`]).
    pub nodes: Option<u64>,
}

/// Reads the request's first game and analyses it: the positions (FEN before and after each
/// move), the moves in SAN and UCI, each position's score from White's side (centipawns;
/// mates as +/-10000 less the plies to mate, with `mate` set), and each move's judgement
/// (`??`, `?`, `?!` or empty). Blocks for the searches: call it off the async runtime.
pub fn analyse_game(req: &GameRequest) -> Result<Value, ApiError> {
    let nodes = ApiError::node_limit(req.nodes, DEFAULT_NODES, MAX_NODES)?;
    let (games, error) = chess::pgn::read_games(&req.pgn);
    let Some(game) = games.into_iter().next() else {
        return Err(match error {
            Some(e) => ApiError::invalid(format!("bad PGN: {e}")),
            None => ApiError::invalid("the PGN holds no game"),
        });
    };
    let plies = game.main.moves.len();
    if plies > MAX_PLIES {
        return Err(ApiError::invalid(format!(
            "the game has {plies} plies; at most {MAX_PLIES} are analysed"
        )));
    }
    let mut analyser = analysis::Analyser::new(1, 16, search::Limits::nodes(nodes));
    let annotated = analysis::annotate(&game, &mut analyser, |_| {});
    let scores = annotated.white_scores();
    let mut board = game.start;
    let mut fens = vec![board.to_fen()];
    let mut moves = Vec::with_capacity(plies);
    for (m, j) in game.moves().zip(&annotated.judgements) {
        let number = if board.side_to_move() == Color::White {
            format!("{}.", board.fullmove_number())
        } else {
            format!("{}...", board.fullmove_number())
        };
        moves.push(json!({
            "number": number,
            "san": board.move_to_san(m),
            "uci": board.move_to_uci(m),
            "judgement": j.nag().map_or("", nag_text),
        }));
        board.play(m);
        fens.push(board.to_fen());
    }
    // A mate is 10,000 less the plies to it, either way, so the graph pins it to its edge.
    let evals: Vec<Value> = scores
        .iter()
        .map(|&s| {
            if is_mate(s) {
                let plies = MATE - s.abs();
                json!({"cp": s.signum() * (10_000 - plies), "mate": true})
            } else {
                json!({"cp": s, "mate": false})
            }
        })
        .collect();
    Ok(json!({
        "white": game.tag("White").unwrap_or("?"),
        "black": game.tag("Black").unwrap_or("?"),
        "result": game.result.as_str(),
        "fens": fens,
        "moves": moves,
        "evals": evals,
        "nodes": nodes,
        "pgn": annotated.game.to_pgn(),
        "pgn_error": error.map(|e| e.to_string()),
    }))
}

/// `??`, `?` or `?!` for a judgement's NAG.
fn nag_text(nag: u8) -> &'static str {
    match nag {
        4 => "??",
        2 => "?",
        6 => "?!",
        _ => "",
    }
}

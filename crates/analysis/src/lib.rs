//! Game analysis over Estuary's search (`estuary annotate`).
//!
//! Every position of a game's main line is searched ([`Analyser`]); each move is judged by the
//! drop in the mover's expected score from the position before it to the position after it
//! ([`judge`]: `?!`, `?` or `??`); [`annotate`] writes the evaluations as comments, the
//! judgements as NAGs and the engine's line as a variation where a move was marked, into a
//! copy of the game; [`graph::evaluation_graph`] draws the game's evaluation as SVG.
//!
//! ```no_run
//! use search::Limits;
//! let (games, _) = chess::pgn::read_games("1. f3 e5 2. g4 Qh4# 0-1");
//! let mut analyser = analysis::Analyser::new(1, 16, Limits::nodes(20_000));
//! let annotated = analysis::annotate(&games[0], &mut analyser, |_| {});
//! print!("{}", annotated.game.to_pgn());
//! std::fs::write("game.svg", analysis::graph::evaluation_graph(&annotated)).unwrap();
//! ```

mod annotate;
mod engine;
pub mod graph;
pub mod judge;

pub use annotate::{annotate, eval_text, AnnotatedGame, MAX_VARIATION_PLIES};
pub use engine::{Analyser, Evaluation};
pub use judge::{judge, Judgement};

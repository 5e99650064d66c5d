//! Proof-number mate search for Estuary.
//!
//! [`Solver`] is Nagai's df-pn over the small [`MateGame`] trait (attacker moves are checks,
//! defender moves evasions): a fixed-memory table with replacement and garbage collection,
//! 1+epsilon thresholds, hand dominance with proof and disproof hands, repetition handling
//! safe from the graph-history-interaction problem, node and time limits, statistics.
//! [`MateSolver`] adds the line tsume convention wants (shortest mate, longest resistance,
//! futile interpositions not counted). [`Tsume`] adapts shogi positions, [`ChessMate`] chess
//! positions (searched with a ply limit: [`MateSolver::solve_within`]).
//!
//! ```
//! use mate::{Limits, MateSolver, Tsume, Verdict};
//! let pos = shogi::Position::from_sfen("9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1").unwrap();
//! let mut solver = MateSolver::new(Limits { table_bytes: 1 << 20, ..Limits::default() });
//! let s = solver.solve(&Tsume::new(pos));
//! assert_eq!(s.verdict, Verdict::Mate);
//! assert_eq!(s.line.len(), 1);
//! ```

mod chess_game;
mod dfpn;
mod game;
mod line;
mod memory;
mod move_cache;
mod shogi_game;
mod tt;

pub use chess_game::ChessMate;
pub use dfpn::{Limits, Progress, Solver, Stats, Verdict, DEFAULT_MAX_PLY};
pub use game::{HandSet, MateGame};
pub use line::{Found, MateSolver, OnLine, Solution};
pub use shogi_game::Tsume;
pub use tt::INF;

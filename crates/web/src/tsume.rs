//! The tsume page's solver: a problem's SFEN in, the df-pn solver's mating line out, with the
//! position before and after every move for the page's board.

use crate::error::ApiError;
use mate::{Limits, MateSolver, Tsume, Verdict};
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::Duration;

/// Nodes a request may ask for at most (and gets when it names none).
pub const MAX_NODES: u64 = 5_000_000;
/// Time a solve may take at most.
pub const MAX_TIME: Duration = Duration::from_secs(20);
/// The solver's table, MiB.
const TABLE_MB: usize = 64;
/// Stack of the solver's thread (the search recurses once a ply) and its ply cap, as
/// `estuary tsume` runs it.
const STACK: usize = 256 << 20;
const MAX_PLY: u32 = 20_000;

/// The body of `POST /api/tsume`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TsumeRequest {
    /// The problem: an SFEN (`sfen` prefix allowed), the attacker to move.
    pub sfen: String,
    /// A node limit (default and at most [`MAX_NODES`]).
    pub nodes: Option<u64>,
}

/// Solves the problem on a thread of its own with a deep stack; blocks until it is done (at
/// most [`MAX_TIME`]): call it off the async runtime. The answer: `verdict` (`mate`,
/// `nomate`, `unknown` when a limit was hit), the line in USI, the SFEN of the position
/// before the first move and after each, nodes and milliseconds.
pub fn solve(req: &TsumeRequest) -> Result<Value, ApiError> {
    let nodes = ApiError::node_limit(req.nodes, MAX_NODES, MAX_NODES)?;
    let text = req.sfen.trim();
    let text = text.strip_prefix("sfen").map_or(text, str::trim);
    let pos = shogi::Position::from_sfen_relaxed(text)
        .map_err(|e| ApiError::invalid(format!("bad SFEN '{text}': {e}")))?;
    if pos.king_square(pos.side_to_move().flip()).is_none() {
        return Err(ApiError::invalid(
            "the defender (the side not to move) has no king to mate",
        ));
    }
    let limits = Limits {
        nodes,
        time: Some(MAX_TIME),
        table_bytes: TABLE_MB << 20,
    };
    let root = pos.clone();
    let handle = std::thread::Builder::new()
        .name("web-tsume".into())
        .stack_size(STACK)
        .spawn(move || {
            let mut solver = MateSolver::<Tsume>::new(limits);
            solver.set_max_ply(MAX_PLY);
            solver.solve(&Tsume::new(root))
        })
        .map_err(|e| ApiError::unavailable(format!("cannot start the solver thread: {e}")))?;
    let sol = handle
        .join()
        .map_err(|_| ApiError::unavailable("the solver failed on this problem"))?;
    let mut p = pos.clone();
    let mut sfens = vec![p.to_sfen()];
    let mut usi = Vec::with_capacity(sol.line.len());
    for &m in &sol.line {
        if !p.is_legal(m) {
            break;
        }
        usi.push(m.usi());
        p.play(m);
        sfens.push(p.to_sfen());
    }
    let verdict = match sol.verdict {
        Verdict::Mate => "mate",
        Verdict::NoMate => "nomate",
        Verdict::Unknown => "unknown",
    };
    Ok(json!({
        "verdict": verdict,
        "moves": usi,
        "sfens": sfens,
        "checkmate": sol.verdict == Verdict::Mate && p.is_checkmate(),
        "shortest": sol.shortest,
        "nodes": sol.stats.nodes,
        "time_ms": sol.stats.time.as_millis() as u64,
    }))
}

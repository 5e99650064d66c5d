//! Training positions as `estuary datagen` writes them, one a line:
//!
//! ```text
//! FEN | score | result
//! ```
//!
//! `score` is the search score in centipawns from White's side, `result` the game's result
//! from White's side: `1.0`, `0.5` or `0.0`.

use chess::Board;

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position.
    pub board: Board,
    /// Search score, centipawns, White's side.
    pub score: i32,
    /// Game result, White's side (1 win, 0.5 draw, 0 loss).
    pub result: f32,
}

/// The data line for a position.
pub fn format_line(fen: &str, white_score: i32, white_result: f32) -> String {
    format!("{fen} | {white_score} | {white_result:.1}")
}

/// Reads a data line; the error says what was wrong.
pub fn parse_line(line: &str) -> Result<Sample, String> {
    let mut parts = line.split('|');
    let (Some(fen), Some(score), Some(result), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("expected `FEN | score | result`".into());
    };
    let board = Board::from_fen(fen.trim()).map_err(|e| format!("bad FEN: {e}"))?;
    let score: i32 = score
        .trim()
        .parse()
        .map_err(|_| format!("bad score '{}'", score.trim()))?;
    let result: f32 = match result.trim() {
        "1.0" | "1" => 1.0,
        "0.5" => 0.5,
        "0.0" | "0" => 0.0,
        r => return Err(format!("bad result '{r}' (1.0, 0.5 or 0.0)")),
    };
    Ok(Sample {
        board,
        score,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_errors_are_values() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let s = parse_line(&format_line(fen, -23, 0.5)).unwrap();
        assert_eq!(
            (s.board.to_fen().as_str(), s.score, s.result),
            (fen, -23, 0.5)
        );
        for bad in [
            "",
            "x | 1 | 1.0",
            &format!("{fen} | 1"),
            &format!("{fen} | a | 1.0"),
            &format!("{fen} | 1 | 2"),
            &format!("{fen} | 1 | 1.0 | 3"),
        ] {
            assert!(parse_line(bad).is_err(), "{bad}");
        }
    }
}

//! Parsing the `go` command.

use chess::Position;
use search::Limits;

const KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// Reads `go` arguments; moves in `searchmoves` are checked against `pos`.
pub fn parse_go(args: &str, pos: &Position) -> Result<Limits, String> {
    let mut l = Limits::default();
    let toks: Vec<&str> = args.split_whitespace().collect();
    let mut i = 0;
    let int = |i: usize, name: &str| -> Result<i64, String> {
        toks.get(i + 1)
            .and_then(|t| t.parse::<i64>().ok())
            .ok_or_else(|| format!("go {name} needs a number"))
    };
    while i < toks.len() {
        match toks[i] {
            "wtime" => l.wtime = Some(int(i, "wtime")?),
            "btime" => l.btime = Some(int(i, "btime")?),
            "winc" => l.winc = Some(int(i, "winc")?),
            "binc" => l.binc = Some(int(i, "binc")?),
            "movestogo" => l.movestogo = Some(int(i, "movestogo")?.max(1) as u32),
            "depth" => l.depth = Some(int(i, "depth")?.clamp(1, 127) as i32),
            "nodes" => l.nodes = Some(int(i, "nodes")?.max(1) as u64),
            "mate" => l.mate = Some(int(i, "mate")?.max(1) as u32),
            "movetime" => l.movetime = Some(int(i, "movetime")?),
            "infinite" => {
                l.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                l.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                i += 1;
                while i < toks.len() && !KEYWORDS.contains(&toks[i]) {
                    let m = pos
                        .parse_uci_move(toks[i])
                        .map_err(|e| format!("searchmoves: {e}"))?;
                    l.searchmoves.push(m);
                    i += 1;
                }
                continue;
            }
            other => return Err(format!("unknown go parameter '{other}'")),
        }
        i += 2;
    }
    Ok(l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_parameter() {
        let pos = Position::startpos();
        let l = parse_go("wtime -5 btime 0 winc 10 binc 20 movestogo 1 depth 7 nodes 1000 movetime 50 mate 3 infinite ponder searchmoves e2e4 d2d4", &pos).unwrap();
        assert_eq!(
            (l.wtime, l.btime, l.winc, l.binc, l.movestogo),
            (Some(-5), Some(0), Some(10), Some(20), Some(1))
        );
        assert_eq!(
            (l.depth, l.nodes, l.movetime, l.mate),
            (Some(7), Some(1000), Some(50), Some(3))
        );
        assert!(l.infinite && l.ponder);
        assert_eq!(l.searchmoves.len(), 2);
        assert!(parse_go("depth x", &pos).is_err());
        assert!(parse_go("searchmoves e2e5", &pos).is_err());
    }
}

//! `cargo run --release -p estuary-shogi --example divide -- DEPTH SFEN...`: perft by first move.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).unwrap_or(1);
    let sfen = args[1..].join(" ");
    let pos = match shogi::Position::from_sfen(&sfen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    for (m, n) in shogi::perft_divide(&pos, depth) {
        println!("{m} {n}");
    }
}

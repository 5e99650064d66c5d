//! `estuary eval [FEN] [--net FILE]`: the hand-crafted evaluation split into its terms, and
//! the network's score (the embedded net, or FILE).

use std::process::ExitCode;

/// Prints the per-term breakdown of FEN (the start position if none is given).
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    let mut parsed = crate::args::Args::parse(raw, &[]).map_err(|e| e.to_string())?;
    let net_path = parsed.value("net");
    parsed.finish().map_err(|e| e.to_string())?;
    let args = parsed.positional();
    let fen = if args.is_empty() {
        chess::STARTPOS.to_string()
    } else {
        args.join(" ")
    };
    let board = chess::Board::from_fen(&fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    println!("{board}");
    println!("Fen: {}", board.to_fen());
    println!();
    print!("{}", eval::Breakdown::of(&board));
    let (net, name) = match &net_path {
        Some(p) => (
            std::sync::Arc::from(eval::nnue::Network::load(p).map_err(|e| e.to_string())?),
            p.as_str(),
        ),
        None => (eval::nnue::Network::embedded(), "embedded net"),
    };
    let stm = net.evaluate_board(&board);
    let white = if board.side_to_move() == chess::Color::White {
        stm
    } else {
        -stm
    };
    println!();
    let kind = if net.is_hybrid() {
        "hybrid: the hand-crafted score plus the net's correction"
    } else {
        "the net alone"
    };
    println!(
        "NNUE ({name}, {kind}): {white} cp from White's side ({stm} for the side to move){}",
        if search::NNUE_BY_DEFAULT {
            "; the search's default"
        } else {
            "; the search uses the hand-crafted evaluation unless `Use NNUE` is set"
        }
    );
    let adjusted = eval::drawish::adjust(&board, stm);
    let scale = eval::drawish::scale_for(&board, stm);
    let white_adj = if board.side_to_move() == chess::Color::White {
        adjusted
    } else {
        -adjusted
    };
    println!("Search score: {white_adj} cp from White's side (material scale {scale}/64)");
    Ok(ExitCode::SUCCESS)
}

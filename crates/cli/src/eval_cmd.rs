//! `estuary eval [FEN]`: the static evaluation split into its terms.

use std::process::ExitCode;

/// Prints the per-term breakdown of FEN (the start position if none is given).
pub fn run(args: &[String]) -> Result<ExitCode, String> {
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
    Ok(ExitCode::SUCCESS)
}

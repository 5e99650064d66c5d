//! `estuary`: the command-line front end. With no arguments it speaks UCI; each subcommand
//! lives in its own module.

mod args;
mod perft;

use std::process::ExitCode;

const USAGE: &str = "\
usage: estuary [COMMAND] [OPTIONS]

commands:
  perft DEPTH [--fen FEN] [--chess960] [--divide] [--threads N]
                      count leaf nodes of the legal move tree
  perft --epd FILE [--max-depth D] [--threads N]
                      check a perft suite (FEN ; D1 n ; D2 n ...)
  help                this text
";

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let (cmd, rest) = match raw.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => ("help", &raw[..0]),
    };
    let result = match cmd {
        "perft" => perft::run(rest),
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        other => Err(format!("unknown command '{other}'\n{USAGE}")),
    };
    match result {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

//! `estuary`: the command-line front end. With no arguments it speaks UCI; each subcommand
//! lives in its own module.

mod analyze;
mod annotate;
mod args;
mod bench;
mod book;
mod chip;
mod chip_serve;
mod datagen;
mod eval_cmd;
mod hw;
mod nnue;
mod perft;
mod play;
mod profile;
mod serve;
mod shogi_perft;
mod texel;
mod tsume;
mod uci_cmd;
mod usi;
mod wdl;

use std::process::ExitCode;

const USAGE: &str = "\
usage: estuary [COMMAND] [OPTIONS]

commands:
  perft DEPTH [--fen FEN] [--chess960] [--divide] [--threads N]
                      count leaf nodes of the legal move tree
  perft --epd FILE [--max-depth D] [--threads N]
                      check a perft suite (FEN ; D1 n ; D2 n ...)
  perft --shogi DEPTH [--sfen SFEN] [--divide]
                      shogi perft (ends with `nodes N`)
  tsume --sfen SFEN | --file FILE [--nodes N] [--time MS] [--hash MB] [--muda-ai] [--weak-pn] [--all-drops] [--first]
                      solve tsume-shogi problems with df-pn
  usi                 USI mate search (go mate <ms> | infinite)
  hw gen [--out DIR] [--net FILE]
                      write the Verilog ROMs/constants (hw/movegen/gen), the evaluation
                      unit's RAM images of a chip net (hw/evalunit/gen) and the search
                      machine's Zobrist key ROM (hw/chip/gen) from the Rust models
  hw traffic [--depth D] [--offload K] [--mhz F] [--ns-per-word NS]
                      bus words and device clocks of perft trees on the co-simulated generator
  hw eval [--net FILE] [--mhz F] [--repeat R]
                      the chip net on this CPU (AVX2, scalar) against the co-simulated unit
  chip go [--fen FEN] [--depth D | --nodes N | --clocks C] [--net FILE] [--tt-entries N] [--tt-clocks K | --sdram] [--no-lmp]
                      search on the model of the search machine (the whole search on chip):
                      each iteration with its nodes and clocks, then the best move;
                      --no-lmp: the build without late-move pruning (the sequencer's
                      cfg_lmp off; the default and the board's have it on)
  chip bench [DEPTH] [--positions N] [--sw-depth D] [--net FILE] [--mhz F] [--tt-entries N] [--tt-clocks K | --sdram] [--no-lmp]
             [--faster eval=N,gen=N,check=N]
                      the machine's model on the bench positions, then the software engine:
                      nodes/s of the chip at F MHz against the software's, and the ratio;
                      where the chip's clocks went; --faster projects units N clocks quicker
  chip cores [DEPTH] [--cores 1,2,4,8] [--positions N] [--net FILE] [--tt-entries N] [--tt-clocks K | --sdram] [--no-lmp]
                      the machine's model on several cores that a splitter hands root moves:
                      clocks to depth and nodes on the bench positions, the speed-up over one
                      core, private or shared tables
  chip serve (--port PATH [--baud N] | --pty) [--net FILE] [--tt-entries N] [--tt-clocks K | --sdram] [--no-lmp]
                      the machine's model as a board at the far end of a serial line (or a
                      pseudo-terminal, whose path it prints): what `uci --device chip --port`
                      talks to when there is no board
  uci [--device software|chip-model|chip-rtl|chip --port PATH [--baud N]]
                      the UCI engine (also what `estuary` with no arguments runs); chip-model:
                      the search machine's model, its time as chip clocks (docs/chip.md);
                      chip-rtl: its Verilog, simulated at the UART pins (slow); chip: a board
                      on a serial port (hw/board, default 115200 baud)
  bench [DEPTH] [--hash MB] [--threads N] [--eval hce|nnue | --net FILE] [--quiet]
                      fixed-depth search of 40 positions; prints `Nodes searched: N`
  bench [DEPTH] --device rtl [--positions N] [--eval chip [--net FILE]]
                      the same search on the co-simulated Verilog generator beside the software
  profile [--fen FEN | --epd FILE] [--depth D | --nodes N] [--eval hce|nnue | --net FILE] [--bus-ns NS]
          [--cosim-positions N] [--cosim-depth D] [--svg FILE]
                      share of search time per unit (the design review's profile) and
                      Amdahl's-law speedups for each unit in hardware
  analyze [FEN] [--depth D | --time S] [--threads N] [--hash MB] [--multipv N]
                      principal variation in SAN with the score as the search deepens
  annotate GAMES.pgn [--time S | --nodes N] --out OUT.pgn [--svg DIR] [--threads T] [--hash MB]
                      every position of every game searched (default 200000 nodes each);
                      writes the games with evaluation comments, ?? / ? / ?! by the drop in
                      the mover's expected score, the better move as a variation, and one
                      evaluation graph per game (DIR/game-001.svg ...)
  play [--fen FEN] [--time S | --nodes N | --depth D] [--black] [--no-book]
                      a game against the engine in the terminal (from the shipped
                      opening book while the position is in it, unless --no-book)
  serve [--port P] [--host H]
                      the web app: play (with Move now), analyse, tsume in a browser;
                      default http://127.0.0.1:8080/ (docs/web.md)
  eval [FEN] [--net FILE]
                      the static evaluation split into its terms, and the network's score
  book probe [FEN] [--book FILE]
                      the Polyglot opening book's moves for FEN (default: the start position;
                      FILE default: book.bin) with their weights and shares; exit 1 if none
  book build GAMES.pgn... --out FILE [--max-ply N] [--min-games K]
                      a Polyglot book from PGN games: the moves of their first N plies
                      (default 20) played in K games or more (default 1), weighted 2 for a
                      win, 1 for a draw, 0 for a loss of the side that played them
  texel gen --games N --nodes K --out FILE [--seed S] | texel tune FILE... [--epochs E] [--l2 L] [--out PATH]
                      self-play positions for tuning; Texel-tune the evaluation weights
  datagen --out FILE [--threads T] [--nodes K] [--games G] [--positions P] [--seed S] [--random-plies R]
                      self-play training data for the network (FEN | score | result lines)
  wdl fit DATA... [--steps N]
                      fit the win/draw/loss model (UCI_ShowWDL) to datagen positions:
                      its constants, log-loss, and predicted against observed results
  nnue train DATA... --out FILE [--epochs E] [--batch B] [--lr LR] [--wdl W] [--val V] [--threads T]
             [--seed S] [--max N] [--mirror] [--hybrid] [--init NET] [--arch chip|chip-narrow|onechan]
                      train the neural evaluation on datagen data; writes a net file
                      (--arch: a chip net for the evaluation unit, an ESTCHIP1 file)
  nnue check FILE [DATA... [--wdl W]]
                      read a net file (software or chip) and print its shape and a few
                      scores; with data, its loss
  nnue distill DATA... --out FILE [--net FILE] [--children]
                      the data's positions (and their quiet children) labelled with a
                      teacher net's static evaluation, for training a smaller net
  help                this text
";

/// The chip net of `--net FILE`, or the one built in (crates/eval/nets/chip.nnue).
pub(crate) fn chip_net(path: Option<String>) -> Result<eval::chip::ChipNet, String> {
    match path {
        Some(p) => eval::chip::ChipNet::load(&p).map_err(|e| e.to_string()),
        None => Ok((*eval::chip::ChipNet::embedded()).clone()),
    }
}

/// The entries of [`USAGE`] for command `cmd` (each entry: its line, which starts with two
/// spaces and the name, and the more deeply indented lines under it), or `None` for a name it
/// does not list.
fn command_usage(cmd: &str) -> Option<String> {
    let mut out = String::new();
    let mut inside = false;
    for line in USAGE.lines().skip_while(|l| *l != "commands:").skip(1) {
        if let Some(rest) = line.strip_prefix("  ").filter(|r| !r.starts_with(' ')) {
            inside = rest.split_whitespace().next() == Some(cmd);
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    (!out.is_empty()).then(|| format!("usage: estuary {cmd} ...\n{out}"))
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let (cmd, rest) = match raw.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => ("uci", &raw[..0]),
    };
    // `estuary CMD --help` (or -h) anywhere after the command: that command's usage.
    if rest.iter().any(|a| a == "--help" || a == "-h") {
        if let Some(text) = command_usage(cmd) {
            print!("{text}");
            return ExitCode::SUCCESS;
        }
    }
    let result = match cmd {
        "perft" if shogi_perft::wants_shogi(rest) => shogi_perft::run(rest),
        "perft" => perft::run(rest),
        "tsume" => tsume::run(rest),
        "usi" => usi::run(rest),
        "uci" => uci_cmd::run(rest),
        "bench" => bench::run(rest),
        "profile" => profile::run(rest),
        "analyze" => analyze::run(rest),
        "annotate" => annotate::run(rest),
        "play" => play::run(rest),
        "serve" => serve::run(rest),
        "eval" => eval_cmd::run(rest),
        "book" => book::run(rest),
        "texel" => texel::run(rest),
        "datagen" => datagen::run(rest),
        "wdl" => wdl::run(rest),
        "nnue" => nnue::run(rest),
        "hw" => hw::run(rest),
        "chip" => chip::run(rest),
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

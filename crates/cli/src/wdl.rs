//! `estuary wdl fit DATA... [--steps N]`: fits the win/draw/loss model of `search::wdl` to
//! self-play positions as `estuary datagen` writes them (`FEN | score | result`, both from
//! White's side), and prints the constants, the fit's likelihood against a baseline, and
//! a table of predicted against observed results by score. The recipe behind the shipped
//! constants is in docs/results/wdl.md.

use crate::args::Args;
use crate::outln;
use search::score::is_mate;
use search::wdl::{fit, material, Sample, WdlModel};
use std::process::ExitCode;

const USAGE: &str = "usage: estuary wdl fit DATA... [--steps N]";

/// Dispatches `wdl fit`.
pub fn run(raw: &[String]) -> Result<ExitCode, String> {
    match raw.split_first() {
        Some((c, rest)) if c == "fit" => fit_command(rest),
        _ => Err(USAGE.into()),
    }
}

/// The samples of a datagen file; the error names the file and line.
fn read(path: &str, out: &mut Vec<Sample>) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let s = eval::nnue::data::parse_line(line).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        out.push(Sample {
            score: s.score,
            material: material(&s.board),
            result: s.result,
        });
    }
    Ok(())
}

/// Predicted and observed shares of wins, draws and losses per score band.
fn calibration(model: &WdlModel, samples: &[Sample]) {
    outln!("score band     positions   predicted W/D/L      observed W/D/L");
    let bands = [-10_000, -600, -300, -150, -50, 50, 150, 300, 600, 10_000];
    for pair in bands.windows(2) {
        let (lo, hi) = (pair[0], pair[1]);
        let inside: Vec<&Sample> = samples
            .iter()
            .filter(|s| (lo..hi).contains(&s.score))
            .collect();
        if inside.is_empty() {
            continue;
        }
        let n = inside.len() as f64;
        let mut pred = [0.0; 3];
        let mut seen = [0.0; 3];
        for s in &inside {
            let w = model.wdl(s.score, s.material);
            pred[0] += f64::from(w.win) / 1000.0;
            pred[1] += f64::from(w.draw) / 1000.0;
            pred[2] += f64::from(w.loss) / 1000.0;
            let k = if s.result > 0.75 {
                0
            } else if s.result < 0.25 {
                2
            } else {
                1
            };
            seen[k] += 1.0;
        }
        let pct = |v: [f64; 3]| {
            format!(
                "{:>3.0}/{:>3.0}/{:>3.0}%",
                100.0 * v[0] / n,
                100.0 * v[1] / n,
                100.0 * v[2] / n
            )
        };
        let band = match (lo, hi) {
            (-10_000, h) => format!("< {h}"),
            (l, 10_000) => format!(">= {l}"),
            (l, h) => format!("{l} to {h}"),
        };
        outln!(
            "{band:<14} {:>9}   {:>16}   {:>16}",
            inside.len(),
            pct(pred),
            pct(seen)
        );
    }
}

fn fit_command(raw: &[String]) -> Result<ExitCode, String> {
    let mut args = Args::parse(raw, &[]).map_err(|e| e.to_string())?;
    let steps: usize = args
        .parsed("steps")
        .map_err(|e| e.to_string())?
        .unwrap_or(2000);
    args.finish().map_err(|e| e.to_string())?;
    if args.positional().is_empty() {
        return Err(format!("wdl fit needs a data file\n{USAGE}"));
    }
    let mut samples = Vec::new();
    for path in args.positional() {
        read(path, &mut samples)?;
    }
    samples.retain(|s| !is_mate(s.score));
    if samples.is_empty() {
        return Err("no positions to fit".into());
    }
    let count = |keep: fn(f32) -> bool| samples.iter().filter(|s| keep(s.result)).count();
    outln!(
        "{} positions: {} from won games, {} drawn, {} lost (White's side)",
        samples.len(),
        count(|r| r > 0.75),
        count(|r| (0.25..=0.75).contains(&r)),
        count(|r| r < 0.25)
    );
    let f = fit(&samples, steps);
    let m = f.model;
    outln!(
        "fit after {steps} steps: mean log-loss {:.4} (the result shares alone: {:.4})",
        f.loss,
        f.baseline
    );
    outln!(
        "a(x) = {:.1} + {:.1} x, b(x) = {:.1} + {:.1} x  (x = material / 78)",
        m.a[0],
        m.a[1],
        m.b[0],
        m.b[1]
    );
    calibration(&m, &samples);
    outln!("for crates/search/src/wdl.rs:");
    outln!(
        "pub const FITTED: WdlModel = WdlModel {{ a: [{:.1}, {:.1}], b: [{:.1}, {:.1}] }};",
        m.a[0],
        m.a[1],
        m.b[0],
        m.b[1]
    );
    Ok(ExitCode::SUCCESS)
}

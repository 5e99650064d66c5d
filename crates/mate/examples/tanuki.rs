//! Development driver: `cargo run --release -p estuary-mate --example tanuki -- FILE [MAX]`.
use mate::{Limits, MateSolver, Tsume, Verdict};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let text = std::fs::read_to_string(&args[0]).unwrap_or_default();
    let max: usize = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(usize::MAX);
    let mut solver = MateSolver::new(Limits {
        table_bytes: 32 << 20,
        nodes: 2_000_000,
        ..Limits::default()
    });
    solver.set_skip_futile(std::env::var_os("MUDA").is_some());
    let (mut solved, mut matched, mut total, mut nodes, mut lnodes) = (0, 0, 0, 0u64, 0u64);
    let t = std::time::Instant::now();
    for line in text.lines().take(max) {
        let f: Vec<&str> = line.split('\t').collect();
        let Ok(pos) = shogi::Position::from_sfen_relaxed(f[0]) else {
            continue;
        };
        let plies: usize = f[1].parse().unwrap_or(0);
        total += 1;
        let s = solver.solve(&Tsume::new(pos));
        nodes += s.stats.nodes;
        lnodes += s.line_nodes;
        if std::env::var_os("V").is_some() {
            println!("{} {} {}", f[2], s.stats.nodes - s.line_nodes, s.line_nodes);
        }
        if s.verdict == Verdict::Mate {
            solved += 1;
            if s.line.len() == plies {
                matched += 1;
            } else {
                let l: Vec<String> = s.line.iter().map(|m| m.usi()).collect();
                println!(
                    "{} want {} got {} shortest={} {}",
                    f[2],
                    plies,
                    s.line.len(),
                    s.shortest,
                    l.join(" ")
                );
            }
        } else {
            println!("{} {:?}", f[2], s.verdict);
        }
    }
    println!(
        "solved {solved}/{total}, matched {matched}, nodes {nodes} (line {lnodes}), {:?}",
        t.elapsed()
    );
}

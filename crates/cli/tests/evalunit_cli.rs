//! The evaluation unit from the command line: `estuary bench --device rtl --eval chip` searches
//! on the co-simulated generator and unit and finds the software's node counts; `estuary hw
//! eval` times the chip net on the CPU beside the unit; a broken net file is an error.

use eval::chip::{Arch, ChipNet};
use std::process::Command;

fn estuary(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_estuary"))
        .args(args)
        .output()
        .expect("run estuary")
}

fn text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn net_file(name: &str, arch: Arch) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("estuary-evalunit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, ChipNet::random(arch, 4).to_bytes()).unwrap();
    p
}

#[test]
fn bench_on_the_units_equals_the_software_search() {
    if !cosim::available() {
        eprintln!("skipped: built without verilator");
        return;
    }
    let p = net_file("ours.nnue", Arch::estuary());
    let o = estuary(&[
        "bench",
        "4",
        "--device",
        "rtl",
        "--eval",
        "chip",
        "--net",
        p.to_str().unwrap(),
        "--positions",
        "2",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("(equal)"), "{t}");
    assert!(t.contains("Unit clocks/call: make"), "{t}");
}

#[test]
fn hw_eval_times_the_cpu_beside_the_unit() {
    let p = net_file("onechan.nnue", Arch::onechan());
    let o = estuary(&["hw", "eval", "--net", p.to_str().unwrap(), "--repeat", "2"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("ns/update"), "{t}");
    if cosim::available() {
        assert!(t.contains("evaluation unit (RTL)"), "{t}");
    }
}

#[test]
fn broken_chip_nets_are_errors() {
    let p = net_file("broken.nnue", Arch::estuary());
    let bytes = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bytes[..bytes.len() / 2]).unwrap();
    for args in [
        vec!["hw", "eval", "--net", p.to_str().unwrap()],
        vec![
            "bench",
            "--device",
            "rtl",
            "--eval",
            "chip",
            "--net",
            p.to_str().unwrap(),
        ],
    ] {
        let o = estuary(&args);
        let t = text(&o);
        assert!(!o.status.success(), "{args:?}: {t}");
        assert!(t.contains("chip net file has"), "{args:?}: {t}");
        assert!(!t.contains("panicked"), "{args:?}: {t}");
    }
}

/// The last `info depth D` line's node count of a UCI session's output.
fn nodes_at(out: &str, depth: u32) -> Option<u64> {
    out.lines()
        .rev()
        .find(|l| l.starts_with(&format!("info depth {depth} ")))
        .and_then(|l| {
            let mut it = l.split_whitespace();
            it.position(|w| w == "nodes")?;
            it.next()?.parse().ok()
        })
}

#[test]
fn the_uci_hardware_option_searches_the_software_tree_on_the_units() {
    if !cosim::available() {
        eprintln!("skipped: built without verilator");
        return;
    }
    // The built-in chip net, named as a file so that the software search runs it too.
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../eval/nets/chip.nnue");
    let session = |hardware: &str| {
        use std::io::{BufRead, Write};
        let script = format!(
            "uci\nsetoption name EvalFile value {}\nsetoption name Hardware value {hardware}\n\
             position startpos moves e2e4 c7c5\ngo depth 5\n",
            p.display()
        );
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_estuary"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("run estuary");
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(script.as_bytes()).unwrap();
        stdin.flush().unwrap();
        // Read until the search has answered (the end of input would stop it), then quit.
        let mut out = String::new();
        for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
            let line = line.unwrap();
            out.push_str(&line);
            out.push('\n');
            if line.starts_with("bestmove") || line.contains("bad Hardware value") {
                break;
            }
        }
        stdin.write_all(b"quit\n").unwrap();
        drop(stdin);
        child.wait().unwrap();
        out
    };
    let (sw, hw) = (session("off"), session("rtl"));
    assert!(hw.contains("option name Hardware type combo"), "{hw}");
    assert!(hw.contains("info string Hardware rtl"), "{hw}");
    assert!(hw.contains("bestmove"), "{hw}");
    let n = nodes_at(&sw, 5).unwrap_or_else(|| panic!("no depth-5 line:\n{sw}"));
    assert_eq!(nodes_at(&hw, 5), Some(n), "software:\n{sw}\nrtl:\n{hw}");
    let bad = session("fpga");
    assert!(bad.contains("bad Hardware value 'fpga'"), "{bad}");
}

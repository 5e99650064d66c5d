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

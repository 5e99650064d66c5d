//! Verilates each hardware unit in [`UNITS`] (the Verilog of hw/<unit>/ and its generated
//! tables in hw/<unit>/gen/) and compiles it, with its C++ harness csrc/<unit>.cpp (their
//! shared clocking in csrc/clocked.h, the UART's far end in csrc/uart.h), through the
//! `cc` crate. Everything is written under OUT_DIR. Without a `verilator` on PATH (or in
//! $VERILATOR) the crate builds a stub instead: a cargo warning says so, `cosim::available()`
//! is false and the co-simulation tests report themselves skipped (or fail when CI=true).

use std::path::{Path, PathBuf};
use std::process::Command;

/// A hardware unit: its name (the harness under csrc/ and the verilated model's class,
/// `V<name>`), its directory under hw/, its top module, the directories of the units it
/// instantiates, and whether its evaluation unit starts with the built-in net's weights
/// (`EVALUNIT_INIT`, as on a board) rather than being written them by the harness.
struct Unit {
    name: &'static str,
    dir: &'static str,
    top: &'static str,
    uses: &'static [&'static str],
    init_weights: bool,
    /// Parameters of the top module (`-G`).
    params: &'static [&'static str],
}

/// The units to verilate. A new one is its hw/<dir>, csrc/<name>.cpp and a line here.
const UNITS: &[Unit] = &[
    Unit {
        name: "movegen",
        dir: "movegen",
        top: "estuary_movegen",
        uses: &[],
        init_weights: false,
        params: &[],
    },
    Unit {
        name: "evalunit",
        dir: "evalunit",
        top: "estuary_evalunit",
        uses: &[],
        init_weights: false,
        params: &[],
    },
    Unit {
        name: "host",
        dir: "host",
        top: "estuary_host",
        uses: &[],
        init_weights: false,
        params: &[],
    },
    Unit {
        name: "mirror",
        dir: "chip",
        top: "mirror",
        uses: &[],
        init_weights: false,
        params: &[],
    },
    Unit {
        name: "core",
        dir: "chip",
        top: "chip_core",
        uses: &["movegen", "evalunit"],
        init_weights: false,
        // Both tables, the block RAM's and the SDRAM's, chosen at run time (cfg_tt_ext).
        params: &["TT_EXT=2"],
    },
    Unit {
        name: "chip",
        dir: "chip",
        top: "estuary_chip",
        uses: &["movegen", "evalunit", "host"],
        init_weights: true,
        params: &[],
    },
];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(verilated)");
    println!("cargo:rerun-if-env-changed=VERILATOR");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let hw = manifest.join("../../hw");
    for unit in UNITS {
        watch(&hw.join(unit.dir), &manifest.join(unit.harness()));
    }
    // (The units a unit uses are watched as units of their own.)
    for header in ["csrc/clocked.h", "csrc/uart.h"] {
        println!("cargo:rerun-if-changed={}", manifest.join(header).display());
    }

    let verilator = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".to_string());
    let root = match Command::new(&verilator)
        .args(["--getenv", "VERILATOR_ROOT"])
        .output()
    {
        Ok(o) if o.status.success() => PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()),
        _ => {
            println!(
                "cargo:warning=verilator not found: estuary-cosim builds a stub and its co-simulation \
                 tests are skipped (install it: apt-get install verilator)"
            );
            return;
        }
    };

    // Under `cargo clippy` (a check build: nothing is linked) the units are verilated, so a
    // Verilog error still fails early, but their C++ is not compiled: minutes of CI saved.
    println!("cargo:rerun-if-env-changed=RUSTC_WORKSPACE_WRAPPER");
    let checking = std::env::var("RUSTC_WORKSPACE_WRAPPER").is_ok_and(|w| w.contains("clippy"));

    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let inc = root.join("include");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        // The verilated models are large and flat: -O2 compiles several times faster than -O3;
        // it simulates the perft co-simulation a third faster than -O1 for about 20 s more of
        // build.
        .opt_level(2)
        .include(&inc)
        .include(inc.join("vltstd"))
        .include(manifest.join("csrc"))
        .flag_if_supported("-Wno-unused-parameter")
        .flag_if_supported("-Wno-unused-variable")
        .flag_if_supported("-Wno-sign-compare")
        .warnings(false)
        .file(inc.join("verilated.cpp"));
    if inc.join("verilated_threads.cpp").exists() {
        build.file(inc.join("verilated_threads.cpp"));
    }
    for unit in UNITS {
        let mdir = out.join(unit.name);
        unit.verilate(&verilator, &hw, &mdir);
        build.include(&mdir).file(manifest.join(unit.harness()));
        for e in std::fs::read_dir(&mdir).unwrap().flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "cpp") && unit.is_model_source(&p) {
                build.file(p);
            }
        }
    }
    if !checking {
        build.compile("estuary_cosim");
    }
    println!("cargo:rustc-cfg=verilated");
}

impl Unit {
    fn harness(&self) -> String {
        format!("csrc/{}.cpp", self.name)
    }

    fn prefix(&self) -> String {
        format!("V{}", self.name)
    }

    /// True for the C++ files Verilator wrote for this unit's model.
    fn is_model_source(&self, p: &Path) -> bool {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with(&self.prefix()))
    }

    /// Runs Verilator on the unit's sources (hw/<dir>/*.v and hw/<dir>/gen/*.v, and those of
    /// the units it uses) into `mdir`.
    fn verilate(&self, verilator: &str, hw: &Path, mdir: &Path) {
        let dirs: Vec<PathBuf> = std::iter::once(self.dir)
            .chain(self.uses.iter().copied())
            .map(|d| hw.join(d))
            .collect();
        let _ = std::fs::remove_dir_all(mdir);
        let status = Command::new(verilator)
            .args(["--cc", "--top-module", self.top, "--prefix"])
            .arg(self.prefix())
            .args([
                "-O3",
                "--x-assign",
                "fast",
                "--x-initial",
                "fast",
                "-Wno-fatal",
                "-Wno-WIDTH",
                "-Wno-UNUSED",
            ])
            .args(dirs.iter().map(|d| format!("-I{}", d.display())))
            // The evaluation unit's initial weights ($readmemh at the start of a simulation)
            // by absolute path: a test or `estuary` runs from anywhere.
            .args(self.init_weights.then_some("-DEVALUNIT_INIT"))
            .args(self.params.iter().map(|p| format!("-G{p}")))
            .arg(format!(
                "-DEVALUNIT_GEN=\"{}/\"",
                hw.join("evalunit/gen").display()
            ))
            .arg("--Mdir")
            .arg(mdir)
            .args(dirs.iter().flat_map(|d| verilog_sources(d)))
            .status()
            .expect("running verilator");
        assert!(status.success(), "verilator failed on {}", self.top);
    }
}

/// The Verilog files of `dir` and `dir`/gen, sorted.
fn verilog_sources(dir: &Path) -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = [dir.to_path_buf(), dir.join("gen")]
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|rd| rd.flatten().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "v"))
        .collect();
    sources.sort();
    sources
}

/// Rebuilds when the unit's Verilog, its generated tables or its harness change.
fn watch(src: &Path, harness: &Path) {
    println!("cargo:rerun-if-changed={}", harness.display());
    for dir in [src.to_path_buf(), src.join("gen")] {
        println!("cargo:rerun-if-changed={}", dir.display());
        if let Ok(rd) = std::fs::read_dir(&dir) {
            for e in rd.flatten() {
                println!("cargo:rerun-if-changed={}", e.path().display());
            }
        }
    }
}

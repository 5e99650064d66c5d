//! Verilates the move generator in hw/rtl and compiles it, with the C harness in csrc/, through
//! the `cc` crate. Everything is written under OUT_DIR. Without a `verilator` on PATH (or in
//! $VERILATOR) the crate builds a stub instead: a cargo warning says so, `rtl::available()`
//! is false and the co-simulation tests report themselves skipped (or fail when CI=true).

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(rtl_verilated)");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let rtl_dir = manifest.join("../../hw/rtl");
    let harness = manifest.join("csrc/harness.cpp");
    println!("cargo:rerun-if-changed={}", harness.display());
    println!("cargo:rerun-if-env-changed=VERILATOR");
    let mut sources: Vec<PathBuf> = Vec::new();
    for dir in [rtl_dir.clone(), rtl_dir.join("gen")] {
        println!("cargo:rerun-if-changed={}", dir.display());
        if let Ok(rd) = std::fs::read_dir(&dir) {
            for e in rd.flatten() {
                let p = e.path();
                println!("cargo:rerun-if-changed={}", p.display());
                if p.extension().is_some_and(|x| x == "v") {
                    sources.push(p);
                }
            }
        }
    }
    sources.sort();

    let verilator = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".to_string());
    let root = match Command::new(&verilator)
        .args(["--getenv", "VERILATOR_ROOT"])
        .output()
    {
        Ok(o) if o.status.success() => PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()),
        _ => {
            println!(
                "cargo:warning=verilator not found: estuary-rtl builds a stub and its co-simulation \
                 tests are skipped (install it: apt-get install verilator)"
            );
            return;
        }
    };

    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let mdir = out.join("verilated");
    let _ = std::fs::remove_dir_all(&mdir);
    let status = Command::new(&verilator)
        .args([
            "--cc",
            "--top-module",
            "estuary_movegen",
            "--prefix",
            "Vestuary",
            "-O3",
        ])
        .args([
            "--x-assign",
            "fast",
            "--x-initial",
            "fast",
            "-Wno-fatal",
            "-Wno-WIDTH",
            "-Wno-UNUSED",
        ])
        .arg(format!("-I{}", rtl_dir.display()))
        .arg("--Mdir")
        .arg(&mdir)
        .args(&sources)
        .status()
        .expect("running verilator");
    assert!(status.success(), "verilator failed on hw/rtl");

    let inc = root.join("include");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        // The verilated model is large and flat: -O1 compiles several times faster than -O3
        // and simulates within a small factor of it.
        .opt_level(1)
        .include(&mdir)
        .include(&inc)
        .include(inc.join("vltstd"))
        .flag_if_supported("-Wno-unused-parameter")
        .flag_if_supported("-Wno-unused-variable")
        .flag_if_supported("-Wno-sign-compare")
        .warnings(false)
        .file(&harness)
        .file(inc.join("verilated.cpp"));
    if inc.join("verilated_threads.cpp").exists() {
        build.file(inc.join("verilated_threads.cpp"));
    }
    for e in std::fs::read_dir(&mdir).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "cpp") && is_model_source(&p) {
            build.file(p);
        }
    }
    build.compile("estuary_rtl_sim");
    println!("cargo:rustc-cfg=rtl_verilated");
}

fn is_model_source(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("Vestuary"))
}

//! Installs the browser libraries of `package-lock.json` (cm-chessboard, chess.js) with
//! `npm ci` inside `OUT_DIR`, and writes `OUT_DIR/vendor.rs`: every file the pages load from
//! them, embedded with `include_bytes!`.
//!
//! Nothing is written outside `OUT_DIR` (npm keeps its download cache in its usual place,
//! `~/.npm`). The install is keyed by a hash of `package.json` and `package-lock.json`: a
//! stamp in `OUT_DIR` makes later builds skip npm altogether, and `--prefer-offline` lets a
//! fresh `OUT_DIR` (another profile, `cargo clippy`) install from npm's cache without the
//! network.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The folders (under `node_modules/`) whose files are served, and the file endings kept.
const SERVED: &[(&str, &[&str])] = &[
    ("cm-chessboard/src", &["js"]),
    ("cm-chessboard/assets", &["css", "svg"]),
    ("chess.js/dist/esm", &["js"]),
];
/// Licence files served beside the libraries.
const LICENCES: &[&str] = &["cm-chessboard/LICENSE", "chess.js/LICENSE"];

fn main() {
    let manifest =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    for f in ["package.json", "package-lock.json", "build.rs"] {
        println!("cargo:rerun-if-changed={}", manifest.join(f).display());
    }
    println!("cargo:rerun-if-env-changed=NPM");
    let dir = out.join("npm");
    let modules = dir.join("node_modules");
    install(&manifest, &dir, &modules);
    let mut files = Vec::new();
    for (folder, endings) in SERVED {
        collect(&modules.join(folder), endings, &mut files);
    }
    for l in LICENCES {
        files.push(modules.join(l));
    }
    files.sort();
    let mut rs = String::from(
        "/// The vendored files: path under `/vendor/` and contents.\npub static VENDOR: &[(&str, &[u8])] = &[\n",
    );
    for f in &files {
        let rel = f
            .strip_prefix(&modules)
            .expect("collected under node_modules")
            .to_string_lossy()
            .replace('\\', "/");
        let _ = writeln!(
            rs,
            "    ({rel:?}, include_bytes!({:?})),",
            f.display().to_string()
        );
    }
    rs.push_str("];\n");
    fs::write(out.join("vendor.rs"), rs).expect("writing vendor.rs into OUT_DIR");
}

/// Runs `npm ci` in `dir` on copies of the manifest's package files, unless the stamp says
/// that this lockfile is installed there already.
fn install(manifest: &Path, dir: &Path, modules: &Path) {
    let package = fs::read(manifest.join("package.json")).expect("reading crates/web/package.json");
    let lock =
        fs::read(manifest.join("package-lock.json")).expect("reading crates/web/package-lock.json");
    let key = format!("{:016x}", fnv1a(&[&package, &lock]));
    let stamp = dir.join("installed-lock-hash");
    if fs::read_to_string(&stamp).ok().as_deref() == Some(key.as_str()) && modules.is_dir() {
        return;
    }
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir).expect("creating OUT_DIR/npm");
    fs::write(dir.join("package.json"), &package).expect("copying package.json");
    fs::write(dir.join("package-lock.json"), &lock).expect("copying package-lock.json");
    let npm = env::var("NPM").unwrap_or_else(|_| "npm".into());
    let result = Command::new(&npm)
        .args([
            "ci",
            "--ignore-scripts",
            "--no-audit",
            "--no-fund",
            "--prefer-offline",
        ])
        .current_dir(dir)
        .output();
    match result {
        Err(e) => panic!(
            "\n\nestuary-web needs npm (Node.js) at build time to install the browser libraries \
             of crates/web/package-lock.json (cm-chessboard, chess.js): running '{npm}' failed: {e}.\n\
             Install Node.js and npm (Debian: apt-get install nodejs npm), or set NPM to the npm program.\n\n"
        ),
        Ok(o) if !o.status.success() => panic!(
            "\n\n'{npm} ci' for crates/web/package-lock.json failed ({}):\n{}\n{}\n\
             The first build needs the npm registry (later builds use npm's cache).\n\n",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        Ok(_) => {}
    }
    fs::write(&stamp, key).expect("writing the install stamp");
}

/// Every file under `dir` whose name ends in one of `endings`.
fn collect(dir: &Path, endings: &[&str], files: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{} is missing after npm ci: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, endings, files);
        } else if path
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| endings.contains(&x))
        {
            files.push(path);
        }
    }
}

/// FNV-1a over the parts, in order: the install's cache key.
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in *p {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

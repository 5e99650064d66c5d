//! Every subcommand that `estuary help` lists must appear in the README's command tour, so the
//! front page cannot fall behind the program.
//!
//! `estuary help` prints a `commands:` block in which each command's first line starts with
//! exactly two spaces and the command's name (continuation and description lines are indented
//! further). The tour is the README section under the heading `## Command tour`, up to the
//! next `## ` heading; a subcommand counts as documented when the tour contains `estuary NAME`
//! followed by anything but a letter, digit, `-` or `_`.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

/// The heading of the README section that must name every subcommand.
const TOUR_HEADING: &str = "## Command tour";

/// Subcommand names from the text of `estuary help`, in order of first appearance.
fn subcommands(help: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_commands = false;
    for line in help.lines() {
        if line.trim_end() == "commands:" {
            in_commands = true;
            continue;
        }
        if !in_commands {
            continue;
        }
        // A command line: two spaces, then a name. Deeper indentation continues the entry
        // above; an unindented, non-empty line would start another block.
        let Some(rest) = line.strip_prefix("  ") else {
            if !line.trim().is_empty() {
                in_commands = false;
            }
            continue;
        };
        if rest.starts_with(' ') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The README's command tour: from its heading to the next level-2 heading.
fn tour(readme: &str) -> Option<String> {
    let start = readme.lines().position(|l| l.trim_end() == TOUR_HEADING)?;
    let section: Vec<&str> = readme
        .lines()
        .skip(start + 1)
        .take_while(|l| !l.starts_with("## "))
        .collect();
    Some(section.join("\n"))
}

/// A character that continues a command name (or, before it, a path such as `target/estuary`).
fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// True when `text` contains `estuary NAME` as a whole word.
fn mentions(text: &str, name: &str) -> bool {
    let needle = format!("estuary {name}");
    text.match_indices(&needle).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + needle.len()..].chars().next();
        !matches!(before, Some(c) if word_char(c) || c == '/')
            && !matches!(after, Some(c) if word_char(c))
    })
}

#[test]
fn every_subcommand_in_help_is_in_the_readme_tour() {
    let out = Command::new(env!("CARGO_BIN_EXE_estuary"))
        .arg("help")
        .output()
        .expect("run estuary help");
    assert!(
        out.status.success(),
        "estuary help exited with {}",
        out.status
    );
    let help = String::from_utf8_lossy(&out.stdout);
    let names = subcommands(&help);
    // A parser that finds nothing would pass vacuously: insist on the commands that have
    // always been there.
    for core in ["perft", "bench", "uci", "help"] {
        assert!(
            names.iter().any(|n| n == core),
            "could not find '{core}' in the commands of `estuary help` (found {names:?}):\n{help}"
        );
    }

    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let tour = tour(&readme)
        .unwrap_or_else(|| panic!("{} has no '{TOUR_HEADING}' section", path.display()));
    let missing: BTreeSet<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| !mentions(&tour, n))
        .collect();
    assert!(
        missing.is_empty(),
        "subcommands listed by `estuary help` but not in README.md's '{TOUR_HEADING}': {missing:?}"
    );
}

#[test]
fn the_help_parser_reads_names_and_skips_descriptions() {
    let help = "usage: estuary [COMMAND]\n\ncommands:\n  perft DEPTH [--fen FEN]\n                      count leaves\n  perft --epd FILE\n  hw gen [--out DIR]  write tables\n  help                this text\n";
    assert_eq!(subcommands(help), ["perft", "hw", "help"]);
    assert!(mentions("    estuary hw gen", "hw"));
    assert!(mentions("`estuary help`", "help"));
    assert!(!mentions("    estuary hwx", "hw"));
    assert!(!mentions("    estuary perft-like", "perft"));
    assert!(!mentions("no tour here", "perft"));
    let readme = "# T\n## Command tour\n    estuary perft\n## Layout\n    estuary bench\n";
    let t = tour(readme).unwrap();
    assert!(mentions(&t, "perft") && !mentions(&t, "bench"));
}

#[test]
fn every_subcommand_answers_help_with_its_own_usage() {
    let bin = env!("CARGO_BIN_EXE_estuary");
    let help = Command::new(bin)
        .arg("help")
        .output()
        .expect("run estuary help");
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let names = subcommands(&help);
    assert!(names.len() > 10, "{names:?}");
    for name in &names {
        for flag in ["--help", "-h"] {
            let mut args = vec![name.as_str()];
            // A nested command (`hw eval`, `nnue train`) asks for help after its own word.
            if name == "hw" {
                args.push("eval");
            }
            args.push(flag);
            let o = Command::new(bin).args(&args).output().expect("run estuary");
            let out = String::from_utf8_lossy(&o.stdout);
            assert!(o.status.success(), "estuary {args:?}: {o:?}");
            assert!(
                out.lines()
                    .any(|l| l.starts_with(&format!("  {name} "))
                        || l.trim_end() == format!("  {name}")),
                "estuary {args:?} printed:\n{out}"
            );
            assert!(
                !out.contains("commands:"),
                "estuary {args:?}: the whole help"
            );
        }
    }
}

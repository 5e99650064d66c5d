//! Builds the sliding-piece attack tables at compile time into OUT_DIR.
//!
//! For every square and for rooks and bishops: the relevant-occupancy mask, a magic multiplier
//! found by a fixed-seed search (so the output is the same on every machine), and two attack
//! tables: one indexed by the magic hash, one by PEXT of the occupancy (used when the CPU has
//! BMI2). Nothing is downloaded and nothing is written outside OUT_DIR.

use std::fmt::Write as _;
use std::path::PathBuf;

// The crate's generator (`chess::rng`), compiled into the build script too.
#[allow(dead_code)]
#[path = "src/rng.rs"]
mod rng;
use rng::Rng;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn slide(sq: usize, occ: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut out = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let b = 1u64 << (r * 8 + f);
            out |= b;
            if occ & b != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    out
}

fn mask(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut out = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        // Stop one short of the edge: the edge square's occupancy never changes the attack set.
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            out |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    out
}

/// Software PEXT: gathers the bits of `x` selected by `m` into the low bits.
fn pext(x: u64, mut m: u64) -> u64 {
    let mut out = 0u64;
    let mut bit = 0;
    while m != 0 {
        let low = m & m.wrapping_neg();
        if x & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        m &= m - 1;
    }
    out
}

/// Software PDEP: scatters the low bits of `x` into the positions selected by `m`.
fn pdep(x: u64, mut m: u64) -> u64 {
    let mut out = 0u64;
    let mut bit = 0;
    while m != 0 {
        let low = m & m.wrapping_neg();
        if x >> bit & 1 != 0 {
            out |= low;
        }
        bit += 1;
        m &= m - 1;
    }
    out
}

/// Random bits with about one in eight set: magic-multiplier candidates.
fn sparse(rng: &mut Rng) -> u64 {
    rng.next() & rng.next() & rng.next()
}

struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn build(
    dirs: &[(i32, i32); 4],
    rng: &mut Rng,
    magic_table: &mut Vec<u64>,
    pext_table: &mut Vec<u64>,
) -> Vec<Entry> {
    let mut entries = Vec::new();
    for sq in 0..64 {
        let m = mask(sq, dirs);
        let bits = m.count_ones();
        let size = 1usize << bits;
        let occs: Vec<u64> = (0..size as u64).map(|i| pdep(i, m)).collect();
        let atts: Vec<u64> = occs.iter().map(|&o| slide(sq, o, dirs)).collect();
        let offset = magic_table.len();
        assert_eq!(offset, pext_table.len());
        // PEXT table: index is the gathered occupancy bits.
        let mut pt = vec![0u64; size];
        for (o, a) in occs.iter().zip(&atts) {
            pt[pext(*o, m) as usize] = *a;
        }
        pext_table.extend_from_slice(&pt);
        // Magic table: search for a multiplier with no destructive collision.
        let shift = 64 - bits;
        let mut table = vec![0u64; size];
        let mut used = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            attempt += 1;
            let cand = sparse(rng);
            if (m.wrapping_mul(cand) >> 56).count_ones() < 6 {
                continue;
            }
            let mut ok = true;
            for (o, a) in occs.iter().zip(&atts) {
                let idx = (o.wrapping_mul(cand) >> shift) as usize;
                if used[idx] != attempt {
                    used[idx] = attempt;
                    table[idx] = *a;
                } else if table[idx] != *a {
                    ok = false;
                    break;
                }
            }
            if ok {
                break cand;
            }
        };
        magic_table.extend_from_slice(&table);
        entries.push(Entry {
            mask: m,
            magic,
            shift,
            offset,
        });
    }
    entries
}

fn emit_entries(out: &mut String, name: &str, entries: &[Entry]) {
    writeln!(out, "pub(crate) static {name}: [SliderEntry; 64] = [").unwrap();
    for e in entries {
        writeln!(
            out,
            "    SliderEntry {{ mask: {:#018x}, magic: {:#018x}, shift: {}, offset: {} }},",
            e.mask, e.magic, e.shift, e.offset
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn emit_table(out: &mut String, name: &str, t: &[u64]) {
    writeln!(out, "pub(crate) static {name}: [u64; {}] = [", t.len()).unwrap();
    for chunk in t.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|v| format!("{v:#x}")).collect();
        writeln!(out, "{},", line.join(",")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/rng.rs");
    let mut rng = Rng::xorshift64_star(0x9E37_79B9_7F4A_7C15);
    let mut magic_table = Vec::new();
    let mut pext_table = Vec::new();
    let rook = build(&ROOK_DIRS, &mut rng, &mut magic_table, &mut pext_table);
    let bishop = build(&BISHOP_DIRS, &mut rng, &mut magic_table, &mut pext_table);
    let mut out = String::new();
    out.push_str("// Generated by build.rs: sliding attack tables. Do not edit.\n");
    emit_entries(&mut out, "ROOK_ENTRIES", &rook);
    emit_entries(&mut out, "BISHOP_ENTRIES", &bishop);
    emit_table(&mut out, "MAGIC_TABLE", &magic_table);
    emit_table(&mut out, "PEXT_TABLE", &pext_table);
    let path = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("slider_tables.rs");
    std::fs::write(path, out).unwrap();
}

//! Mutated SFEN and USI text: parsing never panics, and whatever parses prints back to text
//! that parses to the same position.

use chess::rng::Rng;
use shogi::Position;

const SEEDS: [&str; 3] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1",
    "6SR1/6P1B/6GG1/8k/8B/8N/9/9/9 b r2g3s3n4l17p 1",
];
const ALPHABET: &[u8] = b"0123456789+/ -*bwkrgsnlpKRBGSNLPabcdefghi";

#[test]
fn mutated_sfen_never_panics_and_round_trips() {
    let mut rng = Rng::xorshift64_star(0x5F3E);
    let mut parsed = 0;
    for i in 0..30_000 {
        let mut b: Vec<u8> = SEEDS[i % SEEDS.len()].as_bytes().to_vec();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(b.len() + 1);
            let c = ALPHABET[rng.below(ALPHABET.len())];
            match rng.below(3) {
                0 if at < b.len() => b[at] = c,
                1 if at < b.len() => {
                    b.remove(at);
                }
                _ => b.insert(at, c),
            }
        }
        let text = String::from_utf8_lossy(&b).into_owned();
        for p in [
            Position::from_sfen(&text),
            Position::from_sfen_relaxed(&text),
        ]
        .into_iter()
        .flatten()
        {
            parsed += 1;
            let again = Position::from_sfen_relaxed(&p.to_sfen()).expect("printed SFEN parses");
            assert_eq!(again.key(), p.key(), "{text}");
            let mut moves = shogi::MoveList::new();
            p.legal_moves(&mut moves);
            for &m in moves.iter() {
                let _ = p.after(m);
            }
        }
    }
    assert!(parsed > 100, "only {parsed} mutations parsed");
}

#[test]
fn random_usi_text_never_panics() {
    let mut rng = Rng::xorshift64_star(0x0051);
    let p = Position::startpos();
    for _ in 0..20_000 {
        let n = rng.below(7);
        let s: String = (0..n)
            .map(|_| ALPHABET[rng.below(ALPHABET.len())] as char)
            .collect();
        let _ = p.parse_usi(&s);
    }
    assert!(p.parse_usi("2g2f").is_ok());
}

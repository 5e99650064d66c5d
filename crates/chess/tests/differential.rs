//! Differential tests against `cozy-chess` (legal move sets, hashes of play) and `shakmaty`
//! (SAN text), over positions reached by random playouts, Chess960 included.

use chess::{Board, GenMode, Move, Position};

use chess::rng::Rng;

/// A Chess960 start position from its number (0..960), by the standard numbering scheme.
pub fn chess960_start(n: usize) -> String {
    let mut rank = [' '; 8];
    let mut n = n;
    let free = |rank: &[char; 8]| -> Vec<usize> { (0..8).filter(|&i| rank[i] == ' ').collect() };
    rank[(n % 4) * 2 + 1] = 'b';
    n /= 4;
    rank[(n % 4) * 2] = 'b';
    n /= 4;
    let f = free(&rank);
    rank[f[n % 6]] = 'q';
    n /= 6;
    let knights = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = knights[n];
    let f = free(&rank);
    rank[f[a]] = 'n';
    rank[f[b]] = 'n';
    let f = free(&rank);
    rank[f[0]] = 'r';
    rank[f[1]] = 'k';
    rank[f[2]] = 'r';
    let black: String = rank.iter().collect();
    let white = black.to_uppercase();
    let files: Vec<char> = (0..8)
        .filter(|&i| rank[i] == 'r')
        .map(|i| (b'a' + i as u8) as char)
        .collect();
    let castle = format!(
        "{}{}{}{}",
        files[1].to_ascii_uppercase(),
        files[0].to_ascii_uppercase(),
        files[1],
        files[0]
    );
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castle} - 0 1")
}

fn ours_as_tuples(b: &Board, mode: GenMode) -> Vec<(usize, usize, Option<char>)> {
    let mut v: Vec<_> = b
        .generate(mode)
        .iter()
        .map(|m| {
            (
                m.from().index(),
                m.to().index(),
                m.promotion().map(|p| p.char()),
            )
        })
        .collect();
    v.sort();
    v
}

fn cozy_tuples(b: &cozy_chess::Board) -> Vec<(usize, usize, Option<char>)> {
    let mut v = Vec::new();
    b.generate_moves(|mvs| {
        for m in mvs {
            let promo = m.promotion.map(char::from);
            v.push((m.from as usize, m.to as usize, promo));
        }
        false
    });
    v.sort();
    v
}

#[test]
fn legal_moves_equal_cozy_chess_over_100k_positions() {
    let mut rng = Rng::xorshift64(0x00C0_FFEE_1234_5678);
    let mut positions = 0usize;
    let mut game = 0usize;
    while positions < 110_000 {
        let start = if game % 3 == 2 {
            chess960_start(rng.below(960))
        } else {
            chess::STARTPOS.to_string()
        };
        game += 1;
        let mut ours = Position::from_fen(&start).expect("start FEN");
        let mut cozy: cozy_chess::Board =
            cozy_chess::Board::from_fen(&start, game.is_multiple_of(3))
                .unwrap_or_else(|e| panic!("cozy cannot read {start}: {e:?}"));
        for _ply in 0..200 {
            let a = ours_as_tuples(ours.board(), GenMode::All);
            let c = cozy_tuples(&cozy);
            assert_eq!(a, c, "move sets differ in {}", ours.to_fen());
            positions += 1;
            if a.is_empty() || ours.is_draw() {
                break;
            }
            // Prefer captures now and then so material comes off and endgames are reached.
            let list = ours.legal_moves();
            let m: Move = list[rng.below(list.len())];
            let cm = cozy_chess::Move {
                from: cozy_chess::Square::index(m.from().index()),
                to: cozy_chess::Square::index(m.to().index()),
                promotion: m
                    .promotion()
                    .map(|p| cozy_chess::Piece::try_from(p.char()).expect("piece")),
            };
            cozy.play(cm);
            ours.make(m);
            assert_eq!(
                ours.hash(),
                ours.hash_from_scratch(),
                "incremental hash differs in {}",
                ours.to_fen()
            );
        }
    }
}

#[test]
fn san_equals_shakmaty() {
    use shakmaty::{fen::Fen, san::SanPlus, CastlingMode, Chess, Position as _};
    let mut rng = Rng::xorshift64(0x5A_17_5A_17);
    let mut checked = 0;
    for game in 0..300 {
        let start = if game % 4 == 3 {
            chess960_start(rng.below(960))
        } else {
            chess::STARTPOS.to_string()
        };
        let mut ours = Position::from_fen(&start).unwrap();
        ours.board_mut().set_chess960(game % 4 == 3);
        let mode = if game % 4 == 3 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let mut theirs: Chess = start.parse::<Fen>().unwrap().into_position(mode).unwrap();
        for _ in 0..120 {
            let list = ours.legal_moves();
            if list.is_empty() {
                break;
            }
            for &m in list.iter() {
                let san = ours.move_to_san(m);
                let uci = ours.move_to_uci(m);
                let sm = theirs
                    .legal_moves()
                    .into_iter()
                    .find(|x| x.to_uci(mode).to_string() == uci)
                    .expect("shakmaty has the move");
                let expected = SanPlus::from_move(theirs.clone(), &sm).to_string();
                assert_eq!(san, expected, "SAN of {uci} in {}", ours.to_fen());
                assert_eq!(
                    ours.parse_san(&san),
                    Ok(m),
                    "parse of {san} in {}",
                    ours.to_fen()
                );
                checked += 1;
            }
            let m = list[rng.below(list.len())];
            let uci = ours.move_to_uci(m);
            let sm = theirs
                .legal_moves()
                .into_iter()
                .find(|x| x.to_uci(mode).to_string() == uci)
                .unwrap();
            theirs = theirs.play(&sm).unwrap();
            ours.make(m);
        }
    }
    assert!(checked > 100_000, "checked {checked}");
}

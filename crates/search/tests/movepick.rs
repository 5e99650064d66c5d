//! The move picker hands out every legal move exactly once, whatever path it takes: with or
//! without a TT move (legal, or illegal from a hash collision), killers and countermoves, losing
//! captures deferred, quiet moves skipped part-way, in check (evasions), and in quiescence.
//! Checked against the chess crate's legal generator over the positions of many random games.

use chess::{Board, GenMode, Move, MoveList};
use device::{MoveGenDevice, SoftwareDevice};
use search::history::{History, NO_PIECE_TO};
use search::movepick::{piece_to, MovePicker, QuietContext};

/// A well-mixed number from a counter (splitmix64's finaliser), for reproducible choices.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn pick(list: &MoveList, r: u64) -> Move {
    if list.is_empty() {
        Move::NULL
    } else {
        list[(r % list.len() as u64) as usize]
    }
}

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort_by_key(|m| format!("{m:?}"));
    v
}

/// Everything a picker hands out, with `skip_quiets` set after `skip_after` moves.
fn drain(
    p: &mut MovePicker,
    dev: &mut SoftwareDevice,
    h: &History,
    skip_after: usize,
) -> Vec<Move> {
    let mut out = Vec::new();
    while let Some(m) = p.next(dev, h) {
        out.push(m);
        if out.len() == skip_after {
            p.skip_quiets = true;
        }
        assert!(out.len() <= 256, "the picker does not end");
    }
    out
}

fn moves(b: &Board, mode: GenMode) -> Vec<Move> {
    let mut l = MoveList::new();
    b.generate_into(mode, &mut l);
    l.iter().copied().collect()
}

/// All the picker's paths at one position.
fn check_position(b: &Board, other: Move, h: &History, r: u64) -> usize {
    let mut dev = SoftwareDevice::new(b);
    let legal = moves(b, GenMode::All);
    let list: MoveList = {
        let mut l = MoveList::new();
        b.generate_into(GenMode::All, &mut l);
        l
    };
    let quiets = moves(b, GenMode::Quiet);
    let in_check = b.in_check();
    let ctx = QuietContext {
        killers: [pick(&list, mix(r ^ 1)), pick(&list, mix(r ^ 2))],
        counter: pick(&list, mix(r ^ 3)),
        prev1: NO_PIECE_TO,
        prev2: NO_PIECE_TO,
    };
    let mut cases = 0;
    // TT move: none, a legal one, and one from another position (usually illegal here).
    for tt in [Move::NULL, pick(&list, mix(r ^ 4)), other] {
        let mut p = MovePicker::new(tt, in_check, ctx);
        let out = drain(&mut p, &mut dev, h, usize::MAX);
        assert_eq!(sorted(out.clone()), sorted(legal.clone()), "{b}: tt {tt:?}");
        if tt != Move::NULL && legal.contains(&tt) {
            assert_eq!(out[0], tt, "{b}: the TT move comes first");
        }
        cases += 1;
        // Quiet moves skipped after k moves: each move at most once, every non-quiet one.
        let k = (mix(r ^ 5) % (legal.len() as u64 + 1)) as usize;
        let mut p = MovePicker::new(tt, in_check, ctx);
        let out = drain(&mut p, &mut dev, h, k);
        let mut seen = out.clone();
        seen.sort_by_key(|m| format!("{m:?}"));
        seen.dedup();
        assert_eq!(
            seen.len(),
            out.len(),
            "{b}: a move twice with skip_quiets after {k}"
        );
        for m in &legal {
            let must = in_check || !quiets.contains(m);
            assert!(
                !must || out.contains(m),
                "{b}: {m:?} lost with skip_quiets after {k}"
            );
        }
        assert!(
            out.iter().all(|m| legal.contains(m)),
            "{b}: an illegal move"
        );
        cases += 1;
        // Quiescence: the captures mode, or every evasion in check.
        let mut p = MovePicker::qsearch(tt, in_check);
        let out = drain(&mut p, &mut dev, h, usize::MAX);
        let want = if in_check {
            legal.clone()
        } else {
            moves(b, GenMode::Captures)
        };
        assert_eq!(sorted(out), sorted(want), "{b}: quiescence, tt {tt:?}");
        cases += 1;
    }
    assert_eq!(dev.position().board(), b, "the picker changed the position");
    cases
}

#[test]
fn the_picker_yields_every_legal_move_exactly_once_on_every_path() {
    let mut h = History::default();
    let (mut cases, mut checks) = (0, 0);
    let mut other = Move::NULL;
    for game in 0..60u64 {
        let mut b = Board::startpos();
        for ply in 0..160u64 {
            let r = mix(game << 16 | ply);
            let legal = b.legal_moves();
            if legal.is_empty() {
                break;
            }
            cases += check_position(&b, other, &h, r);
            checks += b.in_check() as usize;
            // Give the history some opinions so quiet ordering is not the generator's.
            for (i, &m) in legal.iter().enumerate() {
                if !m.is_tactical() {
                    let bonus = (mix(r ^ i as u64) % 4001) as i32 - 2000;
                    let pt = piece_to(&b, m);
                    h.update_quiet(b.side_to_move(), m, pt, NO_PIECE_TO, NO_PIECE_TO, bonus);
                }
            }
            // Prefer captures now and then so games reach endgames and promotions.
            let caps = moves(&b, GenMode::Captures);
            let m = if !caps.is_empty() && matches!(r % 3, 0) {
                caps[(r >> 8) as usize % caps.len()]
            } else {
                pick(&legal, r >> 16)
            };
            other = pick(&legal, r >> 24);
            b.play(m);
        }
    }
    assert!(
        cases > 10_000 && checks > 100,
        "{cases} cases, {checks} in check"
    );
}

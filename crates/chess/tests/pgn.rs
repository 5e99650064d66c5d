//! The PGN reader and writer: hand-written games with tags, escapes, comments, NAGs and nested
//! variations; broken input giving its line and keeping the games before it; writing and
//! reading back; and truncated and randomly mutated text, which must never panic.

use chess::pgn::{read_games, Game, GameResult, Line, PgnMove, PgnReader, MAX_VARIATION_DEPTH};
use chess::rng::Rng;
use chess::{Board, Color, Position};

/// Three games: annotations of every kind, a set-up position with Black to move, and a game
/// with no result before the next tag section.
const THREE_GAMES: &str = r#"[Event "Casual \"blitz\" game"]
[Site "C:\\games\\club"]
[Date "2024.01.02"]
[Round "1"]
[White "Ann"]
[Black "Bob"]
[Result "1-0"]

% an escape line the reader skips
{A game comment.} 1. e4 e5 2. Nf3 Nc6 ; the Ruy Lopez comes next
3. Bb5 a6!? {Morphy's defence,
  spanning two lines} (3... Nf6 $1 4. O-O (4. d3 Bc5) 4... Nxe4) (3... f5?!) 4. Ba4
Nf6 5. O-O! Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 $14 Nb8 10. d4 Nbd7 11.
Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 16. d5 c4 17. Bg5 h6
18. Be3 Nc5 19. Qd2 h5 20. Bg5 Be7 21. Bxf6 Bxf6 22. Rf1?? Kg7 1-0

[Event "Study"]
[SetUp "1"]
[FEN "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 40"]
[Result "0-1"]

40... gxh1=Q+ (40... g1=N 41. b8=Q+) 41. Kd2 Qh2+ 0-1

[Event "No result marker"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 e6

[Event "Last"]

1. e4 c5 *
"#;

#[test]
fn three_games_with_every_kind_of_annotation() {
    let (games, err) = read_games(THREE_GAMES);
    assert_eq!(err, None);
    assert_eq!(games.len(), 4);

    let g = &games[0];
    assert_eq!(g.tag("Event"), Some("Casual \"blitz\" game"));
    assert_eq!(g.tag("Site"), Some("C:\\games\\club"));
    assert_eq!(g.result, GameResult::WhiteWins);
    assert_eq!(g.main.comment.as_deref(), Some("A game comment."));
    assert_eq!(g.main.moves.len(), 44);
    let m = &g.main.moves;
    assert_eq!(
        m[3].comment.as_deref(),
        Some("the Ruy Lopez comes next"),
        "a ';' comment belongs to the move before it"
    );
    assert_eq!(m[5].nags, [5]);
    assert_eq!(
        m[5].comment.as_deref(),
        Some("Morphy's defence, spanning two lines")
    );
    assert_eq!(m[5].variations.len(), 2);
    let v = &m[5].variations[0];
    assert_eq!(v.moves.len(), 3);
    assert_eq!(v.moves[0].nags, [1]);
    assert_eq!(
        v.moves[1].variations[0].moves.len(),
        2,
        "a variation inside a variation"
    );
    assert_eq!(m[5].variations[1].moves[0].nags, [6]);
    assert_eq!(m[8].nags, [1]);
    assert_eq!(m[16].nags, [14]);
    assert_eq!(m[42].nags, [4]);
    let (before, a6) = g.positions().nth(5).unwrap();
    assert_eq!(before.move_to_san(a6), "a6");
    let end = g.end();
    assert_eq!(
        end.to_fen(),
        "r2qr3/1b3pk1/p2p1bp1/1pnPp2p/P1p1P3/2P2NNP/1PBQ1PP1/R4RK1 w - - 2 23"
    );

    let g = &games[1];
    assert_eq!(g.start.side_to_move(), Color::Black);
    assert_eq!(g.result, GameResult::BlackWins);
    assert_eq!(g.main.moves.len(), 3);
    assert_eq!(g.main.moves[0].variations[0].moves.len(), 2);
    assert_eq!(g.end().to_fen(), "4k3/1P6/8/8/8/8/3K3q/8 w - - 2 42");

    assert_eq!(games[2].main.moves.len(), 4);
    assert_eq!(
        games[2].result,
        GameResult::Draw,
        "no marker: the Result tag"
    );
    assert_eq!(games[3].result, GameResult::Unknown);
    assert_eq!(games[3].tag("Event"), Some("Last"));
}

#[test]
fn a_game_without_tags_and_an_empty_text() {
    let (games, err) = read_games("1. f3 e5 2. g4 Qh4# 0-1");
    assert_eq!((games.len(), err), (1, None));
    assert!(games[0].end().in_check());
    assert_eq!(read_games("").0.len(), 0);
    assert_eq!(read_games("  \n% only an escape\n\n").0.len(), 0);
    let (games, err) = read_games("[Event \"tags only\"]\n");
    assert_eq!((games.len(), err), (1, None));
    assert!(games[0].main.moves.is_empty());
}

#[test]
fn files_as_other_programs_save_them() {
    // A byte-order mark, Windows line ends (also inside a comment and after a `;` comment),
    // a `%` escape line inside the movetext, promotion without `=`, `0-0` castling, move
    // numbers without a space, and a result right before the next tag section.
    let text = "\u{feff}[Event \"x\"]\r\n\r\n1.e4 e5 {a\r\nb} 2. Nf3 ; c\r\nNc6\r\n\
                % a tool's note { ( \r\n3. Bc4 Bc5 4. 0-0 *\r\n\r\n\
                [FEN \"8/4P2k/8/8/8/8/8/K7 w - - 0 1\"]\r\n\r\n1. e8Q 1-0\n[Event \"z\"]\n1. d4 *";
    let (games, err) = read_games(text);
    assert_eq!(err, None);
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].tag("Event"), Some("x"));
    assert_eq!(games[0].main.moves.len(), 7);
    assert_eq!(games[0].main.moves[1].comment.as_deref(), Some("a b"));
    assert_eq!(games[0].main.moves[2].comment.as_deref(), Some("c"));
    assert_eq!(games[1].end().to_fen(), "4Q3/7k/8/8/8/8/8/K7 b - - 0 1");
    assert_eq!(games[1].result, GameResult::WhiteWins);
    assert_eq!(games[2].tag("Event"), Some("z"));
    // The mark is not counted as a character of the first line: errors still say line 1.
    let (_, err) = read_games("\u{feff}1. e5 *");
    assert_eq!(err.map(|e| e.line), Some(1));
}

/// The error of `text` as (game, line, message), after checking the games before it.
fn error_of(text: &str, games_before: usize) -> (usize, usize, String) {
    let (games, err) = read_games(text);
    let err = err.unwrap_or_else(|| panic!("no error in {text:?}"));
    assert_eq!(games.len(), games_before, "games kept before {err}");
    assert_eq!(err.game, games_before + 1);
    (err.game, err.line, err.message)
}

#[test]
fn broken_games_give_their_line_and_keep_the_games_before() {
    let good = "[Event \"1\"]\n\n1. e4 e5 1-0\n\n[Event \"2\"]\n\n1. d4 d5 0-1\n\n";
    // The third game's tags start on line 9, its movetext on line 11.
    let movetext: &[(&str, usize, &str)] = &[
        ("1. e4 e5 2. Ke3 *", 11, "legal"),
        ("1. e4\ne5 2. Nf3 Nf3 *", 12, "move 2..."),
        ("1. e4 {never\nclosed 1-0", 11, "unterminated comment"),
        ("1. e4 (1. d4\nd5 2. c4 1-0", 11, "unterminated variation"),
        ("1. e4 e5 ) 1-0", 11, "')'"),
        ("(1. e4) 1-0", 11, "before any move"),
        ("$1 1. e4 1-0", 11, "before any move"),
        ("1. e4 <e5> 1-0", 11, "'<'"),
        ("1. e4 $ 1-0", 11, "'$'"),
        ("1. e4 $999 1-0", 11, "255"),
        ("1. e4 !!! 1-0", 11, "annotation"),
        ("1. e4 (1. d4 [Event \"4\"]", 11, "unterminated"),
        ("1. e4 --  e5 *", 11, "unexpected character '-'"),
    ];
    let mut cases: Vec<(String, usize, &str)> = movetext
        .iter()
        .map(|&(m, line, words)| (format!("[Event \"3\"]\n\n{m}"), line, words))
        .collect();
    cases.push((
        "[Event \"3\n\"]\n\n1. e4 1-0".into(),
        9,
        "unterminated string",
    ));
    cases.push((
        "[Event \"3\"]\n[FEN \"8/8 w - - 0 1\"]\n\n1. e4 *".into(),
        10,
        "FEN",
    ));
    for (third, line, words) in cases {
        let text = format!("{good}{third}");
        let (game, l, message) = error_of(&text, 2);
        assert_eq!((game, l), (3, line), "{third:?}: {message}");
        assert!(message.contains(words), "{third:?}: {message}");
    }
}

#[test]
fn the_reader_stops_after_an_error() {
    let mut r = PgnReader::new("1. e4 *\n1. Ke2 *\n1. e4 *");
    assert!(r.next().unwrap().is_ok());
    assert_eq!(r.next().unwrap().unwrap_err().line, 2);
    assert!(r.next().is_none());
    assert!(r.next().is_none());
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let mut text = String::from("1. e4 ");
    for _ in 0..100_000 {
        text.push_str("(1. d4 ");
    }
    let (_, line, message) = error_of(&text, 0);
    assert_eq!(line, 1);
    assert!(
        message.contains(&MAX_VARIATION_DEPTH.to_string()),
        "{message}"
    );
    // Nesting to the limit is fine.
    let mut ok = String::from("1. e4 ");
    for _ in 0..MAX_VARIATION_DEPTH {
        ok.push_str("(1. d4 ");
    }
    ok.push_str(&")".repeat(MAX_VARIATION_DEPTH));
    ok.push_str(" *");
    assert_eq!(read_games(&ok).1, None);
    // Many dots and move numbers: no recursion either.
    let dots = format!("1. e4 {} e5 *", ". ".repeat(100_000));
    assert_eq!(read_games(&dots).0[0].main.moves.len(), 2);
}

#[test]
fn written_games_read_back_the_same() {
    let (games, _) = read_games(THREE_GAMES);
    for g in &games {
        let text = g.to_pgn();
        let (back, err) = read_games(&text);
        assert_eq!(err, None, "{text}");
        assert_eq!(back, vec![g.clone()], "{text}");
        assert!(text.lines().all(|l| l.len() <= 79), "{text}");
    }
    let all: Vec<String> = games.iter().map(Game::to_pgn).collect();
    assert_eq!(read_games(&all.join("\n")).0, games);
}

/// A random line of up to `len` moves from `board`, with random NAGs, comments and
/// variations (up to `depth` deep).
fn random_line(rng: &mut Rng, board: Board, len: usize, depth: usize) -> Line {
    let mut line = Line::default();
    if rng.below(5) == 0 {
        line.comment = Some(format!("start {}", rng.below(100)));
    }
    let mut pos = Position::new(board);
    for _ in 0..len {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mut pm = PgnMove::new(moves[rng.below(moves.len())]);
        for _ in 0..rng.below(3) {
            pm.nags.push(rng.below(256) as u8);
        }
        if rng.below(4) == 0 {
            pm.comment = Some(format!(
                "a comment with \"quotes\", [brackets], (parentheses) and ; {}",
                rng.below(1000)
            ));
        }
        if depth > 0 {
            for _ in 0..rng.below(3) {
                let len = 1 + rng.below(6);
                pm.variations
                    .push(random_line(rng, *pos.board(), len, depth - 1));
            }
        }
        pos.make(pm.mv);
        line.moves.push(pm);
    }
    line
}

#[test]
fn random_annotated_games_round_trip() {
    let mut rng = Rng::new(20);
    let starts = [
        chess::STARTPOS,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 3 17",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ];
    let results = [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::Unknown,
    ];
    let mut games = Vec::new();
    for i in 0..200 {
        let start = Board::from_fen(starts[i % starts.len()]).unwrap();
        let mut g = Game::new(start);
        g.tags.push(("Event".into(), format!("random \\ \"{i}\"")));
        if i % starts.len() != 0 {
            g.tags.push(("SetUp".into(), "1".into()));
            g.tags.push(("FEN".into(), start.to_fen()));
        }
        let len = rng.below(80);
        g.main = random_line(&mut rng, start, len, 3);
        g.result = results[rng.below(4)];
        games.push(g);
    }
    let text: Vec<String> = games.iter().map(Game::to_pgn).collect();
    let (back, err) = read_games(&text.join("\n"));
    assert_eq!(err, None);
    assert_eq!(back.len(), games.len());
    for (a, b) in back.iter().zip(&games) {
        assert_eq!(a, b, "{}", b.to_pgn());
    }
}

/// Reads `text` and checks that every game but the last one read equals the one at the same
/// place in `full` (the last may be cut short, or be where the damage is).
fn check_prefix(text: &str, full: &[Game]) {
    let (games, err) = read_games(text);
    if let Some(e) = &err {
        assert!(
            e.line >= 1 && e.line <= text.lines().count().max(1) + 1,
            "{e}"
        );
        assert!(!e.message.is_empty());
    }
    let whole = games.len().saturating_sub(1);
    for (i, g) in games.iter().take(whole).enumerate() {
        if let Some(f) = full.get(i) {
            assert_eq!(g.tags, f.tags);
        }
    }
}

#[test]
fn truncated_text_never_panics_and_keeps_the_whole_games() {
    let (full, _) = read_games(THREE_GAMES);
    for (cut, _) in THREE_GAMES.char_indices() {
        check_prefix(&THREE_GAMES[..cut], &full);
    }
}

#[test]
fn mutated_text_never_panics() {
    let mut rng = Rng::new(4);
    let bytes = THREE_GAMES.as_bytes();
    let specials = b"{}()[]\"\\;%$!?.*-/01 \n\t\xff\x00=+#OQKRBNx";
    for _ in 0..20_000 {
        let mut b = bytes.to_vec();
        for _ in 0..1 + rng.below(6) {
            let at = rng.below(b.len());
            match rng.below(4) {
                0 => b[at] = specials[rng.below(specials.len())],
                1 => b[at] = rng.below(256) as u8,
                2 => {
                    b.remove(at);
                }
                _ => b.insert(at, specials[rng.below(specials.len())]),
            }
        }
        let text = String::from_utf8_lossy(&b);
        for g in PgnReader::new(&text).flatten() {
            // Whatever was read can be written and read back.
            let again = read_games(&g.to_pgn());
            assert_eq!(again.1, None, "{}", g.to_pgn());
        }
    }
}

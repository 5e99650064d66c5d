//! PGN: games with their tag pairs, main line, comments, NAGs and nested variations, read from
//! a text of several games, and written back.
//!
//! The reader takes tag pairs (with `\"` and `\\` escapes), SAN moves checked for legality,
//! move numbers (`12.`, `12...`), comments (`{...}` and `;` to the end of the line), NAGs
//! (`$1`, and the suffixes `!` `?` `!!` `??` `!?` `?!` as NAGs 1 to 6), variations `( ... )`
//! nested to any sensible depth, results (`1-0`, `0-1`, `1/2-1/2`, `*`), a `FEN` tag's starting
//! position, `%` escape lines and a leading byte-order mark. A game that ends without a result
//! before the next tag section or the end of the text is taken as it is. Broken input is an
//! error value with its line; the games before it are kept.
//!
//! ```
//! use chess::pgn::{read_games, GameResult};
//! let text = "[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 {best by test} e5 (1... c5 $1) 2. Qh5?! 1-0\n\n\
//!             [FEN \"7k/8/8/8/8/8/8/K7 w - - 0 1\"]\n\n1. Kb2 (\n";
//! let (games, err) = read_games(text);
//! assert_eq!(games.len(), 1);
//! assert_eq!(games[0].result, GameResult::WhiteWins);
//! assert_eq!(games[0].main.moves[0].comment.as_deref(), Some("best by test"));
//! assert_eq!(games[0].main.moves[1].variations[0].moves[0].nags, [1]);
//! let err = err.unwrap();
//! assert_eq!((err.game, err.line), (2, 8));
//! ```

mod lexer;
mod write;

use crate::board::Board;
use crate::moves::Move;
use crate::types::Color;
use core::fmt;
use lexer::{Lexer, Spanned, Token};

/// How deeply variations may nest (deeper input is an error, not a stack overflow).
pub const MAX_VARIATION_DEPTH: usize = 64;

/// A game's result, from its termination marker (or its `Result` tag when it has none).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished, unknown or abandoned.
    Unknown,
}

impl GameResult {
    /// The PGN text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads the PGN text of a result.
    pub fn parse(s: &str) -> Option<GameResult> {
        Some(match s {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }

    /// The side that won, if one did.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw | GameResult::Unknown => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A move of a line with what follows it in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The move, legal in the position before it.
    pub mv: Move,
    /// Its NAGs in order (suffix annotations as NAGs 1 to 6: `!` `?` `!!` `??` `!?` `?!`).
    pub nags: Vec<u8>,
    /// The comments after it, joined by a space, each with its whitespace runs collapsed.
    pub comment: Option<String>,
    /// Alternatives to this move: lines that start from the position before it.
    pub variations: Vec<Line>,
}

impl PgnMove {
    /// A move with no annotation.
    pub fn new(mv: Move) -> PgnMove {
        PgnMove {
            mv,
            nags: Vec::new(),
            comment: None,
            variations: Vec::new(),
        }
    }
}

/// A sequence of moves: a game's main line or a variation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// A comment before the first move.
    pub comment: Option<String>,
    /// The moves in order.
    pub moves: Vec<PgnMove>,
}

/// One game of a PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The tag pairs in the order read (values unescaped).
    pub tags: Vec<(String, String)>,
    /// The starting position: the `FEN` tag's, or the standard one.
    pub start: Board,
    /// The main line, with comments, NAGs and variations.
    pub main: Line,
    /// The termination marker (or, when the game had none, its `Result` tag).
    pub result: GameResult,
}

impl Game {
    /// A game from `start` with no tags, no moves and an unknown result.
    pub fn new(start: Board) -> Game {
        Game {
            tags: Vec::new(),
            start,
            main: Line::default(),
            result: GameResult::Unknown,
        }
    }

    /// The value of tag `name` (the first one when repeated).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The main line's moves.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.main.moves.iter().map(|m| m.mv)
    }

    /// The main line as (position before the move, move) pairs.
    pub fn positions(&self) -> impl Iterator<Item = (Board, Move)> + '_ {
        let mut board = self.start;
        self.moves().map(move |m| {
            let before = board;
            board.play(m);
            (before, m)
        })
    }

    /// The position at the end of the main line.
    pub fn end(&self) -> Board {
        let mut board = self.start;
        for m in self.moves() {
            board.play(m);
        }
        board
    }
}

/// Why a PGN text could not be read further.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// Which game of the text (1-based) the error is in.
    pub game: usize,
    /// The line (1-based) of the error: where the bad token starts, or where the unterminated
    /// comment, string or variation opens.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} (game {}): {}",
            self.line, self.game, self.message
        )
    }
}

impl std::error::Error for PgnError {}

fn error(line: usize, message: impl Into<String>) -> PgnError {
    PgnError {
        game: 0,
        line,
        message: message.into(),
    }
}

/// Reads every game of `text`: the games up to the first error, and that error.
pub fn read_games(text: &str) -> (Vec<Game>, Option<PgnError>) {
    let mut games = Vec::new();
    for g in PgnReader::new(text) {
        match g {
            Ok(g) => games.push(g),
            Err(e) => return (games, Some(e)),
        }
    }
    (games, None)
}

/// The games of a PGN text one at a time. After an error it yields nothing more.
pub struct PgnReader<'a> {
    lexer: Lexer<'a>,
    /// A token read ahead (the tag that starts the next game of a game without a result).
    pending: Option<Spanned<'a>>,
    games: usize,
    done: bool,
}

/// How a line of moves ended.
enum LineEnd {
    /// A termination marker.
    Result(GameResult),
    /// `)`.
    Close,
    /// The next game's tag section, or the end of the text, with no termination marker.
    Unmarked,
}

impl<'a> PgnReader<'a> {
    /// A reader at the start of `text`.
    pub fn new(text: &'a str) -> PgnReader<'a> {
        PgnReader {
            lexer: Lexer::new(text),
            pending: None,
            games: 0,
            done: false,
        }
    }

    fn next_token(&mut self) -> Result<Spanned<'a>, PgnError> {
        match self.pending.take() {
            Some(t) => Ok(t),
            None => self.lexer.next_token(),
        }
    }

    /// The next game, or `None` at the end of the text.
    fn read_game(&mut self) -> Result<Option<Game>, PgnError> {
        let mut tags = Vec::new();
        let mut fen_line = 0;
        let mut first = self.next_token()?;
        while let Token::Tag { name, value } = first.token {
            if name == "FEN" {
                fen_line = first.line;
            }
            tags.push((name.to_string(), value));
            first = self.next_token()?;
        }
        if tags.is_empty() && first.token == Token::Eof {
            return Ok(None);
        }
        let mut game = Game::new(Board::startpos());
        game.tags = tags;
        if let Some(fen) = game.tag("FEN") {
            game.start =
                Board::from_fen(fen).map_err(|e| error(fen_line, format!("FEN tag: {e}")))?;
        }
        if game
            .tag("Variant")
            .is_some_and(|v| v.contains("960") || v.eq_ignore_ascii_case("fischerandom"))
        {
            game.start.set_chess960(true);
        }
        self.pending = Some(first);
        game.result = match self.read_line(game.start, 0, 0, &mut game.main)? {
            LineEnd::Result(r) => r,
            _ => game
                .tag("Result")
                .and_then(GameResult::parse)
                .unwrap_or(GameResult::Unknown),
        };
        Ok(Some(game))
    }

    /// Reads moves from `board` into `line` until its end: a result or the next game at depth
    /// 0, `)` in a variation (opened on `open_line`, `depth` deep).
    fn read_line(
        &mut self,
        mut board: Board,
        depth: usize,
        open_line: usize,
        line: &mut Line,
    ) -> Result<LineEnd, PgnError> {
        let unterminated = || {
            error(
                open_line,
                "unterminated variation: the '(' on this line has no ')'",
            )
        };
        // The position before the last move read (where its variations start).
        let mut before_last = board;
        loop {
            let t = self.next_token()?;
            match t.token {
                Token::Comment(text) if text.is_empty() => {}
                Token::Comment(text) => {
                    let slot = match line.moves.last_mut() {
                        Some(m) => &mut m.comment,
                        None => &mut line.comment,
                    };
                    match slot {
                        Some(c) => {
                            c.push(' ');
                            c.push_str(&text);
                        }
                        None => *slot = Some(text),
                    }
                }
                Token::Nag(n) => match line.moves.last_mut() {
                    Some(m) => m.nags.push(n),
                    None => return Err(error(t.line, "an annotation before any move")),
                },
                Token::MoveNumber => {}
                Token::Move(san) => {
                    let m = board.parse_san(san).map_err(|e| {
                        let dots = if board.side_to_move() == Color::White {
                            "."
                        } else {
                            "..."
                        };
                        error(
                            t.line,
                            format!("move {}{dots} {e}", board.fullmove_number()),
                        )
                    })?;
                    before_last = board;
                    board.play(m);
                    line.moves.push(PgnMove::new(m));
                }
                Token::Open => {
                    if line.moves.is_empty() {
                        return Err(error(t.line, "a variation before any move"));
                    }
                    if depth >= MAX_VARIATION_DEPTH {
                        return Err(error(
                            t.line,
                            format!("variations nested more than {MAX_VARIATION_DEPTH} deep"),
                        ));
                    }
                    let mut variation = Line::default();
                    self.read_line(before_last, depth + 1, t.line, &mut variation)?;
                    if let Some(m) = line.moves.last_mut() {
                        m.variations.push(variation);
                    }
                }
                Token::Close if depth > 0 => return Ok(LineEnd::Close),
                Token::Close => return Err(error(t.line, "')' without a '('")),
                Token::Result(_) | Token::Tag { .. } | Token::Eof if depth > 0 => {
                    return Err(unterminated())
                }
                Token::Result(r) => return Ok(LineEnd::Result(r)),
                Token::Tag { .. } => {
                    self.pending = Some(t);
                    return Ok(LineEnd::Unmarked);
                }
                Token::Eof => return Ok(LineEnd::Unmarked),
            }
        }
    }
}

impl Iterator for PgnReader<'_> {
    type Item = Result<Game, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.read_game() {
            Ok(Some(game)) => {
                self.games += 1;
                Some(Ok(game))
            }
            Ok(None) => {
                self.done = true;
                None
            }
            Err(mut e) => {
                self.done = true;
                e.game = self.games + 1;
                Some(Err(e))
            }
        }
    }
}

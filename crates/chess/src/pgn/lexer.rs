//! PGN text as tokens: tag pairs, comments, annotations, parentheses, move numbers, moves and
//! results, each with the 1-based line it starts on. `%` escape lines are skipped here.

use super::{GameResult, PgnError};

/// One piece of PGN text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Token<'a> {
    /// `[Name "value"]`, the value unescaped.
    Tag { name: &'a str, value: String },
    /// `{...}` or `; ...` to the end of the line, its whitespace collapsed.
    Comment(String),
    /// `$n`, or a suffix `!`, `?`, `!!`, `??`, `!?`, `?!` as its NAG (1 to 6).
    Nag(u8),
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `12`, `12.` or `12...`: a move number (not checked).
    MoveNumber,
    /// Anything else that reads as a symbol: a move in SAN, checked by the parser.
    Move(&'a str),
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(GameResult),
    /// The end of the text.
    Eof,
}

/// A token and the line it starts on.
#[derive(Debug, Clone)]
pub(super) struct Spanned<'a> {
    pub token: Token<'a>,
    pub line: usize,
}

/// Reads tokens from a PGN text. Cheap to clone (a position in the text).
#[derive(Debug, Clone)]
pub(super) struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

/// An error at `line` (the reader fills in the game number).
fn error(line: usize, message: impl Into<String>) -> PgnError {
    PgnError {
        game: 0,
        line,
        message: message.into(),
    }
}

/// Characters a symbol (a move, a move number, a result) is made of after its first.
fn is_symbol_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'#' | b'=' | b':' | b'-' | b'/')
}

/// The NAG of a suffix annotation.
fn suffix_nag(s: &str) -> Option<u8> {
    Some(match s {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// Comment text with each run of whitespace made one space, trimmed.
fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `text`, past a byte-order mark if it has one (files saved by
    /// some Windows programs start with one).
    pub fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text: text.strip_prefix('\u{feff}').unwrap_or(text),
            pos: 0,
            line: 1,
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn peek_byte(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    /// Moves past one byte, counting lines.
    fn bump(&mut self) {
        if self.peek_byte() == Some(b'\n') {
            self.line += 1;
        }
        self.pos += 1;
    }

    /// Moves past bytes while `f` holds; returns what was passed.
    fn take_while(&mut self, f: impl Fn(u8) -> bool) -> &'a str {
        let start = self.pos;
        while self.peek_byte().is_some_and(&f) {
            self.bump();
        }
        // Only ASCII bytes satisfy the callers' predicates, except the comment and line
        // readers, which stop at ASCII bytes: both ends are character boundaries.
        &self.text[start..self.pos]
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.bytes()[self.pos - 1] == b'\n'
    }

    /// Passes whitespace, `%` escape lines and dots apart from a number (`1. ... e5`).
    fn skip_blanks(&mut self) {
        loop {
            match self.peek_byte() {
                Some(c) if c.is_ascii_whitespace() || c == b'.' => self.bump(),
                Some(b'%') if self.at_line_start() => {
                    self.take_while(|c| c != b'\n');
                }
                _ => return,
            }
        }
    }

    /// The next token.
    pub fn next_token(&mut self) -> Result<Spanned<'a>, PgnError> {
        self.skip_blanks();
        let line = self.line;
        let token = match self.peek_byte() {
            None => Token::Eof,
            Some(b'[') => self.tag()?,
            Some(b'{') => self.brace_comment()?,
            Some(b';') => {
                self.bump();
                Token::Comment(collapse_whitespace(self.take_while(|c| c != b'\n')))
            }
            Some(b'(') => {
                self.bump();
                Token::Open
            }
            Some(b')') => {
                self.bump();
                Token::Close
            }
            Some(b'*') => {
                self.bump();
                Token::Result(GameResult::Unknown)
            }
            Some(b'$') => self.nag()?,
            Some(b'!' | b'?') => {
                let s = self.take_while(|c| c == b'!' || c == b'?');
                Token::Nag(
                    suffix_nag(s)
                        .ok_or_else(|| error(line, format!("unknown annotation '{s}'")))?,
                )
            }
            Some(c) if c.is_ascii_alphanumeric() => self.symbol(),
            Some(_) => {
                let c = self.text[self.pos..].chars().next().unwrap_or('?');
                return Err(error(line, format!("unexpected character '{c}'")));
            }
        };
        Ok(Spanned { token, line })
    }

    /// A move, a move number (with its dots) or a result.
    fn symbol(&mut self) -> Token<'a> {
        let s = self.take_while(is_symbol_char);
        if let Some(r) = GameResult::parse(s) {
            return Token::Result(r);
        }
        if s.bytes().all(|c| c.is_ascii_digit()) {
            self.take_while(|c| c == b'.');
            return Token::MoveNumber;
        }
        Token::Move(s)
    }

    /// `$n` with n from 0 to 255.
    fn nag(&mut self) -> Result<Token<'a>, PgnError> {
        let line = self.line;
        self.bump();
        let digits = self.take_while(|c| c.is_ascii_digit());
        match digits.parse::<u8>() {
            Ok(n) => Ok(Token::Nag(n)),
            Err(_) if digits.is_empty() => Err(error(line, "'$' without a number")),
            Err(_) => Err(error(line, format!("NAG ${digits} is above 255"))),
        }
    }

    /// `{...}`, which may span lines; an error at the line of `{` when it never closes.
    fn brace_comment(&mut self) -> Result<Token<'a>, PgnError> {
        let line = self.line;
        self.bump();
        let body = self.take_while(|c| c != b'}');
        if self.peek_byte().is_none() {
            return Err(error(
                line,
                "unterminated comment: the '{' on this line has no '}'",
            ));
        }
        self.bump();
        Ok(Token::Comment(collapse_whitespace(body)))
    }

    /// Passes spaces and tabs (not line ends) inside a tag pair.
    fn skip_spaces(&mut self) {
        self.take_while(|c| c == b' ' || c == b'\t');
    }

    /// Moves past `byte`, or fails with `message` at `line`.
    fn expect(
        &mut self,
        byte: u8,
        line: usize,
        message: impl FnOnce() -> String,
    ) -> Result<(), PgnError> {
        if self.peek_byte() != Some(byte) {
            return Err(error(line, message()));
        }
        self.bump();
        Ok(())
    }

    /// `[Name "value"]` on one line, with `\"` and `\\` escapes in the value.
    fn tag(&mut self) -> Result<Token<'a>, PgnError> {
        let line = self.line;
        self.bump();
        self.skip_spaces();
        let name = self.take_while(|c| c.is_ascii_alphanumeric() || c == b'_');
        if name.is_empty() {
            return Err(error(line, "bad tag pair: no name after '['"));
        }
        self.skip_spaces();
        self.expect(b'"', line, || {
            format!("bad tag pair: no quoted value after [{name}")
        })?;
        let value = self.string(name)?;
        self.skip_spaces();
        self.expect(b']', line, || {
            format!("bad tag pair: no ']' to close [{name}")
        })?;
        Ok(Token::Tag { name, value })
    }

    /// The rest of a string after its opening quote, up to the closing one on the same line.
    fn string(&mut self, name: &str) -> Result<String, PgnError> {
        let line = self.line;
        let mut value = String::new();
        loop {
            let run = self.take_while(|c| !matches!(c, b'"' | b'\\' | b'\n'));
            value.push_str(run);
            match self.peek_byte() {
                Some(b'"') => {
                    self.bump();
                    return Ok(value);
                }
                Some(b'\\') => {
                    self.bump();
                    match self.peek_byte() {
                        Some(c @ (b'"' | b'\\')) => {
                            value.push(c as char);
                            self.bump();
                        }
                        // Any other backslash stands for itself.
                        _ => value.push('\\'),
                    }
                }
                _ => {
                    return Err(error(
                        line,
                        format!("unterminated string in tag [{name}: no closing '\"' on this line"),
                    ))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<(Token<'_>, usize)> {
        let mut lx = Lexer::new(text);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token().unwrap();
            if t.token == Token::Eof {
                return out;
            }
            out.push((t.token, t.line));
        }
    }

    #[test]
    fn every_kind_of_token_with_its_line() {
        let text = "[Event \"A \\\"B\\\" \\\\ C\"]\n% skipped line\n1.e4!? {a\n  comment} 1...e5 $14 ( 2. Nf3 ; rest\n) 1/2-1/2";
        let t = tokens(text);
        assert_eq!(
            t,
            vec![
                (
                    Token::Tag {
                        name: "Event",
                        value: "A \"B\" \\ C".into()
                    },
                    1
                ),
                (Token::MoveNumber, 3),
                (Token::Move("e4"), 3),
                (Token::Nag(5), 3),
                (Token::Comment("a comment".into()), 3),
                (Token::MoveNumber, 4),
                (Token::Move("e5"), 4),
                (Token::Nag(14), 4),
                (Token::Open, 4),
                (Token::MoveNumber, 4),
                (Token::Move("Nf3"), 4),
                (Token::Comment("rest".into()), 4),
                (Token::Close, 5),
                (Token::Result(GameResult::Draw), 5),
            ]
        );
    }

    #[test]
    fn castling_with_zeros_is_a_move_not_a_result() {
        let t = tokens("0-0 0-0-0 0-1 1-0 *");
        assert_eq!(t[0].0, Token::Move("0-0"));
        assert_eq!(t[1].0, Token::Move("0-0-0"));
        assert_eq!(t[2].0, Token::Result(GameResult::BlackWins));
        assert_eq!(t[3].0, Token::Result(GameResult::WhiteWins));
        assert_eq!(t[4].0, Token::Result(GameResult::Unknown));
    }

    #[test]
    fn errors_name_the_opening_line() {
        let err = |text: &str| {
            let mut lx = Lexer::new(text);
            loop {
                match lx.next_token() {
                    Ok(t) if t.token == Token::Eof => panic!("no error in {text:?}"),
                    Ok(_) => {}
                    Err(e) => return e,
                }
            }
        };
        assert_eq!(err("e4\n{ never\nclosed").line, 2);
        assert_eq!(err("\n[Event \"open\n\"]").line, 2);
        assert_eq!(err("e4 $").line, 1);
        assert_eq!(err("e4\n\n$300").line, 3);
        assert_eq!(err("e4 !!?").line, 1);
        assert_eq!(err("e4\n<e5>").line, 2);
        assert!(err("[ \"x\"]").message.contains("no name"));
        assert!(err("[Event x]").message.contains("quoted"));
        assert!(err("[Event \"x\" y]").message.contains("']'"));
    }
}

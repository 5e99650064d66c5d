//! Writing a game as PGN text: its tag pairs, then the movetext with move numbers, SAN, NAGs
//! (as `$n`), comments and variations, wrapped at 79 columns, then the result.

use super::{Game, Line};
use crate::board::Board;
use crate::types::Color;

/// Longest movetext line written.
const WIDTH: usize = 79;

/// Movetext being written: words separated by a space or a line end.
struct Movetext {
    out: String,
    col: usize,
    /// The next word follows the last one with no space (after `(`).
    glue: bool,
}

impl Movetext {
    fn word(&mut self, w: &str) {
        if self.col > 0 && !self.glue {
            if self.col + 1 + w.len() > WIDTH {
                self.out.push('\n');
                self.col = 0;
            } else {
                self.out.push(' ');
                self.col += 1;
            }
        }
        self.out.push_str(w);
        self.col += w.len();
        self.glue = false;
    }

    /// `{text}`, broken across lines between its words where needed. A `}` in the text
    /// (which PGN cannot escape) is written as `)`.
    fn comment(&mut self, text: &str) {
        let text = text.replace('}', ")");
        let words: Vec<&str> = text.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            let open = if i == 0 { "{" } else { "" };
            let close = if i + 1 == words.len() { "}" } else { "" };
            self.word(&format!("{open}{w}{close}"));
        }
        if words.is_empty() {
            self.word("{}");
        }
    }

    /// `line` played from `board`, with its comments and variations.
    fn line(&mut self, mut board: Board, line: &Line) {
        // Black's move needs its number at the start of a line and after a comment or a
        // variation.
        let mut numbered = false;
        if let Some(c) = &line.comment {
            self.comment(c);
        }
        for pm in &line.moves {
            let n = board.fullmove_number();
            if board.side_to_move() == Color::White {
                self.word(&format!("{n}."));
            } else if !numbered {
                self.word(&format!("{n}..."));
            }
            self.word(&board.move_to_san(pm.mv));
            for nag in &pm.nags {
                self.word(&format!("${nag}"));
            }
            numbered = true;
            if let Some(c) = &pm.comment {
                self.comment(c);
                numbered = false;
            }
            for v in &pm.variations {
                self.word("(");
                self.glue = true;
                self.line(board, v);
                self.out.push(')');
                self.col += 1;
                numbered = false;
            }
            board.play(pm.mv);
        }
    }
}

/// A tag value with `\` and `"` escaped (and line ends, which a tag cannot hold, as spaces).
fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len() + 2);
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                s.push('\\');
                s.push(c);
            }
            '\n' | '\r' => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

impl Game {
    /// The game as PGN text, ending with a line end; games written one after another are
    /// separated by a blank line. Its moves must be legal, as the reader's are; reading the
    /// text back gives the same game.
    ///
    /// ```
    /// let (games, _) = chess::pgn::read_games("[Event \"a \\\"b\\\"\"]\n1. e4 e5!? {c} (1... c5) *");
    /// assert_eq!(games[0].to_pgn(), "[Event \"a \\\"b\\\"\"]\n\n1. e4 e5 $5 {c} (1... c5) *\n");
    /// ```
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        for (name, value) in &self.tags {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        }
        out.push('\n');
        let mut text = Movetext {
            out,
            col: 0,
            glue: false,
        };
        text.line(self.start, &self.main);
        text.word(self.result.as_str());
        text.out.push('\n');
        text.out
    }
}

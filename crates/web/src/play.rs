//! The game on the play page: the moves, whose turn it is, the clocks, the end by the rules,
//! and its PGN. Pure state: the engine thread ([`crate::engine`]) owns one and searches for it.

use crate::error::ApiError;
use chess::pgn::{Game, GameResult, PgnMove};
use chess::{Board, Color, Move, Position};
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::Instant;

/// The shortest and longest engine time a move, ms.
pub const MOVETIME_RANGE: (u64, u64) = (50, 60_000);

/// How the engine plays: a time a move, and optionally a strength level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Milliseconds the engine thinks a move (at most; a weakened engine stops at its node
    /// cap sooner).
    pub movetime_ms: u64,
    /// `Skill Level` 0 to 19 (`None`: full strength), as `uci::strength` plays it.
    pub level: Option<u32>,
    /// The `UCI_Elo` the level was picked from, when the player chose by Elo.
    pub elo: Option<u32>,
    /// The engine plays from the shipped opening book while the position is in it.
    pub book: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            movetime_ms: 1000,
            level: None,
            elo: None,
            book: true,
        }
    }
}

/// The body of `POST /api/play/new`; every field may be left out.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `"white"` or `"black"`: the side the person plays (default white).
    pub colour: Option<String>,
    /// The engine's time a move, ms.
    pub movetime_ms: Option<u64>,
    /// A strength level, 0 (weakest) to 20 (full strength).
    pub level: Option<u32>,
    /// A strength by `UCI_Elo` (1000 to 2600), mapped to a level as UCI does.
    pub elo: Option<u32>,
    /// A starting position (default: the usual one).
    pub fen: Option<String>,
    /// Whether the engine plays from the opening book (default true).
    pub book: Option<bool>,
}

impl NewGame {
    /// The person's colour, start position and engine settings this asks for.
    pub fn check(&self) -> Result<(Color, Board, Settings), ApiError> {
        let human = match self.colour.as_deref().unwrap_or("white") {
            "white" | "w" => Color::White,
            "black" | "b" => Color::Black,
            other => {
                return Err(ApiError::invalid(format!(
                    "colour must be \"white\" or \"black\", not {other:?}"
                )))
            }
        };
        let start = match self.fen.as_deref().map(str::trim) {
            None | Some("") | Some("startpos") => Board::startpos(),
            Some(fen) => Board::from_fen(fen)
                .map_err(|e| ApiError::invalid(format!("bad FEN '{fen}': {e}")))?,
        };
        let movetime_ms = self.movetime_ms.unwrap_or(Settings::default().movetime_ms);
        if !(MOVETIME_RANGE.0..=MOVETIME_RANGE.1).contains(&movetime_ms) {
            return Err(ApiError::invalid(format!(
                "movetime_ms must be {} to {}, not {movetime_ms}",
                MOVETIME_RANGE.0, MOVETIME_RANGE.1
            )));
        }
        let mut strength = uci::strength::Strength::default();
        if let Some(level) = self.level {
            if level > uci::strength::MAX_LEVEL {
                return Err(ApiError::invalid(format!(
                    "level must be 0 to {}, not {level}",
                    uci::strength::MAX_LEVEL
                )));
            }
            strength.skill_level = level;
        }
        if let Some(elo) = self.elo {
            let (lo, hi) = (uci::strength::MIN_ELO, uci::strength::MAX_ELO);
            if !(lo..=hi).contains(&elo) {
                return Err(ApiError::invalid(format!(
                    "elo must be {lo} to {hi}, not {elo}"
                )));
            }
            strength.limit = true;
            strength.elo = elo;
        }
        let settings = Settings {
            movetime_ms,
            level: strength.level(),
            elo: self.elo,
            book: self.book.unwrap_or(true),
        };
        Ok((human, start, settings))
    }
}

/// Who played a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The person at the board.
    Human,
    /// The engine's search.
    Engine,
    /// The engine's opening book.
    Book,
}

/// The game on the play page.
#[derive(Clone, Debug)]
pub struct PlayGame {
    /// Where the game started.
    pub start: Board,
    /// The moves played, with who played each.
    pub moves: Vec<(Move, Source)>,
    /// The side the person plays.
    pub human: Color,
    /// How the engine plays.
    pub settings: Settings,
    /// Thinking time used by each side so far (white, black), ms.
    used_ms: [u64; 2],
    /// When the side to move's turn began; `None` until the game's first move when the
    /// person moves first (the clocks start with the first move).
    turn_started: Option<Instant>,
}

impl PlayGame {
    /// A new game from `start` with the person playing `human`.
    pub fn new(start: Board, human: Color, settings: Settings) -> PlayGame {
        let engine_first = start.side_to_move() != human;
        PlayGame {
            start,
            moves: Vec::new(),
            human,
            settings,
            used_ms: [0, 0],
            turn_started: engine_first.then(Instant::now),
        }
    }

    /// Milliseconds since the side to move's turn began (0 before the clocks start).
    fn turn_ms(&self) -> u64 {
        self.turn_started
            .map_or(0, |t| t.elapsed().as_millis() as u64)
    }

    /// The position now, with the game's history (for repetitions).
    pub fn position(&self) -> Position {
        let mut p = Position::new(self.start);
        for &(m, _) in &self.moves {
            p.make(m);
        }
        p
    }

    /// The moves alone.
    pub fn move_list(&self) -> Vec<Move> {
        self.moves.iter().map(|&(m, _)| m).collect()
    }

    /// The result and the reason when the game has ended by the rules (mate, stalemate,
    /// fifty moves, threefold repetition, insufficient material).
    pub fn over(&self) -> Option<(&'static str, String)> {
        search::selfplay::game_over(&self.position())
    }

    /// True when the engine is to move in a game still going on.
    pub fn engine_to_move(&self) -> bool {
        self.over().is_none() && self.position().side_to_move() != self.human
    }

    /// Plays `m` (checked legal by the caller) for the side to move, charging its clock.
    fn push(&mut self, m: Move, source: Source) {
        let side = self.position().side_to_move();
        self.used_ms[side as usize] += self.turn_ms();
        self.turn_started = Some(Instant::now());
        self.moves.push((m, source));
    }

    /// Plays the person's move, given in UCI (`e2e4`, `e7e8q`) or SAN: refused when the
    /// game is over, when it is the engine's turn, or when the move is not legal.
    pub fn human_move(&mut self, text: &str) -> Result<Move, ApiError> {
        if let Some((result, reason)) = self.over() {
            return Err(ApiError::conflict(format!(
                "the game is over ({result}, {reason}); start a new game"
            )));
        }
        let pos = self.position();
        if pos.side_to_move() != self.human {
            return Err(ApiError::conflict(
                "it is the engine's turn, not yours (press Move now to hurry it)",
            ));
        }
        let text = text.trim();
        let m = pos
            .parse_uci_move(text)
            .or_else(|_| pos.parse_san(text))
            .map_err(|e| ApiError::invalid(format!("illegal move '{text}': {e}")))?;
        self.push(m, Source::Human);
        Ok(m)
    }

    /// Plays the engine's move (from the search or the book) if it is legal here.
    pub fn engine_move(&mut self, m: Move, source: Source) -> bool {
        let legal = self.over().is_none() && self.position().is_legal(m);
        if legal {
            self.push(m, source);
        }
        legal
    }

    /// Takes back the last moves until the person is to move again, the person's last move
    /// included: two plies after an engine reply, one when the engine had not replied yet.
    /// Refused when no move of the person's can be taken back.
    pub fn take_back(&mut self) -> Result<usize, ApiError> {
        let last_human = self
            .moves
            .iter()
            .rposition(|&(_, s)| s == Source::Human)
            .ok_or_else(|| ApiError::conflict("there is no move of yours to take back"))?;
        let removed = self.moves.len() - last_human;
        self.moves.truncate(last_human);
        self.turn_started = self.turn_started.map(|_| Instant::now());
        Ok(removed)
    }

    /// The game as PGN, with the result if it is over.
    pub fn pgn(&self) -> String {
        let mut game = Game::new(self.start);
        let (white, black) = if self.human == Color::White {
            ("Human", uci::ENGINE_NAME)
        } else {
            (uci::ENGINE_NAME, "Human")
        };
        let result = self.over().map_or("*", |(r, _)| r);
        game.tags = vec![
            ("Event".into(), "Estuary web game".into()),
            ("Site".into(), "estuary serve".into()),
            ("Date".into(), "????.??.??".into()),
            ("Round".into(), "-".into()),
            ("White".into(), white.into()),
            ("Black".into(), black.into()),
            ("Result".into(), result.into()),
        ];
        if self.start.to_fen() != chess::STARTPOS {
            game.tags.push(("SetUp".into(), "1".into()));
            game.tags.push(("FEN".into(), self.start.to_fen()));
        }
        game.main.moves = self.moves.iter().map(|&(m, _)| PgnMove::new(m)).collect();
        game.result = GameResult::parse(result).unwrap_or(GameResult::Unknown);
        game.to_pgn()
    }

    /// Everything the page shows, as JSON. `thinking`: the engine is searching now.
    pub fn to_json(&self, thinking: bool) -> Value {
        let pos = self.position();
        let mut board = self.start;
        let moves: Vec<Value> = self
            .moves
            .iter()
            .map(|&(m, source)| {
                let v = json!({
                    "uci": board.move_to_uci(m),
                    "san": board.move_to_san(m),
                    "by": match source {
                        Source::Human => "human",
                        Source::Engine => "engine",
                        Source::Book => "book",
                    },
                });
                board.play(m);
                v
            })
            .collect();
        let over = self.over();
        let turn = pos.side_to_move();
        let running = (over.is_none() && self.turn_started.is_some()).then(|| colour_name(turn));
        let mut clocks = self.used_ms;
        if over.is_none() {
            clocks[turn as usize] += self.turn_ms();
        }
        json!({
            "start_fen": self.start.to_fen(),
            "fen": pos.to_fen(),
            "moves": moves,
            "human": colour_name(self.human),
            "turn": colour_name(turn),
            "check": pos.in_check(),
            "thinking": thinking,
            "over": over.as_ref().map(|(result, reason)| json!({"result": result, "reason": reason})),
            "settings": {
                "movetime_ms": self.settings.movetime_ms,
                "level": self.settings.level,
                "elo": self.settings.elo,
                "book": self.settings.book,
            },
            "clocks": {"white_ms": clocks[0], "black_ms": clocks[1], "running": running},
            "pgn": self.pgn(),
        })
    }
}

/// `"white"` or `"black"`.
pub fn colour_name(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(human: Color) -> PlayGame {
        PlayGame::new(Board::startpos(), human, Settings::default())
    }

    #[test]
    fn moves_are_checked_for_turn_legality_and_the_end() {
        let mut g = game(Color::White);
        assert_eq!(g.human_move("e2e5").unwrap_err().status.as_u16(), 422);
        assert!(g.human_move("e4").is_ok());
        assert_eq!(g.human_move("d2d4").unwrap_err().status.as_u16(), 409);
        assert!(g.engine_to_move());
        let e5 = g.position().parse_uci_move("e7e5").unwrap();
        assert!(g.engine_move(e5, Source::Engine));
        assert_eq!(g.moves.len(), 2);
        // Fool's mate the other way round: the game ends and refuses moves.
        let mut g = game(Color::Black);
        for (m, s) in [
            ("f2f3", Source::Engine),
            ("e7e5", Source::Human),
            ("g2g4", Source::Engine),
        ] {
            let mv = g.position().parse_uci_move(m).unwrap();
            if s == Source::Human {
                g.human_move(m).unwrap();
            } else {
                assert!(g.engine_move(mv, s));
            }
        }
        g.human_move("Qh4#").unwrap();
        assert_eq!(g.over().map(|o| o.0), Some("0-1"));
        assert_eq!(g.human_move("a7a6").unwrap_err().status.as_u16(), 409);
        assert!(g.pgn().contains("2. g4 Qh4# 0-1"), "{}", g.pgn());
    }

    #[test]
    fn take_back_returns_to_the_persons_turn() {
        let mut g = game(Color::White);
        assert_eq!(g.take_back().unwrap_err().status.as_u16(), 409);
        g.human_move("e2e4").unwrap();
        let e5 = g.position().parse_uci_move("e7e5").unwrap();
        g.engine_move(e5, Source::Engine);
        assert_eq!(g.take_back().unwrap(), 2);
        assert!(g.moves.is_empty());
        g.human_move("d2d4").unwrap();
        assert_eq!(g.take_back().unwrap(), 1);
        // As Black, the engine's first move stays.
        let mut g = game(Color::Black);
        let e4 = g.position().parse_uci_move("e2e4").unwrap();
        g.engine_move(e4, Source::Book);
        assert_eq!(g.take_back().unwrap_err().status.as_u16(), 409);
        assert_eq!(g.moves.len(), 1);
    }

    #[test]
    fn new_game_requests_are_checked() {
        let ok = NewGame {
            colour: Some("black".into()),
            elo: Some(1800),
            ..NewGame::default()
        };
        let (c, _, s) = ok.check().unwrap();
        assert_eq!((c, s.level), (Color::Black, Some(10)));
        for bad in [
            NewGame {
                colour: Some("red".into()),
                ..NewGame::default()
            },
            NewGame {
                movetime_ms: Some(0),
                ..NewGame::default()
            },
            NewGame {
                level: Some(21),
                ..NewGame::default()
            },
            NewGame {
                elo: Some(99),
                ..NewGame::default()
            },
            NewGame {
                fen: Some("8/8/8 w".into()),
                ..NewGame::default()
            },
        ] {
            assert_eq!(bad.check().unwrap_err().status.as_u16(), 422, "{bad:?}");
        }
    }
}

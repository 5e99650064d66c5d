//! The game on the play page: the moves, whose turn it is, the clocks, the end by the rules
//! or on time, and its PGN. Pure state: the engine thread ([`crate::engine`]) owns one and
//! searches for it. The methods that touch the clocks are told the moment they act at.

use crate::clock::{ClockRequest, GameClock, TimeControl};
use crate::error::ApiError;
use chess::pgn::{Game, GameResult, PgnMove};
use chess::{Board, Color, Move, PieceKind, Position};
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The shortest and longest engine time a move, ms.
pub const MOVETIME_RANGE: (u64, u64) = (50, 60_000);
/// The engine's time a move in an untimed game when the new game names none, ms.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// How the game is timed and the engine plays: a time a move or a game clock, and
/// optionally a strength level.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Milliseconds the engine thinks a move in an untimed game (at most; a weakened engine
    /// stops at its node cap sooner); `None` when the game has a clock, which sets the
    /// engine's time as UCI's `wtime`/`btime`/`winc`/`binc` do.
    pub movetime_ms: Option<u64>,
    /// The game's time control; `None`: untimed.
    pub clock: Option<TimeControl>,
    /// The level in force, 0 to below 20 (`None`: full strength; between two integers when
    /// picked by Elo), as `uci::strength` plays it.
    pub level: Option<f64>,
    /// The `UCI_Elo` the level was picked from, when the player chose by Elo.
    pub elo: Option<u32>,
    /// The engine plays from the shipped opening book while the position is in it.
    pub book: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            movetime_ms: Some(DEFAULT_MOVETIME_MS),
            clock: None,
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
    /// The engine's time a move, ms (untimed games only).
    pub movetime_ms: Option<u64>,
    /// A game clock, minutes + increment (default: none, an untimed game).
    pub clock: Option<ClockRequest>,
    /// A strength level, 0 (weakest) to 20 (full strength).
    pub level: Option<u32>,
    /// A strength by `UCI_Elo` (`uci::strength::MIN_ELO` to `MAX_ELO`), mapped to a level as
    /// UCI does.
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
        let clock = self.clock.as_ref().map(ClockRequest::check).transpose()?;
        if clock.is_some() && self.movetime_ms.is_some() {
            return Err(ApiError::invalid(
                "give movetime_ms or clock, not both: with a clock the engine's time comes from it",
            ));
        }
        let movetime_ms = match self.movetime_ms {
            Some(ms) if !(MOVETIME_RANGE.0..=MOVETIME_RANGE.1).contains(&ms) => {
                return Err(ApiError::invalid(format!(
                    "movetime_ms must be {} to {}, not {ms}",
                    MOVETIME_RANGE.0, MOVETIME_RANGE.1
                )))
            }
            Some(ms) => Some(ms),
            None if clock.is_some() => None,
            None => Settings::default().movetime_ms,
        };
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
            clock,
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
    /// How the game is timed and the engine plays.
    pub settings: Settings,
    /// Both sides' clocks: time left, or in an untimed game time used.
    clock: GameClock,
    /// The side whose flag fell: the game is over on time.
    flagged: Option<Color>,
}

impl PlayGame {
    /// A new game from `start` with the person playing `human`, at `now`. The clocks start
    /// with the game's first move, or at once when the engine moves first.
    pub fn new(start: Board, human: Color, settings: Settings, now: Instant) -> PlayGame {
        let engine_first = start.side_to_move() != human
            && search::selfplay::game_over(&Position::new(start)).is_none();
        PlayGame {
            start,
            moves: Vec::new(),
            human,
            clock: GameClock::new(settings.clock, engine_first, now),
            settings,
            flagged: None,
        }
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

    /// The side to move.
    pub fn turn(&self) -> Color {
        let first = self.start.side_to_move();
        if self.moves.len().is_multiple_of(2) {
            first
        } else {
            !first
        }
    }

    /// The result and the reason when the game has ended: on time, or by the rules (mate,
    /// stalemate, fifty moves, threefold repetition, insufficient material).
    pub fn over(&self) -> Option<(&'static str, String)> {
        match self.flagged {
            Some(side) => Some(on_time(side, &self.position())),
            None => search::selfplay::game_over(&self.position()),
        }
    }

    /// The side whose flag fell, if one did.
    pub fn flagged(&self) -> Option<Color> {
        self.flagged
    }

    /// True when the engine is to move in a game still going on.
    pub fn engine_to_move(&self) -> bool {
        self.over().is_none() && self.turn() != self.human
    }

    /// Ends the game on time when the side to move's clock has run out at `now`. True when
    /// the game is over on time (from now or from before).
    pub fn check_clock(&mut self, now: Instant) -> bool {
        let turn = self.turn();
        if self.flagged.is_none() && self.clock.until_flag(turn, now) == Some(Duration::ZERO) {
            self.clock.stop(turn, now);
            // A game over by the rules has stopped clocks; this only guards that.
            if search::selfplay::game_over(&self.position()).is_none() {
                self.flagged = Some(turn);
            }
        }
        self.flagged.is_some()
    }

    /// How long from `now` until the side to move's flag falls; `None` when no flag can
    /// fall (an untimed game, clocks that stand, a game over).
    pub fn until_flag(&self, now: Instant) -> Option<Duration> {
        match self.flagged {
            Some(_) => None,
            None => self.clock.until_flag(self.turn(), now),
        }
    }

    /// `side`'s clock at `now`, ms: the time left (at least 0), or in an untimed game the
    /// time used.
    pub fn clock_ms(&self, side: Color, now: Instant) -> u64 {
        self.clock.reading(side, self.turn(), now).max(0) as u64
    }

    /// Plays `m` (checked legal by the caller) for the side to move at `now`: its clock is
    /// charged and gains the increment; the clocks stop when the move ends the game.
    fn push(&mut self, m: Move, source: Source, now: Instant) {
        let mover = self.turn();
        self.clock.moved(mover, now);
        self.moves.push((m, source));
        if self.over().is_some() {
            self.clock.stop(!mover, now);
        }
    }

    /// Plays the person's move at `now`, given in UCI (`e2e4`, `e7e8q`) or SAN: refused
    /// when the game is over (on time too), when it is the engine's turn, or when the move
    /// is not legal.
    pub fn human_move(&mut self, text: &str, now: Instant) -> Result<Move, ApiError> {
        self.check_clock(now);
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
        self.push(m, Source::Human, now);
        Ok(m)
    }

    /// Plays the engine's move (from the search or the book) at `now` if the game goes on
    /// and the move is legal here.
    pub fn engine_move(&mut self, m: Move, source: Source, now: Instant) -> bool {
        self.check_clock(now);
        let legal = self.over().is_none() && self.position().is_legal(m);
        if legal {
            self.push(m, source, now);
        }
        legal
    }

    /// Takes back the last moves at `now` until the person is to move again, the person's
    /// last move included: two plies after an engine reply, one when the engine had not
    /// replied yet. The time spent stays spent: the side to move's clock is charged, and the
    /// person's runs from now. Refused when no move of the person's can be taken back, and
    /// after a flag's fall.
    pub fn take_back(&mut self, now: Instant) -> Result<usize, ApiError> {
        self.check_take_back(now)?;
        let last_human = self
            .moves
            .iter()
            .rposition(|&(_, s)| s == Source::Human)
            .ok_or_else(|| ApiError::conflict("there is no move of yours to take back"))?;
        self.clock.restart(self.turn(), now);
        let removed = self.moves.len() - last_human;
        self.moves.truncate(last_human);
        Ok(removed)
    }

    /// Whether [`PlayGame::take_back`] would take back a move at `now`, and if not why.
    pub fn check_take_back(&mut self, now: Instant) -> Result<(), ApiError> {
        if self.check_clock(now) {
            return Err(ApiError::conflict(
                "the game was decided on time and cannot be taken back; start a new game",
            ));
        }
        if !self.moves.iter().any(|&(_, s)| s == Source::Human) {
            return Err(ApiError::conflict("there is no move of yours to take back"));
        }
        Ok(())
    }

    /// The game as PGN, with its time control and, if it is over, the result.
    pub fn pgn(&self) -> String {
        let mut game = Game::new(self.start);
        let (white, black) = if self.human == Color::White {
            ("Human", uci::ENGINE_NAME)
        } else {
            (uci::ENGINE_NAME, "Human")
        };
        let result = self.over().map_or("*", |(r, _)| r);
        let time_control = self.settings.clock.map_or("-".into(), |c| c.pgn_tag());
        game.tags = vec![
            ("Event".into(), "Estuary web game".into()),
            ("Site".into(), "estuary serve".into()),
            ("Date".into(), "????.??.??".into()),
            ("Round".into(), "-".into()),
            ("White".into(), white.into()),
            ("Black".into(), black.into()),
            ("Result".into(), result.into()),
            ("TimeControl".into(), time_control),
        ];
        if self.flagged.is_some() {
            game.tags
                .push(("Termination".into(), "time forfeit".into()));
        }
        if self.start.to_fen() != chess::STARTPOS {
            game.tags.push(("SetUp".into(), "1".into()));
            game.tags.push(("FEN".into(), self.start.to_fen()));
        }
        game.main.moves = self.moves.iter().map(|&(m, _)| PgnMove::new(m)).collect();
        game.result = GameResult::parse(result).unwrap_or(GameResult::Unknown);
        game.to_pgn()
    }

    /// Everything the page shows, as JSON, at `now`. `thinking`: the engine is searching.
    pub fn to_json(&self, thinking: bool, now: Instant) -> Value {
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
        let running = (over.is_none() && self.clock.running()).then(|| colour_name(turn));
        let clock = self
            .settings
            .clock
            .map(|c| json!({"base_ms": c.base_ms, "increment_ms": c.increment_ms}));
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
                "clock": clock,
                "level": self.settings.level,
                "elo": self.settings.elo,
                "book": self.settings.book,
                "elo_range": [uci::strength::MIN_ELO, uci::strength::MAX_ELO],
            },
            "clocks": {
                "white_ms": self.clock_ms(Color::White, now),
                "black_ms": self.clock_ms(Color::Black, now),
                "running": running,
                "timed": self.settings.clock.is_some(),
                "flagged": self.flagged.map(colour_name),
            },
            "pgn": self.pgn(),
        })
    }
}

/// The result when `side`'s flag fell: a loss, or a draw when the other side has nothing to
/// mate with.
fn on_time(side: Color, board: &Board) -> (&'static str, String) {
    let (name, other) = if side == Color::White {
        ("White", "Black")
    } else {
        ("Black", "White")
    };
    if cannot_mate(board, !side) {
        (
            "1/2-1/2",
            format!("{name} ran out of time; {other} cannot mate"),
        )
    } else if side == Color::White {
        ("0-1", format!("{name} lost on time"))
    } else {
        ("1-0", format!("{name} lost on time"))
    }
}

/// True when `side` has nothing to mate with: its king alone, or with one bishop or one
/// knight and nothing else. (A simple rule: FIDE's asks whether any series of legal moves
/// could mate, which a lone knight sometimes can against pieces that block their own king.)
fn cannot_mate(board: &Board, side: Color) -> bool {
    let n = |k| board.pieces(side, k).count();
    n(PieceKind::Pawn) + n(PieceKind::Rook) + n(PieceKind::Queen) == 0
        && n(PieceKind::Knight) + n(PieceKind::Bishop) <= 1
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
        PlayGame::new(
            Board::startpos(),
            human,
            Settings::default(),
            Instant::now(),
        )
    }

    #[test]
    fn moves_are_checked_for_turn_legality_and_the_end() {
        let mut g = game(Color::White);
        assert_eq!(
            g.human_move("e2e5", Instant::now())
                .unwrap_err()
                .status
                .as_u16(),
            422
        );
        assert!(g.human_move("e4", Instant::now()).is_ok());
        assert_eq!(
            g.human_move("d2d4", Instant::now())
                .unwrap_err()
                .status
                .as_u16(),
            409
        );
        assert!(g.engine_to_move());
        let e5 = g.position().parse_uci_move("e7e5").unwrap();
        assert!(g.engine_move(e5, Source::Engine, Instant::now()));
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
                g.human_move(m, Instant::now()).unwrap();
            } else {
                assert!(g.engine_move(mv, s, Instant::now()));
            }
        }
        g.human_move("Qh4#", Instant::now()).unwrap();
        assert_eq!(g.over().map(|o| o.0), Some("0-1"));
        assert_eq!(
            g.human_move("a7a6", Instant::now())
                .unwrap_err()
                .status
                .as_u16(),
            409
        );
        assert!(g.pgn().contains("2. g4 Qh4# 0-1"), "{}", g.pgn());
    }

    #[test]
    fn take_back_returns_to_the_persons_turn() {
        let mut g = game(Color::White);
        assert_eq!(
            g.take_back(Instant::now()).unwrap_err().status.as_u16(),
            409
        );
        g.human_move("e2e4", Instant::now()).unwrap();
        let e5 = g.position().parse_uci_move("e7e5").unwrap();
        g.engine_move(e5, Source::Engine, Instant::now());
        assert_eq!(g.take_back(Instant::now()).unwrap(), 2);
        assert!(g.moves.is_empty());
        g.human_move("d2d4", Instant::now()).unwrap();
        assert_eq!(g.take_back(Instant::now()).unwrap(), 1);
        // As Black, the engine's first move stays.
        let mut g = game(Color::Black);
        let e4 = g.position().parse_uci_move("e2e4").unwrap();
        g.engine_move(e4, Source::Book, Instant::now());
        assert_eq!(
            g.take_back(Instant::now()).unwrap_err().status.as_u16(),
            409
        );
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
        let level = uci::strength::level_for_elo(1800);
        assert_eq!((c, s.level), (Color::Black, Some(level)));
        assert!(level > 0.0 && level < 19.0);
        assert_eq!((s.movetime_ms, s.clock), (Some(1000), None));
        let clocked = NewGame {
            clock: Some(ClockRequest {
                base_ms: json!(180_000),
                increment_ms: Some(json!(2000)),
            }),
            ..NewGame::default()
        };
        let (_, _, s) = clocked.check().unwrap();
        assert_eq!(s.movetime_ms, None);
        assert_eq!(s.clock.map(|c| c.pgn_tag()).as_deref(), Some("180+2"));
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
            NewGame {
                movetime_ms: Some(1000),
                ..clocked.clone()
            },
            NewGame {
                clock: Some(ClockRequest {
                    base_ms: json!(-60_000),
                    increment_ms: None,
                }),
                ..NewGame::default()
            },
        ] {
            assert_eq!(bad.check().unwrap_err().status.as_u16(), 422, "{bad:?}");
        }
    }

    fn timed(fen: &str, base_ms: u64, increment_ms: u64, t0: Instant) -> PlayGame {
        let settings = Settings {
            movetime_ms: None,
            clock: Some(TimeControl {
                base_ms,
                increment_ms,
            }),
            ..Settings::default()
        };
        PlayGame::new(Board::from_fen(fen).unwrap(), Color::White, settings, t0)
    }

    #[test]
    fn clocks_run_gain_increments_and_end_the_game_on_time() {
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        let mut g = timed(chess::STARTPOS, 1000, 100, t0);
        // The person's first move starts the clocks and costs nothing.
        assert_eq!(g.until_flag(at(500)), None);
        g.human_move("e4", at(500)).unwrap();
        assert_eq!(g.clock_ms(Color::White, at(500)), 1100);
        assert_eq!(g.clock_ms(Color::Black, at(800)), 700);
        let e5 = g.position().parse_uci_move("e7e5").unwrap();
        assert!(g.engine_move(e5, Source::Engine, at(800)));
        assert_eq!(g.clock_ms(Color::Black, at(800)), 800);
        assert_eq!(g.until_flag(at(900)), Some(Duration::from_millis(1000)));
        // A take back keeps the time spent: White's 200 ms since the reply are gone.
        assert_eq!(g.take_back(at(1000)).unwrap(), 2);
        assert_eq!(g.clock_ms(Color::White, at(1000)), 900);
        assert_eq!(g.clock_ms(Color::Black, at(1000)), 800);
        // White's flag falls 900 ms later.
        assert!(!g.check_clock(at(1899)));
        assert!(g.check_clock(at(1900)));
        assert_eq!(g.over(), Some(("0-1", "White lost on time".to_string())));
        assert_eq!(g.clock_ms(Color::White, at(5000)), 0);
        assert_eq!(g.until_flag(at(5000)), None);
        let e = g.human_move("e4", at(2000)).unwrap_err();
        assert_eq!(e.status.as_u16(), 409);
        assert!(e.message.contains("lost on time"), "{e}");
        assert_eq!(g.take_back(at(2000)).unwrap_err().status.as_u16(), 409);
        let pgn = g.pgn();
        for tag in [
            "[Result \"0-1\"]",
            "[TimeControl \"1+0.1\"]",
            "[Termination \"time forfeit\"]",
        ] {
            assert!(pgn.contains(tag), "{pgn}");
        }
        assert!(pgn.trim_end().ends_with("0-1"), "{pgn}");
        let v = g.to_json(false, at(6000));
        assert_eq!(v["clocks"]["flagged"], "white");
        assert_eq!(v["clocks"]["running"], Value::Null);
        assert_eq!(v["over"]["reason"], "White lost on time");
    }

    #[test]
    fn a_flag_against_a_lone_minor_piece_draws_and_a_mate_stops_the_clocks() {
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        // Black has a knight alone: White's flag draws; Black's loses.
        let fen = "4k3/8/8/8/8/8/8/3QK2n w - - 0 1";
        let mut g = timed(fen, 1000, 0, t0);
        g.human_move("Qd2", at(0)).unwrap();
        let mut black_flags = g.clone();
        let ng3 = g.position().parse_uci_move("h1g3").unwrap();
        assert!(g.engine_move(ng3, Source::Engine, at(100)));
        assert!(g.check_clock(at(1100)));
        assert_eq!(
            g.over(),
            Some((
                "1/2-1/2",
                "White ran out of time; Black cannot mate".to_string()
            ))
        );
        assert!(black_flags.check_clock(at(1000)));
        assert_eq!(black_flags.over().unwrap().0, "1-0");
        assert!(!black_flags.engine_move(ng3, Source::Engine, at(1000)));
        // A mate ends the game and the clocks stand: no flag falls later.
        let mut g = timed("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1000, 0, t0);
        g.human_move("Ra8#", at(0)).unwrap();
        assert_eq!(g.until_flag(at(10)), None);
        assert!(!g.check_clock(at(60_000)));
        assert_eq!(g.over().unwrap().1, "White mates");
    }
}

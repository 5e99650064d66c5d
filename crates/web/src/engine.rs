//! The engine thread: one thread that owns the play page's game and its search pool, and the
//! analysis page's search pool, and answers the HTTP handlers' commands one at a time.
//!
//! Searches run on the pools' own threads, never on the async runtime. Their listeners only
//! put events into this thread's queue, so nothing a search does can wait for a lock a
//! handler holds: the Move now button sets the pool's stop flag and returns; the search's
//! best move comes back through the queue, is played, and goes out to the browsers as a
//! server-sent event. Every search has a number; an event of a search that was abandoned
//! (take back, new game, a new analysis) is recognised by it and dropped.
//!
//! The game's clocks are kept here too: the thread wakes when the side to move's flag is due
//! and looks at the clock before and after every message, so a flag's fall ends the game
//! (the engine's search abandoned) and goes out to the browsers whether or not anyone asks.

use crate::error::ApiError;
use crate::play::{NewGame, PlayGame, Settings, Source, DEFAULT_MOVETIME_MS};
use chess::rng::Rng;
use chess::{Board, Color, Move};
use search::score::{is_mate, mate_moves};
use search::{Event, Info, Job, Limits, Listener, ScoreBound, ThreadPool};
use serde_json::{json, Value};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, oneshot};

/// Hash of each of the two pools, MB.
const HASH_MB: usize = 32;
/// Lines the analysis page may ask for.
pub const MAX_MULTIPV: usize = 8;
/// An infinite analysis nobody stops ends after this long (a closed browser tab).
const ANALYSIS_CAP: Duration = Duration::from_secs(600);
/// How often the engine thread wakes with nothing to do (to end a forgotten analysis).
const IDLE_WAKE: Duration = Duration::from_secs(1);

/// A server-sent event: its name and its JSON data.
#[derive(Clone, Debug)]
pub struct ServerEvent {
    /// `play` (the game changed), `thinking` (the engine's search on the play page) or
    /// `analysis` (a line of the analysis).
    pub name: &'static str,
    /// The event's JSON.
    pub data: String,
}

/// What the handlers ask of the engine thread.
#[derive(Debug)]
pub enum Command {
    /// The game's state.
    PlayState,
    /// A new game.
    PlayNew(NewGame),
    /// The person's move (UCI or SAN).
    PlayMove(String),
    /// Move now: the engine's search stops and its best move so far is played.
    PlayStop,
    /// Take back the person's last move (and the engine's reply).
    PlayUndo,
    /// Infinite analysis of `fen` after `moves` (UCI) with `multipv` lines.
    AnalyseStart {
        /// The start position (`None`: the usual one).
        fen: Option<String>,
        /// Moves from it, in UCI or SAN.
        moves: Vec<String>,
        /// Lines, 1 to [`MAX_MULTIPV`].
        multipv: usize,
    },
    /// Stop the analysis.
    AnalyseStop,
}

type Reply = oneshot::Sender<Result<Value, ApiError>>;

enum Msg {
    Command(Command, Reply),
    Search(u64, Event),
    Shutdown,
}

/// The handlers' side of the engine thread; cheap to clone.
#[derive(Clone)]
pub struct Engine {
    tx: mpsc::Sender<Msg>,
    events: broadcast::Sender<ServerEvent>,
    _guard: Arc<ShutdownGuard>,
}

/// Ends the engine thread when the last [`Engine`] handle goes.
struct ShutdownGuard(mpsc::Sender<Msg>);

impl Drop for ShutdownGuard {
    fn drop(&mut self) {
        let _ = self.0.send(Msg::Shutdown);
    }
}

/// Where the engine thread finds the opening book it plays from on the play page.
pub type BookSource = Option<book::Book>;

impl Engine {
    /// Starts the engine thread, playing from `book` when given.
    pub fn start(book: BookSource) -> Result<Engine, String> {
        let (tx, rx) = mpsc::channel();
        let (events, _) = broadcast::channel(256);
        let state = EngineThread::new(tx.clone(), events.clone(), book);
        std::thread::Builder::new()
            .name("web-engine".into())
            .spawn(move || state.run(rx))
            .map_err(|e| format!("cannot start the engine thread: {e}"))?;
        Ok(Engine {
            tx: tx.clone(),
            events,
            _guard: Arc::new(ShutdownGuard(tx)),
        })
    }

    /// Sends `cmd` to the engine thread and waits for its answer.
    pub async fn call(&self, cmd: Command) -> Result<Value, ApiError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Msg::Command(cmd, reply))
            .map_err(|_| ApiError::unavailable("the engine thread has stopped"))?;
        answer
            .await
            .map_err(|_| ApiError::unavailable("the engine thread did not answer"))?
    }

    /// A receiver of the server-sent events from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<ServerEvent> {
        self.events.subscribe()
    }
}

/// The play page's running search.
struct PlaySearch {
    id: u64,
    /// The weakened choice's level and seed, when the engine plays below full strength.
    level: Option<(f64, u64)>,
    /// The depth of the lines kept and the lines by MultiPV index (as UCI's weakened
    /// listener keeps them).
    depth: i32,
    lines: Vec<Option<uci::strength::Candidate>>,
}

/// The analysis page's running search.
struct AnalyseSearch {
    id: u64,
    root: Board,
    started: Instant,
}

struct EngineThread {
    tx: mpsc::Sender<Msg>,
    events: broadcast::Sender<ServerEvent>,
    game: PlayGame,
    play_pool: ThreadPool,
    play_search: Option<PlaySearch>,
    analyse_pool: ThreadPool,
    analyse_search: Option<AnalyseSearch>,
    book: BookSource,
    rng: Rng,
    next_id: u64,
    /// Counts the game's changes: the page shows the newest state it has (an answer and an
    /// event may arrive in either order).
    version: u64,
    /// The flag's fall in this game has gone out to the browsers.
    flag_announced: bool,
}

impl EngineThread {
    fn new(
        tx: mpsc::Sender<Msg>,
        events: broadcast::Sender<ServerEvent>,
        book: BookSource,
    ) -> EngineThread {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        EngineThread {
            tx,
            events,
            game: PlayGame::new(
                Board::startpos(),
                Color::White,
                Settings::default(),
                Instant::now(),
            ),
            play_pool: ThreadPool::new(1, HASH_MB, device::SoftwareDevice::default),
            play_search: None,
            analyse_pool: ThreadPool::new(1, HASH_MB, device::SoftwareDevice::default),
            analyse_search: None,
            book,
            rng: Rng::new(seed | 1),
            next_id: 0,
            version: 0,
            flag_announced: false,
        }
    }

    fn run(mut self, rx: mpsc::Receiver<Msg>) {
        loop {
            // Awake when the side to move's flag is due (a millisecond after, so it has).
            let wait = self
                .game
                .until_flag(Instant::now())
                .map_or(IDLE_WAKE, |d| (d + Duration::from_millis(1)).min(IDLE_WAKE));
            let msg = rx.recv_timeout(wait);
            self.watch_clock();
            match msg {
                Ok(Msg::Command(cmd, reply)) => {
                    let answer = self.command(cmd);
                    let _ = reply.send(answer);
                }
                Ok(Msg::Search(id, ev)) => self.search_event(id, ev),
                Ok(Msg::Shutdown) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            self.watch_clock();
            if self
                .analyse_search
                .as_ref()
                .is_some_and(|a| a.started.elapsed() > ANALYSIS_CAP)
            {
                self.stop_analysis();
            }
        }
        self.play_pool.stop();
        self.analyse_pool.stop();
    }

    fn emit(&self, name: &'static str, data: &Value) {
        let _ = self.events.send(ServerEvent {
            name,
            data: data.to_string(),
        });
    }

    fn play_state(&self) -> Value {
        let mut v = self
            .game
            .to_json(self.play_search.is_some(), Instant::now());
        v["version"] = json!(self.version);
        v
    }

    /// Ends the game when the side to move's flag has fallen: the engine's search (if it was
    /// the engine's flag) is abandoned and the pages are told, once.
    fn watch_clock(&mut self) {
        if self.game.check_clock(Instant::now()) && !self.flag_announced {
            self.flag_announced = true;
            self.abandon_play_search();
            self.emit_play();
        }
    }

    /// Tells the pages that the game changed.
    fn emit_play(&mut self) {
        self.version += 1;
        self.emit("play", &self.play_state());
    }

    fn listener(&self, id: u64) -> Listener {
        let tx = self.tx.clone();
        Arc::new(move |_: &Board, ev: Event| {
            let _ = tx.send(Msg::Search(id, ev));
        })
    }

    fn command(&mut self, cmd: Command) -> Result<Value, ApiError> {
        match cmd {
            Command::PlayState => Ok(self.play_state()),
            Command::PlayNew(req) => {
                let (human, start, settings) = req.check()?;
                self.abandon_play_search();
                self.play_pool.clear();
                self.game = PlayGame::new(start, human, settings, Instant::now());
                self.flag_announced = false;
                self.engine_turn();
                self.emit_play();
                Ok(self.play_state())
            }
            Command::PlayMove(text) => {
                if self.play_search.is_some() {
                    return Err(ApiError::conflict(
                        "it is the engine's turn, not yours (press Move now to hurry it)",
                    ));
                }
                self.game.human_move(&text, Instant::now())?;
                self.engine_turn();
                self.emit_play();
                Ok(self.play_state())
            }
            Command::PlayStop => {
                if self.play_search.is_none() {
                    return Err(ApiError::conflict("the engine is not thinking"));
                }
                // The search reports its best move so far through the queue at once.
                self.play_pool.stop();
                Ok(json!({"stopping": true}))
            }
            Command::PlayUndo => {
                self.game.check_take_back(Instant::now())?;
                self.abandon_play_search();
                self.game.take_back(Instant::now())?;
                self.emit_play();
                Ok(self.play_state())
            }
            Command::AnalyseStart {
                fen,
                moves,
                multipv,
            } => self.start_analysis(fen.as_deref(), &moves, multipv),
            Command::AnalyseStop => {
                let was = self.analyse_search.is_some();
                self.stop_analysis();
                Ok(json!({"stopped": was}))
            }
        }
    }

    /// Stops the play page's search and forgets it: its best move will be dropped.
    fn abandon_play_search(&mut self) {
        if self.play_search.take().is_some() {
            self.play_pool.stop();
        }
    }

    /// When the engine is to move: a book move at once, or a search.
    fn engine_turn(&mut self) {
        if !self.game.engine_to_move() {
            return;
        }
        let pos = self.game.position();
        let book = self.book.as_ref().filter(|_| self.game.settings.book);
        if let Some(m) = book.and_then(|b| b.choose(&pos, &mut self.rng)) {
            if self.game.engine_move(m.mv, Source::Book, Instant::now()) {
                return;
            }
        }
        self.next_id += 1;
        let id = self.next_id;
        let (mut limits, move_overhead) = self.search_time();
        let mut multipv = 1;
        let level = self.game.settings.level.map(|level| {
            // Weakened as UCI's `Skill Level`: a node cap, four lines, a weighted draw.
            limits.nodes = Some(uci::strength::node_cap(level));
            multipv = uci::strength::CANDIDATES;
            (level, pos.hash() ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        });
        let job = Job {
            start: self.game.start,
            moves: self.game.move_list(),
            limits,
            multipv,
            move_overhead,
            listener: self.listener(id),
            tt: self.play_pool.tt().clone(),
        };
        self.play_search = Some(PlaySearch {
            id,
            level,
            depth: 0,
            lines: Vec::new(),
        });
        self.play_pool.start(job);
    }

    /// The play search's time limits and Move Overhead: a time a move, or in a game with a
    /// clock both sides' time left and increments, which the search turns into its budget as
    /// it does UCI's `go wtime btime winc binc` (`search::TimeBudget::plan`), with UCI's
    /// default Move Overhead for the moments between the server's clock and the search's.
    fn search_time(&self) -> (Limits, u64) {
        let Some(tc) = self.game.settings.clock else {
            let movetime = self
                .game
                .settings
                .movetime_ms
                .unwrap_or(DEFAULT_MOVETIME_MS);
            return (Limits::movetime(movetime as i64), 0);
        };
        let now = Instant::now();
        let left = |side| Some(self.game.clock_ms(side, now) as i64);
        let inc = Some(tc.increment_ms as i64);
        let limits = Limits {
            wtime: left(Color::White),
            btime: left(Color::Black),
            winc: inc,
            binc: inc,
            ..Limits::default()
        };
        (limits, uci::DEFAULT_MOVE_OVERHEAD)
    }

    fn search_event(&mut self, id: u64, ev: Event) {
        if self.play_search.as_ref().is_some_and(|s| s.id == id) {
            self.play_event(ev);
        } else if self.analyse_search.as_ref().is_some_and(|s| s.id == id) {
            self.analyse_event(ev);
        }
    }

    fn play_event(&mut self, ev: Event) {
        let root = *self.game.position();
        let Some(search) = self.play_search.as_mut() else {
            return;
        };
        match ev {
            Event::Info(info) => {
                if info.bound == ScoreBound::Exact && !info.pv.is_empty() {
                    if info.depth != search.depth {
                        search.depth = info.depth;
                        search.lines.clear();
                    }
                    let k = info.multipv.saturating_sub(1);
                    if search.lines.len() <= k {
                        search.lines.resize(k + 1, None);
                    }
                    search.lines[k] = Some(uci::strength::Candidate {
                        score: info.score,
                        pv: info.pv.clone(),
                    });
                }
                if info.multipv == 1 {
                    self.emit("thinking", &info_json(&root, &info));
                }
            }
            Event::BestMove { best, .. } => {
                let mut choice = best;
                if let Some((level, seed)) = search.level {
                    let candidates: Vec<_> = search.lines.iter().flatten().cloned().collect();
                    if let Some(k) = uci::strength::choose(&candidates, level, seed) {
                        choice = candidates[k].pv[0];
                    }
                }
                self.play_search = None;
                if choice != Move::NULL {
                    self.game
                        .engine_move(choice, Source::Engine, Instant::now());
                }
                self.emit_play();
            }
        }
    }

    fn start_analysis(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        multipv: usize,
    ) -> Result<Value, ApiError> {
        if !(1..=MAX_MULTIPV).contains(&multipv) {
            return Err(ApiError::invalid(format!(
                "multipv must be 1 to {MAX_MULTIPV}, not {multipv}"
            )));
        }
        let start = match fen.map(str::trim) {
            None | Some("") | Some("startpos") => Board::startpos(),
            Some(f) => {
                Board::from_fen(f).map_err(|e| ApiError::invalid(format!("bad FEN '{f}': {e}")))?
            }
        };
        let mut board = start;
        let mut parsed = Vec::with_capacity(moves.len());
        for text in moves {
            let m = board
                .parse_uci_move(text)
                .or_else(|_| board.parse_san(text))
                .map_err(|e| ApiError::invalid(format!("illegal move '{text}': {e}")))?;
            parsed.push(m);
            board.play(m);
        }
        self.stop_analysis();
        if board.legal_moves().is_empty() {
            let verdict = if board.in_check() {
                "checkmate"
            } else {
                "stalemate"
            };
            return Ok(json!({"fen": board.to_fen(), "searching": false, "over": verdict}));
        }
        self.next_id += 1;
        let id = self.next_id;
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let job = Job {
            start,
            moves: parsed,
            limits,
            multipv,
            move_overhead: 0,
            listener: self.listener(id),
            tt: self.analyse_pool.tt().clone(),
        };
        self.analyse_search = Some(AnalyseSearch {
            id,
            root: board,
            started: Instant::now(),
        });
        self.analyse_pool.start(job);
        Ok(json!({"id": id, "fen": board.to_fen(), "searching": true, "over": null}))
    }

    fn stop_analysis(&mut self) {
        if self.analyse_search.take().is_some() {
            self.analyse_pool.stop();
        }
    }

    fn analyse_event(&mut self, ev: Event) {
        let Some(a) = self.analyse_search.as_ref() else {
            return;
        };
        match ev {
            Event::Info(info) => {
                let mut v = info_json(&a.root, &info);
                v["id"] = json!(a.id);
                v["fen"] = json!(a.root.to_fen());
                self.emit("analysis", &v);
            }
            // An infinite search reports its best move only after a stop.
            Event::BestMove { .. } => self.analyse_search = None,
        }
    }
}

/// A search's progress report as JSON: the score from White's side (`score_cp`, or `mate`
/// in moves, negative when Black mates) and as text (`+0.35`, `#3`, `#-2`), White's wins,
/// draws and losses per mille (the `UCI_ShowWDL` model), the line in SAN and in UCI.
pub fn info_json(root: &Board, info: &Info) -> Value {
    let white_to_move = root.side_to_move() == Color::White;
    let white = if white_to_move {
        info.score
    } else {
        -info.score
    };
    let (cp, mate, text) = if is_mate(info.score) {
        // Moves to mate are counted on the side to move's score, then seen from White.
        let m = mate_moves(info.score) * if white_to_move { 1 } else { -1 };
        (None, Some(m), format!("#{m}"))
    } else {
        (
            Some(white),
            None,
            format!("{:+.2}", f64::from(white) / 100.0),
        )
    };
    // Win, draw, loss per mille by UCI_ShowWDL's fitted model, seen from White.
    let w = search::wdl::FITTED.wdl(info.score, search::wdl::material(root));
    let wdl = if white_to_move {
        [w.win, w.draw, w.loss]
    } else {
        [w.loss, w.draw, w.win]
    };
    let mut b = *root;
    let mut san = Vec::with_capacity(info.pv.len());
    let mut uci = Vec::with_capacity(info.pv.len());
    for &m in &info.pv {
        if !b.is_legal(m) {
            break;
        }
        let number = if b.side_to_move() == Color::White {
            format!("{}. ", b.fullmove_number())
        } else if san.is_empty() {
            format!("{}... ", b.fullmove_number())
        } else {
            String::new()
        };
        san.push(format!("{number}{}", b.move_to_san(m)));
        uci.push(b.move_to_uci(m));
        b.play(m);
    }
    json!({
        "depth": info.depth,
        "seldepth": info.seldepth,
        "multipv": info.multipv,
        "score_cp": cp,
        "mate": mate,
        "score": text,
        "wdl": wdl,
        "bound": match info.bound {
            ScoreBound::Exact => "exact",
            ScoreBound::Lower => "lower",
            ScoreBound::Upper => "upper",
        },
        "nodes": info.nodes,
        "nps": info.nps,
        "time_ms": info.time_ms,
        "pv_san": san.join(" "),
        "pv": uci,
    })
}

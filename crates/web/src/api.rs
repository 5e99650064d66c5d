//! The routes: the pages and their files, the JSON API, and the server-sent events.
//!
//! Every request body is JSON, read here (not by an extractor) so that each failure, a body
//! over [`BODY_LIMIT`], bad JSON, a missing or unknown field, gets the same `{"error": ...}`
//! answer with its status code.

use crate::analyse::{self, GameRequest};
use crate::assets;
use crate::engine::{Command, Engine};
use crate::error::ApiError;
use crate::play::NewGame;
use crate::tsume::{self, TsumeRequest};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream::{self, Stream};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;
use std::convert::Infallible;
use std::sync::Arc;
use tokio::sync::{broadcast, Semaphore};

/// The largest request body accepted, bytes (a long PGN fits many times over).
pub const BODY_LIMIT: usize = 256 * 1024;

/// What the handlers share.
#[derive(Clone)]
pub struct AppState {
    engine: Engine,
    /// One solve or game analysis at a time: they take a core each.
    heavy: Arc<Semaphore>,
}

/// The server's routes over a running engine thread.
pub fn router(engine: Engine) -> Router {
    let state = AppState {
        engine,
        heavy: Arc::new(Semaphore::new(1)),
    };
    Router::new()
        .route("/", get(|| page("index.html")))
        .route("/play", get(|| page("play.html")))
        .route("/analyse", get(|| page("analyse.html")))
        .route("/tsume", get(|| page("tsume.html")))
        .route("/static/{name}", get(own_file))
        .route("/vendor/{*path}", get(vendor_file))
        .route("/api/play", get(play_state))
        .route("/api/play/new", post(play_new))
        .route("/api/play/move", post(play_move))
        .route("/api/play/stop", post(play_stop))
        .route("/api/play/undo", post(play_undo))
        .route("/api/analyse/start", post(analyse_start))
        .route("/api/analyse/stop", post(analyse_stop))
        .route("/api/analyse/game", post(analyse_game))
        .route("/api/tsume", post(tsume_solve))
        .route("/api/events", get(events))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such page or API route")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this route does not take that method (the API's changes are POSTs)",
    )
}

async fn page(name: &'static str) -> Response {
    match assets::own(name) {
        Some(text) => file_response(name, text.as_bytes()),
        None => not_found().await.into_response(),
    }
}

async fn own_file(Path(name): Path<String>) -> Response {
    match assets::own(&name) {
        Some(text) if !name.ends_with(".html") => file_response(&name, text.as_bytes()),
        _ => not_found().await.into_response(),
    }
}

async fn vendor_file(Path(path): Path<String>) -> Response {
    match assets::vendor(&path) {
        Some(bytes) => file_response(&path, bytes),
        None => not_found().await.into_response(),
    }
}

fn file_response(name: &str, bytes: &'static [u8]) -> Response {
    (
        [
            (header::CONTENT_TYPE, assets::content_type(name)),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        bytes,
    )
        .into_response()
}

/// A JSON body of type `T`, or the error that says what is wrong with it.
fn parse_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request body is over the limit of {BODY_LIMIT} bytes"),
            )
        } else {
            ApiError::bad_request(format!("cannot read the request body: {e}"))
        }
    })?;
    // An empty body is an empty object: every field of these requests may be left out.
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        &bytes
    };
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad_request(format!("bad JSON: {e}")))
}

type ApiResult = Result<Json<Value>, ApiError>;

async fn play_state(State(s): State<AppState>) -> ApiResult {
    s.engine.call(Command::PlayState).await.map(Json)
}

async fn play_new(State(s): State<AppState>, body: Result<Bytes, BytesRejection>) -> ApiResult {
    let req: NewGame = parse_body(body)?;
    s.engine.call(Command::PlayNew(req)).await.map(Json)
}

/// The body of `POST /api/play/move`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    /// The move in UCI (`e2e4`, `e7e8q`) or SAN.
    #[serde(rename = "move")]
    mv: String,
}

async fn play_move(State(s): State<AppState>, body: Result<Bytes, BytesRejection>) -> ApiResult {
    let req: MoveRequest = parse_body(body)?;
    s.engine.call(Command::PlayMove(req.mv)).await.map(Json)
}

async fn play_stop(State(s): State<AppState>) -> ApiResult {
    s.engine.call(Command::PlayStop).await.map(Json)
}

async fn play_undo(State(s): State<AppState>) -> ApiResult {
    s.engine.call(Command::PlayUndo).await.map(Json)
}

/// Lines of an analysis when the request names no number.
const DEFAULT_MULTIPV: usize = 3;

/// The body of `POST /api/analyse/start`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseRequest {
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    multipv: Option<usize>,
}

async fn analyse_start(
    State(s): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let req: AnalyseRequest = parse_body(body)?;
    let multipv = req.multipv.unwrap_or(DEFAULT_MULTIPV);
    s.engine
        .call(Command::AnalyseStart {
            fen: req.fen,
            moves: req.moves,
            multipv,
        })
        .await
        .map(Json)
}

async fn analyse_stop(State(s): State<AppState>) -> ApiResult {
    s.engine.call(Command::AnalyseStop).await.map(Json)
}

/// Runs `f` on a blocking thread, one such job at a time.
async fn heavy<F>(s: &AppState, f: F) -> ApiResult
where
    F: FnOnce() -> Result<Value, ApiError> + Send + 'static,
{
    let _permit = s
        .heavy
        .acquire()
        .await
        .map_err(|_| ApiError::unavailable("the server is shutting down"))?;
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|_| ApiError::unavailable("the job failed"))?
        .map(Json)
}

async fn analyse_game(State(s): State<AppState>, body: Result<Bytes, BytesRejection>) -> ApiResult {
    let req: GameRequest = parse_body(body)?;
    heavy(&s, move || analyse::analyse_game(&req)).await
}

async fn tsume_solve(State(s): State<AppState>, body: Result<Bytes, BytesRejection>) -> ApiResult {
    let req: TsumeRequest = parse_body(body)?;
    heavy(&s, move || tsume::solve(&req)).await
}

/// `GET /api/events`: the server-sent events, from the moment of the request on.
async fn events(State(s): State<AppState>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let rx = s.engine.subscribe();
    let stream = stream::unfold(rx, |mut rx| async move {
        loop {
            match rx.recv().await {
                Ok(ev) => {
                    let event = Event::default().event(ev.name).data(ev.data);
                    return Some((Ok(event), rx));
                }
                // A slow browser missed some events: the next ones still come.
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

//! `estuary serve`: the web front end. A browser plays the engine (with a Move now button),
//! analyses positions and games, and watches the tsume solver's mating lines; the server
//! keeps the game and runs the searches, the pages send moves as JSON and follow the engine
//! over server-sent events. docs/web.md describes the routes, the API and the events.
//!
//! The layers: [`api`] the routes (axum on tokio), [`engine`] the thread that owns the game
//! and the search pools, [`play`] the game's rules and end, [`clock`] its clocks,
//! [`analyse`] and [`tsume`] the heavy one-shot jobs, [`assets`] the embedded pages and npm
//! libraries.

pub mod analyse;
pub mod api;
pub mod assets;
pub mod clock;
pub mod engine;
pub mod error;
pub mod play;
pub mod tsume;

pub use api::router;
pub use engine::Engine;
pub use error::ApiError;

use std::net::SocketAddr;

/// The opening book shipped with the program (see docs/book.md): the engine plays from it on
/// the play page.
pub fn shipped_book() -> Option<book::Book> {
    Some(book::shipped()).filter(|b| !b.is_empty())
}

/// Serves the app on `listener` until the process ends.
pub async fn serve_on(listener: tokio::net::TcpListener, engine: Engine) -> std::io::Result<()> {
    axum::serve(listener, router(engine)).await
}

/// Binds `host:port` (port 0: any free port), calls `ready` with the address bound, and
/// serves until the process ends. Runs its own tokio runtime; blocks.
pub fn serve(host: &str, port: u16, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((host, port))
            .await
            .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot read the bound address: {e}"))?;
        let engine = Engine::start(shipped_book())?;
        ready(addr);
        serve_on(listener, engine)
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}

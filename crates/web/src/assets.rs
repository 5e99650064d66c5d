//! The pages, scripts and styles, embedded at compile time: ours from `crates/web/assets/`,
//! the npm libraries' from the `npm ci` that build.rs runs (see `vendor.rs` in `OUT_DIR`).

include!(concat!(env!("OUT_DIR"), "/vendor.rs"));

/// Our own files: the name they are served under (`/` for the pages, `/static/` for the
/// rest) and their text.
pub static OWN: &[(&str, &str)] = &[
    ("index.html", include_str!("../assets/index.html")),
    ("play.html", include_str!("../assets/play.html")),
    ("analyse.html", include_str!("../assets/analyse.html")),
    ("tsume.html", include_str!("../assets/tsume.html")),
    ("estuary.css", include_str!("../assets/estuary.css")),
    ("common.js", include_str!("../assets/common.js")),
    ("play.js", include_str!("../assets/play.js")),
    ("analyse.js", include_str!("../assets/analyse.js")),
    ("tsume.js", include_str!("../assets/tsume.js")),
    ("shogi-board.js", include_str!("../assets/shogi-board.js")),
];

/// One of our own files by name.
pub fn own(name: &str) -> Option<&'static str> {
    OWN.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

/// A vendored file by its path under `/vendor/` (`cm-chessboard/src/Chessboard.js`).
pub fn vendor(path: &str) -> Option<&'static [u8]> {
    VENDOR
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, bytes)| *bytes)
}

/// The `Content-Type` of a file by its name's ending.
pub fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, e)| e) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        _ => "text/plain; charset=utf-8",
    }
}

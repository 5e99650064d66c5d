//! Errors of the JSON API: a status code and a sentence, sent as `{"error": "..."}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// A request the server refuses, and why. The state it was meant to change stays as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status: 400 for a malformed request, 404 for an unknown path, 409 for a
    /// request that does not fit the state (a move out of turn, after the game's end), 413 for
    /// a body over the limit, 422 for a well-formed request with a bad value (an illegal
    /// move, a bad FEN or SFEN), 503 when the engine is gone.
    pub status: StatusCode,
    /// What was wrong, for people.
    pub message: String,
}

impl ApiError {
    /// An error with `status` and `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 400: the request is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 409: the request does not fit the game's state.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// 422: a value in the request is wrong (an illegal move, a bad FEN).
    pub fn invalid(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// A request's node limit: `requested`, or `default` when absent; 422 unless 1 to `max`.
    pub fn node_limit(requested: Option<u64>, default: u64, max: u64) -> Result<u64, ApiError> {
        let nodes = requested.unwrap_or(default);
        if (1..=max).contains(&nodes) {
            Ok(nodes)
        } else {
            Err(ApiError::invalid(format!(
                "nodes must be 1 to {max}, not {nodes}"
            )))
        }
    }

    /// 503: the engine thread is not answering.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

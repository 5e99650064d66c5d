//! `Position`: a [`Board`] plus the history that repetition detection needs, with make/unmake.

use crate::board::Board;
use crate::fen::FenError;
use crate::moves::Move;
use core::ops::Deref;

/// A board with its game history. `make` saves the current board on a stack (reserved up
/// front, so playing moves does not allocate) and `unmake` restores it bit for bit.
#[derive(Clone)]
pub struct Position {
    board: Board,
    history: Vec<Board>,
}

impl Deref for Position {
    type Target = Board;
    #[inline(always)]
    fn deref(&self) -> &Board {
        &self.board
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// Wraps a board with empty history.
    pub fn new(board: Board) -> Position {
        Position {
            board,
            history: Vec::with_capacity(512),
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::new(Board::startpos())
    }

    /// Reads a FEN (see [`Board::from_fen`]).
    ///
    /// ```
    /// let pos = chess::Position::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1").unwrap();
    /// assert_eq!(pos.legal_moves().len(), 3);
    /// assert!(chess::Position::from_fen("8/8/8/8/8/8/8/K7 w - - 0 1").is_err());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Board::from_fen(fen).map(Position::new)
    }

    /// The current board.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Mutable access to the current board (for toggling Chess960 notation).
    pub fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    /// Plays a legal move.
    ///
    /// ```
    /// use chess::Position;
    /// let mut pos = Position::startpos();
    /// let m = pos.parse_uci_move("e2e4").unwrap();
    /// let before = pos.hash();
    /// pos.make(m);
    /// pos.unmake();
    /// assert_eq!(pos.hash(), before);
    /// ```
    #[inline]
    pub fn make(&mut self, m: Move) {
        self.history.push(self.board);
        self.board.play(m);
    }

    /// Passes the turn (search's null move).
    #[inline]
    pub fn make_null(&mut self) {
        self.history.push(self.board);
        self.board.play_null();
    }

    /// Takes back the last move (or null move). Returns false when there is nothing to undo.
    #[inline]
    pub fn unmake(&mut self) -> bool {
        match self.history.pop() {
            Some(b) => {
                self.board = b;
                true
            }
            None => false,
        }
    }

    /// Number of moves played since the position was set up.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// Boards before each move played, oldest first.
    pub fn history(&self) -> &[Board] {
        &self.history
    }

    /// Forgets the history (the current board stays).
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// How often the current position occurred before, within the reversible moves.
    pub fn repetitions(&self) -> usize {
        let h = self.board.hash;
        let n = self.board.halfmove as usize;
        self.history
            .iter()
            .rev()
            .take(n)
            .skip(1)
            .step_by(2)
            .filter(|b| b.hash == h)
            .count()
    }

    /// True when the current position occurred before since the last irreversible move
    /// (search treats the first repetition as a draw).
    pub fn is_repetition(&self) -> bool {
        self.repetitions() > 0
    }

    /// Draw by threefold repetition, the fifty-move rule (unless mated on the 100th ply) or
    /// insufficient material.
    pub fn is_draw(&self) -> bool {
        let mated = self.board.in_check() && !self.board.has_legal_move();
        if self.board.halfmove >= 100 && !mated {
            return true;
        }
        self.repetitions() >= 2 || self.board.is_insufficient_material()
    }
}

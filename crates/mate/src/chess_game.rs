//! The chess adapter: mate search for the side to move at the root. The attacker may play
//! any legal move (chess mates need quiet moves), so chess problems are searched with a ply
//! limit ([`crate::MateSolver::solve_within`], as for UCI `go mate N`).

use crate::game::MateGame;
use chess::{Board, GenMode, Move, MoveList};

/// A chess mate problem: the side to move at the root attacks.
#[derive(Clone, Copy, Debug)]
pub struct ChessMate {
    /// The position.
    pub board: Board,
}

impl ChessMate {
    /// The problem with the side to move as attacker.
    pub fn new(board: Board) -> ChessMate {
        ChessMate { board }
    }
}

fn fill(l: &MoveList, out: &mut Vec<Move>) {
    out.clear();
    out.extend_from_slice(l.as_slice());
}

impl MateGame for ChessMate {
    type Move = Move;
    type Hand = ();

    fn attacker_moves(&self, out: &mut Vec<Move>) {
        let mut l = MoveList::new();
        self.board.generate_into(GenMode::All, &mut l);
        // Checks first: they are the likeliest mates and df-pn breaks ties by order.
        let (mut checks, mut quiet): (Vec<Move>, Vec<Move>) = l
            .as_slice()
            .iter()
            .partition(|&&m| self.board.gives_check(m));
        out.clear();
        out.append(&mut checks);
        out.append(&mut quiet);
    }

    fn defender_moves(&self, out: &mut Vec<Move>) {
        let mut l = MoveList::new();
        self.board.generate_into(GenMode::All, &mut l);
        fill(&l, out);
    }

    fn is_mated(&self) -> bool {
        // Stalemate is not mate.
        self.board.in_check() && !self.board.has_legal_move()
    }

    fn after(&self, m: Move) -> ChessMate {
        ChessMate {
            board: self.board.played(m),
        }
    }

    fn board_key(&self) -> u64 {
        self.board.hash()
    }

    fn key(&self) -> u64 {
        self.board.hash()
    }

    fn attacker_hand(&self) {}

    fn move_text(&self, m: Move) -> String {
        self.board.move_to_uci(m)
    }
}

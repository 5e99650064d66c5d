//! The small game trait the solver runs on. The attacker's moves are checks, the defender's
//! are evasions; hands (pieces in hand) let one proof or disproof cover many positions.

/// The attacker's pieces in hand, ordered by "holds at least as much of every kind".
/// Games without hands use `()`.
pub trait HandSet: Copy + Eq + Default + std::fmt::Debug {
    /// True when `self` holds at least as much of every kind as `other`.
    fn covers(self, other: Self) -> bool;
    /// Kind-by-kind maximum.
    fn max(self, other: Self) -> Self;
    /// Kind-by-kind minimum.
    fn min(self, other: Self) -> Self;
    /// The hand as bits, for hashing (equal hands, equal bits).
    fn bits(self) -> u64;
}

impl HandSet for () {
    fn covers(self, _: ()) -> bool {
        true
    }
    fn max(self, _: ()) {}
    fn min(self, _: ()) {}
    fn bits(self) -> u64 {
        0
    }
}

/// A position of a mate problem. The attacker moves at even plies from the root.
pub trait MateGame: Clone {
    /// A move.
    type Move: Copy + Eq + Default + std::fmt::Debug;
    /// The attacker's hand.
    type Hand: HandSet;

    /// Legal checks for the attacker (called only with the attacker to move).
    fn attacker_moves(&self, out: &mut Vec<Self::Move>);
    /// Legal moves for the defender, who is in check (called only with the defender to move).
    fn defender_moves(&self, out: &mut Vec<Self::Move>);
    /// The position after `m`.
    fn after(&self, m: Self::Move) -> Self;
    /// Makes `out` (any position) the position after `m`, reusing its storage.
    fn after_into(&self, m: Self::Move, out: &mut Self) {
        *out = self.after(m);
    }
    /// Makes `out`, which holds the position after `prev` (built from this one), the position
    /// after `m`, reusing its storage: a solver expanding a node builds its children one after
    /// another in one place. Games that can undo `prev` cheaply override this.
    fn next_child_into(&self, prev: Self::Move, m: Self::Move, out: &mut Self) {
        let _ = prev;
        *out = self.after(m);
    }
    /// The board key, the key and the attacker's hand of the position after `m`
    /// ([`MateGame::board_key`], [`MateGame::key`], [`MateGame::attacker_hand`]); games that
    /// can compute them without building the position override this.
    fn child_keys(&self, m: Self::Move) -> (u64, u64, Self::Hand) {
        let c = self.after(m);
        (c.board_key(), c.key(), c.attacker_hand())
    }
    /// Checks that may mate at once, at least every one that does (attacker to move): what
    /// a mate-in-one test plays. Games without a cheaper generator list all their checks.
    fn mate_candidates(&self, out: &mut Vec<Self::Move>) {
        self.attacker_moves(out);
    }

    /// True when the defender (to move) has no legal move: mate.
    fn is_mated(&self) -> bool {
        let mut v = Vec::new();
        self.defender_moves(&mut v);
        v.is_empty()
    }
    /// Number of legal defender moves (the defender is to move).
    fn defender_move_count(&self) -> usize {
        let mut v = Vec::new();
        self.defender_moves(&mut v);
        v.len()
    }
    /// [`MateGame::defender_move_count`] with the moves that share an
    /// [`MateGame::interposition_square`] counted once.
    fn defender_move_groups(&self) -> usize {
        self.defender_move_count()
    }
    /// A key of everything but the attacker's hand (board, side to move).
    fn board_key(&self) -> u64;
    /// A key of the whole position, for repetition; the solver also caches the number of
    /// defender moves by it, so equal keys must mean equal positions (up to hash collisions).
    fn key(&self) -> u64;
    /// The attacker's hand.
    fn attacker_hand(&self) -> Self::Hand;
    /// USI/UCI text of a move.
    fn move_text(&self, m: Self::Move) -> String;

    /// Proof hand of a defender position with no legal move: the least attacker hand for which
    /// the same board is still mate.
    fn mated_proof_hand(&self) -> Self::Hand {
        self.attacker_hand()
    }
    /// Proof hand of a proven defender position given the maximum of its children's.
    fn and_proof_hand(&self, children_max: Self::Hand) -> Self::Hand {
        children_max
    }
    /// Proof hand of an attacker position proven by `m`, from the child's proof hand.
    fn or_proof_hand(&self, _m: Self::Move, child: Self::Hand) -> Self::Hand {
        child
    }
    /// Disproof hand of an attacker position with no check.
    fn no_check_disproof_hand(&self) -> Self::Hand {
        self.attacker_hand()
    }
    /// Disproof hand of a disproven attacker position given the minimum of its children's
    /// (each already mapped through [`MateGame::or_disproof_hand`]).
    fn or_disproof_hand_final(&self, children_min: Self::Hand) -> Self::Hand {
        children_min
    }
    /// A child's disproof hand mapped back through the attacker's move `m`.
    fn or_disproof_hand(&self, _m: Self::Move, child: Self::Hand) -> Self::Hand {
        child
    }
    /// Disproof hand of a defender position disproven by `m`, from the child's.
    fn and_disproof_hand(&self, _m: Self::Move, child: Self::Hand) -> Self::Hand {
        child
    }
    /// For a defender move that interposes a dropped piece between the king and a lone
    /// long-range checker: the position with the checker moved onto that square instead
    /// (defender to move). Used to recognise futile interpositions (muda-ai).
    fn checker_moved_to_interposition(&self, _m: Self::Move) -> Option<Self> {
        None
    }
    /// For a defender move that drops a piece between the king and a long-range checker: the
    /// square it drops on. The solver searches the drops on one square one at a time, each
    /// after the one before it is proven (delayed expansion). `None` for other moves.
    fn interposition_square(&self, _m: Self::Move) -> Option<u8> {
        None
    }
    /// Whether the defender move `m` is a futile interposition (muda-ai): a drop whose capture
    /// by the checker mates at once (checkmate by the rules of play, not by the convention).
    fn is_futile_interposition(&self, m: Self::Move) -> bool {
        self.checker_moved_to_interposition(m)
            .is_some_and(|c| c.is_mated())
    }
    /// Mate by the muda-ai convention (defender to move, in check): the defender has answers,
    /// and every one is a futile interposition.
    fn mated_but_for_futile_drops(&self) -> bool {
        let mut moves = Vec::new();
        self.defender_moves(&mut moves);
        !moves.is_empty() && moves.iter().all(|&m| self.is_futile_interposition(m))
    }
}

//! The search machine: River's whole search on chip, over our move generator and evaluation
//! unit, as a Rust model at the level of their commands and clocks (what RiverSW was to
//! River). The model is the specification the RTL sequencer is held to: the same tree, node
//! for node, in the same clocks. Design and schedule: docs/chip.md.
//!
//! The machine drives two units through their command words and waits only where it must:
//!
//! * the move generator (`hw/movegen`): MAKE, UNMAKE, NULL, GEN; its moves stream one a clock
//!   in the order [`crate::movegen::stream`] models, its in-check flag valid
//!   [`IN_CHECK_CLOCKS`] after a make;
//! * the evaluation unit (`hw/evalunit`): the same MAKE, UNMAKE and NULL words, then EVAL when
//!   a score is wanted; its clocks are [`crate::evalunit::make_clocks`] and the net's
//!   [`crate::evalunit::Image::eval_clocks`].
//!
//! Both units take a make in the same clock; the generator's stream and the evaluation then
//! run side by side (a quiescence node generates its captures while the unit computes the
//! stand-pat score).

pub mod cores;
pub mod protocol;
pub mod sdram;
mod search;
pub mod tables;
pub mod tt;

pub use search::{Machine, NotForChip, RootSearch};

/// A command the sequencer gives the units, as the model's trace and the RTL's record it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// MAKE of the move, to both units.
    Make(chess::Move),
    /// NULL, to both units.
    Null,
    /// UNMAKE, to both units.
    Unmake,
    /// GEN to the generator: captures only, or all moves.
    Gen {
        /// Captures only.
        captures_only: bool,
    },
    /// EVAL to the evaluation unit.
    Eval,
}

/// One command and the clock it is given in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The clock, counted from the load of the position.
    pub clock: u64,
    /// The command.
    pub command: Command,
}

/// Deepest ply of the node stack: a node at this ply returns its static evaluation.
pub const MAX_PLY: usize = 64;
/// The score of a mate at the root; a mate `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;

/// Clocks from a MAKE to the generator's in-check flag of the new position: the command's
/// decode and the 9 stages of the king analysis (hw/README.md), then the flag's register.
pub const IN_CHECK_CLOCKS: u64 = 11;
/// Clocks from a MAKE to the child's Zobrist hash: the key ROM read, then the xor.
pub const HASH_CLOCKS: u64 = 2;
/// Clocks of the path RAM's read and the register behind it before the repetition scan
/// compares one hash a clock.
pub const REPETITION_BASE_CLOCKS: u64 = 2;
/// Clocks of a read from the transposition table in block RAM: address register, RAM,
/// output register.
pub const TT_BRAM_CLOCKS: u64 = 3;
/// Clocks to fetch the next move to search from the move RAM (address, read).
pub const NEXT_MOVE_CLOCKS: u64 = 2;
/// Clocks to restore a node's frame from the node stack after a child returns.
pub const RETURN_CLOCKS: u64 = 2;
/// Clocks of a transposition-table write.
pub const TT_WRITE_CLOCKS: u64 = 1;
/// Clocks of an EVAL whose score the unit already holds: the command taken, dispatched,
/// and the score's two stages (hw/evalunit: `EVAL_COMMAND_CLOCKS`).
pub const EVAL_MIN_CLOCKS: u64 = crate::evalunit::EVAL_COMMAND_CLOCKS;
/// Clocks the sequencer spends between iterations, beside moving the best move to the front
/// of the root's list (two a move): the best move written at the front, the next aspiration
/// window set.
pub const ITERATION_CLOCKS: u64 = 2;
/// Clocks from a GEN's done pulse to the sequencer's next step: the pulse seen, then the
/// node's decision on the list.
pub const GEN_DONE_CLOCKS: u64 = 2;
/// Clocks at the start of a window at the root (alpha set, the first move's read) and at its
/// end (the window's verdict).
pub const WINDOW_CLOCKS: u64 = 1;
/// Clocks of loading a position: 18 words to both units, then the evaluation unit's refresh
/// (the bias row and one row a square, both perspectives, the stack words written).
pub const LOAD_CLOCKS: u64 = 18 + 76;

/// Entries of the quiet-move history: one a side to move, origin and destination
/// (`side * 4096 + (move & 4095)`, the move word's low 12 bits being the two squares).
pub const HISTORY_ENTRIES: usize = 8192;
/// The largest history value: 9 bits, a 2048 x 9 block RAM a quarter of the table.
pub const HISTORY_MAX: u16 = 511;
/// Clocks of GO's first step, before the root's GEN: the history halved, one entry a clock.
pub const AGE_CLOCKS: u64 = HISTORY_ENTRIES as u64;
/// The number of history buckets the quiet moves are ordered by.
pub const BUCKETS: usize = 8;

/// The history entry of quiet move `m` with `black` to move.
pub fn history_index(black: bool, m: chess::Move) -> usize {
    usize::from(black) << 12 | usize::from(m.raw() & 0xfff)
}

/// The bucket a quiet move with history `h` streams into, best first: 0 from 128 up, then
/// one a power of two down to 7 for 0 and 1 (`8 - bit length`, within 0..=7).
pub fn history_bucket(h: u16) -> usize {
    let len = 16 - h.leading_zeros() as usize;
    8usize.saturating_sub(len).min(BUCKETS - 1)
}

/// What a beta cutoff by a quiet move at a node of `depth` adds to its history (the sum
/// saturates at [`HISTORY_MAX`]).
pub fn history_bonus(depth: i32) -> u16 {
    let d = depth.clamp(0, 63) as u16;
    d * d
}

/// The late-move reduction of the `moves`-th move (counting from 1) at a node of `depth`,
/// before the PV node's one ply less and the bounds: the software engine's
/// ([`::search::worker::late_move_reduction`]), both taken at most 63, at most 15 (4 bits);
/// the table hw/chip/gen/chip_lmr_rom.vh.
pub fn lmr_reduction(depth: i32, moves: u32) -> u8 {
    let d = depth.clamp(0, 63) as u32;
    ::search::worker::late_move_reduction(d, moves.min(63)).clamp(0, 15) as u8
}

/// The late-move pruning build's history ([`Config::lmp`]): signed 16-bit entries, at the
/// same index as [`history_index`], kept within this by the gravity of [`signed_update`]
/// (the software's bound).
pub const SIGNED_HISTORY_MAX: i32 = ::search::history::HISTORY_MAX;

/// What a cutoff at a node of `depth` moves a signed history entry by: up for the move that
/// cut, down for each quiet move searched before it: the software's bonus
/// (`min(16 d^2 + 32 d, 1600)`), depth taken within 0 to 63 (a 64-entry ROM by depth).
pub fn signed_bonus(depth: i32) -> i32 {
    ::search::history::bonus(depth.clamp(0, 63))
}

/// The signed history entry `e` moved by `delta` with the software's gravity
/// ([`::search::history::gravity`]): the further the entry is already the way it moves, the
/// less it moves (`e + delta - e x |delta| / 16384`, the division rounding towards zero: on
/// the history's write port a multiplier, 16,383 added to a negative product before the
/// 14-bit shift, and an adder).
pub fn signed_update(e: i16, delta: i32) -> i16 {
    let mut e = e;
    ::search::history::gravity(&mut e, delta);
    e
}

/// The late-move pruning build's quiet moves in sorted order: the best this many by their
/// signed history, kept by an insertion sorter as the moves stream ([`QuietOrder`]).
pub const SORTED_QUIETS: usize = 8;

/// The signed history's bucket of a quiet move the sorter lets go, best first: 0 from 2,048
/// up, 1 from 512, 2 from 128, 3 above 0, 4 for 0, 5 from -512, 6 from -2,048, 7 below.
pub fn signed_bucket(h: i16) -> usize {
    match h {
        2048.. => 0,
        512.. => 1,
        128.. => 2,
        1.. => 3,
        0 => 4,
        -512.. => 5,
        -2048.. => 6,
        _ => 7,
    }
}

/// The late-move pruning build's order of the quiet moves other than the table's move and
/// the killers, as the RTL would build it while they stream: an insertion sorter of
/// [`SORTED_QUIETS`] slots, best first (a move goes behind the slots of an equal history),
/// and the moves it lets go (the new one, or the last slot's when it is full) each in front
/// of its bucket's list ([`signed_bucket`]). The order is the slots, then the buckets.
pub struct QuietOrder {
    slots: [(i16, u8); SORTED_QUIETS],
    filled: usize,
    heads: [u8; BUCKETS],
    next: [u8; 256],
}

/// The end of a bucket's list.
const NO_MOVE: u8 = 0xff;

impl Default for QuietOrder {
    fn default() -> QuietOrder {
        QuietOrder {
            slots: [(0, 0); SORTED_QUIETS],
            filled: 0,
            heads: [NO_MOVE; BUCKETS],
            next: [NO_MOVE; 256],
        }
    }
}

impl QuietOrder {
    /// The quiet move at `index` of the node's list (below 255), of signed history `h`.
    pub fn push(&mut self, index: u8, h: i16) {
        let at = self.slots[..self.filled].partition_point(|s| s.0 >= h);
        let out = if at == SORTED_QUIETS {
            Some((h, index))
        } else {
            let out = (self.filled == SORTED_QUIETS).then(|| self.slots[SORTED_QUIETS - 1]);
            self.filled = (self.filled + 1).min(SORTED_QUIETS);
            self.slots.copy_within(at..self.filled - 1, at + 1);
            self.slots[at] = (h, index);
            out
        };
        if let Some((h, i)) = out {
            let b = signed_bucket(h);
            self.next[usize::from(i)] = self.heads[b];
            self.heads[b] = i;
        }
    }

    /// The moves' indices in order, each given to `f`.
    pub fn drain(&self, mut f: impl FnMut(u8)) {
        for s in &self.slots[..self.filled] {
            f(s.1);
        }
        for &head in &self.heads {
            let mut i = head;
            while i != NO_MOVE {
                f(i);
                i = self.next[usize::from(i)];
            }
        }
    }
}

/// Clocks of the signed history's walk at a quiet cutoff beyond one a move: the list of the
/// moves tried read, their entry read, the product of the gravity registered, the entry
/// written.
pub const WALK_CLOCKS: u64 = 4;

/// Late-move pruning: at a node of `depth` below the PV, the quiet moves from this many
/// moves into the order on are passed over, except those that give check.
pub fn lmp_moves(depth: i32) -> u32 {
    let d = depth.clamp(0, 63) as u32;
    4 + d * d
}

/// The machine's build-time choices.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Transposition-table entries (rounded down to a power of two).
    pub tt_entries: usize,
    /// Clocks of a table read: [`TT_BRAM_CLOCKS`] on chip, more for a fixed latency of
    /// external memory (a latency model; `sdram` is the SDRAM's own).
    pub tt_clocks: u64,
    /// The table in the SDRAM behind hw/chip/sdram_tt.v ([`sdram::ENTRIES`] entries, read
    /// and written in its controller's clocks, [`sdram::Controller`]); `tt_entries` and
    /// `tt_clocks` are then not used.
    pub sdram: bool,
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Late-move pruning ([`lmp_moves`]) and the order it needs: the quiet moves sorted by a
    /// signed history ([`signed_update`]) that every quiet move searched before a cutoff
    /// loses what the cutoff's move gains. The sequencer's `cfg_lmp`, on in the board's top.
    pub lmp: bool,
    /// Clocks taken off the units' latencies, for projections (none: the RTL's clocks).
    pub faster: Faster,
}

impl Default for Config {
    /// 8,192 entries of 64 bits in block RAM (32 DP16KD), the three prunings on.
    fn default() -> Config {
        Config {
            tt_entries: 8192,
            tt_clocks: TT_BRAM_CLOCKS,
            sdram: false,
            null_move: true,
            lmr: true,
            lmp: true,
            faster: Faster::default(),
        }
    }
}

impl Config {
    /// The board's build: the table in its 32 MB SDRAM (hw/board/ulx3s_top.v).
    pub fn sdram() -> Config {
        Config {
            tt_entries: sdram::ENTRIES,
            sdram: true,
            ..Config::default()
        }
    }

    /// This configuration's prunings with the table of the board's build (`on`, the SDRAM's)
    /// or of the default one (8,192 entries in block RAM).
    pub fn with_sdram(self, on: bool) -> Config {
        let table = if on {
            Config::sdram()
        } else {
            Config::default()
        };
        Config {
            null_move: self.null_move,
            lmr: self.lmr,
            lmp: self.lmp,
            faster: self.faster,
            ..table
        }
    }
}

/// Clocks a faster unit would take off, for projections (`estuary chip bench --faster`):
/// the model then no longer counts the clocks of the RTL, which takes none of them off.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Faster {
    /// Off the evaluation unit's score after a make or null move.
    pub eval: u64,
    /// Off every GEN (its start-up; a GEN takes a clock at least).
    pub generate: u64,
    /// Off the generator's in-check flag after a make (it comes a clock after at the
    /// earliest).
    pub in_check: u64,
}

impl Faster {
    /// No clock taken off: the RTL's clocks.
    pub fn none(&self) -> bool {
        *self == Faster::default()
    }
}

/// Where a search's clocks went: each clock from the load counted once, against what the
/// sequencer did in it or waited for. Waits are counted in the order the sequencer meets
/// them, so two units running side by side are charged to the one it waits for last: a
/// quiescence node's GEN and stand-pat score, for instance, show as the GEN's clocks, then the
/// clocks by which the score comes later.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Spent {
    /// Loading the position ([`LOAD_CLOCKS`]).
    pub load: u64,
    /// Commands to the units: the clock a MAKE, NULL or UNMAKE is given in, and the clocks
    /// waited for both units to be free to take it.
    pub issue: u64,
    /// Waiting for the generator's in-check flag after a make.
    pub in_check: u64,
    /// Waiting for the repetition scan and the table's entry at a node's entry, and for the
    /// SDRAM table's write slot at its end.
    pub table: u64,
    /// Waiting for a GEN's done pulse (from the clock the generator takes the GEN), and the
    /// clocks the pulse takes to be seen and decided on.
    pub generate: u64,
    /// Waiting for the evaluation unit's score, beyond the waits above.
    pub evaluate: u64,
    /// The sequencer's own steps: entry verdicts, reading the next move, restoring a frame,
    /// PV copies, table writes, the root's windows and iterations.
    pub sequencer: u64,
}

impl Spent {
    /// All the clocks counted.
    pub fn total(&self) -> u64 {
        self.parts().iter().map(|(_, c)| c).sum()
    }

    /// These clocks and `other`'s, added.
    pub fn add(&self, other: &Spent) -> Spent {
        Spent {
            load: self.load + other.load,
            issue: self.issue + other.issue,
            in_check: self.in_check + other.in_check,
            table: self.table + other.table,
            generate: self.generate + other.generate,
            evaluate: self.evaluate + other.evaluate,
            sequencer: self.sequencer + other.sequencer,
        }
    }

    /// The parts by name, in the order of the fields.
    pub fn parts(&self) -> [(&'static str, u64); 7] {
        [
            ("load", self.load),
            ("issue", self.issue),
            ("in-check", self.in_check),
            ("table", self.table),
            ("generate", self.generate),
            ("evaluate", self.evaluate),
            ("sequencer", self.sequencer),
        ]
    }
}

/// What a search may spend.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (1 to `MAX_PLY - 1`).
    pub depth: u32,
    /// Nodes.
    pub nodes: u64,
    /// Clocks, from the load of the position.
    pub clocks: u64,
}

impl Limits {
    /// The limits of a GO request's fields, where 0 is no limit (hw::chip::protocol).
    pub fn of_go(depth: u8, nodes: u64, clocks: u64) -> Limits {
        let none = Limits::default();
        Limits {
            depth: if depth == 0 {
                none.depth
            } else {
                u32::from(depth)
            },
            nodes: if nodes == 0 { none.nodes } else { nodes },
            clocks: if clocks == 0 { none.clocks } else { clocks },
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            depth: MAX_PLY as u32 - 1,
            nodes: u64::MAX,
            clocks: u64::MAX,
        }
    }
}

/// One completed iteration, or the search's answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The iteration's depth.
    pub depth: u32,
    /// The score for the side to move, centipawns or a mate score.
    pub score: i32,
    /// The principal variation, best move first.
    pub pv: Vec<chess::Move>,
    /// Nodes so far.
    pub nodes: u64,
    /// Clocks so far, from the load.
    pub clocks: u64,
}

/// The answer to a GO.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The move to play; none when the side to move is mated or stalemated.
    pub best: Option<chess::Move>,
    /// The last completed iteration (its PV starts with `best` unless a deeper iteration
    /// stopped early having found a better move).
    pub report: Report,
    /// Nodes of the whole search.
    pub nodes: u64,
    /// Of them, quiescence nodes.
    pub qnodes: u64,
    /// Clocks of the whole search, from the load of the position.
    pub clocks: u64,
    /// The budget ran out or the stop line was raised before the last iteration was done.
    pub stopped: bool,
    /// Where the clocks went (their total is `clocks`).
    pub spent: Spent,
}

/// A score as UCI writes it: `mate N` (moves, negative when mated) or `cp N`.
pub fn score_text(score: i32) -> String {
    match mate_in(score) {
        Some(k) => format!("mate {k}"),
        None => format!("cp {score}"),
    }
}

/// The machine's net: the file `path` (a pure chip net), or the built-in pure one.
pub fn chip_net(path: Option<&str>) -> Result<std::sync::Arc<eval::chip::ChipNet>, String> {
    match path {
        None => Ok(eval::chip::ChipNet::embedded_pure()),
        Some(p) => eval::chip::ChipNet::load(p)
            .map(std::sync::Arc::new)
            .map_err(|e| format!("{p}: {e}")),
    }
}

/// The hashes of the game before `board` (oldest first) that the machine keeps for its
/// repetition check: those since the last irreversible move.
pub fn kept_history<'a>(board: &chess::Board, history: &'a [u64]) -> &'a [u64] {
    let keep = (board.halfmove_clock() as usize).min(history.len());
    &history[history.len() - keep..]
}

/// A mate score as moves: positive when the side to move mates.
pub fn mate_in(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

#[cfg(test)]
mod history_tests {
    use super::*;

    #[test]
    fn buckets_halve_from_128_down_to_0_and_1() {
        let edges = [
            (511, 0),
            (128, 0),
            (127, 1),
            (64, 1),
            (63, 2),
            (32, 2),
            (16, 3),
        ];
        let more = [(8, 4), (7, 5), (4, 5), (3, 6), (2, 6), (1, 7), (0, 7)];
        for (h, b) in edges.into_iter().chain(more) {
            assert_eq!(history_bucket(h), b, "history {h}");
        }
    }

    #[test]
    fn the_signed_history_stays_within_its_bound_and_moves_less_near_it() {
        assert_eq!(signed_bonus(1), 48);
        assert_eq!(signed_bonus(9), 1584);
        assert_eq!(signed_bonus(10), 1600);
        assert_eq!(signed_bonus(-3), 0);
        let mut e = 0i16;
        let mut last_step = i32::MAX;
        for _ in 0..2000 {
            let next = signed_update(e, signed_bonus(20));
            let step = i32::from(next) - i32::from(e);
            assert!(step >= 0 && step <= last_step, "{e} -> {next}");
            last_step = step;
            e = next;
            assert!(i32::from(e) <= SIGNED_HISTORY_MAX);
        }
        assert!(
            i32::from(e) > SIGNED_HISTORY_MAX - 16,
            "settles near the bound: {e}"
        );
        for _ in 0..2000 {
            e = signed_update(e, -signed_bonus(20));
            assert!(i32::from(e) >= -SIGNED_HISTORY_MAX - 1);
        }
        assert!(i32::from(e) < -SIGNED_HISTORY_MAX + 16, "{e}");
        // From zero the whole bonus; at the bound a push outwards moves nothing.
        assert_eq!(signed_update(0, -300), -300);
        assert_eq!(signed_update(16_384, 1600), 16_384);
        assert_eq!(lmp_moves(1), 5);
        assert_eq!(lmp_moves(3), 13);
    }

    #[test]
    fn the_sorter_keeps_the_best_moves_in_order_and_buckets_the_rest() {
        // A pseudo-random stream against a sort: the first slots are the best moves (ties
        // in stream order), the rest come bucket by bucket.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for n in [0usize, 1, 5, 8, 9, 40, 200] {
            let mut order = QuietOrder::default();
            let mut keys = Vec::new();
            for i in 0..n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let h = (x % 9000) as i16 - 4500;
                let h = if i % 7 == 0 { 0 } else { h };
                keys.push(h);
                order.push(i as u8, h);
            }
            let mut got = Vec::new();
            order.drain(|i| got.push(i as usize));
            let mut want: Vec<usize> = (0..n).collect();
            want.sort_by_key(|&i| (-i32::from(keys[i]), i));
            let k = n.min(SORTED_QUIETS);
            assert_eq!(got[..k], want[..k], "{n} moves");
            let mut rest: Vec<usize> = got[k..].to_vec();
            assert!(
                rest.windows(2)
                    .all(|w| signed_bucket(keys[w[0]]) <= signed_bucket(keys[w[1]])),
                "{n} moves"
            );
            rest.sort();
            let mut left: Vec<usize> = want[k..].to_vec();
            left.sort();
            assert_eq!(rest, left, "every move once");
        }
        assert_eq!(signed_bucket(i16::MAX), 0);
        assert_eq!(signed_bucket(2047), 1);
        assert_eq!(signed_bucket(1), 3);
        assert_eq!(signed_bucket(0), 4);
        assert_eq!(signed_bucket(-512), 5);
        assert_eq!(signed_bucket(-513), 6);
        assert_eq!(signed_bucket(i16::MIN), 7);
    }

    #[test]
    fn the_history_index_is_the_side_and_the_move_words_squares() {
        let m = chess::Move::from_raw(0b0100_000111_010101);
        assert_eq!(history_index(false, m), 0b000111_010101);
        assert_eq!(history_index(true, m), 4096 + 0b000111_010101);
        assert!(history_index(true, chess::Move::from_raw(0xffff)) < HISTORY_ENTRIES);
        assert_eq!(history_bonus(5), 25);
        assert!(history_bonus(63) > HISTORY_MAX);
    }
}

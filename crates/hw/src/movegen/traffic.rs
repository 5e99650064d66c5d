//! The move generator's boundary traffic: the 32-bit words each command moves across the
//! host/device bus, and the measurement behind `estuary hw traffic` (device clocks per
//! generate at four roots, then perft trees driven node by node over the bus against
//! offloading the last plies as one command).
//!
//! The measurement drives any [`ClockedDevice`]; the co-simulated Verilog (`estuary-cosim`)
//! is the one with real clocks, and its device counters follow the same word costs.

use chess::{Board, MoveList};
use device::MoveGenDevice;
use std::fmt;

/// Words of a make, a null move or an unmake: one command word each.
pub const MOVE_WORDS: u64 = 1;
/// Words of an in-check query: one status word.
pub const STATUS_WORDS: u64 = 1;
/// Words of an offloaded subtree: the command with its depth out, the leaf count back.
pub const SUBTREE_WORDS: u64 = 2;

/// Words of a generate that streams `moves` moves: the command, the moves two to a word and
/// the status word (count and in-check).
pub fn generate_words(moves: u64) -> u64 {
    2 + moves.div_ceil(2)
}

/// The thesis' four kinds of position: the 218-move position, a middlegame, an opening and an
/// endgame (names as in hw/README.md).
pub const FOUR_POSITIONS: [(&str, &str); 4] = [
    (
        "218 moves",
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    ),
    (
        "middlegame",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "opening",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
];

/// A move generator with a clock and a count-only mode: what the measurement drives.
pub trait ClockedDevice: MoveGenDevice {
    /// Why a generate failed.
    type Error;
    /// Generates all legal moves, or captures only, into `out` in the device's own order;
    /// returns the clocks from the command to the done pulse.
    fn generate_stream(
        &mut self,
        captures_only: bool,
        out: &mut MoveList,
    ) -> Result<u64, Self::Error>;
    /// Count-only generate: the number of legal moves (all, or captures only) without
    /// streaming them, and the clocks from the command to the done pulse.
    fn count_moves(&mut self, captures_only: bool) -> Result<(u32, u64), Self::Error>;
    /// Device clocks since reset.
    fn clocks(&self) -> u64;
}

/// Why a measurement failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrafficError<E> {
    /// The device failed.
    Device(E),
    /// The count-only generate and the stream disagree on the number of moves.
    CountDisagrees {
        /// The position.
        fen: String,
        /// Moves the count-only generate gave.
        counted: u32,
        /// Moves streamed.
        streamed: usize,
    },
    /// Bulk counting in the offloaded subtrees and the node-by-node walk disagree.
    LeavesDisagree {
        /// The position.
        fen: String,
        /// Leaves with the offloaded subtrees.
        bulk: u64,
        /// Leaves of the walk.
        walk: u64,
    },
}

impl<E> From<E> for TrafficError<E> {
    fn from(e: E) -> TrafficError<E> {
        TrafficError::Device(e)
    }
}

impl<E: fmt::Display> fmt::Display for TrafficError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrafficError::Device(e) => e.fmt(f),
            TrafficError::CountDisagrees {
                fen,
                counted,
                streamed,
            } => write!(
                f,
                "{fen}: count-only mode gave {counted}, the stream {streamed}"
            ),
            TrafficError::LeavesDisagree { fen, bulk, walk } => write!(
                f,
                "{fen}: bulk counting gave {bulk} leaves, the walk {walk}"
            ),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for TrafficError<E> {}

/// One generate of each kind at a root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootGenerate {
    /// Legal moves.
    pub moves: usize,
    /// Clocks of the all-moves generate.
    pub clocks: u64,
    /// Captures (and queen promotions) of the captures-only generate.
    pub captures: usize,
    /// Clocks of the captures-only generate.
    pub capture_clocks: u64,
    /// Clocks of the count-only generate of all moves.
    pub count_clocks: u64,
}

impl RootGenerate {
    /// Legal moves streamed per clock.
    pub fn moves_per_clock(&self) -> f64 {
        self.moves as f64 / self.clocks as f64
    }
}

/// Device clocks and bus words of a perft tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Device clocks.
    pub clocks: u64,
    /// 32-bit words across the bus.
    pub words: u64,
}

/// A perft tree driven with every node over the bus (the thesis' split), and with the last
/// plies offloaded as one command each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeTraffic {
    /// Interior nodes (one generate each) and leaves.
    pub nodes: u64,
    /// Every node over the bus.
    pub per_node: Cost,
    /// The last plies offloaded.
    pub offloaded: Cost,
}

impl TreeTraffic {
    /// Bus words per node with every node over the bus.
    pub fn words_per_node(&self) -> f64 {
        self.per_node.words as f64 / self.nodes as f64
    }

    /// How many times fewer words the offloaded tree moves.
    pub fn word_reduction(&self) -> f64 {
        self.per_node.words as f64 / self.offloaded.words.max(1) as f64
    }
}

/// The bus and device clock the traffic is priced on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bus {
    /// Device clock in MHz.
    pub mhz: f64,
    /// Nanoseconds per 32-bit word on the bus.
    pub ns_per_word: f64,
}

impl Bus {
    /// Milliseconds of device clocks and bus words, the one after the other.
    pub fn ms(&self, cost: Cost) -> f64 {
        cost.clocks as f64 / (self.mhz * 1e3) + cost.words as f64 * self.ns_per_word / 1e6
    }
}

/// The boards of [`FOUR_POSITIONS`] with their names.
fn four_boards() -> impl Iterator<Item = (&'static str, Board)> {
    FOUR_POSITIONS.iter().map(|&(name, fen)| {
        // The FENs are constants, parsed by a test.
        let board = Board::from_fen(fen).expect("FOUR_POSITIONS FEN");
        (name, board)
    })
}

/// One all-moves, one captures-only and one count-only generate at `board`'s root, on a fresh
/// device.
pub fn root_generate<D: ClockedDevice>(
    new_device: impl FnOnce(&Board) -> Result<D, D::Error>,
    board: &Board,
) -> Result<RootGenerate, TrafficError<D::Error>> {
    let mut dev = new_device(board)?;
    let (mut all, mut caps) = (MoveList::new(), MoveList::new());
    let clocks = dev.generate_stream(false, &mut all)?;
    let capture_clocks = dev.generate_stream(true, &mut caps)?;
    let (counted, count_clocks) = dev.count_moves(false)?;
    if counted as usize != all.len() {
        return Err(TrafficError::CountDisagrees {
            fen: board.to_fen(),
            counted,
            streamed: all.len(),
        });
    }
    Ok(RootGenerate {
        moves: all.len(),
        clocks,
        captures: caps.len(),
        capture_clocks,
        count_clocks,
    })
}

/// [`root_generate`] at each of [`FOUR_POSITIONS`].
pub fn root_generates<D: ClockedDevice>(
    mut new_device: impl FnMut(&Board) -> Result<D, D::Error>,
) -> Result<Vec<(&'static str, RootGenerate)>, TrafficError<D::Error>> {
    four_boards()
        .map(|(name, board)| Ok((name, root_generate(&mut new_device, &board)?)))
        .collect()
}

/// The perft tree of `board` to `depth`, on two fresh devices: once with the host driving each
/// make, generate and unmake over the bus; once with every subtree of `offload` remaining
/// plies as one device command ([`SUBTREE_WORDS`]), inside which the device sequences make,
/// generate and unmake itself at the same clocks (that on-chip sequencer is modelled, not
/// built) and counts the last ply with the count-only generate.
pub fn tree<D: ClockedDevice>(
    mut new_device: impl FnMut(&Board) -> Result<D, D::Error>,
    board: &Board,
    depth: u32,
    offload: u32,
) -> Result<TreeTraffic, TrafficError<D::Error>> {
    let mut per_node = Walk::default();
    let clocks = per_node.clocked(&mut new_device(board)?, depth)?;
    let mut off = Walk {
        offload,
        bulk: true,
        ..Walk::default()
    };
    let off_clocks = off.clocked(&mut new_device(board)?, depth)?;
    if off.leaves != per_node.leaves {
        return Err(TrafficError::LeavesDisagree {
            fen: board.to_fen(),
            bulk: off.leaves,
            walk: per_node.leaves,
        });
    }
    Ok(TreeTraffic {
        nodes: per_node.generates + per_node.leaves,
        per_node: Cost {
            clocks,
            words: per_node.words,
        },
        offloaded: Cost {
            clocks: off_clocks,
            words: off.words,
        },
    })
}

/// [`tree`] at each of [`FOUR_POSITIONS`].
pub fn trees<D: ClockedDevice>(
    mut new_device: impl FnMut(&Board) -> Result<D, D::Error>,
    depth: u32,
    offload: u32,
) -> Result<Vec<(&'static str, TreeTraffic)>, TrafficError<D::Error>> {
    four_boards()
        .map(|(name, board)| Ok((name, tree(&mut new_device, &board, depth, offload)?)))
        .collect()
}

/// Counts of a perft walk over the bus.
#[derive(Default, Debug, Clone, Copy)]
struct Walk {
    /// Subtrees with this many plies left are one device command (0: none).
    offload: u32,
    /// Inside an offloaded subtree, count the last ply with the count-only generate (bulk
    /// counting) instead of generating and playing each leaf move.
    bulk: bool,
    leaves: u64,
    words: u64,
    generates: u64,
}

impl Walk {
    /// Walks `depth` plies from the device's position; returns the device clocks spent.
    fn clocked<D: ClockedDevice>(&mut self, dev: &mut D, depth: u32) -> Result<u64, D::Error> {
        let c0 = dev.clocks();
        self.visit(dev, depth, false)?;
        Ok(dev.clocks() - c0)
    }

    /// One node: `on_device` when an ancestor's subtree was offloaded.
    fn visit<D: ClockedDevice>(
        &mut self,
        dev: &mut D,
        depth: u32,
        on_device: bool,
    ) -> Result<(), D::Error> {
        if depth == 0 {
            self.leaves += 1;
            return Ok(());
        }
        let inside = on_device || depth <= self.offload;
        if inside && !on_device {
            self.words += SUBTREE_WORDS;
        }
        if inside && self.bulk && depth == 1 {
            let (n, _) = dev.count_moves(false)?;
            self.generates += 1;
            self.leaves += n as u64;
            return Ok(());
        }
        let mut list = MoveList::new();
        dev.generate_stream(false, &mut list)?;
        self.generates += 1;
        if !inside {
            // The generate, then a make and an unmake per child.
            let n = list.len() as u64;
            self.words += generate_words(n) + 2 * MOVE_WORDS * n;
        }
        for &m in list.iter() {
            dev.make(m);
            self.visit(dev, depth - 1, inside)?;
            dev.unmake();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::{GenMode, Move, Position};
    use device::SoftwareDevice;
    use std::convert::Infallible;

    /// The software generator with a clock that never ticks.
    struct Unclocked(SoftwareDevice);

    impl MoveGenDevice for Unclocked {
        fn load(&mut self, board: &Board) {
            self.0.load(board)
        }
        fn make(&mut self, m: Move) {
            self.0.make(m)
        }
        fn make_null(&mut self) {
            self.0.make_null()
        }
        fn unmake(&mut self) {
            self.0.unmake()
        }
        fn generate(&mut self, mode: GenMode, out: &mut MoveList) {
            self.0.generate(mode, out)
        }
        fn in_check(&self) -> bool {
            self.0.in_check()
        }
        fn position(&self) -> &Position {
            self.0.position()
        }
        fn name(&self) -> &'static str {
            "unclocked"
        }
    }

    impl ClockedDevice for Unclocked {
        type Error = Infallible;
        fn generate_stream(
            &mut self,
            captures_only: bool,
            out: &mut MoveList,
        ) -> Result<u64, Infallible> {
            let mode = if captures_only {
                GenMode::Captures
            } else {
                GenMode::All
            };
            self.0.generate(mode, out);
            Ok(0)
        }
        fn count_moves(&mut self, captures_only: bool) -> Result<(u32, u64), Infallible> {
            let mut out = MoveList::new();
            self.generate_stream(captures_only, &mut out)?;
            Ok((out.len() as u32, 0))
        }
        fn clocks(&self) -> u64 {
            0
        }
    }

    fn unclocked(b: &Board) -> Result<Unclocked, Infallible> {
        Ok(Unclocked(SoftwareDevice::new(b)))
    }

    #[test]
    fn the_four_positions_parse() {
        assert_eq!(four_boards().count(), 4);
        let roots = root_generates(unclocked).unwrap();
        assert_eq!((roots[0].0, roots[0].1.moves), ("218 moves", 218));
    }

    #[test]
    fn tree_words_follow_the_command_costs() {
        let start = Board::startpos();
        // Two plies over the bus: the root's generate (20 moves), 20 makes and unmakes, and
        // the same again below each of the 20 children (20 moves each).
        let per_ply = generate_words(20) + 2 * 20;
        let t = tree(unclocked, &start, 2, 1).unwrap();
        assert_eq!(t.nodes, 1 + 20 + 400);
        assert_eq!(t.per_node.words, per_ply + 20 * per_ply);
        // Offloading the last ply: the root's ply over the bus, then one command per child.
        assert_eq!(t.offloaded.words, per_ply + 20 * SUBTREE_WORDS);
        // Offloading the whole tree: one command.
        assert_eq!(
            tree(unclocked, &start, 2, 2).unwrap().offloaded.words,
            SUBTREE_WORDS
        );
    }
}

//! A net file of either kind: the software NNUE (`ESTNNUE1` / `ESTNNUH1`) or a chip net
//! (`ESTCHIP1`), told apart by their first bytes. What the front ends load when a user names a
//! net file (`nnue check`, and in time `EvalFile` and `bench --net`).

use crate::chip::{ChipNet, ChipNetError};
use crate::nnue::{NetError, Network, HIDDEN};
use chess::Board;
use std::fmt;
use std::sync::Arc;

/// A loaded network of either kind.
#[derive(Clone, Debug)]
pub enum Net {
    /// The software NNUE (`768 -> HIDDEN x2 -> 1`, SCReLU).
    Nnue(Arc<Network>),
    /// A chip net, the evaluation unit's.
    Chip(Arc<ChipNet>),
}

/// Why a net file could not be read: the reader of the kind its header names says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetFileError {
    /// The file could not be read (the message names it).
    Io(String),
    /// A software net file is broken.
    Nnue(NetError),
    /// A chip net file is broken.
    Chip(ChipNetError),
}

impl fmt::Display for NetFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetFileError::Io(e) => f.write_str(e),
            NetFileError::Nnue(e) => write!(f, "{e}"),
            NetFileError::Chip(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for NetFileError {}

impl Net {
    /// Reads a net file's bytes, of whichever kind their header says.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetFileError> {
        if ChipNet::is_chip_file(bytes) {
            let n = ChipNet::from_bytes(bytes).map_err(NetFileError::Chip)?;
            Ok(Net::Chip(Arc::new(n)))
        } else {
            let n = Network::from_bytes(bytes).map_err(NetFileError::Nnue)?;
            Ok(Net::Nnue(Arc::from(n)))
        }
    }

    /// Reads a net file (an unreadable file's error names the path).
    pub fn load(path: &str) -> Result<Net, NetFileError> {
        let bytes = std::fs::read(path).map_err(|e| NetFileError::Io(format!("{path}: {e}")))?;
        Net::from_bytes(&bytes)
    }

    /// The net learns a correction to the hand-crafted evaluation.
    pub fn is_hybrid(&self) -> bool {
        match self {
            Net::Nnue(n) => n.is_hybrid(),
            Net::Chip(n) => n.hybrid,
        }
    }

    /// Score in centipawns for the side to move from scratch (a hybrid net's correction plus
    /// the hand-crafted evaluation).
    pub fn evaluate_board(&self, b: &Board) -> i32 {
        match self {
            Net::Nnue(n) => n.evaluate_board(b),
            Net::Chip(n) => n.evaluate_board(b),
        }
    }
}

impl fmt::Display for Net {
    /// The shape and kind, e.g. `chip net 768 -> 64 (x2) -> 8 -> 16 -> 1, hybrid`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Net::Nnue(_) => write!(f, "768 -> {HIDDEN} x2 -> 1")?,
            Net::Chip(n) => write!(f, "chip net {}", n.arch)?,
        }
        if self.is_hybrid() {
            write!(f, ", hybrid (a correction to the hand-crafted evaluation)")
        } else {
            write!(f, ", stand-alone")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chip::Arch;

    #[test]
    fn either_kind_loads_by_its_header_and_broken_files_say_which_reader_failed() {
        let chip = ChipNet::random(Arch::estuary(), 3);
        let bytes = chip.to_bytes();
        let net = Net::from_bytes(&bytes).unwrap();
        assert!(matches!(&net, Net::Chip(n) if **n == chip));
        let b = Board::startpos();
        assert_eq!(net.evaluate_board(&b), chip.evaluate_board(&b));
        assert!(net.to_string().starts_with("chip net 768 -> 128 (x2)"));
        assert!(matches!(
            Net::from_bytes(&bytes[..100]),
            Err(NetFileError::Chip(ChipNetError::Truncated { .. }))
        ));

        let nnue = Network::embedded();
        let net = Net::from_bytes(&nnue.to_bytes()).unwrap();
        assert!(matches!(&net, Net::Nnue(_)));
        assert_eq!(net.evaluate_board(&b), nnue.evaluate_board(&b));
        assert!(matches!(
            Net::from_bytes(b"ESTNNUE"),
            Err(NetFileError::Nnue(_))
        ));
    }
}

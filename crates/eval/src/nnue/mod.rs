//! NNUE: an efficiently updatable neural evaluation trained on Estuary's own games.
//!
//! The network is a perspective net `768 -> HIDDEN (x2) -> 1`. Each side has an accumulator
//! of `HIDDEN` sums: the first-layer bias plus one weight row per piece on the board, the
//! piece described from that side's point of view (own or enemy, kind, square with the ranks
//! flipped for Black). The output concatenates the side to move's accumulator and the other
//! one, applies SCReLU (`clamp(x, 0, 1)^2`) and a dot product with the output weights.
//!
//! Quantised inference: first-layer weights and biases are `i16` in units of `1/QA`, output
//! weights `i16` in units of `1/QB`; `evaluate` is exact integer arithmetic, and the AVX2
//! kernels (`simd`) give bit-for-bit the results of the scalar ones.
//!
//! A *hybrid* net is trained on the residual: its output is added to the hand-crafted
//! evaluation (with little data, learning corrections beats learning chess from nothing).
//!
//! Net file (little endian): the 8 bytes `ESTNNUE1` (a net on its own) or `ESTNNUH1` (a
//! hybrid net), `u32` inputs (768), `u32` hidden size,
//! then `i16` first-layer weights feature by feature (`768 x HIDDEN`), `i16` first-layer
//! biases (`HIDDEN`), `i16` output weights (`HIDDEN` for the side to move, then `HIDDEN` for
//! the other side) and an `i32` output bias in units of `1/(QA*QB)`.

mod accumulator;
pub mod data;
pub mod float;
mod simd;
pub mod train;

pub use accumulator::{Accumulator, Change, PieceBoards, MAX_CHANGES};
pub use float::FloatNet;

use chess::{Board, Color, PieceKind, Square};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Input features: 2 colours (own, enemy) x 6 kinds x 64 squares.
pub const INPUTS: usize = 768;
/// Accumulator width per perspective.
pub const HIDDEN: usize = 128;
/// First-layer quantisation: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Output-weight quantisation: 1.0 is `QB`.
pub const QB: i32 = 64;
/// Network output 1.0 is this many centipawns.
pub const SCALE: i32 = 400;
/// Float weights are clipped to this range so the quantised ones fit their integer types.
pub const WEIGHT_CLIP: f32 = 1.98;

const MAGIC: &[u8; 8] = b"ESTNNUE1";
const MAGIC_HYBRID: &[u8; 8] = b"ESTNNUH1";
/// Size in bytes of a net file for this build's `HIDDEN`.
pub const FILE_BYTES: usize = 16 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// The network Estuary ships, trained by `estuary nnue train` on `estuary datagen` games.
static EMBEDDED: &[u8] = include_bytes!("../../nets/estuary.nnue");

/// Feature index of a piece of colour `pc` and kind `kind` on `sq`, seen from `persp`.
#[inline(always)]
pub fn feature(persp: Color, pc: Color, kind: PieceKind, sq: Square) -> usize {
    let s = if persp == Color::White {
        sq.index()
    } else {
        sq.index() ^ 56
    };
    (pc != persp) as usize * 384 + kind.index() * 64 + s
}

/// Why a net file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// Fewer bytes than the header.
    TooShort(usize),
    /// The file does not start with `ESTNNUE1`.
    BadMagic,
    /// The header's shape is not this build's `768 -> HIDDEN`.
    Shape {
        /// Inputs in the file.
        inputs: u32,
        /// Hidden size in the file.
        hidden: u32,
    },
    /// The size does not match the header's shape.
    Length {
        /// Bytes the shape needs.
        expected: usize,
        /// Bytes present.
        got: usize,
    },
    /// A file could not be read.
    Io(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::TooShort(n) => write!(f, "net file too short: {n} bytes, the header is 16"),
            NetError::BadMagic => {
                write!(
                    f,
                    "not an Estuary net file (no ESTNNUE1 or ESTNNUH1 header)"
                )
            }
            NetError::Shape { inputs, hidden } => write!(
                f,
                "net shape {inputs} -> {hidden}, this build reads {INPUTS} -> {HIDDEN}"
            ),
            NetError::Length { expected, got } => {
                write!(f, "net file has {got} bytes, its shape needs {expected}")
            }
            NetError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for NetError {}

/// Quantised network weights, laid out for the SIMD kernels.
#[repr(C, align(64))]
#[derive(Clone)]
pub struct Network {
    pub(crate) w1: [[i16; HIDDEN]; INPUTS],
    pub(crate) b1: [i16; HIDDEN],
    /// Output weights: `[0]` for the side to move's accumulator, `[1]` for the other.
    pub(crate) w2: [[i16; HIDDEN]; 2],
    pub(crate) b2: i32,
    pub(crate) avx2: bool,
    /// The output is added to the hand-crafted evaluation.
    pub(crate) hybrid: bool,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network(768 -> {HIDDEN} x2 -> 1, avx2 {})", self.avx2)
    }
}

impl Network {
    pub(crate) fn zeroed() -> Box<Network> {
        // Built field by field on the heap side of a Box (the weights are ~200 KB).
        let mut n = Box::new(Network {
            w1: [[0; HIDDEN]; INPUTS],
            b1: [0; HIDDEN],
            w2: [[0; HIDDEN]; 2],
            b2: 0,
            avx2: false,
            hybrid: false,
        });
        n.avx2 = simd::avx2_available();
        n
    }

    /// Reads a net file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Box<Network>, NetError> {
        if bytes.len() < 16 {
            return Err(NetError::TooShort(bytes.len()));
        }
        let hybrid = match &bytes[..8] {
            m if m == MAGIC => false,
            m if m == MAGIC_HYBRID => true,
            _ => return Err(NetError::BadMagic),
        };
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let (inputs, hidden) = (u32_at(8), u32_at(12));
        if inputs as usize != INPUTS || hidden as usize != HIDDEN {
            return Err(NetError::Shape { inputs, hidden });
        }
        if bytes.len() != FILE_BYTES {
            return Err(NetError::Length {
                expected: FILE_BYTES,
                got: bytes.len(),
            });
        }
        let mut vals = bytes[16..FILE_BYTES - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut net = Network::zeroed();
        // The length check above guarantees every `next` below has a value.
        let mut next = || vals.next().unwrap_or(0);
        for row in net.w1.iter_mut() {
            row.iter_mut().for_each(|w| *w = next());
        }
        net.b1.iter_mut().for_each(|w| *w = next());
        for row in net.w2.iter_mut() {
            row.iter_mut().for_each(|w| *w = next());
        }
        net.b2 = u32_at(FILE_BYTES - 4) as i32;
        net.hybrid = hybrid;
        Ok(net)
    }

    /// Reads a net file.
    pub fn load(path: &str) -> Result<Box<Network>, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io(format!("{path}: {e}")))?;
        Network::from_bytes(&bytes)
    }

    /// The net file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(if self.hybrid { MAGIC_HYBRID } else { MAGIC });
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let rows = self
            .w1
            .iter()
            .chain(std::iter::once(&self.b1))
            .chain(self.w2.iter());
        for row in rows {
            for w in row {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// The built-in network (parsed once).
    pub fn embedded() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| {
            Arc::from(Network::from_bytes(EMBEDDED).expect("the embedded net file is valid"))
        })
        .clone()
    }

    /// Turns the AVX2 kernels off (tests compare them with the scalar ones).
    pub fn set_avx2(&mut self, on: bool) {
        self.avx2 = on && simd::avx2_available();
    }

    /// True for a hybrid net: [`Network::evaluate`] is a correction to add to the
    /// hand-crafted evaluation.
    pub fn is_hybrid(&self) -> bool {
        self.hybrid
    }

    /// True when the AVX2 kernels are in use.
    pub fn uses_avx2(&self) -> bool {
        self.avx2
    }

    /// The network's output in centipawns for the side to move, from up-to-date accumulators
    /// (for a hybrid net, the correction to the hand-crafted evaluation).
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color) -> i32 {
        let us = &acc.v[stm.index()];
        let them = &acc.v[stm.flip().index()];
        let sum = simd::screlu_dot(us, &self.w2[0], self.avx2).wrapping_add(simd::screlu_dot(
            them,
            &self.w2[1],
            self.avx2,
        ));
        let out = sum / QA + self.b2;
        out * SCALE / (QA * QB)
    }

    /// Score in centipawns for the side to move, computed from scratch (a hybrid net's
    /// correction plus the hand-crafted evaluation).
    pub fn evaluate_board(&self, b: &Board) -> i32 {
        let mut acc = Accumulator::default();
        acc.refresh(self, b);
        let net = self.evaluate(&acc, b.side_to_move());
        if self.hybrid {
            net + crate::evaluate(b)
        } else {
            net
        }
    }
}

#[cfg(test)]
mod tests;

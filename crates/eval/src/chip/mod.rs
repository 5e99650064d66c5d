//! The chip net: the evaluation the hardware's evaluation unit carries, and its integer
//! inference, the reference the RTL is co-simulated against bit for bit.
//!
//! A sparse first layer `768 -> H` (per perspective) kept incrementally in `i16` accumulators,
//! as in the software NNUE, then small `int8` dense layers with clipped-ReLU activations:
//!
//! - the input of the first dense layer is `clamp(acc, 0, 127)`, the side to move's lanes then
//!   the other side's (a one-perspective net: White's lanes, its output negated for Black);
//! - a hidden dense layer computes `s = b + W x` in `i32` and passes on `clamp(s >> 6, 0, 127)`;
//! - the output layer's single sum becomes centipawns as `(s * 25) >> 9`.
//!
//! The shapes are [`Arch::estuary`] (ours) and [`Arch::onechan`] (the ONe-ChAn seed's MLP); the
//! file format and the quantisation scales are in docs/evalunit.md.

pub mod float;
pub mod simd;
pub mod train;

pub use float::ChipFloat;

use crate::nnue::{feature, PieceBoards};
use chess::{Board, Color, PieceKind};
use std::fmt;

/// Input features (2 colours x 6 kinds x 64 squares).
pub const INPUTS: usize = 768;
/// The widest accumulator (lanes per perspective) and dense layer this build reads.
pub const MAX_WIDTH: usize = 128;
/// The widest accumulator whose first layer may use `i16` weights ([`Arch::first_layer_i8`]).
pub const I16_MAX_LANES: usize = 64;
/// The most dense layers a net may have.
pub const MAX_LAYERS: usize = 8;
/// Activations are clipped to `0..=ACT_MAX` (1.0).
pub const ACT_MAX: i32 = 127;
/// A hidden layer's sum is shifted right by this much (its weights are in units of 1/64).
pub const HIDDEN_SHIFT: u32 = 6;
/// The output sum times `OUT_MUL`, shifted right by `OUT_SHIFT`, is centipawns.
pub const OUT_MUL: i64 = 25;
/// See [`OUT_MUL`].
pub const OUT_SHIFT: u32 = 9;

const MAGIC: &[u8; 8] = b"ESTCHIP1";

/// The chip net Estuary ships (the evaluation unit's default net and its RAM images in
/// hw/evalunit/gen), trained by `estuary nnue train --arch chip` on `estuary datagen` games.
static EMBEDDED: &[u8] = include_bytes!("../../nets/chip.nnue");
static EMBEDDED_PURE: &[u8] = include_bytes!("../../nets/chip-pure.nnue");
const FLAG_HYBRID: u32 = 1;

/// A built-in net, parsed on first use into `cell` (the bytes are checked by the tests).
fn parsed_once(
    cell: &'static std::sync::OnceLock<std::sync::Arc<ChipNet>>,
    bytes: &[u8],
) -> std::sync::Arc<ChipNet> {
    cell.get_or_init(|| {
        std::sync::Arc::new(ChipNet::from_bytes(bytes).expect("a built-in chip net is valid"))
    })
    .clone()
}
const FLAG_ONE_PERSPECTIVE: u32 = 2;

/// The shape of a chip net.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arch {
    /// 2: both sides' accumulators, side to move first; 1: White's view only.
    pub perspectives: usize,
    /// Accumulator lanes per perspective (`H`).
    pub lanes: usize,
    /// Output widths of the dense layers; the last is 1.
    pub layers: Vec<usize>,
}

impl Arch {
    /// Estuary's chip net, the one the evaluation unit carries: `768 -> 128 (x2) -> 8 -> 16 ->
    /// 1`, its first layer in `i8` (see [`Arch::first_layer_i8`]; 1,024 feature-RAM bits a
    /// row).
    pub fn estuary() -> Arch {
        Arch {
            perspectives: 2,
            lanes: 128,
            layers: vec![8, 16, 1],
        }
    }

    /// The narrow chip net: `768 -> 64 (x2) -> 8 -> 16 -> 1` with an `i16` first layer (the
    /// unit's net before its accumulators were widened; software only now: the unit's
    /// feature rows are `i8`).
    pub fn estuary_narrow() -> Arch {
        Arch {
            perspectives: 2,
            lanes: 64,
            layers: vec![8, 16, 1],
        }
    }

    /// Whether the first layer's weights and biases are kept within `i8` (the trainer clips
    /// them so): a one-perspective net's (ONe-ChAn's 8-bit weights), and a net wider than
    /// [`I16_MAX_LANES`] (the evaluation unit's feature rows are 128 lanes of `i8`; only such
    /// nets run on it).
    pub fn first_layer_i8(&self) -> bool {
        self.perspectives == 1 || self.lanes > I16_MAX_LANES
    }

    /// ONe-ChAn's MLP: a one-hot board (White's view) `-> 64 -> 64 -> 64 -> 64 -> 1`.
    pub fn onechan() -> Arch {
        Arch {
            perspectives: 1,
            lanes: 64,
            layers: vec![64, 64, 64, 1],
        }
    }

    /// Inputs of dense layer `l`.
    pub fn dense_inputs(&self, l: usize) -> usize {
        if l == 0 {
            self.perspectives * self.lanes
        } else {
            self.layers[l - 1]
        }
    }

    /// Why the shape cannot be run, if it cannot.
    pub fn check(&self) -> Result<(), ChipNetError> {
        let bad = |what: String| Err(ChipNetError::Shape(what));
        if !(1..=2).contains(&self.perspectives) {
            return bad(format!("{} perspectives (1 or 2)", self.perspectives));
        }
        if !(1..=MAX_WIDTH).contains(&self.lanes) {
            return bad(format!("{} lanes (1 to {MAX_WIDTH})", self.lanes));
        }
        if self.layers.is_empty() || self.layers.len() > MAX_LAYERS {
            return bad(format!(
                "{} dense layers (1 to {MAX_LAYERS})",
                self.layers.len()
            ));
        }
        if let Some(w) = self.layers.iter().find(|&&w| !(1..=MAX_WIDTH).contains(&w)) {
            return bad(format!("a dense layer {w} wide (1 to {MAX_WIDTH})"));
        }
        if self.layers.last() != Some(&1) {
            return bad("a last layer with more than one output".into());
        }
        Ok(())
    }
}

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{INPUTS} -> {}", self.lanes)?;
        if self.perspectives == 2 {
            write!(f, " (x2)")?;
        }
        for w in &self.layers {
            write!(f, " -> {w}")?;
        }
        Ok(())
    }
}

/// Why a chip net file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChipNetError {
    /// The file does not start with `ESTCHIP1`.
    BadMagic,
    /// The file ends inside its header or its weights.
    Truncated {
        /// Bytes the header says the file has (or at least the header's).
        expected: usize,
        /// Bytes present.
        got: usize,
    },
    /// Bytes after the last weight.
    TrailingBytes(usize),
    /// The header describes a shape this build cannot run.
    Shape(String),
    /// A file could not be read.
    Io(String),
}

impl fmt::Display for ChipNetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChipNetError::BadMagic => write!(f, "not a chip net file (no ESTCHIP1 header)"),
            ChipNetError::Truncated { expected, got } => {
                write!(
                    f,
                    "chip net file has {got} bytes, its header needs {expected}"
                )
            }
            ChipNetError::TrailingBytes(n) => {
                write!(f, "chip net file has {n} bytes after its last weight")
            }
            ChipNetError::Shape(s) => write!(f, "chip net shape not supported: {s}"),
            ChipNetError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ChipNetError {}

/// One dense layer: `outputs x inputs` weights (row-major) and `outputs` biases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dense {
    /// Inputs.
    pub inputs: usize,
    /// Outputs.
    pub outputs: usize,
    /// `weights[j * inputs + i]`: output `j`'s weight of input `i`, units of 1/64 (the output
    /// layer's: 127/8192).
    pub weights: Vec<i8>,
    /// Biases in units of 1/(127 x 64) (the output layer's: 1/8192).
    pub bias: Vec<i32>,
}

/// A quantised chip net.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChipNet {
    /// Its shape.
    pub arch: Arch,
    /// The output is a correction added to the hand-crafted evaluation.
    pub hybrid: bool,
    /// First-layer weights, feature-major: `ft[f * lanes + i]`, units of 1/127.
    pub ft: Vec<i16>,
    /// First-layer biases.
    pub ft_bias: Vec<i16>,
    /// The dense layers, first to last.
    pub dense: Vec<Dense>,
}

/// The first layer's sums of a position: `v[p][..lanes]` for perspective `p` (a
/// one-perspective net uses `v[0]`, White's view). Fixed size, so a stack of them is one
/// allocation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ChipAcc {
    /// The lanes of each perspective (indexed by `Color::index`).
    pub v: [[i16; MAX_WIDTH]; 2],
}

impl Default for ChipAcc {
    fn default() -> Self {
        ChipAcc {
            v: [[0; MAX_WIDTH]; 2],
        }
    }
}

impl ChipNet {
    /// A net of shape `arch` with every weight and bias zero.
    pub fn zeroed(arch: Arch, hybrid: bool) -> ChipNet {
        let dense = (0..arch.layers.len())
            .map(|l| {
                let (inputs, outputs) = (arch.dense_inputs(l), arch.layers[l]);
                Dense {
                    inputs,
                    outputs,
                    weights: vec![0; inputs * outputs],
                    bias: vec![0; outputs],
                }
            })
            .collect();
        ChipNet {
            ft: vec![0; INPUTS * arch.lanes],
            ft_bias: vec![0; arch.lanes],
            dense,
            hybrid,
            arch,
        }
    }

    /// A net of shape `arch` with random weights from `seed`, of the magnitudes a trained net
    /// has (activations neither all clipped nor all zero): for tests and test benches.
    pub fn random(arch: Arch, seed: u64) -> ChipNet {
        let mut rng = chess::rng::Rng::new(seed);
        let mut int = |lo: i32, hi: i32| lo + rng.below((hi - lo + 1) as usize) as i32;
        let mut net = ChipNet::zeroed(arch, false);
        net.ft.iter_mut().for_each(|w| *w = int(-20, 20) as i16);
        net.ft_bias.iter_mut().for_each(|w| *w = int(0, 60) as i16);
        for d in &mut net.dense {
            // Narrower weights for a wide input, so that its sums do not all saturate.
            let span = (127 * 128 / d.inputs.max(1)).min(127) as i32;
            d.weights
                .iter_mut()
                .for_each(|w| *w = int(-span, span) as i8);
            d.bias.iter_mut().for_each(|b| *b = int(-4000, 4000));
        }
        net
    }

    /// Size in bytes of the net file of shape `arch`.
    pub fn file_bytes(arch: &Arch) -> usize {
        let dense: usize = (0..arch.layers.len())
            .map(|l| arch.layers[l] * (arch.dense_inputs(l) + 4))
            .sum();
        8 + 16 + 4 * arch.layers.len() + 2 * (INPUTS + 1) * arch.lanes + dense
    }

    /// Reads a net file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<ChipNet, ChipNetError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(ChipNetError::BadMagic);
        }
        let truncated = |expected: usize| ChipNetError::Truncated {
            expected,
            got: bytes.len(),
        };
        let u32_at = |i: usize| -> Result<u32, ChipNetError> {
            bytes
                .get(i..i + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .ok_or(truncated(i + 4))
        };
        let flags = u32_at(8)?;
        let inputs = u32_at(12)? as usize;
        if inputs != INPUTS {
            return Err(ChipNetError::Shape(format!("{inputs} inputs ({INPUTS})")));
        }
        if flags & !(FLAG_HYBRID | FLAG_ONE_PERSPECTIVE) != 0 {
            return Err(ChipNetError::Shape(format!("unknown flags {flags:#x}")));
        }
        let lanes = u32_at(16)? as usize;
        let nlayers = u32_at(20)? as usize;
        if nlayers == 0 || nlayers > MAX_LAYERS {
            return Err(ChipNetError::Shape(format!(
                "{nlayers} dense layers (1 to {MAX_LAYERS})"
            )));
        }
        let layers = (0..nlayers)
            .map(|l| u32_at(24 + 4 * l).map(|w| w as usize))
            .collect::<Result<Vec<_>, _>>()?;
        let arch = Arch {
            perspectives: if flags & FLAG_ONE_PERSPECTIVE != 0 {
                1
            } else {
                2
            },
            lanes,
            layers,
        };
        arch.check()?;
        let size = ChipNet::file_bytes(&arch);
        if bytes.len() < size {
            return Err(truncated(size));
        }
        if bytes.len() > size {
            return Err(ChipNetError::TrailingBytes(bytes.len() - size));
        }
        let mut net = ChipNet::zeroed(arch, flags & FLAG_HYBRID != 0);
        let mut at = 24 + 4 * nlayers;
        let i16s = |dst: &mut [i16], at: &mut usize| {
            for (d, c) in dst.iter_mut().zip(bytes[*at..].chunks_exact(2)) {
                *d = i16::from_le_bytes([c[0], c[1]]);
            }
            *at += 2 * dst.len();
        };
        i16s(&mut net.ft, &mut at);
        i16s(&mut net.ft_bias, &mut at);
        for d in &mut net.dense {
            for (w, &b) in d.weights.iter_mut().zip(&bytes[at..]) {
                *w = b as i8;
            }
            at += d.weights.len();
            for (w, c) in d.bias.iter_mut().zip(bytes[at..].chunks_exact(4)) {
                *w = i32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            }
            at += 4 * d.bias.len();
        }
        Ok(net)
    }

    /// The built-in chip net (parsed once).
    pub fn embedded() -> std::sync::Arc<ChipNet> {
        static NET: std::sync::OnceLock<std::sync::Arc<ChipNet>> = std::sync::OnceLock::new();
        parsed_once(&NET, EMBEDDED)
    }

    /// The built-in chip net without hand-crafted terms (parsed once): the search machine's,
    /// which has no hand-crafted evaluation (crates/eval/nets/chip-pure.nnue).
    pub fn embedded_pure() -> std::sync::Arc<ChipNet> {
        static NET: std::sync::OnceLock<std::sync::Arc<ChipNet>> = std::sync::OnceLock::new();
        parsed_once(&NET, EMBEDDED_PURE)
    }

    /// Reads a net file.
    pub fn load(path: &str) -> Result<ChipNet, ChipNetError> {
        let bytes = std::fs::read(path).map_err(|e| ChipNetError::Io(format!("{path}: {e}")))?;
        ChipNet::from_bytes(&bytes)
    }

    /// True when `bytes` start like a chip net file (rather than a software net's).
    pub fn is_chip_file(bytes: &[u8]) -> bool {
        bytes.len() >= 8 && &bytes[..8] == MAGIC
    }

    /// The net file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(ChipNet::file_bytes(&self.arch));
        out.extend_from_slice(MAGIC);
        let flags = if self.hybrid { FLAG_HYBRID } else { 0 }
            | if self.arch.perspectives == 1 {
                FLAG_ONE_PERSPECTIVE
            } else {
                0
            };
        for v in [
            flags,
            INPUTS as u32,
            self.arch.lanes as u32,
            self.arch.layers.len() as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for &w in &self.arch.layers {
            out.extend_from_slice(&(w as u32).to_le_bytes());
        }
        for w in self.ft.iter().chain(&self.ft_bias) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for d in &self.dense {
            out.extend(d.weights.iter().map(|&w| w as u8));
            for b in &d.bias {
                out.extend_from_slice(&b.to_le_bytes());
            }
        }
        out
    }

    /// First-layer weight row of feature `f`.
    #[inline(always)]
    pub fn row(&self, f: usize) -> &[i16] {
        &self.ft[f * self.arch.lanes..(f + 1) * self.arch.lanes]
    }

    /// The perspectives the accumulators hold: both colours, or White alone.
    #[inline(always)]
    fn perspectives(&self) -> &'static [Color] {
        if self.arch.perspectives == 2 {
            &Color::ALL
        } else {
            &[Color::White]
        }
    }

    /// Computes the accumulators of `b` from scratch.
    pub fn refresh(&self, acc: &mut ChipAcc, b: &Board) {
        let n = self.arch.lanes;
        for &persp in self.perspectives() {
            let lanes = &mut acc.v[persp.index()][..n];
            lanes.copy_from_slice(&self.ft_bias);
            for c in Color::ALL {
                for k in PieceKind::ALL {
                    for sq in b.pieces(c, k) {
                        add_row(lanes, self.row(feature(persp, c, k, sq)));
                    }
                }
            }
        }
    }

    /// Sets `child` to `parent` updated for the pieces that differ between `before` and
    /// `after` (what a move changed; nothing for a null move).
    #[inline]
    pub fn update(
        &self,
        child: &mut ChipAcc,
        parent: &ChipAcc,
        before: &PieceBoards,
        after: &PieceBoards,
    ) {
        self.update_using(child, parent, before, after, simd::avx2_available());
    }

    /// [`ChipNet::update`] with the AVX2 kernels or the scalar ones (the same bits).
    #[inline]
    pub fn update_using(
        &self,
        child: &mut ChipAcc,
        parent: &ChipAcc,
        before: &PieceBoards,
        after: &PieceBoards,
        avx2: bool,
    ) {
        let n = self.arch.lanes;
        let (subs, ns, adds, na) = before.changes(after);
        for &persp in self.perspectives() {
            let p = persp.index();
            let lanes = &mut child.v[p][..n];
            lanes.copy_from_slice(&parent.v[p][..n]);
            for &(c, k, s) in &subs[..ns] {
                simd::add_row(lanes, self.row(feature(persp, c, k, s)), true, avx2);
            }
            for &(c, k, s) in &adds[..na] {
                simd::add_row(lanes, self.row(feature(persp, c, k, s)), false, avx2);
            }
        }
    }

    /// The first dense layer's input for the side to move `stm`: clipped lanes, the side to
    /// move's then the other side's (a one-perspective net: White's). Returns its length.
    #[inline]
    pub fn input(&self, acc: &ChipAcc, stm: Color, x: &mut [u8; 2 * MAX_WIDTH]) -> usize {
        let n = self.arch.lanes;
        let order = [stm, stm.flip()];
        let persps: &[Color] = if self.arch.perspectives == 2 {
            &order
        } else {
            &[Color::White]
        };
        for (i, p) in persps.iter().enumerate() {
            for (d, &a) in x[i * n..(i + 1) * n].iter_mut().zip(&acc.v[p.index()][..n]) {
                *d = clip(a as i32);
            }
        }
        persps.len() * n
    }

    /// The output sum of the dense layers (units of 1/8192) for the side to move `stm`, and
    /// every layer's activations if `trace` is given (`trace[l]`: layer `l`'s outputs; the
    /// output layer's entry holds nothing).
    pub fn output_sum(&self, acc: &ChipAcc, stm: Color, trace: Option<&mut Vec<Vec<u8>>>) -> i32 {
        self.output_sum_using(acc, stm, trace, simd::avx2_available())
    }

    /// [`ChipNet::output_sum`] with the AVX2 kernels or the scalar ones (the same bits).
    pub fn output_sum_using(
        &self,
        acc: &ChipAcc,
        stm: Color,
        mut trace: Option<&mut Vec<Vec<u8>>>,
        avx2: bool,
    ) -> i32 {
        let mut x = [0u8; 2 * MAX_WIDTH];
        let mut y = [0u8; 2 * MAX_WIDTH];
        let mut len = self.input(acc, stm, &mut x);
        let last = self.dense.len() - 1;
        for (l, d) in self.dense.iter().enumerate() {
            debug_assert_eq!(d.inputs, len);
            if l == last {
                return simd::dot(&d.weights, &x[..len], avx2).wrapping_add(d.bias[0]);
            }
            for (j, yj) in y[..d.outputs].iter_mut().enumerate() {
                let s = simd::dot(&d.weights[j * len..(j + 1) * len], &x[..len], avx2)
                    .wrapping_add(d.bias[j]);
                *yj = clip(s >> HIDDEN_SHIFT);
            }
            if let Some(t) = trace.as_deref_mut() {
                t.push(y[..d.outputs].to_vec());
            }
            len = d.outputs;
            x[..len].copy_from_slice(&y[..len]);
        }
        unreachable!("a chip net has an output layer")
    }

    /// The network's output in centipawns for the side to move (for a hybrid net, the
    /// correction to the hand-crafted evaluation).
    #[inline]
    pub fn evaluate(&self, acc: &ChipAcc, stm: Color) -> i32 {
        self.evaluate_using(acc, stm, simd::avx2_available())
    }

    /// [`ChipNet::evaluate`] with the AVX2 kernels or the scalar ones (the same bits).
    #[inline]
    pub fn evaluate_using(&self, acc: &ChipAcc, stm: Color, avx2: bool) -> i32 {
        let cp = centipawns(self.output_sum_using(acc, stm, None, avx2));
        if self.arch.perspectives == 1 && stm == Color::Black {
            -cp
        } else {
            cp
        }
    }

    /// Score in centipawns for the side to move from scratch (a hybrid net's correction plus
    /// the hand-crafted evaluation).
    pub fn evaluate_board(&self, b: &Board) -> i32 {
        let mut acc = ChipAcc::default();
        self.refresh(&mut acc, b);
        let net = self.evaluate(&acc, b.side_to_move());
        if self.hybrid {
            net + crate::evaluate(b)
        } else {
            net
        }
    }
}

/// The output sum in centipawns: `(s * 25) >> 9`.
#[inline(always)]
pub fn centipawns(s: i32) -> i32 {
    ((s as i64 * OUT_MUL) >> OUT_SHIFT) as i32
}

/// `clamp(v, 0, 127)` as a byte.
#[inline(always)]
fn clip(v: i32) -> u8 {
    v.clamp(0, ACT_MAX) as u8
}

#[inline(always)]
fn add_row(lanes: &mut [i16], row: &[i16]) {
    simd::add_row(lanes, row, false, simd::avx2_available());
}

#[cfg(test)]
mod tests;

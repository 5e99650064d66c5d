//! The evaluation unit of `hw/evalunit/`: its fixed dimensions, and the memory image of a chip
//! net (`eval::chip`) that the host writes into it (or that `estuary hw gen` writes as the RAMs'
//! initial contents).
//!
//! The unit holds 128 accumulator lanes per perspective, built from first-layer weights and
//! biases in `i8` (a narrower net's lanes are padded with zeros), runs dense layers of up to
//! 256 inputs (the first) and 128 outputs on its 8 x 16 cell matrix, and has room for 128
//! weight words, 32 bias words and 8 layers. Layout of every word:
//! hw/evalunit/matrix_unit.v and estuary_evalunit.v.

use chess::Move;
use eval::chip::{Arch, ChipNet};
use std::fmt;

/// Accumulator lanes per perspective in the hardware.
pub const LANES: usize = 128;
/// Output rows of the matrix (outputs computed at once).
pub const ROWS: usize = 8;
/// Input columns of the matrix (inputs taken a clock).
pub const COLS: usize = 16;
/// Weight words in the weight RAM.
pub const WEIGHT_WORDS: usize = 128;
/// Bias words in the bias RAM.
pub const BIAS_WORDS: usize = 32;
/// Dense layers the configuration holds.
pub const LAYERS: usize = 8;
/// 32-bit words of a feature row (128 lanes of 8 bits).
pub const ROW_WORDS: usize = 32;
/// Feature rows: 768 features, then the biases.
pub const FEATURE_ROWS: usize = 769;
/// Slices of the feature RAM: slice `g` holds lanes `8g..8g + 7` and `64 + 8g..64 + 8g + 7`
/// (128 bits of a row), one RAM each (`fslice` in hw/evalunit/acc_unit.v).
pub const FEATURE_SLICES: usize = 8;
/// Plies the accumulator stack holds (from the loaded position; the search never goes
/// deeper than `search::MAX_PLY - 1`, 127).
pub const STACK_PLIES: usize = 128;
/// Clocks from a layer's last issue until the next layer may read its outputs: the matrix
/// unit's pipeline (RAM read, output register, products, sums of 4, row sums, accumulate,
/// requantise, buffer write; `DRAIN_CLOCKS` in hw/evalunit/matrix_unit.v).
pub const DRAIN_CLOCKS: u64 = 7;
/// The same for the output layer, whose sum is not requantised (`OUT_DRAIN_CLOCKS`).
pub const OUT_DRAIN_CLOCKS: u64 = 6;
/// Clocks a layer after the first whose inputs are one chunk (at most 16) starts earlier:
/// its first issue takes them straight from the layer before's requantisation instead of
/// the buffer, so the drain before it is `DRAIN_CLOCKS - FORWARD_CLOCKS` (`FORWARD_CLOCKS`
/// in hw/evalunit/matrix_unit.v).
pub const FORWARD_CLOCKS: u64 = 2;
/// Clocks of an EVAL beyond the matrix unit's: taking the command, dispatching it, and the
/// score's two stages (scale, then sign).
pub const EVAL_COMMAND_CLOCKS: u64 = 4;
/// Clocks the matrix unit has already run when an EVAL that follows a load, make or null move
/// is taken: the evaluation starts by itself when the accumulator unit's lanes are complete,
/// with the child's first stack word, 5 clocks before the unit is ready for the next
/// command (the last of its four words has landed).
pub const EVAL_AHEAD_CLOCKS: u64 = 5;

/// Clocks of a make beyond one a changed feature, from the command to the unit's next
/// `ready`: the command register and decode, the parent's four stack words read and loaded,
/// the child's four words written (hw/evalunit/acc_unit.v's make schedule).
pub const MAKE_BASE_CLOCKS: u64 = 13;
/// Clocks of a null move (the parent's four words copied).
pub const NULL_CLOCKS: u64 = 14;
/// Clocks of an unmake (a pointer move on the stack).
pub const UNMAKE_CLOCKS: u64 = 2;

/// The features a move changes, each one row a perspective: 2 for a quiet move or a
/// promotion push (the mover off, the mover or the promoted piece on), 3 with a capture (en
/// passant too), 4 for castling (king and rook).
pub fn feature_changes(m: Move) -> u64 {
    if m.is_castle() {
        4
    } else if m.is_capture() {
        3
    } else {
        2
    }
}

/// Clocks a fast make saves: when the unit's accumulators still hold the position the move is
/// made from (its last command was a load, make, null move or EVAL, not an unmake), the make
/// reads no parent words from the stack and its rows go in from its first steps.
pub const FAST_MAKE_SAVED_CLOCKS: u64 = 2;

/// Clocks of a make of `m`, from the command to the unit's next `ready`; `fresh`: the
/// accumulators hold the parent (a fast make). Exact: the co-simulation asserts it at every
/// make.
pub fn make_clocks(m: Move, fresh: bool) -> u64 {
    MAKE_BASE_CLOCKS + feature_changes(m) - if fresh { FAST_MAKE_SAVED_CLOCKS } else { 0 }
}

/// The goal clock for the routed unit on the LFE5U-85F, MHz.
pub const GOAL_MHZ: f64 = 100.0;

/// The unit's routed Fmax on the LFE5U-85F (nextpnr-ecp5, seed 1, with the matrix's
/// floorplan: docs/results/hw-synthesis.md), MHz. Time figures use this clock.
pub const ROUTED_FMAX_MHZ: f64 = 105.43;

/// Where `estuary hw gen` writes the unit's RAM images (relative to the repository root).
pub const GEN_DIR: &str = "hw/evalunit/gen";

/// Why a net does not fit the unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DoesNotFit(pub String);

impl fmt::Display for DoesNotFit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the net does not fit the evaluation unit: {}", self.0)
    }
}

impl std::error::Error for DoesNotFit {}

/// The contents of the unit's RAMs and configuration registers for one net.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Feature rows (768, then the biases), 32 words each, a byte a lane: byte `b` of slice
    /// `g` (bytes `16g..16g + 15` of the row) is lane `8g + b` for `b < 8`, lane
    /// `64 + 8g + b - 8` after ([`row_byte`]).
    pub features: Vec<[u32; ROW_WORDS]>,
    /// Weight words, 32 words (128 bytes) each: byte `16r + k` is cell (row `r`, column `k`).
    pub weights: Vec<[u32; 32]>,
    /// Bias words: the 8 biases of one pass.
    pub biases: Vec<[u32; ROWS]>,
    /// Configuration words: one per layer, then at index [`LAYERS`] the global word.
    pub config: [u32; LAYERS + 1],
}

/// A layer's configuration word, `{bbase[21:17], wbase[16:10], passes[9:5], chunks[4:0]}`
/// (hw/evalunit/matrix_unit.v): the field offsets, and the mask of the 5-bit counts.
const PASSES_AT: u32 = 5;
const WBASE_AT: u32 = 10;
const BBASE_AT: u32 = 17;
const COUNT_MASK: u32 = 31;
/// The global configuration word `{layers[7:4], one perspective[0]}`: the layer count's offset.
const LAYERS_AT: u32 = 4;

/// Where the first dense layer's input `i` (of `P x H`: lane `i % H` of perspective `i / H`,
/// the side to move's first) sits in the 256 bytes the matrix unit's first layer reads, 16 a
/// chunk. Chunks 0-7 hold the side to move's lanes, 8-15 the other side's; bytes `2s` and
/// `2s + 1` of every chunk come from the accumulator unit's slice `s` (lanes `8s..8s + 7` and
/// `64 + 8s..64 + 8s + 7`, [`row_byte`]), two lanes a chunk, so that each of the matrix
/// unit's eight input selects reads one slice of the accumulators
/// (hw/evalunit/matrix_unit.v, `lane_pair`).
fn input_position(arch: &Arch, i: usize) -> usize {
    let (p, lane) = (i / arch.lanes, i % arch.lanes);
    let (slice, at) = ((lane % 64) / 8, (lane / 64) * 8 + lane % 8);
    COLS * (8 * p + at / 2) + 2 * slice + at % 2
}

/// Where lane `lane` sits in a feature row (byte index): slice `g` (bytes `16g..16g + 15`)
/// holds lanes `8g..8g + 7`, then `64 + 8g..64 + 8g + 7`, beside the accumulator lanes it
/// feeds (hw/evalunit/acc_unit.v).
pub fn row_byte(lane: usize) -> usize {
    let (half, l) = (lane / 64, lane % 64);
    16 * (l / 8) + 8 * half + l % 8
}

impl Image {
    /// The image of `net`, or why it does not fit.
    pub fn of(net: &ChipNet) -> Result<Image, DoesNotFit> {
        let arch = &net.arch;
        let bad = |s: String| Err(DoesNotFit(s));
        if arch.lanes > LANES {
            return bad(format!("{} lanes, the unit has {LANES}", arch.lanes));
        }
        if arch.layers.len() > LAYERS {
            return bad(format!(
                "{} dense layers, the unit holds {LAYERS}",
                arch.layers.len()
            ));
        }
        let mut features = Vec::with_capacity(FEATURE_ROWS);
        for f in 0..FEATURE_ROWS {
            let (row, what) = if f < eval::chip::INPUTS {
                (net.row(f), "weight")
            } else {
                (&net.ft_bias[..], "bias")
            };
            let mut words = [0u32; ROW_WORDS];
            for (lane, &w) in row.iter().enumerate() {
                let Ok(b) = i8::try_from(w) else {
                    return bad(format!(
                        "first-layer {what} {w} (row {f}, lane {lane}) is not an i8: the \
                         unit's feature rows are 128 lanes of i8"
                    ));
                };
                let at = row_byte(lane);
                words[at / 4] |= (b as u8 as u32) << (8 * (at % 4));
            }
            features.push(words);
        }
        let (mut weights, mut biases) = (Vec::new(), Vec::new());
        let mut config = [0u32; LAYERS + 1];
        for (l, d) in net.dense.iter().enumerate() {
            // Positions of the inputs among the bytes the matrix unit reads.
            let span = if l == 0 {
                (0..d.inputs)
                    .map(|i| input_position(arch, i) + 1)
                    .max()
                    .unwrap_or(0)
            } else {
                d.inputs
            };
            let chunks = span.div_ceil(COLS);
            let passes = d.outputs.div_ceil(ROWS);
            config[l] = chunks as u32
                | (passes as u32) << PASSES_AT
                | (weights.len() as u32) << WBASE_AT
                | (biases.len() as u32) << BBASE_AT;
            for p in 0..passes {
                let mut bias = [0u32; ROWS];
                for (r, b) in bias.iter_mut().enumerate() {
                    if let Some(&v) = d.bias.get(p * ROWS + r) {
                        *b = v as u32;
                    }
                }
                biases.push(bias);
                for c in 0..chunks {
                    let mut bytes = [0u8; ROWS * COLS];
                    for r in 0..ROWS {
                        let j = p * ROWS + r;
                        if j >= d.outputs {
                            continue;
                        }
                        for i in 0..d.inputs {
                            let pos = if l == 0 { input_position(arch, i) } else { i };
                            if pos / COLS == c {
                                bytes[r * COLS + pos % COLS] = d.weights[j * d.inputs + i] as u8;
                            }
                        }
                    }
                    let mut word = [0u32; 32];
                    for (i, b) in bytes.iter().enumerate() {
                        word[i / 4] |= (*b as u32) << (8 * (i % 4));
                    }
                    weights.push(word);
                }
            }
        }
        if weights.len() > WEIGHT_WORDS {
            return bad(format!(
                "{} weight words, the RAM holds {WEIGHT_WORDS}",
                weights.len()
            ));
        }
        if biases.len() > BIAS_WORDS {
            return bad(format!(
                "{} bias words, the RAM holds {BIAS_WORDS}",
                biases.len()
            ));
        }
        config[LAYERS] = (arch.perspectives == 1) as u32 | (arch.layers.len() as u32) << LAYERS_AT;
        Ok(Image {
            features,
            weights,
            biases,
            config,
        })
    }

    /// Clocks of the matrix unit for one evaluation: for each layer, one issue per pass and
    /// chunk, then [`DRAIN_CLOCKS`] for the pipeline to drain ([`OUT_DRAIN_CLOCKS`] after
    /// the output layer), [`FORWARD_CLOCKS`] fewer before a layer of one chunk.
    pub fn matrix_clocks(&self) -> u64 {
        let layers = (self.config[LAYERS] >> LAYERS_AT) as usize;
        let issues: u64 = self.config[..layers]
            .iter()
            .map(|&c| ((c & COUNT_MASK) * ((c >> PASSES_AT) & COUNT_MASK)) as u64)
            .sum();
        let drains: u64 = self.config[1..layers.max(1)]
            .iter()
            .map(|&c| match c & COUNT_MASK {
                1 => DRAIN_CLOCKS - FORWARD_CLOCKS,
                _ => DRAIN_CLOCKS,
            })
            .sum();
        issues + drains + OUT_DRAIN_CLOCKS
    }

    /// Clocks of an EVAL command given as soon as the unit is ready after a load, make or
    /// null move, from the command to the result.
    pub fn eval_clocks(&self) -> u64 {
        self.matrix_clocks() + EVAL_COMMAND_CLOCKS - EVAL_AHEAD_CLOCKS
    }
}

/// A `$readmemh` line: the words of one RAM row, most significant first.
fn hex_line(words: &[u32]) -> String {
    let mut s: String = words.iter().rev().map(|w| format!("{w:08x}")).collect();
    s.push('\n');
    s
}

/// The `$readmemh` files of a RAM built in `n` slices of equal width: `NAME_S.hex` holds
/// slice `S` of every row.
fn sliced<const W: usize>(rows: &[[u32; W]], n: usize, name: &str) -> Vec<(String, String)> {
    let words = W / n;
    (0..n)
        .map(|s| {
            let text = rows
                .iter()
                .map(|r| hex_line(&r[words * s..words * (s + 1)]))
                .collect();
            (format!("{name}_{s}.hex"), text)
        })
        .collect()
}

impl Image {
    /// The `$readmemh` files of the unit's RAMs and configuration (the initial contents a
    /// bitstream carries, so the unit evaluates without a host writing the net first). Each
    /// RAM is built in slices (the feature RAM by groups of 8 lanes, the weight and bias RAMs
    /// by rows of cells), one file a slice: `features_S.hex`, `weights_R.hex`,
    /// `biases_R.hex`, then `config.hex`.
    pub fn files(&self) -> Vec<(String, String)> {
        let mut out = sliced(&self.features, FEATURE_SLICES, "features");
        out.extend(sliced(&self.weights, ROWS, "weights"));
        out.extend(sliced(&self.biases, ROWS, "biases"));
        let config = self.config.iter().map(std::slice::from_ref).map(hex_line);
        out.push(("config.hex".to_string(), config.collect()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_shapes_fit_and_their_schedules_are_as_documented() {
        let ours = Image::of(&ChipNet::random(Arch::estuary(), 1)).unwrap();
        // 256 -> 8: 1 pass x 16 chunks; 8 -> 16: 2 x 1; 16 -> 1: 1 x 1.
        assert_eq!(ours.weights.len(), 19);
        assert_eq!(ours.biases.len(), 4);
        // Layers 1 and 2 take one chunk each: both forwarded.
        assert_eq!(
            ours.matrix_clocks(),
            16 + 2 + 1 + 2 * (DRAIN_CLOCKS - FORWARD_CLOCKS) + OUT_DRAIN_CLOCKS
        );
        assert_eq!(ours.config[0], 16 | 1 << 5);
        assert_eq!(ours.config[1], 1 | 2 << 5 | 16 << 10 | 1 << 17);
        let onechan = Image::of(&ChipNet::random(Arch::onechan(), 1)).unwrap();
        // 64 -> 64 three times: 8 passes x 4 chunks; 64 -> 1: 1 x 4.
        assert_eq!(onechan.weights.len(), 3 * 32 + 4);
        assert_eq!(onechan.biases.len(), 25);
        assert_eq!(onechan.config[LAYERS], 1 | 4 << 4);
        // No layer of ONe-ChAn's takes one chunk: none forwarded.
        assert_eq!(
            onechan.matrix_clocks(),
            3 * 32 + 4 + 3 * DRAIN_CLOCKS + OUT_DRAIN_CLOCKS
        );
    }

    #[test]
    fn every_weight_lands_in_exactly_one_cell() {
        let net = ChipNet::random(Arch::estuary(), 5);
        let img = Image::of(&net).unwrap();
        let nonzero_net: usize = net
            .dense
            .iter()
            .map(|d| d.weights.iter().filter(|&&w| w != 0).count())
            .sum();
        let nonzero_img: usize = img
            .weights
            .iter()
            .flatten()
            .map(|w| w.to_le_bytes().iter().filter(|&&b| b != 0).count())
            .sum();
        assert_eq!(nonzero_net, nonzero_img);
    }

    #[test]
    fn hex_files_hold_every_row_most_significant_word_first() {
        let img = Image::of(&ChipNet::random(Arch::estuary(), 2)).unwrap();
        let files = img.files();
        let named = |n: &str| &files.iter().find(|f| f.0 == n).unwrap().1;
        // Slice 0 of the features: words 0-3 of each row, word 3 first.
        let features = named("features_0.hex");
        assert_eq!(features.lines().count(), FEATURE_ROWS);
        let first = features.lines().next().unwrap();
        assert_eq!(first.len(), 8 * ROW_WORDS / FEATURE_SLICES);
        assert_eq!(&first[24..], format!("{:08x}", img.features[0][0]));
        assert_eq!(&first[..8], format!("{:08x}", img.features[0][3]));
        // The last slice ends with the row's last word.
        let last = named("features_7.hex").lines().next().unwrap();
        assert_eq!(
            &last[..8],
            format!("{:08x}", img.features[0][ROW_WORDS - 1])
        );
        // Row r of the cells: bytes 16r..16r+15 of a weight word, its bias word r.
        let w = named("weights_1.hex").lines().next().unwrap();
        assert_eq!(&w[24..], format!("{:08x}", img.weights[0][4]));
        let b = named("biases_2.hex").lines().nth(1).unwrap();
        assert_eq!(b, format!("{:08x}", img.biases[1][2]));
        assert_eq!(files.len(), FEATURE_SLICES + 2 * ROWS + 1);
        assert_eq!(named("config.hex").lines().count(), LAYERS + 1);
    }

    #[test]
    fn committed_ram_images_equal_a_fresh_generation_from_the_search_machines_net() {
        let img = Image::of(&ChipNet::embedded_pure()).expect("the built-in pure net fits");
        crate::assert_committed(GEN_DIR, img.files());
    }

    #[test]
    fn every_lane_has_its_own_byte_beside_its_slice() {
        let mut seen = [false; 4 * ROW_WORDS];
        for lane in 0..LANES {
            let b = row_byte(lane);
            assert!(!seen[b], "lane {lane}");
            seen[b] = true;
            // The slice of a lane is the slice of its accumulators: lanes 8g..8g+7 of a half.
            assert_eq!(b / 16, (lane % 64) / 8);
        }
        let mut net = ChipNet::random(Arch::estuary(), 3);
        net.ft[77 * LANES + 70] = -128;
        let img = Image::of(&net).unwrap();
        let at = row_byte(70);
        assert_eq!((img.features[77][at / 4] >> (8 * (at % 4))) as u8, 0x80);
    }

    #[test]
    fn each_input_select_reads_one_slice_of_the_accumulators() {
        // Ours: the 256 inputs take the 256 bytes of 16 chunks, each once; ONe-ChAn's 64
        // take 4 chunks.
        for (arch, chunks) in [(Arch::estuary(), 16), (Arch::onechan(), 4)] {
            let inputs = arch.perspectives * arch.lanes;
            let mut seen = vec![false; COLS * chunks];
            for i in 0..inputs {
                let at = input_position(&arch, i);
                assert!(!seen[at], "input {i}");
                seen[at] = true;
                // Perspective p's lanes are chunks 8p.., and byte k of a chunk is read by
                // select k / 2 from slice k / 2, where the lane's accumulators are.
                let (p, lane) = (i / arch.lanes, i % arch.lanes);
                assert_eq!(at / COLS / 8, p);
                assert_eq!((at % COLS) / 2, (lane % 64) / 8, "input {i}");
            }
            assert!(seen.iter().all(|&b| b), "{} chunks", chunks);
        }
    }

    #[test]
    fn a_net_the_unit_cannot_hold_is_refused() {
        // An i16 first layer (the narrow chip net's) does not fit the unit's i8 rows.
        let mut narrow = ChipNet::random(Arch::estuary_narrow(), 1);
        assert!(Image::of(&narrow).is_ok());
        narrow.ft[5] = 200;
        let e = Image::of(&narrow).unwrap_err();
        assert!(e.to_string().contains("not an i8"), "{e}");
        let mut bias = ChipNet::random(Arch::estuary(), 1);
        bias.ft_bias[3] = -129;
        assert!(Image::of(&bias).is_err());
        let long = Arch {
            perspectives: 2,
            lanes: 128,
            layers: vec![128, 128, 128, 128, 1],
        };
        assert!(Image::of(&ChipNet::random(long, 1)).is_err());
    }
}

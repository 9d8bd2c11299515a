// ANCHOR: stage-18-nnue
//! NNUE: an evaluation by a small neural network whose first layer is
//! updated incrementally, move by move ("efficiently updatable").
//!
//! The network is `(768 → H) × 2 → 1`. Its inputs are the pieces: one
//! input for each (side, piece type, square), 2 × 6 × 64 = 768, of which
//! at most 32 are on. The first layer turns them into `H` numbers, the
//! *accumulator*, twice: once with the board as White sees it and once
//! as Black sees it (ranks flipped, "own" and "their" pieces swapped), with
//! the same weights. The side to move's half goes first, the other's
//! second, then a squared clipped ReLU and one output neuron.
//!
//! A move changes two to four inputs, so the accumulator of a child is its
//! parent's plus or minus a few rows of the first layer's weights: the same
//! idea as `eval.rs`'s accumulator of piece-square sums, with `H` sums
//! instead of two. That is what makes a network affordable at every node.
//!
//! Weights are integers (quantized): the first layer's scaled by [`QA`], the
//! output's by [`QB`], so the accumulator is `i16` and the output sum `i32`.

use std::sync::{Arc, OnceLock};

use arrayvec::ArrayVec;
use cozy_chess::{Board, Color, Piece, Square};

/// Inputs: side (own, their) × piece type × square.
pub const INPUTS: usize = 768;
/// The largest hidden layer a file may have: with it the output's sums
/// stay inside `i32` (see [`Network::evaluate`]).
pub const MAX_HIDDEN: usize = 256;
/// Scale of the first layer's weights and of the activation's range.
pub const QA: i32 = 255;
/// Scale of the output layer's weights.
pub const QB: i32 = 64;
/// The net's output is a score in units of `SCALE` centipawns: it was
/// trained against `sigmoid(score / SCALE)`.
pub const SCALE: i32 = 400;

/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"CB26NNUE";
/// The file layout's version (see [`Network::from_bytes`]).
pub const VERSION: u32 = 1;

/// The input of `piece` of `color` on `square`, as `perspective` sees the
/// board: its own pieces first, and Black looks at the board from its side
/// (rank 1 ↔ rank 8), so both halves see "their" position the same way.
pub fn feature(perspective: Color, piece: Piece, color: Color, square: Square) -> usize {
    let theirs = usize::from(color != perspective);
    let square = match perspective {
        Color::White => square as usize,
        Color::Black => square as usize ^ 56,
    };
    theirs * 384 + piece as usize * 64 + square
}

/// A quantized network, as read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// `INPUTS` rows of `hidden` weights: row `f` is what input `f` adds.
    feature_weights: Vec<i16>,
    feature_bias: Vec<i16>,
    /// `2 × hidden`: the side to move's half, then the other side's.
    output_weights: Vec<i16>,
    output_bias: i32,
}

impl Network {
    /// A network from its weights (checked for size).
    pub fn new(
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: i32,
    ) -> Result<Network, String> {
        let hidden = feature_bias.len();
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(format!(
                "the hidden layer has {hidden} neurons; 1 to {MAX_HIDDEN} are allowed"
            ));
        }
        if feature_weights.len() != INPUTS * hidden || output_weights.len() != 2 * hidden {
            return Err("the weights do not fit the hidden layer's size".to_string());
        }
        Ok(Network {
            hidden,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// Neurons in the hidden layer (`H`).
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Read a network file. Layout, little-endian throughout:
    ///
    /// | bytes | what |
    /// |---|---|
    /// | 8 | `CB26NNUE` |
    /// | 4 | version (`u32`, 1) |
    /// | 4 | `H` (`u32`) |
    /// | 8 | hash of everything after the header (`u64`, FNV-1a) |
    /// | 2 · 768 · H | first layer, row by row (`i16`) |
    /// | 2 · H | first layer's bias (`i16`) |
    /// | 2 · 2H | output weights (`i16`) |
    /// | 4 | output bias (`i32`) |
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let header = 24;
        if bytes.len() < header || &bytes[..8] != MAGIC {
            return Err("not a cb2026 network file".to_string());
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        if word(8) != VERSION {
            return Err(format!(
                "network file version {}, expected {VERSION}",
                word(8)
            ));
        }
        let hidden = word(12) as usize;
        let body = &bytes[header..];
        let expected = 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4;
        if hidden == 0 || hidden > MAX_HIDDEN || body.len() != expected {
            return Err(format!(
                "network file of {} bytes does not hold a hidden layer of {hidden}",
                bytes.len()
            ));
        }
        let hash = u64::from_le_bytes(bytes[16..24].try_into().map_err(|_| "short header")?);
        if fnv1a(body) != hash {
            return Err("network file damaged: its hash does not match".to_string());
        }
        let mut values = body
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
        let feature_weights = take(INPUTS * hidden);
        let feature_bias = take(hidden);
        let output_weights = take(2 * hidden);
        let tail = &body[body.len() - 4..];
        let output_bias = i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        Network::new(feature_weights, feature_bias, output_weights, output_bias)
    }

    /// The network as a file (the layout [`Network::from_bytes`] reads).
    pub fn to_bytes(&self) -> Vec<u8> {
        let body = self.body();
        let mut bytes = Vec::with_capacity(24 + body.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        bytes.extend_from_slice(&fnv1a(&body).to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes
    }

    /// The hash the file's header carries: it names a network.
    pub fn hash(&self) -> u64 {
        fnv1a(&self.body())
    }

    fn body(&self) -> Vec<u8> {
        let weights = self.feature_weights.iter();
        let all = weights
            .chain(&self.feature_bias)
            .chain(&self.output_weights);
        let mut body: Vec<u8> = all.flat_map(|w| w.to_le_bytes()).collect();
        body.extend_from_slice(&self.output_bias.to_le_bytes());
        body
    }

    fn row(&self, feature: usize) -> &[i16] {
        &self.feature_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    // ANCHOR: network-evaluate
    /// The score, in centipawns for the side to move, of an accumulator
    /// (`us`: the side to move's half, `them`: the other's).
    ///
    /// Each neuron's activation is `clamp(a, 0, QA)²` (the squared clipped
    /// ReLU), at most 255² = 65,025; times an output weight of at most
    /// 2 · `QB`, a term is below 2²⁴, so a half of up to 256 terms stays
    /// below 2³² / 2: each half is summed in `i32`, the two in `i64`.
    pub fn evaluate(&self, us: &[i16], them: &[i16]) -> i32 {
        let (w_us, w_them) = self.output_weights.split_at(self.hidden);
        let sum = i64::from(screlu_dot(us, w_us)) + i64::from(screlu_dot(them, w_them));
        // The sum is scaled by QA² · QB; one QA goes first so the bias
        // (scaled by QA · QB) can be added, the rest with SCALE.
        let output = sum / i64::from(QA) + i64::from(self.output_bias);
        (output * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
    // ANCHOR_END: network-evaluate

    /// The score of a position given by its active inputs (the side to
    /// move's half, the other's), summed from scratch: what the trainer
    /// compares its floating-point net with.
    pub fn evaluate_inputs(&self, us: &[u16], them: &[u16]) -> i32 {
        let half = |inputs: &[u16]| {
            let mut acc = self.feature_bias.clone();
            for &f in inputs {
                acc.iter_mut()
                    .zip(self.row(usize::from(f)))
                    .for_each(|(a, w)| *a += w);
            }
            acc
        };
        self.evaluate(&half(us), &half(them))
    }
}

/// The network built into the binary (`nets/stage-18-nnue/default.nnue`, with the record
/// of how it was made beside it), so the engine needs no file to play.
pub fn embedded() -> Arc<Network> {
    static EMBEDDED: OnceLock<Arc<Network>> = OnceLock::new();
    let network = EMBEDDED.get_or_init(|| {
        let bytes = include_bytes!("../nets/stage-18-nnue/default.nnue");
        // A test reads the same bytes, so a bad file fails the tests first.
        Arc::new(Network::from_bytes(bytes).expect("the embedded network file is valid"))
    });
    Arc::clone(network)
}

/// Read a network file (the UCI option `EvalFile`).
pub fn load(path: &str) -> Result<Arc<Network>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let network = Network::from_bytes(&bytes).map_err(|e| format!("'{path}': {e}"))?;
    Ok(Arc::new(network))
}

/// `Σ clamp(a, 0, QA)² · w`: written as a plain loop over slices so the
/// compiler turns it into vector instructions.
fn screlu_dot(values: &[i16], weights: &[i16]) -> i32 {
    values
        .iter()
        .zip(weights)
        .map(|(&a, &w)| {
            // clamp(a) · w fits an i16 (255 · 127), so the product with
            // clamp(a) again is one of two i16s, as vector units like it.
            let clipped = a.clamp(0, QA as i16);
            i32::from(clipped * w) * i32::from(clipped)
        })
        .sum()
}

/// FNV-1a, 64 bits: a small, well-known hash, enough to name a file's
/// contents and notice damage (not to resist tampering).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The pieces that left a square and those that arrived between two
/// positions a move apart: at most two of each (a capture removes the
/// victim too; castling moves two pieces).
struct Changes {
    removed: ArrayVec<(Piece, Color, Square), 4>,
    added: ArrayVec<(Piece, Color, Square), 4>,
}

impl Changes {
    fn between(parent: &Board, child: &Board) -> Changes {
        let mut changes = Changes {
            removed: ArrayVec::new(),
            added: ArrayVec::new(),
        };
        // A square changed when a colour's pieces left or reached it: the
        // move's two squares, an en passant victim's, castling's rook's.
        // (In standard chess no move puts a piece where one of its own
        // colour stood, so no change hides from this.)
        let moved = |color| parent.colors(color) ^ child.colors(color);
        for square in moved(Color::White) | moved(Color::Black) {
            if let (Some(piece), Some(color)) = (parent.piece_on(square), parent.color_on(square)) {
                changes.removed.push((piece, color, square));
            }
            if let (Some(piece), Some(color)) = (child.piece_on(square), child.color_on(square)) {
                changes.added.push((piece, color, square));
            }
        }
        changes
    }
}

/// The accumulators of the current search path, one per ply, each with its
/// White half and its Black half side by side. Made once, as deep as the
/// search can go; a child's entry is written from its parent's, and going
/// back up needs no undo.
pub struct NnueStack {
    network: Arc<Network>,
    /// `plies × 2 × H` values: ply by ply, White's half then Black's.
    values: Vec<i16>,
}

impl NnueStack {
    /// A stack with room for plies `0..plies`.
    pub fn new(network: Arc<Network>, plies: usize) -> Self {
        let values = vec![0; plies * 2 * network.hidden];
        NnueStack { network, values }
    }

    /// The network the stack evaluates with.
    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    fn entry(&mut self, ply: usize) -> &mut [i16] {
        let size = 2 * self.network.hidden;
        &mut self.values[ply * size..(ply + 1) * size]
    }

    /// Start a new path at `board` (ply 0).
    pub fn reset(&mut self, board: &Board) {
        self.refresh(board, 0);
    }

    /// Write the accumulator of `board` at `ply` from scratch: the bias,
    /// plus the row of every piece on the board.
    fn refresh(&mut self, board: &Board, ply: usize) {
        let network = Arc::clone(&self.network);
        let hidden = network.hidden;
        let entry = self.entry(ply);
        for half in entry.chunks_exact_mut(hidden) {
            half.copy_from_slice(&network.feature_bias);
        }
        for square in board.occupied() {
            let (Some(piece), Some(color)) = (board.piece_on(square), board.color_on(square))
            else {
                continue;
            };
            for (perspective, half) in [Color::White, Color::Black]
                .into_iter()
                .zip(entry.chunks_exact_mut(hidden))
            {
                let row = network.row(feature(perspective, piece, color, square));
                half.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
        }
    }

    /// Write ply `ply + 1`, the position `child` reached from `parent`:
    /// the parent's accumulator, less the rows of the pieces that left a
    /// square, plus the rows of the pieces that arrived. Comparing the two
    /// boards piece by piece finds them for every kind of move (captures,
    /// en passant, castling, promotions) without a case for each.
    pub fn update(&mut self, parent: &Board, child: &Board, ply: usize) {
        let changes = Changes::between(parent, child);
        let hidden = self.network.hidden;
        let (before, after) = self.values.split_at_mut((ply + 1) * 2 * hidden);
        let source = before[ply * 2 * hidden..].chunks_exact(hidden);
        let target = after[..2 * hidden].chunks_exact_mut(hidden);
        for ((perspective, from), to) in [Color::White, Color::Black]
            .into_iter()
            .zip(source)
            .zip(target)
        {
            let row = |&(piece, color, square): &(Piece, Color, Square)| {
                self.network.row(feature(perspective, piece, color, square))
            };
            apply(to, from, &changes, row);
        }
    }

    /// Write ply `ply + 1` after a null move: the same pieces.
    pub fn update_null(&mut self, ply: usize) {
        let size = 2 * self.network.hidden;
        self.values
            .copy_within(ply * size..(ply + 1) * size, (ply + 1) * size);
    }

    /// The evaluation of the position at `ply`, for `side_to_move`.
    pub fn evaluate(&self, ply: usize, side_to_move: Color) -> i32 {
        let hidden = self.network.hidden;
        let entry = &self.values[ply * 2 * hidden..(ply + 1) * 2 * hidden];
        let (white, black) = entry.split_at(hidden);
        match side_to_move {
            Color::White => self.network.evaluate(white, black),
            Color::Black => self.network.evaluate(black, white),
        }
    }
}

/// The evaluation of `board` by `network`, for the side to move, with an
/// accumulator summed from scratch: what `cb2026 eval` prints, and what
/// the search's incremental accumulators must agree with.
pub fn from_scratch(network: &Arc<Network>, board: &Board) -> i32 {
    let mut stack = NnueStack::new(Arc::clone(network), 1);
    stack.reset(board);
    stack.evaluate(0, board.side_to_move())
}

/// `to = from − Σ removed rows + Σ added rows`. The common moves (a quiet
/// move: one row out, one in; a capture: two out, one in) get a loop of
/// their own that reads `from` and writes `to` once, which the compiler
/// turns into vector instructions; the rest (castling, a capture that
/// promotes) copy first and then add and subtract.
fn apply<'n>(
    to: &mut [i16],
    from: &[i16],
    changes: &Changes,
    row: impl Fn(&(Piece, Color, Square)) -> &'n [i16],
) {
    match (changes.removed.as_slice(), changes.added.as_slice()) {
        ([r], [a]) => {
            for (((out, f), r), a) in to.iter_mut().zip(from).zip(row(r)).zip(row(a)) {
                *out = f - r + a;
            }
        }
        ([r1, r2], [a]) => {
            let rows = from.iter().zip(row(r1)).zip(row(r2)).zip(row(a));
            for (out, (((f, r1), r2), a)) in to.iter_mut().zip(rows) {
                *out = f - r1 - r2 + a;
            }
        }
        (removed, added) => {
            to.copy_from_slice(from);
            for r in removed {
                to.iter_mut().zip(row(r)).for_each(|(x, w)| *x -= w);
            }
            for a in added {
                to.iter_mut().zip(row(a)).for_each(|(x, w)| *x += w);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{legal_moves, make_move, parse_fen};

    /// A small network with varied weights, made from a seed.
    fn network(hidden: usize) -> Arc<Network> {
        let mut state = 7u64;
        let mut next = |range: i64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            ((state >> 33) as i64 % (2 * range + 1) - range) as i16
        };
        let feature_weights = (0..INPUTS * hidden).map(|_| next(60)).collect();
        let feature_bias = (0..hidden).map(|_| next(120)).collect();
        let output_weights = (0..2 * hidden).map(|_| next(120)).collect();
        Arc::new(Network::new(feature_weights, feature_bias, output_weights, 500).unwrap())
    }

    #[test]
    fn the_embedded_network_is_a_valid_file() {
        let bytes = include_bytes!("../nets/stage-18-nnue/default.nnue");
        assert_eq!(*embedded(), Network::from_bytes(bytes).unwrap());
    }

    #[test]
    fn a_missing_file_is_an_error_that_names_it() {
        assert!(
            load("no/such/net.nnue")
                .unwrap_err()
                .contains("no/such/net.nnue")
        );
    }

    #[test]
    fn a_file_reads_back_as_the_same_network() {
        let net = network(16);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), 24 + 2 * (768 * 16 + 16 + 32) + 4);
        let read = Network::from_bytes(&bytes).unwrap();
        assert_eq!(read, *net);
        assert_eq!(read.hash(), net.hash());
    }

    #[test]
    fn a_damaged_or_foreign_file_is_refused_with_a_reason() {
        let mut bytes = network(8).to_bytes();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        assert!(Network::from_bytes(&bytes).unwrap_err().contains("hash"));
        assert!(
            Network::from_bytes(b"hello")
                .unwrap_err()
                .contains("not a cb2026")
        );
        let mut short = network(8).to_bytes();
        short.truncate(100);
        assert!(
            Network::from_bytes(&short)
                .unwrap_err()
                .contains("does not hold")
        );
    }

    #[test]
    fn black_sees_the_mirrored_position_as_white_sees_the_original() {
        let net = network(32);
        let white =
            parse_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
                .unwrap();
        let black =
            parse_fen("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4")
                .unwrap();
        assert_eq!(from_scratch(&net, &white), from_scratch(&net, &black));
    }

    /// Along random games, every incremental accumulator evaluates exactly
    /// as a fresh one does: captures, castling, en passant and promotions
    /// included (the last position has all four among its moves).
    #[test]
    fn incremental_updates_match_a_refresh_along_random_games() {
        let net = network(24);
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/1P4p1/8/2pP4/8/8/6p1/R3K2R w KQkq c6 0 2",
        ];
        let mut seed = 99u64;
        for start in starts {
            for _ in 0..20 {
                let mut board = parse_fen(start).unwrap();
                let mut stack = NnueStack::new(Arc::clone(&net), 41);
                stack.reset(&board);
                for ply in 0..40 {
                    let moves = legal_moves(&board);
                    if moves.is_empty() {
                        break;
                    }
                    seed = seed
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1442695040888963407);
                    let mv = moves[(seed >> 33) as usize % moves.len()];
                    let child = make_move(&board, mv);
                    stack.update(&board, &child, ply);
                    assert_eq!(
                        stack.evaluate(ply + 1, child.side_to_move()),
                        from_scratch(&net, &child),
                        "after {mv} in {board}"
                    );
                    board = child;
                }
            }
        }
    }

    #[test]
    fn a_null_move_keeps_the_accumulator() {
        let net = network(8);
        let board = Board::default();
        let mut stack = NnueStack::new(Arc::clone(&net), 2);
        stack.reset(&board);
        stack.update_null(0);
        assert_eq!(
            stack.evaluate(1, Color::Black),
            from_scratch(&net, &board.null_move().unwrap())
        );
    }

    #[test]
    fn the_output_is_the_quantized_arithmetic_written_out() {
        // One neuron: bias 100, input weights 0; output weights 64 and 0,
        // output bias 0. clamp(100)² · 64 / 255 · 400 / (255 · 64).
        let net = Network::new(vec![0; INPUTS], vec![100], vec![64, 0], 0).unwrap();
        let expected = (100 * 100 * 64 / 255) * 400 / (255 * 64);
        assert_eq!(from_scratch(&Arc::new(net), &Board::default()), expected);
    }
}
// ANCHOR_END: stage-18-nnue

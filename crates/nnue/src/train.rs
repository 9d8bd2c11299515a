// ANCHOR: stage-18-nnue
//! The trainer: the engine's network in floating point, fitted to the
//! self-play positions by gradient descent (Adam, mini-batches) on the CPU,
//! then quantized into the integer network the engine reads.
//!
//! Target and loss. The search's score `s` becomes a win probability
//! `sigmoid(s / SCALE)`, blended with the game's result `r`:
//! `target = λ·r + (1 − λ)·sigmoid(s / SCALE)`. The net's output `o` is in
//! units of `SCALE` centipawns, its prediction `sigmoid(o)`, and the loss
//! the squared difference. The score says what the search saw; the result
//! says what happened; λ (`wdl`) chooses between them.
//!
//! Determinism. A batch is cut into chunks of [`CHUNK`] positions whatever
//! the number of threads, each chunk's gradient is summed on its own, and
//! the chunks are added in order: the same seed gives the same weights bit
//! for bit on any number of threads.

use arena::prng::SplitMix64;
use engine::nnue::{INPUTS, Network, QA, QB, SCALE};
use serde::{Deserialize, Serialize};

use crate::data::Position;

/// Positions per chunk of a batch (see the module's notes).
pub const CHUNK: usize = 1024;
/// Weights are kept within ±CLIP so that quantized they fit their
/// integers: 1.98 · `QA` in `i16`, 1.98 · `QB` in the output's products.
pub const CLIP: f32 = 1.98;

/// How a net is trained. Everything that changes the weights is here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainSettings {
    /// Neurons in the hidden layer (`H`).
    pub hidden: usize,
    pub epochs: u32,
    /// Positions per step of the optimiser.
    pub batch: usize,
    /// Adam's learning rate at the start; it falls in a straight line to
    /// `lr · final_lr` at the last epoch.
    pub lr: f32,
    pub final_lr: f32,
    /// λ: the weight of the game's result in the target. 0 by default:
    /// on our data every λ tried above 0 made a weaker engine (0.25 drew
    /// level with the piece-square tables at equal nodes, 0.5 lost ~250
    /// Elo, where 0 won ~190), the result pulling the net's scores away
    /// from the centipawn scale the search's margins were tuned for.
    pub wdl: f32,
    /// Seeds the initial weights and every epoch's shuffle.
    pub seed: u64,
    /// The last fraction of the file (the latest games) is held out to
    /// measure the loss on positions the net never trained on.
    pub validation: f32,
    /// Train on the mirror image (files a ↔ h) of every position without
    /// castling rights too: twice the data where chess is symmetric.
    pub mirror: bool,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            hidden: 64,
            epochs: 20,
            batch: 16_384,
            lr: 0.001,
            final_lr: 0.05,
            wdl: 0.0,
            seed: 1,
            validation: 0.05,
            mirror: false,
        }
    }
}

/// The network in floating point, its parameters in one vector:
/// `[first layer (768·H) | its bias (H) | output weights (2H) | bias (1)]`.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub hidden: usize,
    pub params: Vec<f32>,
}

impl FloatNet {
    fn len(hidden: usize) -> usize {
        INPUTS * hidden + 3 * hidden + 1
    }

    /// Small random weights from `seed`: each half's sum of ~30 active rows
    /// starts near the activation's range, and the output near zero.
    pub fn random(hidden: usize, seed: u64) -> FloatNet {
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |limit: f32| {
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * limit
        };
        let mut params = vec![0.0; Self::len(hidden)];
        let (w1, rest) = params.split_at_mut(INPUTS * hidden);
        w1.iter_mut().for_each(|w| *w = uniform(0.18));
        let output = &mut rest[hidden..3 * hidden];
        let limit = 1.0 / (2.0 * hidden as f32).sqrt();
        output.iter_mut().for_each(|w| *w = uniform(limit));
        FloatNet { hidden, params }
    }

    fn row(&self, feature: u16) -> &[f32] {
        let h = self.hidden;
        &self.params[usize::from(feature) * h..(usize::from(feature) + 1) * h]
    }

    fn bias(&self) -> &[f32] {
        &self.params[INPUTS * self.hidden..(INPUTS + 1) * self.hidden]
    }

    fn output_weights(&self) -> &[f32] {
        &self.params[(INPUTS + 1) * self.hidden..(INPUTS + 3) * self.hidden]
    }

    fn output_bias(&self) -> f32 {
        self.params[self.params.len() - 1]
    }

    /// Fill `acc` (2H) with both halves' accumulators and return the
    /// output, in units of `SCALE` centipawns.
    fn forward(&self, position: &Position, acc: &mut [f32]) -> f32 {
        let h = self.hidden;
        for (half, inputs) in acc.chunks_exact_mut(h).zip(position.halves()) {
            half.copy_from_slice(self.bias());
            for &f in inputs {
                half.iter_mut().zip(self.row(f)).for_each(|(a, w)| *a += w);
            }
        }
        let dot: f32 = acc
            .iter()
            .zip(self.output_weights())
            .map(|(&a, &w)| screlu(a) * w)
            .sum();
        dot + self.output_bias()
    }

    /// The net's score of a position, in centipawns for the side to move.
    pub fn evaluate(&self, position: &Position) -> f32 {
        let mut acc = vec![0.0; 2 * self.hidden];
        self.forward(position, &mut acc) * SCALE as f32
    }

    /// The integer network the engine reads: weights rounded after scaling
    /// by `QA` (first layer) and `QB` (output), the output's bias by both.
    pub fn quantize(&self) -> Network {
        let h = self.hidden;
        let round = |w: f32, scale: i32| (w * scale as f32).round() as i16;
        let first = &self.params[..(INPUTS + 1) * h];
        let feature_weights = first[..INPUTS * h].iter().map(|&w| round(w, QA)).collect();
        let feature_bias = first[INPUTS * h..].iter().map(|&w| round(w, QA)).collect();
        let output_weights = self
            .output_weights()
            .iter()
            .map(|&w| round(w, QB))
            .collect();
        let output_bias = (self.output_bias() * (QA * QB) as f32).round() as i32;
        Network::new(feature_weights, feature_bias, output_weights, output_bias)
            .expect("the sizes follow from the hidden layer")
    }
}

fn screlu(a: f32) -> f32 {
    let clipped = a.clamp(0.0, 1.0);
    clipped * clipped
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + exp(-x))
}

/// `e^x`, computed here rather than by the platform's maths library, whose
/// last bits may differ from one system to the next: the weights must be
/// the same bit for bit on every machine. `e^x = 2^k · e^r` with `k` the
/// nearest integer to `x / ln 2`, so `|r| ≤ ln 2 / 2`, where twelve terms
/// of the Taylor series are exact to double precision.
pub fn exp(x: f32) -> f32 {
    let x = f64::from(x).clamp(-80.0, 80.0);
    let k = (x * std::f64::consts::LOG2_E).round();
    let r = x - k * std::f64::consts::LN_2;
    let (mut term, mut sum) = (1.0, 1.0);
    for i in 1..12 {
        term *= r / f64::from(i);
        sum += term;
    }
    let two_to_k = f64::from_bits(((k as i64 + 1023) as u64) << 52);
    (sum * two_to_k) as f32
}

/// The training target of a position (see the module's notes).
pub fn target(position: &Position, wdl: f32) -> f32 {
    wdl * position.result + (1.0 - wdl) * sigmoid(position.score / SCALE as f32)
}

/// Add the loss's gradient over `positions` to `grad` (laid out like
/// `FloatNet::params`) and return the summed loss.
fn accumulate_gradient(net: &FloatNet, positions: &[&Position], wdl: f32, grad: &mut [f32]) -> f64 {
    let h = net.hidden;
    let mut acc = vec![0.0; 2 * h];
    let mut d_acc = vec![0.0; 2 * h];
    let mut loss = 0.0;
    let output_weights = net.output_weights();
    for position in positions {
        let out = net.forward(position, &mut acc);
        let predicted = sigmoid(out);
        let error = predicted - target(position, wdl);
        loss += f64::from(error * error);
        let g = 2.0 * error * predicted * (1.0 - predicted);
        let (first, rest) = grad.split_at_mut(INPUTS * h);
        let (bias, rest) = rest.split_at_mut(h);
        let (output, last) = rest.split_at_mut(2 * h);
        last[0] += g;
        for j in 0..2 * h {
            let a = acc[j];
            output[j] += g * screlu(a);
            d_acc[j] = if a > 0.0 && a < 1.0 {
                g * output_weights[j] * 2.0 * a
            } else {
                0.0
            };
        }
        for (half, inputs) in d_acc.chunks_exact(h).zip(position.halves()) {
            bias.iter_mut().zip(half).for_each(|(b, d)| *b += d);
            for &f in inputs {
                let row = &mut first[usize::from(f) * h..(usize::from(f) + 1) * h];
                row.iter_mut().zip(half).for_each(|(w, d)| *w += d);
            }
        }
    }
    loss
}

/// Adam's running averages of the gradient and of its square, and the
/// powers of their decay rates that correct the averages' start at zero.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    beta1_power: f32,
    beta2_power: f32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.beta1_power *= Self::BETA1;
        self.beta2_power *= Self::BETA2;
        let correction1 = 1.0 - self.beta1_power;
        let correction2 = 1.0 - self.beta2_power;
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            let update = lr * (*m / correction1) / ((*v / correction2).sqrt() + Self::EPSILON);
            *p = (*p - update).clamp(-CLIP, CLIP);
        }
    }
}

/// What an epoch ended with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Epoch {
    pub epoch: u32,
    pub lr: f32,
    /// Mean loss over the epoch's training batches.
    pub train_loss: f64,
    /// Mean loss over the held-out positions after the epoch.
    pub validation_loss: f64,
}

/// The learning rate of epoch `epoch` (0-based): a straight line from
/// `lr` down to `lr · final_lr`. Large steps find the region, small ones
/// settle in it.
pub fn learning_rate(settings: &TrainSettings, epoch: u32) -> f32 {
    let progress = epoch as f32 / settings.epochs.saturating_sub(1).max(1) as f32;
    settings.lr * (1.0 - (1.0 - settings.final_lr) * progress)
}

/// Run `work` over the chunks of `items` on `threads` threads; the results
/// come back in the chunks' order.
fn in_chunks<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    work: &(dyn Fn(&[T]) -> R + Sync),
) -> Vec<R> {
    let chunks: Vec<&[T]> = items.chunks(CHUNK).collect();
    let per_thread = chunks.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .chunks(per_thread)
            .map(|mine| scope.spawn(move || mine.iter().map(|c| work(c)).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a training thread panicked"))
            .collect()
    })
}

/// Mean loss of `net` over `positions`.
pub fn mean_loss(net: &FloatNet, positions: &[Position], wdl: f32, threads: usize) -> f64 {
    let losses = in_chunks(positions, threads, &|chunk: &[Position]| {
        let mut acc = vec![0.0; 2 * net.hidden];
        chunk
            .iter()
            .map(|p| {
                let error = sigmoid(net.forward(p, &mut acc)) - target(p, wdl);
                f64::from(error * error)
            })
            .sum::<f64>()
    });
    losses.iter().sum::<f64>() / positions.len().max(1) as f64
}

/// The loss the piece-square tables would have on `positions`, their
/// evaluation taken as the net's output: the baseline a net must beat.
pub fn pesto_loss(positions: &[Position], wdl: f32) -> f64 {
    let total: f64 = positions
        .iter()
        .map(|p| {
            let error = sigmoid(p.pesto / SCALE as f32) - target(p, wdl);
            f64::from(error * error)
        })
        .sum();
    total / positions.len().max(1) as f64
}

/// Train a net on `train`, measuring `validation` after every epoch.
pub fn train(
    train: &[Position],
    validation: &[Position],
    settings: &TrainSettings,
    threads: usize,
    on_epoch: &mut dyn FnMut(&Epoch),
) -> FloatNet {
    let mirrors: Vec<Position> = match settings.mirror {
        true => train.iter().filter_map(Position::mirrored).collect(),
        false => Vec::new(),
    };
    let train: Vec<&Position> = train.iter().chain(&mirrors).collect();
    let mut net = FloatNet::random(settings.hidden, settings.seed);
    let size = net.params.len();
    let mut adam = Adam {
        m: vec![0.0; size],
        v: vec![0.0; size],
        beta1_power: 1.0,
        beta2_power: 1.0,
    };
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = SplitMix64::new(settings.seed ^ 0x5EED);
    let mut grad = vec![0.0; size];
    for epoch in 0..settings.epochs {
        rng.shuffle(&mut order);
        let lr = learning_rate(settings, epoch);
        let mut epoch_loss = 0.0;
        for batch in order.chunks(settings.batch) {
            let positions: Vec<&Position> = batch.iter().map(|&i| train[i]).collect();
            let frozen = &net;
            let parts = in_chunks(&positions, threads, &|chunk: &[&Position]| {
                let mut part = vec![0.0; size];
                let loss = accumulate_gradient(frozen, chunk, settings.wdl, &mut part);
                (part, loss)
            });
            grad.iter_mut().for_each(|g| *g = 0.0);
            for (part, loss) in parts {
                grad.iter_mut().zip(&part).for_each(|(g, p)| *g += p);
                epoch_loss += loss;
            }
            let scale = 1.0 / batch.len() as f32;
            grad.iter_mut().for_each(|g| *g *= scale);
            adam.step(&mut net.params, &grad, lr);
        }
        on_epoch(&Epoch {
            epoch: epoch + 1,
            lr,
            train_loss: epoch_loss / train.len().max(1) as f64,
            validation_loss: mean_loss(&net, validation, settings.wdl, threads),
        });
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::parse_line;

    fn positions() -> Vec<Position> {
        [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 30 | 0.5",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 150 | 1.0",
            "4k3/4p3/8/8/8/8/8/4K3 w - - 0 1 | -140 | 0.0",
            "3qk3/8/8/8/8/8/8/4K3 w - - 0 1 | -900 | 0.0",
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 880 | 1.0",
            "r3k3/8/8/8/8/8/8/4K2R w - - 0 1 | 10 | 0.5",
        ]
        .iter()
        .map(|line| parse_line(line).unwrap())
        .collect()
    }

    fn settings() -> TrainSettings {
        TrainSettings {
            hidden: 8,
            epochs: 300,
            batch: 4,
            lr: 0.01,
            ..TrainSettings::default()
        }
    }

    #[test]
    fn training_lowers_the_loss_and_learns_who_is_better() {
        let data = positions();
        let wdl = settings().wdl;
        let before = mean_loss(&FloatNet::random(8, 1), &data, wdl, 1);
        let net = train(&data, &data, &settings(), 1, &mut |_| {});
        let after = mean_loss(&net, &data, wdl, 1);
        assert!(after < before / 4.0, "loss {before} → {after}");
        // A queen up is good for the side to move, a queen down bad.
        assert!(net.evaluate(&data[4]) > 200.0);
        assert!(net.evaluate(&data[3]) < -200.0);
    }

    #[test]
    fn the_same_seed_gives_the_same_weights_on_any_number_of_threads() {
        // More than one chunk per batch, so the threads share the work.
        let one: Vec<Position> = positions().into_iter().cycle().take(3 * CHUNK).collect();
        let settings = TrainSettings {
            epochs: 2,
            batch: 2 * CHUNK + 100,
            ..settings()
        };
        let a = train(&one, &one[..10], &settings, 1, &mut |_| {});
        let b = train(&one, &one[..10], &settings, 2, &mut |_| {});
        assert_eq!(a, b);
        let other = TrainSettings {
            seed: 2,
            ..settings
        };
        assert_ne!(a, train(&one, &one[..10], &other, 2, &mut |_| {}));
    }

    /// The quantized net scores like the float net to within a few
    /// centipawns: the rounding error every record measures on real data.
    #[test]
    fn quantizing_keeps_the_scores() {
        let data = positions();
        let net = train(&data, &data, &settings(), 1, &mut |_| {});
        let quantized = net.quantize();
        for p in &data {
            let [us, them] = p.halves();
            let exact = net.evaluate(p);
            let integer = quantized.evaluate_inputs(us, them) as f32;
            // Rounding errors grow with the activations: a few centipawns,
            // up to one percent more for large scores.
            assert!(
                (exact - integer).abs() <= 5.0 + 0.01 * exact.abs(),
                "{exact} vs {integer}"
            );
        }
    }

    /// The gradient is the loss's slope: nudging any weight by ε changes
    /// the loss by ε times its gradient (checked on a sample of weights).
    #[test]
    fn the_gradient_matches_the_loss_by_finite_differences() {
        let data = positions();
        let refs: Vec<&Position> = data.iter().collect();
        let mut net = FloatNet::random(4, 3);
        // Biases that keep most neurons inside the clipped range.
        let h = net.hidden;
        net.params[INPUTS * h..(INPUTS + 1) * h]
            .iter_mut()
            .for_each(|b| *b = 0.4);
        let mut grad = vec![0.0; net.params.len()];
        accumulate_gradient(&net, &refs, 0.25, &mut grad);
        let loss = |n: &FloatNet| {
            let mut g = vec![0.0; n.params.len()];
            accumulate_gradient(n, &refs, 0.25, &mut g)
        };
        let active = usize::from(data[1].us[0]) * h;
        let last = net.params.len() - 1;
        for i in [
            active,
            active + 1,
            INPUTS * h,
            INPUTS * h + 2,
            (INPUTS + 1) * h,
            (INPUTS + 3) * h - 1,
            last,
        ] {
            let eps = 1e-3;
            let mut up = net.clone();
            up.params[i] += eps;
            let mut down = net.clone();
            down.params[i] -= eps;
            let slope = (loss(&up) - loss(&down)) / (2.0 * f64::from(eps));
            assert!(
                (slope - f64::from(grad[i])).abs() < 1e-3 + 0.05 * slope.abs(),
                "weight {i}: {slope} vs {}",
                grad[i]
            );
        }
    }

    #[test]
    fn exp_is_the_exponential() {
        for x in [-20.0f32, -3.5, -1.0, -0.2, 0.0, 0.3, 1.0, 2.0, 7.25, 30.0] {
            let expected = f64::from(x).exp();
            let relative = (f64::from(exp(x)) - expected).abs() / expected;
            assert!(relative < 1e-7, "exp({x}) = {} vs {expected}", exp(x));
        }
        assert_eq!(exp(0.0), 1.0);
    }

    #[test]
    fn the_learning_rate_falls_from_lr_to_its_final_fraction() {
        let s = TrainSettings::default();
        assert_eq!(learning_rate(&s, 0), s.lr);
        assert!((learning_rate(&s, s.epochs - 1) - s.lr * s.final_lr).abs() < 1e-9);
        assert!(learning_rate(&s, 5) < learning_rate(&s, 4));
    }
}
// ANCHOR_END: stage-18-nnue

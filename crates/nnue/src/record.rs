// ANCHOR: stage-18-nnue
//! `nnue train`: train a net on a data file, write it, and write beside it
//! (`<net>.toml`) everything that made it: the commit, the command, the
//! data (its hash, size and how it was generated), the settings, every
//! epoch's losses and the quantization's error. A net in the repository
//! names its own provenance.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::data::{Position, load};
use crate::datagen::{Progress, progress_path};
use crate::train::{Epoch, FloatNet, TrainSettings, pesto_loss, train};

/// The record written beside a net.
#[derive(Debug, Serialize, Deserialize)]
pub struct NetRecord {
    /// The net's own hash (its file's header carries it too).
    pub hash: String,
    pub hidden: usize,
    /// The commit the trainer was built from (`-dirty` if the tree was not
    /// clean), and the command it ran.
    pub commit: String,
    pub command: String,
    pub data: DataRecord,
    pub settings: TrainSettings,
    /// Mean |float − quantized| score over the validation positions, in
    /// centipawns: what rounding the weights to integers costs.
    pub quantization_error_cp: f64,
    /// The validation loss of the piece-square tables (`eval.rs`), for
    /// comparison with the epochs' `validation_loss`.
    pub pesto_validation_loss: f64,
    pub epochs: Vec<Epoch>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct DataRecord {
    pub file: String,
    /// FNV-1a of the lines used (each with its newline).
    pub hash: String,
    pub positions: usize,
    pub train: usize,
    pub validation: usize,
    /// How the data was made, from its `.progress` file (absent if none).
    pub datagen: Option<Progress>,
}

/// The commit of the current directory's repository, `-dirty` when the
/// tracked files differ from it; `unknown` outside a repository.
pub fn commit() -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "HEAD"]) {
        Some(head) => match git(&["status", "--porcelain", "--untracked-files=no"]) {
            Some(changes) if changes.is_empty() => head,
            _ => format!("{head}-dirty"),
        },
        None => "unknown".to_string(),
    }
}

/// Mean |float − quantized| score, in centipawns, over `positions`.
pub fn quantization_error(net: &FloatNet, positions: &[Position]) -> f64 {
    let quantized = net.quantize();
    let total: f64 = positions
        .iter()
        .map(|p| {
            let [us, them] = p.halves();
            let integer = f64::from(quantized.evaluate_inputs(us, them));
            (f64::from(net.evaluate(p)) - integer).abs()
        })
        .sum();
    total / positions.len().max(1) as f64
}

/// Train on `data` (its first `limit` positions; of its training part,
/// the first `train_limit`) and write the net to `out` and its record to
/// `<out>.toml`.
pub fn train_command(
    data: &Path,
    limit: Option<usize>,
    train_limit: Option<usize>,
    settings: &TrainSettings,
    out: &Path,
    threads: usize,
) -> Result<(), String> {
    let start = Instant::now();
    // Before anything is written: the net it writes may be a tracked file.
    let commit = commit();
    let loaded = load(data, limit)?;
    let positions = loaded.positions;
    let held_out = ((positions.len() as f64) * f64::from(settings.validation)).round() as usize;
    let (train_set, validation) = positions.split_at(positions.len() - held_out);
    // The first positions are those of the first games: the training part
    // a shorter datagen run would have made.
    let train_set = &train_set[..train_limit.unwrap_or(usize::MAX).min(train_set.len())];
    println!(
        "{} positions: {} to train on, {} held out ({:.1} s to read)",
        positions.len(),
        train_set.len(),
        validation.len(),
        start.elapsed().as_secs_f64()
    );
    let mut epochs = Vec::new();
    let net = train(train_set, validation, settings, threads, &mut |epoch| {
        println!(
            "epoch {:>3}  lr {:.6}  train loss {:.6}  validation loss {:.6}  ({:.0} s)",
            epoch.epoch,
            epoch.lr,
            epoch.train_loss,
            epoch.validation_loss,
            start.elapsed().as_secs_f64()
        );
        epochs.push(epoch.clone());
    });
    let network = net.quantize();
    std::fs::write(out, network.to_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
    let datagen = std::fs::read_to_string(progress_path(data))
        .ok()
        .and_then(|text| toml::from_str(&text).ok());
    let record = NetRecord {
        hash: format!("{:016x}", network.hash()),
        hidden: settings.hidden,
        commit,
        command: std::env::args().collect::<Vec<_>>().join(" "),
        data: DataRecord {
            file: data.display().to_string(),
            hash: format!("{:016x}", loaded.hash),
            positions: positions.len(),
            train: train_set.len(),
            validation: validation.len(),
            datagen,
        },
        settings: settings.clone(),
        quantization_error_cp: quantization_error(&net, validation),
        pesto_validation_loss: pesto_loss(validation, settings.wdl),
        epochs,
    };
    let text = toml::to_string(&record).map_err(|e| e.to_string())?;
    let record_path = record_path(out);
    let header = "# Written by `nnue train` with the net beside it; do not edit.\n";
    std::fs::write(&record_path, format!("{header}{text}"))
        .map_err(|e| format!("{}: {e}", record_path.display()))?;
    println!(
        "piece-square tables' validation loss {:.6}",
        record.pesto_validation_loss
    );
    println!(
        "wrote {} (hash {}, quantization error {:.2} cp) and {} in {:.0} s",
        out.display(),
        record.hash,
        record.quantization_error_cp,
        record_path.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The record of a net file: `<net>.toml`.
pub fn record_path(net: &Path) -> PathBuf {
    let mut name = net.as_os_str().to_owned();
    name.push(".toml");
    PathBuf::from(name)
}
// ANCHOR_END: stage-18-nnue

// ANCHOR: stage-18-nnue
//! The whole road in miniature, as `scripts/train-net --short` runs it:
//! self-play data, training, quantization. Here it runs again in a debug
//! build and must give the net whose hash the script recorded, bit for
//! bit: the data and the weights depend on nothing but the settings.

use std::path::Path;

use nnue::data::load;
use nnue::datagen::run;
use nnue::record::NetRecord;
use nnue::train::train;

const RECORD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/stage-18-short-net.toml");

#[test]
fn the_short_road_gives_the_recorded_net() {
    let text = std::fs::read_to_string(RECORD).expect("the record of scripts/train-net --short");
    let record: NetRecord = toml::from_str(&text).expect("a net record");
    let datagen = record
        .data
        .datagen
        .expect("the record says how the data was made");
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("short.txt");
    run(&datagen.settings, &data, 2, &mut |_: &_| {}).unwrap();
    let loaded = load(Path::new(&data), None).unwrap();
    assert_eq!(format!("{:016x}", loaded.hash), record.data.hash);
    let positions = loaded.positions;
    assert_eq!(positions.len(), record.data.positions);
    let (train_set, validation) = positions.split_at(record.data.train);
    let net = train(train_set, validation, &record.settings, 2, &mut |_| {});
    assert_eq!(format!("{:016x}", net.quantize().hash()), record.hash);
}
// ANCHOR_END: stage-18-nnue

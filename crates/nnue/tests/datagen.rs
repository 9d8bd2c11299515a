// ANCHOR: stage-18-nnue
//! Self-play data: the same seed gives the same file on any number of
//! threads, a stopped run goes on to the same file, and every line is a
//! position the filters let through (the filter itself: `datagen.rs`).

use engine::board::parse_fen;
use nnue::data::parse_line;
use nnue::datagen::{Settings, play_game, progress_path, run};

/// A small budget, so a debug build plays a few games in seconds.
fn settings(games: u64) -> Settings {
    Settings {
        games,
        nodes: 400,
        ..Settings::default()
    }
}

fn generate(dir: &tempfile::TempDir, name: &str, games: u64, threads: usize) -> String {
    let path = dir.path().join(name);
    run(&settings(games), &path, threads, &mut |_: &_| {}).unwrap();
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_same_seed_gives_the_same_file_on_one_thread_or_two() {
    let dir = tempfile::tempdir().unwrap();
    let one = generate(&dir, "one.txt", 6, 1);
    let two = generate(&dir, "two.txt", 6, 2);
    assert!(one.lines().count() > 50, "{one}");
    assert_eq!(one, two);
}

#[test]
fn a_stopped_run_goes_on_to_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let whole = generate(&dir, "whole.txt", 5, 1);
    let path = dir.path().join("parts.txt");
    run(&settings(2), &path, 1, &mut |_: &_| {}).unwrap();
    // A game half written when the run was killed: cut away on resuming.
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("8/8/8/8/8/8/8/8 w - - 0 1 | 12");
    std::fs::write(&path, text).unwrap();
    let done = run(&settings(5), &path, 2, &mut |_: &_| {}).unwrap();
    assert_eq!(done.games, 5);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), whole);
    // Other settings would mix two kinds of data: refused.
    let other = Settings {
        seed: 9,
        ..settings(5)
    };
    let refused = run(&other, &path, 1, &mut |_: &_| {}).unwrap_err();
    assert!(
        refused.contains(&progress_path(&path).display().to_string()),
        "{refused}"
    );
}

#[test]
fn kept_positions_are_past_the_opening_not_in_check_and_not_mates() {
    let settings = settings(1);
    let game = play_game(&settings, 3).unwrap();
    assert!(!game.samples.is_empty());
    let results: Vec<f32> = game.samples.iter().map(|s| s.result).collect();
    assert!(
        results.iter().all(|&r| r == results[0]),
        "one result a game"
    );
    for sample in &game.samples {
        let board = parse_fen(&sample.fen).unwrap();
        assert!(board.checkers().is_empty(), "{}", sample.fen);
        assert!(u32::from(board.fullmove_number()) * 2 >= settings.first_kept_ply);
        assert!(sample.score.abs() < 20_000, "{}", sample.score);
        parse_line(&sample.line()).unwrap();
    }
}
// ANCHOR_END: stage-18-nnue

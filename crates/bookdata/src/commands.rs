// ANCHOR: main-only
//! `bookdata commands` (`scripts/book-data commands`): every shell block of
//! the README and the book, run the way a reader types it, in a fresh clone
//! of the commit under test; and the output the book shows, written from
//! those runs.
//!
//! **Which blocks.** Fenced code blocks with the language `sh` (or `bash`,
//! `shell`) or `console`, in `README.md`, then the chapters in the order of
//! `book/src/SUMMARY.md`, then any other Markdown file of `book/src` (never
//! `book/src/generated/`). In an `sh` block every line is typed: comments
//! and blank lines are skipped, a line ending in `\` (or `|`, `&&`, `||`, an
//! open quote or a here-document) continues on the next one, and each
//! command that results runs on its own. In a `console` block a command is
//! a line starting with `$ ` (continued the same way, a `> ` prompt on the
//! continuation lines dropped); any other line would be output typed by
//! hand, which the book does not have (see below), so it is an error.
//!
//! **Long blocks.** A block whose first line is `# long: <why>` (a comment
//! the reader sees: `# long: an SPRT, hours on one core`) runs only with
//! `--long`. Without it each of its commands is checked instead, in the
//! same place of the run (`git` and `cd` run as written, since what follows
//! depends on them, but `git apply PATCH` as `git apply --check PATCH`, so
//! that the tree stays as the build the checks use): `scripts/sprt …` as
//! `scripts/sprt --dry-run …`,
//! `cargo run … -- ARGS` as `cargo run … -- ARGS --help`, anything else with
//! `--help` added (before a `--`): clap reads every flag before `--help`,
//! so a flag that does not exist still fails.
//!
//! **Order and failures.** A page of answers (`book/src/answers/stage-NN-slug.md`)
//! runs right after the chapter of its stage, whose checkout is then built
//! (see [`documents`]); with `--only` the runner makes the stage tags
//! first. A command commented `# fails` must end with an error
//! ([`expects_failure`]).
//!
//! **Shown output.** An include of `generated/stage-NN-slug-NAME.out.md`
//! on the first non-blank line after a block binds the block's output to
//! that file: the runner writes the standard output of the block's commands
//! into it (`--write`), or fails when the committed file differs from what
//! the run prints. Digits of what depends on the clock (a number before
//! `nps`, `s`, `ms`, `seconds`, … or after `nps`, `time`) are written as
//! `#` and the comparison treats any run of `#` as any number, so only
//! those fields are ignored.
//!
//! **How they run.** The clone is `git clone --no-tags` of the repository
//! (so the tags are the ones the book's own `scripts/stages tag` makes),
//! with `main` at the commit under test (`HEAD`, or with `--worktree` a
//! commit of the work tree on top of it). Commands run one after the other
//! in one state, as one reader at one terminal: a `git checkout` in one
//! chapter holds for the next command and the next chapter, and a `cd`
//! changes the directory of the commands after it. Each command runs in
//! `bash -o pipefail -c` with no input and has a time budget (`--budget`,
//! default [`DEFAULT_BUDGET`] seconds); before a `cargo run`, `cargo test`
//! or a script that builds, the runner builds what it will build
//! (`cargo build …`, `cargo test --no-run …`) outside the budget. The clone
//! builds into one target directory shared by every stage,
//! `target/book-commands/target`, with `[profile.release]` made quicker to
//! build (no LTO, 16 codegen units, incremental) and `[profile.dev]`, which
//! only `cargo test` blocks use, the quickest (no optimisation, no debug
//! info, not incremental: each is built once) by a cargo configuration in
//! the clone's parent directory: what the commands print does not depend
//! on it. The tools are release builds, like
//! the engine, so a checkout is built once. The commands get a reader's
//! environment, without the caller's `CARGO_PROFILE_*` variables. A
//! `cargo run`, `cargo test` or `scripts/stages tag` that is run again in
//! the same repository state (same `HEAD`, same tags, same changes), with
//! the same words whatever its comment, gives what it gave the first time
//! and is not run again. Logs are in `target/book-commands/logs/`.
//!
//! **Bench-equal.** The first `cargo build --release` at a clean checkout
//! of a stage tag is followed by `cargo run -q --release -- bench`, whose
//! node count must be the one the stage's manifest records; a stage tag
//! that no block built is checked out, built and benched at the end of the
//! run ([`Shell::bench_the_rest`]).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use meta::includes::{directives, join, parent};
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

use crate::GENERATED_DIR;
use crate::links::mdbook_options;

/// CPU seconds a command may take, its build not counted.
pub const DEFAULT_BUDGET: u64 = 180;

/// CPU seconds the build before a command may take.
pub const BUILD_BUDGET: u64 = 1200;

/// A command is stopped after this many times its budget on the clock
/// even if it uses no CPU (it waits for something).
pub const WALL_FACTOR: u32 = 20;

/// The first line of a long block starts with this.
pub const LONG_MARKER: &str = "# long:";

/// The ending of a generated file that holds a block's output.
pub const OUTPUT_SUFFIX: &str = ".out.md";

/// The command that makes the stage tags on main.
const STAGE_TAGS: &str = "scripts/stages tag";

/// The build before a reader's `cargo run --release`: at a stage's
/// checkout, the stage's engine.
const STAGE_BUILD: &str = "cargo build --release";

/// The bench a checked-out stage must agree with its manifest on.
const STAGE_BENCH: &str = "cargo run -q --release -- bench";

/// Where everything the runner keeps goes, below the repository root.
pub const WORK_DIR: &str = "target/book-commands";

/// One shell block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The Markdown file, relative to the root.
    pub file: String,
    /// Line of the opening fence.
    pub line: usize,
    /// Why it is long (the text after `# long:`), if it is.
    pub long: Option<String>,
    pub commands: Vec<Typed>,
    /// The generated file (name in `book/src/generated/`) that shows the
    /// block's output.
    pub output: Option<String>,
}

impl Block {
    pub fn place(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// One command as the reader types it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Typed {
    /// Line in the Markdown file.
    pub line: usize,
    /// The text, continuation lines included (joined by newlines).
    pub text: String,
}

// ---------------------------------------------------------------------------
// Reading the blocks.

/// The Markdown files whose blocks run, in reading order: the README, the
/// chapters in `SUMMARY.md` order, then other Markdown files of the book.
pub fn documents(root: &Path) -> Vec<String> {
    let mut order = Vec::new();
    if root.join("README.md").is_file() {
        order.push("README.md".to_string());
    }
    let src = "book/src";
    if let Ok(summary) = std::fs::read_to_string(root.join(src).join("SUMMARY.md")) {
        for event in Parser::new_ext(&summary, mdbook_options()) {
            if let Event::Start(Tag::Link { dest_url, .. }) = event
                && let Some(path) = join(src, &dest_url)
                && !order.contains(&path)
                && root.join(&path).is_file()
            {
                order.push(path);
            }
        }
    }
    let files = meta::includes::Dir(root.to_path_buf());
    let mut rest: Vec<String> = meta::includes::Files::markdown_below(&files, src)
        .into_iter()
        .filter(|p| !p.starts_with(&format!("{src}/generated/")) && !order.contains(p))
        .collect();
    rest.sort();
    order.extend(rest);
    answers_after_chapters(root, &mut order);
    order
}

/// Moves each answers page (`book/src/answers/stage-NN-slug.md`, the
/// appendix at the end of `SUMMARY.md`) to right after the chapter of its
/// stage: its blocks type their commands in that stage's checkout, which
/// the chapter's last block has just built, so they need no build of
/// their own.
fn answers_after_chapters(root: &Path, order: &mut Vec<String>) {
    let Ok(manifests) = meta::manifest::read_dir(&root.join("stages")) else {
        return;
    };
    for manifest in &manifests {
        let answers = format!("book/src/answers/{}.md", manifest.tag);
        let chapter = format!("book/src/{}", manifest.chapter);
        let Some(from) = order.iter().position(|p| *p == answers) else {
            continue;
        };
        let page = order.remove(from);
        match order.iter().position(|p| *p == chapter) {
            Some(at) => order.insert(at + 1, page),
            None => order.insert(from, page),
        }
    }
}

/// Whether a fence's language is a shell's.
fn shell_language(info: &str) -> Option<&'static str> {
    let lang = info
        .split(|c: char| c == ',' || c.is_whitespace())
        .next()
        .unwrap_or("");
    match lang {
        "sh" | "bash" | "shell" => Some("sh"),
        "console" => Some("console"),
        _ => None,
    }
}

/// The blocks of one Markdown file, and what is wrong with them.
pub fn blocks_of(file: &str, text: &str) -> (Vec<Block>, Vec<String>) {
    let line_of = |offset: usize| text[..offset].bytes().filter(|&b| b == b'\n').count() + 1;
    let mut blocks = Vec::new();
    let mut problems = Vec::new();
    // (language, fence line, body, end offset) of the block being read.
    let mut open: Option<(&'static str, usize, String)> = None;
    let mut ends = Vec::new();
    for (event, range) in Parser::new_ext(text, mdbook_options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                if let Some(lang) = shell_language(&info) {
                    open = Some((lang, line_of(range.start), String::new()));
                }
            }
            Event::Text(t) => {
                if let Some((_, _, body)) = open.as_mut() {
                    body.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((lang, line, body)) = open.take() {
                    let first = line + 1;
                    let parsed = if lang == "console" {
                        console_commands(&body, first)
                    } else {
                        sh_commands(&body, first)
                    };
                    match parsed {
                        Ok((long, commands)) => {
                            blocks.push(Block {
                                file: file.to_string(),
                                line,
                                long,
                                commands,
                                output: None,
                            });
                            // The line of the closing fence.
                            ends.push(line_of(range.end.clamp(1, text.len()) - 1));
                        }
                        Err(e) => problems.push(format!("{file}:{line}: {e}")),
                    }
                }
            }
            _ => {}
        }
    }
    // Output includes: bound to the block right before them.
    let lines: Vec<&str> = text.lines().collect();
    let mut bound = BTreeSet::new();
    for (block, &end) in blocks.iter_mut().zip(&ends) {
        let mut next = end + 1;
        while lines.get(next - 1).is_some_and(|l| l.trim().is_empty()) {
            next += 1;
        }
        let Some(line) = lines.get(next - 1) else {
            continue;
        };
        if let Some(name) = output_include(file, line) {
            block.output = Some(name);
            bound.insert(next);
        }
    }
    for (index, line) in lines.iter().enumerate() {
        if output_include(file, line).is_some() && !bound.contains(&(index + 1)) {
            problems.push(format!(
                "{file}:{}: an include of generated output must follow right after \
                 the shell block it shows",
                index + 1
            ));
        }
    }
    (blocks, problems)
}

/// `name` if `line` is `{{#include generated/name}}` with `name` ending
/// in [`OUTPUT_SUFFIX`] (relative to the Markdown file's directory).
fn output_include(file: &str, line: &str) -> Option<String> {
    if !line.trim().starts_with("{{#include") {
        return None;
    }
    let directive = directives(line).into_iter().next()?;
    let meta::includes::Kind::Include { path, .. } = &directive.kind else {
        return None;
    };
    let target = join(parent(file), path)?;
    let name = target.strip_prefix(&format!("{GENERATED_DIR}/"))?;
    (name.ends_with(OUTPUT_SUFFIX) && !name.contains('/')).then(|| name.to_string())
}

/// The long marker of a block's first line: `Some(Ok(why))`, or an error
/// when the marker is malformed.
fn long_marker(first: &str) -> Option<Result<String, String>> {
    let t = first.trim();
    let rest = t.strip_prefix('#')?.trim_start();
    let why = rest.strip_prefix("long")?;
    if why.starts_with(|c: char| c.is_alphanumeric() || c == '-' || c == '_') {
        // `# longer`, `# long-standing`: an ordinary comment.
        return None;
    }
    match why.strip_prefix(':') {
        Some(why) if !why.trim().is_empty() => Some(Ok(why.trim().to_string())),
        _ => Some(Err(format!(
            "a long block starts with `{LONG_MARKER} <why it takes long>`, not `{t}`"
        ))),
    }
}

type Parsed = Result<(Option<String>, Vec<Typed>), String>;

/// The commands of an `sh` block whose body starts at line `first`.
fn sh_commands(body: &str, first: usize) -> Parsed {
    let mut long = None;
    let mut commands = Vec::new();
    let mut current: Option<Typed> = None;
    for (index, line) in body.lines().enumerate() {
        let number = first + index;
        if let Some(marker) = long_marker(line) {
            if index == 0 {
                long = Some(marker?);
            } else if current.is_none() {
                return Err(format!(
                    "line {number}: `{LONG_MARKER}` must be the first line of the block"
                ));
            }
        }
        match current.as_mut() {
            Some(cmd) => {
                cmd.text.push('\n');
                cmd.text.push_str(line);
            }
            None => {
                let t = line.trim();
                if t.is_empty() || t.starts_with('#') {
                    continue;
                }
                current = Some(Typed {
                    line: number,
                    text: line.to_string(),
                });
            }
        }
        if let Some(cmd) = current.as_ref()
            && complete(&cmd.text)
        {
            commands.push(current.take().expect("a command"));
        }
    }
    if let Some(cmd) = current {
        return Err(format!("line {}: the command is not finished", cmd.line));
    }
    Ok((long, commands))
}

/// The commands of a `console` block: `$ ` lines and their continuations.
fn console_commands(body: &str, first: usize) -> Parsed {
    let mut long = None;
    let mut commands = Vec::new();
    let mut current: Option<Typed> = None;
    for (index, line) in body.lines().enumerate() {
        let number = first + index;
        if index == 0
            && let Some(marker) = long_marker(line)
        {
            long = Some(marker?);
            continue;
        }
        match current.as_mut() {
            Some(cmd) => {
                cmd.text.push('\n');
                cmd.text.push_str(line.strip_prefix("> ").unwrap_or(line));
            }
            None => {
                if let Some(text) = line.strip_prefix("$ ") {
                    current = Some(Typed {
                        line: number,
                        text: text.to_string(),
                    });
                } else if line.trim().is_empty() {
                    continue;
                } else {
                    return Err(format!(
                        "line {number}: `{line}` is output typed by hand; a console block \
                         holds only `$ ` commands, and what they print goes into a generated \
                         `generated/stage-NN-slug-NAME{OUTPUT_SUFFIX}` included after the block"
                    ));
                }
            }
        }
        if let Some(cmd) = current.as_ref()
            && complete(&cmd.text)
        {
            commands.push(current.take().expect("a command"));
        }
    }
    if let Some(cmd) = current {
        return Err(format!("line {}: the command is not finished", cmd.line));
    }
    Ok((long, commands))
}

// ---------------------------------------------------------------------------
// A little of the shell's grammar: enough to split a block into commands
// and to see the words of a simple command.

/// A command read as the shell reads it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// The words, quotes removed, comment dropped.
    pub words: Vec<String>,
    /// It has `|`, `&&`, `||`, `;`, `&`, `(`, `)` or a here-document.
    pub compound: bool,
    /// It needs more lines: an open quote, a final `\`, `|`, `&&` or `||`,
    /// or a here-document without its last line.
    pub open: bool,
    /// The text of its comments, `#` and the space after it dropped.
    pub comment: String,
    /// The file of a `< FILE` redirection of its standard input.
    pub stdin: Option<String>,
}

/// Read `text` as bash would read one command (only what the runner
/// needs: quotes, escapes, comments, operators, here-documents).
pub fn shape(text: &str) -> Shape {
    let mut out = Shape::default();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars().peekable();
    // Delimiters of the here-documents still open, first to close first.
    let mut heredocs: Vec<String> = Vec::new();
    let mut in_heredoc = false;
    let mut last_operator = false;
    let finish = |word: &mut String, in_word: &mut bool, words: &mut Vec<String>| {
        if *in_word {
            words.push(std::mem::take(word));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        if in_heredoc {
            // A line of a here-document: it may close the first one open.
            let mut line = String::new();
            if c != '\n' {
                line.push(c);
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                    line.push(d);
                }
            }
            if heredocs
                .first()
                .is_some_and(|d| line.trim_start_matches('\t') == d)
            {
                heredocs.remove(0);
                in_heredoc = !heredocs.is_empty();
            }
            continue;
        }
        match c {
            '\'' => {
                in_word = true;
                let mut closed = false;
                for d in chars.by_ref() {
                    if d == '\'' {
                        closed = true;
                        break;
                    }
                    word.push(d);
                }
                out.open |= !closed;
            }
            '"' => {
                in_word = true;
                let mut closed = false;
                while let Some(d) = chars.next() {
                    match d {
                        '"' => {
                            closed = true;
                            break;
                        }
                        '\\' => match chars.next() {
                            Some(e @ ('"' | '\\' | '$' | '`')) => word.push(e),
                            Some('\n') => {}
                            Some(e) => {
                                word.push('\\');
                                word.push(e);
                            }
                            None => {}
                        },
                        _ => word.push(d),
                    }
                }
                out.open |= !closed;
            }
            '\\' => match chars.next() {
                // A line continues: a reader types both lines as one.
                Some('\n') => continue,
                Some(e) => {
                    in_word = true;
                    word.push(e);
                }
                None => out.open = true,
            },
            '#' if !in_word => {
                let mut comment = String::new();
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                    comment.push(d);
                }
                if !out.comment.is_empty() {
                    out.comment.push('\n');
                }
                out.comment.push_str(comment.trim());
                finish(&mut word, &mut in_word, &mut out.words);
                in_heredoc = !heredocs.is_empty();
                continue;
            }
            '\n' => {
                finish(&mut word, &mut in_word, &mut out.words);
                in_heredoc = !heredocs.is_empty();
                continue;
            }
            c if c.is_whitespace() => {
                finish(&mut word, &mut in_word, &mut out.words);
                continue;
            }
            '|' | '&' | ';' | '(' | ')' => {
                finish(&mut word, &mut in_word, &mut out.words);
                out.compound = true;
                let doubled = (c == '|' || c == '&') && chars.peek() == Some(&c);
                if doubled {
                    chars.next();
                }
                // `a |`, `a ||` and `a &&` go on; `a &` and `a ;` end.
                last_operator = c == '|' || (c == '&' && doubled);
                continue;
            }
            '<' if chars.peek() == Some(&'<') => {
                chars.next();
                finish(&mut word, &mut in_word, &mut out.words);
                if chars.peek() == Some(&'<') {
                    // `<<<` here-string: an ordinary word follows.
                    chars.next();
                    continue;
                }
                if chars.peek() == Some(&'-') {
                    chars.next();
                }
                out.compound = true;
                heredocs.push(operand(&mut chars));
                continue;
            }
            '<' => {
                // `< FILE`: standard input from a file, not a word.
                finish(&mut word, &mut in_word, &mut out.words);
                out.stdin = Some(operand(&mut chars));
                continue;
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
        last_operator = false;
    }
    finish(&mut word, &mut in_word, &mut out.words);
    out.open |= !heredocs.is_empty() || last_operator;
    out
}

/// The word after a redirection (`<< END`, `< FILE`): blanks skipped, up
/// to the next blank or operator, quotes dropped.
fn operand(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> String {
    while chars.peek() == Some(&' ') {
        chars.next();
    }
    let mut word = String::new();
    while let Some(&d) = chars.peek() {
        if d.is_whitespace() || ";|&<>()".contains(d) {
            break;
        }
        chars.next();
        if !matches!(d, '\'' | '"' | '\\') {
            word.push(d);
        }
    }
    word
}

/// Whether `text` is a whole command.
fn complete(text: &str) -> bool {
    !shape(text).open
}

/// `word` as the shell reads it back.
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@%^".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// What the runner types instead of a long command: the same command,
/// checked and not run.
pub fn check_form(text: &str) -> Result<String, String> {
    let shape = shape(text);
    if shape.compound {
        return Err(
            "a long block's commands must be simple (no `|`, `&&`, `;`, here-documents) \
             so that the check can add `--dry-run` or `--help`"
                .into(),
        );
    }
    let mut words = shape.words;
    let Some(program) = words.first().cloned() else {
        return Err("an empty command".into());
    };
    if program == "git" && words.get(1).is_some_and(|w| w == "apply") {
        // A change to try (an answer's patch): checked that it applies,
        // so the commands after it are checked against the build as it is.
        if !words.iter().any(|w| w == "--check") {
            words.insert(2, "--check".into());
        }
    } else if program == "git" || program == "cd" {
        // Quick, and what follows depends on them: typed as written.
        return Ok(text.to_string());
    } else if program == "scripts/sprt" {
        if !words.iter().any(|w| w == "--dry-run") {
            words.insert(1, "--dry-run".into());
        }
    } else if program == "cargo" && words.get(1).is_some_and(|w| w == "run") {
        if !words.iter().any(|w| w == "--") {
            words.push("--".into());
        }
        words.push("--help".into());
    } else if let Some(at) = words.iter().position(|w| w == "--") {
        words.insert(at, "--help".into());
    } else {
        words.push("--help".into());
    }
    let mut check = words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ");
    if let Some(file) = &shape.stdin {
        // Kept, so that a missing file fails the check too.
        check.push_str(&format!(" < {}", quote(file)));
    }
    Ok(check)
}

/// Whether a command shows a failure on purpose: its comment starts with
/// `fails` (`cargo test -p engine --test search   # fails: the mate tests`),
/// as an answer that breaks a test does. When it runs it must end with an
/// error of its own (not be stopped over its budget), and its output is
/// shown like any other's.
pub fn expects_failure(text: &str) -> bool {
    shape(text).comment.starts_with("fails")
}

/// The build a command does before it runs, to be done outside its
/// budget: `cargo build ARGS` for `cargo run ARGS -- …`, `cargo test
/// --no-run ARGS` for `cargo test ARGS`, the tool's build for the
/// repository's scripts.
pub fn build_first(text: &str) -> Option<String> {
    let shape = shape(text);
    if shape.compound {
        return None;
    }
    let words = &shape.words;
    let before_dashes = |from: usize| -> Vec<String> {
        words[from..]
            .iter()
            .take_while(|w| *w != "--")
            .map(|w| quote(w))
            .collect()
    };
    let line = match (
        words.first().map(String::as_str),
        words.get(1).map(String::as_str),
    ) {
        (Some("cargo"), Some("run")) => {
            let mut line = vec!["cargo".to_string(), "build".to_string()];
            line.extend(before_dashes(2));
            line
        }
        (Some("cargo"), Some(sub @ ("test" | "bench"))) => {
            let mut line = vec!["cargo".to_string(), sub.to_string(), "--no-run".to_string()];
            line.extend(before_dashes(2));
            line
        }
        (Some("scripts/stages"), _) => vec!["cargo build -q --release -p stagetool".to_string()],
        (Some("scripts/book-data" | "scripts/check-book"), _) => {
            vec!["cargo build -q --release -p bookdata".to_string()]
        }
        // `--dry-run` needs the arena at most.
        (Some("scripts/sprt"), _) if words.iter().any(|w| w == "--dry-run") => {
            vec!["cargo build -q --release -p arena".to_string()]
        }
        (Some("scripts/sprt"), _) => {
            vec!["cargo build -q --release -p cb2026 -p arena".to_string()]
        }
        _ => return None,
    };
    Some(line.join(" "))
}

/// What makes two reusable commands the same command: their words and
/// their input, not their comments or their spacing.
fn memo_key(text: &str) -> String {
    let shape = shape(text);
    format!("{:?} < {:?}", shape.words, shape.stdin)
}

/// Whether the runner may reuse an earlier result of this command in the
/// same repository state.
fn reusable(text: &str) -> bool {
    let shape = shape(text);
    let words: Vec<&str> = shape.words.iter().map(String::as_str).collect();
    !shape.compound
        && matches!(
            words.as_slice(),
            ["cargo", "run", ..] | ["cargo", "test", ..] | ["scripts/stages", "tag"]
        )
}

// ---------------------------------------------------------------------------
// Output: what depends on the clock, and the generated files.

/// Units after which a number depends on the clock.
const CLOCK_UNITS: &[&str] = &[
    "nps",
    "knps",
    "mnps",
    "s",
    "ms",
    "µs",
    "us",
    "ns",
    "sec",
    "secs",
    "second",
    "seconds",
    "minutes",
    "nodes/s",
    "leaves/s",
    "/s",
    "per second",
    "leaves per second",
    "nodes per second",
];

/// Words after which a number depends on the clock (UCI's `info`).
const CLOCK_KEYS: &[&str] = &["nps", "time"];

/// `text` with the digits of every field that depends on the clock written
/// as `#`, and whether there was any.
pub fn mask_clock(text: &str) -> (String, bool) {
    let mut masked = false;
    let out: Vec<String> = text
        .split('\n')
        .map(|line| {
            let (line, any) = mask_line(line);
            masked |= any;
            line
        })
        .collect();
    (out.join("\n"), masked)
}

fn mask_line(line: &str) -> (String, bool) {
    let chars: Vec<char> = line.chars().collect();
    let mut out: Vec<char> = chars.clone();
    let mut any = false;
    let mut i = 0;
    while i < chars.len() {
        let starts_number = chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'));
        if !starts_number {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len()
            && (chars[j].is_ascii_digit()
                || (matches!(chars[j], '.' | ',')
                    && chars.get(j + 1).is_some_and(|c| c.is_ascii_digit())))
        {
            j += 1;
        }
        if j < chars.len() && (chars[j].is_alphabetic() || chars[j] == '_') {
            // `12ms` is a time; `3rd` and `4x` are no numbers of ours.
            let rest: String = chars[j..].iter().collect();
            if !CLOCK_UNITS.iter().any(|u| unit_at(&rest, u)) {
                i = j;
                continue;
            }
        }
        let after: String = chars[j..].iter().collect();
        let after = after.trim_start_matches(' ');
        let before: String = chars[..i].iter().collect();
        let key = before.trim_end_matches(' ');
        let key_word = key
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("");
        // A key and its value are one space apart, as in `info`; a column
        // of a table whose heading ends in "time" is not a key's value.
        let by_key = key.len() + 1 == before.len() && CLOCK_KEYS.contains(&key_word);
        // `24 nps 24000`: `nps`, a key too, names the number after it, not
        // `24` (nor in `24 nps #####`, masked already: masking is the same
        // twice); but `2.92s  3.10s` are two times.
        let by_unit = CLOCK_UNITS.iter().any(|u| {
            unit_at(after, u)
                && !(CLOCK_KEYS.contains(u)
                    && after[u.len()..]
                        .trim_start_matches(' ')
                        .starts_with(|c: char| c.is_ascii_digit() || c == '#'))
        });
        if by_key || by_unit {
            for c in out.iter_mut().take(j).skip(i) {
                if c.is_ascii_digit() {
                    *c = '#';
                }
            }
            any = true;
        }
        i = j;
    }
    (out.into_iter().collect(), any)
}

/// Whether `text` starts with the unit `unit` as a whole word.
fn unit_at(text: &str, unit: &str) -> bool {
    text.starts_with(unit)
        && !text[unit.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// A generated output file reduced to what must not change: every run of
/// `#` (with the `.` and `,` inside a number) is one `#`, and white space
/// is one space, so columns that a wider number shifts still compare.
pub fn comparable(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| {
            line.split_whitespace()
                .map(|token| {
                    let mut out = String::new();
                    let mut chars = token.chars().peekable();
                    while let Some(c) = chars.next() {
                        if c == '#' {
                            while chars
                                .peek()
                                .is_some_and(|&d| d == '#' || d == '.' || d == ',')
                            {
                                chars.next();
                            }
                        }
                        out.push(c);
                    }
                    out
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|line| !line.is_empty())
        .collect()
}

/// The generated file that shows `block`'s output: for each command what
/// it wrote on its standard output, after a `$ command` line when the
/// block has several.
pub fn render_output(block: &Block, outputs: &[String]) -> String {
    let mut body = String::new();
    let mut masked = false;
    let several = block.commands.len() > 1;
    for (cmd, out) in block.commands.iter().zip(outputs) {
        if several {
            for (i, line) in cmd.text.lines().enumerate() {
                let prompt = if i == 0 { "$ " } else { "" };
                let _ = writeln!(body, "{prompt}{line}");
            }
        }
        let (out, any) = mask_clock(out);
        masked |= any;
        body.push_str(&out);
        if !out.is_empty() && !out.ends_with('\n') {
            body.push('\n');
        }
    }
    let fence = "`".repeat(longest_backtick_run(&body).max(2) + 1);
    // The file, not the line: an edit above the block must not make its
    // output stale.
    let mut text = format!(
        "<!-- Written by `scripts/book-data commands --write` from a run of a block of {}. \
         Do not edit. -->\n\n{fence}text\n{body}{fence}\n",
        block.file
    );
    if masked {
        text.push_str(
            "\n*`#`: a digit that depends on the clock (speed, time), different in every run.*\n",
        );
    }
    text
}

fn longest_backtick_run(text: &str) -> usize {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

/// Whether the committed output file still shows what the run printed;
/// `Err` names the first difference.
pub fn compare_output(committed: &str, fresh: &str) -> Result<(), String> {
    let a = comparable(committed);
    let b = comparable(fresh);
    if a == b {
        return Ok(());
    }
    for i in 0..a.len().max(b.len()) {
        let x = a.get(i).map_or("(end of file)", String::as_str);
        let y = b.get(i).map_or("(end of file)", String::as_str);
        if x != y {
            let cut = |s: &str| s.chars().take(100).collect::<String>();
            return Err(format!(
                "shows {:?} where the run prints {:?}",
                cut(x),
                cut(y)
            ));
        }
    }
    Err("differs".into())
}

// ---------------------------------------------------------------------------
// Running.

/// How to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Run the long blocks too (instead of checking their commands).
    pub long: bool,
    /// List what would run; run nothing.
    pub dry_run: bool,
    /// Write the output files instead of comparing them.
    pub write: bool,
    /// Clone the work tree (its uncommitted changes committed on top of
    /// `HEAD` in the clone) instead of `HEAD`.
    pub worktree: bool,
    /// Keep the clone afterwards.
    pub keep: bool,
    /// The commit under test (default `HEAD`).
    pub from: Option<String>,
    /// Seconds a command may take.
    pub budget: u64,
    /// Only these Markdown files (relative to the root); all if empty.
    pub only: Vec<String>,
    /// The target directory the clone builds into (default
    /// `target/book-commands/target` of the root).
    pub target_dir: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            long: false,
            dry_run: false,
            write: false,
            worktree: false,
            keep: false,
            from: None,
            budget: DEFAULT_BUDGET,
            only: Vec::new(),
            target_dir: None,
        }
    }
}

/// How one block went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every command ran and exited 0 (and the output file is current).
    Ran,
    /// A long block whose commands were checked, not run.
    Checked,
    /// Not run: an earlier block of the same file failed.
    Skipped,
    Failed(String),
}

/// A block and how it went.
#[derive(Clone, Debug)]
pub struct BlockReport {
    pub block: Block,
    pub outcome: Outcome,
    /// Seconds on the clock, and of CPU time (builds included).
    pub seconds: f64,
    pub cpu: f64,
}

/// What a run found.
#[derive(Debug, Default)]
pub struct Report {
    pub blocks: Vec<BlockReport>,
    /// Problems that are no block's: bad Markdown, stale output files.
    pub problems: Vec<String>,
    /// Output files written (with `--write`).
    pub written: Vec<String>,
    /// Commands actually run (builds not counted), and reused.
    pub commands: usize,
    pub reused: usize,
    /// CPU seconds of everything the run started, builds included.
    pub cpu: f64,
}

impl Report {
    pub fn failed(&self) -> bool {
        !self.problems.is_empty()
            || self
                .blocks
                .iter()
                .any(|b| matches!(b.outcome, Outcome::Failed(_)))
    }
}

/// Every block of the documents of `root`, and the problems reading them.
pub fn read_blocks(root: &Path, only: &[String]) -> (Vec<Block>, Vec<String>) {
    let mut blocks = Vec::new();
    let mut problems = Vec::new();
    for file in documents(root) {
        if !only.is_empty() && !only.contains(&file) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(root.join(&file)) else {
            problems.push(format!("{file}: cannot read it"));
            continue;
        };
        let (found, bad) = blocks_of(&file, &text);
        blocks.extend(found);
        problems.extend(bad);
    }
    (blocks, problems)
}

/// The output files in `dir` and whether each is bound to a block.
fn stale_outputs(dir: &Path, blocks: &[Block]) -> Vec<String> {
    let bound: BTreeSet<&str> = blocks.iter().filter_map(|b| b.output.as_deref()).collect();
    let mut stale = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if name.ends_with(OUTPUT_SUFFIX) && !bound.contains(name.as_str()) {
                stale.push(name);
            }
        }
    }
    stale.sort();
    stale
}

/// Problems with the names of the output files: each is `stage-…` and
/// bound to one block only.
fn output_name_problems(blocks: &[Block]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut seen: BTreeMap<&str, String> = BTreeMap::new();
    for block in blocks {
        let Some(name) = block.output.as_deref() else {
            continue;
        };
        if !name.starts_with("stage-") {
            problems.push(format!(
                "{}: `{name}`: an output file is named `stage-NN-slug-NAME{OUTPUT_SUFFIX}` \
                 (the stage whose snapshots keep it)",
                block.place()
            ));
        }
        if let Some(first) = seen.insert(name, block.place()) {
            problems.push(format!(
                "{}: `{name}` already shows the output of the block at {first}",
                block.place()
            ));
        }
    }
    problems
}

/// The line `--dry-run` prints for a block.
pub fn describe(block: &Block, long_mode: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let what = match (&block.long, long_mode) {
        (Some(why), true) => format!("long (# long: {why}), runs"),
        (Some(why), false) => format!("long (# long: {why}), checked only"),
        (None, _) => "runs".to_string(),
    };
    let output = block
        .output
        .as_ref()
        .map(|o| format!(", output -> {GENERATED_DIR}/{o}"))
        .unwrap_or_default();
    lines.push(format!("{}: {what}{output}", block.place()));
    for cmd in &block.commands {
        let shown = cmd.text.replace('\n', "\n      ");
        match (&block.long, long_mode) {
            (Some(_), false) => match check_form(&cmd.text) {
                Ok(check) => lines.push(format!("    $ {check}")),
                Err(e) => lines.push(format!("    $ {shown}   ERROR: {e}")),
            },
            _ => lines.push(format!("    $ {shown}")),
        }
    }
    lines
}

/// Runs the book's commands under `root` (see the module documentation);
/// `progress` hears what happens.
pub fn run(
    root: &Path,
    options: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<Report, String> {
    let mut report = Report::default();
    if options.dry_run {
        let (blocks, problems) = read_blocks(root, &options.only);
        report.problems = problems;
        report.problems.extend(output_name_problems(&blocks));
        for block in blocks {
            if options.long && block.long.is_none() {
                continue;
            }
            for line in describe(&block, options.long) {
                progress(&line);
            }
            report.blocks.push(BlockReport {
                block,
                outcome: Outcome::Skipped,
                seconds: 0.0,
                cpu: 0.0,
            });
        }
        return Ok(report);
    }

    let work = root.join(WORK_DIR);
    let base = clone_base(root);
    let clone = base.join("clone");
    let logs = work.join("logs");
    let target_dir = options
        .target_dir
        .clone()
        .unwrap_or_else(|| work.join("target"));
    for dir in [&logs, &target_dir, &base] {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    if let Ok(entries) = std::fs::read_dir(&logs) {
        for entry in entries.flatten() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    let from = options.from.as_deref().unwrap_or("HEAD");
    make_clone(root, &clone, from, options.worktree, progress)?;
    write_cargo_config(&base)?;
    std::os::unix::fs::symlink(&target_dir, clone.join("target"))
        .map_err(|e| format!("target link: {e}"))?;

    let (blocks, problems) = read_blocks(&clone, &options.only);
    report.problems.extend(problems);
    report.problems.extend(output_name_problems(&blocks));
    let generated = clone.join(GENERATED_DIR);
    if options.only.is_empty() {
        for stale in stale_outputs(&generated, &blocks) {
            if options.write {
                let path = root.join(GENERATED_DIR).join(&stale);
                let _ = std::fs::remove_file(&path);
                progress(&format!(
                    "removed {GENERATED_DIR}/{stale}: no block shows it"
                ));
            } else {
                report.problems.push(format!(
                    "{GENERATED_DIR}/{stale}: no block's output goes there any more \
                     (scripts/book-data commands --write removes it)"
                ));
            }
        }
    }

    let mut shell = Shell {
        clone: clone.clone(),
        cwd: clone.clone(),
        logs,
        budget: Duration::from_secs(options.budget),
        memo: BTreeMap::new(),
        count: 0,
        reused: 0,
        spawned: 0,
        cpu: 0.0,
        tags: BTreeMap::new(),
        benched: BTreeSet::new(),
    };
    if !options.only.is_empty() {
        // The files left out would have made the stage tags (chapter 1's
        // first block does), and the blocks kept may check a stage out.
        progress("--- (--only: the stage tags first, as chapter 1 makes them)");
        let ran = shell.type_command(STAGE_TAGS, progress);
        if !ran.ok {
            return Err(format!("`{STAGE_TAGS}` in the clone: {}", ran.why));
        }
    }
    let mut failed_file: Option<String> = None;
    for block in blocks {
        let started = Instant::now();
        let cpu_before = shell.cpu;
        let outcome = if failed_file.as_deref() == Some(&block.file) {
            Outcome::Skipped
        } else {
            progress(&format!(
                "--- {}{}",
                block.place(),
                match (&block.long, options.long) {
                    (Some(_), false) => " (long: checking its commands)",
                    (Some(_), true) => " (long)",
                    _ => "",
                }
            ));
            let outcome = run_block(&block, options, &mut shell, root, &mut report, progress);
            if matches!(outcome, Outcome::Failed(_)) {
                failed_file = Some(block.file.clone());
            }
            outcome
        };
        if let Outcome::Failed(why) = &outcome {
            progress(&format!("FAILED {}: {why}", block.place()));
        }
        report.blocks.push(BlockReport {
            block,
            outcome,
            seconds: started.elapsed().as_secs_f64(),
            cpu: shell.cpu - cpu_before,
        });
    }
    if options.only.is_empty() && failed_file.is_none() {
        report.problems.extend(shell.bench_the_rest(progress));
    }
    report.commands = shell.count;
    report.reused = shell.reused;
    report.cpu = shell.cpu;
    if !options.keep {
        let _ = std::fs::remove_dir_all(&clone);
    } else {
        progress(&format!("kept the clone: {}", clone.display()));
    }
    Ok(report)
}

/// A stable place outside the repository for its clone (the clone is
/// made afresh every run).
fn clone_base(root: &Path) -> PathBuf {
    let canon = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let mut h: u64 = 0xcbf29ce484222325;
    for b in canon.to_string_lossy().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    std::env::temp_dir().join(format!("cb2026-book-commands-{:08x}", h as u32))
}

/// The quicker profiles, for cargo commands in the clone (cargo reads the
/// configuration of every parent directory). Every stage is built once in
/// release, so that build is most of the run's time: no LTO, 16 codegen
/// units. The dev profile only builds what a `cargo test` block needs (the
/// tools run in release, like a reader's), and those tests run in well
/// under a second: no optimisation, no debug info, the quickest build.
/// See the book's appendix, "Inside this repository".
fn write_cargo_config(base: &Path) -> Result<(), String> {
    let dir = base.join(".cargo");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let config = "# Written by `bookdata commands`: the book's commands build the stages\n\
                  # quicker than a reader's `--release`, and the tests (dev profile)\n\
                  # quicker than the repository's; node counts are the same.\n\
                  [profile.release]\n\
                  lto = false\n\
                  codegen-units = 16\n\
                  incremental = true\n\
                  \n\
                  [profile.dev]\n\
                  opt-level = 0\n\
                  debug = false\n\
                  incremental = false\n\
                  \n\
                  [profile.dev.package.\"*\"]\n\
                  opt-level = 0\n";
    std::fs::write(dir.join("config.toml"), config).map_err(|e| format!("cargo config: {e}"))
}

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "git {} in {}: {}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A fresh clone of `root` at `from` (and its work tree's changes, with
/// `worktree`), on a branch `main`, without tags. A local clone shares the
/// objects, so `from` can be any commit, on a branch or not.
fn make_clone(
    root: &Path,
    clone: &Path,
    from: &str,
    worktree: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<(), String> {
    if clone.exists() {
        std::fs::remove_dir_all(clone).map_err(|e| format!("{}: {e}", clone.display()))?;
    }
    let head = git(
        root,
        &["rev-parse", "--verify", &format!("{from}^{{commit}}")],
    )?
    .trim()
    .to_string();
    let parent = clone.parent().expect("the clone has a parent");
    git(
        parent,
        &[
            "clone",
            "-q",
            "--no-tags",
            &root.to_string_lossy(),
            &clone.to_string_lossy(),
        ],
    )?;
    git(clone, &["checkout", "-q", "-B", "main", &head])?;
    for (key, value) in [
        ("user.name", "book commands"),
        ("user.email", "book-commands@cb2026.invalid"),
        ("advice.detachedHead", "false"),
    ] {
        git(clone, &["config", key, value])?;
    }
    let mut what = format!(
        "cloned {} at {}",
        root.display(),
        &head[..12.min(head.len())]
    );
    if worktree {
        let changed = overlay_worktree(root, clone)?;
        if changed > 0 {
            git(clone, &["add", "-A"])?;
            git(
                clone,
                &[
                    "commit",
                    "-q",
                    "--no-verify",
                    "-m",
                    "work tree (bookdata commands --worktree)",
                ],
            )?;
            let _ = write!(what, " with {changed} changed file(s) of the work tree");
        }
    }
    progress(&format!("{what} into {}", clone.display()));
    Ok(())
}

/// Copies the work tree's changed and untracked files into the clone and
/// removes its deleted ones; returns how many.
fn overlay_worktree(root: &Path, clone: &Path) -> Result<usize, String> {
    let status = git(
        root,
        &["status", "--porcelain", "-z", "--untracked-files=all"],
    )?;
    let mut count = 0;
    let mut entries = status.split('\0').filter(|e| !e.is_empty());
    while let Some(entry) = entries.next() {
        let code = &entry[..2.min(entry.len())];
        let path = entry.get(3..).unwrap_or("");
        if code.starts_with('R') || code.starts_with('C') {
            // The old name follows.
            if let Some(old) = entries.next()
                && code.starts_with('R')
            {
                let _ = std::fs::remove_file(clone.join(old));
            }
        }
        let from = root.join(path);
        let to = clone.join(path);
        if from.is_file() {
            if let Some(dir) = to.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            std::fs::copy(&from, &to).map_err(|e| format!("{path}: {e}"))?;
        } else if !from.exists() {
            let _ = std::fs::remove_file(&to);
        } else {
            continue;
        }
        count += 1;
    }
    Ok(count)
}

/// The reader's terminal.
struct Shell {
    clone: PathBuf,
    cwd: PathBuf,
    logs: PathBuf,
    budget: Duration,
    /// (state, directory, command) -> (exit ok, stdout).
    memo: BTreeMap<(String, PathBuf, String), Ran>,
    /// Commands run (builds not counted), and given from the memo.
    count: usize,
    reused: usize,
    /// Processes started, for the log names.
    spawned: usize,
    /// CPU seconds of everything run, builds included.
    cpu: f64,
    /// The stage tags as the book's commands made them: no later command
    /// may move one.
    tags: BTreeMap<String, String>,
    /// The stage tags whose checkout has been built and benched.
    benched: BTreeSet<String>,
}

/// What one command did.
#[derive(Clone)]
struct Ran {
    ok: bool,
    stdout: String,
    why: String,
    /// It ended by itself (with any exit status), not stopped over its budget.
    exited: bool,
}

impl Shell {
    /// The repository's state as far as a command can see it.
    fn state(&self) -> String {
        let head = git(&self.cwd, &["rev-parse", "HEAD"]).unwrap_or_default();
        let status = git(&self.cwd, &["status", "--porcelain"]).unwrap_or_default();
        // What the changes are, not only which files they touch: two
        // answers' patches of the same file are two states.
        let changes = git(&self.cwd, &["diff", "HEAD"]).unwrap_or_default();
        let refs = git(&self.cwd, &["show-ref"]).unwrap_or_default();
        format!("{head}\n{status}\n{changes}\n{refs}")
    }

    /// Which stage tags the last command moved, if any (and remember the
    /// tags as they are now).
    fn moved_tags(&mut self) -> Option<String> {
        let now: BTreeMap<String, String> = git(&self.clone, &["show-ref", "--tags"])
            .unwrap_or_default()
            .lines()
            .filter_map(|line| {
                let (hash, name) = line.split_once(' ')?;
                Some((
                    name.trim_start_matches("refs/tags/").to_string(),
                    hash.to_string(),
                ))
            })
            .collect();
        let moved: Vec<String> = now
            .iter()
            .filter(|(name, hash)| self.tags.get(*name).is_some_and(|before| before != *hash))
            .map(|(name, _)| name.clone())
            .collect();
        self.tags = now;
        (!moved.is_empty()).then(|| {
            format!(
                "it moved the tags {} that an earlier command made: the stages are cut from \
                 main, and `scripts/stages tag` on a stage's checkout cuts them from that \
                 stage instead (git checkout main first)",
                moved.join(", ")
            )
        })
    }

    /// The stage tag HEAD is at, if the work tree is clean (a patched
    /// checkout is no longer the stage).
    fn clean_stage_checkout(&self) -> Option<String> {
        let status = git(&self.clone, &["status", "--porcelain"]).ok()?;
        if !status.trim().is_empty() {
            return None;
        }
        let tags = git(&self.clone, &["tag", "--points-at", "HEAD"]).ok()?;
        let tag = tags
            .lines()
            .find(|t| meta::manifest::parse_tag(t).is_some())?;
        Some(tag.to_string())
    }

    /// Bench-equal: the checkout of a stage, just built, prints with
    /// `bench` the node count its manifest records, which `cb2026 stages
    /// --check` holds main's `bench --stage N` to. Once per stage; a
    /// checkout that is not a clean stage passes.
    fn bench_equal(&mut self, progress: &mut dyn FnMut(&str)) -> Result<(), String> {
        let Some(tag) = self.clean_stage_checkout() else {
            return Ok(());
        };
        if !self.benched.insert(tag.clone()) {
            return Ok(());
        }
        let manifests = meta::manifest::read_dir(&self.clone.join("stages"))?;
        let Some(want) = manifests
            .iter()
            .find(|m| m.tag == tag)
            .and_then(|m| m.bench.nodes)
        else {
            return Err(format!("{tag}: its manifest records no bench nodes"));
        };
        progress(&format!("  (bench-equal: {STAGE_BENCH})"));
        let ran = self.spawn(STAGE_BENCH, self.budget, "bench");
        match stagetool::check::parse_bench(&ran.stdout) {
            Some(got) if got == want => Ok(()),
            got => Err(format!(
                "{tag}: `{STAGE_BENCH}` printed {} nodes, its manifest records {want}",
                got.map_or("no".to_string(), |n| n.to_string())
            )),
        }
    }

    /// Every stage tag that no chapter built: check it out, build and
    /// bench it, so that every stage is held bench-equal.
    fn bench_the_rest(&mut self, progress: &mut dyn FnMut(&str)) -> Vec<String> {
        let left: Vec<String> = self
            .tags
            .keys()
            .filter(|t| meta::manifest::parse_tag(t).is_some() && !self.benched.contains(*t))
            .cloned()
            .collect();
        let mut problems = Vec::new();
        for tag in left {
            progress(&format!("--- {tag}: no chapter built it (bench-equal)"));
            if let Err(e) = git(&self.clone, &["checkout", "-q", &tag]) {
                problems.push(format!("{tag}: git checkout: {e}"));
                continue;
            }
            let built = self.spawn(STAGE_BUILD, Duration::from_secs(BUILD_BUDGET), "build");
            let result = if built.ok {
                self.bench_equal(progress)
            } else {
                Err(format!("{tag}: `{STAGE_BUILD}` failed: {}", built.why))
            };
            problems.extend(result.err());
        }
        problems
    }

    fn type_command(&mut self, text: &str, progress: &mut dyn FnMut(&str)) -> Ran {
        let shape = shape(text);
        if !shape.compound
            && shape.words.first().is_some_and(|w| w == "cd")
            && shape.words.len() <= 2
        {
            let to = shape
                .words
                .get(1)
                .map_or_else(|| self.clone.clone(), |dir| self.cwd.join(dir));
            return match to.canonicalize() {
                Ok(dir) if dir.is_dir() => {
                    self.cwd = dir;
                    Ran {
                        ok: true,
                        stdout: String::new(),
                        why: String::new(),
                        exited: true,
                    }
                }
                _ => Ran {
                    ok: false,
                    stdout: String::new(),
                    why: format!("cd: no directory {}", to.display()),
                    exited: true,
                },
            };
        }
        let key = reusable(text).then(|| (self.state(), self.cwd.clone(), memo_key(text)));
        if let Some(before) = key.as_ref().and_then(|k| self.memo.get(k)) {
            self.reused += 1;
            progress(&format!(
                "$ {}   (same state as before: not run again)",
                first_line(text)
            ));
            return before.clone();
        }
        if let Some(build) = build_first(text) {
            progress(&format!("  (build first: {build})"));
            let built = self.spawn(&build, Duration::from_secs(BUILD_BUDGET), "build");
            if built.ok
                && build == STAGE_BUILD
                && let Err(why) = self.bench_equal(progress)
            {
                return Ran {
                    ok: false,
                    stdout: String::new(),
                    why,
                    exited: false,
                };
            }
        }
        progress(&format!("$ {}", first_line(text)));
        self.count += 1;
        let mut ran = self.spawn(text, self.budget, "run");
        if let Some(moved) = self.moved_tags() {
            ran.ok = false;
            ran.exited = false;
            ran.why = moved;
        }
        if let Some(key) = key {
            self.memo.insert(key, ran.clone());
        }
        ran
    }

    /// Runs `text` in bash with a time budget; the log keeps everything.
    fn spawn(&mut self, text: &str, budget: Duration, kind: &str) -> Ran {
        use std::os::unix::process::CommandExt;
        self.spawned += 1;
        let stem = self.logs.join(format!("{:03}-{kind}", self.spawned));
        let out_path = stem.with_extension("stdout");
        let err_path = stem.with_extension("stderr");
        let (Ok(out_file), Ok(err_file)) = (
            std::fs::File::create(&out_path),
            std::fs::File::create(&err_path),
        ) else {
            return Ran {
                ok: false,
                stdout: String::new(),
                why: format!("cannot write logs in {}", self.logs.display()),
                exited: false,
            };
        };
        let started = Instant::now();
        let mut command = Command::new("bash");
        for key in reader_env_removed() {
            command.env_remove(key);
        }
        let child = command
            .args(["-o", "pipefail", "-c", text])
            .current_dir(&self.cwd)
            .env("CARGO_TERM_COLOR", "never")
            .env("CB2026_BOOK_COMMANDS", "1")
            .stdin(Stdio::null())
            .stdout(out_file)
            .stderr(err_file)
            .process_group(0)
            .spawn();
        let mut child = match child {
            Ok(child) => child,
            Err(e) => {
                return Ran {
                    ok: false,
                    stdout: String::new(),
                    why: format!("cannot run bash: {e}"),
                    exited: false,
                };
            }
        };
        let cpu_before = own_children_cpu();
        let mut checked = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) => {
                    // The budget is CPU time, so that a busy machine does not
                    // fail a command; a command that waits is stopped after
                    // WALL_FACTOR times its budget.
                    let over = if checked.elapsed() >= Duration::from_secs(1) {
                        checked = Instant::now();
                        group_cpu(child.id()) > budget.as_secs_f64()
                    } else {
                        false
                    };
                    if over || started.elapsed() > budget * WALL_FACTOR {
                        let _ = Command::new("kill")
                            .args(["-KILL", "--", &format!("-{}", child.id())])
                            .status();
                        let _ = child.wait();
                        break None;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(_) => break None,
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        let cpu = own_children_cpu() - cpu_before;
        self.cpu += cpu;
        let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
        let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
        let summary = match status {
            Some(s) => format!("{s}"),
            None => format!(
                "stopped: over its budget of {} s of CPU time ({} s on the clock)",
                budget.as_secs(),
                (budget * WALL_FACTOR).as_secs()
            ),
        };
        let _ = std::fs::write(
            stem.with_extension("log"),
            format!(
                "$ {text}\n(in {}, {seconds:.1} s, {cpu:.1} s CPU, {summary})\n--- stdout\n{stdout}--- stderr\n{stderr}",
                self.cwd.display()
            ),
        );
        let ok = status.is_some_and(|s| s.success());
        let why = if ok {
            String::new()
        } else {
            let tail: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
            let tail = tail[tail.len().saturating_sub(4)..].join(" | ");
            format!(
                "`{}` {summary} after {seconds:.1} s: {tail} (log: {})",
                first_line(text),
                stem.with_extension("log").display()
            )
        };
        Ran {
            ok,
            stdout,
            why,
            exited: status.is_some(),
        }
    }
}

/// The variables of this process's environment that a reader's terminal
/// doesn't have: the clone's own `target` (the shared directory) is where a
/// reader's build goes and where the scripts look, its profiles are the
/// ones of [`write_cargo_config`], not the `CARGO_PROFILE_*` overrides that
/// `scripts/test` sets for its own builds, and a failing test prints no
/// backtrace unless `RUST_BACKTRACE` asks for one.
fn reader_env_removed() -> Vec<std::ffi::OsString> {
    let mut keys: Vec<std::ffi::OsString> = std::env::vars_os()
        .map(|(key, _)| key)
        .filter(|key| {
            key.to_str()
                .is_some_and(|k| k.starts_with("CARGO_PROFILE_"))
        })
        .collect();
    keys.push("CARGO_TARGET_DIR".into());
    keys.push("CARGO_BUILD_TARGET_DIR".into());
    keys.push("RUST_BACKTRACE".into());
    keys
}

/// CPU seconds (user and system) of this process's children that have
/// been waited for, from `/proc/self/stat`.
fn own_children_cpu() -> f64 {
    stat_ticks("self", 13..=14)
}

/// CPU seconds used so far by the processes of the group `pgid` and by
/// the children they have waited for.
fn group_cpu(pgid: u32) -> f64 {
    let mut seconds = 0.0;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        if stat_fields(pid).and_then(|f| f.get(2).and_then(|g| g.parse::<u32>().ok())) == Some(pgid)
        {
            seconds += stat_ticks(pid, 11..=14);
        }
    }
    seconds
}

/// The fields of `/proc/PID/stat` after the command name (the first is
/// the state, field 3 of proc(5)).
fn stat_fields(pid: &str) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    Some(rest.split_whitespace().map(str::to_string).collect())
}

/// The sum of the given fields (clock ticks, 100 a second on Linux) in
/// seconds: 11..=12 are utime and stime, 13..=14 cutime and cstime.
fn stat_ticks(pid: &str, fields: std::ops::RangeInclusive<usize>) -> f64 {
    let Some(all) = stat_fields(pid) else {
        return 0.0;
    };
    let ticks: u64 = fields
        .filter_map(|i| all.get(i).and_then(|f| f.parse::<u64>().ok()))
        .sum();
    ticks as f64 / 100.0
}

fn first_line(text: &str) -> String {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("").trim_end_matches('\\').trim_end();
    if lines.next().is_some() {
        format!("{first} …")
    } else {
        first.to_string()
    }
}

fn run_block(
    block: &Block,
    options: &Options,
    shell: &mut Shell,
    root: &Path,
    report: &mut Report,
    progress: &mut dyn FnMut(&str),
) -> Outcome {
    let check_only = block.long.is_some() && !options.long;
    let mut outputs = Vec::new();
    for cmd in &block.commands {
        let text = if check_only {
            match check_form(&cmd.text) {
                Ok(check) => check,
                Err(e) => return Outcome::Failed(format!("line {}: {e}", cmd.line)),
            }
        } else {
            cmd.text.clone()
        };
        let ran = shell.type_command(&text, progress);
        if !check_only && expects_failure(&cmd.text) {
            if ran.ok || !ran.exited {
                let why = if ran.ok {
                    "succeeded, but its comment says it fails".to_string()
                } else {
                    ran.why
                };
                return Outcome::Failed(format!("line {}: {why}", cmd.line));
            }
        } else if !ran.ok {
            return Outcome::Failed(format!("line {}: {}", cmd.line, ran.why));
        }
        outputs.push(ran.stdout);
    }
    let Some(name) = &block.output else {
        return if check_only {
            Outcome::Checked
        } else {
            Outcome::Ran
        };
    };
    let committed_path = shell.clone.join(GENERATED_DIR).join(name);
    let committed = std::fs::read_to_string(&committed_path).ok();
    if check_only {
        return match committed {
            Some(_) => Outcome::Checked,
            None => Outcome::Failed(format!(
                "{GENERATED_DIR}/{name} is missing: a long block's output is written by \
                 `scripts/book-data commands --long --write`"
            )),
        };
    }
    let fresh = render_output(block, &outputs);
    if options.write {
        let path = root.join(GENERATED_DIR).join(name);
        let same = committed
            .as_deref()
            .is_some_and(|c| compare_output(c, &fresh).is_ok());
        // Keep the committed file when only clock digits differ.
        if !same {
            if let Err(e) = std::fs::write(&path, &fresh) {
                return Outcome::Failed(format!("{}: {e}", path.display()));
            }
            report.written.push(format!("{GENERATED_DIR}/{name}"));
        }
        return Outcome::Ran;
    }
    match committed {
        None => Outcome::Failed(format!(
            "{GENERATED_DIR}/{name} is missing (scripts/book-data commands --write)"
        )),
        Some(committed) => match compare_output(&committed, &fresh) {
            Ok(()) => Outcome::Ran,
            Err(e) => Outcome::Failed(format!(
                "{GENERATED_DIR}/{name} is stale: it {e} (scripts/book-data commands --write)"
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only_commands(body: &str) -> Vec<String> {
        sh_commands(body, 1)
            .unwrap()
            .1
            .into_iter()
            .map(|c| c.text)
            .collect()
    }

    #[test]
    fn a_block_splits_into_commands() {
        let body = "# a comment\nscripts/stages tag\n\ncargo run --release -- perft 3 --divide \\\n    --fen \"r3k2r/p1ppqpb1 w KQkq - 0 1\"\ncargo run --release -- stages   # the demo\n";
        assert_eq!(
            only_commands(body),
            vec![
                "scripts/stages tag",
                "cargo run --release -- perft 3 --divide \\\n    --fen \"r3k2r/p1ppqpb1 w KQkq - 0 1\"",
                "cargo run --release -- stages   # the demo",
            ]
        );
        let heredoc = "cargo run --release <<'EOF'\nuci\nquit\nEOF\nls\n";
        assert_eq!(
            only_commands(heredoc),
            vec!["cargo run --release <<'EOF'\nuci\nquit\nEOF", "ls"]
        );
        assert_eq!(
            only_commands("a |\n  b\nc &&\n d\n"),
            vec!["a |\n  b", "c &&\n d"]
        );
    }

    #[test]
    fn the_long_marker_is_the_first_line() {
        let (long, commands) = sh_commands("# long: an SPRT, hours\nscripts/sprt 5\n", 1).unwrap();
        assert_eq!(long.as_deref(), Some("an SPRT, hours"));
        assert_eq!(commands.len(), 1);
        assert!(sh_commands("ls\n# long: late\nls\n", 1).is_err());
        assert!(sh_commands("# long\nls\n", 1).is_err());
        assert_eq!(sh_commands("# longer story\nls\n", 1).unwrap().0, None);
    }

    #[test]
    fn console_blocks_are_prompts_only() {
        let (_, commands) =
            console_commands("$ cargo run -- bench \\\n> --depth 2\n$ ls\n", 1).unwrap();
        assert_eq!(commands[0].text, "cargo run -- bench \\\n--depth 2");
        assert_eq!(commands[1].line, 3);
        assert!(console_commands("$ ls\nREADME.md\n", 1).is_err());
    }

    #[test]
    fn checks_of_long_commands() {
        assert_eq!(
            check_form("scripts/sprt 5").unwrap(),
            "scripts/sprt --dry-run 5"
        );
        assert_eq!(
            check_form("scripts/sprt 6 5   # stage 6 vs 5").unwrap(),
            "scripts/sprt --dry-run 6 5"
        );
        assert_eq!(
            check_form("scripts/sprt --dry-run 5").unwrap(),
            "scripts/sprt --dry-run 5"
        );
        assert_eq!(
            check_form("cargo run --release -- bench --no-such-flag").unwrap(),
            "cargo run --release -- bench --no-such-flag --help"
        );
        assert_eq!(
            check_form("cargo run --release").unwrap(),
            "cargo run --release -- --help"
        );
        assert_eq!(
            check_form("cargo fuzz run movegen -- -max_total_time=60").unwrap(),
            "cargo fuzz run movegen --help -- -max_total_time=60"
        );
        assert_eq!(check_form("scripts/test").unwrap(), "scripts/test --help");
        assert_eq!(
            check_form("git apply book/src/answers/stage-07-mvvlva-1.patch").unwrap(),
            "git apply --check book/src/answers/stage-07-mvvlva-1.patch"
        );
        assert_eq!(
            check_form("git checkout -- crates").unwrap(),
            "git checkout -- crates"
        );
        assert_eq!(
            check_form("git checkout main   # back").unwrap(),
            "git checkout main   # back"
        );
        assert_eq!(
            check_form("x --fen \"8/8 w - - 0 1\"").unwrap(),
            "x --fen '8/8 w - - 0 1' --help"
        );
        assert!(check_form("a | b").is_err());
    }

    #[test]
    fn builds_come_first() {
        assert_eq!(
            build_first("cargo run --release -- perft 5").as_deref(),
            Some("cargo build --release")
        );
        assert_eq!(
            build_first("cargo test -p engine --test eval").as_deref(),
            Some("cargo test --no-run -p engine --test eval")
        );
        assert_eq!(
            build_first("scripts/stages tag").as_deref(),
            Some("cargo build -q --release -p stagetool")
        );
        assert_eq!(build_first("git checkout main"), None);
        // The build that makes a checked-out stage's engine, after which
        // the runner benches it (bench-equal).
        assert_eq!(
            build_first("cargo run --release -- bench").as_deref(),
            Some(STAGE_BUILD)
        );
    }

    #[test]
    fn clock_fields_are_masked() {
        assert_eq!(
            mask_clock("5.605 s\n10616568 nodes 1893989 nps").0,
            "#.### s\n10616568 nodes ####### nps"
        );
        assert_eq!(
            mask_clock(
                "info depth 1 seldepth 1 score cp 36 nodes 24 nps 24000 time 0 hashfull 0 pv g1f3"
            )
            .0,
            "info depth 1 seldepth 1 score cp 36 nodes 24 nps ##### time # hashfull 0 pv g1f3"
        );
        assert_eq!(
            mask_clock("20215802 leaves per second").0,
            "######## leaves per second"
        );
        assert_eq!(mask_clock("took 12ms").0, "took ##ms");
        let info = "info depth 4 nodes 2566 nps 1234567 time 2 pv g1f3";
        let masked = mask_clock(info).0;
        assert_eq!(masked, "info depth 4 nodes 2566 nps ####### time # pv g1f3");
        assert_eq!(
            mask_clock(&masked).0,
            masked,
            "masking twice is masking once"
        );
        assert_eq!(
            mask_clock("    time          2.92s          3.10s").0,
            "    time          #.##s          #.##s"
        );
        let kept = "position  1       206604 nodes  rnbqkbnr/pppppppp/8/8 w KQkq - 0 1\n6 stages, e2e4: 20\n6     Iterative deepening and time           4       13444";
        assert_eq!(mask_clock(kept), (kept.to_string(), false));
    }

    #[test]
    fn only_clock_fields_may_differ() {
        assert!(compare_output("a ####### nps\n#.### s", "a ### nps\n##.### s").is_ok());
        assert!(compare_output("x    1", "x 1").is_ok());
        assert!(compare_output("10616568 nodes", "10616569 nodes").is_err());
        assert!(compare_output("a\nb", "a").is_err());
    }

    #[test]
    fn output_includes_bind_to_the_block_before() {
        let text = "# T\n\n```sh\ncargo run -- bench\n```\n\n{{#include generated/stage-03-negamax-bench.out.md}}\n\n```sh\nls\n```\n\n{{#include generated/stage-03-negamax-x.out.md}}\n";
        let (blocks, problems) = blocks_of("book/src/ch03.md", text);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            blocks[0].output.as_deref(),
            Some("stage-03-negamax-bench.out.md")
        );
        assert_eq!(blocks[0].line, 3);
        assert_eq!(
            blocks[1].output.as_deref(),
            Some("stage-03-negamax-x.out.md")
        );
        let loose = "text\n\n{{#include generated/stage-03-negamax-bench.out.md}}\n";
        let (_, problems) = blocks_of("book/src/ch03.md", loose);
        assert_eq!(problems.len(), 1);
    }

    #[test]
    fn a_comment_saying_fails_expects_an_error() {
        assert!(expects_failure(
            "cargo test -p engine --test search   # fails: four tests"
        ));
        assert!(expects_failure(
            "cargo test -q \\\n    --test board # fails"
        ));
        assert!(!expects_failure("cargo test -p engine --test search"));
        assert!(!expects_failure("cargo run -- bench   # then it fails"));
        assert!(!expects_failure("echo '# fails'"));
    }

    #[test]
    fn standard_input_from_a_file_is_no_word_and_stays_in_the_check() {
        let s = shape("cargo run --release < book/src/answers/stage-09-killers-3.uci");
        assert_eq!(s.words, vec!["cargo", "run", "--release"]);
        assert_eq!(
            s.stdin.as_deref(),
            Some("book/src/answers/stage-09-killers-3.uci")
        );
        assert!(!s.compound && !s.open);
        assert_eq!(
            check_form("cargo run --release <session.uci").unwrap(),
            "cargo run --release -- --help < session.uci"
        );
    }

    #[test]
    fn shapes() {
        let s = shape("git diff a b    # exactly chapter 4's change");
        assert_eq!(s.words, vec!["git", "diff", "a", "b"]);
        assert!(!s.compound && !s.open);
        assert!(shape("echo \"open").open);
        assert!(shape("a \\").open);
        assert!(shape("a && b").compound);
        assert!(!shape("a && b").open);
        assert!(shape("a &&").open);
    }

    #[test]
    fn a_comment_does_not_make_another_command() {
        let tag = memo_key("scripts/stages tag");
        assert_eq!(memo_key("scripts/stages tag      # create the tags"), tag);
        assert_ne!(
            memo_key("cargo run -- search --fen 'a b'"),
            memo_key("cargo run -- search --fen a b")
        );
        assert_ne!(
            memo_key("cargo run -q < a.txt"),
            memo_key("cargo run -q < b.txt")
        );
    }
}
// ANCHOR_END: main-only

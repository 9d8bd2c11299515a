//! The chapters' own files: one module per chapter, and this registry of
//! them. A chapter declares here, in its one [`Chapter`] entry, the
//! endings of the files it writes, its claims about the numbers, and, if
//! it has expensive runs, how to measure them into its cache and how to
//! check that cache again; `generate` and `check` (`src/generate.rs`) know
//! nothing else about it.
//!
//! Each chapter's entry below carries its stage's line tag, so the
//! snapshot of stage N has the chapters up to N and no others.

use crate::book::Book;
use crate::cache::Rechecked;
use crate::{Files, Stage};

// One module per chapter, named after its stage's slug. (Declared here,
// not by `chapters!`, so that `cargo fmt` finds them.)
pub mod board;

pub mod eval; // +stage-02-eval

pub mod negamax; // +stage-03-negamax

pub mod alphabeta; // +stage-04-alphabeta

pub mod quiescence; // +stage-05-quiescence

pub mod iterative; // +stage-06-iterative

pub mod mvvlva; // +stage-07-mvvlva

pub mod tt; // +stage-08-tt

pub mod killers; // +stage-09-killers

pub mod history; // +stage-10-history

pub mod pvs; // +stage-11-pvs

pub mod nullmove; // +stage-12-nullmove

pub mod lmr; // +stage-13-lmr

pub mod versus; // +stage-13-lmr

pub mod extensions; // +stage-14-extensions

pub mod mates; // +stage-14-extensions

pub mod see; // +stage-15-see

pub mod pruning; // +stage-16-pruning

pub mod aspiration; // +stage-17-aspiration

pub mod nnue; // +stage-18-nnue

pub mod smp; // +stage-19-smp

pub mod standing; // +stage-19-smp

/// Lists the chapters, one entry each (the module of the chapter's
/// stage, which holds its `CHAPTER`), in stage order: [`all`].
macro_rules! chapters {
    ($($module:ident;)*) => {
        /// Every chapter, in stage order.
        fn all() -> Vec<Chapter> {
            vec![$($module::CHAPTER),*]
        }
    };
}

chapters! {
    board;
    eval; // +stage-02-eval
    negamax; // +stage-03-negamax
    alphabeta; // +stage-04-alphabeta
    quiescence; // +stage-05-quiescence
    iterative; // +stage-06-iterative
    mvvlva; // +stage-07-mvvlva
    tt; // +stage-08-tt
    killers; // +stage-09-killers
    history; // +stage-10-history
    pvs; // +stage-11-pvs
    nullmove; // +stage-12-nullmove
    lmr; // +stage-13-lmr
    extensions; // +stage-14-extensions
    see; // +stage-15-see
    pruning; // +stage-16-pruning
    aspiration; // +stage-17-aspiration
    nnue; // +stage-18-nnue
    smp; // +stage-19-smp
}

/// Hears what is being measured.
pub type Progress<'a> = &'a mut dyn FnMut(&str);

/// What `generate` and `check` know of a chapter.
#[derive(Clone, Copy)]
pub struct Chapter {
    /// The chapter's stage: its files are named after this stage's tag.
    pub stage: u32,
    /// The endings of its files (after the tag), so that a file it no
    /// longer writes is found stale.
    pub outputs: &'static [&'static str],
    /// Fails when something the chapter's text says of the numbers no
    /// longer holds.
    pub claims: fn(&Book) -> Result<(), String>,
    /// Its expensive runs, each kept in a cache file.
    pub caches: &'static [&'static dyn Cache],
    /// Its files, from the recorded data, its cache and cheap searches.
    pub render: fn(&Book, &Stage) -> Result<Files, String>,
}

impl Chapter {
    /// A chapter that only renders.
    pub const fn new(
        stage: u32,
        outputs: &'static [&'static str],
        render: fn(&Book, &Stage) -> Result<Files, String>,
    ) -> Chapter {
        Chapter {
            stage,
            outputs,
            claims: no_claims,
            caches: &[],
            render,
        }
    }
}

/// An expensive run of a chapter, kept in a committed cache file.
pub trait Cache {
    /// Measures the run into its cache (`generate`); without `measure`,
    /// only when the cache is missing.
    fn measure(
        &self,
        book: &Book,
        stage: &Stage,
        measure: bool,
        progress: Progress,
    ) -> Result<(), String>;
    /// Measures the cache's cheap entries again (`check`): how many, and
    /// what differs.
    fn recheck(&self, book: &Book, stage: &Stage) -> Result<Rechecked, String>;
}

// ANCHOR: stage-06-iterative--own-cache
/// A cache a chapter measures and checks with functions of its own.
pub struct Own {
    pub measure: fn(&Book, &Stage, bool, Progress) -> Result<(), String>,
    pub recheck: fn(&Book, &Stage) -> Result<Rechecked, String>,
}

impl Cache for Own {
    fn measure(
        &self,
        book: &Book,
        stage: &Stage,
        measure: bool,
        progress: Progress,
    ) -> Result<(), String> {
        (self.measure)(book, stage, measure, progress)
    }

    fn recheck(&self, book: &Book, stage: &Stage) -> Result<Rechecked, String> {
        (self.recheck)(book, stage)
    }
}
// ANCHOR_END: stage-06-iterative--own-cache

fn no_claims(_: &Book) -> Result<(), String> {
    Ok(())
}

// ANCHOR: stage-06-iterative--nothing-to-recheck
/// For an [`Own`] cache whose every entry is too costly to measure again.
pub fn nothing_to_recheck(_: &Book, _: &Stage) -> Result<Rechecked, String> {
    Ok(Rechecked::default())
}
// ANCHOR_END: stage-06-iterative--nothing-to-recheck

/// The chapters whose stage this repository (or snapshot) has, with it.
fn here<'a>(book: &'a Book) -> Vec<(Chapter, &'a Stage)> {
    all()
        .into_iter()
        .filter_map(|c| Some((c, book.find(c.stage)?)))
        .collect()
}

/// The endings of every chapter's files.
pub fn outputs() -> Vec<&'static str> {
    all()
        .iter()
        .flat_map(|c| c.outputs.iter().copied())
        .collect()
}

/// Check every chapter's claims, then render its files.
pub fn render(book: &Book) -> Result<Files, String> {
    for (chapter, _) in here(book) {
        (chapter.claims)(book)?;
    }
    let mut files = Files::new();
    for (chapter, stage) in here(book) {
        for (name, text) in (chapter.render)(book, stage)? {
            let ending = name.strip_prefix(stage.tag()).unwrap_or_default();
            if !chapter.outputs.contains(&ending) {
                return Err(format!(
                    "{name}: the chapter of stage {} writes it, but does not declare it",
                    stage.id()
                ));
            }
            files.insert(name, text);
        }
    }
    Ok(files)
}

/// Measure every chapter's cache (see [`Chapter::measure`]).
pub fn measure(book: &Book, measure: bool, progress: Progress) -> Result<(), String> {
    for (chapter, stage) in here(book) {
        for cache in chapter.caches {
            cache.measure(book, stage, measure, progress)?;
        }
    }
    Ok(())
}

/// Measure again the cheap entries of every chapter's cache.
pub fn recheck(book: &Book) -> Rechecked {
    let mut found = Rechecked::default();
    for (chapter, stage) in here(book) {
        for cache in chapter.caches {
            match cache.recheck(book, stage) {
                Ok(more) => found.add(more),
                Err(e) => found.problems.push(e),
            }
        }
    }
    found
}

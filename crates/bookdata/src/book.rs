//! What the chapters' files are made from: the stage manifests (their
//! recorded bench counts and match results), the measured nodes-by-depth
//! series, and the repository they live in.

use std::collections::BTreeMap;
use std::path::Path;

use engine::stages::bench_fens;

use crate::Stage;
use crate::series::Series;

pub struct Book<'a> {
    pub root: &'a Path,
    pub stages: &'a [Stage],
    pub series: &'a BTreeMap<u32, Series>,
}

/// Two stages at the same depth, position by position.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub depth: u32,
    pub before: Vec<u64>,
    pub after: Vec<u64>,
}

impl Comparison {
    pub fn before_total(&self) -> u64 {
        self.before.iter().sum()
    }

    pub fn after_total(&self) -> u64 {
        self.after.iter().sum()
    }
}

impl Book<'_> {
    /// Stage `id`, if this repository (or snapshot) has it.
    pub fn find(&self, id: u32) -> Option<&Stage> {
        self.stages.iter().find(|s| s.id() == id)
    }

    pub fn stage(&self, id: u32) -> Result<&Stage, String> {
        self.find(id)
            .ok_or_else(|| format!("no stage {id} in stages/"))
    }

    /// Recorded nodes per position of stage `id` at `depth`: from its
    /// manifest at its bench depth, otherwise from its measured series.
    pub fn recorded(&self, id: u32, depth: u32) -> Option<Vec<u64>> {
        let bench = &self.find(id)?.manifest.bench;
        if bench.depth == depth && !bench.positions.is_empty() {
            return Some(bench.positions.clone());
        }
        let row = self.series.get(&id)?.at(depth)?;
        Some(row.positions.clone())
    }

    /// [`Book::recorded`], or why there is nothing.
    pub fn positions(&self, id: u32, depth: u32) -> Result<Vec<u64>, String> {
        self.recorded(id, depth).ok_or_else(|| {
            format!(
                "no per-position counts of stage {id} at depth {depth}: it is neither the bench \
                 depth nor in the measured series"
            )
        })
    }

    /// Stage `index` (in stage order) against the stage before it, at the
    /// depth its manifest recorded (`[bench.vs_previous]`). `None` for the
    /// first stage, when nothing is recorded, and when one stage counts
    /// perft leaves and the other search nodes (`cb2026 stages` does not
    /// compare those either).
    pub fn comparison(&self, index: usize) -> Result<Option<Comparison>, String> {
        let stage = &self.stages[index];
        let Some(previous) = index.checked_sub(1).map(|i| &self.stages[i]) else {
            return Ok(None);
        };
        let Some(recorded) = &stage.manifest.bench.vs_previous else {
            return Ok(None);
        };
        if previous.searches != stage.searches {
            return Ok(None);
        }
        let comparison = Comparison {
            depth: recorded.depth,
            before: self.positions(previous.id(), recorded.depth)?,
            after: self.positions(stage.id(), recorded.depth)?,
        };
        if (comparison.before_total(), comparison.after_total())
            != (recorded.before, recorded.after)
        {
            return Err(format!(
                "stage {}: [bench.vs_previous] records {} -> {} at depth {}, but the \
                 per-position counts add up to {} -> {} (run `cb2026 stages --record`, \
                 then `scripts/book-data`)",
                stage.id(),
                recorded.before,
                recorded.after,
                recorded.depth,
                comparison.before_total(),
                comparison.after_total()
            ));
        }
        Ok(Some(comparison))
    }

    /// [`Book::comparison`] of stage `id`, if the stage is here.
    pub fn compared(&self, id: u32) -> Result<Option<Comparison>, String> {
        match self.stages.iter().position(|s| s.id() == id) {
            Some(index) => self.comparison(index),
            None => Ok(None),
        }
    }

    /// The SPRT bounds `(elo0, elo1)` stage `id`'s match was run with, if
    /// recorded.
    pub fn bounds(&self, id: u32) -> Option<(f64, f64)> {
        let sprt = self.find(id)?.manifest.sprt.as_ref()?;
        Some((sprt.elo0?, sprt.elo1?))
    }

    /// The recorded bench of a stage, checked for consistency.
    pub fn bench_total(&self, stage: &Stage) -> Result<u64, String> {
        let bench = &stage.manifest.bench;
        let sum: u64 = bench.positions.iter().sum();
        match bench.nodes {
            Some(nodes) if nodes == sum && bench.positions.len() == bench_fens().len() => Ok(nodes),
            _ => Err(format!(
                "stage {}: [bench] records nodes = {:?} and {} positions adding up to {sum}; \
                 they must agree with each other and with the {} bench positions \
                 (run `cb2026 stages --record`)",
                stage.id(),
                bench.nodes,
                bench.positions.len(),
                bench_fens().len()
            )),
        }
    }
}

//! Stage manifests, `stages/NN-slug.toml`: reading them (serde + toml) and
//! writing the tables that tools record in them (toml_edit, so that every
//! other key, table and comment stays as it was).
//!
//! The fields are described in `stages/README.md`. Unknown fields and
//! tables are ignored when reading, so a manifest can carry notes for
//! people.

use serde::{Deserialize, Serialize};
use toml_edit::{DocumentMut, Item, Table};

/// One stage, as its manifest describes it.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct Manifest {
    /// Stage number; the file is `stages/NN-slug.toml` with NN = id.
    pub id: u32,
    pub slug: String,
    /// The git tag of the stage's snapshot, `stage-NN-slug`.
    pub tag: String,
    /// The chapter's title.
    pub title: String,
    /// Chapter file, relative to `book/src/`.
    pub chapter: String,
    /// Field names of the engine's `Techniques` this stage switches on.
    #[serde(default)]
    pub techniques: Vec<String>,
    /// Words this stage introduces: they must not appear in the Rust code
    /// of an earlier stage's snapshot (`scripts/stages lint`).
    #[serde(default)]
    pub introduces: Vec<String>,
    pub bench: BenchRecord,
    /// Written by `arena record`: the SPRT against the previous stage.
    #[serde(default)]
    pub sprt: Option<MatchRecord>,
    /// Written by `arena record --table reliability`: a self-play run that
    /// counts failures.
    #[serde(default)]
    pub reliability: Option<MatchRecord>,
    /// `arena record --table reliability_fast`: the same at a harsher clock.
    #[serde(default)]
    pub reliability_fast: Option<MatchRecord>,
    /// `arena record --table versus_low` / `versus_high`: matches against a
    /// reference engine of known strength, one level below and one above.
    #[serde(default)]
    pub versus_low: Option<MatchRecord>,
    #[serde(default)]
    pub versus_high: Option<MatchRecord>,
    /// `arena record --table parts.NAME`: for a stage of several
    /// techniques, the SPRT of one of them alone (technique NAME) against
    /// the previous stage, by the name of the technique's switch.
    #[serde(default)]
    pub parts: std::collections::BTreeMap<String, MatchRecord>,
    /// `arena record --table experiments.NAME`: the SPRT of the stage with
    /// one of its experiments (technique NAME, off in the stage's preset)
    /// switched on, against the stage as it is.
    #[serde(default)]
    pub experiments: std::collections::BTreeMap<String, MatchRecord>,
    /// `scripts/strength --against NAME --record`: a match against another
    /// engine (Debian's `toga2`, ...), by the engine's name; how strong,
    /// not whether stronger.
    #[serde(default)]
    pub opponents: std::collections::BTreeMap<String, MatchRecord>,
    /// `scripts/sprt --no-sprt --table nets.NAME --record`: the stage with
    /// another network (`EvalFile`) against the previous stage, every game
    /// played: how strong a net of other data or size makes it, by the
    /// net's name.
    #[serde(default)]
    pub nets: std::collections::BTreeMap<String, MatchRecord>,
    /// `scripts/time-to-depth --record NAME`: how much sooner several
    /// threads reach a depth than one (Lazy SMP), by the name of the
    /// settings measured.
    #[serde(default)]
    pub time_to_depth: std::collections::BTreeMap<String, TimeToDepth>,
}

/// A time-to-depth measurement: the bench positions searched to `depth`
/// on one thread and on `threads`, alternately, `rounds` times each; per
/// position the median of its rounds. Field order is the order in the
/// file.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct TimeToDepth {
    /// The command that measured it.
    pub command: String,
    pub depth: u32,
    pub threads: u32,
    pub rounds: u32,
    /// The parameters changed from their defaults, `NAME=VALUE`.
    pub params: Vec<String>,
    /// The cores the machine reported.
    pub cores: u32,
    /// Milliseconds to reach the depth on one thread, per position.
    pub one_thread_ms: Vec<f64>,
    /// The same on `threads` threads.
    pub threads_ms: Vec<f64>,
    /// All positions' time on one thread over all of theirs on `threads`.
    pub speedup: f64,
    /// The commit measured (never `-dirty`).
    pub commit: String,
}

impl TimeToDepth {
    /// All positions' time on one thread, in milliseconds.
    pub fn one_thread_total(&self) -> f64 {
        self.one_thread_ms.iter().sum()
    }

    /// All positions' time on `threads`, in milliseconds.
    pub fn threads_total(&self) -> f64 {
        self.threads_ms.iter().sum()
    }
}

/// Bench settings and the node counts recorded by `cb2026 stages --record`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct BenchRecord {
    /// Depth the bench searches at this stage (perft depth for stages
    /// without a search).
    pub depth: u32,
    /// Recorded total nodes over the bench positions.
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Recorded nodes per bench position, in `bench.epd` order.
    #[serde(default)]
    pub positions: Vec<u64>,
    /// Recorded comparison with the previous stage at a common depth.
    #[serde(default)]
    pub vs_previous: Option<Comparison>,
}

/// Total bench nodes of the previous stage (`before`) and this one
/// (`after`), both at `depth`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub struct Comparison {
    pub depth: u32,
    pub before: u64,
    pub after: u64,
}

/// A match recorded by `arena record`: what was played and what came out.
/// Pairs are `[engine 1, engine 2]`; engine 1 is the stage itself. The
/// SPRT fields (`penta` to `verdict`) are there in `[sprt]` tables only.
/// Field order is the order in the file.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct MatchRecord {
    /// The exact `arena match` command, runnable from the repository root.
    pub command: String,
    /// `stage5 (Stage=5), depth 4`: name, UCI options and limits.
    pub engine1: String,
    pub engine2: String,
    /// Each engine's limits: `depth=4`, `nodes=N` or `10+0.1`.
    pub limits: Vec<String>,
    /// The opening book, or `(start position)`.
    pub book: String,
    pub seed: u64,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Game pairs scoring 0, ½, 1, 1½ and 2 points for engine 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penta: Option<[u64; 5]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo_error: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nelo: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nelo_error: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llr: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_bound: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo0: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo1: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beta: Option<f64>,
    /// `H0 accepted`, `H1 accepted` or `inconclusive`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// Mean thinking time per move, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_per_move_ms: Option<[f64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub longest_move_ms: Option<[u64; 2]>,
    /// Games lost by each kind of failure.
    pub time_forfeits: [u64; 2],
    pub illegal_moves: [u64; 2],
    pub crashes: [u64; 2],
    pub no_answers: [u64; 2],
    /// The commit the engines were built from; `-dirty` when the work tree
    /// had uncommitted changes.
    pub commit: String,
}

impl MatchRecord {
    /// One field as text, the way `arena show` prints it: strings as they
    /// are, anything else as TOML (`[0, 0]`, `2.9717`).
    pub fn field(&self, key: &str) -> Option<String> {
        let value = toml::Value::try_from(self).ok()?;
        match value.get(key)? {
            toml::Value::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        }
    }
}

/// The tables a match can be recorded in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchTable {
    /// `[sprt]`: the stage against the previous one.
    Sprt,
    /// `[reliability]`: a long self-play match that counts failures.
    Reliability,
    /// `[reliability_fast]`: the same at a harsher clock.
    ReliabilityFast,
    /// `[versus_low]`, `[versus_high]`: against a reference engine set to a
    /// known rating below and above the stage's strength.
    VersusLow,
    VersusHigh,
    /// `[parts.NAME]`: one technique of the stage alone against the
    /// previous stage (an SPRT like `[sprt]`).
    Part(String),
    /// `[experiments.NAME]`: the stage with an experiment switched on
    /// against the stage itself (an SPRT like `[sprt]`).
    Experiment(String),
    /// `[opponents.NAME]`: the stage against engine NAME, rated like
    /// `[versus_low]`.
    Opponent(String),
    /// `[nets.NAME]`: the stage with network NAME against the previous
    /// stage, rated like `[versus_low]`.
    Net(String),
}

impl MatchTable {
    /// The table's name in the manifest (`parts.NAME` for a part).
    pub fn name(&self) -> String {
        match self {
            MatchTable::Sprt => "sprt".into(),
            MatchTable::Reliability => "reliability".into(),
            MatchTable::ReliabilityFast => "reliability_fast".into(),
            MatchTable::VersusLow => "versus_low".into(),
            MatchTable::VersusHigh => "versus_high".into(),
            MatchTable::Part(name) => format!("{PARTS}.{name}"),
            MatchTable::Experiment(name) => format!("{EXPERIMENTS}.{name}"),
            MatchTable::Opponent(name) => format!("{OPPONENTS}.{name}"),
            MatchTable::Net(name) => format!("{NETS}.{name}"),
        }
    }

    /// For a named table, the table that holds it and its name:
    /// `("parts", NAME)` or `("experiments", NAME)`.
    pub fn group(&self) -> Option<(&'static str, &str)> {
        match self {
            MatchTable::Part(name) => Some((PARTS, name)),
            MatchTable::Experiment(name) => Some((EXPERIMENTS, name)),
            MatchTable::Opponent(name) => Some((OPPONENTS, name)),
            MatchTable::Net(name) => Some((NETS, name)),
            _ => None,
        }
    }

    /// Is this an SPRT (`[sprt]`, a part or an experiment)?
    pub fn is_sprt(&self) -> bool {
        matches!(
            self,
            MatchTable::Sprt | MatchTable::Part(_) | MatchTable::Experiment(_)
        )
    }

    /// Every table but the parts, in the order the book shows them.
    pub const ALL: [MatchTable; 5] = [
        MatchTable::Sprt,
        MatchTable::Reliability,
        MatchTable::ReliabilityFast,
        MatchTable::VersusLow,
        MatchTable::VersusHigh,
    ];

    pub fn parse(name: &str) -> Result<Self, String> {
        let word = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_';
        let named = |group: &str| {
            let rest = name.strip_prefix(group)?.strip_prefix('.')?;
            (!rest.is_empty() && rest.bytes().all(word)).then(|| rest.to_string())
        };
        if let Some(part) = named(PARTS) {
            return Ok(MatchTable::Part(part));
        }
        if let Some(experiment) = named(EXPERIMENTS) {
            return Ok(MatchTable::Experiment(experiment));
        }
        if let Some(opponent) = named(OPPONENTS) {
            return Ok(MatchTable::Opponent(opponent));
        }
        if let Some(net) = named(NETS) {
            return Ok(MatchTable::Net(net));
        }
        MatchTable::ALL
            .into_iter()
            .find(|table| table.name() == name)
            .ok_or_else(|| {
                let names: Vec<String> = MatchTable::ALL.iter().map(|t| t.name()).collect();
                format!(
                    "unknown table {name:?} (use {}, {PARTS}.NAME, {EXPERIMENTS}.NAME, \
                     {OPPONENTS}.NAME or {NETS}.NAME)",
                    names.join(", ")
                )
            })
    }

    /// The record of this table in a manifest, if there is one.
    pub fn of<'m>(&self, manifest: &'m Manifest) -> Option<&'m MatchRecord> {
        match self {
            MatchTable::Sprt => manifest.sprt.as_ref(),
            MatchTable::Reliability => manifest.reliability.as_ref(),
            MatchTable::ReliabilityFast => manifest.reliability_fast.as_ref(),
            MatchTable::VersusLow => manifest.versus_low.as_ref(),
            MatchTable::VersusHigh => manifest.versus_high.as_ref(),
            MatchTable::Part(name) => manifest.parts.get(name),
            MatchTable::Experiment(name) => manifest.experiments.get(name),
            MatchTable::Opponent(name) => manifest.opponents.get(name),
            MatchTable::Net(name) => manifest.nets.get(name),
        }
    }
}

impl Manifest {
    /// The named tables' records: the parts', then the experiments'.
    pub fn named_records(&self) -> impl Iterator<Item = (MatchTable, &MatchRecord)> {
        let parts = self
            .parts
            .iter()
            .map(|(name, r)| (MatchTable::Part(name.clone()), r));
        let experiments =
            (self.experiments.iter()).map(|(name, r)| (MatchTable::Experiment(name.clone()), r));
        parts.chain(experiments)
    }

    /// The matches against other engines (`[opponents.NAME]`).
    pub fn opponent_records(&self) -> impl Iterator<Item = (MatchTable, &MatchRecord)> {
        (self.opponents.iter()).map(|(name, r)| (MatchTable::Opponent(name.clone()), r))
    }

    /// The matches of the stage with other networks (`[nets.NAME]`).
    pub fn net_records(&self) -> impl Iterator<Item = (MatchTable, &MatchRecord)> {
        (self.nets.iter()).map(|(name, r)| (MatchTable::Net(name.clone()), r))
    }
}

/// The table that holds the parts' SPRTs: `[parts.NAME]`.
const PARTS: &str = "parts";
/// The table that holds the experiments' SPRTs: `[experiments.NAME]`.
const EXPERIMENTS: &str = "experiments";
/// The table that holds the matches against other engines:
/// `[opponents.NAME]`.
const OPPONENTS: &str = "opponents";
/// The table that holds the matches with other networks: `[nets.NAME]`.
const NETS: &str = "nets";

/// Parses a manifest's text. Whether it agrees with its file name is
/// [`file_name_problems`]'s business.
pub fn parse(text: &str) -> Result<Manifest, String> {
    toml::from_str(text).map_err(|e| e.to_string().trim_end().replace('\n', " "))
}

/// The file name of a manifest: `NN-slug.toml`.
pub fn file_name(id: u32, slug: &str) -> String {
    format!("{id:02}-{slug}.toml")
}

/// The tag of stage `id`: `stage-NN-slug`.
pub fn tag(id: u32, slug: &str) -> String {
    format!("stage-{id:02}-{slug}")
}

/// If `name` is a manifest's file name (`NN-slug.toml`, NN two digits or
/// more), its NN and slug.
pub fn parse_file_name(name: &str) -> Option<(u32, &str)> {
    number_and_slug(name.strip_suffix(".toml")?)
}

/// If `name` is a stage's tag (`stage-NN-slug`), its NN and slug.
pub fn parse_tag(name: &str) -> Option<(u32, &str)> {
    number_and_slug(name.strip_prefix("stage-")?)
}

/// `NN-slug`, NN two digits or more.
fn number_and_slug(stem: &str) -> Option<(u32, &str)> {
    let (number, slug) = stem.split_once('-')?;
    if number.len() < 2 || !number.bytes().all(|b| b.is_ascii_digit()) || !is_slug(slug) {
        return None;
    }
    Some((number.parse().ok()?, slug))
}

/// `[a-z0-9]+(-[a-z0-9]+)*`
pub fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Where a manifest disagrees with its file name `NN-slug.toml`.
pub fn file_name_problems(manifest: &Manifest, id: u32, slug: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if manifest.id != id {
        problems.push(format!(
            "id = {} but the file name says {id:02}",
            manifest.id
        ));
    }
    if manifest.slug != slug {
        problems.push(format!(
            "slug = {:?} but the file name says {slug:?}",
            manifest.slug
        ));
    }
    let want = tag(manifest.id, &manifest.slug);
    if manifest.tag != want {
        problems.push(format!("tag = {:?}, expected {want:?}", manifest.tag));
    }
    problems
}

/// Reads every manifest `NN-slug.toml` of a directory, in file-name order.
/// Other files are left alone; a manifest that does not parse is an error
/// naming the file.
pub fn read_dir(dir: &std::path::Path) -> Result<Vec<Manifest>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<std::path::PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| parse_file_name(name).is_some())
        })
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            parse(&text).map_err(|e| format!("{}: {e}", path.display()))
        })
        .collect()
}

/// Writes the bench counts `cb2026 stages --record` measured into a
/// manifest's `[bench]` table: `nodes`, `positions` and the
/// `[bench.vs_previous]` sub-table (removed when `None`). `depth`, other
/// keys, tables and comments stay as they are.
pub fn record_bench(
    text: &str,
    nodes: u64,
    positions: &[u64],
    vs_previous: Option<&Comparison>,
) -> Result<String, String> {
    let mut doc = document(text)?;
    let bench = doc
        .get_mut("bench")
        .and_then(Item::as_table_mut)
        .ok_or("the manifest has no [bench] table")?;
    bench["nodes"] = toml_edit::value(integer(nodes)?);
    let mut array = toml_edit::Array::new();
    for &n in positions {
        array.push(integer(n)?);
    }
    bench["positions"] = toml_edit::value(array);
    match vs_previous {
        Some(c) => {
            let mut table = Table::new();
            table["depth"] = toml_edit::value(i64::from(c.depth));
            table["before"] = toml_edit::value(integer(c.before)?);
            table["after"] = toml_edit::value(integer(c.after)?);
            bench["vs_previous"] = Item::Table(table);
        }
        None => {
            bench.remove("vs_previous");
        }
    }
    Ok(doc.to_string())
}

/// The comment written above a recorded match table.
pub const MATCH_NOTE: &str =
    "# Written by `arena record` from the match's --json summary; do not edit.";

/// Writes a match into a manifest as table `table`, replacing an earlier
/// one in place (so a re-run leaves no stale keys) or adding it after
/// every other table. Everything else stays as it was.
pub fn record_match(
    text: &str,
    table: &MatchTable,
    record: &MatchRecord,
) -> Result<String, String> {
    let mut doc = document(text)?;
    let mut new = match_table(record)?;
    new.decor_mut().set_prefix(format!("\n{MATCH_NOTE}\n"));
    if let Some((group, name)) = table.group() {
        insert_named(&mut doc, group, name, new)?;
        return Ok(doc.to_string());
    }
    match doc.get_mut(&table.name()) {
        Some(item) => {
            if let Some(position) = item.as_table().and_then(Table::position) {
                new.set_position(Some(position));
            }
            *item = Item::Table(new);
        }
        None => {
            // After every table, sub-tables such as [bench.vs_previous] too.
            new.set_position(Some(last_position(doc.as_table()) + 1));
            doc.insert(&table.name(), Item::Table(new));
        }
    }
    Ok(doc.to_string())
}

/// Puts `new` into the document as `[group.name]` (`[parts.NAME]`,
/// `[experiments.NAME]`, ...): in the place of an earlier table of that
/// name, or after every other table. The group's own table holds only
/// them.
fn insert_named(
    doc: &mut DocumentMut,
    group: &str,
    name: &str,
    mut new: Table,
) -> Result<(), String> {
    let position = last_position(doc.as_table()) + 1;
    let named = doc.entry(group).or_insert_with(|| {
        let mut named = Table::new();
        named.set_implicit(true);
        Item::Table(named)
    });
    let named = named
        .as_table_mut()
        .ok_or_else(|| format!("{group} is not a table"))?;
    let at = named
        .get(name)
        .and_then(Item::as_table)
        .and_then(Table::position);
    new.set_position(Some(at.unwrap_or(position)));
    named.insert(name, Item::Table(new));
    Ok(())
}

/// The comment written above a recorded time-to-depth table.
pub const TIME_TO_DEPTH_NOTE: &str = "# Written by `scripts/time-to-depth --record`; do not edit.";

/// Writes a time-to-depth measurement into a manifest as
/// `[time_to_depth.NAME]`, replacing an earlier one of that name.
pub fn record_time_to_depth(
    text: &str,
    name: &str,
    record: &TimeToDepth,
) -> Result<String, String> {
    let mut doc = document(text)?;
    let text = toml::to_string(record).map_err(|e| format!("cannot write the record: {e}"))?;
    let mut new = document(&text)?.as_table().clone();
    new.decor_mut()
        .set_prefix(format!("\n{TIME_TO_DEPTH_NOTE}\n"));
    insert_named(&mut doc, "time_to_depth", name, new)?;
    Ok(doc.to_string())
}

/// A record as a TOML table, keys in the struct's order.
fn match_table(record: &MatchRecord) -> Result<Table, String> {
    let text = toml::to_string(record).map_err(|e| format!("cannot write the record: {e}"))?;
    let doc = document(&text)?;
    Ok(doc.as_table().clone())
}

fn document(text: &str) -> Result<DocumentMut, String> {
    text.parse()
        .map_err(|e: toml_edit::TomlError| format!("not valid TOML: {e}"))
}

/// TOML integers are signed 64-bit.
fn integer(n: u64) -> Result<i64, String> {
    i64::try_from(n).map_err(|_| format!("{n} is too large for TOML"))
}

/// The largest position of any table in `table`, nested ones included.
fn last_position(table: &Table) -> isize {
    table
        .iter()
        .filter_map(|(_, item)| item.as_table())
        .map(|t| t.position().unwrap_or(0).max(last_position(t)))
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = "id = 5\nslug = \"fixture\"\ntag = \"stage-05-fixture\"\n\
        title = \"Fixture\"\n# keep me\nchapter = \"ch05.md\"\ntechniques = [\"fx\"]\n\n\
        [bench]\ndepth = 4 # the bench depth\n\n[bench.vs_previous]\ndepth = 4\nbefore = 1\n\
        after = 2\n\n[notes]\ntext = \"for people\"\n";

    fn sample_record(llr: f64) -> MatchRecord {
        MatchRecord {
            command: "target/release/arena match --engine x".into(),
            engine1: "stage5 (Stage=5), depth 4".into(),
            engine2: "stage4 (Stage=4), depth 6".into(),
            limits: vec!["depth=4".into(), "depth=6".into()],
            book: "book.epd".into(),
            seed: 1,
            games: 20,
            wins: 12,
            draws: 4,
            losses: 4,
            penta: Some([0, 1, 4, 3, 2]),
            llr: Some(llr),
            elo_error: Some(f64::INFINITY),
            verdict: Some("inconclusive".into()),
            time_per_move_ms: Some([12.3, 56.8]),
            crashes: [0, 1],
            commit: "abc-dirty".into(),
            ..MatchRecord::default()
        }
    }

    #[test]
    fn reads_a_manifest_and_ignores_unknown_tables() {
        let m = parse(MANIFEST).expect("parses");
        assert_eq!((m.id, m.slug.as_str()), (5, "fixture"));
        assert_eq!(m.bench.depth, 4);
        assert_eq!(m.bench.nodes, None);
        assert_eq!(
            m.bench.vs_previous,
            Some(Comparison {
                depth: 4,
                before: 1,
                after: 2
            })
        );
        assert!(m.sprt.is_none() && m.introduces.is_empty());
        let broken = parse("id = 5\n").unwrap_err();
        assert!(broken.contains("missing field"), "{broken}");
    }

    #[test]
    fn file_names_and_tags() {
        assert_eq!(
            parse_file_name("05-quiet-moves.toml"),
            Some((5, "quiet-moves"))
        );
        assert_eq!(parse_file_name("5-x.toml"), None);
        assert_eq!(parse_file_name("05-X.toml"), None);
        assert_eq!(parse_file_name("bench.epd"), None);
        assert_eq!(file_name(12, "tt"), "12-tt.toml");
        assert_eq!(parse_tag(&tag(12, "tt")), Some((12, "tt")));
        assert_eq!(parse_tag("stage-1-tt"), None);
        assert_eq!(parse_tag("v1.0"), None);
        let m = parse(MANIFEST).unwrap();
        assert!(file_name_problems(&m, 5, "fixture").is_empty());
        let problems = file_name_problems(&m, 6, "other");
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("file name says 06"));
    }

    #[test]
    fn a_part_is_recorded_under_parts_and_read_back() {
        let table = MatchTable::parse("parts.check_ext").expect("a part");
        assert_eq!(table, MatchTable::Part("check_ext".into()));
        assert_eq!(table.name(), "parts.check_ext");
        assert!(table.is_sprt() && !MatchTable::Reliability.is_sprt());
        assert!(MatchTable::parse("parts.").is_err());
        assert!(MatchTable::parse("parts.Bad-Name").is_err());
        let text = record_match(MANIFEST, &table, &sample_record(4.0)).unwrap();
        assert!(text.contains("[parts.check_ext]\n"), "{text}");
        assert!(!text.contains("[parts]\n"), "{text}");
        let other = MatchTable::Part("singular".into());
        let both = record_match(&text, &other, &sample_record(-1.0)).unwrap();
        let again = record_match(&both, &table, &sample_record(2.0)).unwrap();
        let m = parse(&again).unwrap();
        assert_eq!(m.parts.len(), 2);
        assert_eq!(table.of(&m).and_then(|r| r.llr), Some(2.0));
        assert_eq!(other.of(&m).and_then(|r| r.llr), Some(-1.0));
        assert!(again.contains("# keep me\n"), "{again}");
    }

    #[test]
    fn an_experiment_is_recorded_under_experiments_next_to_the_parts() {
        let table = MatchTable::parse("experiments.multi_cut").expect("an experiment");
        assert_eq!(table, MatchTable::Experiment("multi_cut".into()));
        assert_eq!(table.name(), "experiments.multi_cut");
        assert!(table.is_sprt());
        assert!(MatchTable::parse("experiments.").is_err());
        let part = MatchTable::Part("singular".into());
        let text = record_match(MANIFEST, &part, &sample_record(1.0)).unwrap();
        let text = record_match(&text, &table, &sample_record(-3.0)).unwrap();
        assert!(text.contains("[experiments.multi_cut]\n"), "{text}");
        assert!(!text.contains("[experiments]\n"), "{text}");
        let m = parse(&text).unwrap();
        assert_eq!((m.parts.len(), m.experiments.len()), (1, 1));
        let named: Vec<String> = m.named_records().map(|(t, _)| t.name()).collect();
        assert_eq!(named, ["parts.singular", "experiments.multi_cut"]);
        assert_eq!(table.of(&m).and_then(|r| r.llr), Some(-3.0));
    }

    #[test]
    fn a_net_is_recorded_under_nets_and_is_no_sprt() {
        let table = MatchTable::parse("nets.h32_600000").expect("a net");
        assert_eq!(table, MatchTable::Net("h32_600000".into()));
        assert_eq!(table.name(), "nets.h32_600000");
        assert!(!table.is_sprt());
        assert!(MatchTable::parse("nets.h32-600000").is_err());
        let text = record_match(MANIFEST, &table, &sample_record(0.5)).unwrap();
        assert!(text.contains("[nets.h32_600000]\n"), "{text}");
        let m = parse(&text).unwrap();
        let nets: Vec<String> = m.net_records().map(|(t, _)| t.name()).collect();
        assert_eq!(nets, ["nets.h32_600000"]);
        assert_eq!(m.named_records().count(), 0);
    }

    #[test]
    fn recording_the_bench_keeps_everything_else() {
        let text = record_bench(MANIFEST, 30, &[10, 20], None).expect("records");
        assert!(text.contains("# keep me\n"), "{text}");
        assert!(text.contains("depth = 4 # the bench depth\n"), "{text}");
        assert!(!text.contains("vs_previous"), "{text}");
        assert!(text.contains("[notes]\ntext = \"for people\"\n"), "{text}");
        let m = parse(&text).unwrap();
        assert_eq!((m.bench.nodes, m.bench.positions), (Some(30), vec![10, 20]));
        let c = Comparison {
            depth: 3,
            before: 50,
            after: 30,
        };
        let again = record_bench(&text, 30, &[10, 20], Some(&c)).unwrap();
        assert_eq!(parse(&again).unwrap().bench.vs_previous, Some(c));
        assert!(record_bench("id = 1\n", 1, &[], None).is_err());
    }

    #[test]
    fn recording_a_match_replaces_the_table_in_place() {
        let text = record_match(MANIFEST, &MatchTable::Sprt, &sample_record(1.5)).unwrap();
        assert!(text.starts_with("id = 5\nslug = \"fixture\"\n"), "{text}");
        assert!(text.contains(MATCH_NOTE));
        assert!(text.contains("penta = [0, 1, 4, 3, 2]\n"), "{text}");
        assert!(text.contains("elo_error = inf\n"), "{text}");
        assert!(
            !text.contains("score"),
            "absent fields are left out: {text}"
        );
        assert!(text.find("[sprt]") > text.find("[notes]"), "{text}");
        let m = parse(&text).unwrap();
        assert_eq!(m.sprt, Some(sample_record(1.5)));

        let again = record_match(&text, &MatchTable::Reliability, &sample_record(0.0)).unwrap();
        let again = record_match(&again, &MatchTable::Sprt, &sample_record(-3.0)).unwrap();
        assert_eq!(again.matches("[sprt]").count(), 1);
        assert_eq!(again.matches(MATCH_NOTE).count(), 2);
        assert!(again.find("[sprt]") < again.find("[reliability]"));
        let m = parse(&again).unwrap();
        assert_eq!(m.sprt.as_ref().and_then(|s| s.llr), Some(-3.0));
        assert_eq!(
            MatchTable::Reliability.of(&m).and_then(|r| r.llr),
            Some(0.0)
        );
        // Recording the same match again changes nothing.
        let same = record_match(&again, &MatchTable::Sprt, &sample_record(-3.0)).unwrap();
        assert_eq!(same, again);
    }

    #[test]
    fn fields_print_like_the_file() {
        let r = sample_record(1.5);
        assert_eq!(r.field("command").as_deref(), Some(r.command.as_str()));
        assert_eq!(r.field("crashes").as_deref(), Some("[0, 1]"));
        assert_eq!(r.field("games").as_deref(), Some("20"));
        assert_eq!(r.field("score"), None);
    }
}

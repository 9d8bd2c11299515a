//! Stage markers in one file: parsing, checking and cutting.
//!
//! A marker is a line whose trimmed text is a comment opener followed by
//! `ANCHOR: NAME`, `ANCHOR_END: NAME`, `REPLACED: NAME` or
//! `REPLACED_END: NAME` (`<!-- ... -->` closes on the same line). Which
//! openers count depends on the file type (see [`openers_for`]), so that
//! e.g. a Markdown chapter can show a Rust marker in a code block. In
//! Markdown, lines inside fenced code blocks are never markers.
//!
//! A **line tag** is the marker of a one-line addition: a Rust line that
//! ends in `// +stage-NN-slug` belongs to stage NN, together with the
//! comment and attribute lines directly above it (its doc comment). Only
//! the tag names the stage, so a one-line addition (a `use`, a field and
//! its doc comment, a table row) costs no marker lines of its own; a
//! snapshot drops the line before stage NN and the tag from NN on.
//!
//! Main keeps every marker. A snapshot has none: [`cut`] drops the blocks
//! of later stages and `main-only` blocks, uncomments the REPLACED code the
//! stage still has, and drops every marker line.

use crate::Diag;
use meta::manifest::is_slug;
use std::collections::BTreeMap;

/// A comment opener.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opener {
    /// `//`
    Slash,
    /// `#`
    Hash,
    /// `<!--` ... `-->`
    Html,
}

impl Opener {
    pub fn text(self) -> &'static str {
        match self {
            Opener::Slash => "//",
            Opener::Hash => "#",
            Opener::Html => "<!--",
        }
    }
}

/// The comment openers that can start a marker in a file, by file type.
pub fn openers_for(path: &str) -> &'static [Opener] {
    const SLASH: &[Opener] = &[Opener::Slash];
    const HASH: &[Opener] = &[Opener::Hash];
    const HTML: &[Opener] = &[Opener::Html];
    const ALL: &[Opener] = &[Opener::Slash, Opener::Hash, Opener::Html];
    let name = path.rsplit('/').next().unwrap_or(path);
    if name == "Makefile" || name == "makefile" || name.starts_with('.') {
        return HASH;
    }
    let Some((_, ext)) = name.rsplit_once('.') else {
        return HASH; // extension-less scripts (scripts/test, .ci/run)
    };
    match ext {
        "rs" | "c" | "h" | "cc" | "cpp" | "hpp" | "js" | "ts" | "go" | "java" | "kt" | "swift" => {
            SLASH
        }
        "md" | "markdown" | "html" | "htm" | "xml" | "svg" | "hbs" => HTML,
        "toml" | "sh" | "bash" | "py" | "yml" | "yaml" | "mk" | "cfg" | "ini" | "conf" | "txt"
        | "epd" | "r" | "pl" | "rb" | "gitignore" | "gitattributes" => HASH,
        _ => ALL,
    }
}

fn is_markdown(path: &str) -> bool {
    path.ends_with(".md") || path.ends_with(".markdown")
}

fn is_rust(path: &str) -> bool {
    path.ends_with(".rs")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keyword {
    Anchor,
    AnchorEnd,
    Replaced,
    ReplacedEnd,
}

impl Keyword {
    pub fn text(self) -> &'static str {
        match self {
            Keyword::Anchor => "ANCHOR",
            Keyword::AnchorEnd => "ANCHOR_END",
            Keyword::Replaced => "REPLACED",
            Keyword::ReplacedEnd => "REPLACED_END",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkerLine {
    pub keyword: Keyword,
    pub name: String,
    pub opener: Opener,
}

/// Parses a marker line, accepting only the given comment openers.
pub fn parse_marker(line: &str, openers: &[Opener]) -> Option<MarkerLine> {
    let t = line.trim();
    for &opener in openers {
        let Some(rest) = t.strip_prefix(opener.text()) else {
            continue;
        };
        let mut rest = rest.trim_start();
        if opener == Opener::Html {
            rest = rest.strip_suffix("-->")?.trim_end();
        }
        // Longest keywords first: "ANCHOR_END:" before "ANCHOR:".
        let keywords = [
            Keyword::AnchorEnd,
            Keyword::Anchor,
            Keyword::ReplacedEnd,
            Keyword::Replaced,
        ];
        for kw in keywords {
            let Some(after) = rest.strip_prefix(kw.text()) else {
                continue;
            };
            let Some(after) = after.strip_prefix(':') else {
                continue;
            };
            let name = after.trim();
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                return None;
            }
            return Some(MarkerLine {
                keyword: kw,
                name: name.to_string(),
                opener,
            });
        }
        return None;
    }
    None
}

/// What a marker name means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Name {
    /// `stage-NN-slug` or `stage-NN-slug--suffix`; `tag` is `stage-NN-slug`.
    Stage { num: u32, tag: String },
    /// `main-only`
    MainOnly,
    /// Starts with `stage-` but is not a valid stage name.
    BadStage,
    /// Any other anchor: a plain book anchor, left alone.
    Plain,
}

pub fn classify(name: &str) -> Name {
    if name == "main-only" {
        return Name::MainOnly;
    }
    let Some(rest) = name.strip_prefix("stage-") else {
        return Name::Plain;
    };
    let (tag_rest, suffix) = match rest.split_once("--") {
        Some((a, b)) => (a, Some(b)),
        None => (rest, None),
    };
    let Some((num, slug)) = tag_rest.split_once('-') else {
        return Name::BadStage;
    };
    let suffix_ok = suffix.is_none_or(|s| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    });
    if num.len() < 2 || !num.bytes().all(|b| b.is_ascii_digit()) || !is_slug(slug) || !suffix_ok {
        return Name::BadStage;
    }
    match num.parse() {
        Ok(num) => Name::Stage {
            num,
            tag: format!("stage-{tag_rest}"),
        },
        Err(_) => Name::BadStage,
    }
}

/// The role of a line in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Content,
    /// `ANCHOR`/`ANCHOR_END` of a stage block. No snapshot has it; it is
    /// there only while the book's anchors are resolved (see [`cut_lines`]).
    StageMarker,
    /// `ANCHOR`/`ANCHOR_END` of a plain anchor: like a stage marker.
    PlainMarker,
    /// Marker of a `main-only` block: dropped from every snapshot.
    MainOnlyMarker,
    /// `REPLACED`/`REPLACED_END`: dropped from every snapshot.
    ReplacedMarker,
    /// Commented-out code of a REPLACED block, uncommented where visible.
    ReplacedContent(Opener),
}

/// One line of a parsed file.
#[derive(Debug, Clone)]
pub struct Line<'a> {
    /// The text without its line terminator.
    pub text: &'a str,
    /// The terminator (`"\n"`, `"\r\n"` or `""` on a last line without one).
    pub eol: &'a str,
    pub role: Role,
    /// Highest stage number of the enclosing stage blocks (0 if none): the
    /// line is absent from snapshots before `lo`.
    pub lo: u32,
    /// Lowest stage number of an enclosing REPLACED block (`u32::MAX` if
    /// none): the line is absent from snapshots from `hi` on.
    pub hi: u32,
    /// Inside a `main-only` block.
    pub main_only: bool,
    /// The line ends in a line tag (already cut off `text`).
    pub tagged: bool,
}

impl Line<'_> {
    /// Whether the line is in the snapshot of stage `n`.
    pub fn visible(&self, n: u32) -> bool {
        match self.role {
            Role::MainOnlyMarker | Role::ReplacedMarker => false,
            _ => !self.main_only && self.lo <= n && n < self.hi,
        }
    }

    /// Whether the line is written to the snapshot of stage `n`: as
    /// [`Line::visible`], but marker lines only with `keep_markers`.
    pub fn kept(&self, n: u32, keep_markers: bool) -> bool {
        match self.role {
            Role::StageMarker | Role::PlainMarker => keep_markers && self.visible(n),
            _ => self.visible(n),
        }
    }

    /// The first snapshot (>= 1) that contains this line, if any.
    pub fn first_visible(&self) -> Option<u32> {
        let first = self.lo.max(1);
        (self.visible(first)).then_some(first)
    }

    /// The line as it appears where visible (REPLACED code uncommented).
    pub fn code(&self) -> String {
        match self.role {
            Role::ReplacedContent(op) => {
                uncomment(self.text, op).unwrap_or_else(|| self.text.to_string())
            }
            _ => self.text.to_string(),
        }
    }

    pub fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    Stage,
    MainOnly,
    Replaced,
}

/// A marker block of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub kind: BlockKind,
    pub name: String,
    /// `stage-NN-slug` for stage and REPLACED blocks, empty otherwise.
    pub tag: String,
    /// Stage number (0 for main-only).
    pub num: u32,
    /// 0-based line index of the opening marker.
    pub start: usize,
    /// 0-based line index of the closing marker, if any.
    pub end: Option<usize>,
}

/// A parsed file.
#[derive(Debug, Clone)]
pub struct Parsed<'a> {
    pub path: String,
    pub lines: Vec<Line<'a>>,
    pub blocks: Vec<Block>,
    /// Structural problems (all errors): unbalanced, mismatched, crossing
    /// or misplaced markers, uncommented REPLACED lines, bad names.
    pub diags: Vec<Diag>,
    /// Lines that look like markers but are not recognized (warnings).
    pub near_misses: Vec<Diag>,
}

impl Parsed<'_> {
    /// Whether the file contains any stage, main-only or REPLACED marker.
    pub fn has_blocks(&self) -> bool {
        !self.blocks.is_empty()
    }

    /// Whether the file contains any marker line at all (plain anchors and
    /// line tags included): a snapshot must rewrite it.
    pub fn has_markers(&self) -> bool {
        self.has_blocks()
            || self
                .lines
                .iter()
                .any(|l| l.role == Role::PlainMarker || l.tagged)
    }
}

/// Removes the comment opener (and one space after it) from a line of a
/// REPLACED block, keeping the indentation before the opener. Blank lines
/// stay blank. `None` if the line is not commented out.
pub fn uncomment(line: &str, opener: Opener) -> Option<String> {
    let body = line.trim_start();
    if body.is_empty() {
        return Some(String::new());
    }
    let indent = &line[..line.len() - body.len()];
    let rest = match opener {
        Opener::Slash | Opener::Hash => body.strip_prefix(opener.text())?,
        Opener::Html => {
            let inner = body.strip_prefix("<!--")?.trim_end().strip_suffix("-->")?;
            inner.strip_suffix(' ').unwrap_or(inner)
        }
    };
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    if rest.trim().is_empty() {
        return Some(String::new());
    }
    Some(format!("{indent}{rest}"))
}

fn split_lines(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find('\n') {
            Some(i) => {
                let (line, tail) = rest.split_at(i + 1);
                let (body, eol) = match line.strip_suffix("\r\n") {
                    Some(b) => (b, "\r\n"),
                    None => (&line[..line.len() - 1], "\n"),
                };
                out.push((body, eol));
                rest = tail;
            }
            None => {
                out.push((rest, ""));
                rest = "";
            }
        }
    }
    out
}

/// Whether a line looks like an attempted marker (for a warning).
fn looks_like_marker(line: &str, openers: &[Opener]) -> bool {
    let t = line.trim();
    openers.iter().any(|o| {
        t.strip_prefix(o.text()).is_some_and(|rest| {
            let rest = rest.trim_start().to_ascii_uppercase();
            rest.starts_with("ANCHOR") || rest.starts_with("REPLACED")
        })
    }) && (t.contains("stage-") || t.contains("main-only"))
}

/// Parses the markers of one file.
pub fn parse<'a>(path: &str, text: &'a str) -> Parsed<'a> {
    let openers = openers_for(path);
    let markdown = is_markdown(path);
    let mut lines: Vec<Line<'a>> = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    let mut diags: Vec<Diag> = Vec::new();
    let mut near_misses: Vec<Diag> = Vec::new();
    let mut stack: Vec<usize> = Vec::new(); // open stage / main-only blocks
    let mut replaced: Option<(usize, Opener)> = None;
    // Open plain anchors: name -> (line, context).
    let mut plain: BTreeMap<String, (usize, (u32, bool))> = BTreeMap::new();
    let mut in_fence = false;

    let context = |stack: &[usize], blocks: &[Block]| -> (u32, bool) {
        let mut lo = 0;
        let mut main_only = false;
        for &b in stack {
            match blocks[b].kind {
                BlockKind::Stage => lo = lo.max(blocks[b].num),
                BlockKind::MainOnly => main_only = true,
                BlockKind::Replaced => {}
            }
        }
        (lo, main_only)
    };

    for (i, (text, eol)) in split_lines(text).into_iter().enumerate() {
        let lnum = i + 1;
        let mut role = Role::Content;
        let (lo, main_only) = context(&stack, &blocks);
        let mut line_lo = lo;
        let mut line_main_only = main_only;
        let mut hi = u32::MAX;

        let fence = markdown && {
            let t = text.trim_start();
            t.starts_with("```") || t.starts_with("~~~")
        };
        let marker = if in_fence || fence {
            None
        } else {
            parse_marker(text, openers)
        };
        if fence {
            in_fence = !in_fence;
        }

        if let Some((b, opener)) = replaced {
            hi = blocks[b].num;
            match &marker {
                Some(m) if m.keyword == Keyword::ReplacedEnd => {
                    if m.name != blocks[b].name {
                        diags.push(Diag::error(
                            path,
                            lnum,
                            format!(
                                "REPLACED_END: {} does not match REPLACED: {} (line {})",
                                m.name,
                                blocks[b].name,
                                blocks[b].start + 1
                            ),
                        ));
                    }
                    blocks[b].end = Some(i);
                    replaced = None;
                    role = Role::ReplacedMarker;
                }
                Some(m) => {
                    diags.push(Diag::error(
                        path,
                        lnum,
                        format!(
                            "{}: {} inside the REPLACED block of line {} (markers cannot \
                             appear in replaced code)",
                            m.keyword.text(),
                            m.name,
                            blocks[b].start + 1
                        ),
                    ));
                    role = Role::ReplacedContent(opener);
                }
                None => {
                    role = Role::ReplacedContent(opener);
                    if uncomment(text, opener).is_none() {
                        diags.push(Diag::error(
                            path,
                            lnum,
                            format!(
                                "line in the REPLACED block of line {} is not commented out \
                                 with `{}`",
                                blocks[b].start + 1,
                                opener.text()
                            ),
                        ));
                    }
                }
            }
        } else if let Some(m) = marker {
            let name = classify(&m.name);
            if name == Name::BadStage {
                diags.push(Diag::error(
                    path,
                    lnum,
                    format!(
                        "malformed stage marker name `{}` (expected stage-NN-slug or \
                         stage-NN-slug--suffix)",
                        m.name
                    ),
                ));
            }
            match m.keyword {
                Keyword::Anchor => match name {
                    Name::Stage { num, tag } => {
                        if num < lo {
                            let outer = stack
                                .iter()
                                .rev()
                                .find(|&&b| blocks[b].num == lo)
                                .map(|&b| &blocks[b])
                                .expect("lo comes from an open block");
                            diags.push(Diag::error(
                                path,
                                lnum,
                                format!(
                                    "{} is nested inside {} (line {}): it would only appear \
                                     from stage {lo} on",
                                    m.name,
                                    outer.name,
                                    outer.start + 1
                                ),
                            ));
                        }
                        if let Some(&b) = stack.iter().find(|&&b| blocks[b].name == m.name) {
                            diags.push(Diag::error(
                                path,
                                lnum,
                                format!(
                                    "ANCHOR: {} opened again inside itself (line {})",
                                    m.name,
                                    blocks[b].start + 1
                                ),
                            ));
                        }
                        blocks.push(Block {
                            kind: BlockKind::Stage,
                            name: m.name.clone(),
                            tag,
                            num,
                            start: i,
                            end: None,
                        });
                        stack.push(blocks.len() - 1);
                        line_lo = lo.max(num);
                        role = Role::StageMarker;
                    }
                    Name::MainOnly => {
                        blocks.push(Block {
                            kind: BlockKind::MainOnly,
                            name: m.name.clone(),
                            tag: String::new(),
                            num: 0,
                            start: i,
                            end: None,
                        });
                        stack.push(blocks.len() - 1);
                        line_main_only = true;
                        role = Role::MainOnlyMarker;
                    }
                    Name::Plain | Name::BadStage => {
                        plain.insert(m.name.clone(), (i, (lo, main_only)));
                        role = Role::PlainMarker;
                    }
                },
                Keyword::AnchorEnd => match name {
                    Name::Stage { .. } | Name::MainOnly => {
                        match stack.iter().rposition(|&b| blocks[b].name == m.name) {
                            Some(pos) => {
                                if pos + 1 != stack.len() {
                                    let inner = &blocks[*stack.last().expect("non-empty")];
                                    diags.push(Diag::error(
                                        path,
                                        lnum,
                                        format!(
                                            "ANCHOR_END: {} crosses {} (opened at line {} \
                                             inside it and not closed yet)",
                                            m.name,
                                            inner.name,
                                            inner.start + 1
                                        ),
                                    ));
                                }
                                let b = stack[pos];
                                blocks[b].end = Some(i);
                                stack.truncate(pos);
                                role = if blocks[b].kind == BlockKind::MainOnly {
                                    Role::MainOnlyMarker
                                } else {
                                    Role::StageMarker
                                };
                            }
                            None => {
                                diags.push(Diag::error(
                                    path,
                                    lnum,
                                    format!("ANCHOR_END: {} without a matching ANCHOR", m.name),
                                ));
                                role = Role::PlainMarker;
                            }
                        }
                    }
                    Name::Plain | Name::BadStage => {
                        if let Some((start, ctx)) = plain.remove(&m.name)
                            && ctx != (lo, main_only)
                        {
                            diags.push(Diag::error(
                                path,
                                lnum,
                                format!(
                                    "anchor {} (line {}) crosses the boundary of a stage or \
                                     main-only block: its start and end would not be cut \
                                     together",
                                    m.name,
                                    start + 1
                                ),
                            ));
                        }
                        role = Role::PlainMarker;
                    }
                },
                Keyword::Replaced => {
                    let (num, tag) = match name {
                        Name::Stage { num, tag } => (num, tag),
                        _ => {
                            diags.push(Diag::error(
                                path,
                                lnum,
                                format!(
                                    "REPLACED: {} does not name a stage (stage-NN-slug)",
                                    m.name
                                ),
                            ));
                            (0, String::new())
                        }
                    };
                    if num != 0 && num <= lo.max(1) {
                        diags.push(Diag::error(
                            path,
                            lnum,
                            format!(
                                "REPLACED: {} inside a stage-{lo:02} block: the replaced code \
                                 would never appear in any snapshot",
                                m.name
                            ),
                        ));
                    }
                    blocks.push(Block {
                        kind: BlockKind::Replaced,
                        name: m.name.clone(),
                        tag,
                        num,
                        start: i,
                        end: None,
                    });
                    replaced = Some((blocks.len() - 1, m.opener));
                    hi = num;
                    role = Role::ReplacedMarker;
                }
                Keyword::ReplacedEnd => {
                    diags.push(Diag::error(
                        path,
                        lnum,
                        format!("REPLACED_END: {} without a matching REPLACED", m.name),
                    ));
                    role = Role::PlainMarker;
                }
            }
        } else if !in_fence && !fence && looks_like_marker(text, openers) {
            near_misses.push(Diag::warning(
                path,
                lnum,
                "looks like a stage marker but is not one (expected e.g. \
                 `// ANCHOR: stage-NN-slug`)",
            ));
        }

        let mut text = text;
        let mut tagged = false;
        if role == Role::Content
            && is_rust(path)
            && let Some((code, name)) = line_tag(text)
        {
            match classify(name) {
                Name::Stage { num, tag } if tag == name && num > lo => {
                    // The line's doc comment and attributes come with it.
                    for above in lines.iter_mut().rev() {
                        let t = above.text.trim_start();
                        let leading = t.starts_with("//") || t.starts_with("#[");
                        if above.role != Role::Content
                            || above.tagged
                            || !leading
                            || (above.lo, above.hi, above.main_only) != (lo, hi, main_only)
                        {
                            break;
                        }
                        above.lo = num;
                    }
                    text = code;
                    tagged = true;
                    line_lo = num;
                }
                _ => diags.push(Diag::error(
                    path,
                    lnum,
                    format!(
                        "line tag `+{name}`: a line tag names a stage (stage-NN-slug, no \
                         --suffix) later than the blocks around it (stage {lo})"
                    ),
                )),
            }
        }

        lines.push(Line {
            text,
            eol,
            role,
            lo: line_lo,
            hi,
            main_only: line_main_only,
            tagged,
        });
    }

    for &b in &stack {
        diags.push(Diag::error(
            path,
            blocks[b].start + 1,
            format!("ANCHOR: {} is never closed", blocks[b].name),
        ));
    }
    if let Some((b, _)) = replaced {
        diags.push(Diag::error(
            path,
            blocks[b].start + 1,
            format!("REPLACED: {} is never closed", blocks[b].name),
        ));
    }
    diags.sort_by_key(|d| d.line);
    Parsed {
        path: path.to_string(),
        lines,
        blocks,
        diags,
        near_misses,
    }
}

/// The opening of a line tag: `// +stage-NN-slug` at the end of a line.
pub const LINE_TAG: &str = "// +";

/// A line ending in a line tag: the line without it (and the blanks before
/// it), and the stage name it gives. A line of nothing but a tag is not
/// one (it would be a marker line after all).
pub fn line_tag(line: &str) -> Option<(&str, &str)> {
    let at = line.rfind(LINE_TAG)?;
    let name = line[at + LINE_TAG.len()..].trim_end();
    let code = line[..at].trim_end();
    let is_name = name.starts_with("stage-")
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    (is_name && !code.trim().is_empty() && code.len() < at).then_some((code, name))
}

/// An `ANCHOR`/`ANCHOR_END` pair of a file: a stage block, a `main-only`
/// block or a plain anchor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    pub name: String,
    /// 0-based line index of `ANCHOR:`.
    pub start: usize,
    /// 0-based line index of the matching `ANCHOR_END:`.
    pub end: usize,
}

impl Pair {
    /// Whether no line between the two markers holds anything but blanks
    /// and other markers: an anchor that shapes no code.
    pub fn is_empty(&self, parsed: &Parsed) -> bool {
        parsed.lines[self.start + 1..self.end]
            .iter()
            .all(|l| l.is_blank() || !matches!(l.role, Role::Content | Role::ReplacedContent(_)))
    }
}

/// Every closed anchor pair of a parsed file, in the order of their starts
/// (each `ANCHOR_END` closes the latest open `ANCHOR` of its name).
pub fn anchor_pairs(parsed: &Parsed) -> Vec<Pair> {
    let openers = openers_for(&parsed.path);
    let mut open: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut pairs = Vec::new();
    for (index, line) in parsed.lines.iter().enumerate() {
        let anchor_line = matches!(
            line.role,
            Role::StageMarker | Role::PlainMarker | Role::MainOnlyMarker
        );
        let Some(marker) = anchor_line
            .then(|| parse_marker(line.text, openers))
            .flatten()
        else {
            continue;
        };
        match marker.keyword {
            Keyword::Anchor => open.entry(marker.name).or_default().push(index),
            Keyword::AnchorEnd => {
                if let Some(start) = open.get_mut(&marker.name).and_then(Vec::pop) {
                    pairs.push(Pair {
                        name: marker.name,
                        start,
                        end: index,
                    });
                }
            }
            Keyword::Replaced | Keyword::ReplacedEnd => {}
        }
    }
    pairs.sort_by_key(|p| p.start);
    pairs
}

/// One line of a cut file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CutLine<'a> {
    /// The text without its line terminator.
    pub text: String,
    pub eol: &'a str,
    /// 0-based index of the line of the parsed (main) file it comes from.
    pub origin: usize,
}

/// The text of cut lines.
pub fn render(lines: &[CutLine]) -> String {
    let mut out = String::new();
    for line in lines {
        out.push_str(&line.text);
        out.push_str(line.eol);
    }
    out
}

/// Cuts a parsed file for the snapshot of stage `n`: the snapshot's text
/// (no marker lines at all).
pub fn cut(parsed: &Parsed, n: u32) -> String {
    render(&cut_lines(parsed, n, false))
}

/// The lines of the snapshot of stage `n`, each with the line of main it
/// comes from. With `keep_markers`, the marker lines of the stage blocks
/// and plain anchors that stage `n` keeps stay in: the form in which the
/// book's anchors are resolved before a snapshot drops its markers.
///
/// Besides dropping lines, it tidies blank lines where something was cut
/// (a marker line counts), so that `cargo fmt --check` still passes on the
/// snapshot: a blank line after a cut is dropped when the previous line is
/// blank or the file starts there; in Rust files also after a line ending
/// in `{`, `(` or `[`, a blank line before a cut is dropped when the next
/// line starts with `}`, `)` or `]`, and an opening bracket left directly
/// before its closing line is joined with it (`struct T {` + `}` ->
/// `struct T {}`). Trailing blank lines after a cut at the end go too.
///
/// A marker line between two `use` (or `mod`) items kept them in separate
/// groups, which rustfmt sorts one by one; where such a marker goes, a
/// blank line takes its place, so the groups stay apart.
pub fn cut_lines<'a>(parsed: &Parsed<'a>, n: u32, keep_markers: bool) -> Vec<CutLine<'a>> {
    let rust = is_rust(&parsed.path);
    let mut out: Vec<CutLine<'a>> = Vec::new();
    let mut cut_since = false;
    // The first marker line dropped since the last line written, if any.
    let mut marker_dropped: Option<usize> = None;
    let is_blank = |s: &str| s.trim().is_empty();
    for (origin, line) in parsed.lines.iter().enumerate() {
        if !line.kept(n, keep_markers) {
            cut_since = true;
            if line.kept(n, true) {
                marker_dropped.get_or_insert(origin);
            }
            continue;
        }
        let code = line.code();
        if let Some(marker) = marker_dropped.take()
            && rust
            && is_import(code.trim_start())
            && ends_with_import(&out)
        {
            out.push(CutLine {
                text: String::new(),
                eol: line.eol,
                origin: marker,
            });
        }
        if cut_since && is_blank(&code) {
            match out.last().map(|l| l.text.trim_end()) {
                None => continue,
                Some("") => continue,
                Some(p) if rust && (p.ends_with('{') || p.ends_with('(') || p.ends_with('[')) => {
                    continue;
                }
                _ => {}
            }
        }
        if cut_since && rust {
            let t = code.trim();
            if (t.starts_with('}') || t.starts_with(')') || t.starts_with(']'))
                && out.last().is_some_and(|p| is_blank(&p.text))
            {
                out.pop();
            }
            // `{` + `}` left adjacent by the cut: join them as rustfmt does
            // (`pub struct Techniques {}`, `&[];`).
            if let Some(prev) = out.last_mut() {
                let p = prev.text.trim_end();
                let pair = matches!(
                    (p.chars().last(), t.chars().next()),
                    (Some('{'), Some('}')) | (Some('['), Some(']')) | (Some('('), Some(')'))
                );
                if pair
                    && !p.trim_start().starts_with("//")
                    && t.chars().all(|c| matches!(c, '}' | ']' | ')' | ';' | ','))
                {
                    prev.text = format!("{p}{t}");
                    prev.eol = line.eol;
                    cut_since = false;
                    continue;
                }
            }
        }
        out.push(CutLine {
            text: code,
            eol: line.eol,
            origin,
        });
        cut_since = false;
    }
    if cut_since {
        while out.last().is_some_and(|p| is_blank(&p.text)) {
            out.pop();
        }
        // Keep a final newline if the file had one.
        if let Some(last) = out.last_mut()
            && last.eol.is_empty()
            && parsed.lines.last().is_some_and(|l| !l.eol.is_empty())
        {
            last.eol = "\n";
        }
    }
    out
}

/// Whether a Rust line starts a `use`, `mod` or `extern crate` item: the
/// items rustfmt sorts within a group.
fn is_import(line: &str) -> bool {
    let mut rest = line;
    if let Some(after) = rest.strip_prefix("pub") {
        rest = match after.strip_prefix('(') {
            Some(inner) => inner.split_once(')').map_or("", |(_, tail)| tail),
            None => after,
        }
        .trim_start();
    }
    rest.starts_with("use ") || rest.starts_with("mod ") || rest.starts_with("extern crate ")
}

/// Whether the lines so far end with a whole `use` or `mod ...;` item
/// (one line, or several closed by `};` at the item's indentation).
fn ends_with_import(out: &[CutLine]) -> bool {
    let Some(last) = out.last() else {
        return false;
    };
    if !last.text.trim_end().ends_with(';') {
        return false;
    }
    let indent = |s: &str| s.len() - s.trim_start().len();
    let depth = indent(&last.text);
    out.iter()
        .rev()
        .find(|l| {
            let t = l.text.trim_start();
            !t.is_empty() && indent(&l.text) <= depth && !t.starts_with('}')
        })
        .is_some_and(|l| is_import(l.text.trim_start()))
}

/// The lines of a file without markers, unchanged, as cut lines.
pub fn uncut_lines(text: &str) -> Vec<CutLine<'_>> {
    split_lines(text)
        .into_iter()
        .enumerate()
        .map(|(origin, (text, eol))| CutLine {
            text: text.to_string(),
            eol,
            origin,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `%%` stands for `//`, so that this file has no marker lines itself.
    fn cut_rs(src: &str, n: u32) -> String {
        let src = src.replace("%%", "//");
        let parsed = parse("x.rs", &src);
        assert!(parsed.diags.is_empty(), "{:?}", parsed.diags);
        cut(&parsed, n).replace("//", "%%")
    }

    #[test]
    fn names() {
        let stage = |num, tag: &str| Name::Stage {
            num,
            tag: tag.to_string(),
        };
        assert_eq!(classify("stage-04-four"), stage(4, "stage-04-four"));
        assert_eq!(
            classify("stage-12-null-move--params-2"),
            stage(12, "stage-12-null-move")
        );
        assert_eq!(classify("main-only"), Name::MainOnly);
        assert_eq!(classify("excerpt"), Name::Plain);
        assert_eq!(classify("stage-4-x"), Name::BadStage);
        assert_eq!(classify("stage-04-X"), Name::BadStage);
        assert_eq!(classify("stage-04-x--"), Name::BadStage);
    }

    #[test]
    fn marker_lines() {
        let m = |l: &str, o: &[Opener]| parse_marker(&l.replace("%%", "//"), o);
        let rs = openers_for("a/b.rs");
        let got = m("    %% ANCHOR: stage-01-a", rs).unwrap();
        assert_eq!(
            (got.keyword, got.name.as_str()),
            (Keyword::Anchor, "stage-01-a")
        );
        let got = m("%%ANCHOR_END:stage-01-a", rs).unwrap();
        assert_eq!(got.keyword, Keyword::AnchorEnd);
        assert!(m("/%% ANCHOR: stage-01-a", rs).is_none()); // doc comment
        assert!(m("# ANCHOR: stage-01-a", rs).is_none());
        assert!(m("let a = 1; %% ANCHOR: stage-01-a", rs).is_none());
        let md = openers_for("book/src/ch01.md");
        assert!(m("<!-- ANCHOR: main-only -->", md).is_some());
        assert!(m("<!-- ANCHOR: main-only", md).is_none());
        assert!(m("%% ANCHOR: main-only", md).is_none());
        assert!(m("# REPLACED: stage-02-b", openers_for("scripts/test")).is_some());
        assert!(m("# ANCHOR: a b", openers_for("Cargo.toml")).is_none());
    }

    #[test]
    fn uncommenting() {
        let u = |l: &str| uncomment(&l.replace("%%", "//"), Opener::Slash);
        assert_eq!(u("    %% let x = 1;").as_deref(), Some("    let x = 1;"));
        assert_eq!(u("    %%     deeper").as_deref(), Some("        deeper"));
        assert_eq!(u("    %%").as_deref(), Some(""));
        assert_eq!(u("").as_deref(), Some(""));
        assert_eq!(u("    let x = 1;"), None);
        assert_eq!(
            uncomment("<!-- text -->", Opener::Html).as_deref(),
            Some("text")
        );
        assert_eq!(
            uncomment("  # a = 1", Opener::Hash).as_deref(),
            Some("  a = 1")
        );
    }

    #[test]
    fn blank_lines_are_tidied_where_cut() {
        // Doubled blank line and blank line at the end.
        let src = "fn a() {}\n\n%% ANCHOR: stage-02-b\nfn b() {}\n%% ANCHOR_END: stage-02-b\n\n\
                   fn c() {}\n\n%% ANCHOR: stage-03-d\nfn d() {}\n%% ANCHOR_END: stage-03-d\n";
        assert_eq!(cut_rs(src, 1), "fn a() {}\n\nfn c() {}\n");
        // Blank line after an opening bracket and before a closing one.
        let src = "impl A {\n    %% ANCHOR: stage-02-b\n    fn b() {}\n    %% ANCHOR_END: stage-02-b\n\n    \
                   fn c() {}\n\n    %% ANCHOR: stage-02-d\n    fn d() {}\n    %% ANCHOR_END: stage-02-d\n}\n";
        assert_eq!(cut_rs(src, 1), "impl A {\n    fn c() {}\n}\n");
        // Emptied brackets are joined.
        let src = "const A: &[u8] = &[\n    %% ANCHOR: stage-02-b\n    1,\n    \
                   %% ANCHOR_END: stage-02-b\n];\n";
        assert_eq!(cut_rs(src, 1), "const A: &[u8] = &[];\n");
        // Where nothing is cut, only the marker lines go.
        assert_eq!(cut_rs(src, 2), "const A: &[u8] = &[\n    1,\n];\n");
    }

    #[test]
    fn snapshots_drop_every_marker_line() {
        let src = "%% ANCHOR: plain\nfn a() {}\n%% ANCHOR_END: plain\n\n\
                   %% ANCHOR: stage-01-a\nfn b() {}\n%% ANCHOR_END: stage-01-a\n\n\
                   %% REPLACED: stage-02-b\n%% fn c() {}\n%% REPLACED_END: stage-02-b\n";
        assert_eq!(cut_rs(src, 1), "fn a() {}\n\nfn b() {}\n\nfn c() {}\n");
        assert_eq!(cut_rs(src, 2), "fn a() {}\n\nfn b() {}\n");
        let md = "a\n<!-- ANCHOR: stage-01-a -->\nb\n<!-- ANCHOR_END: stage-01-a -->\n\
                  ```\n<!-- ANCHOR: shown -->\n```\n";
        let parsed = parse("x.md", md);
        assert_eq!(
            cut(&parsed, 1),
            "a\nb\n```\n<!-- ANCHOR: shown -->\n```\n",
            "a marker in a code block is content"
        );
    }

    #[test]
    fn import_groups_stay_apart() {
        // rustfmt sorts `use` and `mod` items within a group: where a marker
        // separated two groups, a blank line does.
        let src = "use b::x;\n%% ANCHOR: stage-01-a\nuse a::{\n    y,\n};\n\
                   %% ANCHOR_END: stage-01-a\npub mod z;\n%% ANCHOR: stage-02-b\n\
                   pub(crate) mod c;\n%% ANCHOR_END: stage-02-b\nmod d;\nfn f() {}\n";
        assert_eq!(
            cut_rs(src, 2),
            "use b::x;\n\nuse a::{\n    y,\n};\n\npub mod z;\n\npub(crate) mod c;\n\nmod d;\n\
             fn f() {}\n"
        );
        // A block cut away leaves its neighbours together, as before.
        assert_eq!(
            cut_rs(src, 1),
            "use b::x;\n\nuse a::{\n    y,\n};\n\npub mod z;\nmod d;\nfn f() {}\n"
        );
        assert!(is_import("pub(in crate::x) use y;") && !is_import("let used = 1;"));
    }

    #[test]
    fn cut_lines_know_where_they_come_from() {
        let src = "fn a() {}\n%% ANCHOR: stage-01-a\nfn b() {}\n%% ANCHOR_END: stage-01-a\n"
            .replace("%%", "//");
        let parsed = parse("x.rs", &src);
        let origins = |keep| -> Vec<usize> {
            cut_lines(&parsed, 1, keep)
                .iter()
                .map(|l| l.origin)
                .collect()
        };
        assert_eq!(origins(false), [0, 2]);
        assert_eq!(origins(true), [0, 1, 2, 3]);
        assert_eq!(render(&uncut_lines("a\r\nb")), "a\r\nb");
    }

    #[test]
    fn anchor_pairs_and_empty_ones() {
        let src = "%% ANCHOR: stage-01-a\nfn a() {}\n%% ANCHOR: dead\n\n%% ANCHOR_END: dead\n\
                   %% ANCHOR_END: stage-01-a\n%% ANCHOR: main-only\n%% ANCHOR: stage-02-b\n\
                   %% ANCHOR_END: stage-02-b\n%% ANCHOR_END: main-only\n%% ANCHOR_END: lonely\n"
            .replace("%%", "//");
        let parsed = parse("x.rs", &src);
        let pairs: Vec<(String, usize, usize, bool)> = anchor_pairs(&parsed)
            .into_iter()
            .map(|p| {
                let empty = p.is_empty(&parsed);
                (p.name, p.start, p.end, empty)
            })
            .collect();
        let want = |name: &str, start, end, empty| (name.to_string(), start, end, empty);
        assert_eq!(
            pairs,
            [
                want("stage-01-a", 0, 5, false),
                want("dead", 2, 4, true),
                want("main-only", 6, 9, true),
                want("stage-02-b", 7, 8, true),
            ]
        );
    }

    #[test]
    fn markdown_fences_hide_markers() {
        let src = "a\n```\n<!-- ANCHOR: stage-02-x -->\n```\nb\n";
        let parsed = parse("a.md", src);
        assert!(parsed.diags.is_empty() && parsed.blocks.is_empty());
    }

    #[test]
    fn a_line_tag_adds_its_line_and_the_comments_above_it() {
        let src = "struct S {\n    a: u8,\n    %%/ Doc of b.\n    #[allow(dead_code)]\n    \
                   b: u8, %% +stage-03-c\n    c: u8,\n}\n";
        assert_eq!(cut_rs(src, 2), "struct S {\n    a: u8,\n    c: u8,\n}\n");
        assert_eq!(
            cut_rs(src, 3),
            "struct S {\n    a: u8,\n    %%/ Doc of b.\n    #[allow(dead_code)]\n    b: u8,\n    \
             c: u8,\n}\n"
        );
        // A comment above a blank line is not the tagged line's.
        let apart = "%% About a.\n\nuse a; %% +stage-02-b\n";
        assert_eq!(cut_rs(apart, 1), "%% About a.\n");
        let slashes = src.replace("%%", "//");
        let parsed = parse("x.rs", &slashes);
        assert!(parsed.has_markers() && !parsed.has_blocks());
    }

    #[test]
    fn a_line_tag_must_name_a_later_stage_than_its_block() {
        let errors = |src: &str| parse("x.rs", &src.replace("%%", "//")).diags.len();
        assert_eq!(errors("fn a() {} %% +stage-02-a\n"), 0);
        assert_eq!(errors("fn a() {} %% +stage-02-a--suffix\n"), 1);
        let inside = "%% ANCHOR: stage-04-d\nfn a() {} %% +stage-03-c\n%% ANCHOR_END: stage-04-d\n";
        assert_eq!(errors(inside), 1);
        // Not tags: a line of nothing but the tag, a tag in Markdown.
        assert_eq!(line_tag("    // +stage-02-a"), None);
        assert_eq!(line_tag("a // +stage-02-a"), Some(("a", "stage-02-a")));
        assert_eq!(line_tag("a // + stage-02-a"), None);
        let md = parse("a.md", "text // +stage-02-a\n");
        assert!(!md.lines[0].tagged);
    }
}

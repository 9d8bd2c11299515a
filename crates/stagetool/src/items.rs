//! The Rust items of a file, found by name: what an include of a cut
//! excerpt shows when the name after its `:` is no anchor of the file
//! (the book's appendix "Inside this repository", on the markers).
//!
//! This is no parser of Rust. It reads rustfmt-formatted code line by
//! line, which is all the engine has: an item starts on a line of its
//! own, at the left of it (`pub fn negamax(`), its doc comments and
//! attributes are the lines right above it, and it ends on the line that
//! closes its body's brace or holds its `;`. A small lexer keeps track of
//! strings, character literals, comments and brackets, so that a `{` in a
//! string or a comment does not count, and skips the brackets of macros,
//! whose contents are no items (`macro_rules! techniques { … pub struct
//! Techniques { … } … }` declares no struct itself).

/// One item of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub name: String,
    /// `fn`, `struct`, `enum`, `union`, `trait`, `type`, `const`,
    /// `static`, `mod` or `macro_rules!`.
    pub kind: &'static str,
    /// 0-based index of the item's first line: its first doc comment,
    /// attribute or comment line, or else its head.
    pub start: usize,
    /// 0-based index of the line that declares it (`pub fn negamax(`).
    pub head: usize,
    /// 0-based index of its last line.
    pub end: usize,
    /// 0-based index of the line that opens the block it sits in
    /// (`impl Searcher {`), if it is inside one.
    pub within: Option<usize>,
}

/// Why a name gives no item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Missing {
    /// No item has the name.
    None,
    /// Several have it.
    Ambiguous(Vec<Item>),
}

/// The one item of `lines` named `name`.
pub fn find<S: AsRef<str>>(lines: &[S], name: &str) -> Result<Item, Missing> {
    let mut found: Vec<Item> = items(lines)
        .into_iter()
        .filter(|i| i.name == name)
        .collect();
    match found.len() {
        0 => Err(Missing::None),
        1 => Ok(found.remove(0)),
        _ => Err(Missing::Ambiguous(found)),
    }
}

/// Whether `name` could name an item: a Rust identifier.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// Every item of a file, in the order of their heads, nested ones (the
/// methods of an `impl`, the items of a `mod`) included.
///
/// An item's first line is the top of the run of lines right above its
/// head that are doc comments (`///`), attributes (`#[…]`, over several
/// lines too) or plain comments (`//`, `/* … */`): rustfmt keeps a
/// comment with no blank line below it with the item that follows, and
/// the engine puts notes for the maintainer between an item's doc
/// comment and its attributes (`negamax`'s `// Eight arguments: …` above
/// its `#[allow(…)]`). A blank line, code, or an inner doc comment (`//!`)
/// ends the run. mdBook's marker lines (`// ANCHOR: …`) are passed over:
/// mdBook never shows them, so they neither start the run nor end it.
pub fn items<S: AsRef<str>>(lines: &[S]) -> Vec<Item> {
    let lines: Vec<&str> = lines.iter().map(AsRef::as_ref).collect();
    let lexed = lex(&lines);
    let mut found = Vec::new();
    let mut run: Option<usize> = None;
    // Inside an attribute that spans lines: the bracket depth it closes at.
    let mut attribute: Option<usize> = None;
    for (index, line) in lines.iter().enumerate() {
        let here = &lexed[index];
        let depth_after = lexed.get(index + 1).map_or(here.depth, |l| l.depth);
        if let Some(depth) = attribute {
            if depth_after <= depth {
                attribute = None;
            }
            continue;
        }
        let text = line.trim();
        match here.start {
            State::Block(_) => continue, // a comment that a `/*` line began
            State::Str | State::RawStr(_) => {
                run = None;
                continue;
            }
            State::Code => {}
        }
        if text.is_empty() || text.starts_with("//!") || text.starts_with("/*!") {
            run = None;
        } else if text.starts_with("//") && meta::includes::is_mdbook_marker(text) {
            // Invisible in every excerpt: neither part of the run nor its end.
        } else if text.starts_with("//") || text.starts_with("/*") {
            run.get_or_insert(index);
        } else if text.starts_with("#[") {
            run.get_or_insert(index);
            if depth_after > here.depth {
                attribute = Some(here.depth);
            }
        } else if let Some((kind, name)) = here.item_position.then(|| head(text)).flatten() {
            if let Some(end) = item_end(&lexed, index, kind) {
                found.push(Item {
                    name: name.to_string(),
                    kind,
                    start: run.unwrap_or(index),
                    head: index,
                    end,
                    within: here.within,
                });
            }
            run = None;
        } else {
            run = None;
        }
    }
    found
}

/// The kind and name of the item a trimmed line declares, if it is the
/// head of one: `pub(crate) const fn name`, `struct Name<…>`,
/// `macro_rules! name`, `static mut NAME`, …
fn head(text: &str) -> Option<(&'static str, &str)> {
    let mut rest = strip_visibility(text);
    // Qualifiers of `fn` (`const fn`, `unsafe extern "C" fn`, …); a
    // `const` followed by a name is a constant.
    loop {
        let before = rest;
        for qualifier in ["default", "async", "unsafe", "safe"] {
            if let Some(after) = word(rest, qualifier) {
                rest = after;
            }
        }
        if let Some(after) = word(rest, "extern") {
            rest = match after.strip_prefix('"') {
                Some(abi) => abi.split_once('"').map_or("", |(_, r)| r).trim_start(),
                None => after,
            };
        }
        if let Some(after) = word(rest, "const")
            && ["fn", "unsafe", "async", "extern"]
                .iter()
                .any(|w| word(after, w).is_some())
        {
            rest = after;
        }
        if rest == before {
            break;
        }
    }
    const KINDS: [&str; 9] = [
        "fn", "struct", "enum", "union", "trait", "type", "const", "static", "mod",
    ];
    let (kind, after) = match rest.strip_prefix("macro_rules!") {
        Some(after) => ("macro_rules!", after.trim_start()),
        None => KINDS
            .iter()
            .find_map(|&kind| word(rest, kind).map(|after| (kind, after)))?,
    };
    let after = match kind {
        "static" => word(after, "mut").unwrap_or(after),
        _ => after,
    };
    let length = after
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(after.len());
    let name = &after[..length];
    is_identifier(name).then_some((kind, name))
}

/// `text` after the keyword `word` and the whitespace that must follow
/// it, if it starts with them.
fn word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let after = text.strip_prefix(word)?;
    after
        .starts_with(char::is_whitespace)
        .then(|| after.trim_start())
}

/// `text` without a leading `pub`, `pub(crate)`, `pub(in path)`, ….
fn strip_visibility(text: &str) -> &str {
    let Some(after) = text.strip_prefix("pub") else {
        return text;
    };
    if let Some(inner) = after.strip_prefix('(') {
        return inner.split_once(')').map_or(text, |(_, r)| r.trim_start());
    }
    if after.starts_with(char::is_whitespace) {
        after.trim_start()
    } else {
        text
    }
}

/// The last line of the item whose head is line `head`: the one that
/// closes the first brace opened at the item's own level, or the one
/// with the first `;` at that level (`struct A(u8);`, `mod m;`, a trait's
/// `fn f();`). A constant, static or type alias ends at its `;` only: its
/// value may be a struct literal (`const A: T = T { … };`).
fn item_end(lexed: &[Lexed], head: usize, kind: &str) -> Option<usize> {
    let braces_end = !matches!(kind, "const" | "static" | "type");
    let mut depth = 0usize;
    for (index, line) in lexed.iter().enumerate().skip(head) {
        for &mark in &line.marks {
            match mark {
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' => {
                    depth = depth.saturating_sub(1);
                    if mark == '}' && depth == 0 && braces_end {
                        return Some(index);
                    }
                }
                ';' if depth == 0 => return Some(index),
                _ => {}
            }
        }
    }
    None
}

/// Where the lexer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Code,
    /// In `"…"` (or `b"…"`), which may span lines.
    Str,
    /// In a raw string `r#"…"#` with this many `#`.
    RawStr(usize),
    /// In a block comment, nested this deep.
    Block(usize),
}

/// What the lexer knows of one line.
#[derive(Debug, Clone)]
struct Lexed {
    /// Where the lexer is at the start of the line.
    start: State,
    /// How many brackets are open at the start of the line.
    depth: usize,
    /// Whether an item may start on this line: it starts in code, inside
    /// braces (or none) and outside the brackets of every macro.
    item_position: bool,
    /// The line of the innermost open brace at the start of the line.
    within: Option<usize>,
    /// The brackets and semicolons of the line's code, in order.
    marks: Vec<char>,
}

/// A token of code the lexer remembers, to tell a macro's brackets.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Punct(char),
}

/// An open bracket: which, whether it belongs to a macro (its own or one
/// around it), and its line.
struct Open {
    bracket: char,
    in_macro: bool,
    line: usize,
}

fn lex(lines: &[&str]) -> Vec<Lexed> {
    let mut state = State::Code;
    let mut open: Vec<Open> = Vec::new();
    // The last three tokens of code, newest first.
    let mut recent: [Option<Token>; 3] = [None, None, None];
    let mut out = Vec::with_capacity(lines.len());
    for (line_index, line) in lines.iter().enumerate() {
        let item_position = state == State::Code
            && open.iter().all(|o| !o.in_macro)
            && open.last().is_none_or(|o| o.bracket == '{');
        let within = open.iter().rev().find(|o| o.bracket == '{').map(|o| o.line);
        let mut lexed = Lexed {
            start: state,
            depth: open.len(),
            item_position,
            within,
            marks: Vec::new(),
        };
        let chars: Vec<char> = line.chars().collect();
        let at = |i: usize| chars.get(i).copied();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            match state {
                State::Block(depth) => {
                    if c == '*' && at(i + 1) == Some('/') {
                        state = if depth == 1 {
                            State::Code
                        } else {
                            State::Block(depth - 1)
                        };
                        i += 2;
                    } else if c == '/' && at(i + 1) == Some('*') {
                        state = State::Block(depth + 1);
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
                State::Str => {
                    if c == '\\' {
                        i += 2;
                    } else {
                        if c == '"' {
                            state = State::Code;
                        }
                        i += 1;
                    }
                }
                State::RawStr(hashes) => {
                    if c == '"' && (1..=hashes).all(|k| at(i + k) == Some('#')) {
                        state = State::Code;
                        i += 1 + hashes;
                    } else {
                        i += 1;
                    }
                }
                State::Code => {
                    if c == '/' && at(i + 1) == Some('/') {
                        break; // a line comment: the rest of the line
                    } else if c == '/' && at(i + 1) == Some('*') {
                        state = State::Block(1);
                        i += 2;
                    } else if c == '"' {
                        state = State::Str;
                        i += 1;
                    } else if c == '\'' {
                        i = after_quote(&chars, i);
                    } else if c.is_alphanumeric() || c == '_' {
                        let start = i;
                        while at(i).is_some_and(|c| c.is_alphanumeric() || c == '_') {
                            i += 1;
                        }
                        let word: String = chars[start..i].iter().collect();
                        // String and character prefixes: r"…", r#"…"#,
                        // br"…", b"…", b'x'.
                        if matches!(word.as_str(), "r" | "br") {
                            let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
                            if at(i + hashes) == Some('"') {
                                state = State::RawStr(hashes);
                                i += hashes + 1;
                                continue;
                            }
                        }
                        if word == "b" && at(i) == Some('"') {
                            state = State::Str;
                            i += 1;
                            continue;
                        }
                        if word == "b" && at(i) == Some('\'') {
                            i = after_quote(&chars, i);
                            continue;
                        }
                        recent = [Some(Token::Word(word)), recent[0].take(), recent[1].take()];
                    } else if c.is_whitespace() {
                        i += 1;
                    } else {
                        match c {
                            '{' | '(' | '[' => {
                                let bang = Some(Token::Punct('!'));
                                let macro_rules = Some(Token::Word("macro_rules".into()));
                                // `name! {`, or `macro_rules! name {`.
                                let by_macro = recent[0] == bang
                                    || (matches!(recent[0], Some(Token::Word(_)))
                                        && recent[1] == bang
                                        && recent[2] == macro_rules);
                                let in_macro = by_macro || open.iter().any(|o| o.in_macro);
                                open.push(Open {
                                    bracket: c,
                                    in_macro,
                                    line: line_index,
                                });
                                lexed.marks.push(c);
                            }
                            '}' | ')' | ']' => {
                                open.pop();
                                lexed.marks.push(c);
                            }
                            ';' => lexed.marks.push(c),
                            _ => {}
                        }
                        recent = [Some(Token::Punct(c)), recent[0].take(), recent[1].take()];
                        i += 1;
                    }
                }
            }
        }
        out.push(lexed);
    }
    out
}

/// Where the code goes on after the `'` at `i`: past a character literal
/// (`'{'`, `'\n'`, `'\u{7b}'`), or just past the quote of a lifetime
/// (`'a`, `'static`), whose name is an ordinary word.
fn after_quote(chars: &[char], i: usize) -> usize {
    if chars.get(i + 1) == Some(&'\\') {
        // An escape: the literal closes at the next quote after it.
        return chars
            .iter()
            .skip(i + 3)
            .position(|&c| c == '\'')
            .map_or(chars.len(), |p| i + 3 + p + 1);
    }
    if chars.get(i + 2) == Some(&'\'') {
        return i + 3;
    }
    i + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<&str> {
        text.lines().collect()
    }

    /// The item named `name` of `text` as (start, head, end), 1-based.
    fn span(text: &str, name: &str) -> (usize, usize, usize) {
        let item = find(&lines(text), name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        (item.start + 1, item.head + 1, item.end + 1)
    }

    #[test]
    fn a_function_starts_at_its_doc_comment_and_attributes() {
        let text = "use x;\n\n/// Doc.\n///\n/// More.\n// A note for maintainers.\n\
                    #[allow(clippy::too_many_arguments)]\n#[inline]\npub(super) fn f(\n    \
                    a: u32,\n) -> u32 {\n    a\n}\n\nfn g() {}\n";
        assert_eq!(span(text, "f"), (3, 9, 13));
        assert_eq!(find(&lines(text), "f").unwrap().kind, "fn");
        assert_eq!(span(text, "g"), (15, 15, 15));
    }

    #[test]
    fn an_attribute_over_several_lines_belongs_to_the_item() {
        let text = "#[cfg_attr(\n    test,\n    derive(Debug)\n)]\n/// Doc.\npub struct S {\n    \
                    a: u8,\n}\n";
        assert_eq!(span(text, "S"), (1, 6, 8));
    }

    #[test]
    fn a_blank_line_code_or_an_inner_doc_ends_the_run_above() {
        let text = "//! Module doc.\n/// Doc.\nfn a() {}\n// Not a's.\n\n/// Doc.\nfn b() {}\n\
                    // Right above c, so c's.\nfn c() {}\n";
        assert_eq!(span(text, "a"), (2, 3, 3));
        assert_eq!(span(text, "b"), (6, 7, 7));
        assert_eq!(span(text, "c"), (8, 9, 9));
    }

    #[test]
    fn marker_lines_are_passed_over() {
        // `%%` stands for `//`, so that this file has no marker lines.
        let text = "%% ANCHOR: f\n/// Doc.\n%% ANCHOR: stage-02-b\n/// More.\n\
                    %% ANCHOR_END: stage-02-b\npub fn f() {\n}\n%% ANCHOR_END: f\n"
            .replace("%%", "//");
        assert_eq!(span(&text, "f"), (2, 6, 7));
    }

    #[test]
    fn methods_inside_impl_blocks_are_items() {
        let text = "impl<'a> Picker<'a> {\n    /// New.\n    pub const fn new(pos: &'a u8) -> \
                    Self {\n        Picker { pos }\n    }\n\n    fn next(&mut self) -> Option<u8> \
                    {\n        None\n    }\n}\n";
        assert_eq!(span(text, "new"), (2, 3, 5));
        assert_eq!(span(text, "next"), (7, 7, 9));
        assert_eq!(find(&lines(text), "next").unwrap().within, Some(0));
        assert_eq!(
            find(&lines(text), "Picker"),
            Err(Missing::None),
            "no impl blocks"
        );
    }

    #[test]
    fn structs_enums_consts_and_others() {
        let text = "/// S.\n#[derive(Clone)]\npub struct S {\n    a: [u8; 4],\n}\n\
                    pub struct T(u8);\nstruct U;\nenum E {\n    A,\n    B = 2,\n}\n\
                    pub const C: Point = Point {\n    x: 1,\n};\n\
                    pub(crate) static mut M: [u8; 2] = [\n    1, 2,\n];\n\
                    type A<T> = Vec<T>;\npub trait Tr {\n    fn req(&self);\n    fn def(&self) \
                    {}\n}\nmod inner;\nmod tests {\n    const K: u8 = 1;\n}\n\
                    unsafe extern \"C\" fn ext() {}\n";
        assert_eq!(span(text, "S"), (1, 3, 5));
        assert_eq!(span(text, "T"), (6, 6, 6));
        assert_eq!(span(text, "U"), (7, 7, 7));
        assert_eq!(span(text, "E"), (8, 8, 11));
        assert_eq!(span(text, "C"), (12, 12, 14));
        assert_eq!(span(text, "M"), (15, 15, 17));
        assert_eq!(span(text, "A"), (18, 18, 18));
        assert_eq!(span(text, "Tr"), (19, 19, 22));
        assert_eq!(span(text, "req"), (20, 20, 20));
        assert_eq!(span(text, "def"), (21, 21, 21));
        assert_eq!(span(text, "inner"), (23, 23, 23));
        assert_eq!(span(text, "tests"), (24, 24, 26));
        assert_eq!(span(text, "K"), (25, 25, 25));
        assert_eq!(span(text, "ext"), (27, 27, 27));
        assert_eq!(find(&lines(text), "ext").unwrap().kind, "fn");
    }

    #[test]
    fn macro_rules_is_an_item_and_its_body_holds_none() {
        let text = "/// Declares things.\n#[macro_export]\nmacro_rules! things {\n    \
                    ($($f:ident),*) => {\n        pub struct Things {\n            $(pub $f: \
                    bool,)*\n        }\n    };\n}\n\nthings! {\n    fn inside() {}\n}\n";
        assert_eq!(span(text, "things"), (1, 3, 9));
        assert_eq!(find(&lines(text), "Things"), Err(Missing::None));
        assert_eq!(find(&lines(text), "inside"), Err(Missing::None));
    }

    #[test]
    fn braces_in_strings_characters_and_comments_do_not_count() {
        let text = r##"fn f<'a>(x: &'a str) -> String {
    let a = "}";
    let b = '}';
    let c = '\u{7d}';
    let q = '\'';
    // }
    /* } /* nested } */ } */
    let d = r#"a "quoted" }"#;
    let e = b"}";
    let g: &'static str = "x\"}";
    let h = "
}
";
    format!("{a}{{")
}
fn after() {}
"##;
        assert_eq!(span(text, "f"), (1, 1, 15));
        assert_eq!(span(text, "after"), (16, 16, 16));
    }

    #[test]
    fn a_name_of_two_items_is_ambiguous() {
        let text = "impl A {\n    fn new() {}\n}\nimpl B {\n    fn new() {}\n}\n";
        let Err(Missing::Ambiguous(found)) = find(&lines(text), "new") else {
            panic!("ambiguous");
        };
        let heads: Vec<(usize, Option<usize>)> = found.iter().map(|i| (i.head, i.within)).collect();
        assert_eq!(heads, [(1, Some(0)), (4, Some(3))]);
        assert_eq!(find(&lines(text), "gone"), Err(Missing::None));
    }

    #[test]
    fn names_are_identifiers() {
        assert!(is_identifier("negamax") && is_identifier("_x") && is_identifier("Stage2"));
        assert!(!is_identifier("stage-03-negamax") && !is_identifier("") && !is_identifier("3d"));
    }
}

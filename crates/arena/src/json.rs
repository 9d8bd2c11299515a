//! A small JSON reader, enough to read back the summary `arena match
//! --json` writes (see [`crate::summary`]): objects, arrays, strings,
//! numbers, `true`, `false` and `null`.

/// A JSON value. Object members keep their order.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(x) => Some(*x),
            _ => None,
        }
    }

    /// A number that is a whole, non-negative count.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_f64()
            .filter(|x| x.fract() == 0.0 && *x >= 0.0 && *x <= u64::MAX as f64)
            .map(|x| x as u64)
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }
}

/// Parses one JSON document.
pub fn parse(text: &str) -> Result<Value, String> {
    let mut parser = Parser {
        chars: text.char_indices().peekable(),
        text,
    };
    let value = parser.value()?;
    parser.skip_space();
    match parser.chars.peek() {
        None => Ok(value),
        Some(&(at, _)) => Err(format!("unexpected text after the JSON value at byte {at}")),
    }
}

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    text: &'a str,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self
            .chars
            .next_if(|(_, c)| c.is_ascii_whitespace())
            .is_some()
        {}
    }

    fn error<T>(&mut self, what: &str) -> Result<T, String> {
        match self.chars.peek() {
            Some(&(at, c)) => Err(format!("{what} at byte {at} (found {c:?})")),
            None => Err(format!("{what} at the end of the text")),
        }
    }

    fn expect(&mut self, wanted: char) -> Result<(), String> {
        self.skip_space();
        if self.chars.next_if(|&(_, c)| c == wanted).is_some() {
            Ok(())
        } else {
            self.error(&format!("expected {wanted:?}"))
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.skip_space();
        match self.chars.peek().map(|&(_, c)| c) {
            Some('{') => self.object(),
            Some('[') => self.array(),
            Some('"') => self.string().map(Value::String),
            Some('t') => self.word("true", Value::Bool(true)),
            Some('f') => self.word("false", Value::Bool(false)),
            Some('n') => self.word("null", Value::Null),
            Some(c) if c == '-' || c.is_ascii_digit() => self.number(),
            _ => self.error("expected a JSON value"),
        }
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value, String> {
        for wanted in word.chars() {
            if self.chars.next_if(|&(_, c)| c == wanted).is_none() {
                return self.error(&format!("expected {word}"));
            }
        }
        Ok(value)
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.chars.peek().map_or(self.text.len(), |&(at, _)| at);
        let mut end = start;
        while let Some((at, c)) = self
            .chars
            .next_if(|&(_, c)| c.is_ascii_digit() || "+-.eE".contains(c))
        {
            end = at + c.len_utf8();
        }
        let text = &self.text[start..end];
        text.parse()
            .map(Value::Number)
            .map_err(|_| format!("bad number {text:?} at byte {start}"))
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect('"')?;
        let mut out = String::new();
        loop {
            match self.chars.next() {
                None => return Err("unterminated string".to_string()),
                Some((_, '"')) => return Ok(out),
                Some((at, '\\')) => {
                    let escaped = match self.chars.next().map(|(_, c)| c) {
                        Some('"') => '"',
                        Some('\\') => '\\',
                        Some('/') => '/',
                        Some('n') => '\n',
                        Some('r') => '\r',
                        Some('t') => '\t',
                        Some('b') => '\u{8}',
                        Some('f') => '\u{c}',
                        Some('u') => {
                            let hex: String = (0..4)
                                .filter_map(|_| self.chars.next())
                                .map(|(_, c)| c)
                                .collect();
                            u32::from_str_radix(&hex, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .ok_or_else(|| format!("bad \\u escape at byte {at}"))?
                        }
                        _ => return Err(format!("bad escape at byte {at}")),
                    };
                    out.push(escaped);
                }
                Some((_, c)) => out.push(c),
            }
        }
    }

    fn array(&mut self) -> Result<Value, String> {
        self.expect('[')?;
        let mut items = Vec::new();
        self.skip_space();
        if self.chars.next_if(|&(_, c)| c == ']').is_some() {
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            self.skip_space();
            match self.chars.next().map(|(_, c)| c) {
                Some(',') => continue,
                Some(']') => return Ok(Value::Array(items)),
                _ => return Err("expected ',' or ']' in an array".to_string()),
            }
        }
    }

    fn object(&mut self) -> Result<Value, String> {
        self.expect('{')?;
        let mut members = Vec::new();
        self.skip_space();
        if self.chars.next_if(|&(_, c)| c == '}').is_some() {
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_space();
            let key = self.string()?;
            self.expect(':')?;
            members.push((key, self.value()?));
            self.skip_space();
            match self.chars.next().map(|(_, c)| c) {
                Some(',') => continue,
                Some('}') => return Ok(Value::Object(members)),
                _ => return Err("expected ',' or '}' in an object".to_string()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summary::json_string;

    #[test]
    fn reads_what_the_summary_writes() {
        let text = r#"{
  "engines": ["stage6", "st\"age5"],
  "command": "arena match --engine 'a b'",
  "book": null,
  "seed": 1,
  "penta": [3, 20, 50, 22, 5],
  "elo": -17.25, "tiny": 1e-3, "big": 2.5E+2,
  "ok": true, "no": false, "empty": [], "none": {},
  "escapes": "\u00e9\n\\\/"
}"#;
        let value = parse(text).expect("valid JSON");
        assert_eq!(value.get("seed").and_then(Value::as_u64), Some(1));
        assert_eq!(value.get("elo").and_then(Value::as_f64), Some(-17.25));
        assert_eq!(value.get("tiny").and_then(Value::as_f64), Some(0.001));
        assert_eq!(value.get("big").and_then(Value::as_f64), Some(250.0));
        assert_eq!(value.get("book"), Some(&Value::Null));
        assert_eq!(value.get("ok"), Some(&Value::Bool(true)));
        assert_eq!(value.get("empty").and_then(Value::as_array), Some(&[][..]));
        assert_eq!(value.get("none"), Some(&Value::Object(Vec::new())));
        let engines = value
            .get("engines")
            .and_then(Value::as_array)
            .expect("array");
        assert_eq!(engines[1].as_str(), Some("st\"age5"));
        assert_eq!(
            value.get("escapes").and_then(Value::as_str),
            Some("\u{e9}\n\\/")
        );
        let penta: Vec<u64> = value
            .get("penta")
            .and_then(Value::as_array)
            .expect("array")
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        assert_eq!(penta, [3, 20, 50, 22, 5]);
        assert_eq!(value.get("missing"), None);
        // Round trip of the summary's own string escaping.
        let tricky = "a\"b\\c\nd\u{1}e";
        assert_eq!(
            parse(&json_string(tricky)),
            Ok(Value::String(tricky.to_string()))
        );
    }

    #[test]
    fn rejects_broken_json() {
        for bad in [
            "",
            "{",
            "[1,",
            "{\"a\" 1}",
            "[1] x",
            "\"open",
            "tru",
            "-",
            "{1: 2}",
            "[1 2]",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(Value::Number(1.5).as_u64(), None);
        assert_eq!(Value::Number(-1.0).as_u64(), None);
    }
}

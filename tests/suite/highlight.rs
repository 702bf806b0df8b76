//! The TextMate grammar (`editors/bfr.tmLanguage.json`) kept in step with the
//! language: every keyword of `grammar/bfr.pest` is in its keyword pattern, and
//! every token of every file of `rules/2015` and of a small edition with Swedish
//! names (the formatter's lossless logos token stream) gets the scope its kind calls
//! for when the grammar's patterns are applied the way a TextMate editor applies
//! them (the leftmost match wins, the first pattern on a tie; a `begin`/`end` rule
//! runs to its end, its inner patterns consuming escapes).

use crate::support::{EDITION_2015, root};

/// A small edition whose names hold å, ä and ö.
const SWEDISH: &str = "tests/fixtures/svenska";
use bfr::edition::edition_files;
use bfr::syntax::format::tokens::{Kind, Token, tokens};
use regex::Regex;
use serde_json::Value;

struct Pattern {
    scope: String,
    re: Regex,
    end: Option<Regex>,
    inner: Vec<Regex>,
}

fn grammar() -> (Value, Vec<Pattern>) {
    let text = std::fs::read_to_string(root().join("editors/bfr.tmLanguage.json")).unwrap();
    let g: Value = serde_json::from_str(&text).unwrap();
    let mut out = Vec::new();
    for p in g["patterns"].as_array().unwrap() {
        let name = p["include"].as_str().unwrap().trim_start_matches('#');
        let rule = &g["repository"][name];
        let scope = rule["name"].as_str().unwrap().to_string();
        let compile = |s: &Value| Regex::new(s.as_str().unwrap()).unwrap();
        let (re, end) = match rule.get("match") {
            Some(m) => (compile(m), None),
            None => (compile(&rule["begin"]), Some(compile(&rule["end"]))),
        };
        let inner = rule["patterns"]
            .as_array()
            .map(|ps| ps.iter().map(|p| compile(&p["match"])).collect())
            .unwrap_or_default();
        out.push(Pattern {
            scope,
            re,
            end,
            inner,
        });
    }
    (g, out)
}

/// (start, end, scope) of each match, left to right.
fn scopes(patterns: &[Pattern], text: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut pos = 0;
    // Each pattern's next match, found again only once the scan has passed it.
    let mut next: Vec<Option<(usize, usize)>> = vec![Some((0, 0)); patterns.len()];
    let mut stale = vec![true; patterns.len()];
    while pos < text.len() {
        for (i, p) in patterns.iter().enumerate() {
            if stale[i] || next[i].is_some_and(|(s, _)| s < pos) {
                next[i] = p.re.find_at(text, pos).map(|m| (m.start(), m.end()));
                stale[i] = false;
            }
        }
        let best = patterns
            .iter()
            .zip(&next)
            .filter_map(|(p, m)| m.map(|(s, e)| (s, e, p)))
            .min_by_key(|(s, _, _)| *s);
        let Some((start, mut end, p)) = best else {
            break;
        };
        if let Some(close) = &p.end {
            let mut q = end;
            loop {
                let e = close.find_at(text, q);
                let inner = p
                    .inner
                    .iter()
                    .filter_map(|r| r.find_at(text, q))
                    .min_by_key(|m| m.start());
                match (e, inner) {
                    (Some(e), Some(i)) if i.start() < e.start() => q = i.end(),
                    (Some(e), _) => {
                        end = e.end();
                        break;
                    }
                    (None, _) => {
                        end = text.len();
                        break;
                    }
                }
            }
        }
        out.push((start, end, p.scope.clone()));
        pos = end.max(start + 1);
    }
    out
}

fn scope_at(spans: &[(usize, usize, String)], at: usize) -> Option<&str> {
    spans
        .iter()
        .find(|(s, e, _)| *s <= at && at < *e)
        .map(|(_, _, n)| n.as_str())
}

/// The words of the grammar that are keywords: every reserved word (its `keyword`
/// rule, a trie of pieces of words, checked against `syntax::RESERVED` by a unit
/// test) and every other word it reads literally, but for weekdays (part of a
/// date) and the units of a duration (`5 min`).
fn grammar_words() -> (Vec<String>, Vec<String>) {
    let pest = std::fs::read_to_string(root().join("grammar/bfr.pest")).unwrap();
    let quoted = Regex::new(r#""([a-zA-Z][a-zA-Z_]*)""#).unwrap();
    let words = |s: &str| -> Vec<String> {
        let mut w: Vec<String> = quoted.captures_iter(s).map(|c| c[1].to_string()).collect();
        w.sort();
        w.dedup();
        w
    };
    let start = pest.find("keyword = @{").unwrap();
    let end = start + pest[start..].find("~ !ident_char").unwrap();
    let mut keyword_rule: Vec<String> = bfr::syntax::RESERVED.map(String::from).to_vec();
    keyword_rule.sort();
    let not_keywords = [
        "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "h", "min", "s",
    ];
    let rest = format!("{}{}", &pest[..start], &pest[end..]);
    let mut all: Vec<String> = words(&rest)
        .into_iter()
        .filter(|w| !not_keywords.contains(&w.as_str()))
        .chain(keyword_rule.iter().cloned())
        .collect();
    all.sort();
    all.dedup();
    (keyword_rule, all)
}

fn keyword_pattern() -> Regex {
    let (g, _) = grammar();
    let m = g["repository"]["keyword"]["match"].as_str().unwrap();
    Regex::new(&format!("^(?:{m})$")).unwrap()
}

#[test]
fn every_keyword_of_the_grammar_is_highlighted_as_one() {
    let (keyword_rule, all) = grammar_words();
    assert!(keyword_rule.len() > 30, "{keyword_rule:?}");
    assert!(keyword_rule.contains(&"cites".to_string()));
    let kw = keyword_pattern();
    let missing: Vec<&String> = all
        .iter()
        .filter(|w| !kw.is_match(w) && *w != "true" && *w != "false")
        .collect();
    assert!(
        missing.is_empty(),
        "not in the keyword pattern: {missing:?}"
    );
    // ... and nothing else: a name that merely starts with a keyword is not one.
    for name in ["fn_name", "reference", "stage1", "inside", "outer"] {
        assert!(!kw.is_match(name), "{name}");
    }
}

/// The scope a token of this kind must get; `None`: no scope (a plain name).
fn expected(toks: &[Token], i: usize, keywords: &[String]) -> Option<&'static str> {
    let t = toks[i];
    let kind_at = |j: usize| toks.get(j).map(|t| t.kind);
    let date_scope = |d: usize| {
        if kind_at(d + 1) == Some(Kind::Space) && kind_at(d + 2) == Some(Kind::Clock) {
            "constant.numeric.datetime.bfr"
        } else {
            "constant.numeric.date.bfr"
        }
    };
    Some(match t.kind {
        Kind::Comment if t.text.starts_with("///") => "comment.line.documentation.bfr",
        Kind::Comment => "comment.line.double-slash.bfr",
        Kind::Str => "string.quoted.double.bfr",
        Kind::Date => date_scope(i),
        Kind::Clock
            if i >= 2
                && kind_at(i - 2) == Some(Kind::Date)
                && kind_at(i - 1) == Some(Kind::Space) =>
        {
            "constant.numeric.datetime.bfr"
        }
        Kind::Clock => "constant.numeric.time.bfr",
        Kind::Number => "constant.numeric.bfr",
        Kind::RuleId => "constant.other.rule-id.bfr",
        Kind::Pages => "constant.other.pages.bfr",
        Kind::Word => {
            let weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].contains(&t.text);
            if weekday && kind_at(i + 1) == Some(Kind::Space) && kind_at(i + 2) == Some(Kind::Date)
            {
                date_scope(i + 2)
            } else if t.text == "true" || t.text == "false" {
                "constant.language.bfr"
            } else if keywords.iter().any(|k| k == t.text) {
                "keyword.control.bfr"
            } else if t.text.starts_with(char::is_uppercase) {
                "entity.name.type.bfr"
            } else {
                return None;
            }
        }
        _ => return Some(""),
    })
}

#[test]
fn every_token_of_the_2015_edition_gets_the_scope_of_its_kind() {
    let (_, patterns) = grammar();
    let (_, keywords) = grammar_words();
    let mut checked = std::collections::BTreeMap::<String, usize>::new();
    let mut wrong = Vec::new();
    // And an edition with Swedish letters in its names (`Distrikt.Skåne`, `Örebro`).
    let files = edition_files(&root().join(EDITION_2015))
        .unwrap()
        .into_iter()
        .chain(edition_files(&root().join(SWEDISH)).unwrap());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let toks = tokens(&text).unwrap();
        let spans = scopes(&patterns, &text);
        for i in 0..toks.len() {
            let want = expected(&toks, i, &keywords);
            if want == Some("") {
                continue;
            }
            let got = scope_at(&spans, toks[i].start);
            *checked.entry(format!("{:?}", toks[i].kind)).or_default() += 1;
            if got != want {
                let name = path.file_name().unwrap().to_string_lossy();
                wrong.push(format!(
                    "{name} @{}: {:?} `{}`: {got:?}, want {want:?}",
                    toks[i].start, toks[i].kind, toks[i].text
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} tokens wrongly scoped:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    // Every kind with a scope of its own occurs in the edition and was checked.
    for kind in [
        "Comment", "Str", "Date", "Clock", "Number", "Word", "RuleId", "Pages",
    ] {
        assert!(
            checked.get(kind).copied().unwrap_or(0) > 0,
            "{kind}: {checked:?}"
        );
    }
}

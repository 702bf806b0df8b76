//! The direct reader against pest and the lowering: the same tree, spans
//! included, or the same diagnostic, on every file of the repository and on
//! mutated copies of every item of the 2015 edition.

use crate::syntax::{parse_expr_with, parse_file_with};
use std::path::{Path, PathBuf};

fn bfr_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            bfr_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "bfr") {
            out.push(path);
        }
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Both ways of parsing a file, as text that shows every span.
fn both(text: &str) -> (String, String) {
    (
        format!("{:?}", parse_file_with(text, 7, true)),
        format!("{:?}", parse_file_with(text, 7, false)),
    )
}

#[test]
fn every_file_reads_as_pest_parses_it() {
    let mut files = Vec::new();
    bfr_files(&root().join("rules"), &mut files);
    bfr_files(&root().join("tests"), &mut files);
    assert!(files.len() > 100);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let (direct, pest) = both(&text);
        assert_eq!(direct, pest, "{}", path.display());
    }
}

#[test]
fn a_wide_list_is_read_here_and_a_deep_one_left_to_pest() {
    let read_here = |text: &str| matches!(super::item(text, 7, 0), super::Step::Item(..));
    // 10,000 values (the most a list may hold), each a list of two: two levels deep.
    let wide = format!(
        "const wide: [[number]] ref X-A = [{}]\n",
        vec!["[1, -2]"; 10_000].join(", ")
    );
    assert!(read_here(&wide));
    let (direct, pest) = both(&wide);
    assert_eq!(direct, pest);
    // One value of a list 600 levels deep (`- - … 1`): past what the reader
    // takes, so pest reads the list as before.
    let deep = format!(
        "const deep: [number] ref X-A = [1, {}1, 2]\n",
        "- ".repeat(600)
    );
    assert!(!read_here(&deep));
    let (direct, pest) = both(&deep);
    assert_eq!(direct, pest);
}

/// A small deterministic generator (xorshift), so a failure can be replayed.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Tokens to insert: keywords, brackets, quotes, operators, literals of every
/// kind, layout and comments, and names that begin like keywords.
const INSERTS: [&str; 65] = [
    "if ",
    "then",
    "else",
    "let ",
    "in",
    "match ",
    "not ",
    "-",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "\"",
    ",",
    ";",
    "=>",
    "->",
    ".",
    ":",
    " ",
    "\n",
    "/// d\n",
    "// c\n",
    "//// x\n",
    "1",
    "2015-07-24",
    "Sat ",
    "12:00",
    "5 min",
    "x",
    "_",
    " as [VP]",
    " ref X-1 p.2 ",
    "deduct ",
    "warning",
    "refer ",
    "==",
    "<",
    "<=",
    "!=",
    "%",
    "/",
    "*",
    "and ",
    "or ",
    "é",
    "ifx ",
    "thenx",
    "in1",
    "unitVP ",
    "stages_x",
    "\\",
    "99999999999999999999999999999",
    "2015-02-30",
    "25:00",
    "1 h 1 h",
    "Fri 2015-07-24 ",
    "x => ",
    "a: ",
    "\u{FEFF}",
    "\t",
    "\r\n",
    "5\tVP",
];

fn mutate(text: &str, dice: &mut Dice) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = dice.below(chars.len() + 1);
    let mut out: Vec<char> = chars.clone();
    match dice.below(6) {
        0 if at < chars.len() => {
            out.remove(at);
        }
        1 => {
            // a word deleted
            let end = (at..chars.len())
                .find(|&i| !chars[i].is_alphanumeric() && chars[i] != '_')
                .unwrap_or(chars.len());
            out.drain(at..end.max(at));
        }
        2 => {
            // a line doubled
            let start = chars[..at]
                .iter()
                .rposition(|&c| c == '\n')
                .map_or(0, |i| i + 1);
            let end = (at..chars.len())
                .find(|&i| chars[i] == '\n')
                .unwrap_or(chars.len());
            let line: Vec<char> = chars[start..end].to_vec();
            out.splice(end..end, std::iter::once('\n').chain(line));
        }
        3 => out.truncate(at),
        _ => {
            let token = INSERTS[dice.below(INSERTS.len())];
            out.splice(at..at, token.chars());
        }
    }
    out.into_iter().collect()
}

#[test]
fn mutated_items_read_as_pest_parses_them() {
    let mut files = Vec::new();
    bfr_files(&root().join("rules/2015"), &mut files);
    let mut dice = Dice(0x2545_F491_4F6C_DD1D);
    let mut compared = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let Ok(file) = parse_file_with(&text, 7, false) else {
            continue;
        };
        for item in &file.items {
            let piece = &text[item.span.start as usize..item.span.end as usize];
            for _ in 0..3 {
                let mut mutated = mutate(piece, &mut dice);
                if dice.below(3) == 0 {
                    mutated = mutate(&mutated, &mut dice);
                }
                let (direct, pest) = both(&mutated);
                assert_eq!(direct, pest, "{mutated}");
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

#[test]
fn mutated_expressions_read_as_pest_parses_them() {
    let text = std::fs::read_to_string(root().join("rules/2015/chairmans_cup.bfr")).unwrap();
    let Ok(file) = parse_file_with(&text, 7, false) else {
        panic!("the edition parses");
    };
    let mut dice = Dice(0x9E37_79B9_7F4A_7C15);
    let mut exprs = Vec::new();
    for item in &file.items {
        let piece = &text[item.span.start as usize..item.span.end as usize];
        // What follows the first `=` of a const or a fn is an expression.
        if let Some((_, value)) = piece.split_once(" = ") {
            exprs.push(value.to_string());
        }
    }
    assert!(exprs.len() > 20);
    for e in &exprs {
        for i in 0..4 {
            let mutated = if i == 0 {
                e.clone()
            } else {
                mutate(e, &mut dice)
            };
            let direct = format!("{:?}", parse_expr_with(&mutated, 3, 100, true));
            let pest = format!("{:?}", parse_expr_with(&mutated, 3, 100, false));
            assert_eq!(direct, pest, "{mutated}");
        }
    }
}

#[test]
fn the_keywords_are_the_reserved_words_but_refer_and_notice() {
    for w in crate::syntax::RESERVED {
        assert_eq!(
            super::is_keyword(w),
            !crate::syntax::KEYWORDS_BEFORE_TEXT.contains(&w),
            "{w}"
        );
    }
    for name in ["fee", "iff", "i", "", "refers", "notice", "Unit", "stages"] {
        assert!(!super::is_keyword(name), "{name}");
    }
}

/// A keyword glued to what follows is the start of a longer name, in the
/// reader and in pest alike: each of these once read as the keyword and a
/// name (`constx` as `const x`, `unitVP` as `unit VP`).
#[test]
fn keywords_are_whole_words() {
    let glued = [
        "constx: number = 1\n",
        "const x: number refX-A = 1\n",
        "unitVP\n",
        "unit VP wholealias P\n",
        "unit VP countalias P\n",
        "enumE { A }\n",
        "const x: number = if true thenx else 2\n",
        "const x: number = if true then 1 elsex\n",
        "const x: number = let a = 1 ina\n",
        "scale s(x: number) -> number { domainx >= 0 x >= 0 => 1 }\n",
        "competition c { stagefoo { } }\n",
        "competition c { stagesx { } }\n",
        "edition \"e\" { sourcex \"s\" }\n",
    ];
    // The same words apart, and names that begin with a keyword, still read.
    let apart = [
        "const x: number = if true then x else 2\n",
        "const constant: number = let a = 1 in index\n",
        "competition c { stages { } stage_count = 2 }\n",
        "unit VP whole alias P\n",
        "unit VP count alias P\n",
        // `count` is a word only among a unit's flags.
        "unit count count\nconst count: count = 1 count\n",
    ];
    let cases = glued.map(|t| (t, "Err")).into_iter();
    for (text, outcome) in cases.chain(apart.map(|t| (t, "Ok"))) {
        let (direct, pest) = both(text);
        assert_eq!(direct, pest, "{text}");
        assert!(direct.starts_with(outcome), "{text}: {direct}");
    }
}

/// Every word the grammar spells out is read only as a whole word: outside the
/// `keyword` rule (a trie of first letters, ended by `!ident_char`), each literal
/// made of letters stands as `!glued_WORD ~ "WORD"`, after
/// `&keyword ~` (a whole reserved word), or in an atomic rule that ends with
/// `~ !ident_char`. A keyword added without one of these would take the start of
/// a longer name (`thenx` as `then x`), as `const`, `unit` and ten others once did.
#[test]
fn every_word_of_the_grammar_is_guarded_as_a_whole_word() {
    let grammar = include_str!("../../../grammar/bfr.pest");
    let mut in_keyword_rule = false;
    let mut unguarded = Vec::new();
    let mut words = 0;
    for (number, line) in grammar.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        if code.starts_with("keyword") {
            in_keyword_rule = true;
        } else if in_keyword_rule && !code.starts_with(' ') && !code.is_empty() {
            in_keyword_rule = false;
        }
        if in_keyword_rule {
            continue;
        }
        let atomic_whole_word = code.contains("@{") && code.contains("!ident_char");
        let mut rest = code;
        while let Some(open) = rest.find('"') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('"') else { break };
            let literal = &after[..close];
            let before = rest[..open].trim_end();
            rest = &after[close + 1..];
            // A literal that ends in punctuation (`p.`) ends itself.
            if literal.is_empty() || !literal.chars().all(|c| c.is_ascii_alphabetic()) {
                continue;
            }
            words += 1;
            let is_glue_rule = code.trim_start().starts_with(&format!("glued_{literal} "));
            let guarded = before.ends_with(&format!("!glued_{literal} ~"))
                || before.ends_with("&keyword ~")
                || atomic_whole_word
                || is_glue_rule;
            if !guarded {
                unguarded.push(format!("line {}: \"{literal}\"", number + 1));
            }
        }
    }
    assert!(
        words > 40,
        "only {words} words found: is the grammar where it was?"
    );
    assert!(unguarded.is_empty(), "words not guarded: {unguarded:?}");
}

#[test]
fn a_not_spans_its_comparison_not_the_layout_after_it() {
    let text = "example \"e\" ref X-1 {\n  not f(6) == 2\n  not g\n  not (a == (b))\n  \
                not ((g)) // (a note)\n  h(1)\n}\n";
    let (direct, pest) = both(text);
    assert_eq!(direct, pest);
    let file = parse_file_with(text, 7, true).unwrap();
    let crate::syntax::ast::Decl::Example(example) = &file.items[0].decl else {
        panic!("{file:?}")
    };
    let spanned: Vec<&str> = example
        .assertions
        .iter()
        .map(|a| &text[a.span.start as usize..a.span.end as usize])
        .collect();
    assert_eq!(
        spanned,
        [
            "not f(6) == 2",
            "not g",
            "not (a == (b))",
            "not ((g))",
            "h(1)"
        ]
    );
}

#[test]
fn a_negation_spans_its_operand_not_the_layout_after_it() {
    let text = "const a: number ref X-1 = -4 // a note\n\nconst b: number ref X-1 = - ( 2 )  \n\
                const c: number ref X-1 = --f(1)\n";
    let (direct, pest) = both(text);
    assert_eq!(direct, pest);
    let file = parse_file_with(text, 7, true).unwrap();
    let spanned: Vec<&str> = file
        .items
        .iter()
        .map(|item| match &item.decl {
            crate::syntax::ast::Decl::Const(k) => {
                &text[k.value.span.start as usize..k.value.span.end as usize]
            }
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(spanned, ["-4", "- ( 2 )", "--f(1)"]);
}

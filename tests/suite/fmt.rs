//! `bfr fmt`: meaning kept (the syntax tree of the output equals the input's, spans
//! aside) on every rules file, every test case and generated programs; formatting
//! twice changes nothing; `--check` for CI.

use crate::support::{TempDir, bfr, root};
use bfr::edition::edition_files;
use bfr::syntax::format::{format, format_checked};
use bfr::syntax::parse_file;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

/// Formats `text` and asserts the output parses to the same tree and is a fixed point.
fn assert_kept(name: &str, text: &str) {
    let before = parse_file(text, 0).unwrap_or_else(|d| panic!("{name} parses: {}", d.message));
    let once = format_checked(text, 0).unwrap_or_else(|d| panic!("{name}: {}", d.message));
    let after = parse_file(&once, 0).unwrap_or_else(|d| panic!("{name} formatted: {}", d.message));
    assert_eq!(after, before, "{name}: formatting changed the syntax tree");
    assert_eq!(
        format(&once).as_deref(),
        Ok(once.as_str()),
        "{name}: not idempotent"
    );
}

fn bfr_files(dir: &Path) -> Vec<PathBuf> {
    edition_files(&root().join(dir)).expect("readable")
}

#[test]
fn every_rules_file_keeps_its_meaning_and_is_a_fixed_point() {
    let files = bfr_files(Path::new("rules"));
    assert!(files.len() >= 11, "{files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).expect("UTF-8");
        assert_kept(&f.display().to_string(), &text);
    }
}

#[test]
fn every_test_case_that_parses_keeps_its_meaning() {
    let mut kept = 0;
    for dir in ["tests/cases", "tests/fixtures"] {
        for f in bfr_files(Path::new(dir)) {
            let Ok(text) = std::fs::read_to_string(&f) else {
                continue; // the not-UTF-8 case
            };
            if parse_file(&text, 0).is_ok() {
                assert_kept(&f.display().to_string(), &text);
                kept += 1;
            } else {
                // A file the parser refuses is never rewritten.
                assert!(format_checked(&text, 0).is_err(), "{}", f.display());
            }
        }
    }
    assert!(kept >= 40, "only {kept} case files parse");
}

#[test]
fn the_bundled_edition_is_formatted() {
    let (code, stdout, stderr) = bfr(&["fmt", "--check", "rules/2015"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(stdout, "");
}

#[test]
fn check_lists_the_files_that_would_change_and_fmt_rewrites_them() {
    let dir = TempDir::new("fmt");
    let messy = dir.0.join("messy.bfr");
    let tidy = dir.0.join("tidy.bfr");
    std::fs::write(&messy, "unit VP \"victory points\"\nconst a:VP=1 VP+2 VP\n").unwrap();
    std::fs::write(&tidy, "unit VP \"victory points\"\n").unwrap();
    let path = dir.0.display().to_string();

    let (code, stdout, _) = bfr(&["fmt", "--check", &path]);
    assert_eq!(code, 1);
    assert_eq!(stdout, format!("would reformat {}\n", messy.display()));
    assert!(
        std::fs::read_to_string(&messy).unwrap().contains("a:VP"),
        "--check writes nothing"
    );

    let (code, stdout, _) = bfr(&["fmt", &path]);
    assert_eq!(code, 0);
    assert_eq!(stdout, format!("reformatted {}\n", messy.display()));
    assert_eq!(
        std::fs::read_to_string(&messy).unwrap(),
        "unit VP \"victory points\"\nconst a: VP = 1 VP + 2 VP\n"
    );
    assert_eq!(bfr(&["fmt", "--check", &path]).0, 0);
}

#[test]
fn fmt_rewrites_a_linked_file_where_it_lives_and_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("fmt-link");
    let real = dir.0.join("kept.bfr.txt");
    std::fs::write(&real, "unit VP \"victory points\"\nconst a:VP=1 VP\n").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.0.join("linked.bfr");
    std::os::unix::fs::symlink("kept.bfr.txt", &link).unwrap();
    let (code, _, stderr) = bfr(&["fmt", link.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&real).unwrap(),
        "unit VP \"victory points\"\nconst a: VP = 1 VP\n"
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::metadata(&real).unwrap().permissions().mode() & 0o777,
        0o640
    );
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 2);
}

#[test]
fn swedish_names_are_names_to_the_formatter() {
    let text = "enum Distrikt{Stockholm,Skåne,Jämtland_Härjedalen}\n\
                table bidrag(d:Distrikt)->SEK ref SM-TRAVEL{\nStockholm=>0 SEK,\nSkåne=>1400 SEK\n}\n\
                const avgift_för_sent:SEK=2*bidrag(Distrikt.Skåne)\n";
    assert_kept("swedish", text);
    let once = format(text).unwrap();
    // Columns line up by letters, not bytes: `Skåne` is five wide.
    assert!(
        once.contains("  Stockholm => 0 SEK,\n  Skåne     => 1400 SEK\n"),
        "{once}"
    );
    assert!(
        once.contains("const avgift_för_sent: SEK = 2 * bidrag(Distrikt.Skåne)"),
        "{once}"
    );
    // A decomposed `å` (a and a combining ring) is kept as written and parses to
    // the same name as the composed one.
    let decomposed = text.replace("Skåne", "Ska\u{30a}ne");
    assert_kept("decomposed", &decomposed);
    assert_eq!(
        parse_file(&decomposed, 0).unwrap(),
        parse_file(text, 0).unwrap()
    );
    let once = format(&decomposed).unwrap();
    assert!(once.contains("  Ska\u{30a}ne     => 1400 SEK\n"), "{once}");
}

#[test]
fn a_file_with_errors_is_left_as_it_is() {
    let dir = TempDir::new("fmt-broken");
    let broken = dir.0.join("broken.bfr");
    let text = "const a:VP = (1 VP\n";
    std::fs::write(&broken, text).unwrap();
    let (code, _, stderr) = bfr(&["fmt", "--color", "never", &dir.0.display().to_string()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("E0001"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), text);
}

// ── generated programs ─────────────────────────────────────────────────────────

/// An expression as tokens (atoms the grammar reads whole are one token).
fn expr() -> impl Strategy<Value = Vec<String>> {
    let atom = prop_oneof![
        Just("1".to_string()),
        Just("2.5".to_string()),
        Just("3 VP".to_string()),
        Just("12 SEK/player".to_string()),
        Just("a".to_string()),
        Just("x.y".to_string()),
        Just("Side.Home".to_string()),
        Just("District.Skåne".to_string()),
        Just("avgift_för_sent".to_string()),
        Just("\"s t\"".to_string()),
        Just("Fri 2015-07-24".to_string()),
        Just("Fri 2015-07-24 20:00".to_string()),
        Just("1 h 30 min".to_string()),
        Just("5 %vol".to_string()),
        Just("true".to_string()),
    ]
    .prop_map(|a| vec![a]);
    atom.prop_recursive(4, 40, 4, |inner| {
        let op = prop_oneof![
            Just("+"),
            Just("-"),
            Just("*"),
            Just("/"),
            Just("=="),
            Just("!="),
            Just("<"),
            Just(">="),
            Just("and"),
            Just("or"),
        ];
        prop_oneof![
            // A comparison does not chain: the generator brackets each one.
            (inner.clone(), op, inner.clone()).prop_map(|(a, o, b)| {
                if ["==", "!=", "<", ">="].contains(&o) {
                    cat(&[toks("("), a, vec![o.into()], b, toks(")")])
                } else {
                    cat(&[a, vec![o.into()], b])
                }
            }),
            inner.clone().prop_map(|a| cat(&[vec!["-".into()], a])),
            inner
                .clone()
                .prop_map(|a| cat(&[toks("( not ("), a, toks(") )")])),
            inner
                .clone()
                .prop_map(|a| cat(&[vec!["(".into()], a, vec![")".into()]])),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| cat(&[
                toks("f ("),
                a,
                toks(","),
                toks("n :"),
                b,
                toks(")")
            ])),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| cat(&[
                toks("["),
                a,
                toks(","),
                b,
                toks("]")
            ])),
            inner
                .clone()
                .prop_map(|a| cat(&[toks("xs ["), a, toks("] . z")])),
            // An `if` or a `let` is a whole expression, an operand only in
            // brackets: the generator brackets each one.
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| cat(&[
                toks("( if"),
                c,
                toks("then"),
                a,
                toks("else"),
                b,
                toks(")")
            ])),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(e, a, b)| cat(&[
                toks("match"),
                e,
                toks("{ A =>"),
                a,
                toks(", _ =>"),
                b,
                toks("}")
            ])),
            (inner.clone(), inner).prop_map(|(a, b)| cat(&[
                toks("( let v ="),
                a,
                toks("in"),
                b,
                toks(")")
            ])),
        ]
    })
}

fn toks(s: &str) -> Vec<String> {
    s.split(' ').map(str::to_string).collect()
}

fn cat(parts: &[Vec<String>]) -> Vec<String> {
    parts.concat()
}

/// A file of declarations around generated expressions.
fn program() -> impl Strategy<Value = Vec<String>> {
    (expr(), expr(), expr()).prop_map(|(a, b, c)| {
        cat(&[
            toks("/// doc\nconst c : [ VP ] ref CC-FEE p.14-15,19 \"Startavgifter\" ="),
            a,
            toks("\nfn f ( a : VP , b : SEK/player ) -> VP\nref X-1\n="),
            b,
            toks("\nscale s ( x : VP ) -> VP { domain x >= 0 VP\n0 VP <= x < 1 VP =>"),
            c.clone(),
            toks("\nx >= 1 VP =>"),
            c,
            toks("}\ncompetition cup { stage r1 { places 1..4 -> out\nwinners -> place 1 .. 2 } }"),
        ])
    })
}

/// What goes between two tokens: mostly spaces, sometimes nothing, line breaks,
/// blank lines or a comment.
fn separator() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        6 => Just(" "),
        2 => Just(""),
        1 => Just("   "),
        1 => Just("\t"),
        1 => Just("\n"),
        1 => Just("\n\n\n  "),
        1 => Just(" // a comment  \n"),
    ]
}

fn joined(tokens: &[String], seps: &[&str]) -> String {
    let mut out = String::new();
    for (i, t) in tokens.iter().enumerate() {
        if i > 0 {
            out.push_str(seps.get(i).copied().unwrap_or(" "));
        }
        out.push_str(t);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Whatever a generated program means as written (with any spacing), its
    /// formatted text means the same, and formatting it again changes nothing.
    #[test]
    fn generated_programs_keep_their_meaning(
        tokens in program(),
        seps in proptest::collection::vec(separator(), 400),
    ) {
        let plain = joined(&tokens, &[]);
        prop_assert!(parse_file(&plain, 0).is_ok(), "the generator writes valid programs:\n{plain}");
        for text in [plain, joined(&tokens, &seps)] {
            let Ok(before) = parse_file(&text, 0) else { continue };
            let once = format(&text).map_err(|at| TestCaseError::fail(format!("no token at {at}")))?;
            let after = parse_file(&once, 0).map_err(|d| TestCaseError::fail(format!("{}\n{once}", d.message)))?;
            prop_assert_eq!(&after, &before, "meaning changed:\n{}\n---\n{}", text, once);
            let twice = format(&once);
            prop_assert_eq!(twice.as_deref(), Ok(once.as_str()));
        }
    }
}

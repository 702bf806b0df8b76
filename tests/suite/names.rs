//! Names as an editor or a director types them: names may hold Swedish letters
//! (`cc_ko_avgift_för_sent`, `Distrikt.Skåne`), a name that differs from a known
//! one only by case or diacritics gets it first in "did you mean", and a bare enum
//! variant gets the qualified name.

use crate::support::{EDITION_2015, TempDir, bfr};

/// A small edition whose names hold å, ä and ö.
const SWEDISH: &str = "tests/fixtures/svenska";

#[test]
fn an_edition_with_swedish_names_checks_and_evaluates() {
    let (code, stdout, stderr) = bfr(&["check", SWEDISH]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("1 example: 0 errors, 0 warnings"),
        "{stdout}"
    );
    let (code, stdout, stderr) = bfr(&["eval", SWEDISH, "resebidrag(Distrikt.Skåne)"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.trim(), "1400 SEK");
    let (code, stdout, stderr) = bfr(&["eval", SWEDISH, "Distrikt.Örebro"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Örebro"), "{stdout}");
    let (code, stdout, stderr) = bfr(&["eval", SWEDISH, "avgift_för_lag(5 spelare)"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.trim(), "400 SEK");
    let (code, _, stderr) = bfr(&["fmt", "--check", SWEDISH]);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn a_decomposed_letter_is_the_same_name_as_the_composed_one() {
    // `a` and a combining ring above, as some keyboards and PDFs give `å`.
    let decomposed = "resebidrag(Distrikt.Ska\u{30a}ne)";
    let (code, stdout, stderr) = bfr(&["eval", SWEDISH, decomposed]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.trim(), "1400 SEK");
    // And in a file: a const declared decomposed is used composed.
    let dir = TempDir::new("names-nfc");
    std::fs::write(
        dir.0.join("a.bfr"),
        "unit SEK \"kronor\"\nconst avgift_fo\u{308}r_sent: SEK ref X-1 = 100 SEK\n",
    )
    .unwrap();
    let path = dir.0.display().to_string();
    let (code, stdout, stderr) = bfr(&["eval", &path, "avgift_för_sent * 2"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.trim(), "200 SEK");
}

#[test]
fn a_name_without_its_diacritics_gets_the_swedish_spelling() {
    let (code, _, stderr) = bfr(&["eval", "--color", "never", SWEDISH, "cc_ko_avgift_for_sent"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("unknown name `cc_ko_avgift_for_sent`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("did you mean `cc_ko_avgift_för_sent`?"),
        "{stderr}"
    );
    // A bare variant without its ring gets the qualified Swedish spelling ...
    let (code, _, stderr) = bfr(&["eval", "--color", "never", SWEDISH, "Skane"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("did you mean `Distrikt.Skåne`?"),
        "{stderr}"
    );
    // ... and so does one in the wrong case.
    let (_, _, stderr) = bfr(&["eval", "--color", "never", SWEDISH, "örebro"]);
    assert!(
        stderr.contains("did you mean `Distrikt.Örebro`?"),
        "{stderr}"
    );
    // A variant of the enum written without its ring.
    let (code, _, stderr) = bfr(&["eval", "--color", "never", SWEDISH, "Distrikt.Skane"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`Distrikt` has no variant `Skane`"),
        "{stderr}"
    );
    assert!(stderr.contains("did you mean `Skåne`?"), "{stderr}");
}

#[test]
fn the_ascii_spelling_is_found_from_the_swedish_one() {
    // The bundled edition keeps ASCII names; the Swedish spelling finds them.
    let (code, _, stderr) = bfr(&["eval", "--color", "never", EDITION_2015, "District.Skåne"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`District` has no variant `Skåne`"),
        "{stderr}"
    );
    assert!(stderr.contains("did you mean `Skane`?"), "{stderr}");
    let (code, stdout, stderr) = bfr(&["eval", EDITION_2015, "sm_travel_subsidy(District.Skane)"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.trim(), "1400 SEK/pair");
}

#[test]
fn a_bare_variant_gets_its_enums_name() {
    let (code, _, stderr) = bfr(&["eval", "--color", "never", EDITION_2015, "Skane"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("unknown name `Skane`"), "{stderr}");
    assert!(
        stderr.contains("did you mean `District.Skane`?"),
        "{stderr}"
    );
    // A near miss of a variant too, and one with a Swedish letter.
    for near in ["Skaane", "Skåne"] {
        let (_, _, stderr) = bfr(&["eval", "--color", "never", EDITION_2015, near]);
        assert!(
            stderr.contains("did you mean `District.Skane`?"),
            "{near}: {stderr}"
        );
    }
}

#[test]
fn names_in_strings_and_comments_may_be_swedish() {
    let (code, stdout, stderr) = bfr(&["eval", EDITION_2015, "\"Skåne\" // Örebro"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Skåne"), "{stdout}");
}

#[test]
fn a_variant_differing_only_by_diacritics_goes_before_a_near_name() {
    // `Skane` is one letter from the const `skanes`, and only a ring from `Skåne`.
    let dir = TempDir::new("names-first");
    std::fs::write(
        dir.0.join("a.bfr"),
        "enum Distrikt { Skåne, Örebro }\nconst skanes: number ref X-1 = 2\n",
    )
    .unwrap();
    let path = dir.0.display().to_string();
    let (code, _, stderr) = bfr(&["eval", "--color", "never", &path, "Skane"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("did you mean `Distrikt.Skåne`?"),
        "{stderr}"
    );
    // A near name that is not a diacritics-only difference still wins over a
    // merely near variant.
    let (_, _, stderr) = bfr(&["eval", "--color", "never", &path, "skanas"]);
    assert!(stderr.contains("did you mean `skanes`?"), "{stderr}");
}

#[test]
fn a_penalty_rule_written_short_suggests_the_rules_it_begins() {
    // A director writes `late_arrival(12 min)` for the Chairman's Cup: the help names
    // the competition's own late-arrival scales, not SM Lag Veteran's
    // `lv_late_arrival`, the nearest spelling.
    let (code, _, stderr) = bfr(&[
        "eval",
        "--color",
        "never",
        EDITION_2015,
        "late_arrival(12 min)",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("[E0101]"), "{stderr}");
    assert!(
        stderr.contains("`late_arrival_knockout`")
            && stderr.contains("`late_arrival_qualification`"),
        "{stderr}"
    );
    assert!(!stderr.contains("lv_late_arrival"), "{stderr}");
    // A misspelling with no longer name is still matched by spelling.
    let (_, _, stderr) = bfr(&[
        "eval",
        "--color",
        "never",
        EDITION_2015,
        "lv_late_arival(6 min)",
    ]);
    assert!(
        stderr.contains("did you mean `lv_late_arrival`?"),
        "{stderr}"
    );
}

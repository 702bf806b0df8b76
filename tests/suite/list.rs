//! `bfr list`: an edition's files, rules (kind, type, source), procedures,
//! readings, and competitions with their stages, as text and as JSON.

use crate::support::{EDITION_2015, bfr, program_2015};

#[test]
fn the_2015_edition_is_listed_with_its_rules_sources_and_stages() {
    let (code, stdout, stderr) = bfr(&["list", EDITION_2015]);
    assert_eq!(code, 0, "{stderr}");
    let program = program_2015();
    let files = std::fs::read_dir(EDITION_2015)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some("bfr".as_ref()))
        .count();
    assert!(
        stdout.starts_with(&format!(
            "Bridgefestivalen 2015: {files} files, {} rules, {} procedures, 3 competitions\n",
            program.rules.len(),
            program.texts.len()
        )),
        "{stdout}"
    );
    let has_line = |cells: &[&str]| {
        stdout.lines().any(|l| {
            let words: Vec<&str> = l
                .split("  ")
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .collect();
            words == cells
        })
    };
    assert!(has_line(&[
        "cc_gh_fee_team_cap",
        "const",
        "CC-FEE p.14",
        "\"Startavgifter\"",
        "SEK"
    ]));
    assert!(
        has_line(&[
            "cc_gh_entry_fee",
            "fn",
            "CC-FEE p.14",
            "\"Startavgifter\"",
            "(seniors: player, juniors: player) -> SEK"
        ]),
        "{stdout}"
    );
    // A plain number admitting whole numbers only is listed as written.
    assert!(
        has_line(&[
            "lv_choice_turn",
            "fn",
            "LV-KO p.12",
            "\"Slutspel vid fler än 16 lag\"",
            "(position: integer) -> integer"
        ]),
        "{stdout}"
    );
    assert!(has_line(&[
        "amb22_bye_score",
        "const",
        "AMB-22 p.15",
        "\"Lördag 25 juli söndag 26 juli\"",
        "VP"
    ]));
    assert!(has_line(&[
        "amb01_reading",
        "reading",
        "AMB-1 p.17",
        "\"Val av motståndare Bonuscupen (BC)\"",
        "Amb01EqualRankings"
    ]));
    assert!(has_line(&[
        "organiser_disclaimer",
        "procedure",
        "P4-DISCLAIMER p.4",
        "\"Arrangörens friskrivning\""
    ]));
    // Every rule of every file is listed once.
    for r in &program.rules {
        let n = stdout
            .lines()
            .filter(|l| l.split_whitespace().next() == Some(r.name.as_str()))
            .count();
        assert_eq!(n, 1, "{}", r.name);
    }
    let start = stdout.find("\ncompetition cup").expect("the cup is listed");
    insta::assert_snapshot!("list_2015_competitions", &stdout[start..]);
}

#[test]
fn the_listing_as_json_holds_every_rule_and_stage_in_order() {
    let (code, stdout, stderr) = bfr(&["list", "--format", "json", EDITION_2015]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let program = program_2015();
    let rules = v["rules"].as_array().unwrap();
    assert_eq!(rules.len(), program.rules.len() + program.texts.len());
    let fee = rules
        .iter()
        .find(|r| r["name"] == "cc_gh_entry_fee")
        .unwrap();
    assert_eq!(fee["kind"], "fn");
    assert_eq!(fee["id"], "CC-FEE");
    assert_eq!(fee["pages"], "14");
    assert_eq!(fee["file"], "chairmans_cup.bfr");
    assert_eq!(fee["type"], "(seniors: player, juniors: player) -> SEK");
    let cup = &v["competitions"][0];
    assert_eq!(cup["name"], "cup");
    let names: Vec<&str> = cup["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    let cc = program
        .competitions
        .iter()
        .find(|c| c.name == "cup")
        .unwrap();
    let mut want = vec![cc.qualification.as_ref().unwrap().name.as_str()];
    want.extend(cc.stages.iter().map(|s| s.name.as_str()));
    assert_eq!(names, want);
    let cc32 = &cup["stages"][1];
    assert_eq!(
        (
            &cc32["boards"],
            &cc32["winners"],
            &cc32["losers"],
            &cc32["day"]
        ),
        (
            &serde_json::json!("32"),
            &serde_json::json!("cc16"),
            &serde_json::json!("bc32_b"),
            &serde_json::json!("Mon 2015-07-27")
        )
    );
}

#[test]
fn an_edition_with_errors_is_not_listed() {
    let (code, stdout, stderr) = bfr(&["list", "tests/cases/diagnostics/E0101-unknown-name.bfr"]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("E0101"), "{stderr}");
}

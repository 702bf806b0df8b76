//! `bfr seed`, `bfr vacancies` and the Open's two allotments of `bfr allocate`:
//! the edition's SM-SEED, SM-VACANCY and SM-ALLOC rules on files, and an edition
//! changed by data only.

use crate::support::{TempDir, bfr, root, trim_lines};
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let mut argv = vec!["--format", "json"];
    argv.extend_from_slice(args);
    let (code, stdout, stderr) = bfr(&argv);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

/// The rows of the (first) table as maps of column → value.
fn rows(v: &Value) -> Vec<std::collections::BTreeMap<String, String>> {
    let t = &v["tables"][0];
    let columns: Vec<String> = t["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    t["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            columns
                .iter()
                .cloned()
                .zip(
                    r.as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_str().unwrap().to_string()),
                )
                .collect()
        })
        .collect()
}

fn figure(v: &Value, name: &str) -> String {
    v["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f[0] == name)
        .unwrap_or_else(|| panic!("no figure {name}"))[1]
        .as_str()
        .unwrap()
        .to_string()
}

/// The final ranks of each group, in the order of the rows.
fn groups(v: &Value) -> std::collections::BTreeMap<String, Vec<u32>> {
    let mut out: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
    for r in rows(v) {
        out.entry(r["group"].clone())
            .or_default()
            .push(r["final_rank"].parse().unwrap());
    }
    out
}

// ── seeding (SM-SEED) ─────────────────────────────────────────────────────────

#[test]
fn the_serpentine_is_the_documents() {
    let v = json(&[
        "seed",
        "rules/2015",
        "tests/fixtures/federation/seed16.toml",
    ]);
    let g = groups(&v);
    assert_eq!(g["Grupp A"], [1, 8, 9, 16]);
    assert_eq!(g["Grupp B"], [2, 7, 10, 15]);
    assert_eq!(g["Grupp C"], [3, 6, 11, 14]);
    assert_eq!(g["Grupp D"], [4, 5, 12, 13]);
    // Four pairs per group, three strength categories: 2 + 1 + 1.
    let a: Vec<String> = rows(&v)
        .into_iter()
        .filter(|r| r["group"] == "Grupp A")
        .map(|r| r["category"].clone())
        .collect();
    assert_eq!(a, ["1", "1", "2", "3"]);
    assert_eq!(v["rule_ids"][0], "SM-SEED");
}

#[test]
fn the_rank_sum_with_a_tie_is_stated() {
    let v = json(&[
        "seed",
        "rules/2015",
        "tests/fixtures/federation/seed-tie.toml",
    ]);
    let r = rows(&v);
    // Ek – Holm: third in master points and handicap, first in ranking points.
    assert_eq!(
        (
            r[0]["master_points_rank"].as_str(),
            r[0]["handicap_rank"].as_str()
        ),
        ("3", "3")
    );
    assert_eq!(r[0]["rank_sum"], "7");
    // The figures stand beside their ranks: a director checks a rank by them.
    assert_eq!(
        (
            r[0]["master_points"].as_str(),
            r[0]["handicap"].as_str(),
            r[0]["ranking_points"].as_str()
        ),
        ("100", "20.5", "90")
    );
    // Berg and Dahl share master points (both rank 1) and their sums (5).
    assert_eq!(
        (
            r[1]["master_points_rank"].as_str(),
            r[2]["master_points_rank"].as_str()
        ),
        ("1", "1")
    );
    assert_eq!(
        (r[1]["rank_sum"].as_str(), r[2]["rank_sum"].as_str()),
        ("5", "5")
    );
    assert_eq!(r[1]["tied"], "mästarpoäng, rangsumma");
    assert_eq!(r[0]["tied"], "");
    // The document has no rule for equal sums: the file's order stands.
    assert_eq!(
        r.iter()
            .map(|x| x["final_rank"].as_str())
            .collect::<Vec<_>>(),
        ["3", "1", "2"]
    );
    assert_eq!(
        r.iter().map(|x| x["group"].as_str()).collect::<Vec<_>>(),
        ["Grupp C", "Grupp A", "Grupp B"]
    );
}

#[test]
fn the_seeding_reads_as_text_and_csv() {
    let (code, text, stderr) = bfr(&[
        "seed",
        "rules/2015",
        "tests/fixtures/federation/seed-tie.toml",
    ]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("seed-text", trim_lines(&text));
    let (code, csv, _) = bfr(&[
        "--format",
        "csv",
        "seed",
        "rules/2015",
        "tests/fixtures/federation/seed-tie.toml",
    ]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("seed-csv", csv);
}

// ── vacancies (SM-VACANCY, SM-LASTCHANCE) ─────────────────────────────────────

#[test]
fn a_declined_place_goes_to_the_district_then_the_next_district_then_the_pot() {
    let v = json(&[
        "vacancies",
        "rules/2015",
        "Open",
        "tests/fixtures/federation/vacancies-open.toml",
    ]);
    let r = rows(&v);
    // Within the district.
    assert_eq!(r[0]["goes_to"], "nästa par på tur i samma Dfb");
    assert_eq!(r[0]["pair"], "Skåne 7");
    // Skåne has no one left: the next district in the allocation order with a pair
    // named by 09:00 (Halland's, named 09:01, is late; Uppland's at 09:00 is in time).
    assert_eq!(r[1]["goes_to"], "nästa Dfb i fördelningsordningen");
    assert_eq!(
        (r[1]["filled_by"].as_str(), r[1]["pair"].as_str()),
        ("Uppland", "Uppland 5")
    );
    // Nobody in time for Stockholm's place: Sista Chansen's pot, its third place.
    assert_eq!(r[2]["goes_to"], "potten i Sista Chansen / Sista Dansen");
    assert_eq!(
        (r[2]["pot_place"].as_str(), r[2]["pair"].as_str()),
        ("3", "SC 3")
    );
    assert_eq!(figure(&v, "to_pot"), "1 pair");
    assert_eq!(figure(&v, "last_chance_places"), "3 pairs");
    assert_eq!(figure(&v, "fewer_pairs"), "0 pairs");
}

/// `n` declined Open places with nobody waiting: all go to the pot.
fn open_pot(n: usize) -> Value {
    open_pot_in("rules/2015", n)
}

fn open_pot_in(edition: &str, n: usize) -> Value {
    let dir = TempDir::new("vacancies");
    let file = dir.0.join("v.toml");
    let mut text = String::from("order = [\"Stockholm\"]\n");
    for i in 0..n {
        text.push_str(&format!(
            "\n[[declined]]\ndistrict = \"Stockholm\"\npair = \"S{i}\"\n"
        ));
    }
    std::fs::write(&file, text).unwrap();
    json(&["vacancies", edition, "Open", file.to_str().unwrap()])
}

#[test]
fn at_most_five_through_sista_chansen_and_an_even_semifinal() {
    // 3 to the pot: 2 + 3 = 5 last-chance places, the semifinal full at 170.
    let v = open_pot(3);
    assert_eq!(figure(&v, "last_chance_places"), "5 pairs");
    assert_eq!(figure(&v, "fewer_pairs"), "0 pairs");
    // 4: 164 district pairs + at most 5 = 169, shrunk to 168: 4 last-chance
    // places, and 2 of the 4 declined places make the field smaller.
    let v = open_pot(4);
    assert_eq!(figure(&v, "last_chance_places"), "4 pairs");
    assert_eq!(figure(&v, "fewer_pairs"), "2 pairs");
    let steps: Vec<String> = rows(&v).into_iter().map(|r| r["goes_to"].clone()).collect();
    assert_eq!(steps[1], "potten i Sista Chansen / Sista Dansen");
    assert_eq!(steps[2], "antalet par minskas");
    // 5: 163 + 5 = 168, even.
    let v = open_pot(5);
    assert_eq!(figure(&v, "last_chance_places"), "5 pairs");
    assert_eq!(figure(&v, "fewer_pairs"), "2 pairs");
}

#[test]
fn in_the_dam_final_a_place_nobody_fills_makes_the_final_smaller() {
    let v = json(&[
        "vacancies",
        "rules/2015",
        "Dam",
        "tests/fixtures/federation/vacancies-open.toml",
    ]);
    let r = rows(&v);
    // No hour for the Dam: Halland's pair named at 09:01 is in time and Halland is
    // the next district after Skåne.
    assert_eq!(r[1]["pair"], "Halland 5");
    assert_eq!(r[2]["goes_to"], "nästa Dfb i fördelningsordningen");
    assert_eq!(r[2]["pair"], "Uppland 5");
    let v = json(&[
        "vacancies",
        "rules/2015",
        "Veteran",
        "tests/fixtures/federation/vacancies-none.toml",
    ]);
    assert_eq!(figure(&v, "fewer_pairs"), "0 pairs");
}

// ── the Open's two allotments (SM-ALLOC) ──────────────────────────────────────

#[test]
fn the_open_allots_62_then_106_with_the_champions_among_the_first() {
    let v = json(&[
        "allocate",
        "rules/2015",
        "Open",
        "tests/fixtures/federation/open.toml",
    ]);
    assert_eq!(v["total"], "168 places");
    assert_eq!(v["complete"], true);
    let lines = v["lines"].as_array().unwrap();
    let field = |l: &Value, name: &str| -> String {
        l["fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f[0] == name)
            .unwrap()[1]
            .as_str()
            .unwrap()
            .to_string()
    };
    let sum = |allotment: &str| -> u32 {
        lines
            .iter()
            .filter(|l| field(l, "allotment") == allotment)
            .map(|l| {
                field(l, "places")
                    .split(' ')
                    .next()
                    .unwrap()
                    .parse::<u32>()
                    .unwrap()
            })
            .sum()
    };
    assert_eq!((sum("1"), sum("2")), (62, 106));
    for l in lines {
        assert_eq!(
            field(l, "travel_subsidy") == "true",
            field(l, "allotment") == "1"
        );
    }
    // Hand-computed: the champions' place off the top, 61 by ratio over 100
    // starts: 27.45, 15.25, 12.81, 5.49 → 27 + 15 + 12 + 5 = 59, the two left to
    // the .81 and the .49; Uppland's line holds the champions' place too.
    let first: Vec<String> = lines[..4].iter().map(|l| field(l, "places")).collect();
    assert_eq!(first, ["27 places", "15 places", "14 places", "6 places"]);
    assert_eq!(field(&lines[2], "champions"), "1 place");
    // 106: 47.7, 26.5, 22.26, 9.54 → 104 whole, the two left to the .7 and the .54.
    let second: Vec<String> = lines[4..].iter().map(|l| field(l, "places")).collect();
    assert_eq!(second, ["48 places", "26 places", "22 places", "10 places"]);
}

/// Last year's champions from a district with no starts in the file hold their
/// place on a line of their own, and the places still add up.
#[test]
fn champions_from_a_district_without_starts_hold_their_place() {
    let dir = TempDir::new("champions-elsewhere");
    let file = dir.0.join("open.toml");
    let text = std::fs::read_to_string(root().join("tests/fixtures/federation/open.toml"))
        .unwrap()
        .replace("champions = [\"Uppland\"]", "champions = [\"Halland\"]");
    std::fs::write(&file, text).unwrap();
    let v = json(&["allocate", "rules/2015", "Open", file.to_str().unwrap()]);
    assert_eq!(v["total"], "168 places");
    assert_eq!(v["complete"], true);
    let lines = v["lines"].as_array().unwrap();
    let halland: Vec<&Value> = lines
        .iter()
        .filter(|l| l["fields"][0][1] == "Halland")
        .collect();
    assert_eq!(halland.len(), 1, "{lines:?}");
    let fields = halland[0]["fields"].as_array().unwrap();
    let get = |name: &str| fields.iter().find(|f| f[0] == name).unwrap()[1].clone();
    assert_eq!(
        (
            get("starts"),
            get("places"),
            get("champions"),
            get("allotment")
        ),
        (
            "0 starts".into(),
            "1 place".into(),
            "1 place".into(),
            "1".into()
        )
    );
    assert_eq!(
        get("decided_by"),
        "regerande svenska mästarna från fjolåret"
    );
    // A file of champions alone: their line, and the places that do not add up
    // said as such (no division by the field's zero starts).
    std::fs::write(&file, "places = 168\nchampions = [\"Halland\"]\n").unwrap();
    let (code, stdout, stderr) = bfr(&["allocate", "rules/2015", "Open", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert!(
        stdout.contains("total: 1 place\n")
            && stdout.contains("the districts' places do not add up to the 168 places asked for"),
        "{stdout}"
    );
}

#[test]
fn the_allocation_reads_as_csv() {
    let (code, csv, stderr) = bfr(&[
        "--format",
        "csv",
        "allocate",
        "rules/2015",
        "Dam",
        "tests/fixtures/allocate/hand.toml",
    ]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("allocate-csv", csv);
    let (code, _, stderr) = bfr(&["--format", "csv", "schedule", "rules/2015"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("bfr allocate"), "{stderr}");
}

// ── an edition changed by data only ───────────────────────────────────────────

/// The 2015 edition copied, with `(file, from, to)` replacements.
fn variant(changes: &[(&str, &str, &str)]) -> TempDir {
    let dir = TempDir::new("federation-variant");
    for entry in std::fs::read_dir(root().join("rules/2015")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let mut text = std::fs::read_to_string(&path).unwrap();
        for (file, from, to) in changes {
            if *file == name {
                assert!(text.contains(from), "{file}: {from}");
                text = text.replace(from, to);
            }
        }
        std::fs::write(dir.0.join(&name), text).unwrap();
    }
    dir
}

#[test]
fn a_variant_edition_changes_groups_allotments_and_the_pot_by_data() {
    let dir = variant(&[
        (
            "sm_pairs.bfr",
            "sm_open_semifinal_groups: integer ref SM-PAIR-EVENTS p.11 \"SM-tävlingar par\" = 4",
            "sm_open_semifinal_groups: integer ref SM-PAIR-EVENTS p.11 \"SM-tävlingar par\" = 2",
        ),
        ("sm_general.bfr", "= 62 places", "= 60 places"),
        ("sm_general.bfr", "= 106 places", "= 108 places"),
        (
            "sm_general.bfr",
            "sm_sista_chansen_max_places: pair ref SM-VACANCY p.7 \"Reserver m m\" = 5 pairs",
            "sm_sista_chansen_max_places: pair ref SM-VACANCY p.7 \"Reserver m m\" = 3 pairs",
        ),
    ]);
    let edition = dir.0.to_str().unwrap();
    // Two groups: the serpentine A = 1, 4, 5, 8, …; B = 2, 3, 6, 7, ….
    let v = json(&["seed", edition, "tests/fixtures/federation/seed16.toml"]);
    let g = groups(&v);
    assert_eq!(g["Grupp A"], [1, 4, 5, 8, 9, 12, 13, 16]);
    assert_eq!(g["Grupp B"], [2, 3, 6, 7, 10, 11, 14, 15]);
    assert!(!g.contains_key("Grupp C"));
    // Allotments of 60 and 108.
    let v = json(&[
        "allocate",
        edition,
        "Open",
        "tests/fixtures/federation/open.toml",
    ]);
    assert_eq!(v["total"], "168 places");
    let first: u32 = v["lines"].as_array().unwrap()[..4]
        .iter()
        .map(|l| {
            l["fields"][6][1]
                .as_str()
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse::<u32>()
                .unwrap()
        })
        .sum();
    assert_eq!(first, 60);
    // At most 3 through Sista Chansen: two places to the pot make 166 + 3 = 169,
    // shrunk to 168 (in 2015: 166 + 4 = 170).
    let v = open_pot_in(edition, 2);
    assert_eq!(figure(&v, "last_chance_places"), "2 pairs");
    assert_eq!(figure(&v, "fewer_pairs"), "2 pairs");
    assert_eq!(figure(&open_pot(2), "last_chance_places"), "4 pairs");
}

// ── the rules the commands call are the edition's to name ─────────────────────

#[test]
fn the_commands_call_the_rules_the_federation_block_names() {
    let renames = [("sm_seeding", "seedning"), ("sm_allocation", "fordelning")];
    let dir = crate::entries::renamed_word("federation-renamed-rules", &renames);
    let edition = dir.0.display().to_string();
    let entries = std::fs::read_to_string(dir.0.join("entries.bfr")).unwrap();
    assert!(
        entries.contains("seeding = seedning") && entries.contains("allocation = fordelning"),
        "{entries}"
    );
    let seed = |e: &str| json(&["seed", e, "tests/fixtures/federation/seed16.toml"]);
    let (renamed, original) = (seed(&edition), seed("rules/2015"));
    assert_eq!(renamed["rule"], "seedning");
    assert_eq!(original["rule"], "sm_seeding");
    assert_eq!(renamed["tables"], original["tables"]);
    let allocate = |e: &str| bfr(&["allocate", e, "Dam", "tests/fixtures/allocate/hand.toml"]);
    let (code, renamed, stderr) = allocate(&edition);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(renamed, allocate("rules/2015").1);
    // Without the line, the command says where the edition must name its rule.
    let dir = variant(&[
        ("entries.bfr", "  seeding = sm_seeding\n", ""),
        ("entries.bfr", "  seeding_unique = [pair.pair]\n", ""),
    ]);
    let (code, _, stderr) = bfr(&[
        "seed",
        &dir.0.display().to_string(),
        "tests/fixtures/federation/seed16.toml",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("[E1112]")
            && stderr.contains("the edition does not say which of its rules `bfr seed` calls")
            && stderr.contains("add `seeding = RULE` to the edition's `federation` block"),
        "{stderr}"
    );
}

// ── what an editor may hide (W0003) ───────────────────────────────────────────

/// A federation command's file with a right-to-left override in a comment:
/// the command still answers, with the same result, and warns where the
/// control is; a file the command refuses shows the warning beside the error.
#[test]
fn a_hidden_direction_control_in_a_federation_file_is_warned_about() {
    let dir = TempDir::new("federation-w0003");
    let reorder = |fixture: &str, name: &str| {
        let text = std::fs::read_to_string(root().join(fixture)).unwrap();
        let path = dir.0.join(name);
        std::fs::write(&path, format!("# \u{202E} declined: none \u{202C}\n{text}")).unwrap();
        path.display().to_string()
    };
    let vacancies = reorder("tests/fixtures/federation/vacancies-none.toml", "vac.toml");
    let allocation = reorder("tests/fixtures/allocate/hand.toml", "hand.toml");
    for (args, clean) in [
        (
            ["vacancies", "rules/2015", "Open", vacancies.as_str()],
            "tests/fixtures/federation/vacancies-none.toml",
        ),
        (
            ["allocate", "rules/2015", "Dam", allocation.as_str()],
            "tests/fixtures/allocate/hand.toml",
        ),
    ] {
        let (code, stdout, stderr) = bfr(&[&["--color", "never"], &args[..]].concat());
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains("[W0003] Warning"), "{stderr}");
        assert!(stderr.contains(":1:3"), "the control's place: {stderr}");
        let (_, unchanged, quiet) = bfr(&[args[0], args[1], args[2], clean]);
        assert_eq!(stdout, unchanged, "the warning changes nothing else");
        assert!(!quiet.contains("W0003"), "{quiet}");
        let v = json(&args);
        assert_eq!(v["diagnostics"][0]["code"], "W0003", "{v}");
    }
    let refused = dir.0.join("refused.toml");
    std::fs::write(
        &refused,
        "# \u{202E} ok \u{202C}\ndeadline = 2015-07-30T09:00\n",
    )
    .unwrap();
    let refused = refused.display().to_string();
    let (code, _, stderr) = bfr(&[
        "--color",
        "never",
        "vacancies",
        "rules/2015",
        "Open",
        &refused,
    ]);
    assert_eq!(code, 1, "{stderr}");
    let warning = stderr.find("[W0003] Warning").expect("the warning");
    let error = stderr.find("[E1111] Error").expect("the error");
    assert!(warning < error, "in the order of the file: {stderr}");
}

#[test]
fn a_seedings_explanation_is_bounded_as_explains_is() {
    // Thirty pairs: the seeding calls its rules some 22,000 times, each with
    // the whole field as an input. The JSON keeps the first 10,000 calls,
    // each value in at most 200 characters, and counts the rest.
    let dir = TempDir::new("seed-thirty");
    let file = dir.0.join("pairs.toml");
    let pairs: String = (1..=30)
        .map(|i| {
            format!(
                "[[pair]]\npair = \"Par {i}\"\nmaster_points = {}\nhandicap = {}\nranking_points = {}\n\n",
                1000 - i * 3,
                i % 17,
                500 - i
            )
        })
        .collect();
    std::fs::write(&file, pairs).unwrap();
    let v = json(&["seed", "rules/2015", file.to_str().unwrap()]);
    fn walk(node: &serde_json::Value, calls: &mut usize, longest: &mut usize) {
        *calls += 1;
        for value in node["inputs"].as_array().into_iter().flatten() {
            *longest = (*longest).max(value[1].as_str().map_or(0, |s| s.chars().count()));
        }
        for child in node["children"].as_array().into_iter().flatten() {
            walk(child, calls, longest);
        }
    }
    let (mut calls, mut longest) = (0, 0);
    for node in v["trace"].as_array().unwrap() {
        walk(node, &mut calls, &mut longest);
    }
    assert_eq!(calls, 10_000);
    assert!(
        v["trace_left_out"].as_u64().unwrap() > 10_000,
        "{}",
        v["trace_left_out"]
    );
    // 200 characters, the ellipsis and the count of values.
    assert!(longest <= 220, "{longest}");
}

#[test]
fn a_file_beside_the_edition_that_is_not_utf8_is_an_error_at_its_byte_in_every_format() {
    let dir = TempDir::new("seed-latin1");
    let file = dir.0.join("pairs.toml");
    // `Ö` saved as Latin-1: one byte, 0xD6, at offset 17.
    std::fs::write(&file, b"[[pair]]\npair = \"\xd6st\"\n").unwrap();
    let path = file.to_str().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["seed", "rules/2015", path], "E1110"),
        (&["allocate", "rules/2015", "Dam", path], "E1102"),
        (&["entries", "check", "rules/2015", path], "E0800"),
        (&["invoice", "rules/2015", path], "E0800"),
    ];
    for (args, code) in cases {
        let (exit, stdout, stderr) = bfr(&[&["--color", "never"], args].concat());
        assert_eq!(exit, 1, "{args:?}: {stdout}{stderr}");
        assert!(
            stderr.contains(&format!("[{code}]"))
                && stderr.contains("is not UTF-8 text: byte 17 (0xD6)")
                && stderr.contains("save the"),
            "{args:?}: {stderr}"
        );
        let (exit, stdout, _) = bfr(&[&["--format", "json"], args].concat());
        assert_eq!(exit, 1, "{args:?}");
        assert!(
            stdout
                .replace([' ', '\n'], "")
                .contains(&format!("\"code\":\"{code}\"")),
            "{args:?}: {stdout}"
        );
    }
}

// ── what a file names once (`COMMAND_unique`) ─────────────────────────────────

/// A vacancies file: `declined` (district, pair) and `pot`, the rest empty.
fn vacancies_file(dir: &TempDir, declined: &[(&str, &str)], pot: &[&str]) -> String {
    let file = dir
        .0
        .join(format!("v{}.toml", declined.len() * 10 + pot.len()));
    let pot: Vec<String> = pot.iter().map(|p| format!("{p:?}")).collect();
    let mut text = format!("order = [\"Stockholm\"]\npot = [{}]\n", pot.join(", "));
    for (district, pair) in declined {
        text.push_str(&format!(
            "\n[[declined]]\ndistrict = {district:?}\npair = {pair:?}\n"
        ));
    }
    std::fs::write(&file, text).unwrap();
    file.display().to_string()
}

#[test]
fn a_file_naming_again_what_the_edition_says_it_names_once_is_refused() {
    let dir = TempDir::new("unique");
    let twice = vacancies_file(&dir, &[("Stockholm", "S 1"), ("Stockholm", "S 1")], &[]);
    let (code, _, stderr) = bfr(&["vacancies", "rules/2015", "Open", &twice]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("[E1111]")
            && stderr.contains(
                "`declined[2].pair` names \"S 1\", which `declined[1].pair` names already"
            ),
        "{stderr}"
    );
    // Two pairs, one pot pair twice; a district in the order by name and label.
    let pot = vacancies_file(&dir, &[("Stockholm", "S 1")], &["SC 1", "SC 2", "SC 1"]);
    let (code, _, stderr) = bfr(&["vacancies", "rules/2015", "Open", &pot]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`pot[3]` names \"SC 1\", which `pot[1]` names already"),
        "{stderr}"
    );
    let order = dir.0.join("order.toml");
    std::fs::write(&order, "order = [\"Skane\", \"Stockholm\", \"Skåne\"]\n").unwrap();
    let (code, _, stderr) = bfr(&["vacancies", "rules/2015", "Open", order.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`order[3]` names \"Skåne\" (the same as \"Skane\")"),
        "{stderr}"
    );
    // Two pairs whose names differ only in case are two pairs.
    let seed = std::fs::read_to_string(root().join("tests/fixtures/federation/seed16.toml"))
        .unwrap()
        .replace("pair = \"Par 02\"", "pair = \"PAR 01\"");
    let seed_file = dir.0.join("seed.toml");
    std::fs::write(&seed_file, &seed).unwrap();
    assert_eq!(
        bfr(&["seed", "rules/2015", seed_file.to_str().unwrap()]).0,
        0
    );
    std::fs::write(&seed_file, seed.replace("PAR 01", "Par 01")).unwrap();
    let (code, _, stderr) = bfr(&["seed", "rules/2015", seed_file.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`pair[2].pair` names \"Par 01\", which"),
        "{stderr}"
    );
    // `champions` is not listed: a district may hold two titles.
    let open = std::fs::read_to_string(root().join("tests/fixtures/federation/open.toml"))
        .unwrap()
        .replace(
            "champions = [\"Uppland\"]",
            "champions = [\"Uppland\", \"Uppland\"]",
        );
    let open_file = dir.0.join("open.toml");
    std::fs::write(&open_file, open).unwrap();
    let (code, _, stderr) = bfr(&[
        "allocate",
        "rules/2015",
        "Open",
        open_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn what_a_file_names_once_is_the_editions_to_say() {
    let dir = crate::entries::variant(
        "unique-variant",
        "entries.bfr",
        "  vacancies_unique = [declined.pair, waiting.pair, pot, order]\n",
        "  vacancies_unique = [waiting.pair, pot, order]\n",
    );
    let edition = dir.0.display().to_string();
    let files = TempDir::new("unique-variant-files");
    let twice = vacancies_file(&files, &[("Stockholm", "S 1"), ("Stockholm", "S 1")], &[]);
    // Without `declined.pair`, the repeat is a second declined place: two go to the pot.
    let v = json(&["vacancies", &edition, "Open", &twice]);
    assert_eq!(rows(&v).len(), 2);
    assert_eq!(figure(&v, "to_pot"), "2 pairs");
    assert_eq!(bfr(&["vacancies", "rules/2015", "Open", &twice]).0, 1);
    // The diff says what the file may now repeat.
    let (code, out, stderr) = bfr(&["diff", "rules/2015", &edition]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        out.contains("federation vacancies_unique")
            && out
                .contains("[declined.pair, order, pot, waiting.pair] → [order, pot, waiting.pair]"),
        "{out}"
    );
    // The order of the list says only which repeat is reported first.
    let reordered = crate::entries::variant(
        "unique-reordered",
        "entries.bfr",
        "  vacancies_unique = [declined.pair, waiting.pair, pot, order]\n",
        "  vacancies_unique = [order, pot, waiting.pair, declined.pair]\n",
    );
    let (code, out, stderr) = bfr(&["diff", "rules/2015", reordered.0.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{stderr}");
}

#[test]
fn a_unique_line_naming_what_the_file_does_not_give_is_refused_by_the_check() {
    let dir = TempDir::new("unique-check");
    let file = dir.0.join("r.bfr");
    std::fs::write(
        &file,
        "enum Discipline ref SM-VACANCY p.7 \"Reserver m m\" { Open, Mixed }\n\
         record Inner ref SM-VACANCY p.7 \"Reserver m m\" { x: text }\n\
         record Declined ref SM-VACANCY p.7 \"Reserver m m\" { pair: text, inner: Inner }\n\
         fn declined(discipline: Discipline, declined: [Declined], pot: [text]) -> integer\n\
         \x20 ref SM-VACANCY p.7 \"Reserver m m\"\n\
         = len(declined) + len(pot)\n\
         federation {\n\
         \x20 vacancies_unique = [pot, discipline, pot, declined.inner, declined.inner.x]\n\
         \x20 vacancies = declined\n\
         \x20 seeding_unique = [pair]\n\
         }\n\
         federation {\n\
         \x20 allocation = declined\n\
         \x20 allocation_unique = [pot]\n\
         }\n",
    )
    .unwrap();
    let (code, _, stderr) = bfr(&["--color", "never", "check", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    for expected in [
        "`discipline` comes from the command line of `bfr vacancies`, not from its file",
        "`pot` is listed twice",
        "listed first here",
        "`declined.inner` holds lists or records, which are not compared",
        "the file of `bfr vacancies` has no list written like this",
        "`declined` is the rule whose file this reads",
        "`seeding_unique` lists what `bfr seed` reads, but the block names no rule for it",
    ] {
        assert!(stderr.contains(expected), "{expected}: {stderr}");
    }
    // Rule and line in one file: no amendment to restate it in.
    assert!(!stderr.contains("restates this line"), "{stderr}");
    // `allocation = declined` is of the wrong shape (E1116): its list is not
    // checked against it too.
    assert!(stderr.contains("[E1116]"), "{stderr}");
    assert!(
        !stderr.contains("`allocation_unique` must list"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("[E1117]").count(), 5, "{stderr}");
}

#[test]
fn an_amending_edition_that_calls_another_rule_says_again_what_its_file_names_once() {
    let dir = TempDir::new("unique-amend");
    let base = root().join("rules/2015");
    let write = |unique: &str| {
        std::fs::write(
            dir.0.join("edition.bfr"),
            format!(
                "edition \"Declines\" {{\n  amends {:?}\n}}\n\n\
                 fn my_vacancies(event: SmQuotaEvent, order: [District], declines: [SmDeclinedPlace], waiting: [SmWaitingPair], pot: [text]) -> SmVacancies\n\
                 \x20 ref SM-VACANCY p.7 \"Reserver m m\"\n\
                 = sm_vacancies(event, order, declines, waiting, pot)\n\n\
                 federation {{\n  vacancies = my_vacancies\n{unique}}}\n",
                base.display().to_string()
            ),
        )
        .unwrap();
    };
    let edition = dir.0.display().to_string();
    // The base's line names `declined`, which the new rule does not read: the
    // error stands on the base's line, with a note on the amendment's.
    write("");
    let (code, _, stderr) = bfr(&["--color", "never", "check", &edition]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(
            "`declined` is not a list that the file of `bfr vacancies` gives to `my_vacancies`"
        ) && stderr.contains("did you mean `declines`?")
            && stderr.contains("`my_vacancies` is the rule whose file this reads")
            && stderr.contains("edition.bfr:10")
            && stderr.contains("restates this line"),
        "{stderr}"
    );
    // Restated, it holds for the new rule's file.
    write("  vacancies_unique = [declines.pair, pot]\n");
    let (code, _, stderr) = bfr(&["check", &edition]);
    assert_eq!(code, 0, "{stderr}");
    let file = dir.0.join("v.toml");
    std::fs::write(
        &file,
        "order = [\"Stockholm\"]\n\n[[declines]]\ndistrict = \"Stockholm\"\npair = \"S 1\"\n\n\
         [[declines]]\ndistrict = \"Stockholm\"\npair = \"S 1\"\n",
    )
    .unwrap();
    let (code, _, stderr) = bfr(&["vacancies", &edition, "Open", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`declines[2].pair` names \"S 1\", which `declines[1].pair` names already"),
        "{stderr}"
    );
}

//! `bfr allocate`: the edition's SM-ALLOC rule over a starts file, and the
//! federation commands' bad-input cases (`tests/cases/federation`).

use crate::support::{TempDir, bfr, copy_2015, program_2015, root, trim_lines};
use serde_json::Value;

/// A field of all 21 districts, 1020 starts: with 52 places the whole places and
/// the guarantees make 49, and three go by the decimals. Jönköping and Gotland both
/// have 90 starts (ratio 4.588…) and share the third-largest decimals, so the last
/// of the three goes by last year's closeness. Västerbotten (6 starts, a district
/// stage of 8 pairs) is guaranteed; Jämtland-Härjedalen (10 starts, 7 pairs) is not.
const STARTS: [u32; 21] = [
    150, 120, 100, 90, 80, 90, 60, 50, 45, 40, 35, 30, 25, 20, 18, 15, 12, 10, 10, 6, 14,
];

fn field(jonkoping_last_year: &str, gotland_last_year: &str) -> String {
    let program = program_2015();
    let districts = &program
        .enums
        .iter()
        .find(|e| e.name == "District")
        .unwrap()
        .variants;
    assert_eq!(districts.len(), 21);
    let mut text = String::from("places = 52\n");
    for (i, (name, starts)) in districts.iter().zip(STARTS).enumerate() {
        let pairs = match name.as_str() {
            "Vasterbotten" => 8,
            "JamtlandHarjedalen" => 7,
            _ => starts,
        };
        let last = match name.as_str() {
            "Jonkoping" => jonkoping_last_year.to_string(),
            "Gotland" => gotland_last_year.to_string(),
            _ => format!("0.{}", i % 10),
        };
        text.push_str(&format!(
            "\n[[district]]\ndistrict = \"{name}\"\nstarts = {starts}\nstage_pairs = {pairs}\nlast_year_decimals = {last}\n"
        ));
    }
    text
}

fn allocate_json(text: &str) -> (i32, Value) {
    let dir = TempDir::new("allocate");
    let file = dir.0.join("starts.toml");
    std::fs::write(&file, text).unwrap();
    let (code, stdout, stderr) = bfr(&[
        "--format",
        "json",
        "allocate",
        "rules/2015",
        "Dam",
        file.to_str().unwrap(),
    ]);
    assert!(stderr.is_empty(), "{stderr}");
    (code, serde_json::from_str(&stdout).unwrap())
}

/// `(district, field)` → value as written.
fn cell<'a>(v: &'a Value, district: &str, field: &str) -> &'a str {
    let line = v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["fields"][0][1] == district)
        .unwrap_or_else(|| panic!("a line for {district}"));
    line["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f[0] == field)
        .unwrap()[1]
        .as_str()
        .unwrap()
}

fn places(v: &Value, district: &str) -> u32 {
    cell(v, district, "places")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn fifty_two_places_over_21_districts_sum_to_52() {
    let (code, v) = allocate_json(&field("0.2", "0.7"));
    assert_eq!(code, 0);
    assert_eq!(v["total"], "52 places");
    assert_eq!(v["complete"], true);
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 21);
    let mut sum = 0;
    for line in lines {
        let district = line["fields"][0][1].as_str().unwrap();
        let p = places(&v, district);
        sum += p;
        // Every district at its minimum has its place.
        if cell(&v, district, "guaranteed") == "true" {
            assert!(p >= 1, "{district}");
        }
    }
    assert_eq!(sum, 52);
    // Västerbotten: ratio 6 × 52 / 1020 = 0.31, no whole place, guaranteed.
    assert_eq!(places(&v, "Västerbotten"), 1);
    assert_eq!(
        cell(&v, "Västerbotten", "decided_by"),
        "garantiplats: minimiantalet uppnått"
    );
    // Jämtland-Härjedalen: 10 × 52 / 1020 = 0.51, a stage of 7 pairs: nothing.
    assert_eq!(places(&v, "Jämtl.-Härjedalen"), 0);
    assert_eq!(v["rule_ids"], serde_json::json!(["SM-ALLOC"]));
}

#[test]
fn equal_decimals_go_to_the_district_closest_to_one_more_place_last_year() {
    let last_year = "samma decimaler: närmast ytterligare en plats föregående år";
    let (_, v) = allocate_json(&field("0.2", "0.7"));
    assert_eq!(
        cell(&v, "Jönköping", "remainder"),
        cell(&v, "Gotland", "remainder")
    );
    assert_eq!((places(&v, "Gotland"), places(&v, "Jönköping")), (5, 4));
    assert_eq!(cell(&v, "Gotland", "decided_by"), last_year);
    assert_eq!(cell(&v, "Jönköping", "decided_by"), last_year);
    // Last year the other way round: the place changes hands, the sum stays.
    let (_, w) = allocate_json(&field("0.7", "0.2"));
    assert_eq!((places(&w, "Gotland"), places(&w, "Jönköping")), (4, 5));
    assert_eq!(w["total"], "52 places");
    // Equal last year too: the document has no rule, and the output says so.
    let (_, x) = allocate_json(&field("0.5", "0.5"));
    assert_eq!(
        cell(&x, "Gotland", "decided_by"),
        "samma decimaler även föregående år: ingen regel"
    );
}

#[test]
fn the_hand_computed_field_reads_as_a_table() {
    let (code, stdout, stderr) = bfr(&[
        "allocate",
        "rules/2015",
        "Dam",
        "tests/fixtures/allocate/hand.toml",
    ]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("hand-computed", trim_lines(&stdout));
}

#[test]
fn a_discipline_is_named_in_any_case_and_a_whole_ratio_gives_its_places() {
    let hand = "tests/fixtures/allocate/hand.toml";
    let as_written = bfr(&["allocate", "rules/2015", "Dam", hand]);
    let lower = bfr(&["allocate", "rules/2015", "dam", hand]);
    assert_eq!(lower.0, 0, "{}", lower.2);
    assert_eq!(lower.1, as_written.1);
    // 44 of 99 starts and 9 places: a ratio of exactly 4, four whole places and
    // no decimals (dividing first gave 3.999…, three places and .999…).
    let text = std::fs::read_to_string(root().join(hand))
        .unwrap()
        .replace("places = 10", "places = 9")
        .replace("starts = 45", "starts = 44");
    let (code, v) = allocate_json(&text);
    assert_eq!(code, 0);
    assert_eq!(cell(&v, "Stockholm", "ratio"), "4");
    assert_eq!(cell(&v, "Stockholm", "whole_places"), "4 places");
    assert_eq!(cell(&v, "Stockholm", "remainder"), "0");
}

#[test]
fn equal_decimals_are_equal_when_one_ratio_passes_ten() {
    let text = std::fs::read_to_string(
        root().join("tests/fixtures/allocate/equal-decimals-past-ten.toml"),
    )
    .unwrap();
    let (code, v) = allocate_json(&text);
    assert_eq!(code, 0);
    assert_eq!(
        cell(&v, "Stockholm", "remainder"),
        cell(&v, "Gotland", "remainder")
    );
    assert_eq!(places(&v, "Stockholm"), 10);
    assert_eq!(
        places(&v, "Gotland"),
        1,
        "closer to one more place last year"
    );
    // People read the ratios to four places, marked; the JSON (and CSV) keep them all.
    assert_eq!(
        cell(&v, "Gotland", "remainder"),
        "0.4285714285714285714285714286"
    );
    let file = root().join("tests/fixtures/allocate/equal-decimals-past-ten.toml");
    let (code, stdout, _) = bfr(&["allocate", "rules/2015", "Dam", file.to_str().unwrap()]);
    assert_eq!(code, 0);
    let gotland = stdout.lines().find(|l| l.contains("Gotland")).unwrap();
    assert!(gotland.contains(" 0.4286… "), "{stdout}");
    assert!(!stdout.contains("42857"), "{stdout}");
}

#[test]
fn an_unknown_discipline_is_a_usage_error() {
    let (code, _, stderr) = bfr(&[
        "allocate",
        "rules/2015",
        "Damer",
        "tests/fixtures/allocate/hand.toml",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("Veteran, Dam, Mixed, Open"), "{stderr}");
}

// ── bad input to the federation commands ──────────────────────────────────────

const CASES: &str = "tests/cases/federation";

/// Each file of `tests/cases/federation` names its command on its first line
/// (`# args: allocate rules/2015 Dam {file}`); the code its name starts with must
/// be among the output's, and the output is snapshotted.
#[test]
fn every_federation_case_gives_its_code() {
    let mut names: Vec<String> = std::fs::read_dir(root().join(CASES))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut codes = std::collections::BTreeSet::new();
    for name in &names {
        let path = format!("{CASES}/{name}");
        let text = std::fs::read_to_string(root().join(&path)).unwrap();
        let header = text.lines().next().unwrap();
        let args = header
            .trim_start_matches(['#', '/'])
            .trim()
            .strip_prefix("args:")
            .unwrap_or_else(|| panic!("{name}: no `args:` first line"));
        let mut argv = vec!["--color", "never"];
        let replaced: Vec<String> = args
            .split_whitespace()
            .map(|a| a.replace("{file}", &path))
            .collect();
        argv.extend(replaced.iter().map(String::as_str));
        let (code, _, stderr) = bfr(&argv);
        let expected = &name[..5];
        assert_eq!(code, 1, "{name}: {stderr}");
        assert!(stderr.contains(&format!("{expected}]")), "{name}: {stderr}");
        codes.insert(expected.to_string());
        let stem = name.rsplit_once('.').map_or(name.as_str(), |(s, _)| s);
        insta::assert_snapshot!(stem, stderr);
    }
    // Every E11xx code of the source has a case.
    for file in [
        "src/allocate.rs",
        "src/cli/schedule.rs",
        "src/schedule/mod.rs",
        "src/federation.rs",
        "src/cli/federation.rs",
    ] {
        let source = std::fs::read_to_string(root().join(file)).unwrap();
        for piece in source.split('"').skip(1).step_by(2) {
            if piece.len() == 5 && piece.starts_with("E11") {
                assert!(codes.contains(piece), "{piece} has no case in {CASES}");
            }
        }
    }
}

#[test]
fn places_that_add_up_past_what_a_number_holds_are_refused_not_a_crash() {
    // A variant allocation rule that gives every district all the places: the
    // lines' sum passes the largest decimal.
    let dir = TempDir::new("allocate-overflow");
    std::fs::write(
        dir.0.join("r.bfr"),
        "unit place whole \"places\"\n\
         enum Ev { A \"a\" }\n\
         enum D { X \"x\", Y \"y\" }\n\
         record Starts { district: D }\n\
         record Places { district: D, places: place }\n\
         fn alloc(event: Ev, places: place, district: [Starts]) -> [Places] =\n\
           map(district, s => Places { district: s.district, places: places })\n\
         federation { allocation = alloc }\n",
    )
    .unwrap();
    let starts = dir.0.join("starts.toml");
    std::fs::write(
        &starts,
        "places = 79228162514264337593543950335\n\n\
         [[district]]\ndistrict = \"X\"\n\n[[district]]\ndistrict = \"Y\"\n",
    )
    .unwrap();
    let (edition, starts) = (dir.0.join("r.bfr"), starts.display().to_string());
    let edition = edition.display().to_string();
    let (code, stdout, stderr) = bfr(&["allocate", "--color", "never", &edition, "A", &starts]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("[E1103]")
            && stderr.contains("the places of `alloc`'s lines add up to more than a number holds"),
        "{stderr}"
    );
    // One district fewer, and the same places fit.
    std::fs::write(
        dir.0.join("starts.toml"),
        "places = 79228162514264337593543950335\n\n[[district]]\ndistrict = \"X\"\n",
    )
    .unwrap();
    let (code, stdout, stderr) = bfr(&["allocate", &edition, "A", &starts]);
    assert_eq!(code, 0, "{stdout}{stderr}");
}

/// More of last year's Open champions than the first allotment has places: the
/// places left for the districts would be below zero, and places are a count,
/// so the allocation stops there by name instead of printing negative ratios.
#[test]
fn more_champions_than_first_places_stop_the_allocation_by_name() {
    let dir = copy_2015("allocate-champions");
    let file = dir.0.join("sm_general.bfr");
    let text = std::fs::read_to_string(&file).unwrap();
    let from = "\"Semifinal- och finalplatser\" = 62 places";
    assert_eq!(text.matches(from).count(), 1);
    let to = "\"Semifinal- och finalplatser\" = 1 place";
    std::fs::write(&file, text.replace(from, to)).unwrap();
    let open = std::fs::read_to_string(root().join("tests/fixtures/federation/open.toml")).unwrap();
    let starts = dir.0.join("open.toml");
    std::fs::write(
        &starts,
        open.replace(
            "champions = [\"Uppland\"]",
            "champions = [\"Uppland\", \"Skåne\"]",
        ),
    )
    .unwrap();
    let (edition, starts) = (dir.0.display().to_string(), starts.display().to_string());
    let (code, stdout, stderr) = bfr(&["allocate", "--color", "never", &edition, "Open", &starts]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("[E1103]")
            && stderr.contains(
                "is given -1 place: it is a count (place), a whole number never below zero"
            ),
        "{stderr}"
    );
    // One champion takes the one place; the guarantees then pass the places
    // asked for, which is said, not hidden.
    std::fs::write(&starts, open).unwrap();
    let (code, stdout, stderr) = bfr(&["allocate", &edition, "Open", &starts]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stdout.contains("do not add up to the 168 places"),
        "{stdout}"
    );
    assert!(!stdout.contains(" -"), "{stdout}");
}

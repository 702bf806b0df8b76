//! Entries files (`bfr entries check`, `bfr invoice`) against the 2015 edition: a
//! valid festival that passes, a broken one with one error of each validation
//! kind, invoices with the regulation's own figures, the same in JSON and CSV, a
//! variant edition changed by data only, and one case file per `E08xx` problem
//! (`tests/cases/entries/<CODE>-<slug>.toml`, first line `# expect: CODE`; the
//! rendered diagnostics are snapshotted as `suite__entries__<stem>.snap`).

use crate::support::{TempDir, bfr, root, trim_lines};
use bfr::check::Checked;
use bfr::diag::{Colour, render};
use bfr::edition::load;
use bfr::entry::{Invoice, Money};
use bfr::source::Sources;
use rust_decimal::Decimal;
use std::sync::OnceLock;

const EDITION: &str = "rules/2015";
const VALID: &str = "tests/fixtures/entries/festival.toml";
const BROKEN: &str = "tests/fixtures/entries/broken.toml";

fn edition() -> &'static (Checked, Sources) {
    static E: OnceLock<(Checked, Sources)> = OnceLock::new();
    E.get_or_init(|| {
        let loaded = load(&root().join(EDITION)).unwrap();
        (
            loaded.checked.expect("the 2015 edition checks"),
            loaded.sources,
        )
    })
}

/// Checks an entries text named `name`: the codes and the rendered diagnostics.
fn check_text(name: &str, text: &str) -> (Vec<&'static str>, String) {
    let (checked, sources) = edition();
    let mut sources = sources.clone();
    let read = bfr::entry::check(checked, &mut sources, name, text);
    let sorted = read.diagnostics.sorted();
    let codes = sorted.iter().map(|d| d.code).collect();
    let text: String = sorted
        .iter()
        .map(|d| render(d, &sources, Colour::Off))
        .collect();
    (codes, trim_lines(&text))
}

fn check_file(relative: &str) -> (Vec<&'static str>, String) {
    let text = std::fs::read_to_string(root().join(relative)).unwrap();
    check_text(relative, &text)
}

fn money_of(name: &str, text: &str) -> Money {
    let (checked, sources) = edition();
    let mut sources = sources.clone();
    let (money, diags) = bfr::entry::invoice(checked, &mut sources, name, text);
    assert!(!diags.has_errors(), "{:?}", diags.sorted());
    money.expect("the entries are read")
}

fn invoice<'m>(money: &'m Money, id: &str) -> &'m Invoice {
    money.invoices.iter().find(|i| i.id == id).unwrap()
}

fn amounts(inv: &Invoice) -> Vec<(String, Decimal)> {
    inv.lines
        .iter()
        .map(|l| (l.item.clone(), l.amount))
        .collect()
}

/// An entries case: `tests/cases/entries/<CODE>-<slug>.toml`, first line
/// `# expect: CODE`.
pub fn entry_case(file: &str) {
    let relative = format!("tests/cases/entries/{file}");
    let text = std::fs::read_to_string(root().join(&relative)).unwrap();
    let expected = text
        .lines()
        .next()
        .and_then(|l| {
            l.strip_prefix("# expect:")
                .or_else(|| l.strip_prefix("// expect:"))
        })
        .map(str::trim)
        .unwrap_or_else(|| panic!("{file}: no `# expect: CODE` first line"))
        .to_string();
    assert!(
        file.starts_with(&expected),
        "{file}: the name must start with {expected}"
    );
    // A JSON case carries its header in a "//" line the reader must not see; it
    // reads as an empty line, so that every place shown is the file's own.
    let body = if file.ends_with(".json") {
        text.split_once('\n')
            .map_or_else(String::new, |(_, rest)| format!("\n{rest}"))
    } else {
        text.clone()
    };
    let (codes, rendered) = check_text(&relative, &body);
    assert!(
        codes.contains(&expected.as_str()),
        "{file}: expected {expected}, found {codes:?}\n{rendered}"
    );
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    insta::assert_snapshot!(stem, rendered);
}

// ── validation ────────────────────────────────────────────────────────────────

#[test]
fn the_valid_festival_passes() {
    let (codes, text) = check_file(VALID);
    assert!(codes.is_empty(), "{text}");
    let (code, stdout, stderr) = bfr(&["entries", "check", "--color", "never", EDITION, VALID]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        format!("{VALID}: 14 players, 3 teams, 3 pairs: 0 errors, 0 warnings\n")
    );
}

#[test]
fn the_broken_festival_has_one_error_of_each_kind() {
    let (codes, text) = check_file(BROKEN);
    for code in [
        "E0810", "E0811", "E0812", "E0813", "E0814", "E0815", "E0816", "E0817", "E0818", "E0819",
        "E0820", "E0821",
    ] {
        assert!(codes.contains(&code), "{code} missing: {codes:?}\n{text}");
    }
    // Each validation row is named by its rule ID, from the edition's `ref`.
    for id in [
        "CC-ENTRY",
        "LV-TEAM",
        "SM-MEMBER",
        "SM-CLASS",
        "CC-DISTRICT",
        "CC-LATESTART",
        "LV-LATESTART",
        "SM-ONE-START",
        "SM-LASTCHANCE",
        "SM-QUAL-ROUNDS",
        "SM-DOUBLE-QUAL",
        "SM-RESERVES",
        "SM-DEATH",
    ] {
        assert!(
            text.contains(&format!("{id}]")) || text.contains(&format!("{id},")),
            "{id} missing:\n{text}"
        );
    }
    insta::assert_snapshot!("broken-festival", text);
    let (code, _, stderr) = bfr(&["entries", "check", "--color", "never", EDITION, BROKEN]);
    assert_eq!(code, 1);
    assert!(stderr.contains("[E0810]"), "{stderr}");
}

#[test]
fn a_file_whose_shape_cannot_be_read_says_every_mistake_and_counts_no_entries() {
    let dir = TempDir::new("unreadable-entries");
    let case = std::fs::read_to_string(
        root().join("tests/cases/entries/E0800-every-entry-that-cannot-be-read.json"),
    )
    .unwrap();
    let path = dir.0.join("entries.json");
    std::fs::write(&path, case.split_once('\n').unwrap().1).unwrap();
    let path = path.to_str().unwrap();
    let (code, stdout, stderr) = bfr(&["entries", "check", "--color", "never", EDITION, path]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stderr.matches("[E0800]").count(), 3, "{stderr}");
    assert_eq!(
        stdout,
        format!("{path}: not checked: 3 errors, 0 warnings\n")
    );
    let (_, stdout, _) = bfr(&["entries", "check", "--format", "json", EDITION, path]);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["players"], serde_json::Value::Null, "{report}");
    assert_eq!(report["errors"], 3);
}

// ── money ─────────────────────────────────────────────────────────────────────

/// A Chairman's Cup team of `seniors` born 1960 and `juniors` born 1995, its
/// Gröna Hissen fee paid at `paid`.
fn cc_team(seniors: u32, juniors: u32, paid: &str) -> String {
    let mut text = String::new();
    let mut members = Vec::new();
    for i in 0..seniors + juniors {
        let year = if i < seniors { 1960 } else { 1995 };
        text.push_str(&format!(
            "[[player]]\nmember = {}\nname = \"P{i}\"\nbirth_year = {year}\nmembership_paid_at = \"2015-06-01 10:00\"\n\n",
            100 + i
        ));
        members.push((100 + i).to_string());
    }
    text.push_str(&format!(
        "[[team]]\nid = \"T\"\nname = \"Team\"\ncompetition = \"Chairman's Cup\"\nplayers = [{}]\nfee_paid_at = \"{paid}\"\n",
        members.join(", ")
    ));
    text
}

#[test]
fn four_seniors_and_two_juniors_pay_2000_sek_and_200_more_after_saturday_noon() {
    let on_time = money_of("t.toml", &cc_team(4, 2, "2015-07-25 12:00"));
    let t = invoice(&on_time, "T");
    assert_eq!(t.total, Some(Decimal::from(2000)));
    assert_eq!(t.unit, "SEK");
    // The fee is the district-team rule's, which calls the fee rule.
    assert_eq!(t.lines[0].figure.rule_ids, ["CC-DISTRICT", "CC-FEE"]);
    assert_eq!(t.lines[1].amount, Decimal::ZERO);
    let late = money_of("t.toml", &cc_team(4, 2, "2015-07-25 12:01"));
    let t = invoice(&late, "T");
    assert_eq!(
        amounts(t),
        [
            (
                "Gröna Hissen entry fee (4 seniors, 2 juniors)".to_string(),
                Decimal::from(2000)
            ),
            (
                "Gröna Hissen surcharge by payment time".to_string(),
                Decimal::from(200)
            ),
        ]
    );
    assert_eq!(t.total, Some(Decimal::from(2200)));
}

#[test]
fn the_cc_fee_at_both_sides_of_the_cap() {
    // 3 seniors + 3 juniors: 1,875 SEK, under the cap; 4 + 1: 2,125 capped at 2,000.
    let under = money_of("t.toml", &cc_team(3, 3, "2015-07-25 09:00"));
    assert_eq!(invoice(&under, "T").total, Some(Decimal::from(1875)));
    let over = money_of("t.toml", &cc_team(4, 1, "2015-07-25 09:00"));
    assert_eq!(invoice(&over, "T").total, Some(Decimal::from(2000)));
    // Born 1990: a junior in 2015 (the year of the 25th birthday); 1989: a senior.
    let edge = cc_team(0, 1, "2015-07-25 09:00").replace("1995", "1990");
    assert_eq!(
        invoice(&money_of("t.toml", &edge), "T").total,
        Some(Decimal::from(125))
    );
    let edge = cc_team(0, 1, "2015-07-25 09:00").replace("1995", "1989");
    assert_eq!(
        invoice(&money_of("t.toml", &edge), "T").total,
        Some(Decimal::from(500))
    );
}

#[test]
fn the_festival_invoices_and_district_statements() {
    let text = std::fs::read_to_string(root().join(VALID)).unwrap();
    let money = money_of(VALID, &text);
    let cc1 = invoice(&money, "CC-1");
    assert_eq!(cc1.total, Some(Decimal::from(2700)));
    // The district team plays Gröna Hissen free.
    assert_eq!(invoice(&money, "CC-2").total, Some(Decimal::ZERO));
    assert_eq!(invoice(&money, "LV-1").total, Some(Decimal::from(1500)));
    assert_eq!(invoice(&money, "DAM-1").total, Some(Decimal::from(800)));
    // A Skåne pair in a final: 1,400 SEK to the district, and one in the Open's
    // first allotment of the semifinal another 1,400.
    let skane = money
        .districts
        .iter()
        .find(|d| d.district == "Skåne")
        .unwrap();
    assert_eq!(skane.lines[0].amount, Decimal::from(1400));
    assert_eq!(skane.lines[0].figure.rule_ids, ["SM-TRAVEL"]);
    assert_eq!(skane.subsidies, Some(Decimal::from(2800)));
    assert_eq!(skane.set_aside, Some(Decimal::from(20)));
    let medelpad = money
        .districts
        .iter()
        .find(|d| d.district == "Medelpad")
        .unwrap();
    assert_eq!(medelpad.subsidies, Some(Decimal::from(1200)));
    assert_eq!(medelpad.charges, Some(Decimal::from(600)));
    // The file's totals: what the entries owe, what the districts are paid and
    // owe, what is set aside.
    let sum = |amounts: Vec<Option<Decimal>>| amounts.into_iter().sum::<Option<Decimal>>();
    let invoiced = sum(money.invoices.iter().map(|i| i.total).collect());
    let subsidies = sum(money.districts.iter().map(|d| d.subsidies).collect());
    let totals = money
        .totals
        .as_ref()
        .expect("the file has entries to invoice");
    assert_eq!(totals.invoiced, invoiced);
    assert_eq!(totals.subsidies, subsidies);
    assert_eq!(totals.unit, "SEK");
    let (code, stdout, stderr) = bfr(&["invoice", EDITION, VALID]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("festival-invoice", trim_lines(&stdout));
}

/// A director's file may store `å` as `a` plus a combining ring (NFD); the
/// district is the same district.
#[test]
fn a_district_written_with_a_combining_ring_is_the_same_district() {
    let text = std::fs::read_to_string(root().join(VALID)).unwrap();
    let decomposed = text.replace("Skåne", "Ska\u{30a}ne");
    assert_ne!(decomposed, text);
    let (codes, rendered) = check_text("nfd.toml", &decomposed);
    assert!(codes.is_empty(), "{rendered}");
    let money = money_of("nfd.toml", &decomposed);
    let skane = money
        .districts
        .iter()
        .find(|d| d.district == "Skåne")
        .unwrap();
    assert_eq!(skane.subsidies, Some(Decimal::from(2800)));
}

#[test]
fn the_first_62_rule_and_the_footnotes() {
    let pair = |id: &str, district: &str, stage: &str, first: bool| {
        format!(
            "[[pair]]\nid = \"{id}\"\nevent = \"Open\"\nplayers = [1, 2]\ndistrict = \"{district}\"\nstage = \"{stage}\"\nfirst_allotment = {first}\n\n"
        )
    };
    let players =
        "[[player]]\nmember = 1\nname = \"A\"\n\n[[player]]\nmember = 2\nname = \"B\"\n\n";
    let text = format!(
        "{players}{}{}{}",
        pair("a", "Norrbotten", "OpenSemifinal", true),
        pair("b", "Norrbotten", "OpenSemifinal", false),
        pair("c", "Gotland", "OpenSemifinal", true),
    );
    let (checked, sources) = edition();
    let mut sources = sources.clone();
    let (money, _) = bfr::entry::invoice(checked, &mut sources, "t.toml", &text);
    let money = money.unwrap();
    let of = |d: &str| {
        money
            .districts
            .iter()
            .find(|s| s.district == d)
            .unwrap()
            .subsidies
    };
    // Norrbotten 2,700 + the footnote's 500 for the first-allotment pair, none for the second.
    assert_eq!(of("Norrbotten"), Some(Decimal::from(3200)));
    // Gotland 600 + footnote 1's 1,000 (the edition's reading of the marker).
    assert_eq!(of("Gotland"), Some(Decimal::from(1600)));
}

#[test]
fn json_entries_give_the_same_money_and_spans_into_the_json() {
    let toml_text = cc_team(4, 2, "2015-07-25 12:01");
    let value: toml::Value = toml::from_str(&toml_text).unwrap();
    let json_text = serde_json::to_string_pretty(&value).unwrap();
    let from_json = money_of("t.json", &json_text);
    assert_eq!(invoice(&from_json, "T").total, Some(Decimal::from(2200)));
    // A problem in JSON points at the value at fault, not the whole file.
    let bad = json_text
        .replace("1995", "1960")
        .replace("\"players\": [", "\"players\": [100, ");
    let (codes, rendered) = check_text("t.json", &bad);
    assert!(codes.contains(&"E0801"), "{codes:?}");
    assert!(rendered.contains("named again here"), "{rendered}");
    // The second `100` of the list, on its own line of the pretty-printed JSON.
    let line = json_text[..json_text.find("\"players\": [").unwrap()]
        .lines()
        .count()
        + 1;
    assert!(rendered.contains(&format!("t.json:{line}:9")), "{rendered}");
}

#[test]
fn invoice_as_json_and_csv() {
    let (code, stdout, _) = bfr(&["invoice", "--format", "json", EDITION, VALID]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let cc1 = &v["money"]["invoices"][0];
    assert_eq!(cc1["id"], "CC-1");
    assert_eq!(cc1["total"], "2700");
    assert_eq!(cc1["lines"][1]["figure"]["rule_ids"][0], "CC-FEE");
    assert!(cc1["lines"][1]["figure"]["trace"][0]["source"]["id"] == "CC-FEE");
    let (code, csv, _) = bfr(&["invoice", "--format", "csv", EDITION, VALID]);
    assert_eq!(code, 0);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("section,id,name,item,kind,amount,unit,rule_ids,call,note")
    );
    assert!(csv.contains("invoice,CC-1,Lundagård,Gröna Hissen surcharge by payment time,charge,200,SEK,CC-FEE,cc_gh_fee_late_surcharge(paid_at = Sat 2015-07-25 12:01),"), "{csv}");
    assert!(
        csv.contains("district,Skåne,Skåne,\"travel subsidy, pair DAM-1 in the SM Par Dam final\",subsidy,1400,SEK,SM-TRAVEL,"),
        "{csv}"
    );
    // CSV is the invoice's own format.
    let (code, _, stderr) = bfr(&["entries", "check", "--format", "csv", EDITION, VALID]);
    assert_eq!(code, 2, "{stderr}");
}

// ── the edition is data ───────────────────────────────────────────────────────

/// A copy of the 2015 edition with `from` replaced by `to` in `file`.
pub(crate) fn variant(tag: &str, file: &str, from: &str, to: &str) -> TempDir {
    let dir = TempDir::new(tag);
    for e in std::fs::read_dir(root().join(EDITION)).unwrap().flatten() {
        let mut text = std::fs::read_to_string(e.path()).unwrap();
        if e.file_name() == file {
            assert!(text.contains(from), "{from} not in {file}");
            text = text.replace(from, to);
        }
        std::fs::write(dir.0.join(e.file_name()), text).unwrap();
    }
    dir
}

#[test]
fn a_variant_edition_changes_the_invoice_and_the_checks() {
    let dir = variant(
        "entries-variant",
        "chairmans_cup.bfr",
        "const cc_gh_fee_surcharge: SEK ref CC-FEE p.14 \"Startavgifter\" = 200 SEK",
        "const cc_gh_fee_surcharge: SEK ref CC-FEE p.14 \"Startavgifter\" = 300 SEK",
    );
    let file = dir.0.join("entries.toml");
    std::fs::write(&file, cc_team(4, 2, "2015-07-25 12:01")).unwrap();
    let (code, stdout, stderr) = bfr(&[
        "invoice",
        "--format",
        "json",
        &dir.0.display().to_string(),
        &file.display().to_string(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["money"]["invoices"][0]["total"], "2300");
    // Six players allowed → five: the same team is now too large.
    let dir = variant(
        "entries-variant-size",
        "chairmans_cup.bfr",
        "= 6 players\n\n/// Whether a team of this many",
        "= 5 players\n\n/// Whether a team of this many",
    );
    let file = dir.0.join("entries.toml");
    std::fs::write(&file, cc_team(4, 2, "2015-07-25 12:01")).unwrap();
    let (code, _, stderr) = bfr(&[
        "entries",
        "check",
        "--color",
        "never",
        &dir.0.display().to_string(),
        &file.display().to_string(),
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("[E0810]") && stderr.contains("[CC-ENTRY]"),
        "{stderr}"
    );
}

/// An edition whose team-size rule is renamed (and its parameter too), in the rule,
/// its example and the `entries` block: data only.
fn renamed_team_size(tag: &str) -> TempDir {
    let dir = variant(
        tag,
        "chairmans_cup.bfr",
        "fn cc_team_size_allowed(players: player)",
        "fn lag_storlek_ok(spelare: player)",
    );
    let path = dir.0.join("chairmans_cup.bfr");
    let text = std::fs::read_to_string(&path).unwrap();
    let body = "players >= 1 player and players <= cc_max_players_per_team";
    assert!(text.contains(body), "the rule's body as written");
    let text = text
        .replace("cc_team_size_allowed(", "lag_storlek_ok(")
        .replace(
            body,
            "spelare >= 1 player and spelare <= cc_max_players_per_team",
        );
    std::fs::write(&path, text).unwrap();
    let path = dir.0.join("entries.bfr");
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "cc_team_size_allowed = cc_team_size_allowed",
        "cc_team_size_allowed = lag_storlek_ok",
    );
    std::fs::write(&path, text).unwrap();
    dir
}

pub(crate) fn entries_check(dir: &TempDir, text: &str) -> (i32, String) {
    let file = dir.0.join("entries.toml");
    std::fs::write(&file, text).unwrap();
    let (code, _, stderr) = bfr(&[
        "entries",
        "check",
        "--color",
        "never",
        &dir.0.display().to_string(),
        &file.display().to_string(),
    ]);
    (code, stderr)
}

#[test]
fn a_renamed_rule_keeps_working_when_the_entries_block_names_it() {
    let dir = renamed_team_size("entries-renamed");
    let (code, stderr) = entries_check(&dir, &cc_team(4, 2, "2015-07-25 12:00"));
    assert_eq!(code, 0, "{stderr}");
    // Seven players: the renamed rule still refuses them, by its own name.
    let (code, stderr) = entries_check(&dir, &cc_team(5, 2, "2015-07-25 12:00"));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("lag_storlek_ok(spelare = 7 players)"),
        "{stderr}"
    );
}

#[test]
fn a_question_the_edition_leaves_out_is_w0823_at_check_and_e0802_at_the_desk() {
    let dir = variant(
        "entries-e0802",
        "entries.bfr",
        "  cc_team_size_allowed = cc_team_size_allowed\n",
        "",
    );
    let (code, _, stderr) = bfr(&["check", "--color", "never", &dir.0.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("[W0823]") && stderr.contains("cc_team_size_allowed"),
        "{stderr}"
    );
    let (code, stderr) = entries_check(&dir, &cc_team(4, 2, "2015-07-25 12:00"));
    assert_eq!(code, 1);
    assert!(
        stderr.contains("[E0802]")
            && stderr
                .contains("the edition does not say which rule answers `cc_team_size_allowed`"),
        "{stderr}"
    );
}

#[test]
fn a_birth_year_of_two_digits_is_said_without_the_season_too() {
    // Without a `period` the season is unknown (E0802 where a class is asked
    // for), but `62` is still no year: said, not taken as the year 62.
    let dir = variant(
        "entries-no-period",
        "edition.bfr",
        "  period Fri 2015-07-24 .. Sun 2015-08-02\n",
        "",
    );
    let text =
        cc_team(4, 0, "2015-07-25 12:00").replacen("birth_year = 1960", "birth_year = 62", 1);
    let (code, stderr) = entries_check(&dir, &text);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("[E0801] Error: the birth year of P0 (100), 62, is not written in full")
            && stderr.contains("Help: write all four digits; until then the player has no class"),
        "{stderr}"
    );
}

#[test]
fn a_rule_of_the_wrong_signature_is_e0825_at_check() {
    let dir = variant(
        "entries-e0825",
        "entries.bfr",
        "cc_team_size_allowed = cc_team_size_allowed",
        "cc_team_size_allowed = cc_registration_in_time",
    );
    let (code, _, stderr) = bfr(&["check", "--color", "never", &dir.0.display().to_string()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("[E0825]"), "{stderr}");
    assert!(
        stderr.contains("the question passes (players: a number) and wants `bool`"),
        "{stderr}"
    );
}

/// A copy of the 2015 edition with every whole-word `from` in its rule files
/// renamed `to` (the enum, its uses, and the `entries` block's roles alike).
pub(crate) fn renamed_word(tag: &str, renames: &[(&str, &str)]) -> TempDir {
    let dir = TempDir::new(tag);
    let word = |c: char| c.is_alphanumeric() || c == '_';
    for e in std::fs::read_dir(root().join(EDITION)).unwrap().flatten() {
        let mut text = std::fs::read_to_string(e.path()).unwrap();
        for (from, to) in renames {
            let mut out = String::new();
            let mut rest = text.as_str();
            let mut before: Option<char> = None;
            while let Some(i) = rest.find(from) {
                let prev = rest[..i].chars().next_back().or(before);
                let next = rest[i + from.len()..].chars().next();
                out.push_str(&rest[..i]);
                if prev.is_some_and(word) || next.is_some_and(word) {
                    out.push_str(from);
                } else {
                    out.push_str(to);
                }
                before = from.chars().next_back();
                rest = &rest[i + from.len()..];
            }
            out.push_str(rest);
            text = out;
        }
        std::fs::write(dir.0.join(e.file_name()), text).unwrap();
    }
    dir
}

#[test]
fn an_edition_that_renames_the_entries_enums_gives_the_same_checks_and_money() {
    let renames = [("District", "Landsdel"), ("SmQuotaEvent", "SmKvotgren")];
    let dir = renamed_word("entries-renamed-enums", &renames);
    let entries = std::fs::read_to_string(dir.0.join("entries.bfr")).unwrap();
    assert!(
        entries.contains("district = Landsdel")
            && entries.contains("sm_veteran = SmKvotgren.Veteran"),
        "{entries}"
    );
    let edition = dir.0.display().to_string();
    let back = |s: String| {
        renames
            .iter()
            .fold(s, |s, (from, to)| s.replace(to, from))
            .replace(&edition, EDITION)
    };
    let (code, _, stderr) = bfr(&["check", "--color", "never", &edition]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        !stderr.contains("[W0823]") && !stderr.contains("[E08"),
        "{stderr}"
    );
    // The broken festival: the same problems, the calls naming the renamed enums.
    for (file, want) in [(BROKEN, 1), (VALID, 0)] {
        let run = |e: &str| bfr(&["entries", "check", "--color", "never", e, file]);
        let (code, _, renamed) = run(&edition);
        let (code_2015, _, original) = run(EDITION);
        assert_eq!((code, code_2015), (want, want), "{file}: {renamed}");
        assert_eq!(back(renamed), original, "{file}");
    }
    let broken = bfr(&["entries", "check", "--color", "never", &edition, BROKEN]).2;
    assert!(
        broken.contains("[E0812]"),
        "the veterans' class, by the `sm_veteran` role: {broken}"
    );
    // The money: every invoice and district figure the same, the calls renamed.
    let money = |e: &str| bfr(&["invoice", "--format", "json", e, VALID]);
    let (code, renamed, stderr) = money(&edition);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        renamed.contains("Landsdel.Skane"),
        "the calls name the edition's enum"
    );
    let original = money(EDITION).1;
    let renamed = back(renamed);
    let differ = renamed.lines().zip(original.lines()).find(|(a, b)| a != b);
    assert_eq!(differ, None, "the first line that differs");
    assert_eq!(renamed.lines().count(), original.lines().count());
}

/// An entries file with 150 problems shows the first 100 and one line for the
/// rest, as `bfr check` does; the summary counts all of them.
#[test]
fn entries_check_shows_at_most_a_hundred_problems_of_a_file() {
    let dir = TempDir::new("entries-many-problems");
    let players: String = (0..150)
        .map(|i| {
            format!(
                "[[player]]\nmember = {}\nname = \"Player {i}\"\nbirth_year = 1962\nclub = \"Club\"\n\
                 district = \"Nowhere\"\nmembership_paid_at = \"2014-09-01 10:00\"\n\n",
                5000 + i
            )
        })
        .collect();
    let path = dir.0.join("entries.toml");
    std::fs::write(&path, players).unwrap();
    let edition = root().join("rules/2015");
    let (code, stdout, stderr) = bfr(&[
        "entries",
        "check",
        edition.to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stderr.matches("[E0801]").count(), 100, "{stderr}");
    assert!(
        stderr.contains("and 50 more diagnostics in ") && stdout.contains("150 errors"),
        "{stdout}"
    );
}

/// `n` players, each a senior of Skåne who paid.
fn players(n: u32) -> String {
    (1..=n)
        .map(|m| {
            format!(
                "[[player]]\nmember = {m}\nname = \"P{m}\"\nbirth_year = 1960\ndistrict = \"Skåne\"\n\
                 membership_paid_at = \"2014-09-01 10:00\"\n\n"
            )
        })
        .collect()
}

#[test]
fn many_pairs_sharing_a_player_give_one_problem_a_pair_not_one_a_pair_of_pairs() {
    // 2,000 pairs of the Open, each with member 1: every pair after the first
    // starts member 1 a second time, once (comparing every pair with every
    // pair before it gave two million problems, and as many rule calls).
    let pairs = 2_000u32;
    let mut text = players(pairs + 1 + 1_000);
    for k in 1..=pairs {
        text.push_str(&format!(
            "[[pair]]\nid = \"P{k}\"\nevent = \"Open\"\nplayers = [1, {}]\ndistrict = \"Skåne\"\n\n",
            k + 1
        ));
    }
    // One district pair whose player also entered the last-chance qualifier in
    // a thousand pairs: it loses its place once, naming the first of them.
    for k in 1..=1_000u32 {
        text.push_str(&format!(
            "[[pair]]\nid = \"L{k}\"\nevent = \"Open\"\nplayers = [2, {}]\ndistrict = \"Skåne\"\n\
             entered_by = \"last_chance\"\n\n",
            pairs + 1 + k
        ));
    }
    let (checked, sources) = edition();
    let mut sources = sources.clone();
    let read = bfr::entry::check(checked, &mut sources, "many.toml", &text);
    let sorted = read.diagnostics.sorted();
    let count = |code: &str| sorted.iter().filter(|d| d.code == code).count();
    assert_eq!(count("E0815"), (pairs - 1) as usize);
    assert_eq!(count("E0816"), 1);
    let lost = sorted.iter().find(|d| d.code == "E0816").unwrap();
    assert!(
        lost.message.contains("pair `P1` loses its district place")
            && lost.message.contains("(pair `L1`)"),
        "{}",
        lost.message
    );
}

#[test]
fn an_entries_file_past_ten_thousand_pairs_is_refused_before_it_is_checked() {
    let mut text = players(2);
    let pair = "[[pair]]\nid = \"P\"\nevent = \"Open\"\nplayers = [1, 2]\ndistrict = \"Skåne\"\n\n";
    text.push_str(&pair.repeat(10_001));
    let (codes, rendered) = check_text("long.toml", &text);
    assert_eq!(codes, vec!["E0829"], "{rendered}");
    assert!(
        rendered.contains("the file lists 10001 `[[pair]]`; an entries file holds at most 10000"),
        "{rendered}"
    );
    // At the bound, the file is read and its ten thousand pairs checked (the
    // same two players each time: an id and a start twice, 9,999 times each).
    let mut text = players(2);
    text.push_str(&pair.repeat(10_000));
    let (checked, sources) = edition();
    let read = bfr::entry::check(checked, &mut sources.clone(), "long.toml", &text);
    let sorted = read.diagnostics.sorted();
    assert!(!sorted.iter().any(|d| d.code == "E0829"));
    assert_eq!(sorted.iter().filter(|d| d.code == "E0815").count(), 9_999);
}

#[test]
fn a_rule_the_edition_leaves_out_is_said_once_by_the_check_and_the_invoice() {
    let dir = variant(
        "entries-e0802-once",
        "entries.bfr",
        "  cc_is_district_team = cc_is_district_team\n",
        "",
    );
    let text = cc_team(4, 2, "2015-07-25 12:00")
        .replace("fee_paid_at", "district_team = true\nfee_paid_at");
    let file = dir.0.join("entries.toml");
    std::fs::write(&file, &text).unwrap();
    let (dir_arg, file_arg) = (dir.0.display().to_string(), file.display().to_string());
    for command in ["check", "invoice"] {
        let args: Vec<&str> = match command {
            "check" => vec!["entries", "check", "--color", "never", &dir_arg, &file_arg],
            _ => vec!["invoice", "--color", "never", &dir_arg, &file_arg],
        };
        let (code, _, stderr) = bfr(&args);
        assert_eq!(code, 1, "{stderr}");
        assert_eq!(
            stderr
                .matches("the edition does not say which rule answers `cc_is_district_team`")
                .count(),
            1,
            "{command}: {stderr}"
        );
    }
}

#[test]
fn a_pair_of_one_player_is_e0830_and_still_checked() {
    let mut text = players(1);
    text.push_str("[[pair]]\nid = \"P\"\nevent = \"Open\"\nplayers = [1]\ndistrict = \"Skåne\"\n");
    let (codes, rendered) = check_text("one.toml", &text);
    assert_eq!(codes, vec!["E0830"], "{rendered}");
    assert!(
        rendered.contains("pair `P` names 1 member; a pair is two players"),
        "{rendered}"
    );
}

#[test]
fn an_invoice_whose_lines_add_up_past_the_largest_amount_says_so_and_shows_no_total() {
    let dir = variant(
        "entries-e0831",
        "chairmans_cup.bfr",
        "const cc_gh_fee_surcharge: SEK ref CC-FEE p.14 \"Startavgifter\" = 200 SEK",
        "const cc_gh_fee_surcharge: SEK ref CC-FEE p.14 \"Startavgifter\" = 79228162514264337593543950335 SEK",
    );
    let file = dir.0.join("entries.toml");
    let (dir_arg, file_arg) = (dir.0.display().to_string(), file.display().to_string());
    let run = |format: &[&str]| {
        let mut args = vec!["invoice", "--color", "never"];
        args.extend_from_slice(format);
        args.extend([dir_arg.as_str(), file_arg.as_str()]);
        bfr(&args)
    };
    // Paid at the deadline: no surcharge, and the total stands.
    std::fs::write(&file, cc_team(4, 2, "2015-07-25 12:00")).unwrap();
    let (code, stdout, stderr) = run(&[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("2000 SEK\n\n"), "{stdout}");
    // A minute late: 2,000 SEK and the largest amount a number holds.
    std::fs::write(&file, cc_team(4, 2, "2015-07-25 12:01")).unwrap();
    let (code, stdout, stderr) = run(&[]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stderr.matches("[E0831]").count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "adding up the charges of team `T` passes the largest amount a number holds \
             (79228162514264337593543950335, either side of zero)"
        ),
        "{stderr}"
    );
    // Each line is shown; the total is not, rather than a figure short of them,
    // nor the file's total, which adds it (without a second report).
    assert!(
        stdout.contains("79228162514264337593543950335 SEK"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("too large (E0831)").count(), 2, "{stdout}");
    assert!(stdout.contains("invoiced to 1 entry"), "{stdout}");
    let (code, stdout, _) = run(&["--format", "json"]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(json["money"]["invoices"][0]["total"].is_null(), "{stdout}");
    assert_eq!(json["diagnostics"][0]["code"], "E0831", "{stdout}");
    let (code, stdout, _) = run(&["--format", "csv"]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("invoice,T,Team,total,total,,SEK,,,too large (E0831)\n"),
        "{stdout}"
    );
}

#[test]
fn an_entries_file_with_nothing_to_invoice_has_no_totals_in_text_csv_or_json() {
    let dir = TempDir::new("entries-nothing");
    let file = dir.0.join("entries.toml");
    std::fs::write(&file, "# no entries yet\n").unwrap();
    let file = file.display().to_string();
    let (code, stdout, stderr) = bfr(&["invoice", EDITION, &file]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "no entries to invoice\n");
    let (code, csv, _) = bfr(&["invoice", "--format", "csv", EDITION, &file]);
    assert_eq!(code, 0);
    assert_eq!(
        csv,
        "section,id,name,item,kind,amount,unit,rule_ids,call,note\n"
    );
    let (code, json, _) = bfr(&["--format", "json", "invoice", EDITION, &file]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["money"]["totals"], serde_json::Value::Null, "{json}");
    assert_eq!(json["money"]["invoices"], serde_json::json!([]), "{json}");
}

/// Two invoices each below the largest amount, together past it: the file's
/// total is E0831 at the first entry, each invoice's own total stands.
#[test]
fn the_files_total_past_the_largest_amount_is_reported_and_not_shown() {
    let dir = variant(
        "entries-e0831-totals",
        "chairmans_cup.bfr",
        "const cc_gh_fee_surcharge: SEK ref CC-FEE p.14 \"Startavgifter\" = 200 SEK",
        "const cc_gh_fee_surcharge: SEK ref CC-FEE p.14 \"Startavgifter\" = 40000000000000000000000000000 SEK",
    );
    let team = cc_team(4, 2, "2015-07-25 12:01");
    let again = team[team.find("[[team]]").unwrap()..].replace("id = \"T\"", "id = \"U\"");
    let file = dir.0.join("entries.toml");
    std::fs::write(&file, format!("{team}\n{again}")).unwrap();
    let (dir_arg, file_arg) = (dir.0.display().to_string(), file.display().to_string());
    let (code, stdout, stderr) = bfr(&["invoice", "--color", "never", &dir_arg, &file_arg]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stderr.matches("[E0831]").count(), 1, "{stderr}");
    assert!(
        stderr.contains("adding up the invoices of the whole file passes the largest amount"),
        "{stderr}"
    );
    assert!(stderr.contains("the file's first entry"), "{stderr}");
    // Each invoice: 2,000 SEK and the surcharge.
    assert_eq!(
        stdout
            .matches("40000000000000000000000002000 SEK\n")
            .count(),
        2,
        "{stdout}"
    );
    assert!(stdout.contains("too large (E0831)"), "{stdout}");
    // One team less: the total is shown again.
    std::fs::write(&file, &team).unwrap();
    let (code, stdout, _) = bfr(&["invoice", "--color", "never", &dir_arg, &file_arg]);
    assert_eq!(code, 0);
    assert!(!stdout.contains("E0831"), "{stdout}");
}

#[test]
fn a_district_team_is_named_for_its_district_in_any_case_and_spelling() {
    // The E0813 case renamed after its district: by label, in capitals, without
    // the ring, and with the ring typed as a separate mark.
    let case = std::fs::read_to_string(
        root().join("tests/cases/entries/E0813-name-is-not-the-district.toml"),
    )
    .unwrap();
    assert!(check_text("e.toml", &case).0.contains(&"E0813"));
    for name in ["Skåne 1", "SKÅNE 1", "Skane 1", "Ska\u{30a}ne 1"] {
        let text = case.replace("name = \"Sydkusten\"", &format!("name = \"{name}\""));
        let (codes, shown) = check_text("e.toml", &text);
        assert!(!codes.contains(&"E0813"), "{name}: {shown}");
    }
}

#[test]
fn a_team_with_a_player_not_read_is_invoiced_for_those_read_and_says_so() {
    // Five players listed, one with a district misspelt: one error, said once,
    // and the Gröna Hissen fee counts the four read, saying a fifth was named.
    let mut text = String::new();
    for (member, district) in [
        (1, "Skåne"),
        (2, "Skåne"),
        (3, "Skåne"),
        (4, "Skåne"),
        (5, "Skane BF"),
    ] {
        text.push_str(&format!(
            "[[player]]\nmember = {member}\nname = \"Spelare {member}\"\nbirth_year = 1970\ndistrict = \"{district}\"\nmembership_paid_at = \"2014-09-01 10:00\"\n\n"
        ));
    }
    text.push_str(
        "[[team]]\nid = \"CC-1\"\nname = \"Lundagård\"\ncompetition = \"Chairman's Cup\"\nplayers = [1, 2, 3, 4, 5]\nregistered_at = \"2015-07-23 12:00\"\n",
    );
    let (codes, rendered) = check_text("t.toml", &text);
    assert_eq!(codes, ["E0801"], "{rendered}");
    let (checked, sources) = edition();
    let mut sources = sources.clone();
    let (money, _) = bfr::entry::invoice(checked, &mut sources, "t.toml", &text);
    let money = money.expect("the entries are read");
    let lines = amounts(invoice(&money, "CC-1"));
    assert_eq!(
        lines[0],
        (
            "Gröna Hissen entry fee (4 seniors, 0 juniors; a player named is not read, see the errors)"
                .to_string(),
            Decimal::from(2000)
        ),
        "{lines:?}"
    );
}

//! `bfr doc`: the edition as a static HTML site. The 2015 site is compared with
//! the checked IR (every rule anchored with its reference, every stage and route
//! of each competition in its flow, every warning on its page), its links are
//! followed, two runs compare byte for byte, and the index and a chapter are
//! loaded in headless Chromium (skipped only without Chromium and without `CI`).

use crate::support::{
    SHOWN_TEXT_PROBE, TempDir, bfr, chromium, edition_2015, program_2015, root, run_chromium,
    shown_text_at,
};
use bfr::ir::competition::{Competition, Target};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Writes the site of `edition` into a new directory and returns it with its
/// pages by file name.
fn site_of(edition: &str, tag: &str) -> (TempDir, PathBuf, BTreeMap<String, String>) {
    let dir = TempDir::new(tag);
    let out = dir.0.join("site");
    let (code, stdout, stderr) = bfr(&["doc", edition, "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("wrote "), "{stdout}");
    let pages = read_site(&out);
    (dir, out, pages)
}

fn read_site(out: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(out)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect()
}

/// The HTML of the element with `id`, up to the end of its section.
fn section<'a>(page: &'a str, id: &str) -> &'a str {
    let at = page
        .find(&format!(" id=\"{id}\""))
        .unwrap_or_else(|| panic!("no element with id `{id}`"));
    let end = page[at..].find("</section>").map_or(page.len(), |e| at + e);
    &page[at..end]
}

/// The page that holds `id`.
fn page_with<'a>(pages: &'a BTreeMap<String, String>, id: &str) -> (&'a str, &'a str) {
    let found: Vec<_> = pages
        .iter()
        .filter(|(_, text)| text.contains(&format!(" id=\"{id}\"")))
        .collect();
    assert_eq!(found.len(), 1, "`{id}` is on exactly one page");
    (found[0].0.as_str(), found[0].1.as_str())
}

const SMALL_EDITION: &str = r#"// A small edition: one chapter with one of each kind.

edition "Small <test> & edition" {
  updated Sat 2015-07-25
}

unit SEK "Swedish kronor"
unit board whole alias boards
"#;

const SMALL_CHAPTER: &str = r#"// Fees & delays: the <chapter> a test renders.

/// A team's size class ("<small> & large").
enum Size ref T-SIZE p.3 "Storlek" {
  Small "liten",
  Large "stor",
}

/// The entry fee by size.
table fee(size: Size) -> SEK ref T-FEE p.3 "Avgifter" {
  Small => 500 SEK,
  Large => base_fee,
}

const base_fee: SEK ref T-FEE p.3 "Avgifter" = 800 SEK

/// The surcharge for a long match.
scale surcharge(b: board) -> SEK ref T-LONG p.4 "Långa matcher" {
  domain b >= 1 board
  b <= 32 boards => 0 SEK
  b > 32 boards => 100 SEK
}

/// What a large team pays for a match of `b` boards.
fn large_total(b: board) -> SEK ref T-FEE p.3 "Avgifter" = fee(Size.Large) + surcharge(b)

procedure payment ref T-PAY p.4 "Betalning" {
  "Pay at the desk <before> the first round & keep the receipt."
}

example "a large team pays the base fee up to 32 boards" ref T-FEE p.3 {
  large_total(32 boards) == 800 SEK
  large_total(33 boards) == 900 SEK
}

example "the document's worked example" ref T-FEE contradicts {
  fee(Size.Small) == 600 SEK
}

notice "the <document> gives no fee for a team of one" ref T-FEE p.3 "Avgifter"
"#;

#[test]
fn an_amending_editions_chapters_are_told_apart_from_its_bases() {
    let dir = TempDir::new("doc-amending");
    let next = dir.0.join("2016");
    std::fs::create_dir(&next).unwrap();
    let base = root().join("rules/2015");
    std::fs::write(
        next.join("edition.bfr"),
        format!(
            "edition \"Bridgefestivalen 2016\" {{\n  amends \"{}\"\n}}\n",
            base.display()
        ),
    )
    .unwrap();
    let (_, _, pages) = site_of(next.to_str().unwrap(), "doc-amending-site");
    let index = &pages["index.html"];
    // The amendment's own header, and the base's, each by a name of its own.
    assert!(index.contains(">edition.bfr</a>"), "{index}");
    assert!(index.contains(">2015/edition.bfr</a>"), "{index}");
    assert!(index.contains(">2015/chairmans_cup.bfr</a>"), "{index}");
}

#[test]
fn a_small_chapter_page_shows_every_kind_escaped() {
    let dir = TempDir::new("doc-small");
    let edition = dir.0.join("small");
    std::fs::create_dir(&edition).unwrap();
    std::fs::write(edition.join("edition.bfr"), SMALL_EDITION).unwrap();
    std::fs::write(edition.join("fees.bfr"), SMALL_CHAPTER).unwrap();
    let out = dir.0.join("site");
    let (code, _, stderr) = bfr(&[
        "doc",
        edition.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let pages = read_site(&out);
    let names: Vec<&str> = pages.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            ".bfr-doc",
            "edition.html",
            "fees.html",
            "index.html",
            "style.css"
        ]
    );
    let page = &pages["fees.html"];
    // Escaped by construction: no text of the edition becomes markup.
    assert!(!page.contains("<chapter>") && !page.contains("<before>"));
    assert!(page.contains("&lt;document&gt;") && page.contains("Fees &amp; delays"));
    // The contradicting example carries its warning, and uses and used-by link both ways.
    let example = section(page, "example-2");
    assert!(example.contains("W0501"), "{example}");
    assert!(section(page, "rule-base_fee").contains("href=\"fees.html#rule-fee\""));
    assert!(section(page, "rule-fee").contains("href=\"fees.html#rule-base_fee\""));
    insta::assert_snapshot!(page.replace("><", ">\n<"));
    insta::assert_snapshot!("small_index", pages["index.html"].replace("><", ">\n<"));
}

#[test]
fn every_rule_procedure_and_example_of_2015_has_an_anchor_with_its_reference() {
    let program = program_2015();
    let (_dir, _out, pages) = site_of("rules/2015", "doc-anchors");
    let reference = |html: &str, id: &str| {
        assert!(
            html.contains(&format!("<span class=\"ref-id\">{id}</span>")),
            "{html}"
        );
    };
    for r in &program.rules {
        let (_, page) = page_with(&pages, &format!("rule-{}", r.name));
        let html = section(page, &format!("rule-{}", r.name));
        reference(
            html,
            &r.source.as_ref().expect("2015 rules have sources").id,
        );
    }
    // A plain number admitting whole numbers only, as the editor wrote it.
    let (_, page) = page_with(&pages, "rule-lv_choice_turn");
    let turn = section(page, "rule-lv_choice_turn");
    assert!(
        turn.contains("lv_choice_turn(position: integer) -&gt; integer"),
        "{turn}"
    );
    for t in &program.texts {
        let (_, page) = page_with(&pages, &format!("procedure-{}", t.name));
        let html = section(page, &format!("procedure-{}", t.name));
        reference(html, &t.source.as_ref().unwrap().id);
        for p in &t.paragraphs {
            let escaped = p
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('"', "&quot;");
            assert!(html.contains(&escaped), "{}: {p}", t.name);
        }
    }
    for (i, e) in program.examples.iter().enumerate() {
        let id = format!("example-{}", i + 1);
        let (_, page) = page_with(&pages, &id);
        let html = section(page, &id);
        if let Some(s) = &e.source {
            reference(html, &s.id);
        }
    }
    for e in &program.enums {
        page_with(&pages, &format!("enum-{}", e.name));
    }
    for r in &program.records {
        page_with(&pages, &format!("record-{}", r.name));
    }
    for u in &program.units {
        page_with(&pages, &format!("unit-{}", u.name));
    }
}

/// Every route of a competition as (from, to, kind), the way the flow names them.
fn routes_of(c: &Competition) -> BTreeSet<(String, String, String)> {
    let to = |t: &Target| match t {
        Target::Stage(i) => c.stages[*i].name.clone(),
        Target::Out => "out".into(),
        Target::Place(a, b) => format!("place-{a}-{b}"),
    };
    let mut out = BTreeSet::new();
    if let Some(q) = &c.qualification {
        for (_, _, t) in &q.places {
            out.insert((q.name.clone(), to(t), "places".into()));
        }
        out.insert((q.name.clone(), to(&q.rest), "rest".into()));
    }
    for s in &c.stages {
        out.insert((s.name.clone(), to(&s.winners), "winners".into()));
        out.insert((s.name.clone(), to(&s.losers), "losers".into()));
    }
    out
}

/// The routes drawn in an SVG: (from, to, kind) of every `<g class="route …">`.
fn routes_drawn(svg: &str) -> Vec<(String, String, String)> {
    let attr = |tag: &str, name: &str| {
        let at = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        tag[at..at + tag[at..].find('"').unwrap()].to_string()
    };
    svg.split("<g class=\"route ")
        .skip(1)
        .map(|rest| {
            let tag = &rest[..rest.find('>').unwrap()];
            let kind = tag[..tag.find('"').unwrap()]
                .trim_start_matches("exit ")
                .to_string();
            (attr(tag, "data-from"), attr(tag, "data-to"), kind)
        })
        .collect()
}

#[test]
fn each_competitions_flow_holds_every_stage_and_every_route_of_the_ir() {
    let program = program_2015();
    let (_dir, _out, pages) = site_of("rules/2015", "doc-flow");
    let cup = program
        .competitions
        .iter()
        .find(|c| c.name == "cup")
        .unwrap();
    // CC-STAGES: the 14 stages of the day-by-day list.
    let listed: Vec<_> = cup
        .stages
        .iter()
        .filter(|s| s.source.as_ref().is_some_and(|r| &*r.id == "CC-STAGES"))
        .collect();
    assert_eq!(listed.len(), cup.stages.len());
    assert!(listed.len() >= 14);
    for c in &program.competitions {
        let id = format!("competition-{}", c.name);
        let (_, page) = page_with(&pages, &id);
        let html = section(page, &id);
        let svg = &html[html.find("<svg").unwrap()..html.find("</svg>").unwrap()];
        let names = c
            .qualification
            .iter()
            .map(|q| (&q.name, &q.title))
            .chain(c.stages.iter().map(|s| (&s.name, &s.title)));
        for (name, title) in names {
            assert!(
                svg.contains(&format!("data-stage=\"{name}\"")),
                "{}: {name}",
                c.name
            );
            assert!(svg.contains(title.as_str()), "{}: {title}", c.name);
        }
        // A competition dated as a whole says its days before its flow, cited
        // where they come from (SM Lag Veteran: LV-FEE p.11); the others do not.
        let before_flow = &html[..html.find("<svg").unwrap()];
        match c.days() {
            Some((first, last)) => {
                let played = format!("Played {}", first.through(last));
                assert!(before_flow.contains(&played), "{}: {before_flow}", c.name);
                assert!(before_flow.contains("LV-FEE"), "{before_flow}");
            }
            None => assert!(!before_flow.contains("Played "), "{}", c.name),
        }
        let drawn = routes_drawn(svg);
        let unique: BTreeSet<_> = drawn.iter().cloned().collect();
        assert_eq!(unique.len(), drawn.len(), "no route drawn twice");
        assert_eq!(unique, routes_of(c), "{}", c.name);
        for s in &c.stages {
            // Each stage's row in the table too, with its boards and day.
            let row = &html[html
                .find(&format!("id=\"stage-{}-{}\"", c.name, s.name))
                .unwrap()..];
            let row = &row[..row.find("</tr>").unwrap()];
            if let Some(day) = s.schedule.day {
                assert!(row.contains(&day.to_string()), "{row}");
            }
        }
    }
}

#[test]
fn every_link_of_the_2015_site_leads_to_a_page_and_an_element_that_exist() {
    let (_dir, _out, pages) = site_of("rules/2015", "doc-links");
    let ids: BTreeMap<&str, BTreeSet<String>> = pages
        .iter()
        .map(|(name, text)| {
            let ids = text
                .split(" id=\"")
                .skip(1)
                .map(|r| r[..r.find('"').unwrap()].to_string())
                .collect::<BTreeSet<_>>();
            (name.as_str(), ids)
        })
        .collect();
    let mut links = 0;
    for (name, text) in &pages {
        if !name.ends_with(".html") {
            continue;
        }
        for rest in text.split("href=\"").skip(1) {
            let href = &rest[..rest.find('"').unwrap()];
            let (page, fragment) = match href.split_once('#') {
                Some(("", f)) => (name.as_str(), Some(f)),
                Some((p, f)) => (p, Some(f)),
                None => (href, None),
            };
            assert!(pages.contains_key(page), "{name}: {href}");
            if let Some(f) = fragment {
                assert!(ids[page].contains(f), "{name}: {href}");
            }
            links += 1;
        }
        // Every id is given once on its page.
        assert_eq!(
            text.matches(" id=\"").count(),
            ids[name.as_str()].len(),
            "{name}"
        );
    }
    assert!(links > 1000, "{links} links");
}

#[test]
fn the_checks_warnings_stand_on_the_declarations_they_point_into() {
    let loaded = edition_2015();
    let program = loaded.checked.as_ref().unwrap().program.clone();
    let (_dir, _out, pages) = site_of("rules/2015", "doc-warnings");
    let warnings: Vec<_> = loaded
        .diagnostics
        .sorted()
        .into_iter()
        .filter(|d| !d.is_error())
        .collect();
    assert!(!warnings.is_empty());
    let shown: usize = pages
        .values()
        .map(|t| t.matches("<div class=\"warning\">").count())
        .sum();
    assert_eq!(shown, warnings.len());
    for w in &warnings {
        let file = Path::new(loaded.sources.name(w.span.file));
        let page = format!("{}.html", file.file_stem().unwrap().to_string_lossy());
        assert!(
            pages[&page].contains(&format!("<span class=\"code\">{}</span>", w.code)),
            "{} on {page}",
            w.code
        );
    }
    // The document's 64-board seating example contradicts its rule (W0501): the
    // warning is on that example.
    let i = program
        .examples
        .iter()
        .position(|e| e.title == "the document's 64-board seating example")
        .unwrap();
    let id = format!("example-{}", i + 1);
    let (_, page) = page_with(&pages, &id);
    assert!(section(page, &id).contains(">W0501<"));
}

#[test]
fn two_runs_write_the_same_bytes_and_a_later_run_replaces_the_site_whole() {
    let (dir, out, first) = site_of("rules/2015", "doc-twice");
    // A chapter of an earlier run that the edition no longer has goes when
    // the site is replaced: the earlier run's marker lists its page.
    let more = dir.0.join("more");
    std::fs::create_dir(&more).unwrap();
    for path in bfr::edition::edition_files(&root().join("rules/2015")).unwrap() {
        std::fs::copy(&path, more.join(path.file_name().unwrap())).unwrap();
    }
    std::fs::write(
        more.join("stray.bfr"),
        "const stray: number ref CC-FEE p.14 \"Startavgifter\" = 1\n",
    )
    .unwrap();
    let (code, _, stderr) = bfr(&["doc", more.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(out.join("stray.html").is_file());
    std::fs::remove_dir_all(&more).unwrap();
    let (code, _, stderr) = bfr(&["doc", "rules/2015", "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(read_site(&out), first);
    // Nothing is left beside it.
    let beside: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(beside, ["site"]);
}

/// What a run killed while it wrote or removed a site leaves beside it goes
/// with the next run, if that run is over, the directory has not changed for
/// ten minutes and holds only what its marker lists; a live run's directory,
/// a recent one, or one holding a user's file stays.
#[test]
fn a_killed_runs_leftovers_beside_the_site_go_with_the_next_run() {
    let (dir, out, first) = site_of("rules/2015", "doc-leftovers");
    // A process that has ended: its id is free.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    child.wait().unwrap();
    let gone = child.id();
    let alive = std::process::id();
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let left = |suffix: &str, pid: u32, files: &[(&str, &str)], old: bool| {
        let path = dir.0.join(format!("site.bfr-doc-{suffix}-{pid}"));
        std::fs::create_dir(&path).unwrap();
        for (name, text) in files {
            std::fs::write(path.join(name), text).unwrap();
        }
        if old {
            std::fs::File::open(&path)
                .unwrap()
                .set_modified(hour_ago)
                .unwrap();
        }
        path
    };
    let marker = first[".bfr-doc"].as_str();
    // Killed after the marker and one page; killed before the marker; the
    // earlier site of a run killed while it removed it.
    let half = left(
        "new",
        gone,
        &[(".bfr-doc", marker), ("index.html", "<")],
        true,
    );
    let empty = left("old", gone + 1_000_000, &[], true);
    let earlier: Vec<(&str, &str)> = first
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let old = left("old", gone, &earlier, true);
    // Another run still writing; one whose process this one may not see,
    // changed a moment ago; one holding a note of the user's; one whose
    // marker lists nothing.
    let live = left("new", alive, &[(".bfr-doc", marker)], true);
    let recent = left("new", gone + 3_000_000, &[(".bfr-doc", marker)], false);
    let noted = left(
        "new",
        gone + 2_000_000,
        &[(".bfr-doc", marker), ("notes.txt", "mine")],
        true,
    );
    let unlisted = left(
        "old",
        gone + 2_000_000,
        &[(".bfr-doc", ""), ("report.html", "mine")],
        true,
    );
    let (code, _, stderr) = bfr(&["doc", "rules/2015", "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(read_site(&out), first);
    for path in [&half, &empty, &old] {
        assert!(!path.exists(), "{} stayed", path.display());
    }
    for path in [&live, &recent] {
        assert!(path.join(".bfr-doc").is_file(), "{} went", path.display());
    }
    assert_eq!(
        std::fs::read_to_string(noted.join("notes.txt")).unwrap(),
        "mine"
    );
    assert_eq!(
        std::fs::read_to_string(unlisted.join("report.html")).unwrap(),
        "mine"
    );
    // `site/.` names the site (a path ending in `.` cannot be renamed).
    let dotted = format!("{}/.", out.display());
    let (code, _, stderr) = bfr(&["doc", "rules/2015", "-o", &dotted]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(read_site(&out), first);
}

#[test]
fn a_link_to_a_site_directory_has_the_site_replaced_behind_it_and_stays_a_link() {
    let dir = TempDir::new("doc-link");
    let real = dir.0.join("real");
    std::fs::create_dir(&real).unwrap();
    let link = dir.0.join("link");
    std::os::unix::fs::symlink("real", &link).unwrap();
    let l = link.to_str().unwrap();
    for _ in 0..2 {
        let (code, _, stderr) = bfr(&["doc", "rules/2015", "-o", l]);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(real.join("index.html").is_file());
    }
    let mut names: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names, ["link", "real"]);
}

#[test]
fn a_directory_bfr_doc_did_not_write_or_a_file_is_refused_and_left_alone() {
    let dir = TempDir::new("doc-refuse");
    let mine = dir.0.join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "keep me").unwrap();
    let (code, stdout, stderr) = bfr(&["doc", "rules/2015", "-o", mine.to_str().unwrap()]);
    assert_eq!(code, 2, "{stdout}");
    assert!(
        stderr.contains(&format!("`{}`", mine.display())),
        "{stderr}"
    );
    assert!(stderr.contains("did not write"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(mine.join("notes.txt")).unwrap(),
        "keep me"
    );
    let file = dir.0.join("file.html");
    std::fs::write(&file, "x").unwrap();
    let (code, _, stderr) = bfr(&["doc", "rules/2015", "-o", file.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("is not a directory"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
    // A parent that cannot be made: the error names it, and no site is left.
    let under = file.join("site");
    let (code, _, stderr) = bfr(&["doc", "rules/2015", "-o", under.to_str().unwrap()]);
    assert_eq!(code, 3);
    assert!(
        stderr.contains(&format!("`{}`", file.display())),
        "{stderr}"
    );
    // An edition with errors gives no site.
    let bad = dir.0.join("bad.bfr");
    std::fs::write(&bad, "const x: number = y\n").unwrap();
    let site = dir.0.join("bad-site");
    let (code, _, _) = bfr(&["doc", bad.to_str().unwrap(), "-o", site.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(!site.exists());
}

#[test]
fn an_earlier_site_holding_files_of_its_users_is_not_replaced() {
    let dir = TempDir::new("doc-foreign");
    let site = dir.0.join("site");
    let s = site.to_str().unwrap();
    let (code, _, stderr) = bfr(&["doc", "rules/2015", "-o", s]);
    assert_eq!(code, 0, "{stderr}");
    // The edition kept inside the site it documents: replacing the site
    // would delete the edition.
    let edition = site.join("myedition");
    std::fs::create_dir(&edition).unwrap();
    for path in bfr::edition::edition_files(&root().join("rules/2015")).unwrap() {
        std::fs::copy(&path, edition.join(path.file_name().unwrap())).unwrap();
    }
    let (code, stdout, stderr) = bfr(&["doc", edition.to_str().unwrap(), "-o", s]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("holds `myedition`, which `bfr doc` did not write"),
        "{stderr}"
    );
    assert!(edition.join("scoring.bfr").is_file());
    assert!(site.join("index.html").is_file());
    // So is a note of the user's beside the pages, once the edition is out.
    std::fs::remove_dir_all(&edition).unwrap();
    std::fs::write(site.join("notes.txt"), "keep me").unwrap();
    let (code, _, stderr) = bfr(&["doc", "rules/2015", "-o", s]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("holds `notes.txt`"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(site.join("notes.txt")).unwrap(),
        "keep me"
    );
    // And a page of the user's own: the marker lists the pages the site has.
    std::fs::remove_file(site.join("notes.txt")).unwrap();
    std::fs::write(site.join("mine.html"), "<p>keep me</p>").unwrap();
    let (code, _, stderr) = bfr(&["doc", "rules/2015", "-o", s]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("holds `mine.html`"), "{stderr}");
    // Without it the site is replaced as before; what a desktop leaves in a
    // folder it has shown goes with the site.
    std::fs::remove_file(site.join("mine.html")).unwrap();
    std::fs::write(site.join(".DS_Store"), "finder").unwrap();
    let (code, _, stderr) = bfr(&["doc", "rules/2015", "-o", s]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!site.join(".DS_Store").exists());
    let marker = std::fs::read_to_string(site.join(".bfr-doc")).unwrap();
    assert!(
        marker.lines().any(|l| l == "index.html") && marker.lines().any(|l| l == "style.css"),
        "{marker}"
    );
}

#[test]
fn the_index_and_a_chapter_render_in_chromium_with_the_editions_text() {
    let program = program_2015();
    let (dir, out, pages) = site_of("rules/2015", "doc-chromium");
    let Some(chromium) = chromium() else { return };
    // Screenshots of the pages as they are.
    for page in ["index.html", "chairmans_cup_knockout.html"] {
        let png = dir.0.join(format!("{page}.png"));
        run_chromium(
            &chromium,
            &dir.0,
            &out.join(page),
            &[
                format!("--screenshot={}", png.display()),
                "--window-size=1200,1600".into(),
            ],
        );
        let bytes = std::fs::read(&png).expect("the screenshot is written");
        assert!(bytes.starts_with(b"\x89PNG"), "{page}: a PNG");
        assert!(bytes.len() > 20_000, "{page}: {} bytes", bytes.len());
    }
    // The text shown: copies of the pages in the site (so the style sheet and
    // links load) with the probe appended.
    let shown = |page: &str| {
        let copy = out.join(format!("probe-{page}"));
        std::fs::write(&copy, format!("{}{SHOWN_TEXT_PROBE}", pages[page])).unwrap();
        shown_text_at(&chromium, &dir.0, &copy)
    };
    let index = shown("index.html");
    let edition = program.edition.as_ref().unwrap();
    assert!(index.contains(&edition.name), "{index:?}");
    for c in &program.competitions {
        assert!(index.iter().any(|l| l.starts_with(&c.title)), "{}", c.title);
    }
    for page in pages
        .keys()
        .filter(|p| p.ends_with(".html") && *p != "index.html" && *p != "document.html")
    {
        let file = page.replace(".html", ".bfr");
        assert!(index.iter().any(|l| l.starts_with(&file)), "{file}");
    }
    let chapter = shown("chairmans_cup_knockout.html");
    let cup = program
        .competitions
        .iter()
        .find(|c| c.name == "cup")
        .unwrap();
    // Every stage's row of the table, in the document's order, shows its title.
    for s in &cup.stages {
        // Its box in the flow, and its row in the table.
        let boxed = format!("{}. {}", s.order, s.title);
        assert!(chapter.contains(&boxed), "{boxed}");
        let row = format!(
            "{} {} {} {}",
            s.order,
            s.title,
            s.name,
            s.schedule.day.unwrap()
        );
        assert!(chapter.iter().any(|l| l.starts_with(&row)), "{row}");
    }
    let (_, rule) = program
        .rules
        .iter()
        .enumerate()
        .find(|(_, r)| r.name == "cc_seating")
        .unwrap();
    assert!(
        chapter
            .iter()
            .any(|l| l.starts_with("SCALE") && l.contains("cc_seating(")),
        "{chapter:?}"
    );
    assert!(chapter.iter().any(|l| *l
        == format!(
            "{} · p. 18 · “Seating Rights”",
            rule.source.as_ref().unwrap().id
        )));
}

/// The x of each stage's box in a flow.
fn box_x(svg: &str) -> BTreeMap<String, u32> {
    svg.split("<g class=\"stage\" data-stage=\"")
        .skip(1)
        .map(|rest| {
            let name = rest[..rest.find('"').unwrap()].to_string();
            let at = rest.find("<rect x=\"").unwrap() + 9;
            let x = rest[at..at + rest[at..].find('"').unwrap()]
                .parse()
                .unwrap();
            (name, x)
        })
        .collect()
}

#[test]
fn every_arrow_of_a_flow_points_right_and_a_changed_stage_shows_its_new_data() {
    use crate::support::{Change, edition_2015_with};
    let loaded = edition_2015_with(&[
        Change::InStage("cc32", "boards = 32", "boards = 28"),
        Change::Text(
            "chairmans_cup_knockout.bfr",
            "stage cc32 \"CC32\"",
            "stage cc32 \"CC 32 lag\"",
        ),
    ]);
    let program = loaded
        .checked
        .as_ref()
        .expect("the variant checks")
        .program
        .clone();
    let site = bfr::doc::site(
        &program,
        &loaded.sources,
        &loaded.diagnostics,
        Path::new("rules/2015"),
    );
    let page = &site
        .iter()
        .find(|f| f.name == "chairmans_cup_knockout.html")
        .unwrap()
        .text;
    let html = section(page, "competition-cup");
    let svg = &html[html.find("<svg").unwrap()..html.find("</svg>").unwrap()];
    let cc32 = &svg[svg.find("data-stage=\"cc32\"").unwrap()..];
    let cc32 = &cc32[..cc32.find("</g>").unwrap()];
    assert!(
        cc32.contains("1. CC 32 lag") && cc32.contains("28 boards · förmiddag"),
        "{cc32}"
    );
    assert!(!svg.contains(">1. CC32<"));
    let x = box_x(svg);
    let cup = program
        .competitions
        .iter()
        .find(|c| c.name == "cup")
        .unwrap();
    for (from, to, _) in routes_of(cup) {
        if let Some(to_x) = x.get(&to) {
            assert!(*to_x > x[&from], "{from} → {to}");
        }
    }
}

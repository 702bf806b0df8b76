//! `bfr schedule`: the programme day by day, the deadlines, and the iCalendar file
//! read back by a real iCalendar parser (the `icalendar` crate's).

use crate::support::{Change, TempDir, bfr, copy_2015, edition_2015_with, trim_lines};
use chrono::{NaiveDate, NaiveDateTime};
use icalendar::{Calendar, CalendarDateTime, Component, DatePerhapsTime, Event};

/// CC-STAGES, p. 16, as the document lists the knockout stages: the edition's
/// stage name, the title, and the day. Written from the document, not the edition.
const CC_STAGES: [(&str, &str, (i32, u32, u32)); 14] = [
    ("cc32", "CC32", (2015, 7, 27)),
    ("bc32_a", "BC32-A", (2015, 7, 27)),
    ("cc16", "CC16", (2015, 7, 27)),
    ("bc32_b", "BC32-B", (2015, 7, 27)),
    ("bc16_a", "BC16-A", (2015, 7, 27)),
    ("cc_qf", "CC Kvartsfinal", (2015, 7, 28)),
    ("bc16_b", "BC16-B", (2015, 7, 28)),
    ("bc08_a", "BC08-A", (2015, 7, 28)),
    ("cc_sf", "CC Semifinal", (2015, 7, 29)),
    ("bc08_b", "BC08-B", (2015, 7, 29)),
    ("bc04_a", "BC04-A", (2015, 7, 29)),
    ("cc_final", "CC Final", (2015, 7, 30)),
    ("bc04_b", "BC04-B", (2015, 7, 30)),
    ("bc_po34", "BC Play-Off 3/4", (2015, 7, 30)),
];

fn date((y, m, d): (i32, u32, u32)) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn parse(text: &str) -> Calendar {
    text.parse::<Calendar>()
        .unwrap_or_else(|e| panic!("the calendar parses: {e}\n{text}"))
}

fn event<'a>(cal: &'a Calendar, uid: &str) -> &'a Event {
    cal.events()
        .find(|e| e.get_uid() == Some(uid))
        .unwrap_or_else(|| panic!("an event {uid}"))
}

fn start_date(e: &Event) -> NaiveDate {
    match e.get_start() {
        Some(DatePerhapsTime::Date(d)) => d,
        other => panic!("an all-day event, found {other:?}"),
    }
}

fn start_time(e: &Event) -> NaiveDateTime {
    match e.get_start() {
        Some(DatePerhapsTime::DateTime(CalendarDateTime::Floating(t))) => t,
        other => panic!("a floating date-time, found {other:?}"),
    }
}

fn ics_of(edition: &bfr::edition::Loaded) -> String {
    let program = &edition
        .checked
        .as_ref()
        .expect("the edition checks")
        .program;
    bfr::schedule::ics::calendar(&bfr::schedule::programme(program).unwrap())
}

#[test]
fn the_ics_file_holds_every_stage_of_cc_stages_on_its_day() {
    let dir = TempDir::new("schedule-ics");
    let file = dir.0.join("festival.ics");
    let file = file.to_str().unwrap();
    let (code, stdout, stderr) = bfr(&["schedule", "rules/2015", "--ics", file]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Mon 2015-07-27"), "{stdout}");
    let text = std::fs::read_to_string(file).unwrap();
    let cal = parse(&text);
    for (name, title, day) in CC_STAGES {
        let e = event(&cal, &format!("cup.{name}@bridgefestivalen-2015"));
        assert_eq!(start_date(e), date(day), "{name}");
        assert_eq!(
            e.get_end(),
            Some(DatePerhapsTime::Date(date(day).succ_opt().unwrap())),
            "{name} is one day"
        );
        assert!(e.get_summary().unwrap().contains(title), "{name}");
        let description = e.get_description().unwrap();
        assert!(description.contains("CC-STAGES p.16"), "{description}");
    }
    // Gröna Hissen: Saturday and Sunday (CC-GH p. 15), DTEND the day after.
    let gh = event(&cal, "cup.gh@bridgefestivalen-2015");
    assert_eq!(start_date(gh), date((2015, 7, 25)));
    assert_eq!(
        gh.get_end(),
        Some(DatePerhapsTime::Date(date((2015, 7, 27))))
    );
    // A deadline at its minute, with its rule and page.
    let reg = event(&cal, "cc_registration_deadline@bridgefestivalen-2015");
    assert_eq!(
        start_time(reg),
        date((2015, 7, 24)).and_hms_opt(20, 0, 0).unwrap()
    );
    assert!(reg.get_description().unwrap().contains("CC-REG p.14"));
    // The document's 2014 deadline says it is outside the edition's year.
    let fee = event(
        &cal,
        "sm_open_final_table_fee_deadline@bridgefestivalen-2015",
    );
    let description = fee.get_description().unwrap();
    assert!(
        description.ends_with("Not in the edition's year 2015"),
        "{description}"
    );
    let open = event(
        &cal,
        "sm_open_vacancy_deadline_listed@bridgefestivalen-2015",
    );
    assert_eq!(
        start_time(open),
        date((2015, 7, 30)).and_hms_opt(9, 0, 0).unwrap()
    );
    // SM Lag Veteran's stages have no day of their own: each of its two
    // competitions is one event over its days, 28–30 July (LV-FEE p.11), its
    // stages in the description.
    let lv = event(&cal, "lv_ko-days@bridgefestivalen-2015");
    assert_eq!(start_date(lv), date((2015, 7, 28)));
    assert_eq!(
        lv.property_value("DTEND"),
        Some("20150731"),
        "the day after the last, exclusive"
    );
    let description = lv.get_description().unwrap();
    assert!(description.starts_with("LV-FEE p.11"), "{description}");
    assert!(
        description.contains("\nGröna Hissen: 7 boards\n")
            && description.contains("\nFinal: 24 boards, system level A-nivå"),
        "{description}"
    );
    let series = event(&cal, "lv_series-days@bridgefestivalen-2015");
    assert_eq!(series.get_summary(), Some("SM Lag Veteran"));
    // 14 stages, Gröna Hissen, the two SM Lag Veteran competitions and 8 deadlines.
    assert_eq!(cal.events().count(), 14 + 1 + 2 + 8);
}

#[test]
fn the_ics_file_is_the_same_byte_for_byte() {
    let dir = TempDir::new("schedule-same");
    let (a, b) = (dir.0.join("a.ics"), dir.0.join("b.ics"));
    for f in [&a, &b] {
        let (code, _, stderr) = bfr(&["schedule", "rules/2015", "--ics", f.to_str().unwrap()]);
        assert_eq!(code, 0, "{stderr}");
    }
    let (a, b) = (std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    assert_eq!(a, b);
    let text = String::from_utf8(a).unwrap();
    // The stamp is the edition's `updated` date, not the clock.
    assert!(text.contains("DTSTAMP:20150725T000000Z"), "{text}");
}

#[test]
fn an_edition_with_moved_dates_gives_a_moved_calendar() {
    let moved = edition_2015_with(&[
        Change::InStage("cc_final", "day = Thu 2015-07-30", "day = Fri 2015-07-31"),
        Change::Text(
            "chairmans_cup.bfr",
            "= Fri 2015-07-24 20:00",
            "= Thu 2015-07-23 18:00",
        ),
        Change::Text(
            "chairmans_cup.bfr",
            "cc_gh_first_day: date ref CC-GH p.15 \"Lördag 25 juli söndag 26 juli\" = Sat 2015-07-25",
            "cc_gh_first_day: date ref CC-GH p.15 \"Lördag 25 juli söndag 26 juli\" = Fri 2015-07-24",
        ),
        // SM Lag Veteran a day longer: its example of the days with it.
        Change::Text(
            "sm_lag_veteran.bfr",
            "lv_last_day: date ref LV-FEE p.11 \"SM-tävlingar lag\" = 2015-07-30",
            "lv_last_day: date ref LV-FEE p.11 \"SM-tävlingar lag\" = 2015-07-31",
        ),
        Change::Text(
            "sm_lag_veteran.bfr",
            "lv_last_day - lv_first_day == 48 h",
            "lv_last_day - lv_first_day == 72 h",
        ),
    ]);
    let cal = parse(&ics_of(&moved));
    let final_ = event(&cal, "cup.cc_final@bridgefestivalen-2015");
    assert_eq!(start_date(final_), date((2015, 7, 31)));
    let gh = event(&cal, "cup.gh@bridgefestivalen-2015");
    assert_eq!(start_date(gh), date((2015, 7, 24)));
    let reg = event(&cal, "cc_registration_deadline@bridgefestivalen-2015");
    assert_eq!(
        start_time(reg),
        date((2015, 7, 23)).and_hms_opt(18, 0, 0).unwrap()
    );
    // What did not move stays.
    let semifinal = event(&cal, "cup.cc_sf@bridgefestivalen-2015");
    assert_eq!(start_date(semifinal), date((2015, 7, 29)));
    let lv = event(&cal, "lv_ko-days@bridgefestivalen-2015");
    assert_eq!(start_date(lv), date((2015, 7, 28)));
    assert_eq!(lv.property_value("DTEND"), Some("20150801"));
    // And the unchanged edition differs from the moved one exactly there.
    let plain = parse(&ics_of(&edition_2015_with(&[])));
    let final_2015 = event(&plain, "cup.cc_final@bridgefestivalen-2015");
    assert_eq!(start_date(final_2015), date((2015, 7, 30)));
}

#[test]
fn the_programme_reads_day_by_day() {
    let (code, stdout, stderr) = bfr(&["schedule", "rules/2015"]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("programme-2015", trim_lines(&stdout));
}

/// A competition dated as a whole on one day is listed within that day: its
/// date is said once, and the day's line for it has no "day k of n".
#[test]
fn a_one_day_competition_is_listed_within_its_day() {
    let dir = copy_2015("schedule-one-day");
    let file = dir.0.join("sm_lag_veteran.bfr");
    let text = std::fs::read_to_string(&file).unwrap();
    let text = text.replace("= 2015-07-30", "= 2015-07-28").replace(
        "lv_last_day - lv_first_day == 48 h",
        "lv_last_day - lv_first_day == 0 h",
    );
    std::fs::write(&file, text).unwrap();
    let (code, stdout, stderr) = bfr(&["schedule", &dir.0.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.matches("2015-07-28").count(), 1, "{stdout}");
    let day = &stdout[stdout.find("Tue 2015-07-28\n").unwrap()..];
    let day = &day[..day.find("\n\n").unwrap()];
    let veteran: Vec<&str> = day
        .lines()
        .filter(|l| l.contains("Lag Veteran"))
        .map(str::trim)
        .collect();
    assert_eq!(
        veteran,
        [
            "Öppna SM Lag Veteran: stages not dated one by one  [LV-FEE p.11 \"SM-tävlingar lag\"]",
            "Öppna SM Lag Veteran: Gröna Hissen — 7 boards  [LV-FORMAT p.12 \"Vid fler än 16 lag\"]",
            "Öppna SM Lag Veteran: Åttondelsfinal — 20 boards, system level B-nivå  [LV-KO p.12 \"Slutspel vid fler än 16 lag\"]",
            "Öppna SM Lag Veteran: Kvartsfinal — 20 boards, system level B-nivå  [LV-KO p.12 \"Slutspel vid fler än 16 lag\"]",
            "Öppna SM Lag Veteran: Semifinal — 20 boards, system level B-nivå  [LV-KO p.12 \"Slutspel vid fler än 16 lag\"]",
            "Öppna SM Lag Veteran: Final — 24 boards, system level A-nivå  [LV-KO p.12 \"Slutspel vid fler än 16 lag\"]",
            "Öppna SM Lag Veteran: Match om tredjepris — 24 boards  [LV-KO p.12 \"Slutspel vid fler än 16 lag\"]",
            "SM Lag Veteran: stages not dated one by one  [LV-FEE p.11 \"SM-tävlingar lag\"]",
            "SM Lag Veteran: Serie — boards by the field size (lv_series_boards)  [LV-FORMAT p.12 \"Spelformer\"]",
        ],
        "{day}"
    );
    assert!(!stdout.contains("listed above"), "{stdout}");
}

#[test]
fn one_day_competitions_on_a_day_without_dated_stages_share_its_heading() {
    let dir = copy_2015("schedule-one-free-day");
    let file = dir.0.join("sm_lag_veteran.bfr");
    let text = std::fs::read_to_string(&file).unwrap();
    let text = text
        .replace("= 2015-07-28\n", "= 2015-08-02\n")
        .replace("= 2015-07-30\n", "= 2015-08-02\n");
    std::fs::write(&file, text).unwrap();
    let (code, stdout, stderr) = bfr(&["schedule", &dir.0.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.matches("2015-08-02").count(), 1, "{stdout}");
    let day = &stdout[stdout.find("\nSun 2015-08-02\n").unwrap()..];
    let day = &day[1..day[1..].find("\n\n").unwrap()];
    let headings: Vec<&str> = day
        .lines()
        .filter(|l| l.contains("not dated one by one"))
        .map(str::trim)
        .collect();
    assert_eq!(
        headings,
        [
            "Öppna SM Lag Veteran: stages not dated one by one  [LV-FEE p.11 \"SM-tävlingar lag\"]",
            "SM Lag Veteran: stages not dated one by one  [LV-FEE p.11 \"SM-tävlingar lag\"]",
        ],
        "{day}"
    );
    assert_eq!(
        day.lines().filter(|l| l.contains("Lag Veteran")).count(),
        9,
        "{day}"
    );
    // The last of three days of another competition, listed only for the
    // one-day competition, does not single out that day: its block says all
    // three.
    let text = std::fs::read_to_string(&file).unwrap();
    let (before, after) = text.split_at(text.find("competition lv_series ").unwrap());
    let moved = before.replace("first_day = lv_first_day", "first_day = 2015-07-31");
    assert_ne!(moved, before);
    std::fs::write(&file, format!("{moved}{after}")).unwrap();
    let (code, stdout, stderr) = bfr(&["schedule", &dir.0.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("Fri 2015-07-31 – Sun 2015-08-02: Öppna SM Lag Veteran"),
        "{stdout}"
    );
    assert!(stdout.contains("\nSun 2015-08-02\n"), "{stdout}");
    assert!(!stdout.contains("listed above"), "{stdout}");
}

#[test]
fn the_programme_as_json() {
    let (code, stdout, stderr) = bfr(&["--format", "json", "schedule", "rules/2015"]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let days = v["days"].as_array().unwrap();
    let monday = days
        .iter()
        .find(|d| d["date"]["day"] == 27)
        .expect("Monday 27 July");
    let titles: Vec<&str> = monday["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["title"].as_str().unwrap())
        .collect();
    // Morning first, then afternoon, afternoon-evening and evening (DayPart's order).
    assert_eq!(titles, ["CC32", "BC32-A", "BC32-B", "CC16", "BC16-A"]);
    let deadlines = v["deadlines"].as_array().unwrap();
    let registration = deadlines
        .iter()
        .find(|d| d["name"] == "cc_registration_deadline")
        .unwrap();
    assert_eq!(registration["at_shown"], "Fri 2015-07-24 20:00");
    assert_eq!(registration["source"]["id"], "CC-REG");
    assert!(registration.get("outside_years").is_none());
    // The document's Open-final table fee is due in 2014, as it writes it: the
    // programme lists it, flagged as `bfr check` flags the date (W0102).
    let open_final = deadlines
        .iter()
        .find(|d| d["name"] == "sm_open_final_table_fee_deadline")
        .unwrap();
    assert_eq!(open_final["at_shown"], "Sat 2014-08-02 08:45");
    assert_eq!(open_final["outside_years"], "2015");
    assert_eq!(v["time_limits"].as_array().unwrap().len(), 6);
    // SM Lag Veteran's competitions are dated as a whole (LV-FEE p.11): their
    // stages are listed under those days, none left undated.
    let within = v["competition_days"].as_array().unwrap();
    let names: Vec<&str> = within
        .iter()
        .map(|c| c["competition"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["lv_ko", "lv_series"]);
    let lv_ko = &within[0];
    assert_eq!(
        (&lv_ko["first_day"]["day"], &lv_ko["last_day"]["day"]),
        (&28.into(), &30.into())
    );
    assert_eq!(lv_ko["source"]["id"], "LV-FEE");
    assert_eq!(lv_ko["items"].as_array().unwrap().len(), 6);
    assert_eq!(v["undated"], serde_json::json!([]));
}

#[test]
fn a_calendar_that_cannot_be_written_is_an_io_error() {
    let dir = TempDir::new("schedule-io");
    let file = dir.0.join("no-such-dir").join("x.ics");
    let (code, _, stderr) = bfr(&["schedule", "rules/2015", "--ics", file.to_str().unwrap()]);
    assert_eq!(code, 3, "{stderr}");
    assert!(!file.exists());
}

#[test]
fn a_directory_named_for_the_calendar_is_refused_in_words() {
    let dir = TempDir::new("schedule-ics-dir");
    let d = dir.0.to_str().unwrap();
    let (code, _, stderr) = bfr(&["schedule", "rules/2015", "--ics", d]);
    assert_eq!(code, 3, "{stderr}");
    assert_eq!(
        stderr,
        format!("error: cannot write `{d}`: it is a directory; name a file")
    );
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 0);
}

#[test]
fn a_named_pipe_gets_the_calendar_and_stays_a_pipe() {
    use std::os::unix::fs::FileTypeExt;
    let dir = TempDir::new("schedule-ics-fifo");
    let pipe = dir.0.join("calendar");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&pipe)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let pipe = pipe.clone();
        std::thread::spawn(move || std::fs::read_to_string(pipe).unwrap())
    };
    let (code, _, stderr) = bfr(&["schedule", "rules/2015", "--ics", pipe.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let read = reader.join().unwrap();
    assert!(read.starts_with("BEGIN:VCALENDAR"), "{read}");
    assert!(
        std::fs::symlink_metadata(&pipe)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 1);
}

#[test]
fn a_full_device_is_an_io_error_and_stays_a_device() {
    use std::os::unix::fs::FileTypeExt;
    let dir = TempDir::new("schedule-ics-full");
    let full = dir.0.join("full");
    // A copy of /dev/full's device node; only a privileged user may make one.
    let made = std::process::Command::new("mknod")
        .args(["-m", "666", full.to_str().unwrap(), "c", "1", "7"])
        .status();
    if !made.is_ok_and(|s| s.success()) {
        return;
    }
    let f = full.to_str().unwrap();
    let (code, _, stderr) = bfr(&["schedule", "rules/2015", "--ics", f]);
    assert_eq!(code, 3, "{stderr}");
    assert_eq!(
        stderr,
        format!("error: cannot write `{f}`: no space left on the device")
    );
    let (code, _, stderr) = bfr(&["check", "rules/2015", "--write-baseline", f]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains(&format!("cannot write `{f}`")), "{stderr}");
    assert!(
        std::fs::symlink_metadata(&full)
            .unwrap()
            .file_type()
            .is_char_device()
    );
}

// ── appeal deadlines in one step ──────────────────────────────────────────────

#[test]
fn an_appeal_deadline_is_one_eval_and_explains_its_rules() {
    let (code, stdout, stderr) = bfr(&[
        "explain",
        "rules/2015",
        "cc_appeal_deadline(match_end: Sat 2015-07-25 15:00, ruling_announced: Sat 2015-07-25 15:21)",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("Sat 2015-07-25 15:31\n"), "{stdout}");
    assert!(
        stdout.contains("cc_post_match_ruling_appeal_time = 10 min"),
        "{stdout}"
    );
    assert!(stdout.contains("CC-APPEAL p.21"), "{stdout}");
    // A result of round 13, the last Gröna Hissen session: 15 minutes after the
    // final result; of round 12: 30 minutes after the session.
    let gh = |round: &str| {
        let e = format!(
            "cc_gh_result_appeal_deadline({round}, Sun 2015-07-26 19:30, Sun 2015-07-26 20:10)"
        );
        let (code, stdout, stderr) = bfr(&["eval", "rules/2015", &e]);
        assert_eq!(code, 0, "{stderr}");
        stdout
    };
    assert_eq!(gh("13 rounds"), "Sun 2015-07-26 20:25\n");
    assert_eq!(gh("12 rounds"), "Sun 2015-07-26 20:00\n");
    let (code, stdout, _) = bfr(&[
        "eval",
        "rules/2015",
        "sm_ruling_appeal_deadline(25, 26, Sat 2015-08-01 15:00, Sat 2015-08-01 14:40)",
    ]);
    assert_eq!((code, stdout.as_str()), (0, "Sat 2015-08-01 14:45\n"));
}

#[test]
fn an_edition_with_a_longer_appeal_time_gives_a_later_deadline() {
    let longer = edition_2015_with(&[Change::Text(
        "chairmans_cup_conduct.bfr",
        "cc_ruling_appeal_time: duration ref CC-APPEAL p.21 \"Överklaganden\" = 30 min",
        "cc_ruling_appeal_time: duration ref CC-APPEAL p.21 \"Överklaganden\" = 45 min",
    )]);
    let program = &longer.checked.expect("the edition checks").program;
    let (index, _) = program.rule("cc_appeal_deadline").unwrap();
    let at = |d: u8, m: u16| {
        bfr::ir::Value::DateTime(
            bfr::ir::Date {
                year: 2015,
                month: 7,
                day: d as i8,
            },
            m,
        )
    };
    let value = bfr::eval::Evaluator::new(program)
        .call(
            index,
            vec![at(25, 15 * 60), at(25, 14 * 60)],
            Default::default(),
        )
        .unwrap();
    assert_eq!(value, at(25, 15 * 60 + 45));
}

/// `bfr schedule rules/2015 --ics NAMED` with standard output going to `file`,
/// opened new (`>`) or added to (`>>`); the file's contents after.
fn schedule_into(file: &std::path::Path, named: &str, append: bool) -> String {
    let out = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(!append)
        .append(append)
        .open(file)
        .unwrap();
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_bfr"))
        .args(["schedule", "rules/2015", "--ics", named])
        .current_dir(crate::support::root())
        .env(
            "BFR_CACHE_DIR",
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bfr-cache"),
        )
        .stdout(out)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::read_to_string(file).unwrap()
}

#[test]
fn the_calendar_to_standard_output_keeps_the_programme_beside_it() {
    let dir = TempDir::new("schedule-ics-stdout");
    let file = dir.0.join("out.txt");
    for named in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
        // `> out.txt`: the calendar, then the programme, both in the file.
        let both = schedule_into(&file, named, false);
        assert!(both.starts_with("BEGIN:VCALENDAR"), "{named}: {both}");
        let end = both.find("END:VCALENDAR\r\n").expect("the whole calendar") + 15;
        assert!(
            both[end..].starts_with("Bridgefestivalen 2015: the programme"),
            "{named}: {}",
            &both[end..]
        );
        // `>> out.txt`: added after what the file held.
        std::fs::write(&file, "kept\n").unwrap();
        let added = schedule_into(&file, named, true);
        assert_eq!(added.strip_prefix("kept\n"), Some(both.as_str()), "{named}");
    }
}

/// The errors of a load, by code and message.
fn errors(loaded: &bfr::edition::Loaded) -> Vec<(&'static str, String)> {
    loaded
        .diagnostics
        .sorted()
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code, d.message.clone()))
        .collect()
}

/// A stage's days in the wrong order would put it on no day of the programme;
/// days over a year would list it on each: both are errors at `last_day`. A
/// year exactly is a stage of the programme.
#[test]
fn a_stage_ends_on_or_after_its_first_day_and_within_a_year() {
    let with_last_day = |to: &str| {
        edition_2015_with(&[Change::Text(
            "chairmans_cup_knockout.bfr",
            "last_day = cc_gh_last_day",
            to,
        )])
    };
    for (last_day, message, label) in [
        (
            "last_day = 2015-07-24",
            "`last_day` Fri 2015-07-24 is before the qualification's first day Sat 2015-07-25",
            "the days end here, before they begin",
        ),
        (
            "last_day = 2016-07-25",
            "the qualification's days Sat 2015-07-25 .. Mon 2016-07-25 are 367 days; a qualification lasts at most 366",
            "day 367 of the qualification",
        ),
    ] {
        let loaded = with_last_day(last_day);
        assert!(loaded.checked.is_none(), "{last_day}");
        assert_eq!(
            errors(&loaded),
            [("E0410", message.to_string())],
            "{last_day}"
        );
        // Said at the last day, with the first day it is measured from.
        let sorted = loaded.diagnostics.sorted();
        let d = sorted.iter().find(|d| d.is_error()).unwrap();
        assert_eq!(d.label, label);
        let notes: Vec<&str> = d.notes.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(notes, ["the first day, Sat 2015-07-25"], "{last_day}");
    }
    // A competition's last day without its first dates nothing: said, not dropped.
    let alone = edition_2015_with(&[Change::Text(
        "sm_lag_veteran.bfr",
        "\"Vid maximalt 16 lag\" {\n  first_day = lv_first_day\n",
        "\"Vid maximalt 16 lag\" {\n",
    )]);
    assert_eq!(
        errors(&alone),
        [(
            "E0410",
            "the competition has a `last_day` (Thu 2015-07-30) but no first day".to_string()
        )]
    );
    let year = with_last_day("last_day = 2016-07-24");
    let program = &year.checked.as_ref().expect("a year checks").program;
    let programme = bfr::schedule::programme(program).unwrap();
    let gh_days = programme
        .days
        .iter()
        .filter(|d| d.items.iter().any(|i| i.stage == "gh"))
        .count();
    assert_eq!(gh_days, 366);
}

/// A stage on the calendar's last day: the day after it has no four-digit
/// year, so its event gives its length (RFC 5545 DURATION) for its end.
#[test]
fn a_stage_on_the_last_day_of_the_calendar_gives_its_length() {
    let edge = edition_2015_with(&[Change::InStage(
        "cc_final",
        "day = Thu 2015-07-30",
        "day = Fri 9999-12-31",
    )]);
    let text = ics_of(&edge);
    let cal = parse(&text);
    let final_ = event(&cal, "cup.cc_final@bridgefestivalen-2015");
    assert_eq!(start_date(final_), date((9999, 12, 31)));
    assert_eq!(final_.property_value("DURATION"), Some("P1D"), "{text}");
    assert_eq!(final_.property_value("DTEND"), None);
    // Every other stage keeps its end.
    let semifinal = event(&cal, "cup.cc_sf@bridgefestivalen-2015");
    assert_eq!(semifinal.property_value("DTEND"), Some("20150730"));
}

/// An edition without a header (no name) on one day: the programme's title
/// stands alone, and the competitions keep the edition's order whatever
/// their stages' numbers.
#[test]
fn an_edition_without_a_header_has_a_programme_of_its_own() {
    let dir = TempDir::new("schedule-headerless");
    std::fs::write(dir.0.join("e.bfr"), headerless()).unwrap();
    let (code, stdout, stderr) = bfr(&["schedule", &dir.0.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("The programme\n\nSat 2030-06-01\n"),
        "{stdout}"
    );
    let alpha = stdout.find("Alpha: Alpha final").expect("alpha");
    let beta = stdout.find("Beta: Beta final").expect("beta");
    assert!(alpha < beta, "{stdout}");
}

/// Two competitions of one stage each, on one day and part: `alpha`'s
/// numbered 1500, `beta`'s 1.
fn headerless() -> String {
    let competition = |name: &str, title: &str, order: u32| {
        format!(
            "competition {name} \"{title}\" ref X-A p.1 \"A\" {{\n  stage final \"{title} final\" ref X-A p.1 \"A\" {{\n    teams = 2\n    boards = 16\n    draw = Draw.Fixed\n    order = {order}\n    day = 2030-06-01\n    part = Part.Morning\n    winners -> place 1\n    losers -> place 2\n  }}\n}}\n"
        )
    };
    format!(
        "enum Draw {{ Fixed }}\nenum Part {{ Morning }}\n\n{}\n{}",
        competition("alpha", "Alpha", 1500),
        competition("beta", "Beta", 1)
    )
}

//! Names as an editor or a director types them: a Swedish letter in a name gets a
//! message saying names are ASCII, with the spelling to write, and a bare enum
//! variant gets the qualified name.

use crate::support::{EDITION_2015, bfr};

#[test]
fn a_swedish_letter_in_an_enum_value_on_the_command_line_gets_the_ascii_spelling() {
    let (code, _, stderr) = bfr(&["eval", "--color", "never", EDITION_2015, "District.Skåne"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr
            .contains("[E0009] Error: `Skåne`: names are written in ASCII letters, digits and `_`"),
        "{stderr}"
    );
    assert!(stderr.contains("`å` is not an ASCII letter"), "{stderr}");
    assert!(stderr.contains("Help: write `Skane`"), "{stderr}");
    // The ASCII spelling is the enum's value.
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
    // A near miss of a variant too.
    let (_, _, stderr) = bfr(&["eval", "--color", "never", EDITION_2015, "Skaane"]);
    assert!(
        stderr.contains("did you mean `District.Skane`?"),
        "{stderr}"
    );
}

#[test]
fn names_in_strings_and_comments_may_be_swedish() {
    let (code, stdout, stderr) = bfr(&["eval", EDITION_2015, "\"Skåne\" // Örebro"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Skåne"), "{stdout}");
}

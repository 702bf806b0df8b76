use super::format;

fn fmt(text: &str) -> String {
    format(text).unwrap_or_else(|at| format!("<no token at {at}>"))
}

#[test]
fn spacing_is_canonical() {
    assert_eq!(
        fmt("const  a :SEK/player ref CC-FEE p.14 \"x\"=f( a,2 )+ -3\n"),
        "const a: SEK/player ref CC-FEE p.14 \"x\" = f(a, 2) + -3\n"
    );
    assert_eq!(
        fmt("fn f(x:VP)->VP=x / 2 VP\n"),
        "fn f(x: VP) -> VP = x / 2 VP\n"
    );
    assert_eq!(
        fmt("const a: VP = xs [1] .b\n"),
        "const a: VP = xs[1] . b\n"
    );
    assert_eq!(
        fmt("const a: bool = not (b) and c(d)\n"),
        "const a: bool = not (b) and c(d)\n"
    );
}

#[test]
fn indentation_follows_brackets_and_continuations() {
    let input = "fn f(x: VP) -> bool\nref A-B\n{\nlet y = x;\n      y > 1 VP\n and y < 3 VP\n}\n";
    assert_eq!(
        fmt(input),
        "fn f(x: VP) -> bool\n  ref A-B\n{\n  let y = x;\n  y > 1 VP\n    and y < 3 VP\n}\n"
    );
}

#[test]
fn comments_and_blank_line_groups_are_kept() {
    let input = "\n\n// head   \n\n\n\n/// doc\nconst a: VP = 1 VP // why\n  // before b\nconst b: VP = 2 VP\n\n";
    assert_eq!(
        fmt(input),
        "// head\n\n/// doc\nconst a: VP = 1 VP // why\n// before b\nconst b: VP = 2 VP\n"
    );
}

#[test]
fn arms_are_aligned_on_their_arrows() {
    let input = "scale s(x: VP) -> VP {\n0 VP <= x < 10 VP => 1 VP\nx >= 10 VP => 2 VP\n}\n";
    assert_eq!(
        fmt(input),
        "scale s(x: VP) -> VP {\n  0 VP <= x < 10 VP => 1 VP\n  x >= 10 VP        => 2 VP\n}\n"
    );
}

#[test]
fn written_joins_that_carry_meaning_stay() {
    assert_eq!(fmt("const a: VP = 1..3\n"), "const a: VP = 1..3\n");
    assert_eq!(fmt("const a: VP = 1 ..3\n"), "const a: VP = 1 .. 3\n");
    assert_eq!(fmt("const a: %vol = 5 %vol\n"), "const a: %vol = 5 %vol\n");
    assert_eq!(fmt("const a: VP = 20VP\n"), "const a: VP = 20 VP\n");
    // Glued to `ref`, a rule ID and its pages are not seen whole by the scan.
    assert_eq!(
        fmt("const a: VP refCC-FEEp.1,2 = 1\n"),
        "const a: VP refCC-FEEp.1,2 = 1\n"
    );
    assert_eq!(
        fmt("const a: VP = f(1 ,2)-g(x -y, 3,4)\n"),
        "const a: VP = f(1, 2) - g(x - y, 3,4)\n"
    );
}

#[test]
fn strings_over_lines_are_kept_byte_for_byte() {
    let input = "procedure p {\n   \"one\n   two  \"\n}\n";
    assert_eq!(fmt(input), "procedure p {\n  \"one\n   two  \"\n}\n");
}

#[test]
fn formatting_twice_changes_nothing() {
    let input = "scale s(x: VP)->VP{domain x>=0 VP\n0 VP<=x<10 VP=>1 VP,\n x>=10 VP =>2 VP}\n";
    let once = fmt(input);
    assert_eq!(fmt(&once), once);
}

/// A word that is a keyword only where it stands is a name elsewhere: a call
/// of a fn named `out` or `period` is written as a call, while a route's
/// `place (…)` and `places (…)` keep their space.
#[test]
fn a_call_of_a_name_that_is_a_keyword_elsewhere_is_a_call() {
    assert_eq!(
        fmt("fn out (x: VP) -> VP = x\nconst a: VP = out (3 VP) + period(2 VP)\n"),
        "fn out(x: VP) -> VP = x\nconst a: VP = out(3 VP) + period(2 VP)\n"
    );
    let routes = "competition c {\n  stage s {\n    places (n + 1)..m -> out\n    winners -> place (n + 1)\n  }\n}\n";
    assert_eq!(fmt(routes), routes);
    // A call that begins a line continuing an expression, and a name before `-`.
    assert_eq!(
        fmt("const a: VP = 1 VP +\n  out (3 VP) - period - (2 VP)\n"),
        "const a: VP = 1 VP +\n  out(3 VP) - period - (2 VP)\n"
    );
    // Two routes on one line, and a route continued on the next line.
    let routes = "competition c {\n  stage s {\n    a -> out places (1)..2 -> out\n    winners ->\n    place (n + 1)\n  }\n}\n";
    assert_eq!(fmt(routes), routes);
    // `refer` and `notice` are keywords only before text.
    assert_eq!(
        fmt("fn refer (x: VP) -> VP = x\nconst a: VP = refer (3 VP) - notice - (1 VP)\n"),
        "fn refer(x: VP) -> VP = x\nconst a: VP = refer(3 VP) - notice - (1 VP)\n"
    );
    // A `-` after a reserved word negates, however it was spaced.
    assert_eq!(
        fmt("const a: integer = if x then -1 else - 1\n"),
        "const a: integer = if x then -1 else -1\n"
    );
    // Reserved words are never called.
    assert_eq!(
        fmt("const a: VP = if(x) then 1 else 2\n"),
        "const a: VP = if (x) then 1 else 2\n"
    );
}

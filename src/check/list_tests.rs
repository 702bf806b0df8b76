//! Lists through the whole pipeline: what the checker accepts and reports, and
//! what the interpreter gives, at the edges (empty, one value, the limit).

use crate::edition::load_texts;
use crate::eval::Evaluator;
use crate::ir::MAX_LIST_LEN;

const PRELUDE: &str = "unit VP \"victory points\"\nunit SEK \"kronor\"\n\
    enum Crit ref T-1 { Points, Quotient }\n\
    record Team ref T-1 { id: number, vp: VP }\n\
    const scores: [VP] ref T-1 = [3 VP, 1 VP, 2 VP]\n\
    const teams: [Team] ref T-1 = [Team { id: 1, vp: 10 VP }, Team { id: 2, vp: 12 VP }, Team { id: 3, vp: 10 VP }]\n";

/// The error codes `text` (after the prelude) gets, in order.
fn errors(text: &str) -> Vec<&'static str> {
    let loaded = load_texts(vec![(
        "t.bfr".into(),
        format!("{PRELUDE}{text}\n").into_bytes(),
    )]);
    loaded
        .diagnostics
        .sorted()
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect()
}

/// `expr` evaluated against the prelude: the value shown, or the error's code.
fn eval(expr: &str) -> Result<String, &'static str> {
    let loaded = load_texts(vec![("t.bfr".into(), PRELUDE.as_bytes().to_vec())]);
    let checked = loaded.checked.as_ref().ok_or("not checked")?;
    let ast = crate::syntax::parse_expr(expr, 1).map_err(|d| d.code)?;
    let ir = checked
        .check_expr(&ast)
        .map_err(|d| d.sorted().first().map_or("not checked", |d| d.code))?;
    Evaluator::new(&checked.program)
        .eval_closed(&ir)
        .map(|v| v.show(&checked.program))
        .map_err(|e| e.code.unwrap_or("E0601"))
}

#[test]
fn an_empty_list_takes_its_type_from_the_context() {
    assert_eq!(errors("const none: [VP] ref T-1 = []"), Vec::<&str>::new());
    assert_eq!(
        errors("fn f(xs: [VP]) -> number ref T-1 = len(xs)\nconst n: number ref T-1 = f([])"),
        Vec::<&str>::new()
    );
    assert_eq!(eval("scores == []"), Ok("false".into()));
    assert_eq!(eval("[] != scores"), Ok("true".into()));
    assert_eq!(eval("if true then [] else scores"), Ok("[]".into()));
    assert_eq!(eval("len([] as [VP])"), Ok("0".into()));
    assert_eq!(eval("concat(scores, [])"), Ok("[3 VP, 1 VP, 2 VP]".into()));
}

#[test]
fn an_empty_list_with_no_context_is_one_error() {
    assert_eq!(eval("len([])"), Err("E0207"));
    assert_eq!(
        errors("const n: number ref T-1 = let x = [] in len(x)"),
        ["E0207"]
    );
    assert_eq!(errors("const b: bool ref T-1 = [] == []"), ["E0207"]);
    assert_eq!(
        errors("const b: [VP] ref T-1 = fold(scores, [], (a, x) => a)"),
        ["E0207"]
    );
}

#[test]
fn a_list_holds_values_of_one_type() {
    assert_eq!(errors("const xs: [VP] ref T-1 = [1 VP, 2 SEK]"), ["E0202"]);
    assert_eq!(eval("[1 VP, 2 SEK]"), Err("E0202"));
    assert_eq!(eval("[1, true]"), Err("E0201"));
    assert_eq!(
        eval("[warning, deduct 2 VP]"),
        Ok("[warning, deduct 2 VP]".into())
    );
    assert_eq!(eval("[[1], []]"), Ok("[[1], []]".into()));
}

#[test]
fn a_literal_has_at_most_the_limit_of_values() {
    let values = |n: usize| vec!["0"; n].join(",");
    let at_limit = format!("const xs: [number] ref T-1 = [{}]", values(MAX_LIST_LEN));
    assert_eq!(errors(&at_limit), Vec::<&str>::new());
    let over = format!(
        "const xs: [number] ref T-1 = [{}]",
        values(MAX_LIST_LEN + 1)
    );
    assert_eq!(errors(&over), ["E0208"]);
}

#[test]
fn positions_count_from_one() {
    assert_eq!(eval("scores[1]"), Ok("3 VP".into()));
    assert_eq!(eval("scores[3]"), Ok("2 VP".into()));
    assert_eq!(eval("scores[4]"), Err("E0603"));
    assert_eq!(eval("scores[0]"), Err("E0209"));
    assert_eq!(eval("scores[1.5]"), Err("E0209"));
    assert_eq!(eval("[1, 2][3]"), Err("E0209"));
    assert_eq!(eval("scores[len(scores) - 3]"), Err("E0603"));
    assert_eq!(eval("([] as [VP])[1]"), Err("E0209"));
    assert_eq!(eval("filter(scores, x => x > 5 VP)[1]"), Err("E0603"));
    assert_eq!(eval("[[1, 2], [3]][2][1]"), Ok("3".into()));
    assert_eq!(eval("teams[2].vp"), Ok("12 VP".into()));
    assert_eq!(eval("scores[true]"), Err("E0201"));
    assert_eq!(eval("3[1]"), Err("E0201"));
}

#[test]
fn list_builtins_at_the_edges() {
    assert_eq!(eval("min([4 VP])"), Ok("4 VP".into()));
    assert_eq!(eval("max(scores)"), Ok("3 VP".into()));
    assert_eq!(eval("min([] as [VP])"), Err("E0604"));
    assert_eq!(
        eval("max([warning, deduct 2 VP])"),
        Ok("deduct 2 VP".into())
    );
    assert_eq!(eval("sum([] as [VP])"), Ok("0 VP".into()));
    assert_eq!(eval("sum([5 min, 30 s])"), Ok("5 min 30 s".into()));
    assert_eq!(eval("contains(scores, 2 VP)"), Ok("true".into()));
    assert_eq!(eval("contains(scores, 2)"), Err("E0202"));
    assert_eq!(eval("range(3, 1)"), Ok("[]".into()));
    assert_eq!(eval("len(5)"), Err("E0201"));
    assert_eq!(eval("sum([\"a\"])"), Err("E0201"));
    assert_eq!(eval("min(Crit.Points)"), Err("E0201"));
    assert_eq!(eval("len(scores, scores)"), Err("E0203"));
    assert_eq!(eval("concat(scores, [1])"), Err("E0202"));
}

#[test]
fn functions_go_through_each_value_once() {
    assert_eq!(
        eval("map(scores, x => x * 2)"),
        Ok("[6 VP, 2 VP, 4 VP]".into())
    );
    assert_eq!(eval("map([] as [VP], x => x * 2)"), Ok("[]".into()));
    assert_eq!(eval("filter(scores, x => x > 5 VP)"), Ok("[]".into()));
    assert_eq!(
        eval("fold([] as [VP], 7 VP, (a, x) => a + x)"),
        Ok("7 VP".into())
    );
    assert_eq!(
        eval("fold(scores, 0 VP, (a, x) => a + x)"),
        Ok("6 VP".into())
    );
    // The function sees the values around it: a position of each value.
    let ranks = "map(scores, x => 1 + len(filter(scores, y => y > x)))";
    assert_eq!(eval(ranks), Ok("[1, 3, 2]".into()));
}

#[test]
fn sort_by_is_stable() {
    let ids = "map(sort_by(teams, t => t.vp), t => t.id)";
    assert_eq!(eval(ids), Ok("[1, 3, 2]".into()));
    let descending = "map(sort_by(teams, t => -t.vp), t => t.id)";
    assert_eq!(eval(descending), Ok("[2, 1, 3]".into()));
    assert_eq!(eval("sort_by([Crit.Points], c => c)"), Err("E0201"));
}

#[test]
fn a_function_stands_only_in_a_list_operation() {
    assert_eq!(eval("len(x => x)"), Err("E0201"));
    assert_eq!(eval("map(scores, 2)"), Err("E0201"));
    assert_eq!(eval("map(scores, (a, x) => x)"), Err("E0203"));
    assert_eq!(eval("fold(scores, 0 VP, x => x)"), Err("E0203"));
    assert_eq!(eval("filter(scores, x => x)"), Err("E0201"));
    assert_eq!(eval("map(scores)"), Err("E0203"));
    assert_eq!(errors("fn map(x: number) -> number ref T-1 = x"), ["E0102"]);
}

#[test]
fn list_types_are_checked_in_declarations() {
    let ok = "record Round ref T-1 { vps: [VP] }\nfn f(r: Round) -> [[VP]] ref T-1 = [r.vps, []]";
    assert_eq!(errors(ok), Vec::<&str>::new());
    assert_eq!(errors("const xs: [Vp] ref T-1 = []"), ["E0103"]);
    assert_eq!(errors("const xs: [VP] ref T-1 = 1 VP"), ["E0201"]);
    assert_eq!(errors("const as: number ref T-1 = 1"), ["E0001"]);
}

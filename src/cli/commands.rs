//! The subcommands' bodies.

use super::output::{Output, diagnostics_json, json_line, stderr, stdout};
use super::{EXIT_FOUND, EXIT_IO, EXIT_OK, Format};
use crate::diag::{Diagnostic, Diagnostics};
use crate::edition::{self, Loaded};
use crate::eval::examples::{self, Outcome};
use crate::eval::{Evaluator, Prepared};
use crate::ir::{Example, Program};
use crate::source::Sources;
use crate::syntax;
use std::mem::ManuallyDrop;
use std::path::Path;

/// The edition at `path` loaded and checked afresh, with its warnings, for the
/// commands that show them (`bfr doc`; `bfr check` has its own loop).
pub(super) fn load_checked(out: &Output, path: &Path) -> Result<Loaded, u8> {
    rules_path(path)?;
    let loaded = edition::load(path).map_err(|e| out.io_error(&e))?;
    ready(out, path, loaded)
}

/// As [`load_checked`], through the compiled-edition cache, for every command
/// that does not show the edition's warnings (a cached edition brings none).
pub(super) fn load_cached(out: &Output, path: &Path) -> Result<Loaded, u8> {
    rules_path(path)?;
    let loaded = edition::cache::load(path, out.cache.as_deref()).map_err(|e| out.io_error(&e))?;
    ready(out, path, loaded)
}

/// `path` as an edition, or the usage error of a file that is not rules
/// ([`super::not_rules`]).
pub(super) fn rules_path(path: &Path) -> Result<(), u8> {
    match super::not_rules(path) {
        Some(message) => {
            stderr(&format!("error: {message}\n"));
            Err(super::EXIT_USAGE)
        }
        None => Ok(()),
    }
}

/// The loaded edition if it checked; else its errors shown, and the exit code.
fn ready(out: &Output, path: &Path, loaded: Loaded) -> Result<Loaded, u8> {
    if loaded.checked.is_none() {
        let errors = edition_errors(&loaded.diagnostics);
        out.diagnostics(&errors, &loaded.sources);
        if out.format == Format::Json {
            json_line(&serde_json::json!({
                "errors": diagnostics_json(&errors, &loaded.sources)
            }));
        } else {
            stderr(&not_checked_line(path, &loaded.diagnostics));
        }
        return Err(EXIT_FOUND);
    }
    Ok(loaded)
}

/// What a command that runs an edition shows of one that did not check: its
/// errors. Its warnings are `bfr check`'s business (the command shows none of a
/// good edition's either); [`not_checked_line`] counts them.
pub(super) fn edition_errors(diags: &Diagnostics) -> Diagnostics {
    let mut errors = Diagnostics::default();
    for d in diags.sorted().into_iter().filter(|d| d.is_error()) {
        errors.push(d.clone());
    }
    errors
}

/// The last line of an edition that did not check: its errors counted, what to
/// run, and the warnings `bfr check` will show beside them.
pub(super) fn not_checked_line(path: &Path, diags: &Diagnostics) -> String {
    let counted = super::output::counted;
    let warnings = match diags.warning_count() {
        0 => String::new(),
        n => format!(", which shows its {} too", counted(n, "warning")),
    };
    format!(
        "{}: {}; fix them first (`bfr check {}`{warnings})\n",
        path.display(),
        counted(diags.error_count(), "error"),
        path.display()
    )
}

/// `bfr test`
pub fn test(out: &Output, path: &Path) -> u8 {
    let loaded = match load_cached(out, path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let Some(checked) = &loaded.checked else {
        return EXIT_IO;
    };
    let budget = crate::eval::Budget::new(examples::MAX_EXAMPLE_STEPS);
    let tested = test_examples(&checked.program, &loaded.sources, &budget);
    let mut results = Vec::new();
    for row in &tested.rows {
        match out.format {
            Format::Text => stdout(&format!(
                "{} [{}] {} ... {}\n",
                row.place, row.source, row.title, row.detail
            )),
            Format::Json => results.push(serde_json::json!({
                "example": row.title, "at": row.place, "source": row.cited,
                "ok": row.ok, "detail": row.detail,
            })),
        }
    }
    out.diagnostics(&tested.failures, &loaded.sources);
    let (passed, failed) = (tested.passed(), tested.rows.len() - tested.passed());
    match out.format {
        Format::Text => stdout(&format!("{passed} passed, {failed} failed\n")),
        Format::Json => json_line(&serde_json::json!({
            "passed": passed, "failed": failed, "examples": results,
            "failures": diagnostics_json(&tested.failures, &loaded.sources),
        })),
    }
    if failed > 0 { EXIT_FOUND } else { EXIT_OK }
}

/// What `bfr test` found: a row per example, and the errors of those that failed.
struct Tested<'p> {
    rows: Vec<TestedRow<'p>>,
    failures: Diagnostics,
}

/// One example's line of `bfr test`.
struct TestedRow<'p> {
    /// `file:line:col`.
    place: String,
    title: &'p str,
    /// The rule ID it cites, `-` for none.
    source: String,
    cited: &'p Option<crate::ir::SourceInfo>,
    ok: bool,
    detail: String,
}

impl Tested<'_> {
    fn passed(&self) -> usize {
        self.rows.iter().filter(|r| r.ok).count()
    }
}

/// Runs every example of `program` within `budget`. The examples the budget
/// had no room for fail, with one error for all of them, at the first.
fn test_examples<'p>(
    program: &'p crate::ir::Program,
    sources: &Sources,
    budget: &crate::eval::Budget,
) -> Tested<'p> {
    let mut rows = Vec::new();
    let mut failures = Diagnostics::default();
    let mut not_run = Vec::new();
    for ex in &program.examples {
        let outcome = examples::run_within(program, ex, budget);
        if matches!(outcome, Outcome::NotRun) {
            not_run.push(ex.span);
        }
        let (line, col) = sources.line_col(ex.span.file, ex.span.start);
        let (ok, detail, failure) = judge_example(ex, &outcome);
        if let Some(d) = failure {
            failures.push(d);
        }
        rows.push(TestedRow {
            place: format!("{}:{line}:{col}", sources.name(ex.span.file)),
            title: &ex.title,
            source: ex
                .source
                .as_ref()
                .map_or("-".to_string(), |s| s.id.to_string()),
            cited: &ex.source,
            ok,
            detail,
        });
    }
    if let Some(first) = not_run.first() {
        failures.push(
            Diagnostic::error(
                "E0503",
                examples::not_run_message(not_run.len(), budget),
                *first,
            )
            .with_label("the first example not run")
            .with_help(
                "make the examples cheaper to evaluate: no edition's examples need this many steps",
            ),
        );
    }
    Tested { rows, failures }
}

/// Whether an example passed given how it came out, what to print after it,
/// and the error when it failed. An example marked `contradicts` passes when it fails.
fn judge_example(ex: &Example, outcome: &Outcome) -> (bool, String, Option<Diagnostic>) {
    match (outcome, ex.contradicts) {
        (Outcome::Holds, false) => (true, "ok".to_string(), None),
        (Outcome::Fails { .. }, true) => (
            true,
            "ok (contradicts its rule, as the document does)".to_string(),
            None,
        ),
        (Outcome::Holds, true) => (
            false,
            "FAILED (marked contradicts, but holds)".to_string(),
            Some(
                Diagnostic::error(
                    "E0502",
                    format!("example \"{}\" is marked `contradicts` but holds", ex.title),
                    ex.span,
                )
                .with_help("remove `contradicts`: the rule and the example now agree"),
            ),
        ),
        (Outcome::Fails { span, sides }, false) => {
            let mut d = Diagnostic::error(
                "E0501",
                format!("example \"{}\" does not hold", ex.title),
                *span,
            );
            if let Some((l, r)) = sides {
                d = d.with_label(format!("the left side is {l}, the right side is {r}"));
            }
            let help = "the rule and the example disagree: compare both with the document, and correct the one that is wrong (`bfr explain EDITION 'EXPRESSION'` shows how the rule reached its answer); where the document's own example contradicts its rule, keep it and mark it `contradicts`";
            (
                false,
                "FAILED".to_string(),
                Some(d.with_note(ex.span, "in this example").with_help(help)),
            )
        }
        (Outcome::NotRun, _) => (
            false,
            "FAILED (not run: the examples' steps were spent)".to_string(),
            None,
        ),
        (Outcome::Error(e), _) => (
            false,
            format!("FAILED ({})", e.message),
            Some(
                Diagnostic::error(
                    "E0503",
                    format!(
                        "example \"{}\" cannot be evaluated: {}",
                        ex.title, e.message
                    ),
                    e.span,
                )
                .with_note(ex.span, "in this example"),
            ),
        ),
    }
}

/// The competitions, qualifications and stages `expr` reads by path
/// (`cup.bc32_b.boards`), each once, with its source and where it is declared:
/// what `bfr explain` shows for a value no rule computed.
fn declarations_read(
    expr: &syntax::ast::Expr,
    program: &Program,
    sources: &Sources,
) -> Vec<String> {
    use syntax::ast::ExprKind;
    let mut paths: Vec<&[syntax::ast::Name]> = Vec::new();
    // Names the expression binds itself (`let mini = 3 in mini`) are its own.
    let mut bound: Vec<&str> = Vec::new();
    expr.visit(&mut |e| match &e.kind {
        ExprKind::Path(names) => paths.push(names),
        ExprKind::Let(name, ..) => bound.push(&name.text),
        ExprKind::Lambda(params, _) => bound.extend(params.iter().map(|p| p.text.as_str())),
        _ => {}
    });
    paths.retain(|names| {
        names
            .first()
            .is_none_or(|n| !bound.contains(&n.text.as_str()))
    });
    let at = |span: crate::source::Span| {
        let (line, _) = sources.line_col(span.file, span.start);
        format!("{}:{line}", sources.name(span.file))
    };
    let cited = |source: &Option<crate::ir::SourceInfo>| {
        source
            .as_ref()
            .map_or_else(String::new, |s| format!(", ref {s}"))
    };
    let mut lines: Vec<String> = Vec::new();
    for names in paths {
        let Some(c) = names
            .first()
            .and_then(|n| program.competitions.iter().find(|c| c.name == n.text))
        else {
            continue;
        };
        let part = names.get(1).map(|n| n.text.as_str());
        let line = match (
            c.stages.iter().find(|s| Some(s.name.as_str()) == part),
            c.qualification
                .as_ref()
                .filter(|q| Some(q.name.as_str()) == part),
        ) {
            (Some(s), _) => format!(
                "{}.{}: stage \"{}\" of {}{} ({})",
                c.name,
                s.name,
                s.title,
                c.title,
                cited(&s.source),
                at(s.span)
            ),
            (None, Some(q)) => format!(
                "{}.{}: qualification \"{}\" of {}{} ({})",
                c.name,
                q.name,
                q.title,
                c.title,
                cited(&q.source),
                at(q.span)
            ),
            (None, None) => format!(
                "{}: competition \"{}\"{} ({})",
                c.name,
                c.title,
                cited(&c.source),
                at(c.span)
            ),
        };
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines
}

/// `bfr eval` and `bfr explain`
pub fn eval(out: &Output, path: &Path, expression: &str, explain: bool) -> u8 {
    // The edition is left to the operating system when the process ends: freeing
    // its thousands of nodes one by one took a sixth of a cached `bfr eval`.
    let mut kept = ManuallyDrop::new(match load_cached(out, path) {
        Ok(l) => l,
        Err(code) => return code,
    });
    let loaded: &mut Loaded = &mut kept;
    let Some(checked) = loaded.checked.as_mut() else {
        return EXIT_IO;
    };
    let file = loaded.sources.add("<expression>", expression);
    let fail = |d: Diagnostics, sources: &Sources| {
        out.diagnostics(&d, sources);
        if out.format == Format::Json {
            json_line(&serde_json::json!({"errors": diagnostics_json(&d, sources)}));
        }
        EXIT_FOUND
    };
    let ast = match syntax::parse_expr(expression, file) {
        Ok(a) => a,
        Err(d) => {
            let mut ds = Diagnostics::default();
            ds.push(d);
            return fail(ds, &loaded.sources);
        }
    };
    let expr = match checked.check_expr_in_place(&ast) {
        Ok(e) => e,
        Err(d) => return fail(d, &loaded.sources),
    };
    let program = &checked.program;
    let prepared = Prepared::new(program);
    let mut ev = if explain {
        let mut ev = Evaluator::tracing_prepared(program, &prepared);
        ev.limit_trace(crate::eval::trace::EXPLAIN_CALLS);
        ev
    } else {
        Evaluator::prepared(program, &prepared)
    };
    let value = match ev.eval_closed(&expr) {
        Ok(v) => v,
        Err(e) => {
            let mut ds = Diagnostics::default();
            ds.push(
                Diagnostic::error(e.code.unwrap_or("E0601"), e.message, e.span)
                    .with_label("evaluating this failed"),
            );
            return fail(ds, &loaded.sources);
        }
    };
    let shown = value.show(program);
    match out.format {
        Format::Text => {
            let mut text = format!("{shown}\n");
            if let Some(trace) = ev.trace().filter(|_| explain) {
                let read = declarations_read(&ast, program, &loaded.sources);
                for line in &read {
                    text.push_str(&format!("  {line}\n"));
                }
                if trace.is_empty() && read.is_empty() {
                    text.push_str(
                        "  (no rule took part: the value is written in the expression)\n",
                    );
                }
                trace.render(program, 1, &mut text);
            }
            stdout(&text);
        }
        Format::Json => {
            let mut v = serde_json::json!({
                "value": shown,
                "type": program.type_name(&expr.ty),
                "data": value,
            });
            if explain {
                let left_out = ev.trace().map_or(0, |t| t.left_out());
                if left_out > 0 {
                    v["trace_left_out"] = left_out.into();
                }
                v["trace"] = serde_json::to_value(ev.into_trace()).unwrap_or_default();
            }
            json_line(&v);
        }
    }
    EXIT_OK
}

/// `bfr debug ir`
pub fn debug_ir(out: &Output, path: &Path) -> u8 {
    let loaded = match load_cached(out, path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    match loaded
        .checked
        .as_ref()
        .map(|c| serde_json::to_string_pretty(&c.program))
    {
        Some(Ok(text)) => {
            super::output::stdout_data(&format!("{text}\n"));
            EXIT_OK
        }
        _ => {
            stderr("error: the IR could not be written as JSON\n");
            EXIT_IO
        }
    }
}

/// `bfr simulate`; `html` writes the report as a page (`--format html`).
pub fn simulate(
    out: &Output,
    path: &Path,
    competition: &str,
    teams: u32,
    options: &crate::runner::Options,
    html: bool,
) -> u8 {
    let loaded = match load_cached(out, path) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let Some(checked) = &loaded.checked else {
        return EXIT_IO;
    };
    // The competition by name or title, as an event file's `competition` is found.
    let competition = crate::entry::names::competition(&checked.program, competition)
        .and_then(|c| checked.program.competitions.get(c as usize))
        .map_or(competition, |c| c.name.as_str());
    if let Ok(plan) = crate::runner::plan::plan(&checked.program, competition, teams)
        && let Some(refused) = marks_without_effect(&plan, options)
    {
        stderr(&refused);
        return 2;
    }
    let mut source = crate::runner::simulate::Simulation::new(teams, options.seed);
    match crate::runner::run(&checked.program, competition, teams, options, &mut source) {
        Ok(outcome) => {
            match out.format {
                Format::Text if html => stdout(&super::html::simulated(&outcome)),
                Format::Text => stdout(&super::render::report(&outcome.report, &|t| {
                    format!("Team {t}")
                })),
                Format::Json => json_line(&serde_json::to_value(&outcome).unwrap_or_default()),
            }
            EXIT_OK
        }
        Err(e) => {
            let mut d = Diagnostic::error(e.code(), e.message.clone(), e.at.unwrap_or_default())
                .with_label(e.kind.label());
            if e.at.is_none() {
                d = d.nowhere();
            }
            if let Some(rule) = e.rule {
                d = d.with_note(rule, crate::runner::plan::RULE_OF_THE_COUNT);
            }
            let help = match e.kind {
                crate::runner::Stop::NoVp => Some(
                    "name a VP scale of the edition that covers this match with `--scale RULE`, or complete the edition's scale".to_string(),
                ),
                _ => e.help_text(),
            };
            if let Some(help) = help {
                d = d.with_help(help);
            }
            let mut diags = Diagnostics::default();
            diags.push(d);
            match out.format {
                Format::Text => out.diagnostics(&diags, &loaded.sources),
                Format::Json => json_line(&serde_json::json!({
                    "error": e.message,
                    "diagnostics": diagnostics_json(&diags, &loaded.sources),
                })),
            }
            EXIT_FOUND
        }
    }
}

/// `--late` or `--district` for a competition with no use for them: a usage
/// error, as a team outside the field is, rather than a mark ignored without a
/// word (an event file's marks are W0724).
fn marks_without_effect(
    plan: &crate::runner::plan::Plan,
    options: &crate::runner::Options,
) -> Option<String> {
    if !options.late_starters.is_empty() && !plan.has_late_start() {
        return Some(format!(
            "error: --late: {} has no late start; every team plays from the first round\n",
            plan.title
        ));
    }
    if !options.district_teams.is_empty() && plan.district_prize.is_none() {
        return Some(format!(
            "error: --district: {} has no district prize\n",
            plan.title
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::test_examples;
    use crate::eval::Budget;
    use crate::eval::examples::MAX_EXAMPLE_STEPS;

    #[test]
    fn examples_past_the_steps_of_bfr_test_fail_with_one_error_for_all() {
        let mut text = String::new();
        for k in 1..=20 {
            text.push_str(&format!(
                "example \"sum {k}\" ref T-1 {{\n  sum(range(1, 1000)) == 500500\n}}\n"
            ));
        }
        let loaded = crate::edition::load_texts(vec![("t.bfr".into(), text.into_bytes())]);
        let program = &loaded.checked.as_ref().expect("checks").program;
        let all = test_examples(program, &loaded.sources, &Budget::new(MAX_EXAMPLE_STEPS));
        assert_eq!(all.passed(), 20);
        assert!(all.failures.sorted().is_empty());
        // Each makes a list of a thousand numbers: 1,000 to 2,000 steps (about
        // 1,006 as counted now). Five to ten pass; the rest fail as not run,
        // with one error at the first of them.
        let cut = test_examples(program, &loaded.sources, &Budget::new(10_000));
        let passed = cut.passed();
        assert!((5..=10).contains(&passed), "{passed}");
        assert!(cut.rows[..passed].iter().all(|r| r.detail == "ok"));
        assert!(
            cut.rows[passed..]
                .iter()
                .all(|r| r.detail == "FAILED (not run: the examples' steps were spent)")
        );
        let failures = cut.failures.sorted();
        assert_eq!(failures.len(), 1);
        assert_eq!(failures[0].code, "E0503");
        assert_eq!(
            failures[0].message,
            format!(
                "{} examples not run: the examples together take more than the 10,000 steps they may take",
                20 - passed
            )
        );
        assert_eq!(failures[0].span.start, program.examples[passed].span.start);
    }
}

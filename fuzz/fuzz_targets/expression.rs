//! An expression against the 2015 edition (`bfr eval` / `bfr explain`): parse,
//! check, evaluate plainly (the IR as written), on the prepared form (folded
//! bodies, direct answers, fn bodies compiled to steps; made once and shared by
//! every input, as a run shares it) and with tracing. All three must give the
//! same value, or the same error at the same place, unless one reaches the step
//! limit (E0606), where the forms may differ.
#![no_main]

use bfr::diag::{Diagnostic, Diagnostics};
use bfr::eval::{EvalError, Evaluator};
use bfr::ir::Value;
use bfr::syntax;
use bfr_fuzz::{edition_2015, prepared_2015, rendered, twice};
use libfuzzer_sys::fuzz_target;

fn one(text: &str) -> String {
    let loaded = edition_2015();
    let Some(checked) = &loaded.checked else {
        return String::new();
    };
    // The expression is the file after the edition's; the sources are copied
    // with it only when a diagnostic is to be rendered.
    let file = u32::try_from(loaded.sources.iter().count()).unwrap_or(u32::MAX);
    let sources = || {
        let mut sources = loaded.sources.clone();
        sources.add("<expression>", text);
        sources
    };
    let mut diags = Diagnostics::default();
    let expr = match syntax::parse_expr(text, file) {
        Ok(ast) => match checked.check_expr(&ast) {
            Ok(e) => e,
            Err(d) => return rendered(&d, &sources()),
        },
        Err(d) => {
            diags.push(d);
            return rendered(&diags, &sources());
        }
    };
    let program = &checked.program;
    let plain = Evaluator::new(program).eval_closed(&expr);
    let prepared = Evaluator::prepared(program, prepared_2015()).eval_closed(&expr);
    // The step limit is a bound on work, not a value: the forms take different
    // steps (a folded part is one), so near the limit one may stop where
    // another finishes. Past it, only that the output is the same twice counts.
    let too_large = |r: &Result<Value, Box<EvalError>>| {
        matches!(r, Err(e) if e.code == Some(bfr::eval::TOO_LARGE))
    };
    if too_large(&plain) || too_large(&prepared) {
        return format!("{:?}", plain.map(|v| v.show(program)).map_err(|e| e.message));
    }
    match (&plain, &prepared) {
        (Ok(a), Ok(b)) => assert!(a == b, "the IR and the prepared form give different values"),
        (Err(a), Err(b)) => assert!(
            a.message == b.message
                && a.code == b.code
                && (a.span.start, a.span.end) == (b.span.start, b.span.end),
            "the IR and the prepared form fail differently"
        ),
        _ => panic!("the IR and the prepared form disagree on whether the expression has a value"),
    }
    let mut tracing = Evaluator::tracing(program);
    let traced = tracing.eval_closed(&expr);
    if too_large(&traced) {
        return format!("{:?}", plain.map(|v| v.show(program)).map_err(|e| e.message));
    }
    let trace = tracing.into_trace();
    match (&plain, &traced) {
        (Ok(a), Ok(b)) => assert!(a == b, "eval and explain give different values"),
        (Err(a), Err(b)) => assert!(
            a.message == b.message && a.code == b.code,
            "eval and explain fail differently"
        ),
        _ => panic!("eval and explain disagree on whether the expression has a value"),
    }
    match plain {
        Ok(v) => {
            let mut out = v.show(program);
            for node in &trace {
                node.render(1, &mut out);
            }
            out
        }
        Err(e) => {
            diags.push(Diagnostic::error(
                e.code.unwrap_or("E0601"),
                e.message,
                e.span,
            ));
            rendered(&diags, &sources())
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        twice(|| one(text));
    }
});

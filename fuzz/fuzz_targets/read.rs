//! The direct reader against pest: any text, read as a file and as an
//! expression (`bfr eval`), must give the same tree, every span included, or
//! the same diagnostic, whichever way it is parsed. pest and the lowering are
//! the reference (`grammar/bfr.pest` is the definition of the syntax); the
//! reader is a faster copy of them that must never be told apart.
#![no_main]

use bfr::syntax;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = 3;
    let read = format!("{:?}", syntax::parse_file(text, file));
    let by_pest = format!("{:?}", syntax::parse_file_by_pest(text, file));
    assert!(
        read == by_pest,
        "the reader and pest read the file differently:\n{read}\n{by_pest}"
    );
    let read = format!("{:?}", syntax::parse_expr(text, file));
    let by_pest = format!("{:?}", syntax::parse_expr_by_pest(text, file));
    assert!(
        read == by_pest,
        "the reader and pest read the expression differently:\n{read}\n{by_pest}"
    );
});

//! What the fuzz targets share: the 2015 edition, read once, and the output a
//! run prints, as one string, so that two runs of one input can be compared
//! byte for byte (determinism) and any panic, hang or overflow is libFuzzer's
//! finding.

use bfr::check::Checked;
use bfr::diag::{self, Colour, Diagnostics};
use bfr::edition::{self, Loaded};
use bfr::eval::Prepared;
use bfr::source::Sources;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The bundled edition's directory.
pub fn edition_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/2015"))
}

/// The 2015 edition, checked. A fuzz run is meaningless without it, so a
/// broken edition stops the target at once.
pub fn edition_2015() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| {
        let loaded = edition::load(&edition_dir()).unwrap_or_else(|e| fail(&e.to_string()));
        if loaded.checked.is_none() {
            fail("the 2015 edition does not check");
        }
        loaded
    })
}

/// The 2015 edition's evaluation form, made once and shared by every input, as
/// one run shares it between its evaluations: a rule's folded body, made on its
/// first call, then serves every later input, so an input sees it either made
/// afresh or already made, and must get the same answer either way.
pub fn prepared_2015() -> &'static Prepared {
    static PREPARED: OnceLock<Prepared> = OnceLock::new();
    PREPARED.get_or_init(|| match &edition_2015().checked {
        Some(checked) => Prepared::new(&checked.program),
        None => fail("the 2015 edition does not check"),
    })
}

/// Calls `f` with the checked 2015 edition as the event code takes it
/// (`&mut`, left as it was found) and a fresh copy of its sources. The edition
/// is copied once per thread and reused: copying it per input cost the event
/// targets most of their speed, and a run that left it changed would show up
/// as two runs of one input disagreeing.
pub fn with_edition<T>(f: impl FnOnce(&mut Checked, &mut Sources) -> T) -> T {
    thread_local! {
        static CHECKED: std::cell::RefCell<Option<Checked>> =
            const { std::cell::RefCell::new(None) };
    }
    let loaded = edition_2015();
    CHECKED.with(|cell| {
        let mut slot = cell.borrow_mut();
        let checked = slot.get_or_insert_with(|| match &loaded.checked {
            Some(c) => c.clone(),
            None => fail("the 2015 edition does not check"),
        });
        let mut sources = loaded.sources.clone();
        f(checked, &mut sources)
    })
}

fn fail(why: &str) -> ! {
    eprintln!("fuzz setup: {why}");
    std::process::exit(2)
}

/// Diagnostics as the CLI shows them, as text and as JSON, one after the other.
pub fn rendered(diags: &Diagnostics, sources: &Sources) -> String {
    let mut renderer = diag::Renderer::new(sources, Colour::Off);
    let shown = diag::shown(diags, sources);
    let mut out: String = shown.iter().map(|d| renderer.render(d)).collect();
    let json: Vec<_> = shown.iter().map(|d| diag::to_json(d, sources)).collect();
    out.push_str(&serde_json::Value::Array(json).to_string());
    out
}

/// Runs `f` twice and insists on the same output: bfr is deterministic, byte
/// for byte.
pub fn twice(f: impl Fn() -> String) {
    let first = f();
    let second = f();
    assert!(
        first == second,
        "two runs of one input gave different output"
    );
}

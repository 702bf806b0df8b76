//! bfr's integration tests, in one binary: each module was once its own test
//! binary, and each of those linked the whole crate. Helpers shared by the
//! modules live in `support`. Insta names a snapshot after the module path, so
//! the snapshots of module `m` are `snapshots/suite__m__<name>.snap`.
//!
//! A new test goes in the module of its subject, or in a new module here; a new
//! diagnostics, event or run case is a file (or, for a run, a directory) under
//! `tests/cases`, which becomes a test by itself (see `cases`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

mod support;

mod allocate;
mod amends;
mod cache;
mod cases;
mod chairmans_cup;
mod check_editor;
mod cli;
mod diff;
mod doc;
mod edition_2015;
mod entries;
mod entries_teams;
mod event_record;
mod events;
mod federation;
mod final_ranking;
mod fmt;
mod highlight;
mod hostile;
mod list;
mod lsp;
mod names;
mod no_alloc;
mod noticeboard;
mod prepared;
mod properties;
mod readme;
mod robustness;
mod runner_draws;
mod runner_variants;
mod runner_withdrawals;
mod schedule;
mod sources;
mod stated_once;
mod trophy;
mod variant_edition;

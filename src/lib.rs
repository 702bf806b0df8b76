//! bfr: a bridge federation's competition regulations as files a program can
//! check and run.
//!
//! The pipeline (see `ARCHITECTURE.md`): [`syntax`] (text → AST) → [`check`]
//! (AST → typed [`ir`], with [`diag`]nostics) → [`eval`] (IR → values and traces).
//! [`engine`] holds the generic competition primitives (scoring, pairing,
//! standings, knockouts) that the rules wire together. [`cli`] maps it all to the
//! `bfr` command.

pub mod allocate;
pub mod check;
pub mod cli;
pub mod diag;
pub mod diff;
pub mod doc;
pub mod document;
pub mod edition;
pub mod engine;
pub mod entry;
pub mod eval;
pub mod event;
pub mod federation;
pub mod ir;
pub mod lsp;
pub mod names;
pub mod runner;
pub mod schedule;
pub mod source;
pub mod spanned;
pub mod syntax;

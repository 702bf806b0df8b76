//! bfr: a bridge federation's competition regulations as files a program can
//! check and run.
//!
//! The pipeline (see `ARCHITECTURE.md`): [`syntax`] (text → AST) → [`check`]
//! (AST → typed [`ir`], with [`diag`]nostics) → [`eval`] (IR → values and traces).
//! [`cli`] maps it all to the `bfr` command.

pub mod check;
pub mod cli;
pub mod diag;
pub mod edition;
pub mod eval;
pub mod ir;
pub mod source;
pub mod syntax;

//! bfr: a bridge federation's competition regulations as files a program can check and run.

/// Generic competition primitives that an edition's rules wire together.
pub mod engine;

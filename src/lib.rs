//! bfr: a bridge federation's competition regulations as files a program can check and run.

pub mod engine;

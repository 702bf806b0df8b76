//! Generic competition-engine primitives. Nothing here knows an edition: every scale, score
//! and count arrives as data from the rules.

pub mod knockout;
pub mod rng;
pub mod round_robin;
pub mod scoring;
pub mod standings;
pub mod swiss;

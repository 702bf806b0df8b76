//! Generic competition-engine primitives. Nothing here knows an edition: every scale, score
//! and count arrives as data from the rules.

pub(crate) mod knockout;
pub mod rng;
pub(crate) mod round_robin;
pub(crate) mod scoring;
pub(crate) mod standings;
pub mod swiss;

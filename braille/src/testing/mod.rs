//! Test fixtures.
pub mod brltty;

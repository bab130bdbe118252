//! Test fixtures (feature `testing`), reusable by other crates' tests.
//!
//! - [`brltty::VirtualBrltty`]: a private BRLTTY with its Virtual (`vr`)
//!   driver, the display side served by the test: every cell BRLTTY shows is
//!   read back, keys are pressed by name, BRLTTY can be killed and restarted.

pub mod brltty;

//! The `tandem` binary: a thin shell over the `tandem` library (see `lib.rs`).

use std::process::ExitCode;

fn main() -> ExitCode {
    // Fault injection for the reliability tests: reads FAILPOINTS (built
    // with the `failpoints` feature only; see RELIABILITY.md).
    #[cfg(feature = "failpoints")]
    let _faults = fail::FailScenario::setup();
    tandem::cli::main()
}

//! The `tandem` binary: a thin shell over the `tandem` library (see `lib.rs`).

use std::process::ExitCode;

fn main() -> ExitCode {
    tandem::cli::main()
}

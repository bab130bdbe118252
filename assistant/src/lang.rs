//! The languages of the built-in phrasebooks, as the command line names
//! them (`--lang pl|en`): a plain word at the bottom floor, for the
//! commands that parse it and the arbiter's tools that speak it.

/// The built-in phrasebook languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// Polish.
    Pl,
    /// English.
    En,
}

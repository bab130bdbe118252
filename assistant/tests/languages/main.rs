//! Issue 43: every player in their own language. The tests walk every
//! language tandem has data files for (the stems of
//! `speech/phrasebooks/*.toml`: pl and en, and each language whose files
//! are added), never a list written in them; one test binary, so that CI
//! links it once:
//!
//! - [`round_trip`]: every square and kind of move said and heard back as
//!   the same move, in draughts, chess and backgammon;
//! - [`numbers`]: the number words against num2words (PyPI);
//! - [`words`]: every key English has, and no English or Polish word in
//!   another language;
//! - [`tables`]: a table in each language plays each game and answers its
//!   clock; a table of two languages.
//!
//! The Vosk recognizers of the new languages cannot be downloaded here: the
//! voice grammar is tested through transcripts, as `tandem hear --text`.

#[path = "../support/mod.rs"]
mod support;

mod numbers;
mod round_trip;
mod tables;
mod words;

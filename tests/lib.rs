//! The new user's end-to-end test lives in `tests/tests/`; this crate only
//! hosts it. It runs `tandem play` with no hardware, so it exercises the
//! fallbacks (typed moves, terminal braille, speech from whatever answers);
//! the tests against the real components are in `assistant/tests/` and in
//! each crate's own `tests/`.

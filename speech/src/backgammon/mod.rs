//! Backgammon in words (004: the EUBGF rules): what tandem says
//! ([`BgAnnouncer`], [`BgPhrasebook`] from `phrasebooks/backgammon/*.toml`),
//! what it understands when the blind player speaks ([`listen`]) and the
//! arbiter's words for two boards or records that differ ([`arbiter`]).

mod announcer;
pub mod arbiter;
pub mod ask;
pub mod listen;

pub use announcer::{
    BgAnnouncer, BgPhrasebook, BgPhrasebookError, Numbering, BACKGAMMON_ENGLISH_TOML,
    BACKGAMMON_POLISH_TOML,
};

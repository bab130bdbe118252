//! Chess in words (002: FIDE Laws of Chess, annex E): what tandem says
//! ([`ChessAnnouncer`], [`ChessPhrasebook`] from `phrasebooks/chess/*.toml`)
//! and what it understands when the blind player speaks ([`listen`]).

mod announcer;
pub mod ask;
pub mod listen;
mod phrasebook;

pub use announcer::ChessAnnouncer;
pub use phrasebook::{
    role_key, ChessListenWords, ChessPhrasebook, ChessPhrasebookError, FileStyle,
    CHESS_ENGLISH_TOML, CHESS_POLISH_TOML, CHESS_TEMPLATES, PIECE_FORMS,
};

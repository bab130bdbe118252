//! tandem's speech: what to say, apart from how to say it.
//!
//! - [`Phrasebook`]: the words and sentence templates of a language, from a
//!   TOML data file (every language of `speech/phrasebooks/` built in,
//!   [`languages`]), for both directions:
//!   what tandem says and the words speech input listens for.
//! - [`Announcer`]: moves, clock reports, rejections and game events to
//!   [`Utterance`]s with a [`Priority`]. Pure and golden-tested.
//! - [`output`]: the [`SpeechOutput`](output::SpeechOutput) trait and its
//!   backends (speech-dispatcher, espeak-ng, text, a recording fake), and the
//!   [`SpeechWorker`](output::worker::SpeechWorker) thread that keeps priorities.
//! - `listen`: speech input (see its module docs): the engine every game
//!   shares (audio, microphone, Vosk, matcher, lexicon, the grammar
//!   machinery and the commands every game listens for). It names no game.
//! - One folder per game: [`draughts`], [`chess`] and [`backgammon`] (each
//!   its announcer, phrasebook words, listening grammar and arbiter words;
//!   draughts' squares and pieces in the table's [`Phrasebook`] are
//!   [`draughts::DraughtsBook`], its square words listened for
//!   [`draughts::listen::DraughtsWords`]).
//!
//! Floors, from the bottom (`docs/architecture.md`): the words
//! (`phrasebook`, `utterance`, `testing`); saying them ([`Announcer`],
//! [`output`]); speech input and the spoken record (`listen`, `record`); the
//! questions about the board (`ask`, on the listener's words); the games'
//! folders on top.
//!
//! ```
//! use tandem_rules::draughts::notation::resolve;
//! use tandem_rules::draughts::{Position, Variant};
//! use tandem_speech::{AnnounceOptions, Announcer, Phrasebook};
//! let pos = Position::start(Variant::International);
//! let m = resolve(&pos, "32-28").unwrap();
//! let a = Announcer::new(Phrasebook::polish(), AnnounceOptions::default());
//! assert_eq!(a.on_move(&pos, &m).text(), "Trzydzieści dwa na dwadzieścia osiem.");
//! ```

pub mod announcer;
pub mod ask;
// The games (the registry).
pub mod backgammon;
pub mod chess;
pub mod draughts;
pub mod languages;
pub mod output;
pub mod phrasebook;
pub mod record;
#[cfg(feature = "testing")]
pub mod testing;
pub mod utterance;

pub use announcer::{AnnounceOptions, Announcer, ClockReport, SideClock};
pub use phrasebook::{
    CommandKind, ListenWords, Mishearing, Phrasebook, PhrasebookError, SquareStyle, SquareWords,
    Value,
};
pub use record::RecordWord;
pub use utterance::{Kind, Priority, Utterance};

pub mod listen;

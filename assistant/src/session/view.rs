//! The session's state as `tandem ctl state` and the screen see it, and
//! the notices subscribers are told, and the answer to a request ([`Reply`]).

use super::*;

/// One side's clock in [`StateView`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// Remaining time.
    pub remaining_ms: u64,
    /// Time used.
    pub used_ms: u64,
    /// Moves made.
    pub moves: u32,
    /// When the flag fell (game time), if it did.
    pub flag_ms: Option<u64>,
}

/// One board's sync state in [`StateView`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// The ply the board shows.
    pub ply: u32,
    /// Moves (plies) it lacks.
    pub behind: u32,
}

/// The session's state as the `state` command reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StateView {
    /// The game's name (`--variant`).
    pub variant: String,
    /// The position text (PDN FEN, FEN).
    pub fen: String,
    /// Plies played.
    pub ply: u32,
    /// Side to move.
    pub turn: Color,
    /// The moves in strict notation.
    pub moves: Vec<String>,
    /// Both clocks.
    pub clocks: ClocksView,
    /// Each board's sync state.
    pub boards: BoardsView,
    /// The position as a picture (`Game::picture`): what the screen and
    /// the hall draw, the last move and the pieces it took marked.
    pub board: crate::picture::BoardPicture,
    /// PDN result (`2-0`, `0-2`, `1-1`) or `null` while the game goes on.
    pub result: Option<String>,
    /// How the game ended.
    pub outcome: Option<Outcome>,
    /// A pending draw offer: who made it.
    pub draw_offer: Option<Color>,
    /// Game time in milliseconds.
    pub t_ms: u64,
    /// The journal file.
    pub journal: PathBuf,
    /// The journal's lines this state follows from (its last line's
    /// number): the hall's desk compares the state with its own copy at that
    /// line (docs/hall.md, "Facts from the journal"). 0 for a replayed state.
    pub journal_seq: u64,
    /// Whether the journal file holds every line (a full or read-only disk:
    /// the game goes on in memory and in a fallback copy).
    pub journal_health: JournalHealth,
    /// Fields only the game at the table has (`Game::state_extra`), at the
    /// top level of the JSON object beside the others.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
    /// What a device's board page may tap (not in `tandem ctl state`: the
    /// device's `/api/state` adds it).
    #[serde(skip)]
    pub taps: crate::interface::Taps,
    /// What an e-board is compared with (`Game::board_sight`; not in
    /// `tandem ctl state`): the e-board seats follow it (docs/eboards.md).
    #[serde(skip)]
    pub sight: Option<crate::interface::BoardSight>,
    /// What only the terminal screen shows (not in `tandem ctl state`).
    #[serde(skip)]
    pub screen: ScreenView,
}

/// The game's own views for the terminal screen, from the game interface.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScreenView {
    /// The board diagram, the last move's squares marked `*` (`Game::diagram`).
    pub diagram: String,
    /// The moves so far, numbered (`Game::record_lines`).
    pub record: Vec<String>,
    /// The legal moves, for completing typed input (`Game::legal_move_texts`).
    pub legal: Vec<String>,
    /// A board read back differs from the record (until the clock resumes).
    pub differ: bool,
}

/// Both clocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClocksView {
    /// White's.
    pub white: ClockView,
    /// Black's.
    pub black: ClockView,
    /// Whether the clock runs.
    pub running: bool,
    /// Whether it was stopped (mismatch, arbiter, resume).
    pub paused: bool,
    /// The time control, written form.
    pub control: String,
}

/// Both boards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardsView {
    /// White's board.
    pub white: BoardView,
    /// Black's board.
    pub black: BoardView,
}

/// What subscribers (the screen, `ctl` event streams) are told.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Notice {
    /// Something was said.
    Speech {
        /// `now`, `next`, `normal`.
        priority: Priority,
        /// What about.
        kind: Kind,
        /// The words.
        text: String,
        /// The seats whose outputs got it (the journal's `to`).
        to: Vec<Color>,
    },
    /// The state changed (a move, a clock event, a board confirmation…).
    State(Box<StateView>),
    /// A pairing code for a device seat was made (`tandem ctl pair SIDE`,
    /// `pair SIDE` typed at the table: sent by the control socket or the
    /// screen, not by the session): the table screen
    /// shows it with a QR code of the page's address.
    Pairing {
        /// The side the device becomes.
        side: Color,
        /// Six digits.
        code: String,
        /// The page to open on the device.
        url: String,
        /// How long the code is good for.
        expires_ms: u64,
        /// Over TLS: the certificate's SHA-256 fingerprint, shown (never said).
        #[serde(skip_serializing_if = "Option::is_none")]
        fingerprint: Option<String>,
    },
    /// A device was lost or works again (sent by `tandem play`'s device
    /// threads, not by the session: `braille`, `speech`).
    Device {
        /// Which.
        device: String,
        /// Whether it works (again).
        ok: bool,
        /// What happened.
        text: String,
    },
}

/// The answer to a request.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Reply {
    /// Whether the request was carried out.
    pub ok: bool,
    /// Why not (log wording; `said` has what the player heard).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What tandem said in answer, in order.
    pub said: Vec<String>,
    /// The state, for `state` (and after every change, for convenience).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<StateView>,
    /// Set when the request was carried out (`ok`) and changed the game, but
    /// its journal line is not yet in the journal file (written and
    /// `fsync`ed): the journal cannot be written (a full disk, a file-size
    /// limit) and the line is kept in memory, and in the fallback copy when
    /// `fallback_ok`. A crash now would lose it from the journal file. Absent
    /// when the request is durable. `tandem ctl` exits 3, not 0 (issue 26).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsaved: Option<crate::journal::JournalHealth>,
    /// `pair SIDE`: the code, the page's address and how long the code
    /// is good for (docs/devices.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pair: Option<serde_json::Value>,
    /// `devices`: each seat's paired devices (`{"white": [{"address":
    /// "…", "since": "…"}], "black": []}`; docs/devices.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub devices: Option<serde_json::Value>,
}

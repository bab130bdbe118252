//! The registry of games: the one place that knows which games there are.
//!
//! A game's name (`--variant`, the journal's `variant`, `tandem ctl state`)
//! parses to a [`GameKind`]; a kind gives its start position or reads a
//! position text ([`GameKind::position`]) into an [`AnyPosition`]; a
//! position becomes the game at the table, a `Box<dyn Game>` ([`new_game`],
//! [`from_journal`]) behind the one interface [`crate::games::Game`]. The
//! session, the journal, the control socket and the screen only ever go
//! through these. Adding a game: a variant of [`GameKind`] and of
//! [`AnyPosition`], an arm in each `match` of this file, and the game's
//! module in `crate::games` (see `docs/games.md`).

use tandem_braille::{StatusInfo, Width};
use tandem_rules::backgammon::Match;
use tandem_rules::chess;
use tandem_rules::draughts::Position;
use tandem_rules::GameOptions;

pub use crate::games::{Game, Prepared, Refused};
pub use crate::kind::{AnyPosition, GameKind, ParseGameKindError};

impl GameKind {
    /// The start position of this game, or the one a FEN gives.
    ///
    /// # Errors
    /// The FEN does not parse for this game.
    pub fn position(self, fen: Option<&str>) -> anyhow::Result<AnyPosition> {
        Ok(match (self, fen) {
            (GameKind::Draughts(v), None) => AnyPosition::Draughts(Position::start(v)),
            (GameKind::Draughts(v), Some(f)) => AnyPosition::Draughts(
                Position::from_fen(v, f).map_err(|e| anyhow::anyhow!("FEN {f:?}: {e}"))?,
            ),
            (GameKind::Chess, None) => AnyPosition::Chess(Box::new(chess::start())),
            (GameKind::Chess, Some(f)) => AnyPosition::Chess(Box::new(
                chess::from_fen(f).map_err(|e| anyhow::anyhow!("FEN {f:?}: {e}"))?,
            )),
            (GameKind::Backgammon, None) => AnyPosition::Backgammon(Box::new(Match::new(
                tandem_rules::backgammon::MatchOptions { length: 7 },
            ))),
            (GameKind::Backgammon, Some(f)) => AnyPosition::Backgammon(Box::new(
                crate::games::backgammon::match_from_ids(f)
                    .map_err(|e| anyhow::anyhow!("position {f:?}: {e}"))?,
            )),
        })
    }

    /// How this game listens in `tandem hear`: its ear for the position,
    /// words and dice of `req`.
    ///
    /// # Errors
    /// The position, dice, language or phrasebook of `req` do not read.
    pub fn ear(
        self,
        req: &crate::voice::ear::EarRequest<'_>,
    ) -> anyhow::Result<crate::voice::ear::Ear> {
        match self {
            GameKind::Draughts(v) => crate::games::draughts::ear::ear(v, req),
            GameKind::Chess => crate::games::chess::ear::ear(req),
            GameKind::Backgammon => crate::games::backgammon::ear::ear(req),
        }
    }

    /// The arbiter's tools of this game (`tandem arbiter`).
    #[must_use]
    pub fn arbiter(self) -> &'static dyn crate::arbiter::ArbiterGame {
        match self {
            GameKind::Draughts(_) => &crate::games::draughts::arbiter::DraughtsArbiter,
            GameKind::Chess => &crate::games::chess::arbiter::ChessArbiter,
            GameKind::Backgammon => &crate::games::backgammon::arbiter::BackgammonArbiter,
        }
    }
}

impl GameKind {
    /// The move text of a move routed on the braille display by two
    /// targets ([`tandem_braille::Action::MoveRequest`]), for the session
    /// to decide like a typed one; `None` for a game whose view routes move
    /// text itself.
    #[must_use]
    pub fn routed_move(
        self,
        from: tandem_braille::Target,
        to: tandem_braille::Target,
    ) -> Option<String> {
        match self {
            GameKind::Draughts(v) => Some(crate::games::draughts::routed_move(v, from, to)),
            GameKind::Chess | GameKind::Backgammon => None,
        }
    }

    /// `tandem braille render`: the lines of `view` of this game's
    /// position `fen` (its start without one) on a display `width` cells
    /// wide; `viewer` is whose numbering a game that numbers the board from
    /// one side uses (backgammon; by default the player on roll).
    ///
    /// # Errors
    /// The position does not read.
    pub fn braille_render(
        self,
        fen: Option<&str>,
        view: tandem_braille::View,
        width: Width,
        viewer: Option<tandem_rules::Color>,
    ) -> anyhow::Result<Vec<tandem_braille::view::PrintedLine>> {
        match self {
            GameKind::Draughts(v) => crate::games::draughts::braille::render(v, fen, view, width),
            GameKind::Chess => crate::games::chess::braille::render(fen, view, width),
            GameKind::Backgammon => crate::games::backgammon::braille::render(fen, width, viewer),
        }
    }

    /// `tandem perft`: this game's move tree from `fen` counted to `depth`.
    ///
    /// # Errors
    /// The FEN does not read, or the game has no tree of moves alone to
    /// count (backgammon: chance nodes between the plies).
    pub fn count_tree(
        self,
        fen: Option<&str>,
        depth: u32,
        divide: bool,
    ) -> anyhow::Result<crate::perft_count::TreeCount> {
        match self {
            GameKind::Draughts(v) => {
                crate::games::draughts::one_shot::count_tree(v, fen, depth, divide)
            }
            GameKind::Chess => crate::games::chess::one_shot::count_tree(fen, depth, divide),
            GameKind::Backgammon => crate::games::backgammon::one_shot::count_tree(),
        }
    }
}

// The one-shot commands (`tandem moves`, `say`, `pdn check`; `crate::one_shot`):
// each game answers in its folder (`crate::games::<game>::one_shot`).
impl GameKind {
    /// `tandem moves`: the legal moves of the position asked, in the game's
    /// notation (backgammon: of the roll asked).
    ///
    /// # Errors
    /// The position (or the roll) does not read, or is missing.
    pub fn list_moves(self, asked: &crate::one_shot::MovesAsked) -> anyhow::Result<Vec<String>> {
        match self {
            GameKind::Draughts(v) => crate::games::draughts::one_shot::moves(v, asked),
            GameKind::Chess => crate::games::chess::one_shot::moves(asked),
            GameKind::Backgammon => crate::games::backgammon::one_shot::moves(asked),
        }
    }

    /// `tandem say`: the announcement of the move asked, as tandem would
    /// speak it in this game.
    ///
    /// # Errors
    /// The phrasebook or the position does not read.
    pub fn say(self, asked: &crate::one_shot::SayAsked) -> anyhow::Result<crate::one_shot::Said> {
        match self {
            GameKind::Draughts(v) => crate::games::draughts::one_shot::say(v, asked),
            GameKind::Chess => crate::games::chess::one_shot::say(asked),
            GameKind::Backgammon => crate::games::backgammon::one_shot::say(asked),
        }
    }

    /// `tandem pdn check`: every game of a record file of this game replayed.
    ///
    /// # Errors
    /// This game has no record file that `pdn check` reads.
    pub fn check_records(self, bytes: &[u8]) -> anyhow::Result<Vec<crate::one_shot::RecordReport>> {
        match self {
            GameKind::Draughts(v) => Ok(crate::games::draughts::one_shot::check_records(v, bytes)),
            GameKind::Chess => Ok(crate::games::chess::one_shot::check_records(bytes)),
            GameKind::Backgammon => {
                anyhow::bail!("tandem pdn check reads PDN and PGN, not backgammon's .mat")
            }
        }
    }

    /// The game whose record files `tandem pdn check` tells by their ending
    /// alone (`pgn`: chess); a file of another ending is read as PDN, of
    /// the game [`GameKind::parse_pdn`] gives.
    #[must_use]
    pub fn by_record_ending(ending: &str) -> Option<GameKind> {
        ending
            .eq_ignore_ascii_case("pgn")
            .then_some(GameKind::Chess)
    }

    /// The ending of the game's record as `Game::export` writes it
    /// (`pdn`, `pgn`, `mat`): the name of a table's game file at the hall
    /// and which round file (`/api/round.pdn`, `/api/round.pgn`) holds it.
    #[must_use]
    pub fn record_ending(self) -> &'static str {
        match self {
            GameKind::Draughts(_) => crate::games::draughts::one_shot::RECORD_ENDING,
            GameKind::Chess => crate::games::chess::one_shot::RECORD_ENDING,
            GameKind::Backgammon => crate::games::backgammon::one_shot::RECORD_ENDING,
        }
    }

    /// `tandem pdn check --variant`: a game whose records are PDN (a draughts
    /// variant: `international`, `sixty-four`).
    ///
    /// # Errors
    /// Not the name of a draughts variant (the variant's own message).
    pub fn parse_pdn(name: &str) -> Result<GameKind, tandem_rules::draughts::ParseVariantError> {
        name.parse().map(GameKind::Draughts)
    }
}

// `tandem play --phrasebook FILE` (`crate::game_book`): each game reads
// its own in its folder (`crate::games::<game>::book`).
impl GameKind {
    /// `--phrasebook FILE` read as this game's phrasebook.
    ///
    /// # Errors
    /// The file does not read, or is not a phrasebook of this game.
    pub fn read_phrasebook(
        self,
        file: &std::path::Path,
    ) -> anyhow::Result<crate::game_book::GameBook> {
        match self {
            GameKind::Draughts(_) => crate::games::draughts::book::read(file),
            GameKind::Chess => crate::games::chess::book::read(file),
            GameKind::Backgammon => crate::games::backgammon::book::read(file),
        }
    }

    /// This game's own words for voice input (`None`: the built-in ones of
    /// the language, [`crate::voice::VoiceGame::words`]): from `book` (the
    /// `--phrasebook` file, if any), `table` (the table's phrasebook) and
    /// `lang`.
    ///
    /// # Errors
    /// The file's listening words do not read.
    pub fn voice_words(
        self,
        book: &crate::game_book::GameBook,
        table: &tandem_speech::Phrasebook,
        lang: &str,
    ) -> anyhow::Result<Option<crate::voice::GameWords>> {
        match self {
            GameKind::Draughts(_) => Ok(None),
            GameKind::Chess => crate::games::chess::book::words(book, table, lang).map(Some),
            GameKind::Backgammon => crate::games::backgammon::book::words(book, table),
        }
    }
}

impl AnyPosition {
    /// The voice listener of this position's game (its [`VoiceGame`]), for
    /// the voice thread, which names no game.
    ///
    /// # Errors
    /// The recognizer refuses the grammar.
    ///
    /// [`VoiceGame`]: crate::voice::VoiceGame
    pub fn listener(
        self,
        rec: Box<dyn tandem_speech::listen::Recognizer>,
        setup: &crate::voice::VoiceSetup,
        policy: tandem_speech::listen::ConfirmPolicy,
        mode: tandem_speech::listen::audio::Mode,
    ) -> Result<Box<dyn crate::voice::GameListener>, tandem_speech::listen::ListenError> {
        use crate::voice::listener;
        match self {
            AnyPosition::Draughts(p) => {
                listener::<tandem_speech::draughts::listen::Draughts>(rec, setup, policy, mode, p)
            }
            AnyPosition::Chess(p) => {
                listener::<tandem_speech::chess::listen::ChessVoice>(rec, setup, policy, mode, *p)
            }
            AnyPosition::Backgammon(m) => {
                listener::<tandem_speech::backgammon::listen::BgVoice>(rec, setup, policy, mode, *m)
            }
        }
    }
}

impl AnyPosition {
    /// The board the braille display shows first, seen by `viewer` (the
    /// blind player; a game that numbers the board from one side, as
    /// backgammon does, shows it in that side's numbering).
    #[must_use]
    pub fn braille_board(self, viewer: tandem_rules::Color) -> tandem_braille::Board {
        match self {
            AnyPosition::Draughts(p) => tandem_braille::Board::Draughts(p),
            AnyPosition::Chess(p) => tandem_braille::Board::Chess(*p),
            AnyPosition::Backgammon(game) => tandem_braille::Board::Backgammon { game, viewer },
        }
    }
}

/// The game at the table from its start position, spoken in `lang`.
#[must_use]
pub fn new_game(start: AnyPosition, options: GameOptions, lang: &str) -> Box<dyn Game> {
    match start {
        AnyPosition::Draughts(p) => {
            Box::new(crate::games::draughts::DraughtsTable::new(p, options, lang))
        }
        AnyPosition::Chess(p) => Box::new(crate::games::chess::ChessTable::new(*p, lang)),
        AnyPosition::Backgammon(m) => Box::new(crate::games::backgammon::BackgammonTable::new(
            *m, options, lang,
        )),
    }
}

/// A game from its journal start: `variant` (`international`,
/// `sixty-four`, `chess`) and start FEN, spoken in `lang`.
///
/// # Errors
/// An unknown variant or a bad FEN.
pub fn from_journal(
    variant: &str,
    fen: &str,
    options: GameOptions,
    lang: &str,
) -> anyhow::Result<Box<dyn Game>> {
    let kind: GameKind = variant.parse()?;
    Ok(new_game(kind.position(Some(fen))?, options, lang))
}

/// The registry's functions the arbiter's tools take (`crate::arbiter`
/// sits below the games, so the command hands them down).
#[must_use]
pub fn arbiter_registry() -> crate::arbiter::Registry {
    crate::arbiter::Registry {
        from_journal,
        picture_of_text,
        arbiter: GameKind::arbiter,
    }
}

/// The picture of a bare position (no last move known): the arbiter's
/// reports and the hall's boards of a position text.
#[must_use]
pub fn picture_of(pos: &AnyPosition) -> crate::picture::BoardPicture {
    match pos {
        AnyPosition::Draughts(p) => crate::games::draughts::picture::picture(p, None),
        AnyPosition::Chess(p) => crate::games::chess::picture::picture(p, None),
        AnyPosition::Backgammon(m) => crate::games::backgammon::picture::picture(m),
    }
}

/// The picture of a position given by its game's name and position text.
///
/// # Errors
/// The name or the position text does not read.
pub fn picture_of_text(variant: &str, fen: &str) -> anyhow::Result<crate::picture::BoardPicture> {
    let kind: GameKind = variant.parse()?;
    match (kind.position(Some(fen)), kind) {
        (Ok(p), _) => Ok(picture_of(&p)),
        // A chess board read back as its board part only: white to move.
        (Err(_), GameKind::Chess) if !fen.trim().contains(' ') => Ok(picture_of(
            &kind.position(Some(&format!("{} w - - 0 1", fen.trim())))?,
        )),
        // A backgammon position the table would not start from (a score,
        // a turned cube) or a Position ID alone: drawn as it is.
        (Err(_), GameKind::Backgammon) => {
            crate::games::backgammon::picture::from_ids(fen, tandem_rules::Color::White)
                .map_err(|e| anyhow::anyhow!("{e}"))
        }
        (Err(e), _) => Err(e),
    }
}

/// The screen's board diagram and braille line (list view) of a position
/// given by its game's name and position text.
///
/// # Errors
/// The name or the position text does not read.
pub fn screen_board(
    variant: &str,
    fen: &str,
    status: &StatusInfo,
    width: Width,
) -> Result<(String, String), String> {
    let kind: GameKind = variant
        .parse()
        .map_err(|e: ParseGameKindError| e.to_string())?;
    Ok(match kind.position(Some(fen)).map_err(|e| e.to_string())? {
        AnyPosition::Draughts(p) => (
            crate::games::draughts::diagram(&p),
            crate::games::draughts::braille_line(&p, status, width),
        ),
        AnyPosition::Chess(p) => (
            crate::games::chess::diagram(&p),
            crate::games::chess::braille_line(&p, status, width),
        ),
        AnyPosition::Backgammon(m) => (
            crate::games::backgammon::diagram(m.board()),
            crate::games::backgammon::braille_line(&m, status, width),
        ),
    })
}

// `tandem play`'s options for the table's game (crate::table_options).
impl GameKind {
    /// The game's default time control for `--control` (a name of
    /// `TimeControl::lookup`), given `--match`.
    #[must_use]
    pub fn default_control(self, match_length: u32) -> String {
        match self {
            GameKind::Draughts(_) => crate::games::draughts::options::default_control(match_length),
            GameKind::Chess => crate::games::chess::options::default_control(match_length),
            GameKind::Backgammon => {
                crate::games::backgammon::options::default_control(match_length)
            }
        }
    }

    /// The event's options the game takes from what was asked.
    #[must_use]
    pub fn options(self, asked: &crate::table_options::Asked<'_>) -> GameOptions {
        match self {
            GameKind::Draughts(_) => crate::games::draughts::options::options(asked),
            GameKind::Chess => crate::games::chess::options::options(asked),
            GameKind::Backgammon => crate::games::backgammon::options::options(asked),
        }
    }
}

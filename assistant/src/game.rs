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
use tandem_rules::chess::shakmaty::{Chess, Position as _};
use tandem_rules::{Color, GameOptions, Position, Variant};

pub use crate::games::{Game, Prepared, Refused};

/// Which game: draughts of a variant, or chess (`--variant`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameKind {
    /// International or 64-square draughts.
    Draughts(Variant),
    /// Chess.
    Chess,
    /// Backgammon, a match (004).
    Backgammon,
}

impl GameKind {
    /// The game's name in a document's heading, in Polish or English
    /// (`Warcaby międzynarodowe`, `Chess`).
    #[must_use]
    pub fn title(self, pl: bool) -> &'static str {
        let (en, polish) = match self {
            GameKind::Draughts(Variant::SixtyFour) => ("64-square draughts", "Warcaby 64-polowe"),
            GameKind::Draughts(_) => ("International draughts", "Warcaby międzynarodowe"),
            GameKind::Chess => ("Chess", "Szachy"),
            GameKind::Backgammon => ("Backgammon", "Tryktrak"),
        };
        if pl {
            polish
        } else {
            en
        }
    }

    /// The name on the command line, in JSON and in the journal.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Draughts(v) => v.name(),
            GameKind::Chess => "chess",
            GameKind::Backgammon => "backgammon",
        }
    }

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
}

/// An unknown `--variant` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseGameKindError(pub String);

impl std::fmt::Display for ParseGameKindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown variant {:?} (expected international, sixty-four, chess or backgammon)",
            self.0
        )
    }
}

impl std::error::Error for ParseGameKindError {}

impl std::str::FromStr for GameKind {
    type Err = ParseGameKindError;

    fn from_str(s: &str) -> Result<GameKind, ParseGameKindError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "chess" | "szachy" | "fide" => Ok(GameKind::Chess),
            "backgammon" | "tryktrak" | "bg" => Ok(GameKind::Backgammon),
            _ => s
                .parse::<Variant>()
                .map(GameKind::Draughts)
                .map_err(|_| ParseGameKindError(s.to_owned())),
        }
    }
}

/// A position of either game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyPosition {
    /// Draughts.
    Draughts(Position),
    /// Chess (boxed: it is several times the size of a draughts position).
    Chess(Box<Chess>),
    /// Backgammon: the match as it stands (position text `PositionID:MatchID`).
    Backgammon(Box<Match>),
}

impl AnyPosition {
    /// Whose move it is.
    #[must_use]
    pub fn turn(&self) -> Color {
        match self {
            AnyPosition::Draughts(p) => p.turn(),
            AnyPosition::Chess(p) => p.turn().into(),
            AnyPosition::Backgammon(m) => tandem_rules::TableGame::side_to_move(&**m),
        }
    }

    /// The game.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            AnyPosition::Draughts(p) => GameKind::Draughts(p.variant()),
            AnyPosition::Chess(_) => GameKind::Chess,
            AnyPosition::Backgammon(_) => GameKind::Backgammon,
        }
    }

    /// Whether `other` is a position of the same game (any variant of it).
    #[must_use]
    pub fn same_game(&self, other: &AnyPosition) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }

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
                listener::<tandem_speech::listen::Draughts>(rec, setup, policy, mode, p)
            }
            AnyPosition::Chess(p) => {
                listener::<tandem_speech::chess_listen::ChessVoice>(rec, setup, policy, mode, *p)
            }
            AnyPosition::Backgammon(m) => {
                listener::<tandem_speech::backgammon_listen::BgVoice>(rec, setup, policy, mode, *m)
            }
        }
    }

    /// FEN (PDN FEN for draughts).
    #[must_use]
    pub fn to_fen(&self) -> String {
        match self {
            AnyPosition::Draughts(p) => p.to_fen(),
            AnyPosition::Chess(p) => chess::to_fen(p),
            AnyPosition::Backgammon(m) => tandem_rules::TableGame::position_text(&**m),
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

/// The picture of a bare position (no last move known): the arbiter's
/// reports and the hall's boards of a position text.
#[must_use]
pub fn picture_of(pos: &AnyPosition) -> crate::picture::BoardPicture {
    match pos {
        AnyPosition::Draughts(p) => crate::games::draughts_picture::picture(p, None),
        AnyPosition::Chess(p) => crate::games::chess_picture::picture(p, None),
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

//! The one game interface of the table: everything the session, the
//! journal replay, the screen, the record export and the voice path need
//! from a game, spoken in text, [`Utterance`]s and braille, so that none of
//! them names a game.
//!
//! A game at the table is a `Box<dyn Game>` (see [`crate::game`], the
//! registry: the one place that knows which games there are). This module
//! is traits and data only, on the floor below the games: each game
//! brings, in its own folder of [`crate::games`], its rules (through the rules crate), its
//! words (the speech crate's announcer of that game), its braille view and
//! its record format; its voice grammar is the speech crate's listener of
//! that game ([`crate::voice::VoiceGame`]).
//!
//! The session's flow is the same for every game: "decide, journal, apply,
//! announce". A game decides a move ([`Game::prepare`]) or a game action
//! beyond moves ([`Game::action`]: backgammon's `roll 3 1`, `double`…),
//! the session journals it, applies it to the game ([`Game::play_text`],
//! [`Game::play_action`]), presses the clock if the turn ended, and says the
//! game's words. See `docs/games.md`.

use tandem_braille::driver::DriverInput;
use tandem_braille::{StatusInfo, Width};
use tandem_rules::{Color, DrawReason, Outcome};
use tandem_speech::{Phrasebook, Utterance};

use crate::kind::{AnyPosition, GameKind};

/// The legal moves as a sighted player taps them on the board's picture
/// ([`Game::taps`]), and the game's actions beyond moves: what a device's
/// board page offers, without knowing the game.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Taps {
    /// Who acts now (`None`: either side, a backgammon opening roll).
    pub actor: Option<Color>,
    /// Each legal move: the picture's squares tapped for it and its text.
    pub moves: Vec<TapMove>,
    /// The moves' squares are hops (a point left, a point reached: one a
    /// die) in any order, sent as the player tapped them (backgammon);
    /// otherwise a path, in order (the piece's square, then each landing).
    pub hops: bool,
    /// How the player's side writes each of the picture's squares, where it
    /// differs from the square's id (backgammon's points counted from the
    /// mover's side).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub names: std::collections::BTreeMap<String, String>,
    /// The game's actions the side to act may take now: `roll` (the dice
    /// rolled by the players, entered: `roll 3 1`), `roll-here` (rolled by
    /// the table: `roll`), `double`, `take`, `pass`.
    pub actions: Vec<String>,
}

/// One legal move on the picture.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TapMove {
    /// The squares: the piece's, then each landing (draughts' captures
    /// land more than once), or a backgammon play's hops.
    pub squares: Vec<String>,
    /// The move's text, as the game reads it back.
    pub text: String,
    /// What the player chooses between moves of the same squares (a chess
    /// promotion's piece: `queen`, `rook`, `bishop`, `knight`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choice: Option<String>,
}

/// A move checked against the rules, ready to journal and announce.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The move in strict notation (`32-28`, SAN `Nf3`): what the journal keeps.
    pub text: String,
    /// Its announcement (001 ch. VIII 2.2; 002 annex E.2).
    pub announce: Utterance,
}

/// A game action beyond moves, checked against the rules (backgammon: a
/// roll, a double, a take): journaled as an `action` event, then applied
/// with [`Game::play_action`].
#[derive(Debug, Clone)]
pub struct PreparedAction {
    /// The action in the game's strict words (`roll 3 1`): what the journal keeps.
    pub text: String,
    /// Who acts (a take or a pass is the opponent's).
    pub side: Color,
    /// Either side's seat may take it (backgammon's opening roll rolled by
    /// the table: the dice, not the seat, say who starts).
    pub either_seat: bool,
    /// Whether the action ends the turn (presses the clock, like a move).
    pub press: bool,
    /// What to say.
    pub announce: Utterance,
}

/// A move or an action the rules refuse.
#[derive(Debug, Clone)]
pub struct Refused {
    /// The reason, for the log and the control socket.
    pub reason: String,
    /// The reason in the player's words.
    pub say: Utterance,
}

/// What a board read back shows, against the record (001 ch. VIII 3.1,
/// 002 annex E.4).
#[derive(Debug, Clone)]
pub struct BoardCheck {
    /// Whether a board was read back at all (else the record's position is
    /// read out after the difference is told).
    pub read_back: bool,
    /// The board matches the record now.
    pub matches_now: bool,
    /// A whole board (not a few squares) was read back.
    pub complete: bool,
    /// The latest earlier ply whose position the whole board shows: the
    /// board is only behind.
    pub shows_ply: Option<usize>,
    /// The differing squares, for the journal (`28: record white man, board empty`).
    pub diffs: Vec<String>,
    /// The position text of a whole board read back.
    pub board_fen: Option<String>,
    /// The differences in the player's words.
    pub differ: Utterance,
}

/// What an electronic board (`tandem play --seat SIDE:board=…`, issue 42,
/// docs/eboards.md) is compared with: the pieces of the game's position,
/// of the position before the last move, and of every legal next
/// position ([`Game::board_sight`]). A placement is 64 characters, one a
/// square from the top left as the board's first player sees it (a8 … h8,
/// a7 … h1 in chess), a FEN piece letter or `.` for an empty square; the
/// squares are named as the game names them (`e2`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardSight {
    /// The position now.
    pub now: String,
    /// The position before the last move, and that move (a board not yet
    /// brought up to date shows it; its lights show the move).
    pub last: Option<SightMove>,
    /// Each legal move now, with the position after it.
    pub next: Vec<SightMove>,
}

/// One move as a board sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SightMove {
    /// The placement after the move (for [`BoardSight::last`]: before it).
    pub placement: String,
    /// The move's text, as the game reads it back (`e2e4`, `e7e8n`).
    pub text: String,
    /// The squares its lights show: where the piece stood, where it goes.
    pub squares: Vec<String>,
    /// Placements a hand passes through on its way that are not yet the
    /// move (a pawn set on the last rank before the piece it becomes).
    pub via: Vec<String>,
}

/// A board read back that cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardNotRead;

/// One game at the table: rules, words, views and record together.
///
/// Object safe: the session holds a `Box<dyn Game>` made by the registry
/// ([`crate::game`]). Methods with a default are for what some games do
/// not have (draw claims, game actions, extra state fields).
pub trait Game: std::fmt::Debug + Send {
    // --- identity -------------------------------------------------------

    /// Which game (`--variant`, the journal's `variant`).
    fn kind(&self) -> GameKind;
    /// A copy.
    fn clone_box(&self) -> Box<dyn Game>;

    // --- rules ----------------------------------------------------------

    /// Plies played.
    fn ply(&self) -> usize;
    /// The side to move (or to act).
    fn turn(&self) -> Color;
    /// The current position.
    fn position(&self) -> AnyPosition;
    /// The position after `ply` plies.
    fn position_at(&self, ply: usize) -> Option<AnyPosition>;
    /// The position text: PDN FEN, FEN (backgammon: Position ID).
    fn fen(&self) -> String;
    /// The moves in strict notation, one a ply.
    fn move_texts(&self) -> Vec<String>;
    /// The last move in strict notation (the braille status line).
    fn last_move_text(&self) -> Option<String>;
    /// How the game ended, if it did.
    fn outcome(&self) -> Option<Outcome>;
    /// The result as the game's record writes it (PDN `2-0`, PGN `1-0`, `*`).
    fn result_text(&self, outcome: Option<Outcome>) -> &'static str;
    /// Ends the game (resignation, agreement, time, the arbiter).
    fn declare(&mut self, outcome: Outcome);
    /// Takes the last move back.
    fn undo(&mut self);
    /// Moves `side` has made (the clock's count, 001 ch. VIII 5.1).
    fn moves_made(&self, side: Color) -> u32;
    /// Whether the ply of index `i` (0: the first played) changes the
    /// pieces on the board: what the two boards' sync counts (a board is
    /// behind by the moves it lacks). Every move of draughts and chess does;
    /// backgammon's rolls and cube actions do not.
    fn changes_board(&self, _i: usize) -> bool {
        true
    }
    /// Whether `side` may offer a draw now.
    fn may_offer_draw(&self, side: Color) -> bool;
    /// Moves each side must have made before offering a draw.
    fn draw_offer_min_moves(&self) -> u32;
    /// Whether a declined draw offer bars the decliner's opponent from
    /// offering again until the other side offers (001 ch. II 5.1).
    fn declined_offer_bars(&self) -> bool;
    /// Plays a move from its strict text (journal replay).
    ///
    /// # Errors
    /// The rules refuse it.
    fn play_text(&mut self, text: &str) -> anyhow::Result<()>;
    /// Checks a move typed, spoken or routed in the current position.
    ///
    /// # Errors
    /// The rules refuse it: the reason, worded for the player.
    fn prepare(&self, text: &str) -> Result<Prepared, Refused>;
    /// A flag fell for `side`: the outcome (the opponent wins, unless the
    /// game says otherwise, 002 art. 6.9).
    fn flag_outcome(&self, side: Color) -> Outcome {
        Outcome::Win {
            winner: side.other(),
            reason: tandem_rules::WinReason::Time,
        }
    }

    // --- draw claims (chess) --------------------------------------------

    /// Whether the game has draws to claim; else the refusal.
    ///
    /// # Errors
    /// The game's draws need no claim.
    fn draw_claims(&self) -> Result<(), Refused>;
    /// The draw the player on move may claim now.
    fn claimable_draw(&self) -> Option<DrawReason> {
        None
    }
    /// An incorrect claim: the opponent got `minutes` minutes.
    fn claim_wrong(&self, minutes: u64) -> Utterance;

    // --- game actions beyond moves (backgammon) -------------------------

    /// Claims a typed or control command that is not a move and not a
    /// session command (`roll 3 1`, `double`): `None` if the game has no
    /// such action, else the checked action or its refusal.
    fn action(&self, _text: &str) -> Option<Result<PreparedAction, Refused>> {
        None
    }
    /// Applies a journaled action.
    ///
    /// # Errors
    /// The game has no such action (a foreign journal).
    fn play_action(&mut self, text: &str) -> anyhow::Result<()> {
        anyhow::bail!("this game has no action {text:?}")
    }

    /// Answers a question only this game has (backgammon's `pips`): the
    /// words, or `None` if `text` is not one. Nothing changes and nothing
    /// is journaled but what is said, like `clock`.
    fn query(&self, _text: &str) -> Option<Utterance> {
        None
    }

    /// Answers a question about the board (issue 23, `docs/ask.md`): what
    /// a sighted player sees at a glance, never a move or a hint. `text`
    /// is the typed form (`opponent knights`, `file e`, `row 5`); with
    /// `any_words` also the phrasebook's spoken words ("skoczki
    /// przeciwnika"). "my" is `asker`'s (`None`: nobody in particular, the
    /// answer then asks which side). `None`: not a question of this game.
    fn ask(
        &self,
        _text: &str,
        _asker: Option<Color>,
        _any_words: bool,
    ) -> Option<Result<Utterance, Refused>> {
        None
    }

    /// The refusal of a question this game does not have: which questions
    /// there are (the control socket's error, and said).
    fn unknown_question(&self, text: &str) -> Refused {
        let reason = format!("unknown question {text:?}: this game answers none");
        Refused {
            say: Utterance::new(
                tandem_speech::Priority::Now,
                tandem_speech::Kind::Rejection,
                vec![reason.clone()],
            ),
            reason,
        }
    }

    // --- words ----------------------------------------------------------

    /// What follows the clock report (backgammon: the delay and the match score).
    fn after_clock(&self) -> Option<Utterance> {
        None
    }

    /// Speaks with the table's phrasebook from now on (`--phrasebook`).
    fn set_phrasebook(&mut self, book: &Phrasebook);
    /// Whether a refused move may name the pieces or squares that could
    /// move (`false` in a rated game without `--allow hints`: the refusal
    /// names the rule only, "capture is compulsory"). On by default.
    fn set_hints(&mut self, hints: bool);
    /// Whether hints are on ([`Game::set_hints`]): the screen completes
    /// typed moves from the legal ones only then.
    fn hints(&self) -> bool;
    /// Speaks with the game's own phrasebook (`--phrasebook` of a game
    /// whose words have their own book type); `false` if `book` is not one.
    fn set_game_phrasebook(&mut self, _book: &dyn std::any::Any) -> bool {
        false
    }
    /// The whole position read out.
    fn describe_position(&self) -> Utterance;
    /// What stands on the square numbered `n` (spoken "square N"), if the
    /// game numbers its squares; `None` otherwise or when there is no such
    /// square.
    fn describe_square(&self, _n: u8) -> Option<Utterance> {
        None
    }
    /// The last move again.
    fn last_move(&self) -> Utterance;
    /// A board that shows ply `at`: `behind` plies behind; the first move to make.
    fn board_behind(&self, at: usize, behind: u32) -> Option<Utterance>;
    /// Both boards agree.
    fn boards_in_sync(&self) -> Utterance;
    /// How the game ended.
    fn game_over(&self, outcome: &Outcome) -> Utterance;
    /// How to play.
    fn help(&self) -> Utterance;
    /// What follows a move that did not end the game (a repetition
    /// warning, a draw that may be claimed).
    fn after_move(&self) -> Option<Utterance>;
    /// Whose move it is, in this game's words (a spoken move of the side not to move).
    fn to_move(&self) -> Utterance;

    // --- boards read back -----------------------------------------------

    /// Compares a board read back (a position text, or squares one by one)
    /// with the record; `None`: no board given.
    ///
    /// # Errors
    /// The text cannot be read as a board of this game.
    fn check_board(&self, board: Option<&str>) -> Result<BoardCheck, BoardNotRead>;

    /// What an electronic board of this game is compared with (issue 42,
    /// docs/eboards.md); `None`: the game has no e-board.
    fn board_sight(&self) -> Option<BoardSight> {
        None
    }

    // --- views ----------------------------------------------------------

    /// What the braille driver shows for the current position.
    fn braille(&self, status: &StatusInfo) -> DriverInput;
    /// The braille line of the list view (Unicode braille), for the screen.
    fn braille_line(&self, status: &StatusInfo, width: Width) -> String;
    /// A text diagram of the position, one row a line.
    fn diagram(&self) -> String;
    /// The board as a picture: what the screen, the hall's pages and the
    /// arbiter's reports draw (the last move marked), without knowing the game.
    fn picture(&self) -> crate::picture::BoardPicture;
    /// The list view of the position, every line as (braille cells in
    /// Unicode braille, the same line as text): the hall's page shows both.
    fn braille_list(&self, width: Width) -> Vec<(String, String)>;
    /// The legal moves now, as text the game reads back (`32-28`, `Nf3`):
    /// the screen completes typed moves from them. None for a game that
    /// does not list them.
    fn legal_move_texts(&self) -> Vec<String> {
        Vec::new()
    }
    /// What a sighted seat's page may tap now (`devices`, the board view):
    /// the legal moves by the picture's squares, and the game's own actions.
    /// Nothing for a game that does not list them.
    fn taps(&self) -> Taps {
        Taps::default()
    }
    /// The moves so far as numbered lines (`1. 32-28 19-23`), for a record
    /// view and a spoken record.
    fn record_lines(&self) -> Vec<String> {
        numbered(&self.move_texts(), self.black_first())
    }
    /// The game's announcement of the move of ply index `i` (0: the first
    /// move played), for the spoken record and its review (issue 15);
    /// `None` past the last move.
    fn move_words(&self, _i: usize) -> Option<Utterance> {
        None
    }
    /// Who made the ply of index `i`, said before its words in the spoken
    /// record ("White: …"); `None` when the game's words name the side
    /// themselves (backgammon: once a turn, with the roll).
    fn record_side(&self, i: usize) -> Option<Color> {
        self.position_at(i).map(|p| p.turn())
    }
    /// Whether the game's rules have more than one kind of resignation
    /// (backgammon's game of 1, 2 or 3 times the cube, 004 4.5): then the
    /// session's `resign` by `side` (`None`: the side to act) is this
    /// game's action text, decided by [`Game::action`] like any other
    /// (`resign white 2`, `tandem ctl resign gammon`, an offer the opponent
    /// accepts or declines). `None`: the session ends the game for the
    /// opponent, as in draughts and chess.
    fn resign_action(&self, _side: Option<Color>) -> Option<String> {
        None
    }
    /// The whole position after `ply` plies read out (the review's
    /// "position"); `None` past the last move.
    fn describe_position_at(&self, _ply: usize) -> Option<Utterance> {
        None
    }
    /// What the braille driver shows for the position after `ply` plies
    /// (the review); `None` past the last move.
    fn braille_at(&self, _ply: usize, _status: &StatusInfo) -> Option<DriverInput> {
        None
    }
    /// Whether the record's first move is black's (a game set up with
    /// black to move): its record starts `1. ...`.
    fn black_first(&self) -> bool {
        self.position_at(0)
            .is_some_and(|p| p.turn() == Color::Black)
    }
    /// Fields of `tandem ctl state` only this game has (backgammon:
    /// `position_id`, `dice`, `cube`…); empty for most.
    fn state_extra(&self) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }

    // --- records --------------------------------------------------------

    /// The time control as the record's tag writes it.
    fn record_control(&self, control: &str) -> String {
        control.to_owned()
    }
    /// The comment after a move in the record, from the clocks after it
    /// (`timed`: the game has a clock): both clocks and the move's time
    /// (`white 1:29:48, black 1:30:00, move 0:12`); `None` for none.
    fn clock_comment(
        &self,
        side: Color,
        white_ms: u64,
        black_ms: u64,
        move_ms: u64,
        timed: bool,
    ) -> Option<String> {
        let _ = (side, timed);
        Some(both_clocks(white_ms, black_ms, move_ms))
    }
    /// The game's record (PDN, PGN…) with these tags and a comment a ply.
    fn export(&self, tags: Vec<(String, String)>, comments: Vec<Option<String>>) -> String;
}

impl Clone for Box<dyn Game> {
    fn clone(&self) -> Box<dyn Game> {
        self.clone_box()
    }
}

/// One game's `Game::ask` from its parts: the typed form first, then
/// (with `any_words`) the spoken words of `phrases`; `answer` gives the
/// sentences or the words of a refusal.
pub(crate) fn ask_with(
    text: &str,
    any_words: bool,
    phrases: impl FnOnce() -> Vec<tandem_speech::ask::AskPhrase>,
    answer: impl Fn(&tandem_speech::ask::Question) -> Option<Result<Vec<String>, String>>,
) -> Option<Result<Utterance, Refused>> {
    use tandem_speech::ask::{heard_question, Question};
    use tandem_speech::{Kind, Priority};
    let typed = Question::parse(text).and_then(|q| answer(&q));
    let r = match typed {
        Some(r) => r,
        None if any_words => {
            let q = heard_question(&phrases(), text)?;
            answer(&Question::parse(&q)?)?
        }
        None => return None,
    };
    Some(match r {
        Ok(s) => Ok(Utterance::new(Priority::Now, Kind::Describe, s)),
        Err(s) => Err(Refused {
            reason: s.clone(),
            say: Utterance::new(Priority::Now, Kind::Rejection, vec![s]),
        }),
    })
}

/// A game's question words in `lang` (its `builtin` ones), or its English
/// ones for a language without built-in ones (the table speaks English
/// then too).
pub(crate) fn or_english(
    lang: &str,
    builtin: fn(&str) -> &'static tandem_speech::ask::AskBook,
) -> &'static tandem_speech::ask::AskBook {
    let book = builtin(lang);
    if book.is_empty() {
        builtin("en")
    } else {
        book
    }
}

/// The refusal of an unknown question: `questions` (the typed forms, for
/// the control socket) and the sentence of `book` listing them.
pub(crate) fn unknown_question(
    text: &str,
    questions: &str,
    book: &tandem_speech::ask::AskBook,
) -> Refused {
    Refused {
        reason: format!("unknown question {text:?}; the questions: {questions}"),
        say: Utterance::new(
            tandem_speech::Priority::Now,
            tandem_speech::Kind::Rejection,
            vec![book.unknown()],
        ),
    }
}

/// The PDN clock comment: both clocks after a move and the move's time
/// (`white 1:29:48, black 1:30:00, move 0:12`).
#[must_use]
pub fn both_clocks(white_ms: u64, black_ms: u64, move_ms: u64) -> String {
    let clock = |ms| tandem_braille::view::format_clock(Some(std::time::Duration::from_millis(ms)));
    format!(
        "white {}, black {}, move {}",
        clock(white_ms),
        clock(black_ms),
        clock(move_ms)
    )
}

/// Moves as numbered lines, two plies a line (`1. 32-28 19-23`); a game
/// that black starts begins `1. ... 19-23`.
#[must_use]
pub fn numbered(moves: &[String], black_first: bool) -> Vec<String> {
    let mut all: Vec<&str> = Vec::with_capacity(moves.len() + 1);
    if black_first && !moves.is_empty() {
        all.push("...");
    }
    all.extend(moves.iter().map(String::as_str));
    all.chunks(2)
        .enumerate()
        .map(|(i, p)| format!("{}. {}", i + 1, p.join(" ")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_numbered_two_plies_a_line() {
        let m: Vec<String> = ["32-28", "19-23", "28x19"].map(String::from).to_vec();
        assert_eq!(numbered(&m, false), ["1. 32-28 19-23", "2. 28x19"]);
        assert_eq!(numbered(&m, true), ["1. ... 32-28", "2. 19-23 28x19"]);
        assert!(numbered(&[], true).is_empty());
    }
}

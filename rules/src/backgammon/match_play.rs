//! Match play (004 4.4, 4.5, 4.7): games to a match length, the doubling
//! cube, the Crawford rule, resignations and the score. A match is replayed
//! from its list of actions (roll, move, double, take, pass, resign), which
//! is what the journal keeps.

use std::fmt;

use super::board::{idx, Board, Dice};
use super::movegen::{apply, legal_plays, legal_plays_with_results, Play};
use super::notation;
use super::resolve::{resolve, MoveError};
use crate::Color;

/// The highest cube value (004 4.4 (i): the cube shows 64 in the middle).
pub const MAX_CUBE: u32 = 64;

/// How a match is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MatchOptions {
    /// Points to win the match (004 4.5: played to the agreed length).
    pub length: u32,
}

/// One thing done at the table, in the order done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// The dice. At a game's start (opening roll) the first die is white's
    /// and the second black's, and the higher one moves first with both.
    Roll(Dice),
    /// The side on roll plays its roll ([`Play::PASS`] when it cannot move).
    Move(Play),
    /// The side on roll offers the cube before rolling (004 4.4 (ii)).
    Double,
    /// The opponent takes the cube (004 4.4 (iii)).
    Take,
    /// The opponent passes: the doubler wins the cube's value (004 4.4 (iii)).
    Pass,
    /// A side gives up the game for 1, 2 or 3 times the cube (004 4.5):
    /// the game ends. At the table this is the opponent's acceptance of a
    /// [`Action::ResignOffer`] of the same side and level (004 4.3 (ii) (g):
    /// "jeśli przeciwnik się z tym zgodzi").
    Resign {
        /// Who resigns.
        side: Color,
        /// 1 single, 2 gammon, 3 backgammon.
        level: u8,
    },
    /// A side offers to resign the game for 1, 2 or 3 times the cube (004
    /// 4.5, 4.3 (ii) (g)); the opponent accepts ([`Action::Resign`]) or
    /// declines ([`Action::ResignDecline`]). Nothing else is done meanwhile.
    ResignOffer {
        /// Who offers to resign.
        side: Color,
        /// 1 single, 2 gammon, 3 backgammon.
        level: u8,
    },
    /// The opponent declines the resignation offered: the game is played on
    /// (004 4.3 (ii) (g): "partia musi zostać rozegrana do końca").
    ResignDecline,
}

/// Where the match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// A game is about to start: the opening roll decides who moves first.
    Opening,
    /// The side on roll may double or roll.
    Roll,
    /// The dice are rolled: the side on roll moves.
    Move,
    /// The cube was offered: the opponent takes or passes.
    DoubleOffered,
    /// Someone reached the match length.
    MatchOver,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndKind {
    /// All fifteen borne off, the loser had borne off some: once the cube.
    Single,
    /// The loser had borne off none: twice the cube.
    Gammon,
    /// The loser had borne off none and had a checker on the bar or in the
    /// winner's home board: three times the cube.
    Backgammon,
    /// A double was passed (004 4.4 (iii)).
    Pass,
    /// A resignation (004 4.5) of 1, 2 or 3 times the cube.
    Resign(u8),
}

/// The end of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct GameEnd {
    /// Who won the game.
    pub winner: Color,
    /// Points won (the cube counted in).
    pub points: u32,
    /// How.
    pub kind: EndKind,
}

/// Why an action was refused; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ActionError {
    /// The match is over.
    MatchOver,
    /// The dice were already rolled this turn.
    AlreadyRolled,
    /// A die outside 1..6.
    BadDice,
    /// The opening roll was equal: roll again (both dice are rolled anew).
    OpeningTie,
    /// Nothing to move: the dice are not rolled yet.
    NotRolled,
    /// A double is waiting for take or pass.
    DoublePending,
    /// Take or pass without a double offered.
    NoDouble,
    /// No doubling in the Crawford game (004 4.4 (iv)).
    CrawfordGame,
    /// The cube belongs to the opponent.
    NotYourCube,
    /// The cube is at 64 already.
    CubeAtMaximum,
    /// The cube owned is already enough to win the match: it is dead (004 4.4 (vii)).
    DeadCube,
    /// Only before the roll (004 4.4 (ii)).
    DoubleAfterRoll,
    /// A resignation is 1, 2 or 3.
    BadResignation,
    /// No game is under way.
    NoGame,
    /// A resignation is offered: the opponent accepts or declines first.
    ResignPending,
    /// Accept or decline with no resignation offered.
    NoResignation,
    /// The move is not legal for the roll.
    Move(MoveError),
}

impl ActionError {
    /// The same refusal naming the rule only ([`MoveError::without_hints`]).
    #[must_use]
    pub fn without_hints(self) -> ActionError {
        match self {
            ActionError::Move(e) => ActionError::Move(e.without_hints()),
            e => e,
        }
    }
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            ActionError::MatchOver => "the match is over",
            ActionError::AlreadyRolled => "the dice are already rolled",
            ActionError::BadDice => "dice show 1 to 6",
            ActionError::OpeningTie => "equal opening dice: roll again",
            ActionError::NotRolled => "roll first",
            ActionError::DoublePending => "a double waits for take or pass",
            ActionError::NoDouble => "no double was offered",
            ActionError::CrawfordGame => "no doubling in the Crawford game",
            ActionError::NotYourCube => "the cube is the opponent's",
            ActionError::CubeAtMaximum => "the cube is at 64",
            ActionError::DeadCube => "the cube is dead: it already wins the match",
            ActionError::DoubleAfterRoll => "double before rolling",
            ActionError::BadResignation => "resign 1, 2 or 3",
            ActionError::NoGame => "no game is under way",
            ActionError::ResignPending => "a resignation is offered: accept or decline it first",
            ActionError::NoResignation => "no resignation was offered",
            ActionError::Move(e) => return write!(f, "{e}"),
        };
        f.write_str(s)
    }
}

impl std::error::Error for ActionError {}

/// One game's record: the score before it, and every action with the side
/// that made it and the board before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Score before the game, white then black.
    pub score: [u32; 2],
    /// Whether it is the Crawford game.
    pub crawford: bool,
    /// The actions: who, what, the board before (from the side on roll).
    pub actions: Vec<(Color, Action, Board)>,
    /// How it ended, once it has.
    pub end: Option<GameEnd>,
}

/// A backgammon match under way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    opts: MatchOptions,
    score: [u32; 2],
    crawford_game: bool,
    crawford_played: bool,
    board: Board,
    phase: Phase,
    dice: Option<Dice>,
    cube: u32,
    owner: Option<Color>,
    games: Vec<GameRecord>,
    actions: Vec<Action>,
    declared: Option<crate::Outcome>,
    /// A resignation offered and not yet answered: who, and its level.
    resign_offer: Option<(Color, u8)>,
}

impl Match {
    /// A new match, waiting for the first opening roll.
    #[must_use]
    pub fn new(opts: MatchOptions) -> Match {
        Match {
            opts,
            score: [0, 0],
            crawford_game: false,
            crawford_played: false,
            board: Board::start(Color::White),
            phase: Phase::Opening,
            dice: None,
            cube: 1,
            owner: None,
            games: Vec::new(),
            actions: Vec::new(),
            declared: None,
            resign_offer: None,
        }
    }

    /// A match whose current game starts from a set position (gnubg's
    /// `set board`), `board.turn()` to roll; for studies and tests: a `.mat`
    /// file cannot say where such a game started.
    #[must_use]
    pub fn from_board(opts: MatchOptions, board: Board) -> Match {
        let mut m = Match::new(opts);
        m.games.push(GameRecord {
            score: m.score,
            crawford: false,
            actions: Vec::new(),
            end: None,
        });
        m.board = board;
        m.phase = Phase::Roll;
        m
    }

    /// Replays a list of actions.
    ///
    /// # Errors
    /// The first action refused, with its index.
    pub fn replay(opts: MatchOptions, actions: &[Action]) -> Result<Match, (usize, ActionError)> {
        let mut m = Match::new(opts);
        for (i, a) in actions.iter().enumerate() {
            m.act(*a).map_err(|e| (i, e))?;
        }
        Ok(m)
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> MatchOptions {
        self.opts
    }
    /// The board (its side on roll is the side to move or that moved last).
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// Where the match stands.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The dice of this turn, once rolled.
    #[must_use]
    pub fn dice(&self) -> Option<Dice> {
        self.dice
    }
    /// The cube's value.
    #[must_use]
    pub fn cube(&self) -> u32 {
        self.cube
    }
    /// Who owns the cube (`None`: in the middle).
    #[must_use]
    pub fn cube_owner(&self) -> Option<Color> {
        self.owner
    }
    /// Points of a side.
    #[must_use]
    pub fn score(&self, side: Color) -> u32 {
        self.score[idx(side)]
    }
    /// Whether this game is the Crawford game (004 4.4 (iv), 4.7).
    #[must_use]
    pub fn is_crawford(&self) -> bool {
        self.crawford_game
    }
    /// Whether the Crawford game has been played (post-Crawford games).
    #[must_use]
    pub fn is_post_crawford(&self) -> bool {
        self.crawford_played
    }
    /// The games so far, the current one last.
    #[must_use]
    pub fn games(&self) -> &[GameRecord] {
        &self.games
    }
    /// Every action accepted, in order (what replays the match).
    #[must_use]
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }
    /// Ends the match from outside the board (004 4.3 (iii): a flag fell;
    /// an arbiter's decision). Nothing more is accepted.
    pub fn declare(&mut self, outcome: crate::Outcome) {
        self.declared = Some(outcome);
        self.phase = Phase::MatchOver;
    }
    /// An ending declared from outside the board.
    #[must_use]
    pub fn declared(&self) -> Option<crate::Outcome> {
        self.declared
    }
    /// The winner of the match on points, once decided.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        [Color::White, Color::Black]
            .into_iter()
            .find(|&c| self.score(c) >= self.opts.length)
    }
    /// How the last finished game ended.
    #[must_use]
    pub fn last_end(&self) -> Option<GameEnd> {
        self.games.iter().rev().find_map(|g| g.end)
    }
    /// A resignation offered and not yet answered: who offers, and the level.
    #[must_use]
    pub fn resign_offer(&self) -> Option<(Color, u8)> {
        self.resign_offer
    }
    /// The side that acts next: the side on roll, or the opponent when a
    /// double or a resignation waits for an answer; `None` before an
    /// opening roll or after the match.
    #[must_use]
    pub fn to_act(&self) -> Option<Color> {
        if let Some((side, _)) = self.resign_offer {
            return Some(side.other());
        }
        match self.phase {
            Phase::Opening | Phase::MatchOver => None,
            Phase::Roll | Phase::Move => Some(self.board.turn()),
            Phase::DoubleOffered => Some(self.board.turn().other()),
        }
    }
    /// The legal moves of the roll, each once (empty: a pass).
    #[must_use]
    pub fn legal(&self) -> Vec<Play> {
        match (self.phase, self.dice) {
            (Phase::Move, Some(d)) => legal_plays(&self.board, d),
            _ => Vec::new(),
        }
    }
    /// The Position ID as `gnubg.positionid()` gives it: from the side on roll.
    #[must_use]
    pub fn position_id(&self) -> String {
        super::position_id::encode(&self.board)
    }
    /// A move text resolved against the position and the roll.
    ///
    /// # Errors
    /// No dice yet, or the text names no legal move.
    pub fn resolve(&self, text: &str) -> Result<Play, ActionError> {
        match (self.phase, self.dice) {
            (Phase::Move, Some(d)) => resolve(&self.board, d, text).map_err(ActionError::Move),
            (Phase::MatchOver, _) => Err(ActionError::MatchOver),
            _ => Err(ActionError::NotRolled),
        }
    }
    /// A legal move written as gnubg writes it, in the current position.
    #[must_use]
    pub fn move_text(&self, play: &Play) -> String {
        notation::write(&self.board, play)
    }

    fn record(&mut self, who: Color, a: Action) {
        let before = self.board;
        if let Some(g) = self.games.last_mut() {
            g.actions.push((who, a, before));
        }
        self.actions.push(a);
    }

    /// Does one action.
    ///
    /// # Errors
    /// The action is not allowed now; nothing changed.
    pub fn act(&mut self, a: Action) -> Result<(), ActionError> {
        if self.phase == Phase::MatchOver {
            return Err(ActionError::MatchOver);
        }
        if self.resign_offer.is_some()
            && !matches!(a, Action::Resign { .. } | Action::ResignDecline)
        {
            return Err(ActionError::ResignPending);
        }
        match a {
            Action::Roll(d) => self.roll(d),
            Action::Move(p) => self.play(p),
            Action::Double => self.double(),
            Action::Take => self.take(),
            Action::Pass => self.pass(),
            Action::Resign { side, level } => self.resign(side, level),
            Action::ResignOffer { side, level } => self.offer_resign(side, level),
            Action::ResignDecline => self.decline_resign(),
        }
    }

    fn roll(&mut self, d: Dice) -> Result<(), ActionError> {
        if Dice::new(d.0, d.1).is_none() {
            return Err(ActionError::BadDice);
        }
        match self.phase {
            Phase::Opening => {
                // 004 4.1: each player rolls one die; the higher moves first with both.
                if d.0 == d.1 {
                    return Err(ActionError::OpeningTie);
                }
                let first = if d.0 > d.1 {
                    Color::White
                } else {
                    Color::Black
                };
                self.games.push(GameRecord {
                    score: self.score,
                    crawford: self.crawford_game,
                    actions: Vec::new(),
                    end: None,
                });
                self.board = Board::start(first);
                self.cube = 1;
                self.owner = None;
                self.record(first, Action::Roll(d));
                self.dice = Some(d);
                self.phase = Phase::Move;
                Ok(())
            }
            Phase::Roll => {
                self.record(self.board.turn(), Action::Roll(d));
                self.dice = Some(d);
                self.phase = Phase::Move;
                Ok(())
            }
            Phase::Move => Err(ActionError::AlreadyRolled),
            Phase::DoubleOffered => Err(ActionError::DoublePending),
            Phase::MatchOver => Err(ActionError::MatchOver),
        }
    }

    fn play(&mut self, p: Play) -> Result<(), ActionError> {
        let (Phase::Move, Some(d)) = (self.phase, self.dice) else {
            return Err(match self.phase {
                Phase::DoubleOffered => ActionError::DoublePending,
                Phase::Opening => ActionError::NoGame,
                _ => ActionError::NotRolled,
            });
        };
        // Each legal move's result comes with its key (the mover still on
        // roll): compared with the key of where `p` leads, no board is
        // built again per legal move.
        let legal = legal_plays_with_results(&self.board, d);
        let after = apply(&self.board, &p);
        let mover = self.board.turn();
        let ok = if legal.is_empty() {
            p.is_pass()
        } else {
            let k = super::position_id::key(&after.with_turn(mover));
            !p.is_pass() && legal.iter().any(|(_, q)| *q == k)
        };
        if !ok {
            return Err(ActionError::Move(if legal.is_empty() {
                MoveError::NoLegalMove
            } else if p.is_pass() {
                MoveError::MustMove
            } else {
                MoveError::NotLegal
            }));
        }
        self.commit_play(p, after);
        Ok(())
    }

    /// Plays `p`, known legal, leading to `after` (`apply` of it).
    fn commit_play(&mut self, p: Play, after: Board) {
        let mover = self.board.turn();
        self.record(mover, Action::Move(p));
        self.board = after;
        self.dice = None;
        if after.borne_off(mover) == 15 {
            let loser = mover.other();
            let kind = if after.borne_off(loser) > 0 {
                EndKind::Single
            } else if after.bar(loser) > 0 || after.side(loser)[18..24].iter().any(|&n| n > 0) {
                EndKind::Backgammon
            } else {
                EndKind::Gammon
            };
            let times = match kind {
                EndKind::Gammon => 2,
                EndKind::Backgammon => 3,
                _ => 1,
            };
            self.end_game(GameEnd {
                winner: mover,
                points: times * self.cube,
                kind,
            });
        } else {
            self.phase = Phase::Roll;
        }
    }

    fn double(&mut self) -> Result<(), ActionError> {
        match self.phase {
            Phase::Roll => {}
            Phase::Move => return Err(ActionError::DoubleAfterRoll),
            Phase::DoubleOffered => return Err(ActionError::DoublePending),
            _ => return Err(ActionError::NoGame),
        }
        let side = self.board.turn();
        if self.crawford_game {
            return Err(ActionError::CrawfordGame);
        }
        if self.owner == Some(side.other()) {
            return Err(ActionError::NotYourCube);
        }
        if self.cube >= MAX_CUBE {
            return Err(ActionError::CubeAtMaximum);
        }
        if self.owner == Some(side) && self.score(side) + self.cube >= self.opts.length {
            return Err(ActionError::DeadCube);
        }
        self.record(side, Action::Double);
        self.phase = Phase::DoubleOffered;
        Ok(())
    }

    fn take(&mut self) -> Result<(), ActionError> {
        if self.phase != Phase::DoubleOffered {
            return Err(ActionError::NoDouble);
        }
        let taker = self.board.turn().other();
        self.record(taker, Action::Take);
        self.cube *= 2;
        self.owner = Some(taker);
        self.phase = Phase::Roll;
        Ok(())
    }

    fn pass(&mut self) -> Result<(), ActionError> {
        if self.phase != Phase::DoubleOffered {
            return Err(ActionError::NoDouble);
        }
        let doubler = self.board.turn();
        self.record(doubler.other(), Action::Pass);
        self.end_game(GameEnd {
            winner: doubler,
            points: self.cube,
            kind: EndKind::Pass,
        });
        Ok(())
    }

    /// Whether a game may be resigned (or its resignation offered) at
    /// `level` (1 single, 2 gammon, 3 backgammon; 004 4.5).
    fn may_resign(&self, level: u8) -> Result<(), ActionError> {
        if !(1..=3).contains(&level) {
            return Err(ActionError::BadResignation);
        }
        if self.phase == Phase::Opening {
            return Err(ActionError::NoGame);
        }
        Ok(())
    }

    fn resign(&mut self, side: Color, level: u8) -> Result<(), ActionError> {
        self.may_resign(level)?;
        // Accepting an offer takes exactly what was offered.
        if self.resign_offer.is_some_and(|o| o != (side, level)) {
            return Err(ActionError::ResignPending);
        }
        self.resign_offer = None;
        self.record(side, Action::Resign { side, level });
        self.end_game(GameEnd {
            winner: side.other(),
            points: u32::from(level) * self.cube,
            kind: EndKind::Resign(level),
        });
        Ok(())
    }

    /// 004 4.5: "gracz może poddać partię odpowiednio: pojedynczo,
    /// podwójnie lub potrójnie"; 4.3 (ii) (g): the opponent agrees or not.
    fn offer_resign(&mut self, side: Color, level: u8) -> Result<(), ActionError> {
        self.may_resign(level)?;
        self.record(side, Action::ResignOffer { side, level });
        self.resign_offer = Some((side, level));
        Ok(())
    }

    fn decline_resign(&mut self) -> Result<(), ActionError> {
        let Some((side, _)) = self.resign_offer else {
            return Err(ActionError::NoResignation);
        };
        self.record(side.other(), Action::ResignDecline);
        self.resign_offer = None;
        Ok(())
    }

    fn end_game(&mut self, end: GameEnd) {
        if let Some(g) = self.games.last_mut() {
            g.end = Some(end);
        }
        self.score[idx(end.winner)] += end.points;
        self.dice = None;
        if self.crawford_game {
            self.crawford_game = false;
            self.crawford_played = true;
        }
        if self.winner().is_some() {
            self.phase = Phase::MatchOver;
            return;
        }
        // 004 4.4 (iv): the first game after a side comes within one point.
        let at_match_point = self.score.iter().any(|&s| s + 1 == self.opts.length);
        if at_match_point && !self.crawford_played {
            self.crawford_game = true;
        }
        self.phase = Phase::Opening;
    }

    /// Does an action written as text: `roll 31` (or `31`), `move 8/5 6/5`
    /// (or the move alone), `double`, `take`, `pass`, `resign [white|black] 1|2|3`
    /// (the game resigned: with an offer waiting, its acceptance),
    /// `resign offer [white|black] 1|2|3`, `resign decline`.
    /// A resignation without a side is the side to act (with an offer
    /// waiting, the side that offered).
    ///
    /// # Errors
    /// The text is no action, or the action is refused.
    pub fn act_text(&mut self, text: &str) -> Result<Action, ActionError> {
        let a = self.parse_action(text)?;
        match a {
            // A move text resolves only to one of the legal moves of this
            // position and roll (or the pass when there is none), so the
            // legal moves are not searched a second time to check it.
            Action::Move(p) if self.resign_offer.is_none() && self.phase == Phase::Move => {
                let after = apply(&self.board, &p);
                self.commit_play(p, after);
            }
            _ => self.act(a)?,
        }
        Ok(a)
    }

    /// Reads an action written as text (see [`Match::act_text`]) against the
    /// current state, without doing it.
    ///
    /// # Errors
    /// The text is no action here.
    pub fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        let t = text.trim().to_ascii_lowercase();
        let (word, rest) = t.split_once(' ').unwrap_or((t.as_str(), ""));
        match word {
            "roll" => {
                Dice::parse(rest)
                    .map(Action::Roll)
                    .ok_or(ActionError::Move(MoveError::Parse(
                        super::resolve::ParseError::Unreadable(rest.to_owned()),
                    )))
            }
            "double" => Ok(Action::Double),
            "take" => Ok(Action::Take),
            "pass" | "drop" if self.phase == Phase::DoubleOffered => Ok(Action::Pass),
            "resign" if rest.trim() == "decline" => Ok(Action::ResignDecline),
            "resign" => {
                let (offer, rest) = match rest.trim().strip_prefix("offer") {
                    Some(r) => (true, r),
                    None => (false, rest),
                };
                let (mut side, mut level) = match self.resign_offer {
                    Some(o) if !offer => o,
                    _ => (self.to_act().unwrap_or(self.board.turn()), 1u8),
                };
                for w in rest.split_whitespace() {
                    match w {
                        "white" => side = Color::White,
                        "black" => side = Color::Black,
                        n => level = n.parse().map_err(|_| ActionError::BadResignation)?,
                    }
                }
                Ok(if offer {
                    Action::ResignOffer { side, level }
                } else {
                    Action::Resign { side, level }
                })
            }
            "move" => self.resolve(rest).map(Action::Move),
            _ if matches!(self.phase, Phase::Opening | Phase::Roll)
                && Dice::parse(&t).is_some() =>
            {
                Ok(Action::Roll(Dice::parse(&t).unwrap_or(Dice(1, 2))))
            }
            _ => self.resolve(&t).map(Action::Move),
        }
    }

    /// An accepted action written back as text that [`Match::act_text`] reads.
    /// `board` is the board before the action (a move's points depend on it).
    #[must_use]
    pub fn action_text(board: &Board, a: &Action) -> String {
        match a {
            Action::Roll(d) => format!("roll {}{}", d.0, d.1),
            Action::Move(p) if p.is_pass() => "move pass".to_owned(),
            Action::Move(p) => format!("move {}", notation::write(board, p)),
            Action::Double => "double".to_owned(),
            Action::Take => "take".to_owned(),
            Action::Pass => "pass".to_owned(),
            Action::Resign { side, level } => format!("resign {side} {level}"),
            Action::ResignOffer { side, level } => format!("resign offer {side} {level}"),
            Action::ResignDecline => "resign decline".to_owned(),
        }
    }
}

impl Match {
    /// Sets the score before the next game, as a record that continues a
    /// match gives it (a `.mat` file's game line `Name : 3   Name : 0`:
    /// gnubg's `import mat` takes every game's score from there). The next
    /// game is the Crawford game when exactly one side is one point away
    /// and no Crawford game was played yet (004 4.4 (iv), as gnubg reads a
    /// file); with both one point away the games are post-Crawford.
    ///
    /// # Errors
    /// A game is under way, the match is over, or the score reaches the
    /// match length.
    pub fn set_score(&mut self, white: u32, black: u32) -> Result<(), ActionError> {
        match self.phase {
            Phase::Opening => {}
            Phase::MatchOver => return Err(ActionError::MatchOver),
            _ => return Err(ActionError::NoGame),
        }
        let len = self.opts.length;
        if white >= len || black >= len {
            return Err(ActionError::MatchOver);
        }
        self.score = [white, black];
        let (w, b) = (white + 1 == len, black + 1 == len);
        self.crawford_game = !self.crawford_played && (w ^ b);
        if w && b {
            self.crawford_played = true;
        }
        Ok(())
    }

    /// Reads the game under way as post-Crawford: a record that continues
    /// a match (its game line puts one side a point away) and doubles in
    /// that game shows that its Crawford game was played before (004 4.4
    /// (iv): no doubling in the Crawford game).
    pub(crate) fn post_crawford_after_all(&mut self) {
        if self.crawford_game {
            self.crawford_game = false;
            self.crawford_played = true;
            if let Some(g) = self.games.last_mut() {
                g.crawford = false;
            }
        }
    }

    /// Sets the checkers where a record says an illegal play left them
    /// (Snowie writes the position after it; gnubg's `import mat` takes
    /// it), the side on roll and the dice unchanged. Not recorded as an
    /// action, as [`Match::skip_turn`].
    pub(crate) fn set_checkers(&mut self, board: Board) {
        if matches!(self.phase, Phase::Roll | Phase::Move) {
            self.board = board.with_turn(self.board.turn());
        }
    }

    /// Passes the turn without a move where a record leaves one out (a
    /// `.mat` file's illegal move, or a roll written without its move
    /// followed by the opponent's turn): gnubg's `import mat` drops such a
    /// move and lets the opponent play on from the same board. No action
    /// is recorded: the match no longer replays from [`Match::actions`]
    /// alone, which is why only a reader of records uses this.
    pub(crate) fn skip_turn(&mut self) {
        if matches!(self.phase, Phase::Roll | Phase::Move) {
            let next = self.board.turn().other();
            self.board = self.board.with_turn(next);
            self.dice = None;
            self.phase = Phase::Roll;
        }
    }

    /// The match as it stands without the record of its finished games:
    /// the score, the cube, the Crawford state, the board and the current
    /// game's actions stay; [`Match::actions`] then holds only the current
    /// game's. What the arbiter's comparison keeps for every position of a
    /// long match (a 25-point match replayed with its whole history at
    /// every turn took about a gigabyte).
    #[must_use]
    pub fn without_past_games(&self) -> Match {
        let mut m = self.clone();
        let current = m.games.last().map_or(0, |g| g.actions.len());
        if let Some((_, past)) = m.games.split_last_mut() {
            for g in past {
                g.actions = Vec::new();
            }
        }
        let keep = m.actions.len().saturating_sub(current);
        m.actions.drain(..keep);
        m
    }
}

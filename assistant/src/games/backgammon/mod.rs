//! Backgammon at the table (004), behind [`Game`]. Rules:
//! `tandem_rules::backgammon` (a [`Match`]: every roll, move and cube action
//! is one of its actions); words: the speech crate's [`BgAnnouncer`] (the
//! numbering setting, `--numbering`); braille: the braille crate's
//! backgammon view; record: the Jellyfish `.mat` match that gnubg imports.
//!
//! The session knows nothing of dice or cubes: a roll, `reroll`, `double`,
//! `take`, `pass` and `resign N` are the game's own actions
//! ([`Game::action`]), journaled as `action` events; a move goes through
//! [`Game::prepare`] like every game's. Whose clock runs follows who acts
//! next (004 3.5): a move, a double and a take press the clock; a roll does
//! not; an opening roll won by the side whose clock is not running presses it.

use std::fmt::Write as _;

use tandem_braille::driver::DriverInput;
use tandem_braille::{StatusInfo, Width};
use tandem_rules::backgammon::{
    mat, match_id, position_id, Action, ActionError, Board, Dice, Match, MatchOptions, MoveError,
    ParseError, Phase, Play,
};
use tandem_rules::{Color, GameOptions, Outcome, PointNumbering, TableGame};
use tandem_speech::backgammon::{BgAnnouncer, BgPhrasebook, Numbering};
use tandem_speech::{Kind, Phrasebook, Priority, Utterance};

use super::{BoardCheck, BoardNotRead, Game, Prepared, PreparedAction, Refused};

pub mod arbiter;
pub mod book;
pub mod braille;
mod braille_input;
pub mod ear;
pub mod picture;
use crate::kind::{AnyPosition, GameKind};

pub mod one_shot;
pub mod options;
mod record;
mod refusal;
mod resign;
pub mod voice;

/// The default match length (`--match`).
pub const DEFAULT_LENGTH: u32 = 7;

/// A backgammon match with its words.
#[derive(Debug, Clone)]
pub struct BackgammonTable {
    m: Match,
    /// The match as the table started it (a new match, or a set position):
    /// earlier positions are replayed from here.
    start: Match,
    words: BgAnnouncer,
    options: GameOptions,
    /// Refusals may name the moves that could be played (off in a rated game).
    hints: bool,
}

/// A match from gnubg's full ID `POSITION_ID:MATCH_ID`: a new match (no game
/// yet), or a game at 0-0 with the cube in the middle from a set position.
///
/// # Errors
/// The text is not two IDs, or names a match tandem cannot start there
/// (a score, a cube already turned: the journal keeps a match from its start).
pub fn match_from_ids(text: &str) -> Result<Match, String> {
    let (pid, mid) = text
        .trim()
        .split_once(':')
        .ok_or("a backgammon position is POSITION_ID:MATCH_ID (gnubg's full ID)")?;
    let info = match_id::decode(mid).map_err(|e| format!("Match ID {mid:?}: {e}"))?;
    let opts = MatchOptions {
        length: if info.length == 0 {
            DEFAULT_LENGTH
        } else {
            info.length
        },
    };
    let board =
        position_id::decode(pid, info.on_roll).map_err(|e| format!("Position ID {pid:?}: {e}"))?;
    if info.game_state == 0 && info.score_white == 0 && info.score_black == 0 {
        return Ok(Match::new(opts));
    }
    if info.score_white != 0 || info.score_black != 0 || info.cube != 1 || info.doubled {
        return Err(
            "tandem starts a backgammon match at 0-0 with the cube in the middle".to_owned(),
        );
    }
    let mut m = Match::from_board(opts, board);
    if let Some(d) = info.dice {
        m.act(Action::Roll(d)).map_err(|e| e.to_string())?;
    }
    Ok(m)
}

fn numbering(n: PointNumbering) -> Numbering {
    match n {
        PointNumbering::Listener => Numbering::Listener,
        PointNumbering::Mover => Numbering::Mover,
        PointNumbering::Both => Numbering::Both,
    }
}

/// Two dice from the OS random source (`--dice tandem`), each 1..6 without bias.
fn os_dice() -> std::io::Result<Dice> {
    let die = || -> std::io::Result<u8> {
        loop {
            let mut b = [0u8; 1];
            crate::random::fill(&mut b)?;
            // 252 = 6 * 42: the bytes above it would favour the low faces.
            if b[0] < 252 {
                return Ok(b[0] % 6 + 1);
            }
        }
    };
    Ok(Dice(die()?, die()?))
}

fn say(kind: Kind, sentences: Vec<String>) -> Utterance {
    Utterance::new(Priority::Next, kind, sentences)
}

impl BackgammonTable {
    /// A match from `start`, with the event's options, spoken in `lang`.
    #[must_use]
    pub fn new(start: Match, options: GameOptions, lang: &str) -> BackgammonTable {
        let m = if start.games().is_empty()
            && options.match_length > 0
            && options.match_length != start.options().length
        {
            Match::new(MatchOptions {
                length: options.match_length,
            })
        } else {
            start
        };
        let book = BgPhrasebook::builtin(lang)
            .or_else(|| BgPhrasebook::builtin("en"))
            .expect("the built-in English backgammon phrasebook loads");
        BackgammonTable {
            start: m.clone(),
            m,
            words: BgAnnouncer::new(
                book,
                numbering(options.numbering),
                options.listener.unwrap_or(Color::White),
            ),
            options,
            hints: true,
        }
    }

    /// The rules' match.
    #[must_use]
    pub fn rules(&self) -> &Match {
        &self.m
    }

    /// What is said when `a` is done on `before` (the match before it),
    /// `after` the match after it: the action, and a game's end with the score.
    fn words_for(&self, before: &Match, a: &Action, after: &Match) -> Vec<String> {
        let w = &self.words;
        let mut out = Vec::new();
        match a {
            Action::Roll(d) => {
                let opening = before.phase() == Phase::Opening;
                let side = after.board().turn();
                out.push(w.roll(side, *d, opening));
                if after.phase() == Phase::Move && after.legal().is_empty() {
                    out.push(w.phrase("refusals.no_legal_move", &[]));
                }
            }
            Action::Move(p) => out.push(w.play(before.board(), p)),
            Action::Double => out.push(w.double(before.board().turn(), before.cube() * 2)),
            Action::Take => out.push(w.take(before.board().turn().other())),
            Action::Pass => out.push(w.drop(before.board().turn().other())),
            Action::Resign { side, level } => {
                if before.resign_offer().is_some() {
                    // 004 4.3 (ii) (g): the opponent agrees.
                    let opp = w.side_name(side.other());
                    out.push(w.phrase("table.resign_accept", &[("side", opp)]));
                }
                out.push(w.resign(*side, *level));
            }
            Action::ResignOffer { side, level } => {
                out.push(w.resign_offer(*side, *level));
                let opp = w.side_name(side.other());
                out.push(w.phrase("table.resign_answer", &[("side", opp)]));
            }
            Action::ResignDecline => {
                let who = before.to_act().unwrap_or(before.board().turn());
                let who = w.side_name(who);
                out.push(w.phrase("table.resign_decline", &[("side", who)]));
            }
        }
        let ended = |m: &Match| m.games().last().and_then(|g| g.end);
        if after.games().len() == before.games().len() && ended(before).is_none() {
            if let Some(end) = ended(after) {
                out.push(w.game_end(&end));
                out.extend(w.score(after));
            }
        }
        out
    }

    /// The match after its first `n` actions, replayed from the start.
    fn replay_to(&self, n: usize) -> Option<Match> {
        let base = self.start.actions().len();
        let mut m = self.start.clone();
        for a in self.m.actions().get(base..n)? {
            m.act(*a).ok()?;
        }
        Some(m)
    }

    /// Whose clock runs after the match's actions: the clock starts with
    /// the side to act at the start and follows who acts next (a move
    /// always presses it).
    fn clock_side(&self) -> Color {
        let mut probe = self.start.clone();
        let mut side = TableGame::side_to_move(&probe);
        for a in self.m.actions().iter().skip(self.start.actions().len()) {
            let mover = probe.board().turn();
            if probe.act(*a).is_err() {
                break;
            }
            side = match a {
                Action::Move(_) => mover.other(),
                // A resignation offered and answered stops no clock and
                // starts none (004 4.3 (ii) (g)).
                Action::ResignOffer { .. } | Action::ResignDecline => side,
                _ => probe.to_act().unwrap_or(side),
            };
        }
        side
    }

    fn prepared(&self, a: Action, input: &str) -> Result<PreparedAction, Refused> {
        let mut after = self.m.clone();
        after.act(a).map_err(|e| self.refusal(&e, input.trim()))?;
        let before_clock = self.clock_side();
        let press = match a {
            Action::Move(_) => true,
            Action::ResignOffer { .. } | Action::ResignDecline | Action::Resign { .. } => false,
            _ => after.to_act().is_some_and(|s| s != before_clock),
        };
        let side = match a {
            Action::Roll(_) => after.board().turn(),
            Action::Take | Action::Pass => self.m.board().turn().other(),
            Action::Resign { side, .. } | Action::ResignOffer { side, .. } => side,
            Action::ResignDecline => self.m.to_act().unwrap_or(self.m.board().turn()),
            Action::Move(_) | Action::Double => self.m.board().turn(),
        };
        Ok(PreparedAction {
            text: Match::action_text(self.m.board(), &a),
            side,
            either_seat: false,
            press,
            announce: say(Kind::Move, self.words_for(&self.m, &a, &after)),
        })
    }

    fn reroll(&self) -> Result<PreparedAction, Refused> {
        // 004 4.2: a roll that must be made again is taken back.
        let last_is_roll = matches!(self.m.actions().last(), Some(Action::Roll(_)));
        if !last_is_roll || self.m.phase() != Phase::Move {
            return Err(Refused {
                reason: "no roll to take back".into(),
                say: Utterance::new(
                    Priority::Now,
                    Kind::Rejection,
                    vec![self.words.phrase("refusals.no_reroll", &[])],
                ),
            });
        }
        Ok(PreparedAction {
            either_seat: false,
            text: "reroll".into(),
            side: self.m.board().turn(),
            press: false,
            announce: say(Kind::Move, vec![self.words.phrase("table.reroll", &[])]),
        })
    }

    fn take_back_roll(&mut self) -> anyhow::Result<()> {
        anyhow::ensure!(
            matches!(self.m.actions().last(), Some(Action::Roll(_))),
            "no roll to take back"
        );
        self.m = self
            .replay_to(self.m.actions().len() - 1)
            .ok_or_else(|| anyhow::anyhow!("the roll cannot be taken back"))?;
        Ok(())
    }

    fn describe(&self, m: &Match) -> Vec<String> {
        let w = &self.words;
        let b = m.board();
        let mut out = Vec::new();
        for side in [Color::White, Color::Black] {
            let mut list = Vec::new();
            if b.bar(side) > 0 {
                let n = w.number(u32::from(b.bar(side)));
                list.push(w.phrase("table.bar", &[("n", &n)]));
            }
            for p in (1..=24u8).rev() {
                let c = b.count(side, p);
                if c > 0 {
                    list.push(w.phrase(
                        "table.on_point",
                        &[
                            ("n", &w.number(u32::from(c))),
                            ("point", &w.number(u32::from(p))),
                        ],
                    ));
                }
            }
            if b.borne_off(side) > 0 {
                let n = w.number(u32::from(b.borne_off(side)));
                list.push(w.phrase("table.off", &[("n", &n)]));
            }
            out.push(w.phrase(
                "table.side_checkers",
                &[("side", w.side_name(side)), ("list", &list.join(", "))],
            ));
        }
        out
    }

    fn viewer(&self) -> Color {
        self.options.listener.unwrap_or(Color::White)
    }

    /// The announcement of action `i` as it was said (the side named).
    fn move_words_full(&self, i: usize) -> Option<Utterance> {
        let before = self.replay_to(i)?;
        let a = *self.m.actions().get(i)?;
        let mut after = before.clone();
        after.act(a).ok()?;
        Some(say(Kind::Move, self.words_for(&before, &a, &after)))
    }
}

/// `position_id`, `match_id`, `dice`, `cube`, `score`, `pips` of a match
/// as `tandem ctl state` (and the arbiter's tools) give them.
pub(crate) fn match_fields(m: &Match) -> serde_json::Map<String, serde_json::Value> {
    use serde_json::{json, Value};
    let b = m.board();
    // gnubg's positionid(): from the side on roll, which after a move is
    // the opponent; while a double or a resignation waits for its answer
    // it stays the side on roll (checked against gnubg step by step).
    let mut map = serde_json::Map::new();
    map.insert("position_id".into(), json!(m.position_id()));
    map.insert(
        "match_id".into(),
        json!(match_id::encode(&match_id::of_match(m))),
    );
    map.insert(
        "dice".into(),
        m.dice().map_or(Value::Null, |d| json!([d.0, d.1])),
    );
    map.insert(
        "cube".into(),
        json!({"value": m.cube(), "owner": m.cube_owner().map(color_name)}),
    );
    map.insert(
        "score".into(),
        json!({
            "white": m.score(Color::White),
            "black": m.score(Color::Black),
            "length": m.options().length,
            "crawford": m.is_crawford(),
        }),
    );
    map.insert(
        "pips".into(),
        json!({"white": b.pips(Color::White), "black": b.pips(Color::Black)}),
    );
    map
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Game for BackgammonTable {
    fn kind(&self) -> GameKind {
        GameKind::Backgammon
    }

    fn clone_box(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }

    fn ply(&self) -> usize {
        self.m.plies()
    }

    fn turn(&self) -> Color {
        self.m.side_to_move()
    }

    fn position(&self) -> AnyPosition {
        AnyPosition::Backgammon(Box::new(self.m.clone()))
    }

    fn position_at(&self, ply: usize) -> Option<AnyPosition> {
        self.replay_to(ply)
            .map(|m| AnyPosition::Backgammon(Box::new(m)))
    }

    fn fen(&self) -> String {
        self.m.position_text()
    }

    fn move_texts(&self) -> Vec<String> {
        TableGame::record(&self.m)
    }

    fn last_move_text(&self) -> Option<String> {
        TableGame::record(&self.m).pop()
    }

    fn outcome(&self) -> Option<Outcome> {
        TableGame::result(&self.m)
    }

    fn result_text(&self, outcome: Option<Outcome>) -> &'static str {
        outcome.map_or("*", Outcome::one_point_result)
    }

    fn declare(&mut self, outcome: Outcome) {
        TableGame::end(&mut self.m, outcome);
    }

    fn undo(&mut self) {
        if let Some(m) = self
            .m
            .actions()
            .len()
            .checked_sub(1)
            .and_then(|n| self.replay_to(n))
        {
            self.m = m;
        }
    }

    fn moves_made(&self, side: Color) -> u32 {
        self.m.moves_by(side)
    }

    fn may_offer_draw(&self, _side: Color) -> bool {
        // Backgammon has no draws (004 4.5).
        false
    }

    fn draw_offer_min_moves(&self) -> u32 {
        0
    }

    fn declined_offer_bars(&self) -> bool {
        false
    }

    fn play_text(&mut self, text: &str) -> anyhow::Result<()> {
        self.m
            .act_text(text)
            .map(|_| ())
            .map_err(|e| anyhow::anyhow!("{e}"))
    }

    fn prepare(&self, text: &str) -> Result<Prepared, Refused> {
        let t = text.trim();
        let t = t.strip_prefix("move ").unwrap_or(t);
        let play = self.m.resolve(t).map_err(|e| {
            let e = match (self.m.phase(), e) {
                (Phase::DoubleOffered, _) => ActionError::DoublePending,
                (Phase::Opening, _) => ActionError::NoGame,
                (_, e) => e,
            };
            self.refusal(&e, t)
        })?;
        let a = Action::Move(play);
        let mut after = self.m.clone();
        after.act(a).map_err(|e| self.refusal(&e, t))?;
        Ok(Prepared {
            text: if play.is_pass() {
                "pass".to_owned()
            } else {
                self.m.move_text(&play)
            },
            announce: say(Kind::Move, self.words_for(&self.m, &a, &after)),
        })
    }

    fn flag_outcome(&self, side: Color) -> Outcome {
        // 004 3.5: a player whose time runs out loses the match.
        Outcome::Win {
            winner: side.other(),
            reason: tandem_rules::WinReason::Time,
        }
    }

    fn draw_claims(&self) -> Result<(), Refused> {
        Err(Refused {
            reason: "backgammon has no draws".into(),
            say: Utterance::new(
                Priority::Now,
                Kind::Rejection,
                vec![self.words.phrase("refusals.no_draws", &[])],
            ),
        })
    }

    fn claim_wrong(&self, _minutes: u64) -> Utterance {
        Utterance::new(
            Priority::Now,
            Kind::Rejection,
            vec![self.words.phrase("refusals.no_draws", &[])],
        )
    }

    fn action(&self, text: &str) -> Option<Result<PreparedAction, Refused>> {
        let t = text.trim().to_ascii_lowercase();
        let (word, rest) = t.split_once(' ').unwrap_or((t.as_str(), ""));
        let rest = rest.trim();
        let refuse = |e: ActionError| Some(Err(self.refusal(&e, text.trim())));
        if let Some(r) = self.resign_input(word, rest) {
            return Some(r);
        }
        match word {
            "roll" if rest.is_empty() => {
                if !self.options.tandem_dice {
                    return refuse(ActionError::Move(MoveError::Parse(ParseError::Unreadable(
                        t.clone(),
                    ))));
                }
                // --dice tandem: rolled here, so the journaled text holds the
                // dice before anything is said. An opening tie is rolled again.
                let opening = self.m.phase() == Phase::Opening;
                let mut dice = None;
                for _ in 0..64 {
                    match os_dice() {
                        Ok(d) if opening && d.0 == d.1 => {}
                        Ok(d) => {
                            dice = Some(d);
                            break;
                        }
                        Err(e) => {
                            tracing::error!("dice from the OS random source: {e}");
                            break;
                        }
                    }
                }
                match dice {
                    // Rolled here, the opening roll is either seat's: the
                    // dice, not the seat, say who starts (a seat refused for
                    // them could roll again until they suit it).
                    Some(d) => Some(self.prepared(Action::Roll(d), text).map(|mut a| {
                        a.either_seat = opening;
                        a
                    })),
                    None => refuse(ActionError::BadDice),
                }
            }
            "roll" => match Dice::parse(rest) {
                Some(d) => Some(self.prepared(Action::Roll(d), text)),
                None => refuse(ActionError::BadDice),
            },
            "reroll" if rest.is_empty() => Some(self.reroll()),
            "double" if rest.is_empty() => Some(self.prepared(Action::Double, text)),
            "take" if rest.is_empty() => Some(self.prepared(Action::Take, text)),
            "pass" | "drop" if rest.is_empty() => {
                if self.m.phase() == Phase::Move {
                    // A roll that cannot be played ends the turn as a move.
                    return Some(self.prepared(Action::Move(Play::PASS), text).map(|mut a| {
                        a.text = "move pass".into();
                        a
                    }));
                }
                Some(self.prepared(Action::Pass, text))
            }
            _ if matches!(self.m.phase(), Phase::Opening | Phase::Roll)
                && t.len() <= 3
                && Dice::parse(&t).is_some() =>
            {
                Dice::parse(&t).map(|d| self.prepared(Action::Roll(d), text))
            }
            _ => None,
        }
    }

    fn play_action(&mut self, text: &str) -> anyhow::Result<()> {
        if text.trim() == "reroll" {
            return self.take_back_roll();
        }
        if self.play_match_resignation(text) {
            return Ok(());
        }
        self.m
            .act_text(text)
            .map(|_| ())
            .map_err(|e| anyhow::anyhow!("{e}"))
    }

    fn query(&self, text: &str) -> Option<Utterance> {
        match text.trim().to_ascii_lowercase().as_str() {
            "pips" | "oczka" => Some(Utterance::new(
                Priority::Now,
                Kind::Describe,
                vec![self.words.pips(self.m.board())],
            )),
            // A pick or a step entered on the braille display (`steps …`).
            _ => self.steps_query(text),
        }
    }

    fn ask(
        &self,
        text: &str,
        asker: Option<Color>,
        any_words: bool,
    ) -> Option<Result<Utterance, Refused>> {
        use tandem_speech::backgammon::ask;
        let book = super::or_english(self.words.language(), ask::ask_book);
        let viewer = self.viewer();
        super::ask_with(
            text,
            any_words,
            || {
                BgPhrasebook::builtin(self.words.language())
                    .map(|b| ask::phrases(&b))
                    .unwrap_or_default()
            },
            |q| ask::answer(book, self.m.board(), q, asker, viewer),
        )
    }

    fn unknown_question(&self, text: &str) -> Refused {
        use tandem_speech::backgammon::ask;
        let book = super::or_english(self.words.language(), ask::ask_book);
        super::unknown_question(text, ask::QUESTIONS, book)
    }

    fn after_clock(&self) -> Option<Utterance> {
        // 004 3.5 (v): the simple delay, then the match score.
        let mut s = Vec::new();
        if self.options.delay_secs > 0 {
            let n = self.words.number(self.options.delay_secs);
            s.push(self.words.phrase("table.delay", &[("seconds", &n)]));
        }
        s.extend(self.words.score(&self.m));
        Some(Utterance::new(Priority::Now, Kind::Clock, s))
    }

    fn set_hints(&mut self, hints: bool) {
        self.hints = hints;
    }

    fn hints(&self) -> bool {
        self.hints
    }

    fn set_phrasebook(&mut self, _book: &Phrasebook) {
        // Backgammon speaks from its own phrasebook (set_game_phrasebook).
    }

    fn set_game_phrasebook(&mut self, book: &dyn std::any::Any) -> bool {
        match book.downcast_ref::<BgPhrasebook>() {
            Some(b) => {
                self.words =
                    BgAnnouncer::new(b.clone(), numbering(self.options.numbering), self.viewer());
                true
            }
            None => false,
        }
    }

    fn describe_position(&self) -> Utterance {
        let mut s = self.describe(&self.m);
        s.push(self.words.pips(self.m.board()));
        s.extend(self.words.score(&self.m));
        say(Kind::Describe, s)
    }

    fn describe_position_at(&self, ply: usize) -> Option<Utterance> {
        let m = self.replay_to(ply)?;
        let mut s = self.describe(&m);
        s.push(self.words.pips(m.board()));
        Some(say(Kind::Describe, s))
    }

    fn braille_at(&self, ply: usize, status: &StatusInfo) -> Option<DriverInput> {
        Some(DriverInput::Board {
            board: tandem_braille::Board::Backgammon {
                game: Box::new(self.replay_to(ply)?),
                viewer: self.viewer(),
            },
            status: status.clone(),
        })
    }

    fn legal_move_texts(&self) -> Vec<String> {
        self.m.legal().iter().map(|p| self.m.move_text(p)).collect()
    }

    fn last_move(&self) -> Utterance {
        let n = self.m.actions().len();
        match n.checked_sub(1).and_then(|i| self.move_words_full(i)) {
            Some(u) => u,
            None => say(
                Kind::Move,
                vec![self.words.phrase("table.no_move_yet", &[])],
            ),
        }
    }

    fn move_words(&self, i: usize) -> Option<Utterance> {
        self.record_words(i)
    }

    fn record_side(&self, _i: usize) -> Option<Color> {
        // Each action's words name their side, once a turn.
        None
    }

    fn changes_board(&self, i: usize) -> bool {
        record::changes_board(&self.m, i)
    }

    fn resign_action(&self, side: Option<Color>) -> Option<String> {
        // 004 4.5: a game resigned for 1, 2 or 3 times the cube.
        Some(self.resign_text(side))
    }

    fn board_behind(&self, at: usize, behind: u32) -> Option<Utterance> {
        let first = self.move_words_full(self.first_board_move(at)?)?.text();
        Some(say(
            Kind::Sync,
            vec![self.words.phrase(
                "table.behind",
                &[("n", &behind.to_string()), ("action", &first)],
            )],
        ))
    }

    fn boards_in_sync(&self) -> Utterance {
        say(Kind::Sync, vec![self.words.phrase("table.in_sync", &[])])
    }

    fn game_over(&self, outcome: &Outcome) -> Utterance {
        let w = &self.words;
        let mut s = w.score(&self.m);
        // A match ended from outside the board (a resignation of the match,
        // a flag, the arbiter): the points do not say who won.
        if let (Outcome::Win { winner, .. }, None) = (outcome, self.m.winner()) {
            s.push(w.phrase("match_end", &[("side", w.side_name(*winner))]));
        }
        say(Kind::GameEnd, s)
    }

    fn help(&self) -> Utterance {
        say(Kind::Help, vec![self.words.phrase("table.help", &[])])
    }

    fn after_move(&self) -> Option<Utterance> {
        None
    }

    fn to_move(&self) -> Utterance {
        let w = &self.words;
        let s = match (self.m.phase(), self.m.to_act()) {
            (Phase::Roll, Some(side)) => w.phrase("table.to_roll", &[("side", w.side_name(side))]),
            (Phase::Move, Some(side)) => w.phrase(
                "table.to_move",
                &[
                    ("side", w.side_name(side)),
                    (
                        "dice",
                        &self.m.dice().map(|d| w.dice_words(d)).unwrap_or_default(),
                    ),
                ],
            ),
            (_, Some(side)) if self.m.resign_offer().is_some() => {
                w.phrase("table.resign_answer", &[("side", w.side_name(side))])
            }
            (Phase::DoubleOffered, Some(side)) => {
                w.phrase("table.to_answer", &[("side", w.side_name(side))])
            }
            (Phase::MatchOver, _) => {
                return say(Kind::Turn, w.score(&self.m));
            }
            _ => w.phrase("table.opening", &[]),
        };
        say(Kind::Turn, vec![s])
    }

    /// A board read back as a Position ID (from the side on roll, as gnubg
    /// shows it): compared with the record's board, checker by checker.
    fn check_board(&self, board: Option<&str>) -> Result<BoardCheck, BoardNotRead> {
        let current = *self.m.board();
        let read = match board {
            None => None,
            Some(text) => {
                let pid = text.trim().split(':').next().unwrap_or_default();
                Some(position_id::decode(pid, current.turn()).map_err(|_| BoardNotRead)?)
            }
        };
        let diffs: Vec<String> = read
            .as_ref()
            .map(|r| board_diffs(&current, r))
            .unwrap_or_default();
        let matches_now = read.is_some() && diffs.is_empty();
        let shows_ply = match &read {
            Some(r) if !matches_now => {
                let key = position_id::key(r);
                (0..self.m.actions().len()).rev().find(|&i| {
                    self.replay_to(i)
                        .is_some_and(|p| position_id::key(p.board()) == key)
                })
            }
            _ => None,
        };
        let differ = if diffs.is_empty() {
            self.boards_in_sync()
        } else {
            say(Kind::Sync, diffs.iter().map(|d| format!("{d}.")).collect())
        };
        Ok(BoardCheck {
            read_back: read.is_some(),
            matches_now,
            complete: read.is_some(),
            shows_ply,
            diffs,
            board_fen: read.as_ref().map(position_id::encode),
            differ,
        })
    }

    fn braille(&self, status: &StatusInfo) -> DriverInput {
        DriverInput::Board {
            board: tandem_braille::Board::Backgammon {
                game: Box::new(self.m.clone()),
                viewer: self.viewer(),
            },
            status: status.clone(),
        }
    }

    fn braille_line(&self, status: &StatusInfo, width: Width) -> String {
        braille_line(&self.m, status, width)
    }

    fn braille_list(&self, width: Width) -> Vec<(String, String)> {
        let v = self.viewer();
        let board = tandem_braille::backgammon::board_line(self.m.board(), v);
        let status = tandem_braille::backgammon::status_line(&self.m, v);
        let cut = |s: String| s.chars().take(width.get()).collect::<String>();
        vec![
            (
                cut(board.text()),
                tandem_braille::backgammon::text_line(self.m.board(), v),
            ),
            (
                cut(tandem_braille::BrailleLine::from_text(&status).cells_string()),
                status,
            ),
        ]
    }

    fn diagram(&self) -> String {
        diagram(self.m.board())
    }

    fn taps(&self) -> super::Taps {
        picture::taps(&self.m, self.options.tandem_dice)
    }

    fn picture(&self) -> crate::picture::BoardPicture {
        picture::picture(&self.m)
    }

    fn record_lines(&self) -> Vec<String> {
        record::lines(&self.m)
    }

    fn state_extra(&self) -> serde_json::Map<String, serde_json::Value> {
        match_fields(&self.m)
    }

    fn export(&self, tags: Vec<(String, String)>, _comments: Vec<Option<String>>) -> String {
        let tag = |k: &str| {
            tags.iter()
                .find(|(n, v)| n == k && !v.is_empty() && v != "?")
                .map(|(_, v)| v.clone())
        };
        let defaults = mat::Names::default();
        let names = mat::Names {
            white: tag("White").unwrap_or(defaults.white),
            black: tag("Black").unwrap_or(defaults.black),
        };
        mat::export(&self.m, &names)
    }
}

/// Differences between the record's board and one read back, point by point.
fn board_diffs(record: &Board, read: &Board) -> Vec<String> {
    let mut out = Vec::new();
    for side in [Color::White, Color::Black] {
        let name = color_name(side);
        for p in 1..=24u8 {
            let (a, b) = (record.count(side, p), read.count(side, p));
            if a != b {
                out.push(format!("{name} {p}: record {a}, board {b}"));
            }
        }
        if record.bar(side) != read.bar(side) {
            out.push(format!(
                "{name} bar: record {}, board {}",
                record.bar(side),
                read.bar(side)
            ));
        }
    }
    out
}

/// The braille board line (Unicode braille), white's view.
#[must_use]
pub fn braille_line(m: &Match, status: &StatusInfo, width: Width) -> String {
    let _ = status;
    tandem_braille::backgammon::board_line(m.board(), Color::White)
        .text()
        .chars()
        .take(width.get())
        .collect()
}

/// A text diagram from white's side: points 13-24 above, 12-1 below
/// (white's numbering), `W3` three white checkers, `B2` two black.
#[must_use]
pub fn diagram(b: &Board) -> String {
    let cell = |p: u8| {
        let w = b.count(Color::White, p);
        let k = b.count(Color::Black, 25 - p);
        if w > 0 {
            format!("W{w:<2}")
        } else if k > 0 {
            format!("B{k:<2}")
        } else {
            " . ".to_owned()
        }
    };
    let row = |points: Vec<u8>| {
        let mut nums = String::new();
        let mut marks = String::new();
        for (i, p) in points.iter().enumerate() {
            if i == 6 {
                nums.push_str("| ");
                marks.push_str("| ");
            }
            let _ = write!(nums, "{p:<4}");
            let _ = write!(marks, "{:<4}", cell(*p));
        }
        (nums, marks)
    };
    let (top_n, top_m) = row((13..=24).collect());
    let (bot_n, bot_m) = row((1..=12).rev().collect());
    let mut s = String::new();
    let _ = writeln!(s, "{}", top_n.trim_end());
    let _ = writeln!(s, "{}", top_m.trim_end());
    let _ = writeln!(s);
    let _ = writeln!(s, "{}", bot_m.trim_end());
    let _ = writeln!(s, "{}", bot_n.trim_end());
    let _ = writeln!(
        s,
        "bar W{} B{}   off W{} B{}   {} to play",
        b.bar(Color::White),
        b.bar(Color::Black),
        b.borne_off(Color::White),
        b.borne_off(Color::Black),
        color_name(b.turn())
    );
    s
}

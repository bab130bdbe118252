//! What tandem says in backgammon: the roll, the move with every hit, entry
//! and bear-off, the cube actions, a game's end with its points, the match
//! score and the Crawford game (EUBGF rules, seed 004). The words are data
//! (`phrasebooks/backgammon/pl.toml`, `en.toml`); this module only fills them in.
//!
//! Points are numbered from each player's own home. Whose numbering the
//! opponent's moves are said in is a setting ([`Numbering`], default
//! [`Numbering::Listener`]): see `docs/backgammon.md`.

use std::collections::BTreeMap;
use std::fmt;

use tandem_rules::backgammon::{
    notation, ActionError, Board, Dice, EndKind, GameEnd, Match, MoveError, Play,
};
use tandem_rules::Color;

/// The built-in Polish backgammon phrasebook.
pub const BACKGAMMON_POLISH_TOML: &str = include_str!("../../phrasebooks/backgammon/pl.toml");
/// The built-in English backgammon phrasebook.
pub const BACKGAMMON_ENGLISH_TOML: &str = include_str!("../../phrasebooks/backgammon/en.toml");

const TEMPLATES: &[&str] = &[
    "roll",
    "opening",
    "move",
    "pass",
    "step",
    "enter",
    "bear_off",
    "via",
    "hit",
    "count",
    "yours",
    "double",
    "take",
    "drop",
    "resign",
    "game_end",
    "score",
    "crawford",
    "match_end",
    "pips",
];

/// The words at the table (`[table]`): whose turn, the position, help.
const TABLE: &[&str] = &[
    "to_roll",
    "to_move",
    "to_answer",
    "opening",
    "no_move_yet",
    "in_sync",
    "behind",
    "reroll",
    "rolled",
    "on_point",
    "bar",
    "off",
    "side_checkers",
    "delay",
    "help",
    "resign_offer",
    "resign_answer",
    "resign_accept",
    "resign_decline",
    // The braille display's routing keys: a checker picked up, a step, the steps dropped.
    "from",
    "from_bar",
    "bar_empty",
    "step",
    "steps_cleared",
];

/// The refusals (`[refusals]`): why an action or a move was refused.
/// A rated game's ambiguous move (issue 41), in a book without its own words.
const AMBIGUOUS_RULE_EN: &str = "More than one move fits: say the points of each checker moved.";

const REFUSALS: &[&str] = &[
    "match_over",
    "already_rolled",
    "bad_dice",
    "opening_tie",
    "not_rolled",
    "double_pending",
    "no_double",
    "crawford",
    "not_your_cube",
    "cube_max",
    "dead_cube",
    "double_after_roll",
    "bad_resignation",
    "resign_pending",
    "no_resignation",
    "no_game",
    "no_legal_move",
    "must_move",
    "must_enter",
    "no_checker",
    "blocked",
    "cannot_bear_off",
    "not_on_dice",
    "must_use_both",
    "must_use_more",
    "must_play_larger",
    "ambiguous",
    "not_legal",
    "unreadable",
    "no_reroll",
    "no_draws",
];

/// A backgammon phrasebook that does not load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BgPhrasebookError(pub String);

impl fmt::Display for BgPhrasebookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "backgammon phrasebook: {}", self.0)
    }
}

impl std::error::Error for BgPhrasebookError {}

/// The words of one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BgPhrasebook {
    language: String,
    and: String,
    points: Vec<String>,
    dice: Vec<String>,
    doubles: Vec<String>,
    point_forms: Vec<String>,
    white: String,
    black: String,
    templates: BTreeMap<String, String>,
    resign_levels: Vec<String>,
    game_end_kind: Vec<String>,
}

fn list(
    t: &toml::Table,
    section: &str,
    key: &str,
    len: usize,
) -> Result<Vec<String>, BgPhrasebookError> {
    let v = t
        .get(section)
        .and_then(|s| s.get(key))
        .and_then(|v| v.as_array())
        .ok_or_else(|| BgPhrasebookError(format!("{section}.{key}: missing list")))?;
    let out: Vec<String> = v
        .iter()
        .filter_map(|x| x.as_str().map(str::to_owned))
        .collect();
    if out.len() != len {
        return Err(BgPhrasebookError(format!(
            "{section}.{key}: needs {len} words, has {}",
            out.len()
        )));
    }
    Ok(out)
}

fn word(t: &toml::Table, section: &str, key: &str) -> Result<String, BgPhrasebookError> {
    t.get(section)
        .and_then(|s| s.get(key))
        .and_then(|v| v.as_str())
        .map(str::to_owned)
        .ok_or_else(|| BgPhrasebookError(format!("{section}.{key}: missing")))
}

impl BgPhrasebook {
    /// Loads a phrasebook from TOML text; every template and word list must be there.
    ///
    /// # Errors
    /// What is missing, by key.
    pub fn from_toml_str(text: &str) -> Result<BgPhrasebook, BgPhrasebookError> {
        let t: toml::Table = toml::from_str(text).map_err(|e| BgPhrasebookError(e.to_string()))?;
        let mut templates = BTreeMap::new();
        for k in TEMPLATES {
            templates.insert((*k).to_owned(), word(&t, "templates", k)?);
        }
        for (section, keys) in [("table", TABLE), ("refusals", REFUSALS)] {
            for k in keys {
                templates.insert(format!("{section}.{k}"), word(&t, section, k)?);
            }
        }
        // A rated game's refusal (issue 41): a book written before it loads,
        // with the English words.
        let rule =
            word(&t, "refusals", "ambiguous_rule").unwrap_or_else(|_| AMBIGUOUS_RULE_EN.to_owned());
        templates.insert("refusals.ambiguous_rule".to_owned(), rule);
        Ok(BgPhrasebook {
            language: word(&t, "meta", "language")?,
            and: word(&t, "meta", "and")?,
            points: list(&t, "numbers", "points", 25)?,
            dice: list(&t, "numbers", "dice", 7)?,
            doubles: list(&t, "numbers", "doubles", 7)?,
            point_forms: list(&t, "numbers", "point_forms", 3)?,
            white: word(&t, "sides", "white")?,
            black: word(&t, "sides", "black")?,
            templates,
            resign_levels: list(&t, "templates", "resign_levels", 4)?,
            game_end_kind: list(&t, "templates", "game_end_kind", 4)?,
        })
    }

    /// The built-in book of a language with data
    /// (`speech/phrasebooks/backgammon/LANG.toml`); `None` for a language
    /// without it or whose file lacks a key of the English one.
    #[must_use]
    pub fn builtin(lang: &str) -> Option<BgPhrasebook> {
        let text = crate::languages::text(crate::languages::Book::Backgammon, lang).ok()?;
        BgPhrasebook::from_toml_str(text).ok()
    }

    /// The language tag.
    #[must_use]
    pub fn language(&self) -> &str {
        &self.language
    }

    fn fill(&self, key: &str, args: &[(&str, &str)]) -> String {
        let mut s = self.templates.get(key).cloned().unwrap_or_default();
        for (name, value) in args {
            s = s.replace(&format!("{{{name}}}"), value);
        }
        s
    }

    fn side(&self, c: Color) -> &str {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// A number as a word (1..24); beyond, digits.
    fn number(&self, n: u32) -> String {
        usize::try_from(n)
            .ok()
            .and_then(|i| self.points.get(i))
            .filter(|w| !w.is_empty())
            .cloned()
            .unwrap_or_else(|| n.to_string())
    }

    /// The plural form for `n`: one, few (2-4, 22-24, ...), many.
    fn form<'a>(&self, forms: &'a [String], n: u32) -> &'a str {
        let few = (2..=4).contains(&(n % 10)) && !(12..=14).contains(&(n % 100));
        let i = if n == 1 {
            0
        } else if few {
            1
        } else {
            2
        };
        forms.get(i).map_or("", String::as_str)
    }

    /// The dice as said: "three one", "double sixes".
    #[must_use]
    pub fn dice(&self, d: Dice) -> String {
        let w = |n: u8| self.dice.get(usize::from(n)).cloned().unwrap_or_default();
        if d.is_double() {
            self.doubles
                .get(usize::from(d.0))
                .cloned()
                .unwrap_or_default()
        } else {
            let d = d.high_first();
            format!("{} {}", w(d.0), w(d.1))
        }
    }
}

/// Whose numbering the opponent's moves are said in (points count from each
/// player's own home).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Numbering {
    /// As the mover writes them (the standard notation, the record's).
    Mover,
    /// As the listener counts them on their own board: the opponent's `13/7`
    /// is said "twelve to eighteen" (25 minus each point).
    #[default]
    Listener,
    /// The mover's numbers, then the listener's ("thirteen to seven, your
    /// twelve to eighteen").
    Both,
}

/// Says backgammon events to one listener (the blind player).
#[derive(Debug, Clone)]
pub struct BgAnnouncer {
    book: BgPhrasebook,
    numbering: Numbering,
    listener: Color,
}

impl BgAnnouncer {
    /// An announcer for `listener` with a phrasebook and a numbering.
    #[must_use]
    pub fn new(book: BgPhrasebook, numbering: Numbering, listener: Color) -> BgAnnouncer {
        BgAnnouncer {
            book,
            numbering,
            listener,
        }
    }

    /// The roll: "White rolls three one." (`opening`: who starts).
    #[must_use]
    pub fn roll(&self, side: Color, dice: Dice, opening: bool) -> String {
        let key = if opening { "opening" } else { "roll" };
        self.book.fill(
            key,
            &[
                ("side", self.book.side(side)),
                ("dice", &self.book.dice(dice)),
            ],
        )
    }

    /// A move's checker paths said (`flip`: in the other side's numbering).
    /// The bar and off are said in their own words (`enter`, `bear_off`),
    /// never as a point number, whatever the path hits; a hit is said once,
    /// on the first landing on its point, as gnubg marks it.
    fn steps_text(&self, board: &Board, play: &Play, flip: bool) -> String {
        let b = &self.book;
        let them = board.side(board.turn().other());
        let blot_at = |p: u8| (1..=24).contains(&p) && them[24 - usize::from(p)] > 0;
        let mut marked = [false; 26];
        let mut parts = Vec::new();
        for (chain, count) in notation::paths(board, play) {
            let to = *chain.last().unwrap_or(&0);
            // A checker borne off after a hit on the way (`6/2*/off`): its
            // landings said, then the bear-off from the last one.
            let landings = if to == 0 && chain.len() > 2 {
                &chain[..chain.len() - 1]
            } else {
                &chain[..]
            };
            let last = *landings.last().unwrap_or(&0);
            let mids = &landings[1..landings.len().saturating_sub(1)];
            let mut s = self.path_text(landings, flip);
            let hit_at_end = last != 0 && blot_at(last) && !marked[usize::from(last)];
            for &p in mids.iter().chain(hit_at_end.then_some(&last)) {
                marked[usize::from(p)] = true;
            }
            if hit_at_end {
                s = b.fill("hit", &[("step", &s)]);
            }
            if landings.len() < chain.len() {
                let off = b.fill("bear_off", &[("from", &self.point_said(last, flip))]);
                s = format!("{s}{}{off}", b.and);
            }
            if count > 1 {
                s = b.fill("count", &[("step", &s), ("n", &b.number(u32::from(count)))]);
            }
            parts.push(s);
        }
        parts.join(&b.and)
    }

    /// Point `p` (1..24) as said, in the other side's numbering if `flip`.
    fn point_said(&self, p: u8, flip: bool) -> String {
        self.book.number(u32::from(if flip { 25 - p } else { p }))
    }

    /// One checker's path (start, every point hit on the way, end; the
    /// bar 25, off 0): the first step (`enter` from the bar, `via` past a
    /// hit, `bear_off`, `step`), then each further landing with the words
    /// of `via` after its `{mid}` (", hitting, to {to}").
    fn path_text(&self, chain: &[u8], flip: bool) -> String {
        let b = &self.book;
        let pt = |p: u8| self.point_said(p, flip);
        let (from, first) = (chain[0], chain.get(1).copied().unwrap_or(0));
        let (mut s, rest) = if from == 25 {
            (
                b.fill("enter", &[("to", &pt(first))]),
                &chain[2.min(chain.len())..],
            )
        } else if first == 0 {
            (b.fill("bear_off", &[("from", &pt(from))]), &[][..])
        } else if let Some(&to) = chain.get(2) {
            let args = [("from", &pt(from)), ("mid", &pt(first)), ("to", &pt(to))];
            let args = args.map(|(k, v)| (k, v.as_str()));
            (b.fill("via", &args), &chain[3..])
        } else {
            (
                b.fill("step", &[("from", &pt(from)), ("to", &pt(first))]),
                &[][..],
            )
        };
        let via = b.templates.get("via").map_or("", String::as_str);
        let on = via.split_once("{mid}").map_or(via, |(_, after)| after);
        for &p in rest {
            s.push_str(&on.replace("{to}", &pt(p)));
        }
        s
    }

    /// A move, every hit, entry and bear-off said: "Black: eight to five, six to five."
    /// `board` is the position before the move (its side on roll moved).
    #[must_use]
    pub fn play(&self, board: &Board, play: &Play) -> String {
        let mover = board.turn();
        let b = &self.book;
        if play.is_pass() {
            return b.fill("pass", &[("side", b.side(mover))]);
        }
        let steps = self.steps(board, play);
        b.fill("move", &[("side", b.side(mover)), ("steps", &steps)])
    }

    /// A move's steps in the numbering the listener hears.
    fn steps(&self, board: &Board, play: &Play) -> String {
        let b = &self.book;
        let opponent = board.turn() != self.listener;
        match (self.numbering, opponent) {
            (Numbering::Listener, true) => self.steps_text(board, play, true),
            (Numbering::Both, true) => format!(
                "{}{}{}",
                self.steps_text(board, play, false),
                b.and,
                b.fill("yours", &[("point", &self.steps_text(board, play, true))])
            ),
            _ => self.steps_text(board, play, false),
        }
    }

    /// A move's steps alone, as the spoken record says a move after its
    /// own roll (the side was said with the roll): "Thirteen to eleven,
    /// thirteen to eight." A pass is said whole ("White cannot move.").
    #[must_use]
    pub fn play_steps(&self, board: &Board, play: &Play) -> String {
        if play.is_pass() {
            return self.play(board, play);
        }
        let steps = self.steps(board, play);
        let mut c = steps.chars();
        match c.next() {
            Some(f) => f.to_uppercase().chain(c).chain(".".chars()).collect(),
            None => steps,
        }
    }

    /// A resignation offered (004 4.5): "White offers to resign a gammon."
    #[must_use]
    pub fn resign_offer(&self, side: Color, level: u8) -> String {
        self.resignation("table.resign_offer", side, level)
    }

    /// A double: "White doubles to 2."
    #[must_use]
    pub fn double(&self, side: Color, value: u32) -> String {
        self.book.fill(
            "double",
            &[
                ("side", self.book.side(side)),
                ("value", &self.book.number(value)),
            ],
        )
    }

    /// A take.
    #[must_use]
    pub fn take(&self, side: Color) -> String {
        self.book.fill("take", &[("side", self.book.side(side))])
    }

    /// A pass (drop).
    #[must_use]
    pub fn drop(&self, side: Color) -> String {
        self.book.fill("drop", &[("side", self.book.side(side))])
    }

    /// A resignation of 1, 2 or 3 (004 4.5: single, double, triple).
    #[must_use]
    pub fn resign(&self, side: Color, level: u8) -> String {
        self.resignation("resign", side, level)
    }

    /// Template `key` of a side's resignation at `level` (its words from
    /// `resign_levels`).
    fn resignation(&self, key: &str, side: Color, level: u8) -> String {
        let what = self
            .book
            .resign_levels
            .get(usize::from(level))
            .cloned()
            .unwrap_or_default();
        self.book
            .fill(key, &[("side", self.book.side(side)), ("what", &what)])
    }

    /// A game's end with its points: "White wins 2 points with a gammon."
    #[must_use]
    pub fn game_end(&self, end: &GameEnd) -> String {
        let b = &self.book;
        let mut s = b.fill(
            "game_end",
            &[
                ("side", b.side(end.winner)),
                ("points", &b.number(end.points)),
                ("points_word", b.form(&b.point_forms, end.points)),
            ],
        );
        let kind = match end.kind {
            EndKind::Gammon => 2,
            EndKind::Backgammon => 3,
            _ => 0,
        };
        if let Some(extra) = b.game_end_kind.get(kind).filter(|e| !e.is_empty()) {
            // Before the final full stop.
            if s.ends_with('.') {
                s.pop();
                s.push_str(extra);
                s.push('.');
            } else {
                s.push_str(extra);
            }
        }
        s
    }

    /// The match score, and the Crawford game when it is one (004 4.7).
    #[must_use]
    pub fn score(&self, m: &Match) -> Vec<String> {
        let b = &self.book;
        let mut out = vec![b.fill(
            "score",
            &[
                ("white", &b.white),
                ("white_score", &m.score(Color::White).to_string()),
                ("black", &b.black),
                ("black_score", &m.score(Color::Black).to_string()),
                ("length", &m.options().length.to_string()),
            ],
        )];
        if let Some(w) = m.winner() {
            out.push(b.fill("match_end", &[("side", b.side(w))]));
        } else if m.is_crawford() {
            out.push(b.fill("crawford", &[]));
        }
        out
    }

    /// A sentence of the `[table]` or `[refusals]` section (`"table.to_roll"`,
    /// `"refusals.blocked"`), its `{name}`s filled in.
    #[must_use]
    pub fn phrase(&self, key: &str, args: &[(&str, &str)]) -> String {
        self.book.fill(key, args)
    }

    /// The language of the phrasebook.
    #[must_use]
    pub fn language(&self) -> &str {
        self.book.language()
    }

    /// A side's name.
    #[must_use]
    pub fn side_name(&self, side: Color) -> &str {
        self.book.side(side)
    }

    /// The dice as said.
    #[must_use]
    pub fn dice_words(&self, d: Dice) -> String {
        self.book.dice(d)
    }

    /// A number as said (points 1..24 as words; beyond, digits).
    #[must_use]
    pub fn number(&self, n: u32) -> String {
        self.book.number(n)
    }

    /// The listener (whose numbering the opponent's moves may be said in).
    #[must_use]
    pub fn listener(&self) -> Color {
        self.listener
    }

    /// A move's steps in the mover's numbering, as said in a move's
    /// announcement without the side: "eight to five, six to five" (the
    /// read-back of a spoken move).
    #[must_use]
    pub fn mover_steps(&self, board: &Board, play: &Play) -> String {
        self.steps_text(board, play, false)
    }

    /// Why an action or a move was refused, in the `[refusals]` words
    /// (`text` is the input, for an unreadable one).
    #[must_use]
    pub fn refusal(&self, e: &ActionError, text: &str) -> String {
        let n = |p: u8| self.number(u32::from(p));
        let r = |key: &str| self.phrase(&format!("refusals.{key}"), &[]);
        match e {
            ActionError::MatchOver => r("match_over"),
            ActionError::AlreadyRolled => r("already_rolled"),
            ActionError::BadDice => r("bad_dice"),
            ActionError::OpeningTie => r("opening_tie"),
            ActionError::NotRolled => r("not_rolled"),
            ActionError::DoublePending => r("double_pending"),
            ActionError::NoDouble => r("no_double"),
            ActionError::CrawfordGame => r("crawford"),
            ActionError::NotYourCube => r("not_your_cube"),
            ActionError::CubeAtMaximum => r("cube_max"),
            ActionError::DeadCube => r("dead_cube"),
            ActionError::DoubleAfterRoll => r("double_after_roll"),
            ActionError::BadResignation => r("bad_resignation"),
            ActionError::ResignPending => r("resign_pending"),
            ActionError::NoResignation => r("no_resignation"),
            ActionError::NoGame => r("no_game"),
            ActionError::Move(me) => match me {
                MoveError::NoLegalMove => r("no_legal_move"),
                MoveError::MustMove => r("must_move"),
                MoveError::MustEnterFirst { .. } => r("must_enter"),
                MoveError::NoChecker { point } => {
                    self.phrase("refusals.no_checker", &[("point", &n(*point))])
                }
                MoveError::Blocked { point } => {
                    self.phrase("refusals.blocked", &[("point", &n(*point))])
                }
                MoveError::CannotBearOffYet => r("cannot_bear_off"),
                MoveError::NotRolled { from, to } => self.phrase(
                    "refusals.not_on_dice",
                    &[("from", &n(*from)), ("to", &n(*to))],
                ),
                MoveError::MustUseBothDice { unused } => {
                    self.phrase("refusals.must_use_both", &[("die", &n(*unused))])
                }
                MoveError::MustUseMoreDice { .. } => r("must_use_more"),
                MoveError::MustPlayLarger { larger } => {
                    self.phrase("refusals.must_play_larger", &[("die", &n(*larger))])
                }
                // A rated game (issue 41): the rule, not the moves.
                MoveError::Ambiguous(c) if c.is_empty() => r("ambiguous_rule"),
                MoveError::Ambiguous(c) => {
                    self.phrase("refusals.ambiguous", &[("moves", &c.join(", "))])
                }
                MoveError::Parse(_) => self.phrase("refusals.unreadable", &[("text", text)]),
                _ => r("not_legal"),
            },
            _ => r("not_legal"),
        }
    }

    /// Both pip counts.
    #[must_use]
    pub fn pips(&self, board: &Board) -> String {
        let b = &self.book;
        b.fill(
            "pips",
            &[
                ("white", &b.white),
                ("white_pips", &board.pips(Color::White).to_string()),
                ("black", &b.black),
                ("black_pips", &board.pips(Color::Black).to_string()),
            ],
        )
    }
}

//! Issue 43: in every language tandem has data files for (the stems of
//! `speech/phrasebooks/*.toml`, `support::langs::languages`; never a list
//! written here), every square and every kind of move is said and heard
//! back as the same move: what `tandem say --lang LANG` announces,
//! understood by `tandem hear --lang LANG --text` as the move announced.
//!
//! - draughts: every square 1-50 (a king on each), quiet moves, a capture,
//!   a capture of several pieces, a promotion;
//! - chess: every square of the board as a move's start and end, pawn and
//!   piece moves, captures, castling on both sides, en passant, promotion
//!   (with and without a capture), check and mate (the announcement ends
//!   with the language's own check or mate sentence, `chess/LANG.toml`);
//! - backgammon: every point from 1 to 24, the bar, bearing off, doubles and
//!   hits, in positions of seeded games.
//!
//! The Vosk recognizers of the new languages cannot be downloaded here: the
//! voice grammar is tested through transcripts, as `tandem hear --text`
//! does. What is heard back is what a player says after the announcement's
//! words: its move sentence (the pieces to take off, the crowning and the
//! check that follow are the table's, not the player's), a castling by its
//! name (the words of `move.short_castle` / `long_castle` before the first
//! square) and a promotion with its piece (the listener's read-back).
//!
//! Speed: one process is the test binary. `tandem say` and `tandem hear`
//! are the library functions the commands run (`GameKind::say`,
//! `GameKind::ear` and its judge), with the ear built once per position
//! and every move of it judged by it; one real `tandem say` → `tandem hear
//! --text` per language and game checks the command line's `--lang` too.

use std::collections::BTreeSet;

use crate::support::cli::run as tandem;
use crate::support::langs;
use serde_json::Value;
use tandem::game::GameKind;
use tandem::one_shot::{MovesAsked, Said, SayAsked};
use tandem::voice::ear::{Ear, EarRequest};
use tandem_rules::draughts::Variant;
use tandem_speech::listen::Transcript;

/// What the round trips of one game found wrong in every language, and
/// how many moves they checked: every language is tried, and all that is
/// wrong in any of them is told at the end.
#[derive(Default)]
struct Trips {
    failures: Vec<String>,
    checked: usize,
}

impl Trips {
    /// `spoken` (from what `said` announces) heard back by `ear`: what
    /// was heard if it is the move `said` announces, else a failure.
    fn check(&mut self, ear: &Ear, said: &Said, spoken: &str) -> Option<Value> {
        self.checked += 1;
        let want = said.played.clone().unwrap_or_default();
        let v = heard(ear, spoken);
        if v["kind"] == "move" && v["move"] == want.as_str() {
            Some(v)
        } else {
            self.failures.push(format!(
                "{} {}: said {:?} ({want}), heard back from {spoken:?}: {v}",
                said.lang, said.fen, said.utterance.sentences
            ));
            None
        }
    }

    /// A failure unless `ok`.
    fn require(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.failures.push(what());
        }
    }

    /// One language's round trips, whose setup may fail (a language
    /// without a game's data): the failure is told with the rest.
    fn run(&mut self, lang: &str, f: impl FnOnce(&mut Trips) -> Result<(), String>) {
        if let Err(e) = f(self) {
            self.failures.push(format!("{lang}: {e}"));
        }
    }

    fn assert_none(&self, game: &str) {
        assert!(
            self.failures.is_empty(),
            "{game}: {} failures ({} moves checked):\n{}",
            self.failures.len(),
            self.checked,
            self.failures.join("\n")
        );
    }
}

fn ear(kind: GameKind, lang: &str, fen: Option<&str>, dice: Option<&str>) -> Result<Ear, String> {
    kind.ear(&EarRequest {
        lang,
        phrasebook: None,
        fen,
        position: None,
        dice,
    })
    .map_err(|e| format!("tandem hear {fen:?}: {e:#}"))
}

fn say(
    kind: GameKind,
    lang: &str,
    mv: &str,
    fen: Option<&str>,
    dice: Option<&str>,
) -> Result<Said, String> {
    let said = kind
        .say(&SayAsked {
            mv,
            fen,
            lang,
            phrasebook: None,
            letters: false,
            dice,
        })
        .map_err(|e| format!("tandem say {mv} {fen:?}: {e:#}"))?;
    assert!(
        said.error.is_none() && said.played.is_some(),
        "{lang} {fen:?}: {mv} is legal: {:?}",
        said.error
    );
    Ok(said)
}

fn heard(ear: &Ear, spoken: &str) -> Value {
    let v = (ear.judge)(&[Transcript::text(spoken)]).expect("judged");
    serde_json::from_str(&v.json).unwrap()
}

fn moves(kind: GameKind, fen: Option<&str>) -> Vec<String> {
    kind.list_moves(&MovesAsked {
        fen,
        position: None,
        dice: None,
    })
    .unwrap()
}

/// One real `tandem say --lang LANG ARGS… MOVE` → `tandem hear --lang LANG
/// --text SENTENCE ARGS… --json`: the command lines take every language.
fn through_the_commands(
    lang: &str,
    args: &[&str],
    mv: &str,
    sentence: usize,
    want: &str,
) -> Result<(), String> {
    let mut a = vec!["say", "--json", "--lang", lang];
    a.extend_from_slice(args);
    a.push(mv);
    let (code, out, err) = tandem(&a);
    if code != 0 {
        return Err(format!("{a:?}: exit {code}: {err}"));
    }
    let said: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(said["lang"], lang, "{said}");
    let spoken = said["sentences"][sentence].as_str().unwrap().to_owned();
    let mut a = vec!["hear", "--json", "--lang", lang, "--text", &spoken];
    a.extend_from_slice(args);
    let (code, out, err) = tandem(&a);
    if code != 0 {
        return Err(format!("{a:?}: exit {code}: {err}"));
    }
    let v: Value = serde_json::from_str(&out).unwrap();
    if (v["kind"].as_str(), v["move"].as_str()) == (Some("move"), Some(want)) {
        Ok(())
    } else {
        Err(format!(
            "tandem say {mv}: said {spoken:?}, tandem hear heard {v}"
        ))
    }
}

/// The squares a draughts move's notation names (`32-28`, `32x21x12`).
fn draughts_squares(notation: &str) -> Vec<u8> {
    notation
        .split(['-', 'x'])
        .map(|s| s.parse().unwrap())
        .collect()
}

/// White kings on `s`, `s + 10`, … `s + 40` with a black man where no king
/// can take: with `s` from 1 to 10 every square 1-50 is a king's. The
/// position, and a move of each king.
fn kings_from(s: u8) -> (String, Vec<String>) {
    let kind = GameKind::Draughts(Variant::International);
    let kings: Vec<u8> = (0..5).map(|i| s + 10 * i).collect();
    let list = kings
        .iter()
        .map(|k| format!("K{k}"))
        .collect::<Vec<_>>()
        .join(",");
    (1..=50u8)
        .rev()
        .filter(|b| !kings.contains(b))
        .find_map(|b| {
            let fen = format!("W:W{list}:B{b}");
            let all = moves(kind, Some(&fen));
            if all.iter().any(|m| m.contains('x')) {
                return None;
            }
            let one: Vec<String> = kings
                .iter()
                .filter_map(|k| all.iter().find(|m| m.starts_with(&format!("{k}-"))))
                .cloned()
                .collect();
            (one.len() == kings.len()).then_some((fen, one))
        })
        .expect("a black man no king can take, and a move for every king")
}

/// One language's draughts round trips: every move of each position (the
/// start when it is `None`) or the ones given.
fn draughts_in(
    lang: &str,
    positions: &[(Option<String>, Vec<String>)],
    trips: &mut Trips,
) -> Result<(), String> {
    let kind = GameKind::Draughts(Variant::International);
    let mut squares = BTreeSet::new();
    let (mut captures, mut multi, mut crowned) = (0, 0, 0);
    for (fen, given) in positions {
        let fen = fen.as_deref();
        let ear = ear(kind, lang, fen, None)?;
        let all = if given.is_empty() {
            moves(kind, fen)
        } else {
            given.clone()
        };
        let kings = fen.is_some_and(|f| f.contains(":WK"));
        for mv in &all {
            let said = say(kind, lang, mv, fen, None)?;
            // The move's sentence; the pieces to take off and the
            // crowning follow it.
            let Some(v) = trips.check(&ear, &said, &said.utterance.sentences[0]) else {
                continue;
            };
            let sq = draughts_squares(said.played.as_deref().unwrap());
            let taken = v["captured"].as_array().map_or(0, Vec::len);
            captures += usize::from(taken == 1);
            multi += usize::from(taken > 1);
            crowned += usize::from(!kings && sq.last().is_some_and(|&t| t <= 5));
            squares.extend(sq);
        }
    }
    let missing: Vec<u8> = (1..=50).filter(|s| !squares.contains(s)).collect();
    trips.require(missing.is_empty(), || {
        format!("{lang}: squares never heard back: {missing:?}")
    });
    trips.require(captures >= 1 && multi >= 1 && crowned >= 2, || {
        format!(
            "{lang}: heard back {captures} captures, {multi} of several pieces, {crowned} crownings"
        )
    });
    through_the_commands(lang, &["--fen", "W:W32:B27,17,8"], "32x3", 0, "32x3")
}

#[test]
fn every_draughts_square_and_kind_of_move_in_every_language() {
    // The start, a capture, one of three pieces that crowns, a promotion,
    // and kings on every square.
    let mut positions: Vec<(Option<String>, Vec<String>)> = vec![
        (None, vec![]),
        (Some("W:W33:B28".into()), vec![]),
        (Some("W:W32:B27,17,8".into()), vec![]),
        (Some("W:W6:B40".into()), vec![]),
    ];
    positions.extend((1..=10).map(|s| {
        let (fen, one) = kings_from(s);
        (Some(fen), one)
    }));
    let mut trips = Trips::default();
    for lang in langs::languages() {
        trips.run(&lang, |t| draughts_in(&lang, &positions, t));
    }
    trips.assert_none("draughts");
}

/// The words of a chess template before its first placeholder, up to the
/// first punctuation mark: a castling's name ("Short castling"), a
/// promotion's lead ("Promotes to a").
fn template_lead(book: &toml::Table, key: &str) -> String {
    let t = langs::string_at(book, key).unwrap_or_else(|| panic!("chess {key}"));
    let head = &t[..t.find('{').unwrap_or(t.len())];
    head.split([':', ',', '.', ';'])
        .next()
        .unwrap()
        .trim()
        .to_owned()
}

/// What a player says for a chess move, from its announcement: the move's
/// sentence, a castling by its name, a promotion with its piece.
fn chess_spoken(book: &toml::Table, said: &Said) -> String {
    let san = said.played.as_deref().unwrap();
    let s = &said.utterance.sentences;
    if san.starts_with("O-O") {
        let key = if san.starts_with("O-O-O") {
            "move.long_castle"
        } else {
            "move.short_castle"
        };
        let name = template_lead(book, key);
        assert!(
            s[0].starts_with(&name),
            "{}: {s:?} starts with {name:?}",
            said.lang
        );
        return name;
    }
    if san.contains('=') {
        let lead = template_lead(book, "move.promotion");
        let p = s
            .iter()
            .find(|x| x.starts_with(&lead))
            .unwrap_or_else(|| panic!("{}: no promotion sentence {lead:?} in {s:?}", said.lang));
        return format!("{} {p}", s[0]);
    }
    s[0].clone()
}

/// Chess positions whose moves start or end on every square: a queen and
/// the kings, kept where they add a square (the rules' legal moves).
fn queens_on_every_square(mut covered: BTreeSet<String>) -> Vec<(String, Vec<String>)> {
    use tandem_rules::chess::ChessGame;
    let mut out = Vec::new();
    for (wk, bk) in [("a1", "h8"), ("h1", "a8")] {
        for q in 0..64u8 {
            let qs = format!("{}{}", char::from(b'a' + q % 8), q / 8 + 1);
            if qs == wk || qs == bk {
                continue;
            }
            let mut board = [['1'; 8]; 8];
            for (sq, c) in [(wk, 'K'), (bk, 'k'), (qs.as_str(), 'Q')] {
                let b = sq.as_bytes();
                board[usize::from(b'8' - b[1])][usize::from(b[0] - b'a')] = c;
            }
            let rows: Vec<String> = board.iter().map(|r| r.iter().collect()).collect();
            let fen = format!("{} w - - 0 1", rows.join("/"));
            let Ok(game) = ChessGame::from_fen(&fen) else {
                continue;
            };
            let mut new = Vec::new();
            for m in game.legal_moves() {
                let (from, to) = (m.from.to_string(), m.to.to_string());
                if !covered.contains(&from) || !covered.contains(&to) {
                    covered.insert(from.clone());
                    covered.insert(to.clone());
                    new.push(format!("{from}{to}"));
                }
            }
            if !new.is_empty() {
                out.push((fen, new));
            }
            if covered.len() == 64 {
                return out;
            }
        }
    }
    out
}

/// The kinds of chess move a move is (SAN and its position).
fn chess_kinds(san: &str, fen: &str) -> Vec<&'static str> {
    let piece = san.starts_with(|c: char| c.is_ascii_uppercase());
    let castles = san.starts_with("O-O");
    let long = san.starts_with("O-O-O");
    let promotes = san.contains('=');
    [
        ("pawn", !piece && !promotes),
        ("piece", piece && !castles),
        ("capture", san.contains('x')),
        ("short castling", castles && !long),
        ("long castling", long),
        ("en passant", fen.contains(" d6 ") && san == "exd6"),
        ("promotion", promotes),
        ("promotion with a capture", promotes && san.contains('x')),
    ]
    .into_iter()
    .filter_map(|(k, yes)| yes.then_some(k))
    .collect()
}

/// One language's chess round trips.
fn chess_in(
    lang: &str,
    positions: &[(String, Vec<String>)],
    trips: &mut Trips,
) -> Result<(), String> {
    let path = langs::phrasebooks().join(format!("chess/{lang}.toml"));
    if !path.is_file() {
        return Err(format!("no {}", path.display()));
    }
    let book = langs::read_toml(&path);
    let mut squares = BTreeSet::new();
    let mut kinds = BTreeSet::new();
    for (fen, mvs) in positions {
        let ear = ear(GameKind::Chess, lang, Some(fen), None)?;
        for mv in mvs {
            let said = say(GameKind::Chess, lang, mv, Some(fen), None)?;
            let san = said.played.clone().unwrap();
            // The check and the mate: the language's own sentence last.
            let mark = match san.chars().last() {
                Some('+') => Some("move.check"),
                Some('#') => Some("move.checkmate"),
                _ => None,
            };
            if let Some(key) = mark {
                let want = langs::string_at(&book, key);
                let last = said.utterance.sentences.last().map(String::as_str);
                trips.require(last.is_some() && last == want, || {
                    format!(
                        "{lang} {san}: {key} {want:?} is not the last of {:?}",
                        said.utterance.sentences
                    )
                });
                kinds.insert(key);
            }
            if trips
                .check(&ear, &said, &chess_spoken(&book, &said))
                .is_none()
            {
                continue;
            }
            let uci = said.extra["uci"].as_str().unwrap();
            squares.insert(uci[..2].to_owned());
            squares.insert(uci[2..4].to_owned());
            kinds.extend(chess_kinds(&san, fen));
        }
    }
    trips.require(squares.len() == 64, || {
        format!("{lang}: squares heard back: {squares:?}")
    });
    trips.require(kinds.len() == 10, || {
        format!("{lang}: kinds heard back: {kinds:?}")
    });
    through_the_commands(lang, &["--variant", "chess"], "Nf3", 0, "Nf3")
}

#[test]
fn every_chess_square_and_kind_of_move_in_every_language() {
    // A pawn and a piece of each side, castling both ways and a rook
    // that takes with check, en passant, every promotion (with and without
    // a capture, with check), mate; then a queen's moves to every square.
    let special: [(&str, &[&str]); 6] = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["e4", "Nf3"],
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            &["e5", "Nc6"],
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            &["O-O", "O-O-O", "Rxa8+"],
        ),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", &["exd6"]),
        ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", &[]),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", &["Ra8#"]),
    ];
    let mut positions: Vec<(String, Vec<String>)> = special
        .iter()
        .map(|(f, mvs)| {
            let all = moves(GameKind::Chess, Some(f));
            let chosen: Vec<String> = if mvs.is_empty() {
                all
            } else {
                mvs.iter().map(|m| (*m).to_owned()).collect()
            };
            (f.to_string(), chosen)
        })
        .collect();
    positions.extend(queens_on_every_square(BTreeSet::new()));
    let mut trips = Trips::default();
    for lang in langs::languages() {
        trips.run(&lang, |t| chess_in(&lang, &positions, t));
    }
    trips.assert_none("chess");
}

/// How many things [`backgammon_marks`] tells apart: the points 1-24,
/// the bar, off, a hit, doubles and the four ways a hit goes with the bar
/// or off.
const BACKGAMMON_MARKS: usize = 32;

/// What a backgammon move's text shows (`bar/22 13/7*(2) 6/off`): the
/// points 1-24, `bar`, `off`, `hit` and `doubles`.
fn backgammon_marks(text: &str, dice: (u8, u8)) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for part in text.split([' ', '/', '(', ')', '*']) {
        if part == "bar" || part == "off" || part.parse::<u8>().is_ok_and(|p| (1..=24).contains(&p))
        {
            out.insert(part.to_owned());
        }
    }
    if text.contains('*') {
        out.insert("hit".into());
    }
    // A hit with the bar or off in the same checker's path: the bar and off
    // said in their own words, never as a point 25 or 0.
    for path in text.split(' ') {
        let from_bar = path.starts_with("bar/");
        for (kind, has) in [
            ("bar and hit", from_bar && path.contains('*')),
            ("hit on the way", path.contains("*/")),
            ("bar, hit on the way", from_bar && path.contains("*/")),
            ("hit, then off", path.contains("*/off")),
        ] {
            if has {
                out.insert(kind.into());
            }
        }
    }
    if dice.0 == dice.1 {
        out.insert("doubles".into());
    }
    out
}

/// Backgammon positions before white's roll (`POSITION_ID:MATCH_ID`) from
/// seeded games, each with a roll and the plays of it to say: kept while
/// they add a point, the bar, bearing off, a hit or doubles. White's: a
/// move is said in the mover's numbering (docs/backgammon.md, "Voice"),
/// and `tandem say` reads every move out in white's.
fn backgammon_positions() -> Vec<(String, (u8, u8), Vec<String>)> {
    use tandem_rules::backgammon::{Action, Dice, Match, MatchOptions, Phase, Play};
    use tandem_rules::TableGame;
    // Made by hand, as seeded games rarely reach them: a checker entering
    // from the bar with a hit, with a hit then going on, two entering
    // with two hits, doubles from the bar, a hit then off.
    let made = [
        // White on the bar; black blots on white's 21 and 17.
        ("yCfyATDgc/AAWA:MAHgAAAAAAAE", (4, 3), "bar/21*/18"),
        ("yCfyATDgc/AAWA:MAHgAAAAAAAE", (3, 1), "bar/21*"),
        ("yCfyATDgc/AAWA:MAHgAAAAAAAE", (4, 4), "bar/21*/17*/9"),
        (
            "yCfyATDgc/AAWA:MAHgAAAAAAAE",
            (4, 4),
            "bar/21*/17* 24/20(2)",
        ),
        // Two white checkers on the bar; black blots on white's 22 and 21.
        ("lM/BBwDgc3AAbA:MAHgAAAAAAAE", (4, 3), "bar/22* bar/21*"),
        // White bearing off; a black blot on white's 2.
        ("4PPgAxDcew8AAA:MAHgAAAAAAAE", (4, 2), "6/2*/off"),
    ];
    let mut seen = BTreeSet::new();
    let mut out: Vec<(String, (u8, u8), Vec<String>)> = Vec::new();
    for (position, dice, play) in made {
        seen.extend(backgammon_marks(play, dice));
        out.push((position.to_owned(), dice, vec![play.to_owned()]));
    }
    let mut r = tandem_testkit::Rng(43);
    for _game in 0..40 {
        let mut m = Match::new(MatchOptions { length: 7 });
        let (a, b) = (r.die(), r.die().min(5));
        m.act(Action::Roll(Dice(a, if b >= a { b + 1 } else { b })))
            .unwrap();
        for _turn in 0..400 {
            if m.phase() == Phase::Roll && m.side_to_move() == tandem_rules::Color::White {
                let dice = (r.die(), r.die());
                let before = m.position_text();
                let mut rolled = m.clone();
                rolled.act(Action::Roll(Dice(dice.0, dice.1))).unwrap();
                let mut say = Vec::new();
                for p in rolled.legal() {
                    let text = rolled.move_text(&p);
                    let new: Vec<String> = backgammon_marks(&text, dice)
                        .into_iter()
                        .filter(|k| !seen.contains(k))
                        .collect();
                    if !new.is_empty() && say.len() < 3 {
                        seen.extend(new);
                        say.push(text);
                    }
                }
                if !say.is_empty() {
                    out.push((before, dice, say));
                }
            }
            if m.phase() == Phase::Roll {
                let dice = Dice(r.die(), r.die());
                m.act(Action::Roll(dice)).unwrap();
            }
            if m.phase() != Phase::Move {
                break;
            }
            let legal = m.legal();
            let p = if legal.is_empty() {
                Play::PASS
            } else {
                legal[r.index(legal.len())]
            };
            m.act(Action::Move(p)).unwrap();
        }
        if seen.len() == BACKGAMMON_MARKS {
            break;
        }
    }
    out
}

/// One language's backgammon round trips.
fn backgammon_in(
    lang: &str,
    positions: &[(String, (u8, u8), Vec<String>)],
    trips: &mut Trips,
) -> Result<(), String> {
    let mut marks = BTreeSet::new();
    for (fen, dice, plays) in positions {
        let d = format!("{}{}", dice.0, dice.1);
        let ear = ear(GameKind::Backgammon, lang, Some(fen), Some(&d))?;
        for mv in plays {
            let said = say(GameKind::Backgammon, lang, mv, Some(fen), Some(&d))?;
            // The roll's sentence first, then the move's.
            let spoken = said.utterance.sentences[1..].join(" ");
            if trips.check(&ear, &said, &spoken).is_some() {
                marks.extend(backgammon_marks(said.played.as_deref().unwrap(), *dice));
            }
        }
    }
    trips.require(marks.len() == BACKGAMMON_MARKS, || {
        format!("{lang}: points and kinds heard back: {marks:?}")
    });
    through_the_commands(
        lang,
        &["--variant", "backgammon", "--dice", "31"],
        "8/5 6/5",
        1,
        "8/5 6/5",
    )
}

#[test]
fn every_backgammon_point_and_kind_of_move_in_every_language() {
    let positions = backgammon_positions();
    let mut trips = Trips::default();
    for lang in langs::languages() {
        trips.run(&lang, |t| backgammon_in(&lang, &positions, t));
    }
    trips.assert_none("backgammon");
}

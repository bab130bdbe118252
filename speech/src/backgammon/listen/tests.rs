//! Tests of backgammon by voice: the grammar of every state, every legal
//! move of many positions and rolls heard back as itself, the rolls, the
//! cube, refusals with the rules' reason, "which one?", the listener's flow.

use tandem_rules::backgammon::{legal_plays, Board, MatchOptions};
use tandem_rules::Color;

use super::*;
use crate::announcer::Announcer;
use crate::listen::audio::{Mode, VadConfig};
use crate::listen::grammar::{CommandHeard, ConfirmPolicy};
use crate::listen::lexicon::CommandKind;
use crate::listen::listener::{Action as Act, ListenGame};
use crate::listen::Transcript;
use crate::listen::{Listener, ScriptedRecognizer};
use tandem_rules::backgammon::ActionError;

fn lex(lang: &str) -> BgLexicon {
    BgLexicon::builtin(lang).unwrap()
}

fn opts() -> MatchOptions {
    MatchOptions { length: 7 }
}

/// A match at the start of a game, white on roll with `dice` (or before the roll).
fn start(dice: Option<Dice>) -> Match {
    let mut m = Match::from_board(opts(), Board::start(Color::White));
    if let Some(d) = dice {
        m.act(Action::Roll(d)).unwrap();
    }
    m
}

fn hear(m: &Match, l: &BgLexicon, text: &str) -> BgHeard {
    let g = BgGrammar::build(m, l);
    understand_bg(&g, l, &[Transcript::text(text)])
}

/// `said` to match `m` is heard as the move `text`.
fn heard_move(m: &Match, l: &BgLexicon, said: &str, text: &str) {
    let h = hear(m, l, said);
    assert!(
        matches!(&h, BgHeard::Move { text: t, .. } if t == text),
        "{said}: {h:?}"
    );
}

/// `said` to match `m` is refused for `error`.
fn heard_refused(m: &Match, l: &BgLexicon, said: &str, error: &ActionError) {
    let h = hear(m, l, said);
    assert!(
        matches!(&h, BgHeard::Illegal { error: e, .. } if e == error),
        "{said}: {h:?}"
    );
}

/// A match from `board` (white's points, black's in black's numbering),
/// white to play `dice`.
fn rolled_on(b: Board, dice: Dice) -> Match {
    let mut m = Match::from_board(opts(), b);
    m.act(Action::Roll(dice)).unwrap();
    m
}

/// What `said` to match `m` is taken for, as typed.
fn input_of(m: &Match, l: &BgLexicon, said: &str) -> Option<BgInput> {
    heard_input(&hear(m, l, said))
}

/// The table's announcer in Polish.
fn polish_announcer() -> Announcer {
    Announcer::new(
        crate::Phrasebook::polish(),
        crate::AnnounceOptions::default(),
    )
}

fn heard_input(h: &BgHeard) -> Option<BgInput> {
    match h {
        BgHeard::Move { input, .. } => Some(*input),
        _ => None,
    }
}

/// A seeded generator (a test needs no better).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

/// Positions with dice from seeded random games (the opening, the middle,
/// hits and the bar, bear-offs), and every roll of the start position.
fn positions() -> Vec<Match> {
    let mut out = Vec::new();
    for a in 1..=6u8 {
        for b in a..=6u8 {
            out.push(start(Some(Dice(b, a))));
        }
    }
    let mut r = Lcg(17);
    for _ in 0..12 {
        let mut m = start(None);
        for turn in 0..200 {
            if m.phase() != Phase::Roll {
                break;
            }
            let d = Dice(r.next(6) as u8 + 1, r.next(6) as u8 + 1);
            m.act(Action::Roll(d)).unwrap();
            if turn % 5 == 3 {
                out.push(m.clone());
            }
            let legal = m.legal();
            let p = if legal.is_empty() {
                Play::PASS
            } else {
                legal[r.next(legal.len())]
            };
            m.act(Action::Move(p)).unwrap();
        }
    }
    out
}

/// How a player says a play: its paths in gnubg's order (or reversed),
/// each path's points, a path of several checkers said again, or once with
/// "twice" (`times`); `to` between a path's points.
fn say_play(l: &BgLexicon, m: &Match, p: &Play, reverse: bool, to: bool, times: bool) -> String {
    let mut parts = Vec::new();
    for (chain, count) in notation::paths(m.board(), p) {
        let pts: Vec<String> = chain
            .iter()
            .map(|&q| match q {
                25 => l.said(Class::Bar),
                0 => l.said(Class::Off),
                q => l.point_said(q),
            })
            .collect();
        let joined = if to {
            pts.join(&format!(" {} ", l.to_word.clone().unwrap_or_default()))
        } else {
            pts.join(" ")
        };
        if times && count > 1 {
            parts.push(format!("{joined} {}", l.said(Class::Times(count))));
        } else {
            for _ in 0..count {
                parts.push(joined.clone());
            }
        }
    }
    if reverse {
        parts.reverse();
    }
    parts.join(", ")
}

#[test]
fn every_legal_move_of_many_positions_is_heard_as_itself() {
    let positions = positions();
    assert!(positions.len() > 40, "{}", positions.len());
    let mut checked = 0;
    for lang in ["pl", "en"] {
        let l = lex(lang);
        for m in &positions {
            let g = BgGrammar::build(m, &l);
            let legal = m.legal();
            for p in &legal {
                for (reverse, to, times) in [
                    (false, false, false),
                    (true, false, false),
                    (false, true, false),
                    (false, false, true),
                ] {
                    let said = say_play(&l, m, p, reverse, to, times);
                    let h = understand_bg(&g, &l, &[Transcript::text(&said)]);
                    assert_eq!(
                        heard_input(&h),
                        Some(BgInput::Play(*p)),
                        "{lang} {} {:?}: {said:?} -> {h:?}",
                        m.position_id(),
                        m.dice()
                    );
                    checked += 1;
                }
                // The table's text is gnubg's.
                assert_eq!(BgInput::Play(*p).text(m), m.move_text(p));
            }
            if legal.is_empty() {
                let h = understand_bg(&g, &l, &[Transcript::text(&l.said(Class::Pass))]);
                assert_eq!(heard_input(&h), Some(BgInput::Play(Play::PASS)), "{h:?}");
            }
        }
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn the_spoken_forms_of_the_docs() {
    let pl = lex("pl");
    let en = lex("en");
    let m = start(Some(Dice(3, 1)));
    for (l, said) in [
        (&pl, "osiem pięć sześć pięć"),
        (&pl, "osiem na pięć, sześć na pięć"),
        (&pl, "sześć pięć osiem pięć"),
        (&pl, "osiem na pięć i sześć na pięć"),
        (&en, "eight five six five"),
        (&en, "eight to five, six to five"),
        (&pl, "8/5 6/5"),
        (&pl, "85 65"),
    ] {
        heard_move(&m, l, said, "8/5 6/5");
    }
    // A checker's steps said one by one.
    let h = hear(&m, &en, "twenty four twenty one twenty one twenty");
    assert!(
        matches!(&h, BgHeard::Move { text, .. } if text == "24/20"),
        "{h:?}"
    );
    // Doubles, a path of two checkers: said twice, or once with "dwa razy".
    let m = start(Some(Dice(4, 4)));
    for said in [
        "trzynaście dziewięć dwa razy, sześć dwa dwa razy",
        "trzynaście dziewięć trzynaście dziewięć sześć dwa sześć dwa",
    ] {
        heard_move(&m, &pl, said, "13/9(2) 6/2(2)");
    }
}

/// White: `white` (point, count); black: `black` in black's numbering.
fn board(white: &[(usize, u8)], black: &[(usize, u8)]) -> Board {
    let mut w = [0u8; 25];
    let mut b = [0u8; 25];
    for &(p, n) in white {
        w[p - 1] = n;
    }
    for &(p, n) in black {
        b[p - 1] = n;
    }
    Board::from_sides(w, b, Color::White).unwrap()
}

#[test]
fn the_bar_off_and_hits_are_said_plainly() {
    let pl = lex("pl");
    let en = lex("en");
    // White on the bar; black's home has points 1-2 (white's 24, 23) made.
    let b = board(&[(25, 1), (6, 14)], &[(1, 2), (2, 2), (12, 11)]);
    let m = rolled_on(b, Dice(3, 1));
    for (l, said) in [
        (&pl, "bar dwadzieścia dwa sześć pięć"),
        (&pl, "z bandy na dwadzieścia dwa, sześć na pięć"),
        (&en, "bar twenty two six five"),
        (&en, "from the bar to twenty-two, six to five"),
    ] {
        heard_move(&m, l, said, "bar/22 6/5");
    }
    // Bearing off.
    let m = rolled_on(board(&[(6, 2), (5, 3)], &[(12, 15)]), Dice(6, 5));
    for (l, said) in [
        (&pl, "sześć zdjęte pięć zdjęte"),
        (&pl, "sześć zdjęta, pięć zdjęte"),
        (&en, "six off five off"),
    ] {
        heard_move(&m, l, said, "6/off 5/off");
    }
}

#[test]
fn every_roll_is_heard_in_either_order_and_doubles_by_name() {
    for lang in ["pl", "en"] {
        let l = lex(lang);
        let m = start(None);
        let g = BgGrammar::build(&m, &l);
        for a in 1..=6u8 {
            for b in 1..=a {
                for (x, y) in [(a, b), (b, a)] {
                    let said = format!("{} {}", l.die_said(x), l.die_said(y));
                    let h = understand_bg(&g, &l, &[Transcript::text(&said)]);
                    assert_eq!(heard_input(&h), Some(BgInput::Roll(Dice(x, y))), "{said}");
                }
                if a == b {
                    for f in &l.forms[&Class::Doubles(a)] {
                        let h = understand_bg(&g, &l, &[Transcript::text(f)]);
                        assert_eq!(heard_input(&h), Some(BgInput::Roll(Dice(a, a))), "{f}");
                    }
                }
            }
        }
    }
    let pl = lex("pl");
    let m = start(None);
    for said in ["szóstki", "dwie szóstki", "sześć sześć", "rzut sześć sześć"] {
        assert_eq!(
            input_of(&m, &pl, said),
            Some(BgInput::Roll(Dice(6, 6))),
            "{said}"
        );
    }
    let en = lex("en");
    for said in ["double sixes", "six six", "sixes", "roll six six"] {
        assert_eq!(
            input_of(&m, &en, said),
            Some(BgInput::Roll(Dice(6, 6))),
            "{said}"
        );
    }
    assert_eq!(
        input_of(&m, &pl, "rzut trzy jeden"),
        Some(BgInput::Roll(Dice(3, 1)))
    );
    // The read-back says the dice as the announcer does.
    assert_eq!(pl.readback(&m, &BgInput::Roll(Dice(1, 3))), "trzy jeden");
    assert_eq!(pl.readback(&m, &BgInput::Roll(Dice(6, 6))), "szóstki");
}

#[test]
fn the_opening_roll_is_white_s_die_first_and_a_tie_is_refused() {
    let pl = lex("pl");
    let m = Match::new(opts());
    assert_eq!(m.phase(), Phase::Opening);
    assert_eq!(
        input_of(&m, &pl, "jeden trzy"),
        Some(BgInput::Roll(Dice(1, 3)))
    );
    assert_eq!(pl.readback(&m, &BgInput::Roll(Dice(1, 3))), "jeden trzy");
    let h = hear(&m, &pl, "szóstki");
    assert!(
        matches!(&h, BgHeard::Illegal { error: ActionError::OpeningTie, message, .. } if message.contains("Równe")),
        "{h:?}"
    );
}

#[test]
fn the_cube_when_legal_and_refused_with_the_reason_otherwise() {
    let pl = lex("pl");
    let en = lex("en");
    let m = start(None);
    assert_eq!(input_of(&m, &pl, "kontruję"), Some(BgInput::Double));
    assert_eq!(input_of(&m, &en, "double"), Some(BgInput::Double));
    let mut offered = m.clone();
    offered.act(Action::Double).unwrap();
    assert_eq!(input_of(&offered, &pl, "przyjmuję"), Some(BgInput::Take));
    assert_eq!(input_of(&offered, &pl, "pasuję"), Some(BgInput::Pass));
    assert_eq!(input_of(&offered, &en, "take"), Some(BgInput::Take));
    assert_eq!(input_of(&offered, &en, "pass"), Some(BgInput::Pass));
    // A move while the double waits: take or pass.
    let h = hear(&offered, &pl, "osiem pięć sześć pięć");
    assert!(
        matches!(
            &h,
            BgHeard::Illegal {
                error: ActionError::DoublePending,
                ..
            }
        ),
        "{h:?}"
    );
    // After the roll: too late to double.
    let rolled = start(Some(Dice(3, 1)));
    let h = hear(&rolled, &en, "double");
    assert!(
        matches!(&h, BgHeard::Illegal { error: ActionError::DoubleAfterRoll, message, .. } if message == "Double before rolling."),
        "{h:?}"
    );
}

#[test]
fn an_illegal_move_is_refused_with_the_rules_reason() {
    let pl = lex("pl");
    let m = start(Some(Dice(3, 1)));
    let h = hear(&m, &pl, "osiem pięć");
    assert!(
        matches!(&h, BgHeard::Illegal { text, message, .. } if text == "8/5" && message == "Trzeba zagrać też jeden."),
        "{h:?}"
    );
    // A point with none of the mover's checkers.
    let h = hear(&m, &pl, "dziesięć siedem dziesięć dziewięć");
    assert!(
        matches!(
            &h,
            BgHeard::Illegal {
                error: ActionError::Move(_),
                ..
            }
        ),
        "{h:?}"
    );
    // Before the roll: roll first.
    let h = hear(&start(None), &pl, "osiem pięć sześć pięć");
    assert!(
        matches!(
            &h,
            BgHeard::Illegal {
                error: ActionError::NotRolled,
                ..
            }
        ),
        "{h:?}"
    );
    // Noise is never a move; a flood of numbers is no move either.
    let flood = "dwadzieścia jeden ".repeat(300);
    for said in [
        "",
        "[unk]",
        "eee aaa ooo",
        "osiem eee eee eee pięć sześć pięć",
        flood.as_str(),
    ] {
        let h = hear(&m, &pl, said);
        assert!(matches!(h, BgHeard::Unknown { .. }), "{said}: {h:?}");
    }
}

#[test]
fn two_moves_that_sound_alike_are_asked_which() {
    // White's checker on 24; black blots on white's 21 and 23; 3-1: "24
    // 20" hits on either way, two moves; naming the point settles it.
    let b = board(&[(24, 1), (6, 14)], &[(4, 1), (2, 1), (12, 13)]);
    let mut m = Match::from_board(opts(), b);
    m.act(Action::Roll(Dice(3, 1))).unwrap();
    let en = lex("en");
    let h = hear(&m, &en, "twenty four twenty");
    let BgHeard::Ambiguous {
        candidates,
        question,
        ..
    } = &h
    else {
        panic!("{h:?}")
    };
    let mut c = candidates.clone();
    c.sort();
    assert_eq!(c, ["24/21*/20", "24/23*/20"], "{h:?}");
    assert_eq!(candidates.len(), 2, "{h:?}");
    assert!(
        question.starts_with("Which one: twenty-four to"),
        "{question}"
    );
    assert!(question.contains(" or "), "{question}");
    let h = hear(&m, &en, "twenty four twenty one twenty");
    assert!(
        matches!(&h, BgHeard::Move { text, .. } if text.starts_with("24/21*")),
        "{h:?}"
    );
}

#[test]
fn pips_and_the_commands() {
    let words = BgWords::builtin("pl").unwrap();
    let m = start(Some(Dice(3, 1)));
    let g = BgVoice::grammar(&m, &words);
    let said = |t: &str| BgVoice::understand(&m, &g, &words, &[Transcript::text(t)]);
    assert!(
        matches!(said("oczka"), BgSaid::Bg(BgHeard::Query { ref query, .. }) if query == "pips")
    );
    assert_eq!(said("oczka").fields(), ("command", "pips".to_owned()));
    assert!(matches!(
        said("zegar"),
        BgSaid::Command(CommandHeard::Command {
            command: CommandKind::Clock,
            ..
        })
    ));
    assert!(matches!(
        said("tak"),
        BgSaid::Command(CommandHeard::Command {
            command: CommandKind::Yes,
            ..
        })
    ));
    // No draws in backgammon: "remis" is not a command here.
    assert!(!matches!(said("remis"), BgSaid::Command(_)));
    assert_eq!(
        said("osiem pięć sześć pięć").fields(),
        ("move", "8/5 6/5".to_owned())
    );
    // Whole phrases end the utterance early; half a move does not.
    assert!(BgVoice::is_complete(&g, &words, "osiem pięć sześć pięć"));
    assert!(!BgVoice::is_complete(&g, &words, "osiem pięć"));
    assert!(BgVoice::is_complete(&g, &words, "zegar"));
    let phrases = BgVoice::recognizer_phrases(&g);
    assert!(
        phrases.contains(&"osiem pięć sześć pięć".to_owned()),
        "{phrases:?}"
    );
    assert!(phrases.contains(&"osiem na pięć sześć na pięć".to_owned()));
    let m = start(Some(Dice(6, 4)));
    let g = BgVoice::grammar(&m, &words);
    let phrases = BgVoice::recognizer_phrases(&g);
    assert!(
        phrases.contains(&"dwadzieścia cztery na czternaście".to_owned()),
        "24/14 with the connective between the points"
    );
    assert_eq!(phrases.last().map(String::as_str), Some("[unk]"));
}

fn listener(m: Match, policy: ConfirmPolicy, said: &[&str]) -> Listener<BgVoice> {
    let rec = ScriptedRecognizer::new(said.iter().map(|s| vec![Transcript::text(s)]).collect());
    Listener::<BgVoice>::for_game(
        Box::new(rec),
        BgWords::builtin("pl").unwrap(),
        policy,
        Mode::Voice(VadConfig::default()),
        m,
    )
    .unwrap()
}

#[test]
fn a_roll_and_a_move_are_read_back_and_done_on_yes_the_cube_always_read_back() {
    let announcer = polish_announcer();
    let mut l = listener(start(None), ConfirmPolicy::Always, &[]);
    let d = l.hear(&[Transcript::text("trzy jeden")]);
    assert_eq!(d.action, Act::ConfirmMove(BgInput::Roll(Dice(3, 1))));
    let u = d.reply(l.position(), &announcer, l.lexicon()).unwrap();
    assert_eq!(u.text(), "Trzy jeden, zgadza się?");
    // A question answered, the read-back stays.
    let d = l.hear(&[Transcript::text("oczka")]);
    assert_eq!(d.action, Act::Query("pips".into()));
    let d = l.hear(&[Transcript::text("tak")]);
    assert_eq!(d.action, Act::Play(BgInput::Roll(Dice(3, 1))));

    l.set_position(start(Some(Dice(3, 1)))).unwrap();
    let d = l.hear(&[Transcript::text("osiem pięć sześć pięć")]);
    let u = d.reply(l.position(), &announcer, l.lexicon()).unwrap();
    assert_eq!(u.text(), "Osiem na pięć, sześć na pięć, zgadza się?");
    let d = l.hear(&[Transcript::text("nie")]);
    assert_eq!(d.action, Act::Cancelled);

    // The cube is read back even with --confirm never.
    let mut l = listener(start(None), ConfirmPolicy::Never, &[]);
    let d = l.hear(&[Transcript::text("kontruję")]);
    assert_eq!(d.action, Act::ConfirmMove(BgInput::Double));
    let u = d.reply(l.position(), &announcer, l.lexicon()).unwrap();
    assert_eq!(u.text(), "Kontruję, zgadza się?");
    let d = l.hear(&[Transcript::text("trzy jeden")]);
    assert_eq!(
        d.action,
        Act::ConfirmMove(BgInput::Roll(Dice(3, 1))),
        "another input replaces it, read back"
    );
    let mut l = listener(start(None), ConfirmPolicy::Never, &[]);
    let d = l.hear(&[Transcript::text("trzy jeden")]);
    assert_eq!(d.action, Act::Play(BgInput::Roll(Dice(3, 1))));
    // A refusal's words.
    let mut l = listener(start(Some(Dice(3, 1))), ConfirmPolicy::Always, &[]);
    let d = l.hear(&[Transcript::text("osiem pięć")]);
    let u = d.reply(l.position(), &announcer, l.lexicon()).unwrap();
    assert_eq!(u.text(), "Trzeba zagrać też jeden.");
}

#[test]
fn the_grammar_of_a_big_doubles_roll_is_built_and_every_move_has_a_phrase() {
    // Checkers spread over many points: a 1-1 with hundreds of moves.
    let b = board(
        &[
            (24, 1),
            (22, 1),
            (20, 1),
            (18, 1),
            (16, 1),
            (14, 1),
            (12, 1),
            (10, 2),
            (8, 2),
            (6, 2),
            (4, 1),
            (2, 1),
        ],
        &[(2, 15)],
    );
    let mut m = Match::from_board(opts(), b);
    m.act(Action::Roll(Dice(1, 1))).unwrap();
    let n = legal_plays(m.board(), Dice(1, 1)).len();
    assert!(n > 100, "{n}");
    let l = lex("en");
    let g = BgGrammar::build(&m, &l);
    let plays = g
        .inputs
        .iter()
        .filter(|i| matches!(i, BgInput::Play(_)))
        .count();
    assert_eq!(plays, n);
    for p in m.legal() {
        let said = say_play(&l, &m, &p, false, false, false);
        assert_eq!(
            heard_input(&understand_bg(&g, &l, &[Transcript::text(&said)])),
            Some(BgInput::Play(p)),
            "{said}"
        );
    }
}

#[test]
fn random_words_of_the_vocabulary_never_make_an_action_not_allowed_now() {
    let mut r = Lcg(99);
    let mut states = positions().into_iter().step_by(15).collect::<Vec<_>>();
    states.push(Match::new(opts()));
    states.push(start(None));
    let mut offered = start(None);
    offered.act(Action::Double).unwrap();
    states.push(resign_offered(&offered, 3));
    states.push(offered);
    states.push(resign_offered(&start(Some(Dice(3, 1))), 1));
    for lang in ["pl", "en"] {
        let words = BgWords::builtin(lang).unwrap();
        let vocab = BgVoice::all_words(&words);
        let mut extra: Vec<String> = vec!["[unk]".into(), "x".into(), "8/5".into(), "31".into()];
        extra.extend(vocab);
        for m in &states {
            let g = BgVoice::grammar(m, &words);
            for _ in 0..30 {
                let n = 1 + r.next(9);
                let said: Vec<&str> = (0..n)
                    .map(|_| extra[r.next(extra.len())].as_str())
                    .collect();
                let said = said.join(" ");
                match BgVoice::understand(m, &g, &words, &[Transcript::text(&said)]) {
                    BgSaid::Bg(BgHeard::Move { input, text, .. }) => {
                        assert!(g.moves.inputs.contains(&input), "{said:?}");
                        assert!(m.clone().act(input.action(m)).is_ok(), "{said:?}");
                        assert_eq!(text, input.text(m));
                    }
                    BgSaid::Bg(BgHeard::Ambiguous { inputs, .. }) => {
                        assert!(
                            inputs.len() > 1 && inputs.iter().all(|i| g.moves.inputs.contains(i))
                        );
                    }
                    _ => {}
                }
            }
        }
    }
}

/// `m` with a resignation of `level` offered by the side to act.
fn resign_offered(m: &Match, level: u8) -> Match {
    let mut m = m.clone();
    let side = m.to_act().unwrap();
    m.act(Action::ResignOffer { side, level }).unwrap();
    m
}

#[test]
fn a_resignation_of_each_level_is_offered_by_voice_in_both_languages() {
    let pl = lex("pl");
    let en = lex("en");
    let before = start(None);
    let rolled = start(Some(Dice(3, 1)));
    let mut doubled = start(None);
    doubled.act(Action::Double).unwrap();
    for m in [&before, &rolled, &doubled] {
        for (level, pl_said, en_said) in [
            (1, "poddaję pojedynczo", "resign a single game"),
            (2, "poddaję podwójnie", "resign a gammon"),
            (2, "poddaję gammona", "resign gammon"),
            (2, "poddaję się podwójnie", "resign a gammon"),
            (3, "poddaję potrójnie", "resign a backgammon"),
            (3, "poddaję backgammona", "resign backgammon"),
        ] {
            for (l, said) in [(&pl, pl_said), (&en, en_said)] {
                let h = hear(m, l, said);
                assert_eq!(
                    heard_input(&h),
                    Some(BgInput::ResignOffer(level)),
                    "{said}: {h:?}"
                );
                let BgHeard::Move { text, .. } = &h else {
                    unreachable!()
                };
                assert_eq!(*text, format!("resign {level}"));
                // The table's typed text is an offer by the side to act.
                assert_eq!(
                    m.parse_action(&format!("resign offer {level}")).unwrap(),
                    BgInput::ResignOffer(level).action(m)
                );
            }
        }
    }
    // Read back as said first in the book.
    assert_eq!(
        pl.readback(&rolled, &BgInput::ResignOffer(2)),
        "poddaję podwójnie"
    );
    assert_eq!(
        en.readback(&rolled, &BgInput::ResignOffer(3)),
        "resign a backgammon"
    );
    // No game under way: refused with the reason.
    let h = hear(&Match::new(opts()), &en, "resign a gammon");
    assert!(
        matches!(
            &h,
            BgHeard::Illegal {
                error: ActionError::NoGame,
                ..
            }
        ),
        "{h:?}"
    );
}

#[test]
fn a_resignation_offered_is_accepted_or_declined_and_nothing_else_is_heard() {
    let pl = lex("pl");
    let en = lex("en");
    let mut doubled = start(None);
    doubled.act(Action::Double).unwrap();
    for base in [start(None), start(Some(Dice(3, 1))), doubled] {
        let m = resign_offered(&base, 2);
        let g = BgGrammar::build(&m, &pl);
        assert_eq!(g.inputs, vec![BgInput::Accept, BgInput::Decline]);
        for (l, said, input) in [
            (&pl, "przyjmuję", BgInput::Accept),
            (&pl, "akceptuję", BgInput::Accept),
            (&pl, "odrzucam", BgInput::Decline),
            (&pl, "nie przyjmuję", BgInput::Decline),
            (&en, "accept", BgInput::Accept),
            (&en, "i decline", BgInput::Decline),
        ] {
            let h = hear(&m, l, said);
            assert_eq!(heard_input(&h), Some(input), "{said}: {h:?}");
            // The acceptance is of what was offered.
            let mut after = m.clone();
            after.act(input.action(&m)).unwrap();
            if input == BgInput::Accept {
                assert_eq!(after.phase(), Phase::Opening);
                let (offerer, _) = m.resign_offer().unwrap();
                assert_eq!(after.score(offerer.other()), 2 * m.cube());
            } else {
                assert_eq!(after.resign_offer(), None);
            }
        }
        assert_eq!(BgInput::Accept.text(&m), "accept");
        assert_eq!(BgInput::Decline.text(&m), "decline");
        // Anything else waits for the answer (004 4.3 (ii) (g)).
        for (l, said) in [
            (&pl, "trzy jeden"),
            (&pl, "osiem pięć sześć pięć"),
            (&pl, "kontruję"),
            (&pl, "pasuję"),
            (&pl, "biorę"),
            (&pl, "poddaję potrójnie"),
            (&en, "double"),
            (&en, "take"),
            (&en, "eight five six five"),
            (&en, "resign a backgammon"),
        ] {
            heard_refused(&m, l, said, &ActionError::ResignPending);
        }
        let phrases = g.recognizer_phrases();
        assert!(phrases.contains(&"odrzucam".to_owned()), "{phrases:?}");
        assert!(
            !phrases.iter().any(|p| p.starts_with("trzy")),
            "{phrases:?}"
        );
    }
}

#[test]
fn accept_and_decline_without_an_offer_are_not_listened_for() {
    let pl = lex("pl");
    let en = lex("en");
    let rolled = start(Some(Dice(3, 1)));
    for (l, said) in [(&pl, "odrzucam"), (&en, "accept"), (&en, "decline")] {
        heard_refused(&rolled, l, said, &ActionError::NoResignation);
    }
    // With a double waiting, "przyjmuję" and "accept" are the take, as typed.
    let mut doubled = start(None);
    doubled.act(Action::Double).unwrap();
    assert_eq!(input_of(&doubled, &pl, "przyjmuję"), Some(BgInput::Take));
    assert_eq!(input_of(&doubled, &en, "accept"), Some(BgInput::Take));
    assert_eq!(
        input_of(&doubled, &pl, "odrzucam"),
        None,
        "no resignation to decline"
    );
    let g = BgGrammar::build(&rolled, &en);
    assert!(!g.inputs.contains(&BgInput::Accept));
    assert!(g.inputs.contains(&BgInput::ResignOffer(1)));
}

#[test]
fn a_resignation_is_read_back_even_with_confirm_never_and_the_command_waits_for_its_level() {
    let announcer = polish_announcer();
    let mut l = listener(start(None), ConfirmPolicy::Never, &[]);
    let d = l.hear(&[Transcript::text("poddaję gammona")]);
    assert_eq!(d.action, Act::ConfirmMove(BgInput::ResignOffer(2)));
    let u = d.reply(l.position(), &announcer, l.lexicon()).unwrap();
    assert_eq!(u.text(), "Poddaję podwójnie, zgadza się?");
    let d = l.hear(&[Transcript::text("tak")]);
    assert_eq!(d.action, Act::Play(BgInput::ResignOffer(2)));

    let offered = resign_offered(&start(None), 2);
    let mut l = listener(offered, ConfirmPolicy::Never, &[]);
    let d = l.hear(&[Transcript::text("odrzucam")]);
    assert_eq!(d.action, Act::ConfirmMove(BgInput::Decline));
    let u = d.reply(l.position(), &announcer, l.lexicon()).unwrap();
    assert_eq!(u.text(), "Odrzucam, zgadza się?");

    // "poddaję się" is the table's command, but not complete while the
    // level may follow; whole when no level can (the offer waits).
    let words = BgWords::builtin("pl").unwrap();
    let m = start(None);
    let g = BgVoice::grammar(&m, &words);
    assert!(!BgVoice::is_complete(&g, &words, "poddaję się"));
    assert!(BgVoice::is_complete(&g, &words, "poddaję się podwójnie"));
    assert!(matches!(
        BgVoice::understand(&m, &g, &words, &[Transcript::text("poddaję się")]),
        BgSaid::Command(CommandHeard::Command {
            command: CommandKind::Resign,
            ..
        })
    ));
    let en = BgWords::builtin("en").unwrap();
    let g = BgVoice::grammar(&m, &en);
    assert!(!BgVoice::is_complete(&g, &en, "resign"));
    let g = BgVoice::grammar(&Match::new(opts()), &en);
    assert!(BgVoice::is_complete(&g, &en, "resign"));
}

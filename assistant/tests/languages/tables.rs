//! Issue 43: a table in every language (the stems of
//! `speech/phrasebooks/*.toml`) plays a short game of each kind and answers
//! its clock, and a table of two languages gives each seat its own. The
//! real `tandem play --lang LANG` (speech as text, no braille: the words are
//! what is checked, and the journal keeps them), moves through `tandem ctl`.
//! What is said is in the table's language: every word of every sentence
//! the journal says was announced, and of the clock's answer, is a word of
//! that language's own data files (`support::langs::words_of`), never a
//! list written here. One table per language and game, a few moves each.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::support::langs::{self, words, words_of};
use crate::support::{ctl, journal_events_so_far, Play};
use serde_json::Value;

/// Every announced event of the journal, once the clock's answer is among
/// them (10 s at most).
fn announced_until_clock(journal: &Path) -> Vec<Value> {
    let t0 = Instant::now();
    loop {
        let a = journal_events_so_far(journal, "announced");
        if a.iter().any(|e| e["kind"] == "clock") {
            return a;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "the clock's answer never reached the journal: {a:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The words of `text` that are not words of `lang`'s data.
fn foreign_words(vocabulary: &BTreeMap<String, Vec<String>>, text: &str) -> Vec<String> {
    words(text)
        .into_iter()
        .filter(|w| !vocabulary.contains_key(w))
        .collect()
}

/// `tandem ctl --socket SOCKET [--seat SEAT] ARGS…`, which must succeed:
/// its answer.
fn ctl_ok(socket: &Path, args: &[&str]) -> String {
    let out = ctl(socket, args);
    assert!(out.status.success(), "tandem ctl {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// A table of `lang` plays `moves` of `variant` (`ctl` argument lists),
/// then answers `ctl clock`: every sentence it said is in `lang`.
fn plays_in(lang: &str, variant: &[&str], moves: &[&[&str]], kinds: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let d = Play::text_only(dir.path())
        .args(variant)
        .args(["--lang", lang])
        .journal(&journal)
        .start();
    for m in moves {
        ctl_ok(&d.socket, m);
    }
    let clock = ctl_ok(&d.socket, &["clock"]);
    let vocabulary = words_of(lang);
    let announced = announced_until_clock(&journal);
    let mut wrong = Vec::new();
    for text in announced
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .chain([clock.trim()])
    {
        let f = foreign_words(&vocabulary, text);
        if !f.is_empty() {
            wrong.push(format!("{text:?}: {f:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{lang} {variant:?}: words not of {lang}'s data:\n{}",
        wrong.join("\n")
    );
    // The moves and the end were announced, and the clock answered.
    for kind in kinds.iter().chain(&["clock"]) {
        assert!(
            announced.iter().any(|e| e["kind"] == *kind),
            "{lang} {variant:?}: nothing of kind {kind}: {announced:?}"
        );
    }
    assert!(!clock.trim().is_empty(), "{lang}: the clock said nothing");
    assert!(
        announced
            .iter()
            .all(|e| e["lang"].is_null() || e["lang"] == lang),
        "{lang}: {announced:?}"
    );
}

/// `f` for every language; every language is tried, and those that failed
/// are named at the end (each one's panic is printed as it happens).
fn in_every_language(f: impl Fn(&str)) {
    let mut failed = Vec::new();
    for lang in langs::languages() {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&lang)));
        if let Err(e) = r {
            let why = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            failed.push(format!("{lang}: {why}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn a_draughts_table_in_every_language_plays_and_answers_its_clock() {
    in_every_language(|lang| {
        plays_in(
            lang,
            &["--variant", "international", "--control", "5m+5s"],
            &[
                &["move", "32-28"],
                &["move", "19-23"],
                &["move", "28x19"],
                &["move", "14x23"],
            ],
            &["move"],
        );
    });
}

#[test]
fn a_chess_table_in_every_language_plays_and_answers_its_clock() {
    in_every_language(|lang| {
        plays_in(
            lang,
            &["--variant", "chess", "--control", "5m+5s"],
            &[
                &["move", "e4"],
                &["move", "e5"],
                &["move", "Qh5"],
                &["move", "Nc6"],
                &["move", "Bc4"],
                &["move", "Nf6"],
                &["move", "Qxf7#"],
            ],
            &["move", "game-end"],
        );
    });
}

#[test]
fn a_backgammon_table_in_every_language_plays_and_answers_its_clock() {
    in_every_language(|lang| {
        plays_in(
            lang,
            &["--variant", "backgammon", "--match", "3"],
            &[
                &["roll", "3", "1"],
                &["move", "8/5 6/5"],
                &["double"],
                &["take"],
                &["roll", "6", "4"],
                &["move", "24/14"],
            ],
            &["move", "turn"],
        );
    });
}

/// A table of two languages (001 ch. VIII: two blind players from two
/// countries): white's seat Dutch, black's Russian when their data files
/// are there (pl and en until then). Each seat hears every move in its own
/// language, the clock answered to black's seat alone in black's.
#[test]
fn a_two_language_table_each_seat_hears_its_own() {
    let (white, black) = if langs::has("nl") && langs::has("ru") {
        ("nl", "ru")
    } else {
        ("pl", "en")
    };
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let d = Play::text_only(dir.path())
        .args(["--variant", "international", "--control", "5m+5s"])
        .args(["--lang", white, "--blind", "both"])
        .args(["--seat", &format!("white:speech=text,lang={white}")])
        .args(["--seat", &format!("black:speech=text,lang={black}")])
        .journal(&journal)
        .start();
    for (seat, m) in [("white", "32-28"), ("black", "19-23"), ("white", "28x19")] {
        ctl_ok(&d.socket, &["--seat", seat, "move", m]);
    }
    let clock = ctl_ok(&d.socket, &["--seat", "black", "clock"]);
    let announced = announced_until_clock(&journal);
    let vocab = [(white, words_of(white)), (black, words_of(black))];
    let heard = |seat: &str| -> Vec<&Value> {
        announced
            .iter()
            .filter(|e| {
                e["to"]
                    .as_array()
                    .is_some_and(|t| t.iter().any(|s| s == seat))
            })
            .collect()
    };
    for ((seat, (lang, vocabulary)), other) in ["white", "black"]
        .into_iter()
        .zip(&vocab)
        .zip([&vocab[1].1, &vocab[0].1])
    {
        let mine = heard(seat);
        let moves = mine.iter().filter(|e| e["kind"] == "move").count();
        assert_eq!(moves, 3, "{seat} ({lang}) heard every move: {mine:?}");
        for e in &mine {
            let text = e["text"].as_str().unwrap();
            let f = foreign_words(vocabulary, text);
            assert!(
                f.is_empty(),
                "{seat} ({lang}) heard {text:?}: {f:?} not {lang}"
            );
            // The journal names the language of what a seat heard when it
            // is not the table's.
            assert!(e["lang"].is_null() || e["lang"] == *lang, "{e}");
            // And it is not the other seat's language: some word of it is
            // not a word of the other language's data.
            if e["kind"] == "move" {
                assert!(
                    !foreign_words(other, text).is_empty(),
                    "{seat} ({lang}) heard {text:?}, words of the other seat's language"
                );
            }
        }
    }
    // Black's clock: in black's language, to black's seat alone.
    let f = foreign_words(&vocab[1].1, clock.trim());
    assert!(f.is_empty(), "black's clock {clock:?}: {f:?} not {black}");
    // (the journal keeps the table's own words too, heard by no seat: `to` empty)
    let heard_clock: Vec<&Value> = announced
        .iter()
        .filter(|e| e["kind"] == "clock" && e["to"] != serde_json::json!([]))
        .collect();
    assert_eq!(heard_clock.len(), 1, "{heard_clock:?}");
    let c = heard_clock[0];
    assert_eq!(c["to"], serde_json::json!(["black"]), "{c}");
    assert_eq!(c["lang"], black, "{c}");
}

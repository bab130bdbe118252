//! The daemon's own sentences that the speech crate's phrasebooks do not
//! have (clock running, draw offers, unknown commands, journal failure,
//! speech fallback). The words are data, `assistant/data/messages/LANG.toml`:
//! Polish and English; every other language falls back to English.

use std::collections::BTreeMap;

use tandem_rules::Color;
use tandem_speech::{Kind, Phrasebook, Priority, Utterance};

/// A daemon message.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Msg {
    /// The clock runs again.
    ClockRunning,
    /// A move or clock command while the clock is stopped.
    ClockStoppedRefusal,
    /// Resume while the clock runs.
    NotPaused,
    /// Pause while stopped.
    AlreadyPaused,
    /// `side` offers a draw.
    DrawOffered(Color),
    /// The offer was declined.
    DrawDeclined,
    /// 001 ch. II 5.1: at least `n` moves each first.
    DrawTooEarly(u32),
    /// 5.1: the offer follows one's own move, before the opponent moves.
    DrawNotYourTime,
    /// 5.1: after a refusal the same player may not repeat the offer until the opponent offers.
    DrawBarred,
    /// Accept/decline with no offer pending, or one's own offer.
    NoDrawOffer,
    /// An unknown command.
    UnknownCommand(String),
    /// The journal could not be written: the move was not played.
    JournalFailed,
    /// Speech moved to another backend.
    SpeechFallback(String),
    /// The braille display stopped answering (BRLTTY gone, cable out).
    BrailleLost,
    /// The braille display answers again.
    BrailleBack,
    /// A board read back could not be parsed.
    BoardNotRead(String),
    /// The board read back matches the record.
    BoardMatches,
    /// The journal cannot be written; the game goes on, lines kept (and copied to a fallback file if `true`).
    JournalDegraded(bool),
    /// The journal is written again; nothing was lost.
    JournalRecovered,
    /// An arbiter action without the arbiter's secret.
    ArbiterOnly,
    /// An arbiter action at a table in a hall, not from the desk.
    ArbiterAtDesk,
    /// The arbiter set `side`'s clock to this many seconds.
    ClockSet(Color, u64),
    /// The arbiter took back this many plies.
    TakenBack(u32),
    /// `clock` in a game without a clock (`--control none`): the moves made.
    NoClock(u32),
    /// A seat's move on the other side's turn (`tandem ctl --seat`, a
    /// seat's microphone or keys): told to that seat alone.
    NotYourMove,
    /// A seat's request for the other side (`resign black` from white's seat).
    YouPlay(Color),
    /// A seat's e-board is not connected (pulled out, never plugged in):
    /// that side's moves are typed (docs/eboards.md).
    EboardLost(Color),
    /// A seat's e-board is connected again: it is read and compared.
    EboardBack(Color),
    /// A seat or its device stopped the clock: it calls the arbiter
    /// (FIDE Laws 6.12b), said to both seats.
    SeatCallsArbiter(Color),
    /// A seat, a device, the braille keys or a microphone asked to restart
    /// the clock: only the arbiter or the table's operator may (6.12).
    RestartArbiterOnly,
    /// A seat's own words (its `say`): said as that seat's, never as the arbiter's.
    SeatSays(Color, String),
    /// A seat's `say` longer than this many characters.
    SayTooLong(usize),
    /// A seat's `say` too soon after its last ones.
    SayTooOften,
    /// A device at this address became this side's seat.
    DevicePaired(Color, String),
    /// The device at this address is this side's seat no more.
    DeviceUnpaired(Color, String),
}

/// Renders [`Msg`]s in the phrasebook's language.
#[derive(Debug, Clone)]
pub struct Messages {
    book: Phrasebook,
    words: &'static BTreeMap<String, String>,
}

/// The sentences of `assistant/data/messages/LANG.toml`, read once
/// ([`crate::lang::words`]).
fn sentences(lang: &str) -> &'static BTreeMap<String, String> {
    crate::lang::sentences("messages", lang)
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

impl Messages {
    /// Messages in `book`'s language.
    #[must_use]
    pub fn new(book: Phrasebook) -> Messages {
        let words = sentences(book.language());
        Messages { book, words }
    }

    /// The sentence for `m`.
    #[must_use]
    pub fn text(&self, m: &Msg) -> String {
        let (key, args) = self.key_args(m);
        let mut s = self
            .words
            .get(key)
            .cloned()
            .unwrap_or_else(|| key.to_owned());
        for (name, value) in args {
            s = s.replace(&format!("{{{name}}}"), &value);
        }
        s
    }

    /// The key of `m` in `messages/LANG.toml` and the values of its placeholders.
    fn key_args(&self, m: &Msg) -> (&'static str, Vec<(&'static str, String)>) {
        let side = |c: Color| {
            let s = self.book.side(c, "nominative");
            vec![
                ("side", s.to_owned()),
                ("Side", cap(s)),
                ("side_lower", cap(s).to_lowercase()),
                ("side_genitive", self.book.side(c, "genitive").to_owned()),
            ]
        };
        let n = |n: u32| vec![("n", self.book.number(u64::from(n)))];
        let text = |t: &str| vec![("text", t.to_owned())];
        match m {
            Msg::NotYourMove => ("not_your_move", vec![]),
            Msg::YouPlay(Color::White) => ("you_play_white", side(Color::White)),
            Msg::YouPlay(Color::Black) => ("you_play_black", side(Color::Black)),
            Msg::ClockRunning => ("clock_running", vec![]),
            Msg::NoClock(k) => ("no_clock", n(*k)),
            Msg::ClockStoppedRefusal => ("clock_stopped_refusal", vec![]),
            Msg::NotPaused => ("not_paused", vec![]),
            Msg::AlreadyPaused => ("already_paused", vec![]),
            Msg::DrawOffered(c) => ("draw_offered", side(*c)),
            Msg::DrawDeclined => ("draw_declined", vec![]),
            Msg::DrawTooEarly(k) => ("draw_too_early", n(*k)),
            Msg::DrawNotYourTime => ("draw_not_your_time", vec![]),
            Msg::DrawBarred => ("draw_barred", vec![]),
            Msg::NoDrawOffer => ("no_draw_offer", vec![]),
            Msg::UnknownCommand(t) => ("unknown_command", text(t)),
            Msg::JournalFailed => ("journal_failed", vec![]),
            Msg::SpeechFallback(name) => ("speech_fallback", vec![("name", name.clone())]),
            Msg::BrailleLost => ("braille_lost", vec![]),
            Msg::BrailleBack => ("braille_back", vec![]),
            Msg::EboardLost(c) => ("eboard_lost", side(*c)),
            Msg::EboardBack(c) => ("eboard_back", side(*c)),
            Msg::BoardNotRead(t) => ("board_not_read", text(t)),
            Msg::BoardMatches => ("board_matches", vec![]),
            Msg::JournalDegraded(true) => ("journal_degraded_copied", vec![]),
            Msg::JournalDegraded(false) => ("journal_degraded_kept", vec![]),
            Msg::JournalRecovered => ("journal_recovered", vec![]),
            Msg::ArbiterAtDesk => ("arbiter_at_desk", vec![]),
            Msg::ArbiterOnly => ("arbiter_only", vec![]),
            Msg::ClockSet(c, secs) => {
                let d = self.book.duration(std::time::Duration::from_secs(*secs));
                let mut args = side(*c);
                args.push(("duration", d));
                ("clock_set", args)
            }
            Msg::TakenBack(1) => ("taken_back_one", n(1)),
            Msg::TakenBack(k) => ("taken_back", n(*k)),
            Msg::SeatCallsArbiter(c) => ("seat_calls_arbiter", side(*c)),
            Msg::RestartArbiterOnly => ("restart_arbiter_only", vec![]),
            Msg::SeatSays(c, t) => {
                let mut args = side(*c);
                args.extend(text(t));
                ("seat_says", args)
            }
            Msg::SayTooLong(k) => ("say_too_long", vec![("max", k.to_string())]),
            Msg::SayTooOften => ("say_too_often", vec![]),
            Msg::DevicePaired(c, addr) => {
                let mut args = side(*c);
                args.push(("address", addr.clone()));
                ("device_paired", args)
            }
            Msg::DeviceUnpaired(c, addr) => {
                let mut args = side(*c);
                args.push(("address", addr.clone()));
                ("device_unpaired", args)
            }
        }
    }

    /// `m` as an utterance.
    #[must_use]
    pub fn utter(&self, priority: Priority, kind: Kind, m: &Msg) -> Utterance {
        Utterance::new(priority, kind, vec![self.text(m)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_file_has_every_message_in_both_languages() {
        let every = [
            Msg::ClockRunning,
            Msg::ClockStoppedRefusal,
            Msg::NotPaused,
            Msg::AlreadyPaused,
            Msg::DrawOffered(Color::White),
            Msg::DrawDeclined,
            Msg::DrawTooEarly(2),
            Msg::DrawNotYourTime,
            Msg::DrawBarred,
            Msg::NoDrawOffer,
            Msg::UnknownCommand("x".into()),
            Msg::JournalFailed,
            Msg::SpeechFallback("x".into()),
            Msg::BrailleLost,
            Msg::BrailleBack,
            Msg::EboardLost(Color::White),
            Msg::EboardBack(Color::Black),
            Msg::BoardNotRead("x".into()),
            Msg::BoardMatches,
            Msg::JournalDegraded(true),
            Msg::JournalDegraded(false),
            Msg::JournalRecovered,
            Msg::ArbiterOnly,
            Msg::ArbiterAtDesk,
            Msg::ClockSet(Color::Black, 60),
            Msg::TakenBack(1),
            Msg::TakenBack(3),
            Msg::NoClock(3),
            Msg::NotYourMove,
            Msg::YouPlay(Color::White),
            Msg::YouPlay(Color::Black),
            Msg::SeatCallsArbiter(Color::Black),
            Msg::RestartArbiterOnly,
            Msg::SeatSays(Color::White, "x".into()),
            Msg::SayTooLong(200),
            Msg::SayTooOften,
            Msg::DevicePaired(Color::White, "10.0.0.7:5123".into()),
            Msg::DeviceUnpaired(Color::White, "10.0.0.7:5123".into()),
        ];
        for lang in ["pl", "en"] {
            assert_eq!(sentences(lang).len(), every.len(), "{lang}");
        }
        for book in [Phrasebook::polish(), Phrasebook::english()] {
            let m = Messages::new(book);
            for msg in &every {
                let (key, _) = m.key_args(msg);
                assert!(m.words.contains_key(key), "{key}");
                let t = m.text(msg);
                assert!(!t.contains('{') && !t.contains('}'), "{t}");
            }
        }
        let en = Messages::new(Phrasebook::english());
        assert_eq!(en.text(&Msg::YouPlay(Color::Black)), "You play black.");
        assert_eq!(
            en.text(&Msg::TakenBack(1)),
            "The arbiter took back the last half-move."
        );
        let pl = Messages::new(Phrasebook::polish());
        assert_eq!(
            pl.text(&Msg::ClockSet(Color::White, 300)),
            "Sędzia ustawił zegar: białe mają pięć minut."
        );
    }

    #[test]
    fn both_languages_render_every_message() {
        for book in [Phrasebook::polish(), Phrasebook::english()] {
            let m = Messages::new(book);
            for msg in [
                Msg::ClockRunning,
                Msg::NoClock(3),
                Msg::DrawOffered(Color::White),
                Msg::DrawTooEarly(40),
                Msg::UnknownCommand("foo".into()),
                Msg::SpeechFallback("espeak-ng".into()),
            ] {
                let t = m.text(&msg);
                assert!(
                    t.ends_with('.') && t.chars().next().is_some_and(char::is_uppercase),
                    "{t}"
                );
            }
        }
        let en = Messages::new(Phrasebook::english());
        assert_eq!(
            en.text(&Msg::DrawOffered(Color::Black)),
            "Black offers a draw."
        );
        assert_eq!(
            en.text(&Msg::DrawTooEarly(15)),
            "A draw may be offered only after fifteen moves each."
        );
        let pl = Messages::new(Phrasebook::polish());
        assert_eq!(
            pl.text(&Msg::DrawOffered(Color::White)),
            "Białe proponują remis."
        );
    }
}

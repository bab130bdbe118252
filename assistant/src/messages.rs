//! The daemon's own sentences that the speech crate's phrasebooks do not
//! have yet (clock running, draw offers, unknown commands, journal failure,
//! speech fallback). Polish and English; every other language falls back to
//! English. These belong in the phrasebook files (`speech/phrasebooks/*.toml`)
//! and move there when the phrasebook gains the keys.

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
    polish: bool,
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
        let polish = book.language() == "pl";
        Messages { book, polish }
    }

    /// The sentence for `m`.
    #[must_use]
    pub fn text(&self, m: &Msg) -> String {
        let side = |c: Color| cap(self.book.side(c, "nominative"));
        let pl = self.polish;
        match m {
            Msg::ClockRunning => if pl { "Zegar chodzi." } else { "Clock running." }.into(),
            Msg::NoClock(n) => {
                let k = self.book.number(u64::from(*n));
                if pl {
                    format!("Gra bez zegara. Wykonane posunięcia: {k}.")
                } else {
                    format!("No clock in this game. Moves made: {k}.")
                }
            }
            Msg::ClockStoppedRefusal => if pl {
                "Zegar jest zatrzymany. Najpierw wznów grę."
            } else {
                "The clock is stopped. Resume the game first."
            }
            .into(),
            Msg::NotPaused => if pl { "Zegar już chodzi." } else { "The clock is already running." }.into(),
            Msg::AlreadyPaused => if pl { "Zegar już stoi." } else { "The clock is already stopped." }.into(),
            Msg::DrawOffered(c) => {
                if pl {
                    format!("{} proponują remis.", side(*c))
                } else {
                    format!("{} offers a draw.", side(*c))
                }
            }
            Msg::DrawDeclined => if pl { "Remis odrzucony." } else { "Draw declined." }.into(),
            Msg::DrawTooEarly(n) => {
                let n = self.book.number(u64::from(*n));
                if pl {
                    format!("Remis można zaproponować dopiero po {n} posunięciach każdego z graczy.")
                } else {
                    format!("A draw may be offered only after {n} moves each.")
                }
            }
            Msg::DrawNotYourTime => if pl {
                "Remis proponuje się zaraz po własnym posunięciu."
            } else {
                "A draw is offered right after one's own move."
            }
            .into(),
            Msg::DrawBarred => if pl {
                "Propozycja została odrzucona. Nie można jej powtórzyć, dopóki przeciwnik nie zaproponuje remisu."
            } else {
                "Your offer was declined. You may not repeat it until your opponent offers a draw."
            }
            .into(),
            Msg::NoDrawOffer => if pl { "Nie ma propozycji remisu." } else { "There is no draw offer." }.into(),
            Msg::UnknownCommand(t) => {
                if pl {
                    format!("Nieznane polecenie: {t}.")
                } else {
                    format!("Unknown command: {t}.")
                }
            }
            Msg::JournalFailed => if pl {
                "Nie udało się zapisać posunięcia, więc nie zostało wykonane. Wezwij sędziego."
            } else {
                "The move could not be recorded, so it was not played. Call the arbiter."
            }
            .into(),
            Msg::SpeechFallback(n) => {
                if pl {
                    format!("Mowa przełączona na {n}.")
                } else {
                    format!("Speech switched to {n}.")
                }
            }
            Msg::BrailleLost => if pl {
                "Monitor brajlowski nie odpowiada. Gra toczy się dalej."
            } else {
                "The braille display is not answering. Play goes on."
            }
            .into(),
            Msg::BrailleBack => if pl {
                "Monitor brajlowski znów działa."
            } else {
                "The braille display works again."
            }
            .into(),
            Msg::EboardLost(c) => self.eboard(*c, true),
            Msg::EboardBack(c) => self.eboard(*c, false),
            Msg::BoardNotRead(t) => {
                if pl {
                    format!("Nie rozumiem pozycji {t}.")
                } else {
                    format!("I cannot read the position {t}.")
                }
            }
            Msg::BoardMatches => if pl {
                "Ta pozycja zgadza się z zapisem."
            } else {
                "That position matches the record."
            }
            .into(),
            Msg::JournalDegraded(copied) => match (pl, copied) {
                (true, true) => "Uwaga: zapis gry na dysk się nie udaje. Gra toczy się dalej, posunięcia są zapisywane w pliku zapasowym. Wezwij sędziego.",
                (true, false) => "Uwaga: zapis gry na dysk się nie udaje. Gra toczy się dalej, posunięcia są przechowywane w pamięci. Wezwij sędziego.",
                (false, true) => "Warning: the game record cannot be written to disk. Play goes on; moves are saved to a fallback file. Call the arbiter.",
                (false, false) => "Warning: the game record cannot be written to disk. Play goes on; moves are kept in memory. Call the arbiter.",
            }
            .into(),
            Msg::JournalRecovered => if pl {
                "Zapis gry znów działa. Nic nie zginęło."
            } else {
                "The game record is written again. Nothing was lost."
            }
            .into(),
            // Who may do what at the table (rendered by `seat_text`).
            _ => self.seat_text(m).unwrap_or_default(),
        }
    }

    /// A seat's e-board lost (`lost`) or back.
    fn eboard(&self, c: Color, lost: bool) -> String {
        let whose = match c {
            Color::White => "białych",
            Color::Black => "czarnych",
        };
        let s = self.book.side(c, "nominative");
        match (self.polish, lost) {
            (true, true) => format!(
                "Szachownica elektroniczna {whose} nie jest podłączona. Ruchy {whose} trzeba wpisywać."
            ),
            (true, false) => format!("Szachownica elektroniczna {whose} znów jest podłączona."),
            (false, true) => {
                format!("The {s} e-board is not connected. Type {s}'s moves until it is back.")
            }
            (false, false) => format!("The {s} e-board is connected again."),
        }
    }

    /// The sentences about who may do what at the table (the arbiter's
    /// acts, a seat's side, its call of the arbiter, its words, its
    /// devices); `None` for the others.
    fn seat_text(&self, m: &Msg) -> Option<String> {
        let side = |c: Color| cap(self.book.side(c, "nominative"));
        let pl = self.polish;
        Some(match m {
            Msg::SeatCallsArbiter(c) => {
                if pl {
                    format!("{} zatrzymały zegar i wzywają sędziego.", side(*c))
                } else {
                    format!("{} stopped the clock and calls the arbiter.", side(*c))
                }
            }
            Msg::RestartArbiterOnly => if pl {
                "Zegar może uruchomić tylko sędzia albo obsługa stołu."
            } else {
                "Only the arbiter or the table's operator may restart the clock."
            }
            .into(),
            Msg::SeatSays(c, text) => {
                if pl {
                    format!("{} mówią: {text}", side(*c))
                } else {
                    format!("{} says: {text}", side(*c))
                }
            }
            Msg::SayTooLong(n) => {
                if pl {
                    format!("Za długie: najwyżej {n} znaków.")
                } else {
                    format!("Too long: at most {n} characters.")
                }
            }
            Msg::SayTooOften => if pl {
                "Za dużo wiadomości: odczekaj chwilę."
            } else {
                "Too many messages: wait a moment."
            }
            .into(),
            Msg::DevicePaired(c, addr) => {
                if pl {
                    format!(
                        "Urządzenie {addr} jest teraz miejscem {}.",
                        self.book.side(*c, "genitive")
                    )
                } else {
                    format!(
                        "A device at {addr} is now {}'s seat.",
                        self.book.side(*c, "nominative")
                    )
                }
            }
            Msg::DeviceUnpaired(c, addr) => {
                if pl {
                    format!(
                        "Urządzenie {addr} nie jest już miejscem {}.",
                        self.book.side(*c, "genitive")
                    )
                } else {
                    format!(
                        "The device at {addr} is {}'s seat no more.",
                        self.book.side(*c, "nominative")
                    )
                }
            }
            _ => return None,
        })
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
                Msg::SeatCallsArbiter(Color::Black),
                Msg::RestartArbiterOnly,
                Msg::SayTooLong(200),
                Msg::SayTooOften,
                Msg::DevicePaired(Color::White, "10.0.0.7:5123".into()),
                Msg::DeviceUnpaired(Color::White, "10.0.0.7:5123".into()),
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

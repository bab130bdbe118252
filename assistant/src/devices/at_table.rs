//! Pairing asked at the table: `pair white|black` and `unpair white|black`
//! typed on the table's own input line (the full screen's, the plain or
//! headless stdin), or asked by a seat over the control socket (`tandem
//! ctl --seat SIDE pair SIDE`). It does what `tandem ctl pair` does (a code,
//! shown on the table screen with the page's address as a QR code) and the
//! session says it ([`Cmd::Tell`]) in the table's language and each seat's,
//! from `assistant/data/pairing/LANG.toml`: the digits one by one, never the address nor the
//! certificate's fingerprint (the screen shows them). The journal records
//! that a code was said, to whom, but not its digits: `tandem ctl pair`
//! never journals a code either (the journal goes to the hall).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use tandem_rules::Color;

use super::{PairCode, Pairing};
use crate::journal::Source;
use crate::session::{Cmd, Notice, Reply, SessionHandle, Tell, TellWords};

/// Every language's words (`assistant/data/pairing/LANG.toml`), English
/// first.
fn all_words() -> &'static [(String, BTreeMap<String, String>)] {
    static ALL: OnceLock<Vec<(String, BTreeMap<String, String>)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut v: Vec<(String, BTreeMap<String, String>)> = crate::lang::known()
            .into_iter()
            .map(|l| (l.to_owned(), crate::lang::sentences("pairing", l).clone()))
            .collect();
        v.sort_by_key(|(lang, _)| lang != "en");
        v
    })
}

/// What was asked: `pair SIDE` or `unpair SIDE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairAsk {
    /// `unpair` (else `pair`).
    pub unpair: bool,
    /// The side named (`None`: none, or not a side).
    pub side: Option<Color>,
    /// The line as asked.
    pub input: String,
}

impl PairAsk {
    /// A typed line that asks for pairing (`pair white`, `unpair black`;
    /// in Polish `sparuj białe`, `odłącz czarne`; every language's words of
    /// assistant/data/commands/); `None`: any other line.
    #[must_use]
    pub fn parse(line: &str) -> Option<PairAsk> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let unpair = match crate::request::command_word(word)? {
            "pair" => false,
            "unpair" => true,
            _ => return None,
        };
        let mut sides = rest.split_whitespace();
        let side = match (sides.next(), sides.next()) {
            (Some(s), None) => crate::request::parse_side(s),
            _ => None,
        };
        Some(PairAsk {
            unpair,
            side,
            input: line.to_owned(),
        })
    }
}

/// What the table does for a [`PairAsk`].
#[derive(Debug, Clone)]
pub struct Answer {
    /// The code made (`pair` only).
    pub code: Option<PairCode>,
    /// What the table screen shows (the code, the address, the fingerprint).
    pub notice: Option<Notice>,
    /// What the session says ([`Cmd::Tell`]).
    pub tell: Cmd,
}

/// `template` with `{side}` and `{code}` filled in.
fn fill(template: &str, side: &str, code: &str) -> String {
    template.replace("{side}", side).replace("{code}", code)
}

/// One sentence (`key`) in every language, the same words journaled.
fn said(key: &str, side: Option<Color>) -> Vec<TellWords> {
    all_words()
        .iter()
        .map(|(lang, w)| {
            let side = side
                .map(|s| w.get(&s.to_string()).cloned().unwrap_or_default())
                .unwrap_or_default();
            let text = fill(w.get(key).map_or("", String::as_str), &side, "");
            TellWords {
                lang: lang.clone(),
                journaled: text.clone(),
                text,
            }
        })
        .collect()
}

/// The code's sentence in every language: its digits one by one, and that
/// the address, the QR code (and over TLS the certificate's fingerprint)
/// are on the screen; journaled without the digits.
fn code_words(side: Color, code: &str, tls: bool) -> Vec<TellWords> {
    all_words()
        .iter()
        .map(|(lang, w)| {
            let get = |k: &str| w.get(k).map_or("", String::as_str);
            let name = get(&side.to_string());
            let digits: Vec<String> = code.chars().map(String::from).collect();
            let mut text = fill(get("code"), name, &digits.join(get("digit_sep")));
            let mut journaled = fill(get("code"), name, get("hidden_code"));
            if tls {
                for t in [&mut text, &mut journaled] {
                    t.push(' ');
                    t.push_str(get("fingerprint"));
                }
            }
            TellWords {
                lang: lang.clone(),
                text,
                journaled,
            }
        })
        .collect()
}

/// Answers `ask` from `asker` (a seat over the control socket; `None`: the
/// table's own input line) with the table's pairings (`None`: the table
/// serves no device seats, `--seats` not given).
#[must_use]
pub fn answer(pairing: Option<&Pairing>, ask: &PairAsk, asker: Option<Color>) -> Answer {
    let refuse = |key: &str| Answer {
        code: None,
        notice: None,
        tell: Cmd::Tell(Box::new(Tell {
            words: said(key, None),
            side: None,
            refusal: true,
            input: ask.input.clone(),
            private: false,
        })),
    };
    let Some(p) = pairing else {
        return refuse("no_seats");
    };
    let Some(side) = ask.side else {
        return refuse("which_side");
    };
    // A seat's code is that seat's: never asked for by the other side.
    if asker.is_some_and(|a| a != side) {
        return refuse("own_side");
    }
    let tell = |words, private| {
        Cmd::Tell(Box::new(Tell {
            words,
            side: Some(side),
            refusal: false,
            input: ask.input.clone(),
            private,
        }))
    };
    if ask.unpair {
        p.unpair(side);
        return Answer {
            code: None,
            notice: None,
            tell: tell(said("unpaired", Some(side)), false),
        };
    }
    let Ok(code) = p.pair(side) else {
        return refuse("failed");
    };
    Answer {
        notice: Some(Notice::Pairing {
            side,
            code: code.code.clone(),
            url: code.url.clone(),
            expires_ms: code.expires_ms,
            fingerprint: p.fingerprint().map(str::to_owned),
        }),
        // The code is white's secret: its own outputs and the screen only.
        tell: tell(
            code_words(side, &code.code, p.fingerprint().is_some()),
            true,
        ),
        code: Some(code),
    }
}

/// A line typed on the table's input line: `None` when it does not ask for
/// pairing; else it is done, the screen shown the code and the session
/// asked to say it (from a plain thread: the stdin reader, the screen's
/// line sender).
///
/// # Errors
/// The session has stopped.
pub fn typed(
    session: &SessionHandle,
    pairing: Option<&Pairing>,
    line: &str,
) -> Option<anyhow::Result<Reply>> {
    let ask = PairAsk::parse(line)?;
    let a = answer(pairing, &ask, None);
    if let Some(n) = a.notice {
        session.notify(n);
    }
    Some(session.blocking_request(a.tell, Source::Typed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(cmd: &Cmd) -> (Vec<String>, Vec<String>, bool) {
        let Cmd::Tell(t) = cmd else {
            panic!("not words to say: {cmd:?}")
        };
        (
            t.words.iter().map(|w| w.text.clone()).collect(),
            t.words.iter().map(|w| w.journaled.clone()).collect(),
            t.refusal,
        )
    }

    #[test]
    fn the_words_parse_and_every_language_has_every_sentence() {
        let all = all_words();
        assert_eq!(all[0].0, "en");
        let keys: Vec<&String> = all[0].1.keys().collect();
        for (lang, w) in all {
            assert_eq!(w.keys().collect::<Vec<_>>(), keys, "{lang}");
        }
        assert!(all.iter().any(|(l, _)| l == "pl"));
    }

    #[test]
    fn lines_that_ask_for_pairing() {
        let a = PairAsk::parse("  pair White ").unwrap();
        assert_eq!((a.unpair, a.side), (false, Some(Color::White)));
        let a = PairAsk::parse("odłącz czarne").unwrap();
        assert_eq!((a.unpair, a.side), (true, Some(Color::Black)));
        assert_eq!(PairAsk::parse("pair").unwrap().side, None);
        assert_eq!(PairAsk::parse("pair green").unwrap().side, None);
        assert_eq!(PairAsk::parse("pair white black").unwrap().side, None);
        assert!(PairAsk::parse("32-28").is_none());
        assert!(PairAsk::parse("pairs white").is_none());
    }

    #[test]
    fn a_code_is_said_digit_by_digit_in_each_language_and_journaled_without_it() {
        let p = Pairing::new("http://127.0.0.1:1/".into());
        let a = answer(Some(&p), &PairAsk::parse("pair black").unwrap(), None);
        let code = a.code.unwrap().code;
        let digits: Vec<String> = code.chars().map(String::from).collect();
        let (said, journaled, refusal) = texts(&a.tell);
        assert!(!refusal);
        // Each language's sentence in the order of all_words (English first).
        let pl = all_words().iter().position(|(l, _)| l == "pl").unwrap();
        assert_eq!(
            said[pl],
            format!(
                "Kod parowania dla czarnych: {}, ważny dwie minuty. Adres i kod QR są na ekranie stołu.",
                digits.join(", ")
            )
        );
        assert!(said[0].starts_with(&format!("Pairing code for black: {},", digits.join(", "))));
        for j in &journaled {
            assert!(!j.contains(&digits.join(", ")), "{j}");
            assert!(!j.contains("http"), "{j}");
        }
        assert!(matches!(
            a.notice,
            Some(Notice::Pairing {
                side: Color::Black,
                ..
            })
        ));
        // The code works.
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let from = std::net::Ipv4Addr::LOCALHOST.into();
        let redeemed = rt.block_on(p.redeem_from(from, &code));
        assert_eq!(redeemed.unwrap().0, Color::Black);
        // Over TLS: the fingerprint is on the screen, not said.
        let p = Pairing::new("https://x:1/".into()).with_fingerprint("A0:B1".into());
        let a = answer(Some(&p), &PairAsk::parse("pair white").unwrap(), None);
        let (said, _, _) = texts(&a.tell);
        assert!(said[0].ends_with("The certificate's fingerprint is on the screen too."));
        assert!(!said[0].contains("A0:B1"));
    }

    #[test]
    fn refusals() {
        let ask = PairAsk::parse("pair white").unwrap();
        let (said, _, refusal) = texts(&answer(None, &ask, None).tell);
        assert!(refusal);
        assert_eq!(
            said[0],
            "No device seats at this table: start it with --seats."
        );
        let pl = all_words().iter().position(|(l, _)| l == "pl").unwrap();
        assert_eq!(
            said[pl],
            "Przy tym stole nie ma miejsc na urządzeniach: uruchom go z --seats."
        );
        let p = Pairing::new("http://127.0.0.1:1/".into());
        let a = answer(Some(&p), &ask, Some(Color::Black));
        assert!(
            a.code.is_none() && texts(&a.tell).2,
            "black's seat asks white's code"
        );
        let a = answer(Some(&p), &PairAsk::parse("pair").unwrap(), None);
        assert!(a.code.is_none() && texts(&a.tell).2);
    }
}

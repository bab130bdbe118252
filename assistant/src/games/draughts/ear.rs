//! Draughts for `tandem hear` ([`ear`]): the legal moves of a position and
//! the commands, understood by the speech crate's draughts grammar, printed
//! as its JSON (`{"kind": "move", "move": "32-28", ...}`).

use anyhow::Context as _;
use tandem_rules::draughts::{Position, Variant};
use tandem_speech::draughts::listen::{understand, DraughtsWords, Grammar, Heard};
use tandem_speech::listen::{Lexicon, Transcript};
use tandem_speech::Phrasebook;

use crate::voice::ear::{asking, quoted_transcript, Ear, EarRequest, Verdict};

/// [`Verdict::label`] of a draughts understanding.
#[must_use]
pub fn label(h: &Heard) -> String {
    match h {
        Heard::Move { notation, .. } => notation.clone(),
        Heard::Command {
            command,
            square: Some(sq),
            ..
        } => format!("{} {sq}", command.name()),
        Heard::Command { command, .. } => command.name().to_owned(),
        Heard::Ambiguous { candidates, .. } => candidates
            .iter()
            .map(|c| c.notation.clone())
            .collect::<Vec<_>>()
            .join(" or "),
        Heard::Illegal { text, .. } => format!("illegal {text}"),
        Heard::Unknown { transcript } => quoted_transcript(transcript),
        other => format!("{other:?}"),
    }
}

/// `tandem hear --variant international|sixty-four`: the position of
/// `--fen` (the start without it), the words of `--phrasebook` or the
/// built-in ones of `--lang`, and draughts' questions about the board.
///
/// # Errors
/// A bad `--fen`, `--lang` or `--phrasebook`.
pub fn ear(variant: Variant, req: &EarRequest<'_>) -> anyhow::Result<Ear> {
    let pos = match &req.fen {
        Some(f) => {
            Position::from_fen(variant, f).with_context(|| format!("reading --fen {f:?}"))?
        }
        None => Position::start(variant),
    };
    let lex = match &req.phrasebook {
        Some(p) => Lexicon::draughts_file(p)
            .with_context(|| format!("reading --phrasebook {}", p.display()))?,
        None => Lexicon::draughts_builtin(req.lang)
            .with_context(|| crate::lang::no_builtin(req.lang, "words"))?,
    };
    let grammar = Grammar::build(&pos, &lex);
    let lang = lex.phrasebook().language().to_owned();
    let phrases = grammar.recognizer_phrases();
    let words = lex.all_words().into_iter().collect();
    let judge = move |t: &[Transcript]| -> anyhow::Result<Verdict> {
        let heard = understand(&pos, &grammar, &lex, t);
        Ok(Verdict {
            json: serde_json::to_string(&heard)?,
            line: describe(&heard),
            understood: matches!(heard, Heard::Move { .. } | Heard::Command { .. }),
            label: label(&heard),
        })
    };
    let normalize = move |e: &str| -> String {
        let e = e.trim();
        tandem_rules::draughts::notation::resolve(&pos, e).map_or_else(
            |_| e.to_owned(),
            |m| tandem_rules::draughts::notation::write_move(&pos, &m),
        )
    };
    let questions = Phrasebook::builtin(&lang)
        .map(|b| tandem_speech::draughts::ask::phrases(&b))
        .unwrap_or_default();
    Ok(asking(
        Ear::new(lang, phrases, words, judge, normalize),
        questions,
    ))
}

/// The line of a draughts understanding (or a command's).
#[must_use]
pub fn describe(h: &Heard) -> String {
    match h {
        Heard::Move {
            notation,
            confidence,
            transcript,
            ..
        } => {
            format!("move {notation} (confidence {confidence:.2}; heard {transcript:?})")
        }
        Heard::Command {
            command,
            square: Some(sq),
            confidence,
            ..
        } => {
            format!("command {command} {sq} (confidence {confidence:.2})")
        }
        Heard::Command {
            command,
            confidence,
            ..
        } => format!("command {command} (confidence {confidence:.2})"),
        Heard::Ambiguous { candidates, .. } => {
            let c: Vec<String> = candidates
                .iter()
                .map(|c| {
                    let taken: Vec<String> = c.captured.iter().map(u8::to_string).collect();
                    if taken.is_empty() {
                        c.notation.clone()
                    } else {
                        format!("{} taking {}", c.notation, taken.join(", "))
                    }
                })
                .collect();
            format!("ambiguous: {}", c.join(" or "))
        }
        Heard::Illegal { text, message, .. } => format!("illegal: {text}: {message}"),
        Heard::Unknown { transcript } => format!("not understood: {transcript:?}"),
        other => format!("{other:?}"),
    }
}

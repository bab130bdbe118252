//! Backgammon for `tandem hear` ([`ear`]): the actions of a match state
//! (the roll, the moves for the dice, the cube) and the table's commands,
//! printed as the speech crate's JSON (`{"kind": "move", "move": "8/5 6/5",
//! ...}`; docs/backgammon.md, "Voice").

use anyhow::Context as _;
use tandem_speech::listen::{Lexicon, Transcript};

use crate::voice::ear::{
    asking, command_label, describe_command, quoted_transcript, Ear, EarRequest, Verdict,
};

/// `tandem hear --variant backgammon`: the match state of `--position`
/// (or `--fen`) and `--dice`, the backgammon words of `--phrasebook` or the
/// built-in ones of `--lang`, and backgammon's questions about the board.
///
/// # Errors
/// A bad `--position`, `--dice`, `--lang` or `--phrasebook`.
pub fn ear(req: &EarRequest<'_>) -> anyhow::Result<Ear> {
    use tandem_rules::backgammon::{position_id, Action, Board, Dice, Match, MatchOptions};
    use tandem_speech::backgammon::listen::{BgHeard, BgLexicon, BgSaid, BgVoice, BgWords};
    use tandem_speech::listen::ListenGame;

    let opts = MatchOptions {
        length: super::DEFAULT_LENGTH,
    };
    let text = req.position.or(req.fen);
    let mut m = match text {
        Some(t) if t.contains(':') => {
            super::match_from_ids(t).map_err(|e| anyhow::anyhow!("--position {t:?}: {e}"))?
        }
        Some(t) => Match::from_board(
            opts,
            position_id::decode(t.trim(), tandem_rules::Color::White)
                .map_err(|e| anyhow::anyhow!("--position {t:?} is not a Position ID: {e}"))?,
        ),
        None => Match::from_board(opts, Board::start(tandem_rules::Color::White)),
    };
    if let Some(d) = req.dice {
        let dice = Dice::parse(d)
            .with_context(|| format!("--dice {d:?}: two dice from 1 to 6, such as 31"))?;
        m.act(Action::Roll(dice))
            .map_err(|e| anyhow::anyhow!("--dice {d:?}: {e}"))?;
    }
    let table = match &req.phrasebook {
        Some(_) => tandem_speech::Phrasebook::english(),
        None => tandem_speech::Phrasebook::builtin(req.lang)
            .with_context(|| crate::lang::no_builtin(req.lang, "words"))?,
    };
    let words = match &req.phrasebook {
        Some(p) => super::voice::file_words(p, &table)?
            .get::<BgWords>()
            .cloned()
            .context("backgammon words")?,
        None => BgWords::new(
            BgLexicon::builtin(req.lang)
                .with_context(|| crate::lang::no_builtin(req.lang, "backgammon words"))?,
            Lexicon::from_phrasebook(&table),
        ),
    };
    let grammar = BgVoice::grammar(&m, &words);
    let lang = BgVoice::lang(&words).to_owned();
    let mut phrases = BgVoice::recognizer_phrases(&grammar);
    phrases.dedup();
    let all = BgVoice::all_words(&words);
    let state = m.clone();
    let judge = move |t: &[Transcript]| -> anyhow::Result<Verdict> {
        let heard = BgVoice::understand(&state, &grammar, &words, t);
        let (line, label) = match &heard {
            BgSaid::Bg(BgHeard::Move {
                text,
                confidence,
                transcript,
                ..
            }) => (
                format!("move {text} (confidence {confidence:.2}; heard {transcript:?})"),
                text.clone(),
            ),
            BgSaid::Bg(BgHeard::Ambiguous {
                question,
                candidates,
                ..
            }) => (format!("ambiguous: {question}"), candidates.join(" or ")),
            BgSaid::Bg(BgHeard::Illegal { text, message, .. }) => (
                format!("illegal: {text}: {message}"),
                format!("illegal {text}"),
            ),
            BgSaid::Bg(BgHeard::Query {
                query, confidence, ..
            }) => (
                format!("command {query} (confidence {confidence:.2})"),
                query.clone(),
            ),
            BgSaid::Bg(BgHeard::Unknown { transcript }) => (
                format!("not understood: {transcript:?}"),
                quoted_transcript(transcript),
            ),
            BgSaid::Command(c) => (describe_command(c), command_label(c)),
        };
        Ok(Verdict {
            json: serde_json::to_string(&heard)?,
            line,
            understood: matches!(
                heard,
                BgSaid::Bg(BgHeard::Move { .. } | BgHeard::Query { .. }) | BgSaid::Command(_)
            ),
            label,
        })
    };
    let normalize = move |e: &str| -> String {
        let e = e.trim();
        let mut probe = m.clone();
        match m.parse_action(e) {
            Ok(a) if probe.act(a).is_ok() => match a {
                Action::Roll(d) => format!("roll {} {}", d.0, d.1),
                Action::Move(p) if p.is_pass() => "pass".to_owned(),
                Action::Move(p) => m.move_text(&p),
                _ => e.to_owned(),
            },
            _ => e.to_owned(),
        }
    };
    let questions = tandem_speech::backgammon::BgPhrasebook::builtin(&lang)
        .map(|b| tandem_speech::backgammon::ask::phrases(&b))
        .unwrap_or_default();
    Ok(asking(
        Ear::new(lang, phrases, all, judge, normalize),
        questions,
    ))
}

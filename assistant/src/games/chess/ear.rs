//! Chess for `tandem hear` ([`ear`]): the legal moves of a position (002
//! annex E.2) and the table's commands, printed as the speech crate's JSON
//! (`{"kind": "move", "move": "Nf3", "uci": "g1f3", ...}`).

use anyhow::Context as _;
use tandem_speech::chess::listen::{understand_in, ChessGrammar, ChessHeard, ChessLexicon};
use tandem_speech::chess::ChessPhrasebook;
use tandem_speech::listen::{CommandGrammar, Lexicon, Transcript};

use crate::voice::ear::{
    asking, command_label, describe_command, quoted_transcript, Ear, EarRequest, Verdict,
};

/// [`Verdict::label`] of a chess understanding.
fn chess_label(h: &ChessHeard) -> String {
    match h {
        ChessHeard::Move { san, .. } => san.clone(),
        ChessHeard::Ambiguous { candidates, .. } => candidates.join(" or "),
        ChessHeard::Illegal { text, .. } => format!("illegal {text}"),
        ChessHeard::Unknown { transcript } => quoted_transcript(transcript),
    }
}

/// `tandem hear --variant chess`: the position of `--fen` (the start
/// without it), the chess words of `--phrasebook` or the built-in ones of
/// `--lang`, the table's commands and chess's questions about the board.
///
/// # Errors
/// A bad `--fen`, `--lang` or `--phrasebook`.
pub fn ear(req: &EarRequest<'_>) -> anyhow::Result<Ear> {
    let pos = match &req.fen {
        Some(f) => {
            tandem_rules::chess::from_fen(f).with_context(|| format!("reading --fen {f:?}"))?
        }
        None => tandem_rules::chess::start(),
    };
    let book = match &req.phrasebook {
        Some(p) => ChessPhrasebook::from_file(p)
            .with_context(|| format!("reading --phrasebook {}", p.display()))?,
        None => ChessPhrasebook::builtin(req.lang)
            .with_context(|| crate::lang::no_builtin(req.lang, "chess words"))?,
    };
    let lex = ChessLexicon::new(&book);
    let grammar = ChessGrammar::build(&pos, &lex);
    // The commands: the table phrasebook's (or the chess file's own
    // `[listen.commands]`), "move N" with the plain numbers.
    let mut cmd_lex = Lexicon::builtin(book.language()).unwrap_or_else(Lexicon::english);
    if let Some(p) = &req.phrasebook {
        cmd_lex = tandem_speech::listen::command_words(p, cmd_lex)
            .map_err(|e| anyhow::anyhow!("reading --phrasebook: {e}"))?;
    }
    // The questions about the board are chess's (docs/ask.md).
    cmd_lex.ask = tandem_speech::chess::ask::phrases(&book);
    let commands = CommandGrammar::build(&cmd_lex, &cmd_lex.numbers());
    let mut phrases = grammar.recognizer_phrases();
    phrases.extend(commands.recognizer_phrases());
    let words: Vec<String> = phrases
        .iter()
        .flat_map(|p| p.split_whitespace().map(str::to_owned))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let judge = move |t: &[Transcript]| -> anyhow::Result<Verdict> {
        let heard = understand_in(&grammar, &lex, t);
        if let ChessHeard::Unknown { .. } = heard {
            if let Some(c) = commands.understand(&cmd_lex, t) {
                return Ok(Verdict {
                    json: serde_json::to_string(&c)?,
                    line: describe_command(&c),
                    understood: true,
                    label: command_label(&c),
                });
            }
        }
        let line = match &heard {
            ChessHeard::Move {
                san,
                confidence,
                transcript,
                ..
            } => format!("move {san} (confidence {confidence:.2}; heard {transcript:?})"),
            ChessHeard::Ambiguous { question, .. } => format!("ambiguous: {question}"),
            ChessHeard::Illegal { text, message, .. } => format!("illegal: {text}: {message}"),
            ChessHeard::Unknown { transcript } => format!("not understood: {transcript:?}"),
        };
        Ok(Verdict {
            json: serde_json::to_string(&heard)?,
            line,
            understood: matches!(heard, ChessHeard::Move { .. }),
            label: chess_label(&heard),
        })
    };
    let start = pos.clone();
    let normalize = move |e: &str| -> String {
        let e = e.trim();
        tandem_rules::chess::resolve(&start, e)
            .map_or_else(|_| e.to_owned(), |m| tandem_rules::chess::san(&start, &m))
    };
    let lang = book.language().to_owned();
    let questions = ChessPhrasebook::builtin(&lang)
        .map(|b| tandem_speech::chess::ask::phrases(&b))
        .unwrap_or_default();
    Ok(asking(
        Ear::new(lang, phrases, words, judge, normalize),
        questions,
    ))
}

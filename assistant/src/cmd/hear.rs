//! `tandem hear (WAVFILE | --text TRANSCRIPT | --batch DIR --labels FILE)
//! [--model DIR] [--lang pl|en] [--phrasebook FILE] [--variant V] [--fen FEN] [--json]`
//!
//! The model is `--model DIR`, else `$TANDEM_VOSK_MODEL`, else the one
//! installed for the language (`scripts/setup.sh --voice pl`); libvosk is
//! loaded at run time (docs/voice.md). `--batch` measures a model on a folder
//! of recordings ([`super::hear_batch`]).
//!
//! Prints what tandem understood from a recording or a transcript in a
//! position: a legal move, a command, an ambiguity, an illegal move with the
//! reason, or nothing. With `--json`, one object:
//! `{"kind": "move", "move": "32-28", "confidence": 0.93, "transcript": "..."}`.
//! A phrase naming an illegal move is never `"kind": "move"`: it is
//! `{"kind": "illegal", "from": 32, "to": 26, "text": "32-26", "reason":
//! "unreachable", "message": "...", "transcript": "..."}`, the reason being the
//! rules engine's (`notation::resolve`) in the phrasebook's words, exactly as
//! `tandem say 32-26` gives it.
//!
//! `--variant chess` listens for chess moves (002 annex E.2: "Ewa dwa Ewa
//! cztery", "skoczek f trzy", "długa roszada") in a chess position (`--fen`
//! is then chess FEN): `{"kind": "move", "move": "Nf3", "uci": "g1f3", ...}`,
//! `{"kind": "ambiguous", "candidates": ["Nbd2", "Nfd2"], "question": "Który
//! skoczek: Bella jeden czy Feliks trzy?", ...}`, `{"kind": "illegal", "text":
//! "e2e5", "message": ...}`; the commands (clock, repeat, resign, ...) are the
//! draughts phrasebook's, as in the daemon. `--phrasebook` is then a chess
//! phrasebook file.
//!
//! `--variant backgammon` listens in a match state: `--position` is a
//! Position ID with the player on roll to move (or gnubg's full
//! `POSITION_ID:MATCH_ID`; default: the starting position), `--dice 31`
//! the roll made (without it: before the roll, when the dice and the cube
//! are said): `{"kind": "move", "move": "8/5 6/5", ...}`, `{"kind": "move",
//! "move": "roll 3 1", ...}`, `{"kind": "illegal", "text": "8/5", "message":
//! "The 1 must be played too.", ...}`, `{"kind": "command", "command":
//! "clock", ...}`; `--phrasebook` is then a backgammon phrasebook file
//! (docs/backgammon.md, "Voice").

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use tandem_rules::draughts::{Position, Variant};
use tandem_speech::chess::listen::{understand_in, ChessGrammar, ChessHeard, ChessLexicon};
use tandem_speech::chess::ChessPhrasebook;
use tandem_speech::draughts::listen::{understand, DraughtsWords, Grammar, Heard};
use tandem_speech::listen::vosk::VoskRecognizer;
use tandem_speech::listen::{
    read_wav_16k, CommandGrammar, CommandHeard, Lexicon, Recognizer, Transcript,
};

use crate::game::GameKind;

/// Arguments of `tandem hear`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["wavfile", "text", "batch"])))]
pub struct Args {
    /// A WAV recording of one utterance (needs libvosk and a Vosk model).
    pub wavfile: Option<PathBuf>,
    /// Understand this transcript instead of audio.
    #[arg(long)]
    pub text: Option<String>,
    /// Every WAV file of this folder against its expected move or command
    /// (`--labels`): the accuracy, each miss and what was heard instead.
    #[arg(long, requires = "labels")]
    pub batch: Option<PathBuf>,
    /// With `--batch`: a tab-separated file, one line per recording: its
    /// file name, a tab, the expected move (`32-28`, `Nf3`) or command
    /// (`clock`, `yes`, `square 23`). `#` starts a comment line.
    #[arg(long, requires = "batch")]
    pub labels: Option<PathBuf>,
    /// The Vosk model folder (default: $TANDEM_VOSK_MODEL, else the model
    /// installed for the language).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Language of the built-in words: pl or en.
    #[arg(long, default_value = "pl")]
    pub lang: String,
    /// A phrasebook file (the TOML file `tandem say --phrasebook` takes);
    /// its `[listen]` section and square words are what is listened for
    /// (replaces --lang).
    #[arg(long)]
    pub phrasebook: Option<PathBuf>,
    /// international, sixty-four, chess or backgammon.
    #[arg(long, default_value = "international")]
    pub variant: GameKind,
    /// Backgammon: the Position ID (the player on roll to move) or gnubg's
    /// full `POSITION_ID:MATCH_ID`; default: the starting position.
    #[arg(long)]
    pub position: Option<String>,
    /// Backgammon: the dice rolled (`31`, `3 1`); without them, the
    /// player is about to roll (or double).
    #[arg(long)]
    pub dice: Option<String>,
    /// The position (PDN FEN); default: the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub use crate::voice::ear::{Ear, Judge, Verdict};

/// A transcript in quotes (empty when nothing was heard).
#[must_use]
pub fn quoted_transcript(t: &str) -> String {
    if t.trim().is_empty() {
        String::new()
    } else {
        format!("{t:?}")
    }
}

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

fn chess_label(h: &ChessHeard) -> String {
    match h {
        ChessHeard::Move { san, .. } => san.clone(),
        ChessHeard::Ambiguous { candidates, .. } => candidates.join(" or "),
        ChessHeard::Illegal { text, .. } => format!("illegal {text}"),
        ChessHeard::Unknown { transcript } => quoted_transcript(transcript),
    }
}

/// The listening of `args` (variant, position, language or phrasebook).
///
/// # Errors
/// A bad `--fen`, `--lang` or `--phrasebook`.
pub fn ear(args: &Args) -> anyhow::Result<Ear> {
    let ear = match args.variant {
        GameKind::Draughts(v) => draughts_ear(args, v),
        GameKind::Chess => chess_ear(args),
        GameKind::Backgammon => backgammon_ear(args),
    }?;
    // The questions of the words' language (none for a language without
    // built-in words, such as a `--phrasebook` of its own).
    let questions = question_phrases(args.variant, &ear.lang);
    Ok(asking(ear, questions))
}

/// The questions about the board of a game in a language (docs/ask.md):
/// the built-in phrasebook's `[listen.ask]`.
fn question_phrases(variant: GameKind, lang: &str) -> Vec<tandem_speech::ask::AskPhrase> {
    let phrases = match variant {
        GameKind::Draughts(_) => tandem_speech::Phrasebook::builtin(lang)
            .map(|b| tandem_speech::draughts::ask::phrases(&b)),
        GameKind::Chess => {
            ChessPhrasebook::builtin(lang).map(|b| tandem_speech::chess::ask::phrases(&b))
        }
        GameKind::Backgammon => tandem_speech::backgammon::BgPhrasebook::builtin(lang)
            .map(|b| tandem_speech::backgammon::ask::phrases(&b)),
    };
    phrases.unwrap_or_default()
}

/// An ear that hears the questions about the board first, exactly
/// (`{"kind": "query", "query": "opponent knights", ...}`): a question is
/// never a move, and no move phrase is a question's.
fn asking(mut ear: Ear, questions: Vec<tandem_speech::ask::AskPhrase>) -> Ear {
    let unk = ear.phrases.iter().position(|p| p == "[unk]");
    let said: Vec<String> = questions
        .iter()
        .map(|q| q.words.join(" "))
        .filter(|q| !ear.phrases.contains(q))
        .collect();
    let at = unk.unwrap_or(ear.phrases.len());
    ear.phrases.splice(at..at, said);
    let mut words: std::collections::BTreeSet<String> = ear.words.drain(..).collect();
    words.extend(questions.iter().flat_map(|q| q.words.iter().cloned()));
    ear.words = words.into_iter().collect();
    let inner = ear.judge;
    ear.judge = Box::new(move |t: &[Transcript]| {
        for tr in t {
            if let Some(q) = tandem_speech::ask::heard_question(&questions, &tr.text) {
                let confidence = (f64::from(tr.confidence.clamp(0.0, 1.0)) * 100.0).round() / 100.0;
                return Ok(Verdict {
                    json: serde_json::json!({
                        "kind": "query",
                        "query": q,
                        "confidence": confidence,
                        "transcript": tr.text,
                    })
                    .to_string(),
                    line: format!(
                        "question {q} (confidence {confidence:.2}; heard {:?})",
                        tr.text
                    ),
                    understood: true,
                    label: format!("ask {q}"),
                });
            }
        }
        inner(t)
    });
    ear
}

fn draughts_ear(args: &Args, variant: Variant) -> anyhow::Result<Ear> {
    let pos = match &args.fen {
        Some(f) => {
            Position::from_fen(variant, f).with_context(|| format!("reading --fen {f:?}"))?
        }
        None => Position::start(variant),
    };
    let lex = match &args.phrasebook {
        Some(p) => Lexicon::draughts_file(p)
            .with_context(|| format!("reading --phrasebook {}", p.display()))?,
        None => Lexicon::draughts_builtin(&args.lang).with_context(|| {
            format!(
                "no built-in words for --lang {:?} (pl or en; or give --phrasebook)",
                args.lang
            )
        })?,
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
    Ok(Ear {
        lang,
        phrases,
        words,
        judge: Box::new(judge),
        normalize: Box::new(normalize),
    })
}

/// `--variant chess`.
fn chess_ear(args: &Args) -> anyhow::Result<Ear> {
    let pos = match &args.fen {
        Some(f) => {
            tandem_rules::chess::from_fen(f).with_context(|| format!("reading --fen {f:?}"))?
        }
        None => tandem_rules::chess::start(),
    };
    let book = match &args.phrasebook {
        Some(p) => ChessPhrasebook::from_file(p)
            .with_context(|| format!("reading --phrasebook {}", p.display()))?,
        None => ChessPhrasebook::builtin(&args.lang).with_context(|| {
            format!(
                "no built-in chess words for --lang {:?} (pl or en; or give --phrasebook)",
                args.lang
            )
        })?,
    };
    let lex = ChessLexicon::new(&book);
    let grammar = ChessGrammar::build(&pos, &lex);
    // The commands: the table phrasebook's (or the chess file's own
    // `[listen.commands]`), "move N" with the plain numbers.
    let mut cmd_lex = Lexicon::builtin(book.language()).unwrap_or_else(Lexicon::english);
    if let Some(p) = &args.phrasebook {
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
    Ok(Ear {
        lang: book.language().to_owned(),
        phrases,
        words,
        judge: Box::new(judge),
        normalize: Box::new(normalize),
    })
}

/// `--variant backgammon`: the match state of `--position` and `--dice`.
fn backgammon_ear(args: &Args) -> anyhow::Result<Ear> {
    use tandem_rules::backgammon::{position_id, Action, Board, Dice, Match, MatchOptions};
    use tandem_speech::backgammon::listen::{BgHeard, BgLexicon, BgSaid, BgVoice, BgWords};
    use tandem_speech::listen::ListenGame;

    let opts = MatchOptions {
        length: crate::games::backgammon::DEFAULT_LENGTH,
    };
    let text = args.position.as_deref().or(args.fen.as_deref());
    let mut m = match text {
        Some(t) if t.contains(':') => crate::games::backgammon::match_from_ids(t)
            .map_err(|e| anyhow::anyhow!("--position {t:?}: {e}"))?,
        Some(t) => Match::from_board(
            opts,
            position_id::decode(t.trim(), tandem_rules::Color::White)
                .map_err(|e| anyhow::anyhow!("--position {t:?} is not a Position ID: {e}"))?,
        ),
        None => Match::from_board(opts, Board::start(tandem_rules::Color::White)),
    };
    if let Some(d) = args.dice.as_deref() {
        let dice = Dice::parse(d)
            .with_context(|| format!("--dice {d:?}: two dice from 1 to 6, such as 31"))?;
        m.act(Action::Roll(dice))
            .map_err(|e| anyhow::anyhow!("--dice {d:?}: {e}"))?;
    }
    let table = match &args.phrasebook {
        Some(_) => tandem_speech::Phrasebook::english(),
        None => tandem_speech::Phrasebook::builtin(&args.lang).with_context(|| {
            format!(
                "no built-in words for --lang {:?} (pl or en; or give --phrasebook)",
                args.lang
            )
        })?,
    };
    let words = match &args.phrasebook {
        Some(p) => crate::games::backgammon::voice::file_words(p, &table)?
            .get::<BgWords>()
            .cloned()
            .context("backgammon words")?,
        None => BgWords::new(
            BgLexicon::builtin(&args.lang).context("the built-in backgammon words")?,
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
    Ok(Ear {
        lang,
        phrases,
        words: all,
        judge: Box::new(judge),
        normalize: Box::new(normalize),
    })
}

/// Runs `tandem hear`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let ear = ear(&args)?;
    if let (Some(dir), Some(labels)) = (&args.batch, &args.labels) {
        return super::hear_batch::run(args.json, &ear, dir, labels, || recognizer(&args, &ear));
    }
    let transcripts = match (&args.text, &args.wavfile) {
        (Some(t), _) => vec![Transcript::text(t)],
        (None, Some(wav)) => {
            let mut rec = recognizer(&args, &ear)?;
            let audio = read_wav_16k(wav)?;
            rec.accept(&audio)?;
            rec.finish()?
        }
        // clap's "input" group requires one of them.
        (None, None) => anyhow::bail!("give a WAVFILE or --text TRANSCRIPT"),
    };
    let v = (ear.judge)(&transcripts)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", v.json)?;
    } else {
        writeln!(out, "{}", v.line)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The model of `--model`, `$TANDEM_VOSK_MODEL`, or the one installed for `lang`.
///
/// # Errors
/// None of them: how to install one.
pub fn model_dir(model: Option<&Path>, lang: &str) -> anyhow::Result<PathBuf> {
    if let Some(m) = model {
        return Ok(m.to_owned());
    }
    if let Some(m) = std::env::var_os("TANDEM_VOSK_MODEL").filter(|m| !m.is_empty()) {
        return Ok(PathBuf::from(m));
    }
    tandem_speech::listen::models::find_model(lang).map_err(|searched| {
        let how = tandem_speech::listen::models::install_command(lang).map_or_else(
            || "unzip one from https://alphacephei.com/vosk/models there".to_owned(),
            |c| format!("install one with {c}"),
        );
        anyhow::anyhow!(
            "no Vosk model for {lang:?} in {}: {how}, or give --model DIR",
            searched
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(" or "),
        )
    })
}

/// The Vosk recognizer with `ear`'s grammar; words the model does not know
/// are named on stderr.
///
/// # Errors
/// No libvosk, no model, or the model does not load.
pub fn recognizer(args: &Args, ear: &Ear) -> anyhow::Result<VoskRecognizer> {
    // The library first: without it no model helps.
    tandem_speech::listen::vosk::library()?;
    let model = model_dir(args.model.as_deref(), &ear.lang)?;
    tandem_speech::listen::vosk::set_log_level(-1);
    let mut rec = VoskRecognizer::new(&model, &ear.phrases)?;
    let missing = rec.missing_words(&ear.words);
    if !missing.is_empty() {
        let _ = writeln!(
            std::io::stderr(),
            "tandem: the model does not know these words, which cannot be heard: {}",
            missing.join(" ")
        );
    }
    Ok(rec)
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

/// The line of a command heard in any game (as [`describe`] says a draughts one).
#[must_use]
pub fn describe_command(h: &CommandHeard) -> String {
    match h {
        CommandHeard::Command {
            command,
            square: Some(n),
            confidence,
            ..
        } => format!("command {command} {n} (confidence {confidence:.2})"),
        CommandHeard::Command {
            command,
            confidence,
            ..
        } => format!("command {command} (confidence {confidence:.2})"),
        query @ CommandHeard::Query { .. } => format!("{query:?}"),
    }
}

/// [`Verdict::label`] of a command heard in any game (as [`label`] gives a draughts one).
#[must_use]
pub fn command_label(h: &CommandHeard) -> String {
    match h {
        CommandHeard::Command { .. } => h.fields().1,
        query @ CommandHeard::Query { .. } => format!("{query:?}"),
    }
}

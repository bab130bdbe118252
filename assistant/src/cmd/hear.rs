//! `tandem hear (WAVFILE | --text TRANSCRIPT) [--model DIR] [--lang pl|en]
//! [--phrasebook FILE] [--variant V] [--fen FEN] [--json]`
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

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use tandem_rules::{Position, Variant};
use tandem_speech::chess::ChessPhrasebook;
use tandem_speech::chess_listen::{understand_in, ChessGrammar, ChessHeard, ChessLexicon};
use tandem_speech::listen::{understand, Grammar, Heard, Lexicon, Transcript};

use crate::game::GameKind;

/// Arguments of `tandem hear`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["wavfile", "text"])))]
pub struct Args {
    /// A WAV recording of one utterance (needs a Vosk model and the `vosk` feature).
    pub wavfile: Option<PathBuf>,
    /// Understand this transcript instead of audio.
    #[arg(long)]
    pub text: Option<String>,
    /// The Vosk model folder (default: $TANDEM_VOSK_MODEL).
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
    /// international, sixty-four or chess.
    #[arg(long, default_value = "international")]
    pub variant: GameKind,
    /// The position (PDN FEN); default: the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `tandem hear`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let variant = match args.variant {
        GameKind::Draughts(v) => v,
        GameKind::Chess => return run_chess(&args),
    };
    let pos = match &args.fen {
        Some(f) => {
            Position::from_fen(variant, f).with_context(|| format!("reading --fen {f:?}"))?
        }
        None => Position::start(variant),
    };
    let lex = match &args.phrasebook {
        Some(p) => Lexicon::from_file(p)
            .with_context(|| format!("reading --phrasebook {}", p.display()))?,
        None => Lexicon::builtin(&args.lang).with_context(|| {
            format!(
                "no built-in words for --lang {:?} (pl or en; or give --phrasebook)",
                args.lang
            )
        })?,
    };
    let grammar = Grammar::build(&pos, &lex);
    let transcripts = match (&args.text, &args.wavfile) {
        (Some(t), _) => vec![Transcript::text(t)],
        (None, Some(wav)) => recognize(
            wav,
            args.model.as_deref(),
            &grammar.recognizer_phrases(),
            &lex.all_words().into_iter().collect::<Vec<_>>(),
        )?,
        // clap's "input" group requires one of them.
        (None, None) => anyhow::bail!("give a WAVFILE or --text TRANSCRIPT"),
    };
    let heard = understand(&pos, &grammar, &lex, &transcripts);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&heard)?)?;
    } else {
        writeln!(out, "{}", describe(&heard))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `tandem hear --variant chess`.
fn run_chess(args: &Args) -> anyhow::Result<ExitCode> {
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
    // The commands: the draughts phrasebook's (or the chess file's own), in a
    // position with no moves.
    // A chess phrasebook file may carry its own `[listen.commands]`.
    let mut cmd_lex = Lexicon::builtin(book.language()).unwrap_or_else(Lexicon::english);
    if let Some(p) = &args.phrasebook {
        cmd_lex = tandem_speech::chess_listen::command_words(p, cmd_lex)
            .map_err(|e| anyhow::anyhow!("reading --phrasebook: {e}"))?;
    }
    let no_moves = Position::empty(Variant::International, tandem_rules::Color::White);
    let commands = Grammar::build(&no_moves, &cmd_lex);
    let transcripts = match (&args.text, &args.wavfile) {
        (Some(t), _) => vec![Transcript::text(t)],
        (None, Some(wav)) => {
            let mut phrases = grammar.recognizer_phrases();
            phrases.extend(commands.recognizer_phrases());
            let words: Vec<String> = phrases
                .iter()
                .flat_map(|p| p.split_whitespace().map(str::to_owned))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            recognize(wav, args.model.as_deref(), &phrases, &words)?
        }
        (None, None) => anyhow::bail!("give a WAVFILE or --text TRANSCRIPT"),
    };
    let heard = understand_in(&grammar, &lex, &transcripts);
    let mut out = std::io::stdout().lock();
    if let ChessHeard::Unknown { .. } = heard {
        let c = understand(&no_moves, &commands, &cmd_lex, &transcripts);
        if matches!(c, Heard::Command { .. }) {
            if args.json {
                writeln!(out, "{}", serde_json::to_string(&c)?)?;
            } else {
                writeln!(out, "{}", describe(&c))?;
            }
            return Ok(ExitCode::SUCCESS);
        }
    }
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&heard)?)?;
    } else {
        let text = match &heard {
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
        writeln!(out, "{text}")?;
    }
    Ok(ExitCode::SUCCESS)
}

fn describe(h: &Heard) -> String {
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

#[cfg(feature = "vosk")]
fn recognize(
    wav: &std::path::Path,
    model: Option<&std::path::Path>,
    phrases: &[String],
    words: &[String],
) -> anyhow::Result<Vec<Transcript>> {
    use tandem_speech::listen::{read_wav_16k, vosk::VoskRecognizer, Recognizer};
    let model = match model {
        Some(m) => m.to_owned(),
        None => std::env::var_os("TANDEM_VOSK_MODEL")
            .map(PathBuf::from)
            .context("no Vosk model: give --model DIR or set TANDEM_VOSK_MODEL")?,
    };
    let audio = read_wav_16k(wav)?;
    tandem_speech::listen::vosk::set_log_level(-1);
    let mut rec = VoskRecognizer::new(&model, phrases)?;
    let missing = rec.missing_words(words);
    if !missing.is_empty() {
        eprintln!(
            "tandem: the model does not know these words, which cannot be heard: {}",
            missing.join(" ")
        );
    }
    rec.accept(&audio)?;
    Ok(rec.finish()?)
}

#[cfg(not(feature = "vosk"))]
fn recognize(
    _wav: &std::path::Path,
    _model: Option<&std::path::Path>,
    _phrases: &[String],
    _words: &[String],
) -> anyhow::Result<Vec<Transcript>> {
    anyhow::bail!(
        "this tandem was built without speech recognition: rebuild with `--features vosk` \
         (and a Vosk model), or use --text TRANSCRIPT"
    )
}

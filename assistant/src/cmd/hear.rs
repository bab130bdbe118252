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
//! table phrasebook's, as in the daemon. `--phrasebook` is then a chess
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
//!
//! This file parses the arguments and prints; each game's listening and
//! JSON are its own (`games/<game>/ear.rs`), picked by the registry
//! ([`GameKind::ear`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tandem_speech::listen::vosk::VoskRecognizer;
use tandem_speech::listen::{read_wav_16k, Recognizer, Transcript};

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
    /// Language of the built-in words: any with data (docs/languages.md).
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

pub use crate::voice::ear::{quoted_transcript, Ear, EarRequest, Judge, Verdict};

/// The listening of `args` (variant, position, language or phrasebook):
/// the game's own ear, from the registry ([`GameKind::ear`]).
///
/// # Errors
/// A bad `--fen`, `--position`, `--dice`, `--lang` or `--phrasebook`.
pub fn ear(args: &Args) -> anyhow::Result<Ear> {
    args.variant.ear(&EarRequest {
        lang: &args.lang,
        phrasebook: args.phrasebook.as_deref(),
        fen: args.fen.as_deref(),
        position: args.position.as_deref(),
        dice: args.dice.as_deref(),
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
        let how = crate::lang::install_command(lang).map_or_else(
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

//! `tandem say MOVE [--variant V] [--fen FEN] [--lang pl|en] [--phrasebook FILE] [--wav OUT] [--json]`
//!
//! `--variant chess` announces a chess move (SAN, UCI or `e2-e4`) after FIDE
//! annex E with the chess phrasebook (`speech/phrasebooks/chess/pl.toml`),
//! files named Anna … Hektor, or letters with `--files letters`.
//!
//! Prints the announcement of MOVE played in FEN (default: the start
//! position), as tandem would speak it; with `--wav` also writes it as speech
//! (espeak-ng, the phrasebook's voice) to a WAV file. An illegal MOVE prints
//! the reason in the same spoken words and exits with status 1.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use tandem_speech::output::espeak::synthesize_wav;
use tandem_speech::output::VoiceParams;

use crate::cmd::perft::GameKind;
use crate::one_shot::{Said, SayAsked};

pub use crate::lang::Lang;

/// Arguments of `tandem say`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The move, as written (`32-28`, `32x23`, `32 28`, `c3-d4`).
    #[arg(value_name = "MOVE")]
    pub mv: String,
    /// international, sixty-four, chess or backgammon (--fen ID:MATCHID, --dice).
    #[arg(long, default_value = "international")]
    pub variant: GameKind,
    /// The position before the move, as PDN FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// The language of a built-in phrasebook.
    #[arg(long, value_parser = crate::lang::parse, default_value = "pl")]
    pub lang: Lang,
    /// A phrasebook file (TOML, see speech/phrasebooks/pl.toml); overrides --lang.
    #[arg(long, value_name = "FILE")]
    pub phrasebook: Option<PathBuf>,
    /// Also write the announcement as speech to this WAV file (espeak-ng).
    #[arg(long, value_name = "OUT")]
    pub wav: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Chess: files as annex E names (Anna, Bella, ...) or plain letters.
    #[arg(long, value_enum, default_value = "names")]
    pub files: Files,
    /// Backgammon: the roll the move is played with (`31`, `3 1`), entered
    /// before the move as at the table.
    #[arg(long)]
    pub dice: Option<String>,
}

/// How chess files are spoken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Files {
    /// Anna, Bella, Cesar, ... (FIDE annex E.2.1).
    Names,
    /// a, b, c, ...
    Letters,
}

/// Runs `tandem say`: each game announces in its own words
/// (`GameKind::say`, the registry).
///
/// # Errors
/// A bad FEN or phrasebook, or a WAV that cannot be written (exit status 2).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let said = args.variant.say(&SayAsked {
        mv: &args.mv,
        fen: args.fen.as_deref(),
        lang: args.lang.as_str(),
        phrasebook: args.phrasebook.as_deref(),
        letters: args.files == Files::Letters,
        dice: args.dice.as_deref(),
    })?;
    finish(&args, said)
}

/// Prints the announcement (and writes `--wav`); exit 0 for a legal move, 1
/// for a refused one. The JSON fields are the same for every game, plus
/// the game's own (`Said::extra`: `uci` for chess).
fn finish(args: &Args, s: Said) -> anyhow::Result<ExitCode> {
    let text = s.utterance.text();
    let wav = write_wav(args.wav.as_deref(), &text, &s.lang, &s.voice)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut obj = serde_json::json!({
            "input": args.mv,
            "legal": s.played.is_some(),
            "move": s.played,
            "error": s.error,
            "variant": s.variant,
            "fen": s.fen,
            "lang": s.lang,
            "priority": s.utterance.priority,
            "kind": s.utterance.kind,
            "text": text,
            "sentences": s.utterance.sentences,
            "wav": wav.as_ref().map(|p| p.display().to_string()),
        });
        if let serde_json::Value::Object(o) = &mut obj {
            o.extend(s.extra);
        }
        writeln!(out, "{obj}")?;
    } else {
        writeln!(out, "{text}")?;
    }
    Ok(if s.played.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// With `--wav OUT`, speaks `text` into OUT with espeak-ng in the phrasebook's
/// voice (every game's announcement).
fn write_wav(
    out: Option<&std::path::Path>,
    text: &str,
    language: &str,
    voice: &str,
) -> anyhow::Result<Option<PathBuf>> {
    let Some(out) = out else { return Ok(None) };
    let params = VoiceParams {
        voice: Some(voice.to_owned()),
        ..VoiceParams::for_language(language)
    };
    synthesize_wav(text, &params, out)
        .with_context(|| format!("writing {}", out.display()))
        .map(Some)
}

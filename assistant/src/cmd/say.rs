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
use tandem_rules::draughts::notation::resolve;
use tandem_rules::draughts::Position;
use tandem_speech::output::espeak::synthesize_wav;
use tandem_speech::output::VoiceParams;
use tandem_speech::{AnnounceOptions, Announcer, Phrasebook};

use crate::cmd::perft::GameKind;
use tandem_rules::draughts::notation::write_move as notation_of;

/// The built-in phrasebook languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// Polish.
    Pl,
    /// English.
    En,
}

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
    #[arg(long, value_enum, default_value = "pl")]
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

/// Runs `tandem say`.
///
/// # Errors
/// A bad FEN or phrasebook, or a WAV that cannot be written (exit status 2).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let args = &args;
    let variant = match args.variant {
        GameKind::Draughts(v) => v,
        GameKind::Chess => return run_chess(args),
        GameKind::Backgammon => return run_game(args, GameKind::Backgammon),
    };
    let book = match &args.phrasebook {
        Some(path) => Phrasebook::from_file(path)
            .with_context(|| format!("loading the phrasebook {}", path.display()))?,
        None => match args.lang {
            Lang::Pl => Phrasebook::polish(),
            Lang::En => Phrasebook::english(),
        },
    };
    let pos = match &args.fen {
        Some(f) => {
            Position::from_fen(variant, f).with_context(|| format!("reading --fen {f:?}"))?
        }
        None => Position::start(variant),
    };
    let announcer = Announcer::new(book, AnnounceOptions::default());
    let (utterance, played, error) = match resolve(&pos, &args.mv) {
        Ok(m) => (
            announcer.on_move(&pos, &m),
            Some(notation_of(&pos, &m)),
            None,
        ),
        Err(e) => (
            announcer.on_rejected(&pos, &args.mv, &e),
            None,
            Some(e.to_string()),
        ),
    };
    let lang = announcer.phrasebook().language().to_owned();
    let voice = announcer.phrasebook().espeak_voice().to_owned();
    finish(
        args,
        Said {
            utterance,
            played,
            uci: None,
            error,
            variant: variant.name(),
            fen: pos.to_fen(),
            lang,
            voice,
        },
    )
}

/// `tandem say --variant chess`: the same output and exit codes.
fn run_chess(args: &Args) -> anyhow::Result<ExitCode> {
    use tandem_rules::chess;
    use tandem_speech::chess::{ChessAnnouncer, ChessPhrasebook, FileStyle};
    let book = match &args.phrasebook {
        Some(path) => ChessPhrasebook::from_file(path)
            .with_context(|| format!("loading the chess phrasebook {}", path.display()))?,
        None => match args.lang {
            Lang::Pl => ChessPhrasebook::polish(),
            Lang::En => ChessPhrasebook::english(),
        },
    };
    let pos = match &args.fen {
        Some(f) => chess::from_fen(f).with_context(|| format!("reading --fen {f:?}"))?,
        None => chess::start(),
    };
    let style = match args.files {
        Files::Names => FileStyle::Names,
        Files::Letters => FileStyle::Letters,
    };
    let announcer = ChessAnnouncer::new(book, style);
    let (utterance, played, uci, error) = match chess::resolve(&pos, &args.mv) {
        Ok(m) => (
            announcer.on_move(&pos, &m),
            Some(chess::san(&pos, &m)),
            Some(m.uci()),
            None,
        ),
        Err(e) => (
            announcer.on_rejected(&args.mv, &e),
            None,
            None,
            Some(e.to_string()),
        ),
    };
    let lang = announcer.phrasebook().language().to_owned();
    let voice = announcer.phrasebook().espeak_voice().to_owned();
    finish(
        args,
        Said {
            utterance,
            played,
            uci,
            error,
            variant: "chess",
            fen: chess::to_fen(&pos),
            lang,
            voice,
        },
    )
}

/// `tandem say --variant backgammon --fen ID:MATCHID --dice 31 MOVE`:
/// through the game interface, as the table says it: the roll entered (and
/// said) first, then the move's announcement; the same output and exit
/// codes as the others. A roll the rules refuse is refused like a move.
fn run_game(args: &Args, kind: GameKind) -> anyhow::Result<ExitCode> {
    if args.phrasebook.is_some() {
        anyhow::bail!(
            "--phrasebook is for draughts and chess; {} speaks its built-in pl or en words",
            kind.name()
        );
    }
    let lang = match args.lang {
        Lang::Pl => "pl",
        Lang::En => "en",
    };
    let start = kind
        .position(args.fen.as_deref())
        .context("reading --fen (for backgammon: POSITION_ID:MATCH_ID)")?;
    let fen = start.to_fen();
    let mut game = crate::game::new_game(start, tandem_rules::GameOptions::default(), lang);
    let refused = |r: crate::game::Refused| (r.say, None, Some(r.reason));
    let roll = match &args.dice {
        Some(d) => match game.action(&format!("roll {d}")) {
            Some(Ok(a)) => {
                game.play_action(&a.text)?;
                Ok(Some(a.announce))
            }
            Some(Err(r)) => Err(r),
            None => anyhow::bail!("--dice {d:?}: this game takes no roll"),
        },
        None => Ok(None),
    };
    let (utterance, played, error) = match roll {
        Err(r) => refused(r),
        Ok(roll) => match game.prepare(&args.mv) {
            Ok(p) => {
                let mut u = p.announce;
                if let Some(r) = roll {
                    let mut sentences = r.sentences;
                    sentences.append(&mut u.sentences);
                    u.sentences = sentences;
                }
                (u, Some(p.text), None)
            }
            Err(r) => refused(r),
        },
    };
    finish(
        args,
        Said {
            utterance,
            played,
            uci: None,
            error,
            variant: kind.name(),
            fen,
            lang: lang.to_owned(),
            voice: lang.to_owned(),
        },
    )
}

/// What `tandem say` worked out, in either game.
struct Said {
    utterance: tandem_speech::Utterance,
    /// The move in strict notation (SAN for chess), if legal.
    played: Option<String>,
    /// Chess: the move in UCI (a JSON field of chess only).
    uci: Option<String>,
    error: Option<String>,
    variant: &'static str,
    fen: String,
    lang: String,
    /// The espeak-ng voice for `--wav`.
    voice: String,
}

/// Prints the announcement (and writes `--wav`); exit 0 for a legal move, 1
/// for a refused one. The JSON fields are the same for both games, plus
/// `uci` for chess.
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
        if s.variant == "chess" {
            obj["uci"] = serde_json::json!(s.uci);
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
/// voice (both the draughts and the chess announcement).
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

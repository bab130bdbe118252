//! Backgammon by voice at the table: the speech crate's backgammon listener
//! ([`BgVoice`]: the rolls, the legal moves of the roll, the cube, the pips
//! and the table's commands; `docs/backgammon.md`, "Voice") to the
//! session's game-neutral input. A roll, a move, a cube action and a
//! resignation offered or answered are played as the typed `roll 3 1`,
//! `8/5 6/5`, `double`, `take`, `pass`, `resign 2`, `accept`, `decline`
//! ([`super::BackgammonTable`]'s `action` and `prepare`; an offer and its
//! answer, like a move, are the side to act's); "pips" is the typed
//! question `pips`.

use tandem_rules::backgammon::{Match, Phase};
use tandem_speech::backgammon::listen::{BgInput, BgLexicon, BgSaid, BgVoice, BgWords};
use tandem_speech::listen::{Decision, Lexicon, Listener};
use tandem_speech::{Announcer, Phrasebook, Utterance};

use crate::kind::AnyPosition;
use crate::voice::{GameWords, VoiceGame};

impl VoiceGame for BgVoice {
    fn fields(heard: &BgSaid) -> (&'static str, String) {
        heard.fields()
    }

    fn confidence(heard: &BgSaid) -> f64 {
        heard.confidence()
    }

    fn reply(
        d: &Decision<BgVoice>,
        l: &Listener<BgVoice>,
        announcer: &Announcer,
    ) -> Option<Utterance> {
        d.reply(l.position(), announcer, l.lexicon())
    }

    fn listened_position(pos: AnyPosition) -> Option<Match> {
        match pos {
            AnyPosition::Backgammon(m) => Some(*m),
            _ => None,
        }
    }

    fn any_position(pos: Match) -> AnyPosition {
        AnyPosition::Backgammon(Box::new(pos))
    }

    fn move_text(pos: &Match, m: &BgInput) -> String {
        m.text(pos)
    }

    fn words(book: &Phrasebook, own: Option<&GameWords>) -> BgWords {
        own.and_then(|w| w.get::<BgWords>().cloned())
            .unwrap_or_else(|| {
                let moves = BgLexicon::builtin(book.language())
                    .or_else(|| BgLexicon::builtin("en"))
                    .expect("the built-in English backgammon words load");
                BgWords::new(moves, Lexicon::from_phrasebook(book))
            })
    }

    fn turn_bound(pos: &Match, m: &BgInput) -> bool {
        // 004 4.1: each player rolls one die for the opening; either may
        // enter both.
        !(pos.phase() == Phase::Opening && matches!(m, BgInput::Roll(_)))
    }
}

/// The words of a backgammon phrasebook file (`--phrasebook`) for voice
/// input: its `[numbers]` and `[listen]`, and its `[listen.commands]` if it
/// has them, else the commands of `table` (the table's phrasebook).
///
/// # Errors
/// The file does not read, or is not a backgammon phrasebook with the
/// listening words.
pub fn file_words(path: &std::path::Path, table: &Phrasebook) -> anyhow::Result<GameWords> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("--phrasebook {}: {e}", path.display()))?;
    let base = Lexicon::from_phrasebook(table);
    let moves = BgLexicon::from_toml_str(&text, &base)
        .map_err(|e| anyhow::anyhow!("--phrasebook {}: {e}", path.display()))?;
    let commands = tandem_speech::listen::command_words(path, base)
        .map_err(|e| anyhow::anyhow!("--phrasebook {e}"))?;
    Ok(GameWords::new(BgWords::new(moves, commands)))
}

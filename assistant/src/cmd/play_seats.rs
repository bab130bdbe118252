//! `tandem play --seat`: each seat's microphone (`mic=DEVICE`) gets a voice
//! thread of its own, with its own recognizer, read-back and yes/no, in
//! the seat's language; what it hears is that seat's request (a move only
//! for its side, on its turn: docs/seats.md). The seat's own speech output
//! mutes its microphone while it speaks, so tandem does not hear itself.

use tandem_rules::Color;

use crate::config::Config;
use crate::game_book::GameBook;
use crate::journal::Source;
use crate::session::{Cmd, Session, SessionHandle};
use crate::voice::{SpeakingState, VoiceLink, VoiceSetup};

/// A seat's voice input, decided before the session runs.
pub(super) struct SeatVoice {
    side: Color,
    /// The thread's setup and its control channel, when it listens.
    listening: Option<(
        VoiceSetup,
        std::sync::mpsc::Receiver<crate::voice::VoiceCtl>,
    )>,
    speaking: SpeakingState,
    /// What is said to the seat at start: whether it listens, else why not.
    status: String,
}

/// The speaking state of each seat that has a microphone: its speech
/// output marks when it speaks, its voice thread mutes meanwhile.
pub(super) fn speaking_states(config: &Config) -> Vec<(Color, SpeakingState)> {
    config
        .seats
        .iter()
        .filter(|s| s.mic.is_some())
        .map(|s| (s.side, SpeakingState::default()))
        .collect()
}

/// Decides each seat's voice input (a model for its language, its
/// microphone there) and links the session to each that listens.
///
/// # Errors
/// The game's words for listening do not read.
pub(super) fn decide(
    config: &Config,
    session: &mut Session,
    books: &GameBook,
    table_book: Option<&tandem_speech::Phrasebook>,
    speaking: &[(Color, SpeakingState)],
) -> anyhow::Result<Vec<SeatVoice>> {
    let mut out = Vec::new();
    for seat in config.seats.iter().filter(|s| s.mic.is_some()) {
        let lang = seat
            .lang
            .clone()
            .unwrap_or_else(|| session.table().info.lang.clone());
        let mut req = config.voice_input.clone();
        req.mic.clone_from(&seat.mic);
        let (voice, status) =
            crate::voice_start::decide(&req, &lang, crate::voice_start::probe_microphone);
        let speaking = speaking
            .iter()
            .find(|(side, _)| *side == seat.side)
            .map_or_else(SpeakingState::default, |(_, s)| s.clone());
        let listening = match voice {
            Some(v) => {
                let (tx, rx) = std::sync::mpsc::channel();
                session.set_voice(VoiceLink::new(tx, v.push_to_talk).for_seat(seat.side));
                // The table's phrasebook (`--phrasebook`) where the seat
                // speaks the table's language, else the seat's language's.
                let book = match table_book {
                    Some(b) if seat.lang.is_none() || b.language() == lang => b.clone(),
                    _ => tandem_speech::Phrasebook::builtin(&lang)
                        .unwrap_or_else(tandem_speech::Phrasebook::english),
                };
                let game = &session.table().game;
                let words = game.kind().voice_words(books, &book, &lang)?;
                let setup = VoiceSetup {
                    config: v,
                    book,
                    words,
                    ply: game.ply() as u32,
                    pos: game.position(),
                };
                Some((setup, rx))
            }
            None => None,
        };
        let _ = std::io::Write::write_fmt(
            &mut std::io::stderr(),
            format_args!("tandem: seat {}: {}\n", seat.side, status.detail()),
        );
        out.push(SeatVoice {
            side: seat.side,
            listening,
            speaking,
            status: status.text(&lang),
        });
    }
    Ok(out)
}

/// Starts each seat's voice thread and tells each seat whether it listens.
///
/// # Errors
/// A thread cannot be started.
pub(super) fn start(voices: Vec<SeatVoice>, handle: &SessionHandle) -> anyhow::Result<()> {
    for v in voices {
        let side = v.side;
        if let Some((setup, rx)) = v.listening {
            // Not joined: it may wait on a microphone that is gone; it ends
            // when the session does.
            let to_session = handle.clone();
            crate::voice_thread::spawn(
                setup,
                Box::new(move |heard| to_session.blocking_voice_as(heard, Some(side))),
                rx,
                v.speaking,
            )?;
        }
        let h = handle.clone();
        let text = v.status;
        tokio::spawn(async move {
            let _ = h
                .request_as(Cmd::Say(text), Source::Tandem, Some(side))
                .await;
        });
    }
    Ok(())
}

/// The seats' e-boards (`--seat SIDE:board=chesslink:PATH`; docs/eboards.md),
/// one part each, for a game whose positions an e-board can show.
///
/// # Errors
/// A board for a game that has none (draughts, backgammon).
pub(super) fn eboard_parts(
    config: &Config,
    game: &dyn crate::interface::Game,
) -> anyhow::Result<Vec<crate::eboard::EboardPart>> {
    let parts: Vec<_> = config
        .seats
        .iter()
        .filter_map(crate::eboard::EboardPart::from_seat)
        .collect();
    if !parts.is_empty() && game.board_sight().is_none() {
        anyhow::bail!(
            "--seat …:board=…: e-boards are for chess (no {} e-board protocol is published; docs/eboards.md)",
            game.kind().name()
        );
    }
    Ok(parts)
}

//! `tandem play --seat`: each player's own channel as a part (docs/seats.md):
//! the seat's speech task and braille display (`outputs::start_seat`), the
//! thread that hands its display's keys to the session as the seat's, and
//! its microphone (`mic=DEVICE`): a voice thread of its own, with its own
//! recognizer, read-back and yes/no, in the seat's language; what it hears
//! is that seat's request (a move only for its side, on its turn). The
//! seat's own speech output mutes its microphone while it speaks, so tandem
//! does not hear itself.

use tandem_rules::Color;

use super::{Game, Opens, Part, Running, Table};
use crate::config::Config;
use crate::game_book::GameBook;
use crate::journal::Source;
use crate::seat::{SeatBraille, SeatSpec};
use crate::session::{Cmd, Session, SessionHandle};
use crate::voice::{SpeakingState, VoiceLink, VoiceSetup};
use crate::voice_start::VoiceRequest;

/// The seats of `--seat`, white first.
pub struct SeatsPart {
    specs: Vec<SeatSpec>,
    /// The table's voice settings, each seat with its own microphone.
    voice: VoiceRequest,
    /// The table's language, for a seat without its own.
    lang: String,
    start: crate::kind::AnyPosition,
    speaking: Vec<(Color, SpeakingState)>,
    started: Vec<crate::outputs::SeatStarted>,
    voices: Vec<SeatVoice>,
}

impl SeatsPart {
    /// The seats, with `--seat`.
    #[must_use]
    pub fn of(config: &Config) -> Option<Box<dyn Part>> {
        (!config.seats.is_empty()).then(|| {
            Box::new(SeatsPart {
                specs: config.seats.clone(),
                voice: config.voice_input.clone(),
                lang: config.setup.lang.clone(),
                start: config.setup.start.clone(),
                speaking: speaking_states(&config.seats),
                started: Vec::new(),
                voices: Vec::new(),
            }) as Box<dyn Part>
        })
    }
}

impl Part for SeatsPart {
    fn name(&self) -> &'static str {
        "seats"
    }

    fn opens(&self) -> Opens {
        self.specs.iter().fold(Opens::none(), |o, s| {
            let braille = match &s.braille {
                SeatBraille::None => Opens::none(),
                SeatBraille::Terminal => {
                    super::outputs::braille_opens(crate::config::BrailleChoice::Terminal, None)
                }
                SeatBraille::Brlapi(h) => {
                    super::outputs::braille_opens(crate::config::BrailleChoice::Brlapi, Some(h))
                }
            };
            let mic = match &s.mic {
                Some(m) => super::inputs::mic_opens(self.voice.switch, Some(m)),
                None => Opens::none(),
            };
            o.and(super::outputs::speech_opens(&s.speech))
                .and(braille)
                .and(mic)
        })
    }

    /// Each seat's outputs: what the session sends to.
    fn prepare(&mut self, table: &mut Table) -> anyhow::Result<()> {
        let turn = self.start.turn();
        for spec in &self.specs {
            let seat = crate::outputs::start_seat(
                spec,
                &self.lang,
                table.headless,
                self.start.clone().braille_board(spec.side),
                tandem_braille::StatusInfo::new(turn),
                self.speaking
                    .iter()
                    .find(|(side, _)| *side == spec.side)
                    .map(|(_, s)| s.clone()),
            );
            table.out.seats.push(seat.output.clone());
            self.started.push(seat);
        }
        Ok(())
    }

    fn attach(&mut self, _table: &mut Table, game: &mut Game<'_>) -> anyhow::Result<()> {
        self.voices = decide(
            &self.specs,
            &self.voice,
            game.session,
            game.books,
            game.book,
            &self.speaking,
        )?;
        Ok(())
    }

    fn start(&mut self, table: &mut Table, run: &Running<'_>) -> anyhow::Result<()> {
        start(std::mem::take(&mut self.voices), run.handle)?;
        for seat in &mut self.started {
            if let Some(b) = seat.braille.as_mut() {
                super::outputs::keys_thread(b, table, run, Some(seat.output.side))?;
            }
        }
        Ok(())
    }
}

/// A seat's voice input, decided before the session runs.
struct SeatVoice {
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
fn speaking_states(seats: &[SeatSpec]) -> Vec<(Color, SpeakingState)> {
    seats
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
fn decide(
    seats: &[SeatSpec],
    request: &VoiceRequest,
    session: &mut Session,
    books: &GameBook,
    table_book: Option<&tandem_speech::Phrasebook>,
    speaking: &[(Color, SpeakingState)],
) -> anyhow::Result<Vec<SeatVoice>> {
    let mut out = Vec::new();
    for seat in seats.iter().filter(|s| s.mic.is_some()) {
        let lang = seat
            .lang
            .clone()
            .unwrap_or_else(|| session.table().info.lang.clone());
        let mut req = request.clone();
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
fn start(voices: Vec<SeatVoice>, handle: &SessionHandle) -> anyhow::Result<()> {
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

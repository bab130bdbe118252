//! The real Vosk recognizer (the Korean model) with the backgammon grammar
//! of the Korean backgammon test phrasebook (`tests/data/backgammon-ko.toml`):
//! every word known, and espeak-ng's Korean roll and move heard through the
//! grammar of the state.

use std::path::{Path, PathBuf};

use tandem_rules::backgammon::{Action as Act, Board, Dice, Match, MatchOptions};
use tandem_rules::Color;
use tandem_speech::backgammon::listen::{BgHeard, BgInput, BgLexicon, BgSaid, BgVoice, BgWords};
use tandem_speech::listen::command_words;
use tandem_speech::listen::fixture::korean_model;
use tandem_speech::listen::vosk::{set_log_level, VoskRecognizer};
use tandem_speech::listen::{
    read_wav_16k, Action, ConfirmPolicy, Lexicon, ListenGame, Listener, Transcript,
};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The move 24/22 24/20 (of the roll 4-2) as espeak-ng says it to the test.
const MOVE: &str = "이십 사 이십 이십 사 이십 이";

fn korean_words() -> BgWords {
    let path = data("backgammon-ko.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let moves = BgLexicon::from_toml_str(&text, &Lexicon::english()).unwrap();
    BgWords::new(moves, command_words(&path, Lexicon::english()).unwrap())
}

fn espeak(dir: &Path, text: &str) -> Vec<i16> {
    let wav = dir.join("u.wav");
    tandem_speech::listen::fixture::espeak_korean(&wav, text);
    read_wav_16k(&wav).unwrap()
}

#[test]
fn the_korean_book_s_words_understand_typed_transcripts() {
    let w = korean_words();
    let m = Match::new(MatchOptions { length: 7 });
    let g = BgVoice::grammar(&m, &w);
    let heard = |m: &Match, g, t: &str| BgVoice::understand(m, g, &w, &[Transcript::text(t)]);
    assert!(matches!(
        heard(&m, &g, "삼 일"),
        BgSaid::Bg(BgHeard::Move {
            input: BgInput::Roll(Dice(3, 1)),
            ..
        })
    ));
    let mut m = m;
    m.act(Act::Roll(Dice(3, 1))).unwrap();
    let g = BgVoice::grammar(&m, &w);
    for t in ["팔 오 육 오", "팔오 육오", "육 오 팔 오"] {
        assert!(
            matches!(heard(&m, &g, t), BgSaid::Bg(BgHeard::Move { ref text, .. }) if text == "8/5 6/5"),
            "{t}"
        );
    }
    assert!(
        matches!(heard(&m, &g, "이십 사 이십 일 이십 일 이십"), BgSaid::Bg(BgHeard::Move { ref text, .. }) if text == "24/20")
    );
    assert!(matches!(heard(&m, &g, "네"), BgSaid::Command(_)));
}

/// `audio` after half a second of quiet and before two seconds of it,
/// 20 ms at a time, as the daemon feeds the microphone: the decisions.
fn stream(
    l: &mut Listener<BgVoice>,
    audio: &[i16],
) -> Vec<tandem_speech::listen::Decision<BgVoice>> {
    let mut all = vec![0i16; 8000];
    all.extend_from_slice(audio);
    all.extend(vec![0i16; 32000]);
    all.chunks_exact(320)
        .filter_map(|f| l.push_frame(f).unwrap())
        .collect()
}

/// Every word of the Korean book is known to the model; espeak-ng's
/// opening roll 4-2 ("사, 이": white's die first) and the move 24/22 24/20
/// of that roll ([`MOVE`]) are heard through the listener's endpointing as
/// the daemon hears them, and read back. Checked once to come back so
/// (espeak-ng and Vosk are deterministic): "팔" for 8 comes back as "사",
/// and with commas between the points the pauses make the recognizer hear
/// "이십 이" twice.
#[test]
fn every_word_is_known_and_a_spoken_roll_and_move_are_heard() {
    let Some(model) = korean_model() else { return };
    set_log_level(-1);
    let rec = VoskRecognizer::new(&model, &[]).unwrap();
    let mut l: Listener<BgVoice> = Listener::for_game(
        Box::new(rec),
        korean_words(),
        ConfirmPolicy::Always,
        tandem_speech::listen::audio::Mode::Voice(Default::default()),
        Match::new(MatchOptions { length: 7 }),
    )
    .unwrap();
    assert_eq!(l.missing_words(), Vec::<String>::new().as_slice());
    let dir = tempfile::tempdir().unwrap();
    let d = stream(&mut l, &espeak(dir.path(), "사, 이"));
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        d[0].action,
        Action::ConfirmMove(BgInput::Roll(Dice(4, 2))),
        "{d:?}"
    );
    let mut rolled = Match::from_board(MatchOptions { length: 7 }, Board::start(Color::White));
    rolled.act(Act::Roll(Dice(4, 2))).unwrap();
    let play = rolled.resolve("24/22 24/20").unwrap();
    l.set_position(rolled).unwrap();
    let d = stream(&mut l, &espeak(dir.path(), MOVE));
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        d[0].action,
        Action::ConfirmMove(BgInput::Play(play)),
        "{d:?}"
    );
}

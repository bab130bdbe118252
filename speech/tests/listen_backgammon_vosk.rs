//! The real Vosk recognizer (the Korean model) with the backgammon grammar
//! of the Korean backgammon test phrasebook (`tests/data/backgammon-ko.toml`):
//! every word known, and espeak-ng's Korean roll and move heard through the
//! grammar of the state.

use std::path::{Path, PathBuf};

use tandem_rules::backgammon::{Action, Board, Dice, Match, MatchOptions};
use tandem_rules::Color;
use tandem_speech::backgammon_listen::{BgInput, BgLexicon, BgSaid, BgVoice, BgWords, BgHeard};
use tandem_speech::chess_listen::command_words;
use tandem_speech::listen::fixture::korean_model;
use tandem_speech::listen::vosk::{set_log_level, VoskRecognizer};
use tandem_speech::listen::{
    read_wav_16k, ConfirmPolicy, Lexicon, ListenGame, Listener, Recognizer, Transcript,
};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn korean_words() -> BgWords {
    let path = data("backgammon-ko.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let moves = BgLexicon::from_toml_str(&text, &Lexicon::english()).unwrap();
    BgWords::new(moves, command_words(&path, Lexicon::english()).unwrap())
}

fn espeak(dir: &Path, text: &str) -> Vec<i16> {
    let wav = dir.join("u.wav");
    let st = std::process::Command::new("espeak-ng")
        .args(["-v", "ko", "-w"])
        .arg(&wav)
        .arg(text)
        .status()
        .expect("espeak-ng must be installed for this test");
    assert!(st.success());
    read_wav_16k(&wav).unwrap()
}

#[test]
fn the_korean_book_s_words_understand_typed_transcripts() {
    let w = korean_words();
    let m = Match::new(MatchOptions { length: 7 });
    let g = BgVoice::grammar(&m, &w);
    let heard = |m: &Match, g, t: &str| BgVoice::understand(m, g, &w, &[Transcript::text(t)]);
    assert!(matches!(heard(&m, &g, "삼 일"), BgSaid::Bg(BgHeard::Move { input: BgInput::Roll(Dice(3, 1)), .. })));
    let mut m = m;
    m.act(Action::Roll(Dice(3, 1))).unwrap();
    let g = BgVoice::grammar(&m, &w);
    for t in ["팔 오 육 오", "팔오 육오", "육 오 팔 오"] {
        assert!(
            matches!(heard(&m, &g, t), BgSaid::Bg(BgHeard::Move { ref text, .. }) if text == "8/5 6/5"),
            "{t}"
        );
    }
    assert!(matches!(heard(&m, &g, "이십 사 이십 일 이십 일 이십"), BgSaid::Bg(BgHeard::Move { ref text, .. }) if text == "24/20"));
    assert!(matches!(heard(&m, &g, "네"), BgSaid::Command(_)));
}

#[test]
fn every_word_is_known_and_a_spoken_roll_and_move_are_heard() {
    let Some(model) = korean_model() else { return };
    set_log_level(-1);
    let rec = VoskRecognizer::new(&model, &[]).unwrap();
    let opening = Match::new(MatchOptions { length: 7 });
    let l: Listener<BgVoice> = Listener::for_game(
        Box::new(rec),
        korean_words(),
        ConfirmPolicy::Always,
        tandem_speech::listen::audio::Mode::Voice(Default::default()),
        opening.clone(),
    )
    .unwrap();
    assert_eq!(l.missing_words(), Vec::<String>::new().as_slice());
    let dir = tempfile::tempdir().unwrap();
    let mut rolled = Match::from_board(MatchOptions { length: 7 }, Board::start(Color::White));
    rolled.act(Action::Roll(Dice(4, 2))).unwrap();
    // espeak-ng's Korean and the model agree on these (checked once; both
    // are deterministic): the opening roll 4-2 (white's die first) and the
    // move 24/22 24/20 of that roll ("팔" for 8 comes back as "사").
    for (m, said, text) in [
        (&opening, "사, 이", "roll 4 2"),
        (&rolled, "이십 사, 이십, 이십 사, 이십 이", "24/22 24/20"),
    ] {
        let g = BgVoice::grammar(m, l.lexicon());
        let mut rec = VoskRecognizer::new(&model, &BgVoice::recognizer_phrases(&g)).unwrap();
        rec.accept(&espeak(dir.path(), said)).unwrap();
        let t = rec.finish().unwrap();
        let h = BgVoice::understand(m, &g, l.lexicon(), &t);
        assert_eq!(h.fields(), ("move", text.to_owned()), "{said}: {t:?} {h:?}");
    }
}

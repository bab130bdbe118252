//! The real Vosk recognizer (the Korean model) with the chess grammar of
//! the Korean chess test phrasebook (`tests/data/chess-ko.toml`).

use std::path::{Path, PathBuf};

use tandem_speech::chess::listen::{command_words, ChessVoice, ChessWords};
use tandem_speech::chess::ChessPhrasebook;
use tandem_speech::listen::fixture::{korean_model, korean_phrasebook_path};
use tandem_speech::listen::vosk::{set_log_level, VoskRecognizer};
use tandem_speech::listen::{
    read_wav_16k, Action, CommandKind, ConfirmPolicy, Lexicon, ListenGame, Listener, Recognizer,
    Transcript,
};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn korean_chess_words() -> ChessWords {
    let path = data("chess-ko.toml");
    let book = ChessPhrasebook::from_file(&path).unwrap();
    let commands = command_words(&path, Lexicon::english()).unwrap();
    ChessWords::new(&book, commands)
}

#[test]
fn the_korean_chess_book_loads_with_its_own_commands() {
    let w = korean_chess_words();
    let g = ChessVoice::grammar(&tandem_rules::chess::start(), &w);
    let phrases = ChessVoice::recognizer_phrases(&g);
    assert!(phrases.iter().any(|p| p == "오 이 오 사"), "e2 e4");
    assert!(phrases.iter().any(|p| p == "나이트 칠 일 육 삼"), "Ng1-f3");
    assert!(
        phrases.iter().any(|p| p == "네"),
        "yes, from [listen.commands]"
    );
    assert!(
        !phrases.iter().any(|p| p == "yes"),
        "the English commands are replaced"
    );
    // A draughts phrasebook's commands stay when the file has none.
    let base = Lexicon::from_file(&korean_phrasebook_path()).unwrap();
    let en = command_words(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("phrasebooks/chess/en.toml"),
        base,
    )
    .unwrap();
    assert!(en.commands.contains_key(&CommandKind::Yes));
}

#[test]
fn every_word_is_known_and_a_spoken_move_is_heard_with_the_chess_grammar() {
    let Some(model) = korean_model() else { return };
    set_log_level(-1);
    let rec = VoskRecognizer::new(&model, &[]).unwrap();
    let mut l: Listener<ChessVoice> = Listener::for_game(
        Box::new(rec),
        korean_chess_words(),
        ConfirmPolicy::Always,
        tandem_speech::listen::audio::Mode::Voice(Default::default()),
        tandem_rules::chess::start(),
    )
    .unwrap();
    assert_eq!(l.missing_words(), Vec::<String>::new().as_slice());

    // espeak-ng's Korean "e2 e4", decoded by Vosk with the chess grammar.
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("e2e4.wav");
    tandem_speech::listen::fixture::espeak_korean(&wav, "오, 이, 오, 사");
    let mut rec =
        VoskRecognizer::new(&model, &ChessVoice::recognizer_phrases(l.grammar())).unwrap();
    rec.accept(&read_wav_16k(&wav).unwrap()).unwrap();
    let t = rec.finish().unwrap();
    let d = l.hear(&t);
    let Action::ConfirmMove(m) = d.action else {
        panic!("{t:?} -> {d:?}")
    };
    assert_eq!(tandem_rules::chess::san(l.position(), &m), "e4");
    // And the checked-in "네" confirms it.
    rec.accept(&read_wav_16k(&data("ko-yes.wav")).unwrap())
        .unwrap();
    let t: Vec<Transcript> = rec.finish().unwrap();
    assert_eq!(l.hear(&t).action, Action::Play(m), "{t:?}");
}

//! The listener in chess (`Listener<ChessVoice>`): the draughts listener's
//! confirmation flow and endpointing over the chess grammar, fed typed
//! transcripts or a scripted recognizer (no model here: the real Vosk
//! recognizer with the chess grammar is in `listen_chess_vosk.rs` and in
//! the daemon's `assistant/tests/voice_chess_e2e.rs`).

use tandem_rules::chess::{from_fen, san, start};
use tandem_speech::chess::listen::{ChessSaid, ChessVoice, ChessWords};
use tandem_speech::chess::ChessPhrasebook;
use tandem_speech::listen::audio::{Mode, VadConfig, FRAME};
use tandem_speech::listen::{
    Action, CommandKind, ConfirmPolicy, Lexicon, ListenGame, Listener, ScriptedRecognizer,
    Transcript,
};
use tandem_speech::{AnnounceOptions, Announcer, Phrasebook};

fn words() -> ChessWords {
    ChessWords::new(&ChessPhrasebook::polish(), Lexicon::polish())
}

fn listener(fen: Option<&str>, policy: ConfirmPolicy) -> Listener<ChessVoice> {
    let pos = fen.map_or_else(start, |f| from_fen(f).unwrap());
    Listener::for_game(
        Box::new(ScriptedRecognizer::default()),
        words(),
        policy,
        Mode::Voice(VadConfig::default()),
        pos,
    )
    .unwrap()
}

fn hear(
    l: &mut Listener<ChessVoice>,
    text: &str,
) -> Action<tandem_rules::chess::ChessMove, tandem_rules::chess::ChessError> {
    l.hear(&[Transcript::text(text)]).action
}

fn announcer() -> Announcer {
    Announcer::new(Phrasebook::polish(), AnnounceOptions::default())
}

#[test]
fn a_move_is_read_back_in_the_chess_words_and_played_on_tak() {
    let mut l = listener(None, ConfirmPolicy::Always);
    let d = l.hear(&[Transcript::text("skoczek Feliks trzy")]);
    let Action::ConfirmMove(m) = d.action else {
        panic!("{d:?}")
    };
    assert_eq!(san(l.position(), &m), "Nf3");
    let reply = d
        .reply(l.position(), &announcer(), l.lexicon())
        .unwrap()
        .text();
    assert!(
        reply.contains("Gustaw jeden") && reply.contains("Feliks trzy"),
        "{reply}"
    );
    assert!(l.is_pending());
    // A clock request leaves the read-back pending.
    assert_eq!(
        hear(&mut l, "zegar"),
        Action::Command(CommandKind::Clock, None)
    );
    let Action::Play(played) = hear(&mut l, "tak") else {
        panic!()
    };
    assert_eq!(played, m);
    assert!(!l.is_pending());
    // "tak" with nothing read back confirms nothing.
    assert_eq!(hear(&mut l, "tak"), Action::Command(CommandKind::Yes, None));
}

#[test]
fn no_cancels_and_a_new_move_replaces_the_read_back() {
    let mut l = listener(None, ConfirmPolicy::Always);
    assert!(matches!(
        hear(&mut l, "Ewa dwa Ewa cztery"),
        Action::ConfirmMove(_)
    ));
    let Action::ConfirmMove(m) = hear(&mut l, "Dawid dwa Dawid cztery") else {
        panic!()
    };
    assert_eq!(san(l.position(), &m), "d4");
    assert_eq!(hear(&mut l, "nie"), Action::Cancelled);
    assert_eq!(hear(&mut l, "tak"), Action::Command(CommandKind::Yes, None));
}

#[test]
fn the_policy_decides_the_read_back_and_resigning_is_always_read_back() {
    let mut l = listener(None, ConfirmPolicy::Never);
    let Action::Play(m) = hear(&mut l, "Ewa dwa Ewa cztery") else {
        panic!()
    };
    assert_eq!(san(l.position(), &m), "e4");
    assert_eq!(
        hear(&mut l, "poddaję się"),
        Action::ConfirmCommand(CommandKind::Resign)
    );
    assert_eq!(
        hear(&mut l, "tak"),
        Action::Command(CommandKind::Resign, None)
    );
}

#[test]
fn an_ambiguous_move_is_asked_back_and_never_played() {
    // Knights on b1 and f3 can both go to d2.
    let fen = "rnbqkbnr/pppppppp/8/8/8/5N2/PPP1PPPP/RNBQKB1R w KQkq - 0 1";
    let mut l = listener(Some(fen), ConfirmPolicy::Never);
    assert!(matches!(
        hear(&mut l, "Ewa dwa Ewa cztery"),
        Action::Play(_)
    ));
    let d = l.hear(&[Transcript::text("skoczek Dawid dwa")]);
    let Action::AskWhich(moves) = &d.action else {
        panic!("{d:?}")
    };
    let sans: Vec<String> = moves.iter().map(|m| san(l.position(), m)).collect();
    assert_eq!(sans, ["Nbd2", "Nfd2"]);
    let q = d
        .reply(l.position(), &announcer(), l.lexicon())
        .unwrap()
        .text();
    assert_eq!(q, "Który skoczek: Bella jeden czy Feliks trzy?");
    assert_eq!(d.heard.fields(), ("ambiguous", "Nbd2 Nfd2".to_owned()));
    assert!(
        !l.is_pending(),
        "nothing waits: the player says the move again"
    );
    // "tak" now plays nothing.
    assert_eq!(hear(&mut l, "tak"), Action::Command(CommandKind::Yes, None));
}

#[test]
fn an_illegal_move_is_refused_with_the_reason() {
    let mut l = listener(None, ConfirmPolicy::Always);
    assert!(matches!(
        hear(&mut l, "Ewa dwa Ewa cztery"),
        Action::ConfirmMove(_)
    ));
    let d = l.hear(&[Transcript::text("Ewa dwa Ewa pięć")]);
    let Action::Refuse { text, .. } = &d.action else {
        panic!("{d:?}")
    };
    assert_eq!(text, "e2e5");
    assert!(!l.is_pending(), "a refusal drops the read-back");
    let why = d
        .reply(l.position(), &announcer(), l.lexicon())
        .unwrap()
        .text();
    assert!(why.contains("Ewa dwa") && why.contains("Ewa pięć"), "{why}");
    assert!(matches!(
        d.heard,
        ChessSaid::Chess(tandem_speech::chess::listen::ChessHeard::Illegal { .. })
    ));
    // Nothing clear: say again.
    assert_eq!(hear(&mut l, "dzień dobry wszystkim"), Action::Repeat);
}

#[test]
fn the_grammar_follows_the_position_and_holds_moves_and_commands() {
    let mut l = listener(None, ConfirmPolicy::Always);
    let phrases = ChessVoice::recognizer_phrases(l.grammar());
    assert!(phrases.iter().any(|p| p == "ewa dwa ewa cztery"), "moves");
    assert!(phrases.iter().any(|p| p == "zegar"), "commands");
    assert!(phrases.iter().any(|p| p == "[unk]"));
    assert!(
        !phrases.iter().any(|p| p == "pole trzydzieści dwa"),
        "no draughts square N in chess"
    );
    // The chess square is a question about the board (issue 23).
    assert!(phrases.iter().any(|p| p == "pole ewa cztery"), "square e4");
    assert!(matches!(
        hear(&mut l, "Ewa dwa Ewa cztery"),
        Action::ConfirmMove(_)
    ));
    let after = from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    l.set_position(after).unwrap();
    assert!(!l.is_pending(), "a new position drops the read-back");
    let Action::ConfirmMove(m) = hear(&mut l, "Ewa siedem Ewa pięć") else {
        panic!()
    };
    assert_eq!(san(l.position(), &m), "e5");
}

#[test]
fn whole_phrases_end_early_and_a_promotion_without_the_piece_waits() {
    let w = words();
    let g = ChessVoice::grammar(&start(), &w);
    let complete = |t: &str| ChessVoice::is_complete(&g, &w, t);
    assert!(complete("Ewa dwa Ewa cztery"));
    assert!(complete("e2 e4"));
    assert!(complete("skoczek Feliks trzy"));
    assert!(complete("zegar"));
    assert!(!complete("skoczek"), "half a move");
    assert!(!complete("Ewa dwa"), "the start square: the end may follow");
    assert!(!complete(""));
    assert!(
        !complete("Ewa dwa Ewa pięć"),
        "illegal moves wait out the silence"
    );
    let promo = from_fen("8/4P3/8/8/8/8/8/k6K w - - 0 1").unwrap();
    let g = ChessVoice::grammar(&promo, &w);
    assert!(
        !ChessVoice::is_complete(&g, &w, "Ewa siedem Ewa osiem"),
        "the piece may follow"
    );
    assert!(ChessVoice::is_complete(
        &g,
        &w,
        "Ewa siedem Ewa osiem hetman"
    ));
}

#[test]
fn a_whole_chess_phrase_ends_after_100_ms_of_silence() {
    let mut rec = ScriptedRecognizer::new(vec![vec![Transcript::text("Ewa dwa Ewa cztery")]]);
    rec.early = true;
    let mut l: Listener<ChessVoice> = Listener::for_game(
        Box::new(rec),
        words(),
        ConfirmPolicy::Always,
        Mode::Voice(VadConfig::default()),
        start(),
    )
    .unwrap();
    let loud: Vec<i16> = (0..FRAME)
        .map(|i| if i % 2 == 0 { 8000 } else { -8000 })
        .collect();
    for _ in 0..20 {
        assert!(l.push_frame(&loud).unwrap().is_none());
    }
    let quiet = vec![0i16; FRAME];
    let n = (1..=40)
        .find_map(|n| l.push_frame(&quiet).unwrap().map(|d| (n, d)))
        .expect("the utterance ends");
    assert_eq!(n.0, 5, "5 quiet frames of 20 ms");
    assert!(matches!(n.1.action, Action::ConfirmMove(_)), "{:?}", n.1);
}

//! Draughts' grammar, its square words and the shared matcher and
//! listener machinery with draughts as the example.

use super::*;
use crate::listen::lexicon::words_of;
use crate::listen::matcher::Costs;

/// The built-in Polish words.
fn pl() -> Lexicon {
    Lexicon::draughts_builtin("pl").unwrap()
}

/// The built-in English words.
fn en() -> Lexicon {
    Lexicon::draughts_builtin("en").unwrap()
}

fn hear(lex: &Lexicon, fen: Option<&str>, text: &str) -> Heard {
    let pos = fen.map_or_else(
        || Position::start(Variant::International),
        |f| Position::from_fen(Variant::International, f).unwrap(),
    );
    let g = Grammar::build(&pos, lex);
    understand(&pos, &g, lex, &[Transcript::text(text)])
}

#[test]
fn start_position_phrases_cover_every_legal_move() {
    let pos = Position::start(Variant::International);
    let g = Grammar::build(&pos, &pl());
    for i in 0..g.moves.len() {
        assert!(g.phrases.iter().any(|p| p.meaning == Meaning::Move(i)));
    }
    let phr = g.recognizer_phrases();
    assert!(phr.contains(&"z trzydziestu dwóch na dwadzieścia osiem".to_owned()));
    assert_eq!(phr.last().map(String::as_str), Some("[unk]"));
}

#[test]
fn exact_move_has_full_confidence() {
    let h = hear(&pl(), None, "trzydzieści dwa na dwadzieścia osiem");
    assert!(
        matches!(&h, Heard::Move { notation, confidence, .. } if notation == "32-28" && *confidence == 1.0),
        "{h:?}"
    );
    assert!(!h.needs_confirmation(ConfirmPolicy::BelowConfidence(0.9)));
    assert!(h.needs_confirmation(ConfirmPolicy::Always));
}

#[test]
fn illegal_move_is_never_a_move() {
    let h = hear(&en(), None, "thirty two twenty six");
    assert!(
        matches!(
            h,
            Heard::Illegal {
                from: 32,
                to: 26,
                reason: IllegalReason::Unreachable,
                ..
            }
        ),
        "{h:?}"
    );
    let h = hear(&en(), None, "eighteen twenty three");
    assert!(
        matches!(
            h,
            Heard::Illegal {
                reason: IllegalReason::NotYourPiece,
                ..
            }
        ),
        "{h:?}"
    );
}

#[test]
fn the_reason_is_the_rules_engine_s_in_the_announcer_s_words() {
    let pl = pl();
    let fen = "W:W27,40:B22,49";
    let h = hear(&pl, Some(fen), "czterdzieści trzydzieści pięć");
    let pos = Position::from_fen(Variant::International, fen).unwrap();
    let err = resolve(&pos, "40-35").unwrap_err();
    let said = pl.announcer().on_rejected(&pos, "40-35", &err).text();
    assert!(said.starts_with("Bicie jest obowiązkowe"), "{said}");
    assert_eq!(
        h,
        Heard::Illegal {
            from: 40,
            to: 35,
            text: "40-35".to_owned(),
            reason: IllegalReason::CaptureCompulsory,
            message: said,
            transcript: "czterdzieści trzydzieści pięć".to_owned(),
            error: err,
        }
    );
    // Squares that do name a legal move, lost in noise: not a guess,
    // and not a refusal either.
    let h = hear(&pl, None, "trzydzieści dwa eee eee eee dwadzieścia osiem");
    assert!(matches!(h, Heard::Unknown { .. }), "{h:?}");
}

#[test]
fn resign_is_always_confirmed() {
    let h = hear(&en(), None, "resign");
    assert!(h.needs_confirmation(ConfirmPolicy::Never));
}

// Moved from the shared lexicon: draughts' square words.

/// The ways a square of the 64-square board is said, each as one text.
fn sixty_four_forms(lex: &Lexicon, sq: Square) -> Vec<String> {
    lex.square(Variant::SixtyFour, sq)
        .iter()
        .map(|w| w.join(" "))
        .collect()
}

#[test]
fn algebraic_squares_have_every_file_word() {
    let pl = pl();
    let c3 = Square::new(22).unwrap();
    let forms = sixty_four_forms(&pl, c3);
    for f in ["ce trzy", "cesar trzy", "c trzy", "cé trzy", "cezar trzy"] {
        assert!(forms.contains(&f.to_owned()), "{f} not in {forms:?}");
    }
    assert_eq!(
        pl.square(Variant::International, c3),
        [vec!["dwadzieścia".to_owned(), "dwa".to_owned()]]
    );
    let en = en();
    let forms = sixty_four_forms(&en, Square::new(4).unwrap());
    assert!(forms.contains(&"hector eight".to_owned()), "{forms:?}");
    assert!(forms.contains(&"aitch eight".to_owned()), "{forms:?}");
}

#[test]
fn read_square_prefers_the_longest() {
    let pl = pl();
    let v = Variant::International;
    let n = |w: &str| {
        pl.read_square(v, &words_of(w))
            .map(|(s, l)| (s.number(), l))
    };
    assert_eq!(n("trzydzieści dwa na"), Some((32, 2)));
    assert_eq!(n("trzydzieści na"), Some((30, 1)));
    assert_eq!(n("z trzydziestu"), None);
    assert_eq!(n("piec"), Some((5, 1)));
    let a = pl.read_square(Variant::SixtyFour, &words_of("cezar trzy de cztery"));
    assert_eq!(a.map(|(s, l)| (s.number(), l)), Some((22, 2)));
}

// Moved from the shared matcher: its distance against draughts' grammar.

/// The table filled cell by cell with the public per-edit costs, as
/// `distance` was computed before it worked words out once per call.
fn reference(c: &Costs<'_>, heard: &[String], phrase: &[String]) -> f32 {
    let mut prev: Vec<f32> = vec![0.0];
    for m in phrase {
        prev.push(prev[prev.len() - 1] + c.delete(m));
    }
    for h in heard {
        let mut cur = vec![prev[0] + c.insert(h)];
        for (j, m) in phrase.iter().enumerate() {
            let v = (prev[j] + c.substitute(h, m))
                .min(prev[j + 1] + c.insert(h))
                .min(cur[j] + c.delete(m));
            cur.push(v);
        }
        prev = cur;
    }
    prev[phrase.len()]
}

#[test]
fn distance_and_its_early_exit_agree_with_the_cell_by_cell_table() {
    let heard_texts = [
        "trzydzieści dwa na dwadzieścia osiem",
        "trzydzieści dwie dwadzieścia osiem",
        "piec na zegar",
        "[unk] trzydzieści trzy bije dwadzieścia dziewięć",
        "thirty two to twenty eight",
        "clock",
        "ce trzy de cztery",
        "na na na",
        "x",
    ];
    let mut compared = 0;
    for lex in [pl(), en()] {
        let c = Costs::new(&lex);
        for pos in [
            Position::start(Variant::International),
            Position::start(Variant::SixtyFour),
        ] {
            let g = Grammar::build(&pos, &lex);
            for text in heard_texts {
                let heard = lex.tokens(&words_of(text));
                // Every 7th phrase: thousands of pairs, a second in a debug build.
                for p in g.phrases.iter().step_by(7) {
                    let want = reference(&c, &heard, &p.tokens);
                    assert_eq!(
                        c.distance(&heard, &p.tokens),
                        want,
                        "{text} / {:?}",
                        p.tokens
                    );
                    let bound = MAX_COST + TIE_WINDOW;
                    let got = c.distance_within(&heard, &p.tokens, bound);
                    if want <= bound {
                        assert_eq!(got, want, "{text} / {:?}", p.tokens);
                    } else {
                        assert!(got > bound && got <= want, "{text} / {:?}: {got}", p.tokens);
                    }
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// The shared listener with draughts as the example (moved from
/// `listen/listener.rs`).
mod listener {
    use super::*;
    use crate::listen::audio::{Mode, VadConfig, FRAME};
    use crate::listen::ScriptedRecognizer;
    use crate::listen::{Action, CommandKind, ListenError, Recognizer};

    type Listener = crate::listen::Listener<Draughts>;
    type Decision = crate::listen::Decision<Draughts>;

    /// The frame (counted from the first quiet one, 1-based) at which the
    /// utterance `said` ends, spoken for 400 ms and followed by silence, when
    /// the recognizer can tell its result before the end or not.
    fn ends_after(lex: Lexicon, said: &str, early: bool) -> (usize, Decision) {
        let pos = Position::start(Variant::International);
        let mut rec = ScriptedRecognizer::new(vec![vec![Transcript::text(said)]]);
        rec.early = early;
        let mut l = Listener::new(
            Box::new(rec),
            lex,
            ConfirmPolicy::Always,
            Mode::Voice(VadConfig::default()),
            pos,
        )
        .unwrap();
        let loud: Vec<i16> = (0..FRAME)
            .map(|i| if i % 2 == 0 { 8000 } else { -8000 })
            .collect();
        for _ in 0..20 {
            assert_eq!(l.push_frame(&loud).unwrap(), None);
        }
        let quiet = vec![0i16; FRAME];
        for n in 1..=40 {
            if let Some(d) = l.push_frame(&quiet).unwrap() {
                return (n, d);
            }
        }
        panic!("{said:?} never ended");
    }

    #[test]
    fn a_whole_phrase_ends_after_100_ms_of_silence() {
        let (n, d) = ends_after(pl(), "trzydzieści dwa dwadzieścia osiem", true);
        assert_eq!(n, 5, "5 quiet frames of 20 ms");
        assert!(matches!(d.action, Action::ConfirmMove(_)), "{d:?}");
        let (n, _) = ends_after(pl(), "tak", true);
        assert_eq!(n, 5);
    }

    #[test]
    fn the_full_wait_without_an_early_result_or_when_a_longer_phrase_may_follow() {
        // A recognizer that cannot tell its result before the end: 600 ms.
        let (n, _) = ends_after(pl(), "trzydzieści dwa dwadzieścia osiem", false);
        assert_eq!(n, 30);
        // "square twenty" is a whole phrase, but "square twenty-eight" goes on.
        let (n, d) = ends_after(en(), "square twenty", true);
        assert_eq!(n, 30, "{d:?}");
        // Half a move: not a phrase.
        let (n, _) = ends_after(pl(), "trzydzieści dwa", true);
        assert_eq!(n, 30);
    }

    #[test]
    fn whole_phrases_of_the_grammar() {
        let pos = Position::start(Variant::International);
        let pl = pl();
        let g = Grammar::build(&pos, &pl);
        assert!(g.is_complete(&pl, "trzydzieści dwa dwadzieścia osiem"));
        assert!(g.is_complete(&pl, "Z trzydziestu dwóch na dwadzieścia osiem"));
        assert!(!g.is_complete(&pl, "trzydzieści dwa"));
        assert!(!g.is_complete(&pl, ""));
        // Illegal moves are phrases too (heard, to be refused with the reason).
        assert!(g.is_complete(&pl, "trzydzieści dwa dwadzieścia siedem"));
        let en = en();
        let g = Grammar::build(&pos, &en);
        assert!(g.is_complete(&en, "thirty-two twenty-eight"));
        assert!(g.is_complete(&en, "square twenty-eight"));
        assert!(!g.is_complete(&en, "square twenty"), "square 28 goes on");
    }

    /// Finishes logged by [`BurstRecognizer`]: `(early, samples held)`.
    type Finishes = std::sync::Arc<std::sync::Mutex<Vec<(bool, usize)>>>;

    /// A fake recognizer that transcribes exactly the audio fed since its
    /// last reset (no real recognizer can be told what to hear): a frame of
    /// amplitude `1000 * k` says `chunks[k - 1]`, a run of such frames once;
    /// quiet frames say nothing. Audio lost or fed twice changes the
    /// transcript, and every finish logs the samples it held.
    struct BurstRecognizer {
        chunks: Vec<&'static str>,
        heard: Vec<i16>,
        finishes: Finishes,
    }

    impl BurstRecognizer {
        fn end(&mut self, early: bool) -> Vec<Transcript> {
            let mut words = Vec::new();
            let mut last = 0;
            for f in self.heard.chunks(FRAME) {
                let k = usize::from(f.iter().map(|s| s.unsigned_abs()).max().unwrap_or(0)) / 1000;
                if k > 0 && k != last {
                    words.push(self.chunks[k - 1]);
                }
                last = k;
            }
            self.finishes
                .lock()
                .unwrap()
                .push((early, std::mem::take(&mut self.heard).len()));
            if words.is_empty() {
                Vec::new()
            } else {
                vec![Transcript::text(&words.join(" "))]
            }
        }
    }

    impl Recognizer for BurstRecognizer {
        fn set_grammar(&mut self, _phrases: &[String]) -> Result<(), ListenError> {
            Ok(())
        }
        fn accept(&mut self, samples: &[i16]) -> Result<(), ListenError> {
            assert_eq!(samples.len() % FRAME, 0, "whole frames");
            self.heard.extend_from_slice(samples);
            Ok(())
        }
        fn finish(&mut self) -> Result<Vec<Transcript>, ListenError> {
            Ok(self.end(false))
        }
        fn finish_early(&mut self) -> Result<Option<Vec<Transcript>>, ListenError> {
            Ok(Some(self.end(true)))
        }
        fn missing_words(&mut self, _words: &[String]) -> Vec<String> {
            Vec::new()
        }
    }

    /// A listener over a [`BurstRecognizer`] saying `chunks`, and its log.
    fn burst_listener(lex: Lexicon, chunks: Vec<&'static str>) -> (Listener, Finishes) {
        let finishes = Finishes::default();
        let rec = BurstRecognizer {
            chunks,
            heard: Vec::new(),
            finishes: finishes.clone(),
        };
        let l = Listener::new(
            Box::new(rec),
            lex,
            ConfirmPolicy::Always,
            Mode::Voice(VadConfig::default()),
            Position::start(Variant::International),
        )
        .unwrap();
        (l, finishes)
    }

    /// Pushes `frames` frames saying chunk `k` (0: quiet); the decisions
    /// with the number of the frame (1-based, within this call) they came on.
    fn say(l: &mut Listener, k: i16, frames: usize) -> Vec<(usize, Decision)> {
        let frame: Vec<i16> = (0..FRAME)
            .map(|i| if i % 2 == 0 { 1000 * k } else { -1000 * k })
            .collect();
        (1..=frames)
            .filter_map(|n| l.push_frame(&frame).unwrap().map(|d| (n, d)))
            .collect()
    }

    #[test]
    fn a_pause_inside_a_phrase_feeds_the_whole_utterance_again_once() {
        let (mut l, log) = burst_listener(pl(), vec!["trzydzieści dwa", "dwadzieścia osiem"]);
        assert!(say(&mut l, 0, 5).is_empty());
        assert!(say(&mut l, 1, 20).is_empty());
        // 400 ms of pause: the trial end at 100 ms finds half a move.
        assert!(say(&mut l, 0, 20).is_empty());
        assert_eq!(*log.lock().unwrap(), [(true, 30 * FRAME)], "5 + 20 + 5");
        assert!(say(&mut l, 2, 20).is_empty());
        let d = say(&mut l, 0, 40);
        assert_eq!(d.len(), 1, "{d:?}");
        let (n, d) = &d[0];
        assert_eq!(*n, 5, "a whole move: 100 ms");
        assert_eq!(d.heard.transcript(), "trzydzieści dwa dwadzieścia osiem");
        let Action::ConfirmMove(m) = d.action else {
            panic!("{d:?}")
        };
        assert_eq!((m.from().number(), m.to().number()), (32, 28));
        // Fed again from the first sample of the pre-roll, nothing twice.
        assert_eq!(
            *log.lock().unwrap(),
            [(true, 30 * FRAME), (true, (5 + 20 + 20 + 20 + 5) * FRAME)]
        );
        // The next utterance starts afresh (10 frames of pre-roll).
        assert!(say(&mut l, 1, 20).is_empty());
        assert_eq!(say(&mut l, 0, 30).len(), 1);
        assert_eq!(log.lock().unwrap()[2], (true, (10 + 20 + 5) * FRAME));
    }

    #[test]
    fn after_a_trial_that_may_go_on_the_full_silence_decides_on_its_words() {
        let (mut l, log) = burst_listener(en(), vec!["square twenty"]);
        assert!(say(&mut l, 1, 20).is_empty());
        let d = say(&mut l, 0, 40);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].0, 30, "square twenty-eight may follow: 600 ms");
        assert_eq!(
            d[0].1.action,
            Action::Command(CommandKind::Square, Some(20))
        );
        assert_eq!(
            *log.lock().unwrap(),
            [(true, 25 * FRAME)],
            "one decode: the quiet frames after the trial add no words"
        );
    }

    #[test]
    fn muting_after_a_trial_drops_the_utterance() {
        let (mut l, log) = burst_listener(pl(), vec!["trzydzieści dwa", "tak"]);
        assert!(say(&mut l, 1, 20).is_empty());
        assert!(say(&mut l, 0, 20).is_empty());
        let mute = l.mute_switch();
        mute.mute();
        assert!(say(&mut l, 0, 40).is_empty(), "no decision once muted");
        mute.unmute();
        assert!(say(&mut l, 0, 5).is_empty());
        assert!(say(&mut l, 2, 20).is_empty());
        let d = say(&mut l, 0, 40);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(
            d[0].1.heard.transcript(),
            "tak",
            "nothing of the dropped one"
        );
        assert_eq!(
            *log.lock().unwrap(),
            [(true, 25 * FRAME), (true, 30 * FRAME)],
            "the trial had reset the recognizer: no second finish on muting"
        );
    }
}

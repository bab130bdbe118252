//! Golden files: what a player hears for each scenario, one block per
//! scenario with the position, the event and the `SPEECH[prio]:` lines
//! (Orca's `SPEECH OUTPUT:` assertions, applied to moves and the clock).
//!
//! Regenerate with `UPDATE_GOLDEN=1 cargo test -p tandem-speech --test golden`
//! and review the diff.

use std::fmt::Write as _;
use std::time::Duration;

use tandem_rules::draughts::notation::resolve;
use tandem_rules::draughts::{DrawCount, DrawRule, Piece, Position, Role, Square, Variant};
use tandem_rules::{Color, DrawReason, Outcome, WinReason};
use tandem_speech::draughts::SquareDiff;
use tandem_speech::{
    AnnounceOptions, Announcer, ClockReport, Kind, Phrasebook, Priority, SideClock, SquareStyle,
    Utterance, Value,
};

struct Golden {
    out: String,
}

impl Golden {
    fn block(&mut self, name: &str, pos: Option<&Position>, event: &str, utterances: &[Utterance]) {
        writeln!(self.out, "## {name}").unwrap();
        if let Some(p) = pos {
            writeln!(self.out, "fen: {} ({})", p.to_fen(), p.variant()).unwrap();
        }
        writeln!(self.out, "event: {event}").unwrap();
        for u in utterances {
            writeln!(self.out, "{}", u.golden_line()).unwrap();
        }
        self.out.push('\n');
    }
}

fn pos(variant: Variant, fen: &str) -> Position {
    Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn intl(fen: &str) -> Position {
    pos(Variant::International, fen)
}

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

fn scenarios(book: &Phrasebook) -> String {
    let a = Announcer::new(book.clone(), AnnounceOptions::default());
    let with_landings = Announcer::new(
        book.clone(),
        AnnounceOptions {
            landings: true,
            ..AnnounceOptions::default()
        },
    );
    let mut g = Golden { out: String::new() };
    let start = Position::start(Variant::International);

    // Moves (001 ch. VIII 2.2: start and end square; captures: what to take off).
    let moves: &[(&str, Position, &str)] = &[
        ("quiet move", start, "32-28"),
        ("black's move", intl("B:W32:B19"), "19-23"),
        ("single capture", intl("W:W33:B28"), "33x22"),
        (
            "triple capture with promotion",
            intl("W:W32:B27,17,8"),
            "32x3",
        ),
        ("king capture", intl("W:WK46:B28,19"), "46x14"),
    ];
    for (name, p, text) in moves {
        let m = resolve(p, text).unwrap_or_else(|e| panic!("{name}: {text}: {e}"));
        g.block(name, Some(p), &format!("move {text}"), &[a.on_move(p, &m)]);
    }
    let p = intl("W:W32:B27,17,8");
    let m = resolve(&p, "32x3").unwrap();
    g.block(
        "landing squares on request",
        Some(&p),
        "move 32x3 (landings)",
        &[with_landings.on_move(&p, &m)],
    );
    let m = resolve(&start, "32-28").unwrap();
    g.block(
        "confirmation",
        Some(&start),
        "read back 32-28, then confirmed, then a cancel",
        &[
            a.confirm_move(&start, &m),
            a.confirmed(&start, &m),
            a.cancelled(),
        ],
    );
    g.block(
        "last move",
        Some(&start),
        "last move before and after 32-28",
        &[a.last_move(None), a.last_move(Some((&start, &m)))],
    );
    g.block("turn", None, "black to move", &[a.turn(Color::Black)]);

    // Rejections: every ResolveError variant.
    let rejections: &[(&str, Position, &str)] = &[
        ("syntax", start, "hello"),
        ("no piece", start, "28-23"),
        ("not your piece", start, "19-23"),
        ("occupied", start, "32-37"),
        ("unreachable", start, "32-26"),
        ("wrong direction", intl("W:W28:B5"), "28-32"),
        (
            "capture compulsory, one capturer",
            intl("W:W33,40:B28"),
            "40-34",
        ),
        (
            "capture compulsory, two capturers",
            intl("W:W32,33,45:B28"),
            "45-40",
        ),
        (
            "not the largest capture",
            intl("W:W32,38:B27,17,33"),
            "38x29",
        ),
        ("ambiguous capture", intl("W:WK16:B21,23,33,39"), "16x1"),
        ("no moves", intl("W:W46:B41,37"), "46-41"),
    ];
    for (name, p, text) in rejections {
        let err = resolve(p, text).expect_err(name);
        g.block(
            &format!("rejected: {name}"),
            Some(p),
            &format!("move {text}: {err}"),
            &[a.on_rejected(p, text, &err)],
        );
    }
    g.block(
        "not understood",
        None,
        "speech not understood",
        &[a.not_understood()],
    );
    g.block(
        "game over refusal",
        None,
        "a move after the end",
        &[a.game_over_refusal()],
    );

    // The clock (001 ch. VIII 5.1).
    let r = ClockReport {
        white: SideClock {
            used: Duration::from_secs(12 * 60 + 5),
            remaining: Duration::from_secs(47 * 60 + 55),
        },
        black: SideClock {
            used: Duration::from_secs(61),
            remaining: Duration::from_secs(58 * 60 + 59),
        },
        moves_made: 21,
        moves_to_control: Some(1),
    };
    g.block(
        "clock report",
        None,
        "clock: 12:05/47:55, 1:01/58:59, 21 moves, 1 to control",
        &[a.on_clock(&r)],
    );
    let r = ClockReport {
        white: SideClock {
            used: Duration::from_secs(3600 + 2 * 60),
            remaining: Duration::from_secs(22 * 60 + 2),
        },
        black: SideClock {
            used: Duration::from_secs(80 * 60),
            remaining: Duration::ZERO,
        },
        moves_made: 5,
        moves_to_control: None,
    };
    g.block(
        "clock report, no control",
        None,
        "clock: 1:02:00/22:02, 1:20:00/0:00, 5 moves",
        &[a.on_clock(&r)],
    );
    g.block(
        "low time",
        None,
        "white 2:00 left, black 0:05 left",
        &[
            a.low_time(Color::White, Duration::from_secs(120)),
            a.low_time(Color::Black, Duration::from_secs(5)),
        ],
    );
    g.block(
        "flag fall",
        None,
        "black's flag",
        &[a.flag_fall(Color::Black)],
    );
    g.block("clock stopped", None, "clock stopped", &[a.clock_stopped()]);

    // Draw rules (001 ch. I 6).
    g.block(
        "draw counters",
        None,
        "6.2 with 36 plies of 50; 6.3 with 31 plies of 32; 6.4 with 2 of 10",
        &[
            a.draw_count(&DrawCount {
                rule: DrawRule::KingMoves,
                limit: 25,
                plies: 36,
            }),
            a.draw_count(&DrawCount {
                rule: DrawRule::Endgame16,
                limit: 16,
                plies: 31,
            }),
            a.draw_count(&DrawCount {
                rule: DrawRule::Endgame5,
                limit: 5,
                plies: 2,
            }),
        ],
    );
    g.block(
        "repetition warning",
        None,
        "second occurrence",
        &[a.repetition_warning()],
    );

    // Game end.
    let ends = [
        (
            "white wins, black blocked",
            Variant::International,
            Outcome::Win {
                winner: Color::White,
                reason: WinReason::Blocked,
            },
        ),
        (
            "black wins on time",
            Variant::International,
            Outcome::Win {
                winner: Color::Black,
                reason: WinReason::Time,
            },
        ),
        (
            "white resigned",
            Variant::International,
            Outcome::Win {
                winner: Color::Black,
                reason: WinReason::Resignation,
            },
        ),
        (
            "draw by repetition",
            Variant::International,
            Outcome::Draw {
                reason: DrawReason::Repetition,
            },
        ),
        (
            "draw by the 25-move rule",
            Variant::International,
            Outcome::Draw {
                reason: DrawReason::KingMoves,
            },
        ),
        (
            "draw by the 20-move rule (64)",
            Variant::SixtyFour,
            Outcome::Draw {
                reason: DrawReason::KingMoves,
            },
        ),
        (
            "draw agreed",
            Variant::International,
            Outcome::Draw {
                reason: DrawReason::Agreement,
            },
        ),
        (
            "draw, endgame rule",
            Variant::International,
            Outcome::Draw {
                reason: DrawReason::Endgame,
            },
        ),
    ];
    for (name, v, o) in ends {
        g.block(
            &format!("game over: {name}"),
            None,
            &format!("{o:?}"),
            &[a.game_over(v, &o)],
        );
    }

    // Two boards (001 ch. VIII 3.1).
    let m = resolve(&start, "32-28").unwrap();
    g.block(
        "boards",
        Some(&start),
        "one behind, three behind, the other behind, in sync",
        &[
            a.board_behind(1, &start, &m),
            a.board_behind(3, &start, &m),
            a.other_board_behind(&start, &m),
            a.boards_in_sync(),
        ],
    );
    let wm = Some(Piece {
        color: Color::White,
        role: Role::Man,
    });
    let bk = Some(Piece {
        color: Color::Black,
        role: Role::King,
    });
    g.block(
        "boards differ",
        None,
        "square 28 empty on the board, square 23 a black king instead of nothing",
        &[a.boards_differ(
            Variant::International,
            &[
                SquareDiff {
                    square: sq(28),
                    expected: wm,
                    actual: None,
                },
                SquareDiff {
                    square: sq(23),
                    expected: None,
                    actual: bk,
                },
            ],
        )],
    );
    g.block(
        "resumed after a crash",
        None,
        "12 moves made, white to move",
        &[a.resumed(12, Color::White)],
    );

    // Describing.
    let p = intl("W:W32,K45:B19");
    g.block(
        "describe",
        Some(&p),
        "square 32, square 33, the position",
        &[
            a.describe_square(&p, sq(32)),
            a.describe_square(&p, sq(33)),
            a.describe_position(&p),
        ],
    );
    g.block("help", None, "help", &[a.help()]);

    // The daemon's own messages (game.* keys).
    let (n, nx) = (Priority::Normal, Priority::Next);
    let msgs = [
        a.message("game.clock_running", &[], n, Kind::Clock),
        a.message(
            "game.clock_stopped_refusal",
            &[],
            Priority::Now,
            Kind::Rejection,
        ),
        a.message("game.not_paused", &[], nx, Kind::Clock),
        a.message("game.already_paused", &[], nx, Kind::Clock),
        a.message(
            "game.draw_offered",
            &[("side", Value::Side(Color::Black))],
            nx,
            Kind::Draw,
        ),
        a.message("game.draw_declined", &[], nx, Kind::Draw),
        a.message(
            "game.draw_too_early",
            &[("count", Value::Number(40))],
            Priority::Now,
            Kind::Rejection,
        ),
        a.message(
            "game.draw_not_your_time",
            &[],
            Priority::Now,
            Kind::Rejection,
        ),
        a.message("game.draw_barred", &[], Priority::Now, Kind::Rejection),
        a.message("game.no_draw_offer", &[], Priority::Now, Kind::Rejection),
        a.message(
            "game.unknown_command",
            &[("text", Value::Text("xyzzy".into()))],
            Priority::Now,
            Kind::Rejection,
        ),
        a.message("game.journal_failed", &[], Priority::Now, Kind::Rejection),
        a.message(
            "game.speech_fallback",
            &[("text", Value::Text("espeak-ng".into()))],
            nx,
            Kind::Help,
        ),
        a.message(
            "game.board_not_read",
            &[("text", Value::Text("W:W99".into()))],
            Priority::Now,
            Kind::Rejection,
        ),
        a.message("game.board_matches", &[], nx, Kind::Sync),
    ];
    g.block("daemon messages", None, "every game.* key", &msgs);

    // 64-square draughts: algebraic squares (001 ch. I 2.6.4), annex E names, numbers.
    let s64 = Position::start(Variant::SixtyFour);
    let m = resolve(&s64, "c3-d4").unwrap();
    for (style, name) in [
        (SquareStyle::Notation, "letters"),
        (SquareStyle::AnnexE, "annex E names"),
        (SquareStyle::Numbers, "numbers"),
    ] {
        let a64 = Announcer::new(
            book.clone(),
            AnnounceOptions {
                square_style: style,
                landings: false,
            },
        );
        g.block(
            &format!("64: quiet move, {name}"),
            Some(&s64),
            "move c3-d4",
            &[a64.on_move(&s64, &m)],
        );
    }
    let p = pos(Variant::SixtyFour, "W:W22:B18,11");
    let m = resolve(&p, "c3xg7").unwrap();
    g.block(
        "64: double capture",
        Some(&p),
        "move c3xg7",
        &[a.on_move(&p, &m)],
    );
    g.out
}

fn check(lang: &str, book: &Phrasebook) {
    let path = format!("{}/tests/golden/{lang}.txt", env!("CARGO_MANIFEST_DIR"));
    let got = scenarios(book);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (run with UPDATE_GOLDEN=1)"));
    if got != want {
        for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
            assert_eq!(g, w, "{path}: first difference at line {}", i + 1);
        }
        assert_eq!(
            got.lines().count(),
            want.lines().count(),
            "{path}: different number of lines"
        );
    }
}

#[test]
fn golden_polish() {
    check("pl", &Phrasebook::polish());
}

#[test]
fn golden_english() {
    check("en", &Phrasebook::english());
}

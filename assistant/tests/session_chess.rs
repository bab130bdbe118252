//! The session actor playing chess (002 annex E), with tokio's paused
//! clock: SAN in the journal, announcements after annex E.2, the flag when
//! the opponent cannot mate (art. 6.9), draw claims (9.2, 9.3, 9.5), a board
//! behind and a board read back square by square, the arbiter's takeback,
//! and resuming a chess game from its journal.

use std::time::Duration;

use tandem::game::{AnyPosition, GameKind};
use tandem::journal::{Event, Journal, Source};
use tandem::session::{Cmd, DrawCmd, GameSetup, Session};
use tandem_rules::{Color, DrawReason, Outcome, WinReason};

mod support;

use support::session::{drain, fixture, game_setup, Fixture};

fn setup(fen: Option<&str>, control: &str, lang: &str) -> GameSetup {
    game_setup(GameKind::Chess.position(fen).unwrap(), control, lang)
}

fn play(s: &mut Session, moves: &[&str]) {
    for m in moves {
        let r = s.handle(Cmd::Move((*m).into()), Source::Typed);
        assert!(r.ok, "{m}: {r:?}");
    }
}

/// A 90-minute chess game in English after 1. e4 e5 2. Nf3.
fn after_e4_e5_nf3(f: &Fixture) -> Session {
    let mut s = f.start(&setup(None, "90m", "en"));
    play(&mut s, &["e4", "e5", "Nf3"]);
    s
}

/// A one-minute chess game at `fen` (black to move), its clock run for 61
/// seconds and polled: black's flag has fallen.
async fn flag_fallen_at(f: &Fixture, fen: &str) -> Session {
    let mut s = f.start(&setup(Some(fen), "1m", "en"));
    tokio::time::advance(Duration::from_secs(61)).await;
    s.poll_clock();
    s
}

#[tokio::test(start_paused = true)]
async fn chess_moves_are_journaled_in_san_and_announced_after_annex_e() {
    let mut f = fixture();
    let mut s = f.start(&setup(None, "90m+30s", "pl"));
    assert!(matches!(s.table().game.position(), AnyPosition::Chess(_)));
    drain(&mut f.speech);
    tokio::time::advance(Duration::from_secs(5)).await;
    // Loose input in, SAN out.
    let r = s.handle(Cmd::Move("e2-e4".into()), Source::Typed);
    assert_eq!(r.said, ["Pion Ewa dwa, Ewa cztery."]);
    let r = s.handle(Cmd::Move("d7d5".into()), Source::Typed);
    assert!(r.ok);
    let r = s.handle(Cmd::Move("exd5".into()), Source::Typed);
    assert_eq!(
        r.said,
        ["Pion Ewa cztery bije Dawid pięć. Zdejmij czarnego piona z pola Dawid pięć."]
    );
    // An illegal move: refused in the player's words, nothing changes.
    let r = s.handle(Cmd::Move("Ke3".into()), Source::Typed);
    assert!(!r.ok);
    assert_eq!(s.view().ply, 3);
    let j = Journal::read(&f.journal).unwrap();
    let texts: Vec<&str> = j
        .records
        .iter()
        .filter_map(|r| match &r.event {
            Event::Move { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["e4", "d5", "exd5"]);
    let Event::Start(info) = &j.records[0].event else {
        panic!()
    };
    assert_eq!(info.variant, "chess");
    // Fischer: the first move took 5 s and gained 30 s.
    let st = s.view();
    assert_eq!(st.variant, "chess");
    assert_eq!(st.moves, ["e4", "d5", "exd5"]);
    assert_eq!(
        st.clocks.white.remaining_ms,
        90 * 60_000 - 5_000 + 2 * 30_000
    );
    // The position and the last move, read out.
    let r = s.handle(Cmd::Last, Source::Typed);
    assert!(
        r.said[0].starts_with("Ostatnie posunięcie: Pion Ewa cztery bije"),
        "{r:?}"
    );
    let r = s.handle(Cmd::Position, Source::Typed);
    assert!(
        r.said[0].starts_with("Białe: król Ewa jeden, hetman Dawid jeden"),
        "{r:?}"
    );
    assert!(r.said[0].ends_with("Ruch czarnych."), "{r:?}");
}

#[tokio::test(start_paused = true)]
async fn a_flag_against_a_bare_king_is_a_draw_and_otherwise_a_loss() {
    // 002 art. 6.9: white has only a king; black's flag falls: a draw.
    let mut f = fixture();
    let s = flag_fallen_at(&f, "4k3/8/8/8/8/8/4q3/K7 b - - 0 1").await;
    assert_eq!(
        s.table().game.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::FlagNoMate
        })
    );
    assert_eq!(s.view().result.as_deref(), Some("1/2-1/2"));
    let said = drain(&mut f.speech);
    assert!(
        said.iter()
            .any(|t| t.contains("The flag fell, but the opponent cannot checkmate.")),
        "{said:?}"
    );
    // With a rook white can mate: black's flag loses.
    let mut f = fixture();
    let s = flag_fallen_at(&f, "4k3/8/8/8/8/8/4q3/K6R b - - 0 1").await;
    assert_eq!(
        s.table().game.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Time
        })
    );
    assert_eq!(s.view().result.as_deref(), Some("1-0"));
    drain(&mut f.speech);
}

#[tokio::test(start_paused = true)]
async fn draw_claims_follow_articles_9_2_9_3_and_9_5() {
    let mut f = fixture();
    let mut s = f.start(&setup(None, "90m", "en"));
    play(&mut s, &["Nf3", "Nf6"]);
    // Nothing to claim: the opponent gets three minutes, play goes on (9.5(b)).
    let black = s.view().clocks.black.remaining_ms;
    let r = s.handle(Cmd::Draw(DrawCmd::Claim, None), Source::Typed);
    assert!(r.ok, "{r:?}");
    assert_eq!(
        r.said,
        ["The draw claim is not correct. Your opponent gets 3 more minutes; play goes on."]
    );
    assert_eq!(s.view().clocks.black.remaining_ms, black + 180_000);
    assert!(s.view().result.is_none());
    // Only the player on move may claim.
    let r = s.handle(Cmd::Draw(DrawCmd::Claim, Some(Color::Black)), Source::Typed);
    assert!(!r.ok);
    // The third occurrence of the start position (9.2(b)): said, then claimed.
    play(&mut s, &["Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]);
    let r = s.handle(Cmd::Move("Ng8".into()), Source::Typed);
    assert!(r.said.iter().any(|t| t.contains("third time")), "{r:?}");
    assert!(
        s.view().result.is_none(),
        "a repetition is a draw only when claimed"
    );
    let r = s.handle(Cmd::Draw(DrawCmd::Claim, None), Source::Typed);
    assert!(r.ok);
    assert_eq!(
        s.table().game.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Repetition
        })
    );
    // The journal has both claims and replays to the same clocks and result.
    let j = Journal::read(&f.journal).unwrap();
    let claims: Vec<(bool, u64)> = j
        .records
        .iter()
        .filter_map(|r| match &r.event {
            Event::DrawClaim {
                valid, added_ms, ..
            } => Some((*valid, *added_ms)),
            _ => None,
        })
        .collect();
    assert_eq!(claims, [(false, 180_000), (true, 0)]);
    let replayed = tandem::session::Table::replay(&j.records).unwrap();
    let t = s.now();
    assert_eq!(
        replayed.view(t, &f.journal).clocks.black.remaining_ms,
        s.view().clocks.black.remaining_ms
    );
    assert_eq!(replayed.game.outcome(), s.table().game.outcome());
    drain(&mut f.speech);
}

#[tokio::test(start_paused = true)]
async fn boards_behind_differing_and_taken_back_in_chess() {
    let mut f = fixture();
    let mut s = after_e4_e5_nf3(&f);
    // The blind player (white) made Nf3 on their board; black's board lacks it.
    let r = s.handle(Cmd::Missing(Some(Color::Black)), Source::Typed);
    assert_eq!(
        r.said,
        ["Your board is one move behind. Play: Knight Gustav one, Felix three."]
    );
    // A whole board read back showing an earlier position: behind, not different.
    let two_back = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let r = s.handle(Cmd::Mismatch(Some(two_back.into())), Source::Typed);
    assert!(
        r.said[0].starts_with("Moves missing on your board: 2."),
        "{r:?}"
    );
    assert!(!s.view().clocks.paused);
    // Squares read back one by one: the same as the record.
    let r = s.handle(Cmd::Mismatch(Some("f3:N, g1:empty".into())), Source::Typed);
    assert_eq!(r.said, ["That position matches the record."]);
    // A square that differs: the boards differ, the clock stops.
    let r = s.handle(Cmd::Mismatch(Some("f3:empty".into())), Source::Typed);
    assert_eq!(
        r.said,
        [
            "Attention: the boards differ. Clock stopped. Call the arbiter. \
             Square Felix three: record white knight, board empty."
        ]
    );
    assert!(s.view().clocks.paused);
    let r = s.handle(Cmd::Mismatch(Some("z9:Q".into())), Source::Typed);
    assert!(!r.ok, "a read-back that does not read is refused: {r:?}");
    // The arbiter takes Nf3 back (a correction), play resumes from e4 e5.
    let r = s.handle(
        Cmd::Takeback(1, "the boards differ".into()),
        Source::Arbiter,
    );
    assert!(r.ok, "{r:?}");
    assert_eq!(s.view().moves, ["e4", "e5"]);
    assert_eq!(s.view().turn, Color::White);
    assert!(s.handle(Cmd::Resume, Source::Typed).ok);
    play(&mut s, &["Nc3"]);
    // Resume from the journal: the same game.
    let before = s.view();
    drop(s);
    let s = f.resume();
    let after = s.view();
    assert_eq!(
        (after.variant.as_str(), &after.moves),
        ("chess", &before.moves)
    );
    assert_eq!(after.fen, before.fen);
    drain(&mut f.speech);
}

/// Issue 22: the PDF scoresheet draws the final position and the position
/// where the arbiter took the game back (after e4 e5: Nf3 taken back).
#[tokio::test(start_paused = true)]
async fn the_scoresheet_draws_where_the_arbiter_took_the_game_back() {
    let mut f = fixture();
    let mut s = after_e4_e5_nf3(&f);
    let r = s.handle(
        Cmd::Takeback(1, "the boards differ".into()),
        Source::Arbiter,
    );
    assert!(r.ok, "{r:?}");
    // The clock goes on if the correction stopped it.
    let _ = s.handle(Cmd::Resume, Source::Typed);
    play(&mut s, &["Nf3", "Nc6", "Nxe5", "Nxe5"]);
    drop(s);
    let pdf = f.journal.with_extension("pdf");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tandem"))
        .arg("export")
        .arg(&f.journal)
        .args(["--format", "pdf", "--lang", "en"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    std::fs::write(&pdf, &out.stdout).unwrap();
    let text = std::process::Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils)");
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("Final position (after ply 6)"), "{text}");
    assert!(
        text.contains("Position where the arbiter took the game back: after ply 2"),
        "{text}"
    );
    // Both boards: 32 pieces after e4 e5 and 30 after the two knight
    // captures; white's knights: two then, one now (Nxe5 taken by Nxe5).
    let knights = text.matches('♘').count();
    assert_eq!(knights, 2 + 1, "{text}");
    let pieces = text
        .chars()
        .filter(|c| ('\u{2654}'..='\u{265f}').contains(c))
        .count();
    assert_eq!(pieces, 32 + 30, "{text}");
    drain(&mut f.speech);
}

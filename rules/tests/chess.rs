//! Chess (002, FIDE Laws): perft against published counts, real games
//! replayed from PGN, results and the draw rules, the game behind `TableGame`.

use tandem_rules::chess::pgn::{parse_pgn, replay, write_pgn, PgnHeader, Replay};
use tandem_rules::chess::shakmaty::{Role, Square};
use tandem_rules::chess::{
    from_fen, perft, perft_divide, resolve, start, ChessError, ChessGame, IllegalReason,
};
use tandem_rules::{Color, DrawReason, Outcome, TableGame, WinReason};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/chess");

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("{DATA}/{name}")).unwrap()
}

/// One position of `perft.epd`: id, FEN, `(depth, nodes)` pairs.
type PerftCase = (String, String, Vec<(u32, u64)>);

fn perft_cases() -> Vec<PerftCase> {
    let mut cases: Vec<PerftCase> = Vec::new();
    let mut id = String::new();
    for line in read("perft.epd").lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("id ") {
            id = rest.to_owned();
        } else if let Some(rest) = line.strip_prefix("epd ") {
            cases.push((id.clone(), rest.to_owned(), Vec::new()));
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let d = it.next().unwrap().parse().unwrap();
            let n = it.next().unwrap().parse().unwrap();
            cases.last_mut().unwrap().2.push((d, n));
        }
    }
    cases
}

fn run_perft(max_nodes: u64) -> usize {
    let mut checked = 0;
    for (id, fen, counts) in perft_cases() {
        let pos = from_fen(&fen).unwrap();
        for (depth, nodes) in counts {
            if nodes > max_nodes {
                continue;
            }
            assert_eq!(perft(&pos, depth), nodes, "{id} depth {depth}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_matches_published_counts_up_to_100k_nodes() {
    // Start 1-3, Kiwipete 1-3 (48, 2039, 97862) and the other positions.
    assert!(run_perft(100_000) >= 16);
    assert_eq!(perft(&start(), 2), 400);
}

/// The deep counts (start 197281 and 4865609, Kiwipete 4085603, ...):
/// `cargo test --release -p tandem-rules --test chess -- --ignored`.
#[test]
#[ignore = "deep perft: run in release (scripts/test.sh)"]
fn perft_matches_published_counts_deep() {
    assert_eq!(run_perft(u64::MAX), 26);
}

#[test]
fn perft_divide_sums_to_perft() {
    let pos =
        from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let d = perft_divide(&pos, 2);
    assert_eq!(d.len(), 48);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 2039);
}

#[test]
fn real_games_replay_and_round_trip_through_pgn() {
    let games = parse_pgn(&read("aronian-1993-2002.pgn"));
    assert_eq!(games.len(), 400);
    let mut plies = 0;
    for (i, g) in games.iter().enumerate() {
        match replay(g) {
            Replay::Ok(game) => {
                assert_eq!(game.ply(), g.moves.len(), "game {}", i + 1);
                plies += game.ply();
                // Written out and read back: the same moves.
                let text = write_pgn(&game, &PgnHeader::default());
                let back = parse_pgn(&text);
                assert_eq!(back.len(), 1);
                match replay(&back[0]) {
                    Replay::Ok(again) => assert_eq!(again.sans(), game.sans()),
                    other => panic!("game {} written back: {other}", i + 1),
                }
            }
            other => panic!("game {} (line {}): {other}", i + 1, g.line),
        }
    }
    assert!(plies > 25_000, "{plies}");
}

#[test]
fn composed_games_cover_en_passant_castling_promotion_and_endings() {
    let games = parse_pgn(&read("features.pgn"));
    assert_eq!(games.len(), 4);
    let ok: Vec<ChessGame> = games
        .iter()
        .map(|g| match replay(g) {
            Replay::Ok(game) => game,
            other => panic!("{:?}: {other}", g.tag("Event")),
        })
        .collect();
    // Game 1: 3. exd6 en passant takes the pawn on d5.
    let ep = ok[0].moves()[4];
    assert_eq!(ep.captured(), Some((Role::Pawn, Square::D5)));
    assert!(ok[0].sans().contains(&"O-O-O".to_owned()));
    assert_eq!(ok[0].outcome(), None);
    // Game 2: promotions to a queen and to a knight.
    assert_eq!(ok[1].moves()[0].promotion, Some(Role::Queen));
    assert_eq!(ok[1].moves()[1].promotion, Some(Role::Knight));
    assert_eq!(ok[1].sans()[2], "Qb7+");
    // Game 3: fool's mate.
    assert_eq!(
        ok[2].outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Checkmate
        })
    );
    // Game 4: stalemate (002 art. 5.2(a)).
    assert_eq!(
        ok[3].outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Stalemate
        })
    );
}

#[test]
fn illegal_moves_are_reported_with_their_ply_and_reason() {
    let games = parse_pgn(&read("illegal.pgn"));
    assert_eq!(games.len(), 2);
    match replay(&games[0]) {
        Replay::Illegal {
            ply, text, reason, ..
        } => {
            assert_eq!((ply, text.as_str()), (2, "Kh7"));
            assert!(matches!(reason, ChessError::GameOver(_)), "{reason}");
        }
        other => panic!("{other}"),
    }
    match replay(&games[1]) {
        Replay::Illegal {
            ply, reason, game, ..
        } => {
            assert_eq!(ply, 1);
            assert_eq!(
                reason,
                ChessError::Illegal {
                    text: "O-O".into(),
                    reason: IllegalReason::CastlingNotAllowed
                }
            );
            assert_eq!(game.ply(), 0);
        }
        other => panic!("{other}"),
    }
}

#[test]
fn threefold_repetition_and_fifty_moves_are_claimed_not_automatic() {
    // 002 art. 9.2: the third occurrence may be claimed by the player on move.
    let mut g = ChessGame::new();
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
        g.play_text(m).unwrap();
        assert_eq!(g.claimable_draw(), None);
    }
    g.play_text("Ng8").unwrap();
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.claimable_draw(), Some(DrawReason::Repetition));
    assert_eq!(g.outcome(), None, "play goes on until claimed");
    let mut claimed = g.clone();
    assert_eq!(
        claimed.claim_draw(),
        Ok(Outcome::Draw {
            reason: DrawReason::Repetition
        })
    );
    assert!(matches!(
        claimed.play_text("e4"),
        Err(ChessError::GameOver(_))
    ));
    // Not claimed: a pawn move and the count starts again.
    g.play_text("e4").unwrap();
    assert_eq!(g.claimable_draw(), None);
    assert_eq!(g.claim_draw(), Err(ChessError::NoClaim));

    // 002 art. 9.3: 50 moves of each side without a pawn move or capture.
    let mut g = ChessGame::from_fen("4k3/8/8/8/8/8/R7/4K3 w - - 99 80").unwrap();
    assert_eq!(g.claimable_draw(), None);
    g.play_text("Ra3").unwrap();
    assert_eq!(g.quiet_moves(), 50);
    assert_eq!(g.claimable_draw(), Some(DrawReason::FiftyMoves));
}

#[test]
fn dead_position_ends_the_game_at_once() {
    // 002 art. 5.2(b), 9.6: king and bishop against king.
    let mut g = ChessGame::from_fen("4k3/8/8/8/8/8/3r4/4KB2 w - - 0 1").unwrap();
    assert_eq!(g.outcome(), None);
    g.play_text("Kxd2").unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::DeadPosition
        })
    );
}

#[test]
fn the_game_behind_the_table_game_trait() {
    fn play_all<G: TableGame>(g: &mut G, moves: &[&str]) -> Result<(), G::Error> {
        for m in moves {
            let mv = g.resolve_text(m)?;
            g.play_move(&mv)?;
        }
        Ok(())
    }
    let mut g = ChessGame::new();
    assert_eq!(g.game_name(), "chess");
    assert_eq!(g.legal().len(), 20);
    play_all(&mut g, &["e2-e4", "e7 e5", "g1f3", "Nc6", "Bb5"]).unwrap();
    assert_eq!(g.record(), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    assert_eq!(g.side_to_move(), Color::Black);
    assert_eq!((g.moves_by(Color::White), g.moves_by(Color::Black)), (3, 2));
    assert_eq!(
        g.position_text(),
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
    );
    let a6 = g.resolve_text("a6").unwrap();
    assert_eq!(g.move_text(&a6), "a6");
    let back = g.take_back().unwrap();
    assert_eq!(back.to, Square::B5);
    assert_eq!(g.plies(), 4);
    g.end(Outcome::Win {
        winner: Color::White,
        reason: WinReason::Resignation,
    });
    assert!(g.result().is_some());
    assert!(g.play_move(&g.legal()[0]).is_err());
    assert!(g.draw_offer_allowed(Color::Black));
}

#[test]
fn bad_fen_is_refused_with_a_reason() {
    for bad in [
        "",
        "nonsense",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    ] {
        assert!(matches!(from_fen(bad), Err(ChessError::Fen(_))), "{bad:?}");
    }
    // Relaxed: counters may be missing.
    assert!(from_fen("4k3/8/8/8/8/8/8/4K3 w - -").is_ok());
}

#[test]
fn resolve_never_panics_on_odd_text() {
    let p = start();
    for t in [
        "", " ", "x", "0", "O-O-O-O", "e9", "i2i4", "e2e4e6", "Kxx", "=Q", "ą", "e2–e4", "N@f3",
        "--", "e2e4qq", "Pe2e4=",
    ] {
        let _ = resolve(&p, t);
    }
    assert_eq!(resolve(&p, "e2–e4").unwrap().to, Square::E4);
}

mod props {
    use proptest::prelude::*;
    use tandem_rules::chess::pgn::{parse_pgn, replay};
    use tandem_rules::chess::{resolve, san, start, ChessGame};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Untrusted text (typed, spoken, from files) never panics.
        #[test]
        fn any_text_is_refused_or_resolved_without_panic(text in "\\PC{0,24}") {
            let _ = resolve(&start(), &text);
            for g in parse_pgn(&text) {
                let _ = replay(&g);
            }
        }

        /// Along random games: every legal move's SAN and UCI resolve back
        /// to it, and a written game reads back the same.
        #[test]
        fn san_and_uci_round_trip_along_random_games(choices in proptest::collection::vec(0usize..64, 0..60)) {
            let mut g = ChessGame::new();
            for c in choices {
                let legal = g.legal_moves();
                if legal.is_empty() || g.outcome().is_some() {
                    break;
                }
                for m in &legal {
                    let s = san(g.position(), m);
                    prop_assert_eq!(resolve(g.position(), &s).unwrap(), *m);
                    prop_assert_eq!(resolve(g.position(), &m.uci()).unwrap(), *m);
                }
                let m = legal[c % legal.len()];
                g.play(&m).unwrap();
            }
            let text = tandem_rules::chess::pgn::write_pgn(&g, &Default::default());
            let back = parse_pgn(&text);
            match replay(&back[0]) {
                tandem_rules::chess::pgn::Replay::Ok(r) => prop_assert_eq!(r.sans(), g.sans()),
                other => prop_assert!(false, "{}", other),
            }
        }
    }
}

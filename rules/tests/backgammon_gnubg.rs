//! GNU Backgammon as the oracle: tandem's move lists, written moves, Position
//! IDs and `.mat` files against gnubg's own (Debian's `gnubg`, installed by
//! `scripts/setup.sh --test`). Every question goes to ONE gnubg process
//! running `tests/data/gnubg_oracle.py`, so the whole check takes seconds.
//! Without gnubg the test fails, unless TANDEM_SKIP_REAL is set outside CI.

use std::collections::BTreeSet;

use tandem_rules::backgammon::{
    apply, legal_plays, mat, match_id, notation, position_id, Action, Board, Dice, Match,
    MatchOptions, Phase,
};
use tandem_rules::Color;

use tandem_testkit::gnubg;
use tandem_testkit::Rng;

/// Runs the oracle script once over `questions`; the answers, one a line.
fn ask_gnubg(questions: &[String]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let asked = questions.join("\n") + "\n";
    if let Some(keep) = std::env::var_os("TANDEM_GNUBG_KEEP") {
        // For a look by hand: the questions as asked.
        let _ = std::fs::write(keep, &asked);
    }
    let script = gnubg::oracle();
    let (answers, stderr) = gnubg::ask(&script, dir.path(), &asked);
    let lines: Vec<String> = answers.lines().map(str::to_owned).collect();
    assert_eq!(
        lines.len(),
        questions.len(),
        "gnubg answered {} of {} questions; stderr:\n{}",
        lines.len(),
        questions.len(),
        stderr
    );
    lines
}

/// Positions and rolls from seeded random games, plus every opening roll.
fn cases(games: usize, seed: u64) -> Vec<(Board, Dice)> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            if a != b {
                out.push((Board::start(Color::White), Dice(a, b)));
            }
        }
    }
    for _ in 0..games {
        let mut board = Board::start(if rng.index(2) == 0 {
            Color::White
        } else {
            Color::Black
        });
        for _ in 0..400 {
            let dice = Dice(rng.die(), rng.die());
            out.push((board, dice));
            let plays = legal_plays(&board, dice);
            let play = if plays.is_empty() {
                tandem_rules::backgammon::Play::PASS
            } else {
                plays[rng.index(plays.len())]
            };
            board = apply(&board, &play);
            if board.borne_off(board.turn().other()) == 15 {
                break;
            }
        }
    }
    out
}

/// Random legal boards (not from play): odd spreads, many on the bar, bear-offs.
fn scattered(n: usize, seed: u64) -> Vec<(Board, Dice)> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut sides = [[0u8; 25]; 2];
        let home_only = rng.index(3) == 0;
        for s in 0..2 {
            let keep = 1 + rng.index(15);
            for _ in 0..keep {
                let slot = match rng.index(10) {
                    0 => 24,
                    _ if home_only && s == 0 => rng.index(6),
                    _ => rng.index(24),
                };
                // Not on a point the other side holds.
                if slot < 24 && sides[1 - s][23 - slot] > 0 {
                    continue;
                }
                sides[s][slot] += 1;
            }
        }
        let turn = if rng.index(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let (white, black) = match turn {
            Color::White => (sides[0], sides[1]),
            Color::Black => (sides[1], sides[0]),
        };
        // Both sides still playing: a side with all fifteen off has won.
        if let Ok(b) = Board::from_sides(white, black, turn)
            .ok()
            .filter(|b| b.borne_off(Color::White) < 15 && b.borne_off(Color::Black) < 15)
            .ok_or(())
        {
            out.push((b, Dice(rng.die(), rng.die())));
        }
    }
    out
}

fn check_against_gnubg(cases: &[(Board, Dice)]) {
    let mut rng = Rng(7);
    let mut questions = Vec::new();
    let mut picked = Vec::new();
    for (board, dice) in cases {
        let plays = legal_plays(board, *dice);
        let id = position_id::encode(board);
        // Ask gnubg to play one of tandem's moves too (not one that ends the game).
        let pick = (!plays.is_empty())
            .then(|| plays[rng.index(plays.len())])
            .filter(|p| apply(board, p).borne_off(board.turn()) < 15);
        let mut q = format!("H {id} {} {}", dice.0, dice.1);
        if let Some(p) = pick {
            q.push(' ');
            q.push_str(&notation::write(board, &p));
        }
        questions.push(q);
        picked.push(pick);
    }
    let answers = ask_gnubg(&questions);
    let mut failures = Vec::new();
    for (k, ((board, dice), answer)) in cases.iter().zip(&answers).enumerate() {
        let fields: Vec<&str> = answer.split('\t').collect();
        let theirs: Vec<String> = if fields[1].is_empty() {
            Vec::new()
        } else {
            fields[1].split('|').map(str::to_owned).collect()
        };
        let ours: Vec<String> = legal_plays(board, *dice)
            .iter()
            .map(|p| notation::write(board, p))
            .collect();
        let ours_set: BTreeSet<&String> = ours.iter().collect();
        let theirs_set: BTreeSet<&String> = theirs.iter().collect();
        assert_eq!(
            ours_set.len(),
            ours.len(),
            "tandem lists a move twice: {ours:?}"
        );
        if ours_set != theirs_set {
            failures.push(format!(
                "{} dice {}: tandem {:?} gnubg {:?}",
                position_id::encode(board),
                dice,
                ours_set.difference(&theirs_set).collect::<Vec<_>>(),
                theirs_set.difference(&ours_set).collect::<Vec<_>>()
            ));
        }
        if let Some(p) = picked[k] {
            let after = position_id::encode(&apply(board, &p));
            if fields[2] != after {
                failures.push(format!(
                    "{} dice {} move {}: gnubg reaches {} tandem {}",
                    position_id::encode(board),
                    dice,
                    notation::write(board, &p),
                    fields[2],
                    after
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} disagree with gnubg, first ones:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(15)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn move_lists_match_gnubg_for_openings_and_random_play() {
    if !gnubg::present() {
        return;
    }
    let mut all = cases(25, 0x7a6d_656d);
    all.extend(scattered(1000, 0x5eed));
    assert!(all.len() > 2000, "{} cases", all.len());
    // The same rolls with the dice the other way round.
    let swapped: Vec<(Board, Dice)> = all
        .iter()
        .step_by(5)
        .map(|(b, d)| (*b, Dice(d.1, d.0)))
        .collect();
    all.extend(swapped);
    check_against_gnubg(&all);
}

/// A seeded random match: cube actions, hits, gammons; it stops after a
/// move once `stop_after` actions are done (or when the match is over).
fn random_match(seed: u64, length: u32, stop_after: usize) -> Match {
    let mut rng = Rng(seed);
    let mut m = Match::new(MatchOptions { length });
    while m.phase() != Phase::MatchOver {
        let a = match m.phase() {
            Phase::Opening => {
                let (a, b) = (rng.die(), rng.die());
                if a == b {
                    continue;
                }
                Action::Roll(Dice(a, b))
            }
            Phase::Roll => {
                if m.actions().len() >= stop_after {
                    break;
                }
                if rng.index(60) == 0 {
                    Action::Resign {
                        side: m.board().turn(),
                        level: u8::try_from(1 + rng.index(3)).unwrap(),
                    }
                } else if rng.index(8) == 0 && m.clone().act(Action::Double).is_ok() {
                    Action::Double
                } else {
                    Action::Roll(Dice(rng.die(), rng.die()))
                }
            }
            Phase::DoubleOffered => {
                if rng.index(4) == 0 {
                    Action::Pass
                } else {
                    Action::Take
                }
            }
            Phase::Move => {
                let plays = m.legal();
                Action::Move(if plays.is_empty() {
                    tandem_rules::backgammon::Play::PASS
                } else {
                    plays[rng.index(plays.len())]
                })
            }
            Phase::MatchOver => break,
        };
        m.act(a).unwrap();
    }
    m
}

#[test]
fn gnubg_imports_tandems_mat_files_to_the_same_position_and_score() {
    if !gnubg::present() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut questions = Vec::new();
    let mut matches = Vec::new();
    for k in 0..24u64 {
        let length = [1, 3, 5, 7, 9][usize::try_from(k % 5).unwrap()];
        let stop = if k % 3 == 0 {
            usize::MAX
        } else {
            40 + usize::try_from(k).unwrap() * 23
        };
        let m = random_match(0xbac0 + k, length, stop);
        let text = mat::export(&m, &mat::Names::default());
        // tandem reads its own file back to the same match.
        let (again, _) = mat::import(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(again.position_id(), m.position_id(), "{text}");
        assert_eq!(match_id::of_match(&again), match_id::of_match(&m), "{text}");
        let path = dir.path().join(format!("m{k}.mat"));
        std::fs::write(&path, &text).unwrap();
        questions.push(format!("M {}", path.display()));
        matches.push((m, text));
    }
    let answers = ask_gnubg(&questions);
    for ((m, text), answer) in matches.iter().zip(&answers) {
        let f: Vec<&str> = answer.split('\t').collect();
        let theirs = match_id::decode(f[2]).unwrap_or_else(|e| panic!("{e}: {answer}"));
        let ours = match_id::of_match(m);
        // Every field: cube, owner, whose roll, Crawford, game state, score.
        assert_eq!(
            theirs, ours,
            "Match ID {} after gnubg's import\n{text}",
            f[2]
        );
        assert_eq!(
            f[1],
            m.position_id(),
            "position after gnubg's import\n{text}"
        );
    }
}

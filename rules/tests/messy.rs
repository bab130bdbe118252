//! Records as tournaments really write them (issue 14): the corpus in
//! `data/messy/` (written by `data/messy/make.py`, one kind of defect a file)
//! reads with every game kept, and the property that injecting any of those
//! defects into a clean file loses no game and no move.

use std::path::Path;

use proptest::prelude::*;
use tandem_rules::chess::pgn::{self, read_pgn};
use tandem_rules::chess::ChessGame;
use tandem_rules::draughts::pdn::{read_pdn, replay, write_pdn, PdnHeader, Replay};
use tandem_rules::draughts::{Game, Variant};

fn bytes(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/messy")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Games, moves read, warnings, and the failures as "ply move".
#[derive(Debug, PartialEq, Eq)]
struct Counts {
    games: usize,
    moves: usize,
    warnings: usize,
    failures: Vec<String>,
}

fn pdn_counts(name: &str) -> Counts {
    let file = read_pdn(&bytes(name));
    let mut failures = Vec::new();
    for g in &file.games {
        match replay(g, Variant::International) {
            Replay::Ok(game) => assert_eq!(game.ply(), g.moves.len()),
            Replay::Illegal { ply, text, .. } => failures.push(format!("{ply} {text}")),
            Replay::Unreadable(why) => failures.push(format!("unreadable {why}")),
        }
    }
    Counts {
        games: file.games.len(),
        moves: file.games.iter().map(|g| g.moves.len()).sum(),
        warnings: file.games.iter().map(|g| g.warnings.len()).sum::<usize>() + file.warnings.len(),
        failures,
    }
}

fn counts(games: usize, moves: usize, warnings: usize, failures: &[&str]) -> Counts {
    Counts {
        games,
        moves,
        warnings,
        failures: failures.iter().map(|s| (*s).to_owned()).collect(),
    }
}

#[test]
fn every_messy_file_keeps_every_game() {
    let expected = [
        ("escapes.pdn", counts(3, 60, 3, &[])),
        ("broken-tags.pdn", counts(3, 60, 6, &[])),
        ("no-blank-lines.pdn", counts(4, 80, 0, &[])),
        ("results.pdn", counts(8, 160, 0, &[])),
        ("encodings.pdn", counts(3, 60, 2, &[])),
        ("junk.pdn", counts(4, 80, 10, &[])),
        ("failures.pdn", counts(3, 61, 2, &["12 20-26", "8 32-2x8"])),
        ("utf16.pdn", counts(1, 20, 0, &[])),
    ];
    for (name, want) in expected {
        assert_eq!(pdn_counts(name), want, "{name}");
    }
}

#[test]
fn escapes_written_as_text_are_read_as_meant() {
    let file = read_pdn(&bytes("escapes.pdn"));
    for g in &file.games {
        assert_eq!(g.tag("Event"), Some("Open \"Delft\" & more"));
        assert_eq!(g.result.as_deref(), Some("2-0"));
        assert_eq!(g.warnings[0].message, "`&` is not a move; skipped");
    }
    // Line 1, after the 14th move pair: the column of `&amp;` on the line.
    assert_eq!(
        (
            file.games[0].warnings[0].line,
            file.games[0].warnings[0].column
        ),
        (1, 209)
    );
}

#[test]
fn broken_tags_are_repaired_or_skipped_where_they_are() {
    let file = read_pdn(&bytes("broken-tags.pdn"));
    let g = &file.games;
    assert_eq!(g[1].tag("Event"), Some("Messy open"));
    assert_eq!(g[2].tag("Event"), Some("Messy open"));
    assert_eq!(g[2].tag("Black"), Some("J.  Lemstra"));
    assert_eq!(g[2].tag("Date"), Some("1996.01.13"));
    assert_eq!(g[2].tag("Round"), Some("3"));
    let w: Vec<String> = g
        .iter()
        .flat_map(|g| &g.warnings)
        .map(|w| w.to_string())
        .collect();
    assert_eq!(
        w,
        [
            "1:1: a lone `[` skipped",
            "8:1: tag Event runs over two lines; joined",
            "15:1: tag Event runs over two lines; joined",
            "17:1: tag without a name skipped",
            "19:1: tag Black runs over two lines; joined",
            "22:1: tag Round has no closing quote",
        ]
    );
}

#[test]
fn results_as_exporters_write_them() {
    let file = read_pdn(&bytes("results.pdn"));
    let results: Vec<Option<&str>> = file.games.iter().map(|g| g.result.as_deref()).collect();
    assert_eq!(
        results,
        [
            None,
            Some("*"),
            Some("4-6"),
            Some("2-0"),
            Some("0-2"),
            Some("1-1"),
            Some("1/2-1/2"),
            None
        ]
    );
}

#[test]
fn names_in_windows_1252_latin_1_and_utf8_side_by_side() {
    let file = read_pdn(&bytes("encodings.pdn"));
    let names: Vec<&str> = file.games.iter().filter_map(|g| g.tag("White")).collect();
    assert_eq!(names, ["Hélène Müller", "Šimon Žák", "Łukasz"]);
    assert_eq!(file.games[1].tag("Black"), Some("Œdipe"));
    assert_eq!(file.games[1].line, 7, "CR alone ends a line");
    let file = read_pdn(&bytes("utf16.pdn"));
    assert_eq!(file.games[0].tag("White"), Some("M.  Kemperman"));
}

#[test]
fn a_failing_game_names_its_ply_and_reason_among_kept_ones() {
    let file = read_pdn(&bytes("failures.pdn"));
    match replay(&file.games[2], Variant::International) {
        Replay::Illegal {
            ply, text, reason, ..
        } => {
            assert_eq!((ply, text.as_str()), (8, "32-2x8"));
            assert!(reason.to_string().contains("32"), "{reason}");
        }
        other => panic!("{other}"),
    }
    assert_eq!(file.games[2].moves.len(), 21);
}

#[test]
fn messy_pgn_keeps_every_chess_game() {
    let file = read_pgn(&bytes("messy.pgn"));
    let plies: Vec<usize> = file.games.iter().map(|g| g.moves.len()).collect();
    assert_eq!(plies, [16, 12, 17, 15]);
    let statuses: Vec<String> = file
        .games
        .iter()
        .map(|g| match pgn::replay(g) {
            pgn::Replay::Ok(_) => "ok".to_owned(),
            pgn::Replay::Illegal { ply, text, .. } => format!("{ply} {text}"),
            pgn::Replay::Unreadable(why) => why,
        })
        .collect();
    assert_eq!(statuses, ["ok", "ok", "ok", "15 Kh8"]);
    assert_eq!(file.games[0].tag("White"), Some("Hélène"));
    assert_eq!(file.games[0].tag("Black"), Some("Jürgen"));
    assert_eq!(file.games[1].tag("White"), Some("A & B"));
    assert_eq!(file.games[2].result, None);
    let warnings: usize = file.games.iter().map(|g| g.warnings.len()).sum();
    assert_eq!(warnings, 7);
}

#[test]
fn a_file_of_junk_is_no_game_with_its_warnings() {
    let file = read_pdn(b"} ) ]\n[\n&amp; -\n");
    assert!(file.games.is_empty());
    assert_eq!(file.warnings.len(), 6);
    assert!(read_pdn(b"").games.is_empty());
}

/// A game of random legal moves.
fn random_game(choices: &[usize]) -> Game {
    let mut g = Game::new(Variant::International);
    for &c in choices {
        if g.outcome().is_some() {
            break;
        }
        let moves = g.position().legal_moves();
        g.play(&moves[c % moves.len()]).unwrap();
    }
    g
}

/// Defects seen between games in real exports, each on its own line
/// (`2-0` is read as `0-1` for chess, where it is no result).
const BETWEEN: [&[u8]; 22] = [
    b"[\n",
    b"[ \"no name\"]\n",
    b"[]\n",
    b"} ) ]\n",
    b"\\r\\n\n",
    b"\\n",
    b"&quot;&amp;\n",
    b"\x01\x02\n",
    b"-\n",
    b"2-0\n",
    b"*\n",
    b"1/2-1/2\n",
    b"{never closed\n",
    b"(never closed\n",
    b"\t\r\n",
    b"\xEF\xBB\xBF\n",
    b"M\xFCller \xE9t\xE9\n",
    b"% escape line\n",
    b"; a comment line\n",
    b"$x\n",
    b"...\n",
    b"\r",
];

/// Defects inside the move text, between two words.
const INSIDE: [&[u8]; 10] = [
    b" &amp; ", b" } ", b" ) ", b" ] ", b"\\r\\n", b" \x01 ", b" \" ", b" $x ", b"\t", b" \\n ",
];

/// Where and which defects go into a file.
#[derive(Debug, Clone)]
struct Defects {
    /// (defect, after which game) between games.
    between: Vec<(usize, usize)>,
    /// (defect, where) inside each game's move text.
    inside: Vec<(usize, prop::sample::Index)>,
    /// Line ends to cycle through.
    ends: Vec<&'static [u8]>,
    /// A blank line after each game.
    blank: bool,
}

fn defects() -> impl Strategy<Value = Defects> {
    let end = prop_oneof![Just(&b"\n"[..]), Just(&b"\r\n"[..]), Just(&b"\r"[..])];
    (
        prop::collection::vec((0..BETWEEN.len(), 0..5usize), 0..6),
        prop::collection::vec((0..INSIDE.len(), any::<prop::sample::Index>()), 0..6),
        prop::collection::vec(end, 1..4),
        any::<bool>(),
    )
        .prop_map(|(between, inside, ends, blank)| Defects {
            between,
            inside,
            ends,
            blank,
        })
}

/// Clean records (tags, a blank line, move text; White is `Müller i`)
/// made messy: `cp1252[i]` writes that game's name in Windows-1252,
/// `no_result[i]` drops its result.
fn make_messy(
    texts: &[String],
    cp1252: &[bool],
    no_result: &[bool],
    d: &Defects,
    chess: bool,
) -> Vec<u8> {
    let mut messy = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let mut text = text.trim_end().to_owned();
        if no_result[i] {
            let cut = text.rfind([' ', '\n']).map_or(0, |k| k + 1);
            text.truncate(cut);
        }
        let (head, body) = text.split_once("\n\n").unwrap();
        let mut words: Vec<Vec<u8>> = body.split(' ').map(|w| w.as_bytes().to_vec()).collect();
        for (k, at) in &d.inside {
            let at = at.index(words.len());
            words[at].extend_from_slice(INSIDE[*k]);
        }
        let mut bytes = head.as_bytes().to_vec();
        if cp1252[i] {
            let at = bytes
                .windows(7)
                .position(|w| w == "Müller".as_bytes())
                .unwrap();
            bytes.splice(at..at + 7, b"M\xFCller".iter().copied());
        }
        bytes.extend_from_slice(b"\n\n");
        bytes.extend_from_slice(&words.join(&b' '));
        bytes.push(b'\n');
        for (k, after) in &d.between {
            if *after % texts.len() == i {
                let defect = BETWEEN[*k];
                bytes.extend_from_slice(if chess && defect == b"2-0\n" {
                    b"0-1\n"
                } else {
                    defect
                });
            }
        }
        if d.blank {
            bytes.push(b'\n');
        }
        messy.push(bytes);
    }
    let mut all = Vec::new();
    for (i, b) in messy.concat().into_iter().enumerate() {
        if b == b'\n' {
            all.extend_from_slice(d.ends[i % d.ends.len()]);
        } else {
            all.push(b);
        }
    }
    all
}

fn header(i: usize) -> Vec<(String, String)> {
    vec![
        ("White".into(), format!("Müller {i}")),
        ("Black".into(), format!("B{i}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn injected_defects_lose_no_draughts_game_and_no_move(
        games in prop::collection::vec(
            (prop::collection::vec(any::<usize>(), 0..40), any::<bool>(), any::<bool>()),
            1..5,
        ),
        d in defects(),
    ) {
        let clean: Vec<Game> = games.iter().map(|(c, _, _)| random_game(c)).collect();
        let texts: Vec<String> = clean
            .iter()
            .enumerate()
            .map(|(i, g)| write_pdn(g, &PdnHeader { tags: header(i), comments: Vec::new() }, "*"))
            .collect();
        let cp1252: Vec<bool> = games.iter().map(|g| g.1).collect();
        let no_result: Vec<bool> = games.iter().map(|g| g.2).collect();
        let all = make_messy(&texts, &cp1252, &no_result, &d, false);
        let file = read_pdn(&all);
        prop_assert_eq!(file.games.len(), clean.len(), "{}", String::from_utf8_lossy(&all));
        for (i, (g, want)) in file.games.iter().zip(&clean).enumerate() {
            let white = format!("Müller {i}");
            prop_assert_eq!(g.tag("White"), Some(white.as_str()));
            let texts: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
            prop_assert_eq!(&texts, &want.move_texts(), "{}", String::from_utf8_lossy(&all));
            match replay(g, Variant::International) {
                Replay::Ok(back) => prop_assert_eq!(back.position(), want.position()),
                other => prop_assert!(false, "game {}: {}", i, other),
            }
        }
    }

    #[test]
    fn injected_defects_lose_no_chess_game_and_no_move(
        games in prop::collection::vec(
            (prop::collection::vec(0usize..64, 0..40), any::<bool>(), any::<bool>()),
            1..5,
        ),
        d in defects(),
    ) {
        let clean: Vec<ChessGame> = games
            .iter()
            .map(|(choices, _, _)| {
                let mut g = ChessGame::new();
                for c in choices {
                    let legal = g.legal_moves();
                    if legal.is_empty() || g.outcome().is_some() {
                        break;
                    }
                    g.play(&legal[c % legal.len()]).unwrap();
                }
                g
            })
            .collect();
        let texts: Vec<String> = clean
            .iter()
            .enumerate()
            .map(|(i, g)| pgn::write_pgn(g, &pgn::PgnHeader { tags: header(i), comments: Vec::new() }))
            .collect();
        let cp1252: Vec<bool> = games.iter().map(|g| g.1).collect();
        let no_result: Vec<bool> = games.iter().map(|g| g.2).collect();
        let all = make_messy(&texts, &cp1252, &no_result, &d, true);
        let file = read_pgn(&all);
        prop_assert_eq!(file.games.len(), clean.len(), "{}", String::from_utf8_lossy(&all));
        for (i, (g, want)) in file.games.iter().zip(&clean).enumerate() {
            let white = format!("Müller {i}");
            prop_assert_eq!(g.tag("White"), Some(white.as_str()));
            match pgn::replay(g) {
                pgn::Replay::Ok(back) => prop_assert_eq!(back.sans(), want.sans(), "{}", String::from_utf8_lossy(&all)),
                other => prop_assert!(false, "game {}: {}\n{}", i, other, String::from_utf8_lossy(&all)),
            }
        }
    }
}

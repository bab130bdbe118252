//! Real `.mat` files, as match servers, gnubg and other programs wrote them
//! (`tests/data/mat/real/`, each file's repository, path and commit in its
//! `PROVENANCE.md`), read by tandem ([`mat::read`]) and imported by GNU
//! Backgammon (`import mat`, Debian's gnubg 1.07): the final Position ID and
//! every Match ID field must be gnubg's. One gnubg process answers for all
//! files (about a second); each kind of file the issue names has its own
//! test. Without gnubg the tests fail, unless TANDEM_SKIP_REAL is set
//! outside CI.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use tandem_rules::backgammon::mat::{self, IrregularKind, MatRead};
use tandem_rules::backgammon::match_id::{self, MatchInfo};
use tandem_rules::backgammon::{Action, EndKind, Phase};

use tandem_testkit::gnubg;

fn dir() -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "tests", "data", "mat", "real"]
        .iter()
        .collect()
}

fn all_files() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| {
            let n = e.ok()?.file_name().into_string().ok()?;
            n.ends_with(".mat").then_some(n)
        })
        .collect();
    v.sort();
    v
}

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap()
}

/// tandem's reading, from the bytes as they are (CRLF, Latin-1).
fn ours(name: &str) -> MatRead {
    let raw = bytes(name);
    let text = tandem_rules::record::decode_text(&raw);
    mat::read(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// gnubg's Position ID and Match ID after `import mat` of every file, asked
/// once; `None` where gnubg is absent and the real tests may be skipped.
fn theirs() -> Option<&'static HashMap<String, (String, String)>> {
    static ANSWERS: OnceLock<Option<HashMap<String, (String, String)>>> = OnceLock::new();
    ANSWERS
        .get_or_init(|| {
            if !gnubg::present() {
                return None;
            }
            let files = all_files();
            let questions: String = files
                .iter()
                .map(|f| format!("M {}\n", dir().join(f).display()))
                .collect();
            let script: PathBuf = [
                env!("CARGO_MANIFEST_DIR"),
                "tests",
                "data",
                "gnubg_oracle.py",
            ]
            .iter()
            .collect();
            let tmp = tempfile::tempdir().unwrap();
            let (answers, stderr) = gnubg::ask(&script, tmp.path(), &questions);
            let lines: Vec<&str> = answers.lines().collect();
            assert_eq!(lines.len(), files.len(), "gnubg's stderr:\n{stderr}");
            Some(
                files
                    .into_iter()
                    .zip(lines)
                    .map(|(f, l)| {
                        let parts: Vec<&str> = l.split('\t').collect();
                        (f, (parts[1].to_owned(), parts[2].to_owned()))
                    })
                    .collect(),
            )
        })
        .as_ref()
}

fn gnubg_info(name: &str) -> Option<(String, MatchInfo)> {
    let (pid, mid) = theirs()?.get(name)?;
    Some((
        pid.clone(),
        match_id::decode(mid).unwrap_or_else(|e| panic!("{name}: {e}: {mid}")),
    ))
}

/// tandem's final Position ID and Match ID are gnubg's.
fn same_as_gnubg(name: &str) -> MatRead {
    let r = ours(name);
    if let Some((pid, info)) = gnubg_info(name) {
        assert_eq!(r.game.position_id(), pid, "{name}: Position ID");
        assert_eq!(match_id::of_match(&r.game), info, "{name}: Match ID");
    }
    r
}

/// The file's lines that hold a roll with nothing after it (`51:` alone in
/// its column), by a reading of the text that is not tandem's.
fn rolls_without_moves(name: &str) -> usize {
    let raw = bytes(name);
    let text = String::from_utf8_lossy(&raw);
    text.lines()
        .filter(|l| {
            let b = l.trim_end().as_bytes();
            (0..b.len().saturating_sub(2)).any(|i| {
                b[i].is_ascii_digit()
                    && b[i + 1].is_ascii_digit()
                    && b[i + 2] == b':'
                    && (i == 0 || b[i - 1] == b' ')
                    && b[i + 3..].iter().take(2).all(|&c| c == b' ')
                    && (i + 3 == b.len() || b.get(i + 4) == Some(&b' '))
            })
        })
        .count()
}

#[test]
fn every_real_file_reads_to_gnubgs_position_id_and_match_id() {
    let files = all_files();
    assert!(files.len() >= 30, "{files:?}");
    for f in &files {
        if f == POST_CRAWFORD {
            continue; // its own test: a kept difference
        }
        same_as_gnubg(f);
    }
}

#[test]
fn a_roll_then_a_resignation_reads_the_roll_and_the_resignation() {
    // FIBS and gnubg write a player who rolled and then resigned as the
    // roll alone, then `Wins N points` for the opponent.
    for f in [
        "kevung-roll_then_resign_1p.mat",
        "Amirrr-nori-2009Feb151603.mat",
        "BlueNote-nori-2009Feb221822.mat",
        "1989-nori-2009Jan172004.mat",
        "Kaneko-nori-2009Apr102316.mat",
    ] {
        assert!(rolls_without_moves(f) > 0, "{f}");
        let r = same_as_gnubg(f);
        let resigned_after_a_roll = r.game.games().iter().any(|g| {
            g.actions
                .windows(2)
                .any(|w| matches!((w[0].1, w[1].1), (Action::Roll(_), Action::Resign { .. })))
        });
        assert!(resigned_after_a_roll, "{f}");
        // tandem writes the roll alone too, and reads its file back the same.
        let out = mat::export(&r.game, &r.names);
        let (again, _) = mat::import(&out).unwrap_or_else(|e| panic!("{f}: {e}\n{out}"));
        assert_eq!(again.position_id(), r.game.position_id(), "{f}");
        assert_eq!(again.actions(), r.game.actions(), "{f}");
        assert_eq!(
            match_id::of_match(&again),
            match_id::of_match(&r.game),
            "{f}"
        );
        // The strict reader takes these files too.
        mat::import(&tandem_rules::record::decode_text(&bytes(f)))
            .unwrap_or_else(|e| panic!("{f}: {e}"));
    }
}

#[test]
fn a_forced_move_left_out_is_played_as_gnubg_plays_it() {
    for f in [
        "nicksbar-nori-2009Jan302316.mat",
        "Wakagashira-nori-2009Feb092123.mat",
        "HansK-nori-2009Jan251035.mat",
        "peyman76-nori-2009Jan172103.mat",
    ] {
        assert!(rolls_without_moves(f) > 0, "{f}");
        let r = same_as_gnubg(f);
        assert!(
            r.irregular.iter().all(|i| i.kind != IrregularKind::Illegal),
            "{f}: {:?}",
            r.irregular
        );
    }
}

#[test]
fn the_score_on_game_ones_line_starts_the_match_there() {
    for f in [
        "BlueNote-nori-2009Jan181115.mat",
        "BlueNote-nori-2009Apr071735.mat",
        "HooShanG-nori-2009Jan291902.mat",
        "Rusty-nori-2009Feb141124.mat",
        "Kopanze-nori-2009Mar220108.mat",
        "py199-nori-2009Jan171414.mat",
    ] {
        // The score as the file writes it on the line after `Game 1`.
        let raw = bytes(f);
        let text = String::from_utf8_lossy(&raw);
        let mut lines = text.lines().skip_while(|l| l.trim() != "Game 1");
        let score_line = lines.nth(1).unwrap();
        let written: Vec<u32> = score_line
            .split(':')
            .skip(1)
            .map(|p| {
                p.trim()
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
                    .parse()
                    .unwrap()
            })
            .collect();
        assert_ne!(written, [0, 0], "{f}: {score_line}");
        let r = same_as_gnubg(f);
        assert_eq!(r.game.games()[0].score.to_vec(), written, "{f}");
    }
}

/// A match continued from 6-5 of 7 whose first game has a double.
const POST_CRAWFORD: &str = "PghPete-nori-2009Jan242323.mat";

#[test]
fn a_double_in_the_crawford_game_a_files_score_makes_reads_it_post_crawford() {
    // 004 4.4 (iv): no doubling in the Crawford game. The file starts at 6-5
    // of 7 and doubles in its first game: the Crawford game was played
    // before. tandem reads the game as post-Crawford and says so; gnubg
    // keeps the Crawford flag. Everything else is gnubg's (docs/backgammon.md).
    let r = ours(POST_CRAWFORD);
    let note = r
        .irregular
        .iter()
        .find(|i| i.kind == IrregularKind::PostCrawford)
        .expect("the double is reported");
    assert_eq!((note.game, note.line), (1, 5));
    let Some((pid, mut info)) = gnubg_info(POST_CRAWFORD) else {
        return;
    };
    assert_eq!(r.game.position_id(), pid);
    assert!(info.crawford, "gnubg keeps the flag");
    info.crawford = false;
    assert_eq!(match_id::of_match(&r.game), info);
}

#[test]
fn a_match_won_in_the_crawford_game_keeps_the_crawford_flag_as_gnubg() {
    for f in [
        "1857680.mat",
        "1887435.mat",
        "1900211.mat",
        "gibbon-7point.mat",
        "Delphin-nori-2009Feb182239.mat",
        "Wakagashira-nori-2009Feb092123.mat",
    ] {
        let r = same_as_gnubg(f);
        assert_eq!(r.game.phase(), Phase::MatchOver, "{f}");
        if let Some((_, info)) = gnubg_info(f) {
            assert!(info.crawford, "{f}: gnubg's flag");
        }
        // The table's own view: no Crawford game is to come.
        assert!(!r.game.is_crawford(), "{f}");
    }
}

#[test]
fn after_a_match_ended_by_resignation_the_turn_is_gnubgs() {
    // A resignation leaves the turn where it was: after the loser's move
    // and resignation, the winner is on roll.
    for f in ["1863526.mat", "1865970.mat", "1910477.mat", "1864694.mat"] {
        let r = same_as_gnubg(f);
        assert!(
            matches!(r.game.last_end().map(|e| e.kind), Some(EndKind::Resign(_))),
            "{f}"
        );
        assert_eq!(r.game.phase(), Phase::MatchOver, "{f}");
    }
}

#[test]
fn hits_without_a_star_read() {
    for f in [
        "BlueNote-nori-2009Apr071735.mat",
        "HooShanG-nori-2009Jan291842.mat",
        "py199-nori-2009Jan171407.mat",
    ] {
        assert!(!bytes(f).contains(&b'*'), "{f}");
        let r = same_as_gnubg(f);
        assert!(r.irregular.is_empty(), "{f}: {:?}", r.irregular);
    }
}

#[test]
fn both_header_styles_and_crlf_lines_read() {
    // `; [EventDate ...]` tag lines before ` 7 point match` (gnubg's export);
    // a plain header with CRLF line ends (gibbon's sample).
    for (f, tags, crlf) in [
        ("kevung-charlot.mat", true, false),
        ("kevung-roll_then_resign_1p.mat", true, false),
        ("gibbon-7point.mat", false, true),
        ("1859149.mat", false, false),
    ] {
        let raw = bytes(f);
        assert_eq!(raw.starts_with(b"; ["), tags, "{f}");
        assert_eq!(raw.windows(2).any(|w| w == b"\r\n"), crlf, "{f}");
        let r = same_as_gnubg(f);
        assert!(r.irregular.is_empty(), "{f}: {:?}", r.irregular);
        assert!(!r.names.white.is_empty() && !r.names.white.ends_with('\r'));
        assert!(!r.names.black.ends_with('\r'), "{f}: {:?}", r.names);
    }
}

#[test]
fn an_illegal_recorded_move_is_reported_at_its_game_and_line_and_the_read_goes_on() {
    // Snowie writes an illegal play as `11: Illegal play (<position>)`.
    let f = "Nori-Kenji081229.mat";
    let r = same_as_gnubg(f);
    let first = r
        .irregular
        .iter()
        .find(|i| i.kind == IrregularKind::Illegal)
        .expect("reported");
    assert_eq!((first.game, first.line), (11, 315), "{first}");
    assert!(first.entry.contains("Illegal play"), "{first}");
    // Snowie gives the position each illegal play left; taken, the file's
    // later moves all play: the three illegal plays are all there is.
    let lines: Vec<usize> = r.irregular.iter().map(|i| i.line).collect();
    assert_eq!(lines, [315, 486, 517], "{:#?}", r.irregular);
    // All 23 games are read, to the end of the match.
    assert_eq!(r.game.games().len(), 23);
    assert_eq!(r.game.phase(), Phase::MatchOver);
    // The strict reader refuses the file at that line.
    let e = mat::import(&tandem_rules::record::decode_text(&bytes(f))).unwrap_err();
    assert!(e.to_string().starts_with("line 315:"), "{e}");
}

#[test]
fn a_roll_without_its_move_then_the_opponents_turn_is_reported_and_read_on() {
    // FIBS wrote white's `31:` alone and black's turn after it.
    let f = "Wakagashira-nori-2009Feb092110.mat";
    let r = same_as_gnubg(f);
    let missing: Vec<_> = r
        .irregular
        .iter()
        .filter(|i| i.kind == IrregularKind::Missing)
        .collect();
    assert_eq!(missing.len(), 1, "{:?}", r.irregular);
    assert_eq!((missing[0].game, missing[0].line), (2, 47));
    assert!(missing[0].why.contains("31"), "{}", missing[0]);
    assert_eq!(r.game.phase(), Phase::MatchOver);
}

#[test]
fn latin1_names_read_and_change_nothing_else() {
    // No public file with a Latin-1 name was found: gibbon's real sample
    // (CRLF) with its first player renamed in Latin-1 bytes ("Müller", ü =
    // 0xFC), as a European server's export writes it. The match itself is
    // the sample's, whose IDs gnubg gives in `same_as_gnubg`.
    let f = "gibbon-7point.mat";
    let raw = bytes(f);
    let mut latin1 = Vec::new();
    let mut rest = &raw[..];
    while let Some(i) = rest.windows(8).position(|w| w == b"JoeBlack") {
        latin1.extend_from_slice(&rest[..i]);
        latin1.extend_from_slice(b"M\xfcller");
        rest = &rest[i + 8..];
    }
    latin1.extend_from_slice(rest);
    assert!(latin1.contains(&0xFC) && std::str::from_utf8(&latin1).is_err());
    let text = tandem_rules::record::decode_text(&latin1);
    let r = mat::read(&text).unwrap_or_else(|e| panic!("{f} in Latin-1: {e}"));
    let names = [r.names.white.as_str(), r.names.black.as_str()];
    assert!(names.contains(&"Müller"), "{names:?}");
    let original = same_as_gnubg(f);
    assert_eq!(r.game.position_id(), original.game.position_id());
    assert_eq!(
        match_id::of_match(&r.game),
        match_id::of_match(&original.game)
    );
    assert!(r.irregular.is_empty(), "{:?}", r.irregular);
}

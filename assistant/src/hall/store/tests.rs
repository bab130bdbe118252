use super::aside::GAMES_PER_HOUR;
use super::*;

fn lines() -> Vec<LineMsg> {
    lines_of(None)
}

fn lines_of(white: Option<&str>) -> Vec<LineMsg> {
    journal_lines(white, "90m")
}

#[test]
fn lines_in_order_duplicates_gaps_and_edits() {
    let l = lines();
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t/table-1.jsonl");
    let mut t = TableCopy::open(1, &f).unwrap();
    assert_eq!(t.take(l[0].clone()).0, Taken::Appended(1));
    assert_eq!(t.take(l[0].clone()).0, Taken::Duplicate);
    assert_eq!(t.take(l[2].clone()).0, Taken::Gap(2));
    assert_eq!(t.take(l[3].clone()).0, Taken::Gap(2));
    assert!(t.lacking());
    assert_eq!(t.take(l[1].clone()).0, Taken::Appended(3));
    assert_eq!(t.len(), 4);
    assert!(t.chain_ok && !t.lacking());
    // What the desk wrote verifies as a journal.
    let j = Journal::read(&f).unwrap();
    assert!(j.bad.is_none() && j.torn.is_none());
    assert_eq!(j.records.len(), 4);
    // An edited line 2 sent again is an alert.
    let mut edited = l[1].clone();
    edited.line = edited.line.replace("tick", "tock");
    edited.hash = line_hash(edited.line.as_bytes());
    assert_eq!(t.take(edited).0, Taken::Bad);
    assert!(!t.chain_ok);
    assert!(t.alerts.iter().any(|a| a.kind == "chain"));
    // The copy is read back by a desk that restarts.
    let mut again = TableCopy::open(1, &f).unwrap();
    assert_eq!(again.len(), 4);
    // The break stays shown, across a restart, until the arbiter acknowledges it.
    assert!(!again.chain_ok);
    assert!(again.alerts.iter().any(|a| a.kind == "chain"));
    again.acknowledge().unwrap();
    assert!(TableCopy::open(1, &f).unwrap().chain_ok);
}

/// Where the desk puts aside the copy of table `n`'s earlier game `g`.
fn aside_of(dir: &tempfile::TempDir, n: u32, g: &[LineMsg]) -> std::path::PathBuf {
    dir.path()
        .join(format!("table-{n}-{}.jsonl", &g[0].hash[..12]))
}

/// A new copy of table `n` that took the first of [`lines`].
fn first_line_taken(n: u32) -> (tempfile::TempDir, TableCopy, Vec<LineMsg>) {
    let l = lines();
    let (dir, _, mut t) = open_copy(n);
    t.take(l[0].clone());
    (dir, t, l)
}

/// What [`game_begun`] gives.
type Begun = (
    tempfile::TempDir,
    std::path::PathBuf,
    TableCopy,
    Vec<LineMsg>,
    Vec<LineMsg>,
);

/// A new copy of table `n` that took the first two lines of a game `a`
/// (the next game `b` not yet begun): the folder, the file, the copy,
/// `a` and `b`.
fn game_begun(n: u32) -> Begun {
    let (a, b) = two_games();
    let (dir, f, mut t) = open_copy(n);
    t.take(a[0].clone());
    t.take(a[1].clone());
    (dir, f, t, a, b)
}

/// A game's lines and those of the next one (another round).
fn two_games() -> (Vec<LineMsg>, Vec<LineMsg>) {
    (
        with_game(&lines()),
        with_game(&lines_of(Some("Next round"))),
    )
}

/// A new copy of table `n` in a folder of its own: the folder (kept while
/// the test runs), the copy's file, the copy.
fn open_copy(n: u32) -> (tempfile::TempDir, std::path::PathBuf, TableCopy) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join(format!("table-{n}.jsonl"));
    let t = TableCopy::open(n, &f).unwrap();
    (dir, f, t)
}

fn with_game(l: &[LineMsg]) -> Vec<LineMsg> {
    l.iter()
        .map(|m| LineMsg {
            game: l[0].hash.clone(),
            ..m.clone()
        })
        .collect()
}

#[test]
fn a_made_up_game_erases_nothing_and_no_copy_is_overwritten() {
    let a = with_game(&lines());
    let (dir, f, mut t) = open_copy(5);
    for m in &a {
        t.take(m.clone());
    }
    let before = std::fs::read(&f).unwrap();
    // A made-up game id on a line that is not a journal's start.
    let mut fake = a[1].clone();
    fake.game = "f".repeat(64);
    assert_eq!(t.take(fake).0, Taken::Gap(1));
    // Line 1 of a game whose id is not its hash.
    let mut fake1 = a[0].clone();
    fake1.game = "e".repeat(64);
    assert_eq!(t.take(fake1).0, Taken::Gap(1));
    assert_eq!(std::fs::read(&f).unwrap(), before, "the copy is untouched");
    assert_eq!(t.len(), 4);
    assert!(t.alerts.iter().any(|a| a.kind == "junk"));
    // The chain breaks, then a real new game starts: still broken, alerts kept.
    let mut edited = a[2].clone();
    edited.line = edited.line.replace("tick", "tock");
    edited.hash = line_hash(edited.line.as_bytes());
    assert_eq!(t.take(edited).0, Taken::Bad);
    assert!(!t.chain_ok);
    let b = with_game(&lines_of(Some("Next")));
    assert_eq!(t.take(b[0].clone()).0, Taken::Appended(1));
    assert!(!t.chain_ok, "a new game does not mend a broken chain");
    assert!(t.alerts.iter().any(|a| a.kind == "chain"));
    let aside = aside_of(&dir, 5, &a);
    assert_eq!(std::fs::read(&aside).unwrap(), before);
    // The first game's lines again: two machines, an alert; the copy stays with the new game.
    assert_eq!(t.take(a[3].clone()).0, Taken::Bad);
    assert!(t.alerts.iter().any(|a| a.kind == "duplicate"));
    assert_eq!(t.game(), Some(b[0].hash.as_str()));
    // The first game starting over (same first line) is the same game id: no overwrite.
    let c = with_game(&lines_of(Some("Third")));
    t.take(c[0].clone());
    let aside_b = aside_of(&dir, 5, &b);
    assert!(aside_b.exists());
    assert_eq!(std::fs::read(&aside).unwrap(), before, "never overwritten");
}

#[test]
fn junk_is_bounded_and_repeated_alerts_are_one() {
    let (dir, mut t, l) = first_line_taken(6);
    // Two lines in one: refused (the copy would hold a line that is not one).
    let mut two = l[1].clone();
    two.line.push_str("\n{}");
    two.hash = line_hash(two.line.as_bytes());
    assert_eq!(t.take(two).0, Taken::Bad);
    assert_eq!(t.len(), 1);
    // Lines far ahead: held up to the bounds, no more.
    let far = |seq: u64, pad: usize| {
        let line = format!("{{\"pad\":\"{}\",\"seq\":{seq}}}", "x".repeat(pad));
        LineMsg {
            seq,
            hash: line_hash(line.as_bytes()),
            line,
            game: String::new(),
            earlier: false,
        }
    };
    for seq in 3..(3 + MAX_PENDING as u64 + 50) {
        t.take(far(seq, 0));
    }
    assert_eq!(t.pending_size().0, MAX_PENDING);
    let mut t = TableCopy::open(7, &dir.path().join("table-7.jsonl")).unwrap();
    t.take(l[0].clone());
    for seq in 3..(3 + (MAX_PENDING_BYTES / (64 << 10)) as u64 + 20) {
        t.take(far(seq, 64 << 10));
    }
    let (n, bytes) = t.pending_size();
    assert!(
        bytes <= MAX_PENDING_BYTES && n < MAX_PENDING,
        "{n} lines, {bytes} bytes"
    );
    // The same alert again is not a new one.
    let a = Alert {
        kind: "behind".into(),
        text: "x".repeat(5000),
        seq: None,
        wall: String::new(),
    };
    assert!(t.raise(a.clone()));
    assert!(!t.raise(a));
    assert!(t.alerts.last().unwrap().text.len() <= MAX_ALERT_TEXT + 3);
}

#[test]
fn another_game_at_the_table_starts_a_new_copy() {
    let (a, b) = (lines(), lines_of(Some("Next round")));
    let (dir, _, mut t) = open_copy(3);
    for m in &a {
        let mut m = m.clone();
        m.game = a[0].hash.clone();
        t.take(m);
    }
    assert_eq!(t.len(), 4);
    let mut first = b[0].clone();
    first.game = b[0].hash.clone();
    assert_eq!(t.take(first).0, Taken::Appended(1));
    assert_eq!(t.len(), 1);
    assert!(t.chain_ok);
    assert!(t.alerts.iter().any(|a| a.kind == "new-game"));
    let aside = aside_of(&dir, 3, &a);
    assert_eq!(Journal::read(&aside).unwrap().records.len(), 4);
}

#[test]
fn an_earlier_games_left_over_lines_go_to_its_own_copy() {
    let (dir, f, mut t, a, b) = game_begun(4);
    // Game a's first two lines, then game b starts: a is put aside.
    assert_eq!(t.take(b[0].clone()).0, Taken::Appended(1));
    let aside = aside_of(&dir, 4, &a);
    // The rest of game a, sent as left over: into its copy, no alert of a second machine.
    let earlier = |m: &LineMsg| LineMsg {
        earlier: true,
        ..m.clone()
    };
    assert_eq!(t.take_earlier(earlier(&a[3])).0, Taken::Gap(3));
    assert_eq!(t.take_earlier(earlier(&a[2])).0, Taken::Appended(2));
    assert_eq!(t.take_earlier(earlier(&a[2])).0, Taken::Duplicate);
    let whole: String = a.iter().map(|m| format!("{}\n", m.line)).collect();
    assert_eq!(std::fs::read_to_string(&aside).unwrap(), whole);
    assert!(!t.alerts.iter().any(|x| x.kind == "duplicate"));
    assert!(t.chain_ok);
    assert_eq!(t.game(), Some(b[0].hash.as_str()));
    assert_eq!(t.len(), 1);
    // The same lines not marked: two machines, as before.
    assert_eq!(t.take(a[3].clone()).0, Taken::Bad);
    assert!(t.alerts.iter().any(|x| x.kind == "duplicate"));
    // A game the desk never had: asked for from its line 1, then kept aside.
    let c = with_game(&lines_of(Some("Third")));
    assert_eq!(t.take_earlier(earlier(&c[2])).0, Taken::Gap(1));
    for m in &c {
        t.take_earlier(earlier(m));
    }
    let aside_c = aside_of(&dir, 4, &c);
    let whole: String = c.iter().map(|m| format!("{}\n", m.line)).collect();
    assert_eq!(std::fs::read_to_string(&aside_c).unwrap(), whole);
    // An edited left-over line breaks the table's chain, as any line would.
    let mut edited = earlier(&a[3]);
    edited.line = edited.line.replace("tick", "tock");
    edited.hash = line_hash(edited.line.as_bytes());
    assert_eq!(t.take_earlier(edited).0, Taken::Bad);
    assert!(!t.chain_ok);
    // A desk restarted finds the copy aside again by its game.
    let mut again = TableCopy::open(4, &f).unwrap();
    assert_eq!(again.take_earlier(earlier(&a[3])).0, Taken::Duplicate);
    // Lines of two earlier games in turn: each copy read once and kept, every line taken.
    let taken: Vec<Taken> = (0..10)
        .map(|i| {
            let m = if i % 2 == 0 { &a[1] } else { &c[1] };
            again.take_earlier(earlier(m)).0
        })
        .collect();
    assert!(taken.iter().all(|t| *t == Taken::Duplicate), "{taken:?}");
    assert_eq!(again.aside_opened.1, 2);
}

#[test]
fn the_desk_asks_for_what_it_lacks_of_an_earlier_game_the_table_sends() {
    let (_dir, _, mut t, a, b) = game_begun(9);
    t.take(b[0].clone());
    let said = |g: &str, lines: u64| {
        Some(serde_json::json!({"earlier_journals": [
            {"game": "not a game", "lines": 3},
            {"game": g, "lines": lines}]}))
    };
    // Game a: the desk holds 2 of its 4 lines.
    t.state = said(&a[0].hash, 4);
    assert_eq!(t.earlier_lacking(), Some((a[0].hash.clone(), 3)));
    let earlier = |m: &LineMsg| LineMsg {
        earlier: true,
        ..m.clone()
    };
    t.take_earlier(earlier(&a[2]));
    assert_eq!(t.earlier_lacking(), Some((a[0].hash.clone(), 4)));
    t.take_earlier(earlier(&a[3]));
    assert_eq!(t.earlier_lacking(), None);
    // A game the desk never had: from its line 1. The current game: never.
    let c = with_game(&lines_of(Some("Third")));
    t.state = said(&c[0].hash, 4);
    assert_eq!(t.earlier_lacking(), Some((c[0].hash.clone(), 1)));
    t.state = said(&b[0].hash, 9);
    assert_eq!(t.earlier_lacking(), None);
}

#[test]
fn a_line_not_chained_is_refused() {
    let (_dir, mut t, l) = first_line_taken(2);
    // Line 3 relabelled as line 2 (line 2 removed).
    let mut moved = l[2].clone();
    moved.seq = 2;
    assert_eq!(t.take(moved).0, Taken::Bad);
    assert!(!t.chain_ok);
    let mut bad_hash = l[1].clone();
    bad_hash.hash = "00".into();
    assert_eq!(t.take(bad_hash).0, Taken::Bad);
}

#[test]
fn a_break_in_the_copy_found_at_start_is_kept_across_restarts() {
    let l = lines();
    let (dir, f, mut t) = open_copy(1);
    for m in &l {
        t.take(m.clone());
    }
    drop(t);
    // Line 2 edited on disk while the desk was stopped.
    let text = std::fs::read_to_string(&f).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut v: Value = serde_json::from_str(&lines[1]).unwrap();
    v["wall"] = Value::from("2000-01-01T00:00:00Z");
    lines[1] = v.to_string();
    let edited = lines.join("\n") + "\n";
    std::fs::write(&f, &edited).unwrap();
    let t = TableCopy::open(1, &f).unwrap();
    assert!(!t.chain_ok);
    // Line 2 edited: the break is found at line 3; line 2 is not kept either.
    assert_eq!(t.len(), 1, "the lines before the break");
    let a = t.alerts.iter().find(|a| a.kind == "chain").unwrap();
    assert!(
        a.text.contains("line 3") && a.text.contains("table-1.jsonl.broken-1"),
        "{a:?}"
    );
    drop(t);
    // The whole broken copy kept aside, byte for byte; the copy verifies.
    let aside = dir.path().join("table-1.jsonl.broken-1");
    assert_eq!(std::fs::read_to_string(&aside).unwrap(), edited);
    assert!(Journal::read(&f).unwrap().bad.is_none());
    // Any number of restarts: still broken, until the arbiter acknowledges.
    for _ in 0..3 {
        assert!(!TableCopy::open(1, &f).unwrap().chain_ok);
    }
    TableCopy::open(1, &f).unwrap().acknowledge().unwrap();
    assert!(TableCopy::open(1, &f).unwrap().chain_ok);
    // A second break is kept beside the first, never over it.
    std::fs::write(&f, &edited).unwrap();
    assert!(!TableCopy::open(1, &f).unwrap().chain_ok);
    assert!(dir.path().join("table-1.jsonl.broken-2").exists());
    assert_eq!(std::fs::read_to_string(&aside).unwrap(), edited);
}

/// A game of `n` announcements of `pad` bytes, as relayed lines with their game.
fn big_game(white: &str, n: usize, pad: usize) -> Vec<LineMsg> {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("j.jsonl");
    let mut w = crate::journal::JournalWriter::create(&p).unwrap();
    let first = &journal_lines(Some(white), "90m")[0];
    let start: Record = serde_json::from_str(&first.line).unwrap();
    w.append(0, start.event).unwrap();
    for i in 0..n {
        w.append(
            i as u64,
            crate::journal::Event::Announced {
                kind: "sync".into(),
                priority: "normal".into(),
                text: "x".repeat(pad),
                to: Vec::new(),
                lang: None,
            },
        )
        .unwrap();
    }
    let lines = line_msgs(&std::fs::read_to_string(&p).unwrap());
    with_game(&lines)
}

#[test]
fn a_big_copy_aside_is_read_on_another_thread_never_while_a_line_is_taken() {
    let a = big_game("Big", 300, 4_000);
    let b = with_game(&lines_of(Some("Next round")));
    let (_dir, _, mut t) = open_copy(5);
    for m in &a {
        t.take(m.clone());
    }
    t.take(b[0].clone());
    let earlier = |m: &LineMsg| LineMsg {
        earlier: true,
        ..m.clone()
    };
    // Game a's copy (1.2 MB) is not read here: the line is refused, the copy wanted.
    assert_eq!(t.take_earlier(earlier(&a[5])).0, Taken::Bad);
    let (game, file) = t.take_load().expect("a copy to read elsewhere");
    assert_eq!(game, a[0].hash);
    assert!(t.loading && t.take_load().is_none(), "one read at a time");
    // Read (as on another thread), then kept: the desk asks for what follows.
    let copy = TableCopy::open_with(5, &file, false);
    assert_eq!(t.loaded(game, &file, copy), Ok(Some(302)));
    assert!(!t.loading);
    assert_eq!(t.take_earlier(earlier(&a[5])).0, Taken::Duplicate);
    assert_eq!(t.take_earlier(earlier(&b[1])).0, Taken::Appended(1));
}

#[test]
fn a_table_starts_at_most_so_many_games_an_hour() {
    let (dir, _, mut t) = open_copy(6);
    let mut taken = 0;
    for i in 0..GAMES_PER_HOUR + 5 {
        let g = with_game(&lines_of(Some(&format!("Player {i}"))));
        if t.take(g[0].clone()).0 == Taken::Appended(1) {
            taken += 1;
        }
    }
    // The first game and GAMES_PER_HOUR more; the rest refused, said once.
    assert_eq!(taken, GAMES_PER_HOUR + 1);
    assert_eq!(t.alerts.iter().filter(|a| a.kind == "games").count(), 1);
    let files = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(files, GAMES_PER_HOUR + 1, "the copies aside and the copy");
}

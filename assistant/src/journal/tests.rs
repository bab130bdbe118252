use super::*;

fn start() -> Event {
    Event::Start(StartInfo {
        warnings_s: vec![300, 60, 10],
        white: Some("A".into()),
        lang: "pl".into(),
        ..StartInfo::for_tests()
    })
}

/// The journal at `p`, which has no bad line and no torn one.
fn read_whole(p: &Path) -> Journal {
    let j = Journal::read(p).unwrap();
    assert_whole(&j);
    j
}

/// The journal at `p` is whole and has `n` records, the last `last`.
fn read_ending(p: &Path, n: usize, last: &Event) {
    let j = read_whole(p);
    assert_eq!(j.records.len(), n);
    assert_eq!(&j.records[n - 1].event, last);
}

/// The journal read has no bad line and no torn one.
fn assert_whole(j: &Journal) {
    assert!(
        j.bad.is_none() && j.torn.is_none(),
        "{:?} {:?}",
        j.bad,
        j.torn
    );
}

/// The journal file with `from` replaced by `to` (a line edited by hand).
fn edit(p: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(p).unwrap().replace(from, to);
    std::fs::write(p, text).unwrap();
}

/// A writer resuming the journal file `p`.
fn resumed(p: &Path) -> JournalWriter {
    JournalWriter::resume(p, &Journal::read(p).unwrap()).unwrap()
}

fn mv(ply: u32, text: &str) -> Event {
    Event::Move {
        ply,
        side: if ply % 2 == 1 {
            Color::White
        } else {
            Color::Black
        },
        text: text.into(),
        input: text.into(),
        source: Source::Typed,
        move_ms: 1000,
        white_ms: 5_399_000,
        black_ms: 5_400_000,
        seat: None,
    }
}

pub(super) fn sample() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("g.jsonl");
    let mut w = JournalWriter::create(&p).unwrap();
    w.append(0, start()).unwrap();
    w.append(1000, mv(1, "32-28")).unwrap();
    w.append(2000, mv(2, "19-23")).unwrap();
    w.append(
        2500,
        Event::BoardDone {
            side: Color::White,
            ply: 2,
            source: Source::Control,
        },
    )
    .unwrap();
    (dir, p)
}

#[test]
fn a_written_journal_reads_back_and_verifies() {
    let (_d, p) = sample();
    let j = Journal::read(&p).unwrap();
    assert_eq!(j.records.len(), 4);
    assert_whole(&j);
    assert_eq!(j.records[1].event, mv(1, "32-28"));
    assert_eq!(j.records[0].prev, GENESIS);
    assert!(j.start().is_some());
    assert_eq!(j.last_t_ms(), 2500);
}

#[test]
fn an_edited_line_is_named() {
    let (_d, p) = sample();
    edit(&p, "19-23", "19-24");
    let j = Journal::read(&p).unwrap();
    // The edited line 3 itself parses; line 4's hash of it no longer matches.
    assert_eq!(j.bad.as_ref().unwrap().line, 4, "{:?}", j.bad);
    assert_eq!(j.records.len(), 3);
}

#[test]
fn a_removed_or_swapped_line_is_named() {
    let (_d, p) = sample();
    let lines: Vec<String> = std::fs::read_to_string(&p)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let removed = format!("{}\n{}\n{}\n", lines[0], lines[1], lines[3]);
    let j = Journal::parse(removed.as_bytes());
    assert_eq!(j.bad.unwrap().line, 3);
    let swapped = format!("{}\n{}\n{}\n{}\n", lines[0], lines[2], lines[1], lines[3]);
    let j = Journal::parse(swapped.as_bytes());
    assert_eq!(j.bad.unwrap().line, 2);
}

#[test]
fn a_torn_last_line_is_dropped_and_cut_on_resume() {
    let (_d, p) = sample();
    let full = std::fs::read(&p).unwrap();
    let mut torn = full.clone();
    torn.extend_from_slice(br#"{"seq":5,"wall":"2026"#);
    std::fs::write(&p, &torn).unwrap();
    let j = Journal::read(&p).unwrap();
    assert_eq!(j.records.len(), 4);
    assert!(j.bad.is_none());
    assert_eq!(j.torn.as_ref().unwrap().line, 5);
    let mut w = JournalWriter::resume(&p, &j).unwrap();
    w.append(
        3000,
        Event::Resumed {
            lines: 4,
            torn: true,
        },
    )
    .unwrap();
    let j2 = read_whole(&p);
    assert_eq!(j2.records.len(), 5);
    assert!(std::fs::read(&p).unwrap().starts_with(&full));
}

#[test]
fn garbage_after_a_power_loss_is_torn_not_bad() {
    let (_d, p) = sample();
    let mut bytes = std::fs::read(&p).unwrap();
    bytes.extend_from_slice(&[0u8; 40]);
    bytes.push(b'\n');
    let j = Journal::parse(&bytes);
    assert!(j.bad.is_none());
    assert_eq!(j.torn.unwrap().line, 5);
}

/// `/dev/full` gives a real `ENOSPC` on every write: the writer keeps
/// the lines, copies the journal to the fallback folder, and writes them
/// all, in order, when the file can be written again.
#[test]
fn a_full_disk_keeps_lines_copies_them_and_flushes_them_later() {
    let (d, p) = sample();
    let fb = d.path().join("fallback");
    let mut w = resumed(&p).with_fallback_dirs(vec![PathBuf::from("/proc/no/such"), fb.clone()]);
    w.file = OpenOptions::new().write(true).open("/dev/full").unwrap();
    w.append(3000, mv(3, "33-29")).unwrap();
    let Some(HealthChange::Degraded {
        from_seq,
        fallback,
        error,
    }) = w.take_change()
    else {
        panic!("no degraded change")
    };
    assert_eq!(from_seq, 5);
    assert!(error.contains("No space"), "{error}");
    let copy = fallback.unwrap();
    assert!(copy.starts_with(&fb));
    w.append(4000, mv(4, "23x34")).unwrap();
    let h = w.health();
    assert!(!h.ok && h.fallback_ok && h.pending == 2, "{h:?}");
    assert!(h.error.is_some());
    // The copy is a whole journal with the kept lines.
    let j = read_whole(&copy);
    assert_eq!(j.records.len(), 6);
    assert!(!w.retry());
    // The disk is back.
    w.file = OpenOptions::new().append(true).open(&p).unwrap();
    assert!(w.retry());
    assert_eq!(
        w.take_change(),
        Some(HealthChange::Recovered { flushed: 2 })
    );
    w.append(5000, mv(5, "38-33")).unwrap();
    read_ending(&p, 7, &mv(5, "38-33"));
    assert!(w.health().ok);
}

/// A second failure after a recovery: the fallback copy is made again
/// from the journal file, so it is still a whole journal (the lines
/// written in between are in it) and a resume from it loses nothing.
#[test]
fn a_second_failure_after_a_recovery_refreshes_the_fallback_copy() {
    let (d, p) = sample();
    let fb = d.path().join("fallback");
    let mut w = resumed(&p).with_fallback_dirs(vec![fb]);
    let full = || OpenOptions::new().write(true).open("/dev/full").unwrap();
    let back = || OpenOptions::new().append(true).open(&p).unwrap();
    w.file = full();
    w.append(3000, mv(3, "33-29")).unwrap();
    w.file = back();
    assert!(w.retry());
    // Written to the journal file only, while it is healthy.
    w.append(4000, mv(4, "23x34")).unwrap();
    w.append(5000, mv(5, "40x29")).unwrap();
    w.file = full();
    w.append(6000, mv(6, "18-23")).unwrap();
    let Some(HealthChange::Degraded {
        fallback: Some(copy),
        ..
    }) = w.take_change()
    else {
        panic!("no degraded change with a fallback copy")
    };
    read_ending(&copy, 8, &mv(6, "18-23"));
    assert!(w.health().fallback_ok);
}

#[test]
fn create_refuses_to_overwrite() {
    let (_d, p) = sample();
    assert_eq!(
        JournalWriter::create(&p).unwrap_err().kind(),
        io::ErrorKind::AlreadyExists
    );
}

#[test]
fn a_tampered_journal_is_not_resumed() {
    let (_d, p) = sample();
    edit(&p, "32-28", "33-28");
    let j = Journal::read(&p).unwrap();
    assert_eq!(
        JournalWriter::resume(&p, &j).unwrap_err().kind(),
        io::ErrorKind::InvalidData
    );
}

/// The relay's wake-up (issue 47): told each time lines reach the file, with
/// the file's line count; not for a line kept in memory while the file
/// refuses it, and again once the kept lines are written.
#[test]
fn a_follower_is_told_when_lines_reach_the_file() {
    let (dir, p) = sample();
    let mut w = JournalWriter::resume(&p, &Journal::read(&p).unwrap())
        .unwrap()
        .with_fallback_dirs(vec![dir.path().join("copies")]);
    let mut seen = w.written();
    assert_eq!(*seen.borrow_and_update(), 4);
    w.append(3000, mv(3, "31-27")).unwrap();
    assert!(seen.has_changed().unwrap());
    assert_eq!(*seen.borrow_and_update(), 5);
    // The disk refuses the next line: it is kept, nothing reached the file.
    w.file = OpenOptions::new().write(true).open("/dev/full").unwrap();
    w.append(4000, mv(4, "20-24")).unwrap();
    assert!(!seen.has_changed().unwrap());
    // The file writable again: both kept lines go in at the next retry.
    w.file = OpenOptions::new().append(true).open(&p).unwrap();
    assert!(w.retry());
    assert_eq!(*seen.borrow_and_update(), 6);
    assert_eq!(std::fs::read_to_string(&p).unwrap().lines().count(), 6);
    // The writer gone (the session stopped): nothing more will come.
    drop(w);
    assert!(seen.has_changed().is_err());
}

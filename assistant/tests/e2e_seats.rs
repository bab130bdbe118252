//! Two seats at one table, end to end (001 ch. VIII 1.3, 5.1): the real
//! `tandem play` with `--seat white:speech=left,braille=brlapi:…` and
//! `--seat black:speech=right,braille=brlapi:…`, two real BRLTTY instances
//! (the `vr` driver: one display for each player), and the one stereo
//! output (one splitter, two earphones) captured through ALSA's file
//! plugin and measured with sox channel by channel.
//!
//! White's `clock` has energy on the left channel and none on the right; a
//! move is heard on both; black's move on white's turn is refused on the
//! right channel alone and nothing is played; the answer to white's
//! question shows on white's display and not on black's; the journal says
//! who heard what.
//!
//! Without BRLTTY, espeak-ng, aplay or sox the test fails with a message,
//! unless `TANDEM_SKIP_REAL` is set outside CI.

mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{ctl, journal_events, real_brltty, real_game, wait_ply, Daemon};
use tandem_braille::testing::brltty::VirtualBrltty;

const T: Duration = Duration::from_secs(30);

/// The stereo output of the table: ALSA's default device written to raw
/// files (16-bit, 22,050 Hz, two channels).
struct Capture {
    _dir: tempfile::TempDir,
    conf: PathBuf,
}

impl Capture {
    fn new() -> Capture {
        let dir = tempfile::tempdir().unwrap();
        let raw = dir.path().join("out.raw");
        let conf = dir.path().join("asound.conf");
        std::fs::write(
            &conf,
            format!(
                "pcm.seatcap {{ type file; slave.pcm \"null\"; file \"{}\"; format \"raw\"; truncate false }}\n\
                 pcm.!default {{ type plug; slave {{ pcm \"seatcap\"; format S16_LE; rate 22050; channels 2 }} }}\n",
                raw.display()
            ),
        )
        .unwrap();
        Capture { _dir: dir, conf }
    }

    fn env(&self) -> (&'static str, String) {
        (
            "ALSA_CONFIG_PATH",
            format!("/usr/share/alsa/alsa.conf:{}", self.conf.display()),
        )
    }

    /// The files written so far: ALSA's file plugin starts a new one
    /// (`out.raw`, `out.raw.0001`, …) for each stream it is opened for,
    /// so each utterance and each seat's stream is a file of its own.
    fn files(&self) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(self._dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("out.raw"))
            })
            .collect();
        v.sort();
        v
    }

    fn mark(&self) -> usize {
        self.files().len()
    }

    fn bytes(&self) -> u64 {
        self.files()
            .iter()
            .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
            .sum()
    }

    /// The audio of the streams opened after `mark`, once the output has
    /// been quiet for `quiet`: each channel's RMS amplitude measured by sox
    /// (the loudest stream's).
    fn since(&self, mark: usize, quiet: Duration) -> (f64, f64) {
        let t0 = Instant::now();
        let mut last = (self.bytes(), Instant::now());
        loop {
            std::thread::sleep(Duration::from_millis(50));
            let now = self.bytes();
            if now != last.0 {
                last = (now, Instant::now());
            } else if last.1.elapsed() >= quiet && self.mark() > mark {
                break;
            }
            assert!(t0.elapsed() < T, "no new audio, or it never went quiet");
        }
        let files = self.files();
        files[mark..].iter().fold((0.0, 0.0), |(l, r), f| {
            (f64::max(l, rms(f, 1)), f64::max(r, rms(f, 2)))
        })
    }
}

/// One channel's RMS amplitude (0 to 1) of a raw stereo file, by sox.
fn rms(raw: &Path, channel: u32) -> f64 {
    if std::fs::metadata(raw).map_or(0, |m| m.len()) == 0 {
        return 0.0;
    }
    let out = std::process::Command::new("sox")
        .args([
            "-t", "raw", "-r", "22050", "-e", "signed", "-b", "16", "-c", "2",
        ])
        .arg(raw)
        .args(["-n", "remix", &channel.to_string(), "stat"])
        .output()
        .expect("sox");
    let text = String::from_utf8_lossy(&out.stderr);
    text.lines()
        .find(|l| l.starts_with("RMS     amplitude:"))
        .and_then(|l| l.split(':').nth(1))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("sox stat said: {text}"))
}

/// A table of seats: `tandem play --voice off --journal J ARGS…` with its
/// speech going to `audio`.
struct Seated {
    _dir: tempfile::TempDir,
    socket: PathBuf,
    journal: PathBuf,
    d: Daemon,
}

fn seated(args: &[&str], audio: &Capture) -> Seated {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("tandem.sock");
    let journal = dir.path().join("game.jsonl");
    let mut all = args.to_vec();
    all.extend(["--voice", "off", "--journal", journal.to_str().unwrap()]);
    let d = Daemon::start(&all, &socket, &[audio.env()]);
    Seated {
        _dir: dir,
        socket,
        journal,
        d,
    }
}

/// A table with `args` and a `--seat` for each of `seats`, and its audio;
/// `None` where espeak-ng, aplay or sox is missing (said by
/// `tandem_testkit`).
fn audio_table(args: &[&str], seats: &[&str]) -> Option<(Capture, Seated)> {
    if !audio_tools() {
        return None;
    }
    let audio = Capture::new();
    let mut all = args.to_vec();
    for seat in seats {
        all.extend(["--seat", seat]);
    }
    let t = seated(&all, &audio);
    Some((audio, t))
}

/// Two blind players, each with a real 40-cell display and a seat whose
/// speech goes to one channel (white left, black right): the table (first,
/// so that it stops before the displays), its audio and the displays.
struct TwoDisplays {
    t: Seated,
    audio: Capture,
    white: VirtualBrltty,
    black: VirtualBrltty,
}

/// [`TwoDisplays`] with `--blind both` and `args`; `None` where a real
/// component is missing (said by `tandem_testkit`).
fn two_displays(args: &[&str]) -> Option<TwoDisplays> {
    if !audio_tools() {
        return None;
    }
    let white = real_brltty(40)?;
    let black = real_brltty(40)?;
    let audio = Capture::new();
    let white_seat = format!("white:speech=left,braille=brlapi:{}", white.host());
    let black_seat = format!("black:speech=right,braille=brlapi:{}", black.host());
    let mut all = args.to_vec();
    all.extend([
        "--blind",
        "both",
        "--seat",
        &white_seat,
        "--seat",
        &black_seat,
    ]);
    let t = seated(&all, &audio);
    Some(TwoDisplays {
        t,
        audio,
        white,
        black,
    })
}

fn announced(journal: &Path) -> Vec<(String, Value)> {
    journal_events(journal, "announced")
        .into_iter()
        .map(|e| (e["text"].as_str().unwrap().to_owned(), e["to"].clone()))
        .collect()
}

fn heard_by(journal: &Path, text: &str) -> Value {
    announced(journal)
        .into_iter()
        .rev()
        .find(|(t, _)| t == text)
        .unwrap_or_else(|| panic!("{text:?} not journaled: {:?}", announced(journal)))
        .1
}

/// Whether espeak-ng, aplay and sox are there (said on stderr when not).
fn audio_tools() -> bool {
    [
        ("espeak-ng", &["--version"][..]),
        ("aplay", &["--version"][..]),
        ("sox", &["--version"][..]),
    ]
    .into_iter()
    .all(|(program, args)| tandem_testkit::require_program(program, args, program))
}

#[test]
fn two_blind_players_each_hear_and_read_their_own_channel() {
    let Some(TwoDisplays {
        t,
        audio,
        white: white_display,
        black: black_display,
    }) = two_displays(&["--lang", "en", "--control", "90m"])
    else {
        return;
    };
    let (socket, journal) = (t.socket.clone(), t.journal.clone());
    let mut c = t.d.client();
    // Both displays show the board from the start.
    for b in [&white_display, &black_display] {
        b.wait_for(T, |s| s.text.starts_with("W 31 32 33"))
            .unwrap_or_else(|e| panic!("a display never showed the board: {e:?}"));
    }
    // The start ("White to move.") is heard on both channels.
    let (l, r) = audio.since(0, Duration::from_millis(1500));
    assert!(l > 0.01 && r > 0.01, "start: left {l}, right {r}");

    // White asks the clock (ch. VIII 5.1): white's earphone alone.
    let mark = audio.mark();
    let out = ctl(&socket, &["--seat", "white", "clock"]);
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(said.starts_with("White: used"), "{said}");
    let (l, r) = audio.since(mark, Duration::from_millis(800));
    assert!(l > 0.01, "white's clock was not heard on the left: {l}");
    assert!(r < 0.0001, "white's clock was heard on the right: {r}");
    assert_eq!(heard_by(&journal, &said), serde_json::json!(["white"]));

    // White's move: heard on both channels.
    let mark = audio.mark();
    let out = ctl(&socket, &["--seat", "white", "move", "32-28"]);
    assert!(out.status.success(), "{out:?}");
    wait_ply(&mut c, 1);
    let (l, r) = audio.since(mark, Duration::from_millis(800));
    assert!(l > 0.01 && r > 0.01, "the move: left {l}, right {r}");
    assert_eq!(
        heard_by(&journal, "Thirty-two, twenty-eight."),
        serde_json::json!(["white", "black"])
    );

    // White again on black's turn: refused, on the left alone, nothing played.
    let mark = audio.mark();
    let out = ctl(&socket, &["--seat", "white", "move", "19-23"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let (l, r) = audio.since(mark, Duration::from_millis(800));
    assert!(l > 0.01 && r < 0.0001, "the refusal: left {l}, right {r}");
    assert_eq!(
        heard_by(&journal, "It is not your move."),
        serde_json::json!(["white"])
    );
    assert_eq!(wait_ply(&mut c, 1)["ply"], 1);

    // Black's seat plays its move.
    let out = ctl(&socket, &["--seat", "black", "move", "19-23"]);
    assert!(out.status.success(), "{out:?}");
    wait_ply(&mut c, 2);

    // White's question: the answer on white's display, not on black's.
    let out = ctl(&socket, &["--seat", "white", "ask", "row 3"]);
    let answer = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(out.status.success(), "{out:?}");
    let head: String = answer.chars().take(8).collect();
    white_display
        .wait_for(T, |s| s.text.starts_with(&head))
        .unwrap_or_else(|e| panic!("white's display never showed {answer:?}: {e:?}"));
    std::thread::sleep(Duration::from_millis(500));
    let black_now = black_display.snapshot().text;
    assert!(
        !black_now.starts_with(&head),
        "black's display showed white's answer: {black_now:?}"
    );

    // The journal names the seat of each move and of the refusal.
    let moves = journal_events(&journal, "move");
    assert_eq!(moves[0]["seat"], "white");
    assert_eq!(moves[1]["seat"], "black");
    let refused = journal_events(&journal, "rejected");
    assert_eq!(refused[0]["seat"], "white");

    // The arbiter sees who heard what (ch. VIII 3.2), and the refused move
    // is charged to the seat that made it.
    let out = support::tandem(&[
        "arbiter",
        "announcements",
        journal.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{out:?}");
    let st: Value = serde_json::from_slice(&out.stdout).unwrap();
    let heard = st["heard"].as_array().unwrap();
    let clock = heard.iter().find(|h| h["text"] == said.as_str()).unwrap();
    assert_eq!(clock["to"], serde_json::json!(["white"]));
    assert_eq!(st["refused"][0]["side"], "white", "{st}");
    assert_eq!(
        st["white"]["refused"], 0,
        "a control request is not charged"
    );
    let out = support::tandem(&[
        "arbiter",
        "announcements",
        journal.to_str().unwrap(),
        "--lang",
        "en",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("heard by White: {said}")), "{text}");
    drop(t);
}

/// A mixed table: the blind player (white) with `speech=left`, the sighted
/// opponent typing at the table's own input line: a whole real game, every
/// word in the left earphone and none on the right (the hall's air).
#[test]
fn a_mixed_table_plays_a_whole_game_with_the_blind_players_words_on_the_left() {
    let Some((audio, mut t)) = audio_table(
        &["--lang", "en", "--blind", "white", "--control", "90m"],
        &["white:speech=left"],
    ) else {
        return;
    };
    let (socket, journal) = (t.socket.clone(), t.journal.clone());
    let mut c = t.d.client();
    let game = real_game();
    let moves = game.move_texts();
    // White's moves from the blind player's seat, black's typed at the table.
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            let out = ctl(&socket, &["--seat", "white", "move", m]);
            assert!(out.status.success(), "{m}: {out:?}");
        } else {
            t.d.type_line(m);
        }
        wait_ply(&mut c, i as u64 + 1);
    }
    let st = wait_ply(&mut c, moves.len() as u64);
    assert_eq!(st["fen"], game.position().to_fen());
    let out = ctl(&socket, &["resign", "black"]);
    assert!(out.status.success(), "{out:?}");
    let (l, r) = audio.since(0, Duration::from_millis(1500));
    assert!(l > 0.01, "the blind player heard nothing: {l}");
    assert!(r < 0.0001, "words went to the right channel: {r}");
    // Every move announced was heard by white's seat; the seat's moves
    // are named, the typed ones are the table's.
    let mv = journal_events(&journal, "move");
    assert_eq!(mv.len(), moves.len());
    for (i, e) in mv.iter().enumerate() {
        let want = if i % 2 == 0 { "white" } else { "" };
        assert_eq!(e["seat"].as_str().unwrap_or(""), want, "{e}");
    }
    for (text, to) in announced(&journal) {
        assert_eq!(to, serde_json::json!(["white"]), "{text}");
    }
    let over = announced(&journal).last().unwrap().0.clone();
    assert!(over.starts_with("Game over. White wins"), "{over}");
}

/// An international table (`--lang pl`, black's seat `lang=en`): each
/// player hears the move in their own language on their own channel, and
/// the journal has a line for each language with its own `to`.
#[test]
fn each_seat_hears_its_own_language_on_its_own_channel() {
    let Some((audio, t)) = audio_table(
        &["--lang", "pl", "--blind", "both"],
        &["white:speech=left", "black:speech=right,lang=en"],
    ) else {
        return;
    };
    let (socket, journal) = (t.socket.clone(), t.journal.clone());
    let mut c = t.d.client();
    audio.since(0, Duration::from_millis(1500));
    let mark = audio.mark();
    let out = ctl(&socket, &["--seat", "white", "move", "32-28"]);
    assert!(out.status.success(), "{out:?}");
    wait_ply(&mut c, 1);
    let (l, r) = audio.since(mark, Duration::from_millis(800));
    assert!(l > 0.01 && r > 0.01, "left {l}, right {r}");
    assert_eq!(
        heard_by(&journal, "Trzydzieści dwa na dwadzieścia osiem."),
        serde_json::json!(["white"])
    );
    assert_eq!(
        heard_by(&journal, "Thirty-two, twenty-eight."),
        serde_json::json!(["black"])
    );
    let en = journal_events(&journal, "announced")
        .into_iter()
        .find(|e| e["text"] == "Thirty-two, twenty-eight.")
        .unwrap();
    assert_eq!(en["lang"], "en");
    // Black's clock: in English, on the right alone.
    let mark = audio.mark();
    let out = ctl(&socket, &["--seat", "black", "clock"]);
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("White: used"), "{said}");
    let (l, r) = audio.since(mark, Duration::from_millis(800));
    assert!(l < 0.0001 && r > 0.01, "left {l}, right {r}");
}

/// Chess with two seats (FIDE annex E: each blind player announces their
/// own moves): a whole short game, each move from its side's seat and
/// heard on both channels, a move from the wrong seat refused.
#[test]
fn a_chess_game_between_two_seats() {
    let Some((audio, t)) = audio_table(
        &["--variant", "chess", "--lang", "en", "--blind", "both"],
        &["white:speech=left", "black:speech=right"],
    ) else {
        return;
    };
    let (socket, journal) = (t.socket.clone(), t.journal.clone());
    let mut c = t.d.client();
    audio.since(0, Duration::from_millis(1500));
    // Black tries to open: refused to black alone.
    let out = ctl(&socket, &["--seat", "black", "move", "e5"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let moves = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"];
    for (i, m) in moves.iter().enumerate() {
        let seat = if i % 2 == 0 { "white" } else { "black" };
        let mark = audio.mark();
        let out = ctl(&socket, &["--seat", seat, "move", m]);
        assert!(out.status.success(), "{seat} {m}: {out:?}");
        wait_ply(&mut c, i as u64 + 1);
        let (l, r) = audio.since(mark, Duration::from_millis(800));
        assert!(l > 0.01 && r > 0.01, "{m}: left {l}, right {r}");
    }
    let st = c.request("state", None).unwrap()["state"].clone();
    assert_eq!(st["result"], "1-0", "{st}");
    let seats: Vec<String> = journal_events(&journal, "move")
        .iter()
        .map(|e| e["seat"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        seats,
        ["white", "black", "white", "black", "white", "black", "white"]
    );
    assert_eq!(journal_events(&journal, "rejected")[0]["seat"], "black");
}

/// Backgammon with two seats and two displays: each display shows the
/// board in its own player's point numbers, each seat rolls, moves and
/// answers the cube for its own side only.
#[test]
fn a_backgammon_match_between_two_seats_each_display_from_its_side() {
    use tandem_rules::backgammon::{Match, MatchOptions};
    use tandem_rules::Color;
    let Some(TwoDisplays {
        t,
        audio,
        white: white_display,
        black: black_display,
    }) = two_displays(&["--variant", "backgammon", "--match", "5", "--lang", "en"])
    else {
        return;
    };
    let (socket, journal) = (t.socket.clone(), t.journal.clone());
    let mut m = Match::new(MatchOptions { length: 5 });
    for (seat, cmd, action) in [
        ("white", vec!["roll", "3", "1"], "roll 31"),
        ("white", vec!["move", "8/5 6/5"], "move 8/5 6/5"),
        ("black", vec!["double"], "double"),
        ("white", vec!["take"], "take"),
        ("black", vec!["roll", "6", "4"], "roll 64"),
        ("black", vec!["move", "24/14"], "move 24/14"),
    ] {
        // The other seat may not act for this side.
        let other = if seat == "white" { "black" } else { "white" };
        let mut wrong = vec!["--seat", other];
        wrong.extend(&cmd);
        if cmd[0] != "take" && cmd[0] != "double" {
            let out = ctl(&socket, &wrong);
            assert_eq!(out.status.code(), Some(1), "{wrong:?}: {out:?}");
        }
        let mut args = vec!["--seat", seat];
        args.extend(&cmd);
        let out = ctl(&socket, &args);
        assert!(out.status.success(), "{args:?}: {out:?}");
        m.act_text(action).unwrap();
    }
    // Each display: the board line in its own player's numbering.
    for (b, side) in [
        (&white_display, Color::White),
        (&black_display, Color::Black),
    ] {
        let want = tandem_braille::backgammon::board_line(m.board(), side).cells;
        b.wait_for(T, |s| s.cells.starts_with(&want))
            .unwrap_or_else(|e| panic!("{side}'s display never showed its board: {e:?}"));
    }
    let seats: Vec<(String, String)> = journal_events(&journal, "action")
        .iter()
        .chain(journal_events(&journal, "move").iter())
        .map(|e| {
            (
                e["text"].as_str().unwrap().to_owned(),
                e["seat"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    assert!(
        seats.contains(&("take".into(), "white".into())),
        "{seats:?}"
    );
    assert!(
        seats.contains(&("double".into(), "black".into())),
        "{seats:?}"
    );
    let (l, r) = audio.since(0, Duration::from_millis(800));
    assert!(l > 0.01 && r > 0.01, "left {l}, right {r}");
}

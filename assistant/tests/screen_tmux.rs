//! The terminal screen as a person sees it: the real `tandem play` in a
//! real terminal (tmux), keys typed with `send-keys`, the screen read with
//! `capture-pane`. Every wait is on what the screen shows, with a deadline.
//!
//! Needs tmux (`scripts/setup.sh --test`); `TANDEM_SKIP_REAL=1` skips
//! these tests where it is missing.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tandem_testkit::free_port;

const TANDEM: &str = env!("CARGO_BIN_EXE_tandem");
/// Generous: a loaded 2-core machine starts a debug binary slowly.
const DEADLINE: Duration = Duration::from_secs(40);

/// A private tmux server, where tmux runs ([`have_tmux`]).
fn tmux() -> Option<Tmux> {
    have_tmux().then(Tmux::start)
}

fn have_tmux() -> bool {
    tandem_testkit::require_program(
        "tmux",
        &["-V"],
        "tmux (scripts/setup.sh --test installs it)",
    )
}

/// A private tmux server with one 110x45 window running a shell.
struct Tmux {
    dir: tempfile::TempDir,
    server: String,
}

impl Tmux {
    fn start() -> Tmux {
        let dir = tempfile::tempdir().unwrap();
        for d in ["state", "run", "config", "home"] {
            std::fs::create_dir_all(dir.path().join(d)).unwrap();
        }
        let server = format!(
            "tandem-screen-{}-{}",
            std::process::id(),
            dir.path().file_name().unwrap().to_string_lossy()
        );
        let t = Tmux { dir, server };
        let shell = "env PS1='$ ' bash --norc --noprofile";
        t.tmux(&[
            "new-session",
            "-d",
            "-s",
            "S",
            "-x",
            "110",
            "-y",
            "45",
            shell,
        ]);
        t
    }

    fn path(&self, p: &str) -> PathBuf {
        self.dir.path().join(p)
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.server)
            .args(args)
            .output()
            .expect("tmux runs");
        assert!(out.status.success(), "tmux {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Types text (literally), then Enter.
    fn line(&self, text: &str) {
        self.tmux(&["send-keys", "-t", "S", "-l", text]);
        self.tmux(&["send-keys", "-t", "S", "Enter"]);
    }

    fn keys(&self, keys: &[&str]) {
        let mut a = vec!["send-keys", "-t", "S"];
        a.extend_from_slice(keys);
        self.tmux(&a);
    }

    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", "S"])
    }

    fn show(&self, what: &str) -> String {
        self.tmux(&["display", "-p", "-t", "S", what])
            .trim()
            .to_owned()
    }

    /// Waits until the screen satisfies `ok`; returns it.
    fn wait(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let end = Instant::now() + DEADLINE;
        loop {
            let s = self.screen();
            if ok(&s) {
                return s;
            }
            assert!(Instant::now() < end, "waited for {what}; the screen:\n{s}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Starts `tandem play ARGS` from the shell; its pid is written to `pid`.
    fn play(&self, game: &str, args: &str) {
        self.play_with(game, "", args);
    }

    /// [`Tmux::play`] with environment settings (`NAME=VALUE …`).
    fn play_with(&self, game: &str, env: &str, args: &str) {
        let (st, run, cfg, home) = (
            self.path("state"),
            self.path("run"),
            self.path("config"),
            self.path("home"),
        );
        let cmd = format!(
            "{env} XDG_STATE_HOME={} XDG_RUNTIME_DIR={} XDG_CONFIG_HOME={} HOME={} \
             bash -c 'echo $$ > {}; exec {TANDEM} play --socket {} --journal {} {args}'; \
             echo TANDEM-EXITED $?",
            st.display(),
            run.display(),
            cfg.display(),
            home.display(),
            self.path("pid").display(),
            self.path("run/t.sock").display(),
            self.path(&format!("{game}.jsonl")).display(),
        );
        self.line(&cmd);
    }

    /// The full screen's board titled `title`, awaited with its prompt.
    fn wait_board(&self, title: &str) -> String {
        let top = format!("┌ {title} ");
        self.wait(&format!("the {title} board"), |s| {
            s.contains(&top) && s.contains("move>")
        })
    }

    /// `e4` typed and shown in the move list: the screen then.
    fn play_e4(&self) -> String {
        self.line("e4");
        self.wait("the move", |s| s.contains("│1. e4"))
    }

    /// `quit` typed: tandem ends and the terminal is restored.
    fn quit(&self) {
        self.line("quit");
        self.assert_restored();
    }

    /// The shell's screen cleared (`clear`), awaited.
    fn clear(&self) {
        self.line("clear");
        self.wait("a clear screen", |s| !s.contains("TANDEM-EXITED"));
    }

    /// After tandem ended: the shell is back, off the alternate screen,
    /// the terminal in its cooked mode again.
    fn assert_restored(&self) {
        self.assert_restored_with(0);
    }

    fn assert_restored_with(&self, code: u8) {
        let exited = format!("TANDEM-EXITED {code}");
        let s = self.wait(&exited, |s| s.contains(&exited));
        assert_eq!(self.show("#{alternate_on}"), "0", "{s}");
        assert!(
            !s.contains("move>"),
            "the full screen was left behind:\n{s}"
        );
        // The marker is computed, so the command line itself does not show it.
        self.line("stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo STTY-$((6*7))");
        let s = self.wait("stty", |s| {
            s.lines().any(|l| l.trim_end().ends_with("STTY-42"))
        });
        let line = s
            .lines()
            .find(|l| l.trim_end().ends_with("STTY-42"))
            .unwrap();
        assert!(
            line.contains("icanon echo") && !line.contains("-icanon") && !line.contains("-echo"),
            "the terminal stays raw: {line}"
        );
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.server, "kill-server"])
            .output();
    }
}

/// The screen's rows where fixed parts sit (the layout stays put).
fn layout(screen: &str) -> Vec<usize> {
    let find = |needle: &str| screen.lines().position(|l| l.contains(needle));
    [" clocks ", " boards ", " moves ", " said ", " type a move "]
        .iter()
        .map(|n| find(n).unwrap_or_else(|| panic!("no {n:?} on the screen:\n{screen}")))
        .collect()
}

/// The clocks as shown (in large digits): the rows of the clocks' box.
fn clocks_shown(screen: &str) -> String {
    let rows: Vec<&str> = screen.lines().collect();
    let from = rows.iter().position(|l| l.contains(" clocks "));
    let to = rows.iter().position(|l| l.contains(" boards "));
    match (from, to) {
        (Some(a), Some(b)) if a < b => rows[a..b].join("\n"),
        _ => panic!("no clocks on the screen:\n{screen}"),
    }
}

/// The screen with its escape sequences (colours, reverse video).
fn screen_e(t: &Tmux) -> String {
    t.tmux(&["capture-pane", "-p", "-e", "-t", "S"])
}

/// The SGR colour parameters in a screen captured with escapes (a
/// foreground or background colour set, not reset to the default).
fn colour_escapes(screen: &str) -> Vec<String> {
    let mut out = Vec::new();
    for seq in screen.split("\x1b[").skip(1) {
        let Some(end) = seq.find('m') else { continue };
        let params = &seq[..end];
        if !params.chars().all(|c| c.is_ascii_digit() || c == ';') {
            continue;
        }
        let colour = params.split(';').any(|p| {
            matches!(
                p.parse::<u32>(),
                Ok(30..=38 | 40..=48 | 90..=97 | 100..=107)
            )
        });
        if colour {
            out.push(params.to_owned());
        }
    }
    out
}

/// The rows of the board's box (inside its frame), found by its title.
fn board_rows(screen: &str, title: &str) -> Vec<String> {
    let rows: Vec<&str> = screen.lines().collect();
    let top = rows
        .iter()
        .position(|l| l.contains(&format!("┌ {title} ")))
        .unwrap_or_else(|| panic!("no board {title}:\n{screen}"));
    let width = rows[top].split('┐').next().unwrap().chars().count();
    rows[top + 1..]
        .iter()
        .take_while(|l| !l.starts_with('└'))
        .map(|l| l.chars().skip(1).take(width - 1).collect())
        .collect()
}

fn no_log_lines(screen: &str) {
    for bad in ["WARN", "INFO", "ERROR", "tandem::", "tandem: journal"] {
        assert!(!screen.contains(bad), "{bad:?} on the screen:\n{screen}");
    }
}

#[test]
fn full_screen_stays_put_ticks_takes_moves_and_restores_the_terminal_after_quit() {
    let Some(t) = tmux() else { return };
    // An explicit BrlAPI display that is not there logs a warning: it must
    // not reach the screen.
    t.play("game", "--screen full --lang en --control 5m --speech text --braille brlapi --brlapi-host 127.0.0.1:97");
    let s = t.wait("the full screen", |s| {
        s.contains("White to move") && s.contains("move>") && s.contains("White's board: in sync")
    });
    assert_eq!(t.show("#{alternate_on}"), "1");
    assert_eq!(t.show("#{history_size}"), "0", "nothing scrolls:\n{s}");
    // The display that is not there stands out as a lost device.
    let s = t.wait("the braille display lost", |s| {
        s.contains("DEVICE LOST: braille")
    });
    let rows = layout(&s);
    // What the blind player's display shows, in Unicode braille.
    assert!(
        s.chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)),
        "no braille line:\n{s}"
    );
    let before = clocks_shown(&s);
    // The running clock ticks on screen with nothing happening.
    let s = t.wait("White's clock to tick", |s| clocks_shown(s) != before);
    assert_eq!(layout(&s), rows);
    // Twenty men a side as discs on numbered squares, no letters.
    let board = board_rows(&s, "international").join("\n");
    assert_eq!(board.matches('●').count(), 40, "{board}");
    assert!(board.contains("31") && board.contains("50"), "{board}");
    assert!(!board.chars().any(|c| c.is_ascii_alphabetic()), "{board}");

    t.line("32-28");
    let s = t.wait("the move in the record", |s| s.contains("│1. 32-28"));
    assert!(s.contains("Black to move"), "{s}");
    // The board changed, the last move's squares highlighted.
    let e = screen_e(&t);
    assert!(e.contains("48;2;190;170;50"), "no square highlighted:\n{e}");
    assert!(s.contains("White's board: behind by 1") || s.contains("Black's board: behind by 1"));
    assert!(s.contains("» "), "what tandem said is shown:\n{s}");
    t.line("19-23");
    t.wait("the reply", |s| s.contains("│1. 32-28 19-23"));
    // Tab completes the only legal move (the capture is compulsory).
    t.keys(&["-l", "2"]);
    t.keys(&["Tab"]);
    t.wait("the completion", |s| s.contains("move> 28x19"));
    t.keys(&["Enter"]);
    t.wait("the capture", |s| s.contains("│2. 28x19"));
    // History: Up gives the last line entered.
    t.keys(&["Up"]);
    let s = t.wait("the history", |s| s.contains("move> 28x19"));
    assert_eq!(layout(&s), rows, "the layout moved:\n{s}");
    assert_eq!(t.show("#{history_size}"), "0");
    no_log_lines(&s);
    // A smaller terminal: the screen follows it.
    t.tmux(&["resize-window", "-t", "S", "-x", "90", "-y", "40"]);
    let s = t.wait("the screen redrawn at 90 columns", |s| {
        s.lines()
            .any(|l| l.starts_with("┌ said ") && l.chars().count() == 90)
            && s.lines().count() <= 40
    });
    assert!(s.contains("│2. 28x19"), "{s}");
    assert_eq!(t.show("#{history_size}"), "0");
    // The warning went to the log file instead.
    let log = std::fs::read_to_string(t.path("state/tandem/tandem.log")).unwrap_or_default();
    assert!(log.contains("braille"), "the log: {log}");

    t.keys(&["C-u"]);
    t.quit();
    // Nor under it.
    no_log_lines(&t.screen());
}

#[test]
fn full_screen_restores_the_terminal_after_sigterm_and_ctrl_c() {
    let Some(t) = tmux() else { return };
    let args = "--screen full --control 5m --speech text --braille none";
    // Any game through the game interface: chess here.
    t.play("term", &format!("{args} --variant chess"));
    t.wait("the chess board", |s| {
        s.contains("┌ chess ") && s.contains("White to move")
    });
    let s = t.play_e4();
    assert!(s.contains('♟') && s.contains('♚'), "the pieces:\n{s}");
    let pid = std::fs::read_to_string(t.path("pid")).unwrap();
    let st = Command::new("kill")
        .args(["-TERM", pid.trim()])
        .status()
        .unwrap();
    assert!(st.success());
    t.assert_restored();

    t.clear();
    t.play("ctrl-c", args);
    t.wait("the full screen", |s| {
        s.contains("White to move") && s.contains("move>")
    });
    t.keys(&["C-c"]);
    t.assert_restored();
}

/// Everything the process wrote on stdout so far.
fn collect(
    mut r: impl std::io::Read + Send + 'static,
) -> (Arc<Mutex<Vec<u8>>>, std::thread::JoinHandle<()>) {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let b = buf.clone();
    let t = std::thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        while let Ok(n) = r.read(&mut chunk) {
            if n == 0 {
                return;
            }
            b.lock().unwrap().extend_from_slice(&chunk[..n]);
        }
    });
    (buf, t)
}

fn wait_text(buf: &Mutex<Vec<u8>>, what: &str, ok: impl Fn(&str) -> bool) -> String {
    let end = Instant::now() + DEADLINE;
    loop {
        let s = String::from_utf8_lossy(&buf.lock().unwrap()).into_owned();
        if ok(&s) {
            return s;
        }
        assert!(Instant::now() < end, "waited for {what}; got:\n{s}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The journal's `announced` texts, in order.
fn announced(journal: &Path) -> Vec<String> {
    std::fs::read_to_string(journal)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["event"]["type"] == "announced")
        .map(|v| v["event"]["text"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn plain_screen_writes_each_utterance_as_one_line_and_never_moves_the_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("game.jsonl");
    let mut child = Command::new(TANDEM)
        .args([
            "play",
            "--screen",
            "plain",
            "--lang",
            "en",
            "--control",
            "5m",
        ])
        .args(["--speech", "text", "--braille", "none", "--socket"])
        .arg(dir.path().join("t.sock"))
        .arg("--journal")
        .arg(&journal)
        .envs([
            ("XDG_STATE_HOME", dir.path()),
            ("XDG_CONFIG_HOME", dir.path()),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tandem play");
    let (out, reader) = collect(child.stdout.take().unwrap());
    let mut stdin = child.stdin.take().unwrap();
    wait_text(&out, "the start", |s| s.contains("White to move"));
    writeln!(stdin, "32-28").unwrap();
    wait_text(&out, "the move", |s| s.contains("moves: 1. 32-28"));
    writeln!(stdin, "mismatch").unwrap();
    wait_text(&out, "the boards", |s| s.contains("White's board: DIFFERS"));
    writeln!(stdin, "quit").unwrap();
    let end = Instant::now() + DEADLINE;
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(Instant::now() < end, "tandem did not stop after quit");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success());
    reader.join().unwrap();
    let text = String::from_utf8_lossy(&out.lock().unwrap()).into_owned();
    assert!(!text.contains('\x1b'), "an escape sequence: {text:?}");
    assert!(!text.contains('\r'), "a carriage return: {text:?}");
    let said: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("» ")).collect();
    // Each utterance one line, in the order said (the journal's record).
    assert_eq!(said, announced(&journal), "{text}");
    assert!(said.len() >= 4, "{text}");
    for l in text.lines() {
        assert!(
            l.starts_with("» ") || !l.contains("» "),
            "an utterance in the middle of a line: {l:?}"
        );
    }
    assert!(text.contains("clock stopped\n"), "{text}");
    assert!(text.ends_with("move> "), "the prompt last: {text:?}");
}

/// A crash (the session panics, through a fail point: a mock of the fault
/// only) leaves the terminal usable, and the panic is reported on it.
#[cfg(feature = "failpoints")]
#[test]
fn full_screen_restores_the_terminal_when_tandem_panics() {
    let Some(t) = tmux() else { return };
    t.play_with(
        "panic",
        "FAILPOINTS='session-handle=1*off->panic'",
        "--screen full --control 5m --speech text --braille none",
    );
    t.wait("the full screen", |s| {
        s.contains("White to move") && s.contains("move>")
    });
    t.line("32-28");
    t.assert_restored_with(3);
    let s = t.screen();
    assert!(
        s.contains("panicked"),
        "the panic is said on the terminal:\n{s}"
    );
}

/// The board as a sighted opponent sees it (issue 22): coloured squares,
/// pieces as glyphs and never letters, the last move highlighted, the
/// board growing with the terminal; with `NO_COLOR` no colour at all, and
/// backgammon's points, dice and cube.
#[test]
fn full_screen_draws_the_board_in_colour_with_glyphs_and_follows_a_resize() {
    let Some(t) = tmux() else { return };
    let args = "--screen full --lang en --control 5m --speech text --braille none";
    t.play("chess", &format!("{args} --variant chess"));
    let s = t.wait_board("chess");
    let rows = board_rows(&s, "chess");
    let board = rows.join("\n");
    for g in ['♚', '♛', '♜', '♝', '♞', '♟'] {
        assert!(board.contains(g), "{g} missing:\n{board}");
    }
    // Ranks beside the board and files under it; no piece as a letter.
    for r in &rows {
        let pieces: String = r.chars().skip(2).collect();
        let last_row = r.trim_start().starts_with('a');
        if !last_row {
            assert!(
                !pieces.chars().any(|c| c.is_ascii_alphabetic()),
                "a letter: {r:?}"
            );
        }
    }
    assert!(
        rows.iter().any(|r| r.contains('a') && r.contains('h')),
        "{board}"
    );
    let e = screen_e(&t);
    assert!(
        e.contains("48;2;222;196;150") && e.contains("48;2;150;105;65"),
        "square colours:\n{e}"
    );
    t.play_e4();
    let e = screen_e(&t);
    assert!(
        e.contains("48;2;232;220;110") || e.contains("48;2;190;170;50"),
        "the last move:\n{e}"
    );
    let width = |s: &str| {
        s.lines()
            .find(|l| l.contains("┌ chess "))
            .map(|l| l.split('┐').next().unwrap().chars().count())
            .unwrap()
    };
    let before = width(&t.screen());
    t.tmux(&["resize-window", "-t", "S", "-x", "170", "-y", "60"]);
    let s = t.wait("a larger board", |s| {
        s.contains("┌ chess ") && width(s) > before
    });
    assert_eq!(t.show("#{history_size}"), "0", "nothing scrolls:\n{s}");
    t.quit();

    // NO_COLOR: not one colour escape, and still a board.
    t.clear();
    t.play_with("nocolor", "NO_COLOR=1", &format!("{args} --variant chess"));
    let s = t.wait_board("chess");
    assert!(
        s.contains('♔') && s.contains('♚'),
        "white outlined, black filled:\n{s}"
    );
    t.play_e4();
    let e = screen_e(&t);
    assert_eq!(colour_escapes(&e), Vec::<String>::new(), "{e}");
    t.quit();

    // --ascii, for a terminal without the glyphs: pieces by their codes,
    // nothing but ASCII on the board.
    t.clear();
    t.play_with("ascii", "NO_COLOR=1", &format!("{args} --ascii"));
    let s = t.wait_board("international");
    let board = board_rows(&s, "international").join("\n");
    assert!(board.is_ascii(), "{board}");
    assert_eq!(board.matches('w').count(), 20, "{board}");
    assert_eq!(board.matches('b').count(), 20, "{board}");
    t.quit();

    // Backgammon: points with stacks, the bar and the tray, the dice, the cube.
    t.clear();
    t.play(
        "bg",
        "--screen full --lang en --control none --speech text --braille none --variant backgammon",
    );
    t.wait_board("backgammon");
    t.line("roll 3 1");
    let s = t.wait("the dice", |s| s.contains("⚂ 3"));
    let board = board_rows(&s, "backgammon").join("\n");
    assert!(
        board.contains("BAR") && board.contains("OFF") && board.contains("cube 1"),
        "{board}"
    );
    assert_eq!(board.matches('●').count(), 30, "{board}");
    t.line("8/5 6/5");
    t.wait("the play", |s| !s.contains("⚂ 3") && s.contains("8/5"));
    t.quit();
}

/// The modules of a QR code drawn in half blocks (`▀` the upper module
/// dark, `▄` the lower, `█` both), one row of text two rows of modules.
fn qr_modules(lines: &[String]) -> Vec<Vec<bool>> {
    let mut rows = Vec::new();
    for l in lines {
        rows.push(l.chars().map(|c| c == '▀' || c == '█').collect());
        rows.push(l.chars().map(|c| c == '▄' || c == '█').collect());
    }
    rows
}

/// What a QR code's modules carry, read by a decoder (rqrr) from the
/// picture a camera would take: 4 pixels a module, dark on light.
fn qr_decode(modules: &[Vec<bool>]) -> String {
    const PX: usize = 4;
    let w = modules.iter().map(Vec::len).max().unwrap_or(0) * PX;
    let h = modules.len() * PX;
    let mut img = rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| {
        let dark = modules
            .get(y / PX)
            .and_then(|r| r.get(x / PX))
            .copied()
            .unwrap_or(false);
        if dark {
            0
        } else {
            255
        }
    });
    let grids = img.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code in the picture");
    grids[0].decode().expect("the QR code decodes").1
}

#[test]
fn full_screen_shows_a_pairing_code_with_the_pages_address_as_a_qr_code() {
    let Some(t) = tmux() else { return };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    t.play(
        "game",
        &format!("--screen full --lang en --control 5m --speech text --voice off --seats 127.0.0.1:{port}"),
    );
    t.wait("the full screen", |s| {
        s.contains("White to move") && s.contains("move>")
    });
    let out = Command::new(TANDEM)
        .args(["ctl", "--socket"])
        .arg(t.path("run/t.sock"))
        .args(["pair", "black", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // The exact contract, unchanged.
    let pair: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(pair.as_object().unwrap().len(), 3, "{pair}");
    let url = format!("http://127.0.0.1:{port}/");
    assert_eq!(pair["url"], url.as_str());
    let code = pair["code"].as_str().unwrap();
    let spaced: Vec<String> = code.chars().map(String::from).collect();
    let shown = format!("Code: {}", spaced.join(" "));
    let s = t.wait("the code on the screen", |s| s.contains(&shown));
    assert!(s.contains(" Pair black's device "), "{s}");
    assert_eq!(qr_under(&s, &url), url);
    t.quit();
}

/// What the QR code under the address on the screen carries: the popup's
/// rows under the address, inside its borders, read by the decoder.
fn qr_under(screen: &str, url: &str) -> String {
    let rows: Vec<&str> = screen.lines().collect();
    let at = rows
        .iter()
        .position(|l| l.contains(url))
        .expect("the address shown");
    let qr: Vec<String> = rows[at + 1..]
        .iter()
        .take_while(|l| l.starts_with('│'))
        .map(|l| {
            let inside = l.split('│').nth(1).unwrap_or("");
            inside.chars().take(33).collect()
        })
        .collect();
    assert_eq!(qr.len(), 17, "{screen}");
    qr_decode(&qr_modules(&qr))
}

/// A code given to the table's pairing API as a device gives it: the
/// HTTP status (200: the device is that side's seat, 403: refused).
fn redeem(port: u16, code: &str) -> u16 {
    redeem_for_cookie(port, code).0
}

/// [`redeem`], with the session cookie a device is given (`name=value`).
fn redeem_for_cookie(port: u16, code: &str) -> (u16, Option<String>) {
    match ureq::post(&format!("http://127.0.0.1:{port}/api/pair"))
        .send_json(serde_json::json!({ "code": code }))
    {
        Ok(r) => (
            r.status(),
            r.header("set-cookie")
                .and_then(|c| c.split(';').next())
                .map(str::to_owned),
        ),
        Err(ureq::Error::Status(s, _)) => (s, None),
        Err(e) => panic!("the pairing API: {e}"),
    }
}

/// The status of `GET /api/state` with a device's cookie.
fn state_status(port: u16, cookie: &str) -> u16 {
    match ureq::get(&format!("http://127.0.0.1:{port}/api/state"))
        .set("Cookie", cookie)
        .call()
    {
        Ok(r) => r.status(),
        Err(ureq::Error::Status(s, _)) => s,
        Err(e) => panic!("the state API: {e}"),
    }
}

/// The journal's lines, as JSON.
fn journal_lines(journal: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(journal)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[test]
fn pair_typed_at_the_full_screen_shows_a_code_that_pairs_and_its_qr_code_unpair_ends_it() {
    let Some(t) = tmux() else { return };
    let port = free_port();
    t.play(
        "game",
        &format!("--screen full --lang en --control 5m --speech text --voice off --seats 127.0.0.1:{port}"),
    );
    t.wait("the full screen", |s| {
        s.contains("White to move") && s.contains("move>")
    });
    t.line("pair white");
    let s = t.wait("the code on the screen", |s| {
        s.contains(" Pair white's device ") && s.contains("Code: ")
    });
    let url = format!("http://127.0.0.1:{port}/");
    assert_eq!(qr_under(&s, &url), url);
    let at = s.find("Code: ").unwrap() + "Code: ".len();
    let code: String = s[at..]
        .chars()
        .take(11)
        .filter(char::is_ascii_digit)
        .collect();
    assert_eq!(code.len(), 6, "{s}");
    // The table said it too: to its own output and white's seat only,
    // journaled without the digits.
    let journal = t.path("game.jsonl");
    let end = Instant::now() + DEADLINE;
    let said = loop {
        let found = journal_lines(&journal).into_iter().find(|v| {
            v["event"]["type"] == "announced"
                && v["event"]["text"]
                    .as_str()
                    .is_some_and(|s| s.starts_with("Pairing code for white"))
        });
        if let Some(v) = found {
            break v;
        }
        assert!(Instant::now() < end, "the code's words never journaled");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(
        said["event"]["text"],
        "Pairing code for white: (code not journaled), good for two minutes. \
         The address and the QR code are on the table's screen."
    );
    assert_eq!(said["event"]["to"], serde_json::json!(["white"]));
    // The code is a valid one: a device that gives it is white's seat.
    let (status, cookie) = redeem_for_cookie(port, &code);
    assert_eq!(status, 200);
    let cookie = cookie.expect("the session cookie");
    assert_eq!(redeem(port, &code), 403, "once");
    assert_eq!(state_status(port, &cookie), 200);
    // `unpair white` typed: the device is white's seat no more.
    t.line("unpair white");
    t.wait("the unpairing said", |s| {
        s.contains("The white seat's devices are unpaired.")
    });
    assert_eq!(state_status(port, &cookie), 401);
    t.quit();
    let digits: Vec<String> = code.chars().map(String::from).collect();
    let written = std::fs::read_to_string(&journal).unwrap();
    assert!(!written.contains(&digits.join(", ")), "{written}");
}

/// `tandem play --screen plain ARGS` with its stdin and stdout piped, in `dir`.
fn plain_table(dir: &Path, args: &[&str]) -> (std::process::Child, Arc<Mutex<Vec<u8>>>) {
    let mut child = Command::new(TANDEM)
        .args(["play", "--screen", "plain", "--control", "5m"])
        .args(["--speech", "text", "--braille", "none", "--voice", "off"])
        .args(args)
        .arg("--socket")
        .arg(dir.join("t.sock"))
        .arg("--journal")
        .arg(dir.join("game.jsonl"))
        .env("XDG_STATE_HOME", dir)
        .env("XDG_CONFIG_HOME", dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (out, _reader) = collect(child.stdout.take().unwrap());
    (child, out)
}

fn stop(mut child: std::process::Child) {
    if let Some(mut stdin) = child.stdin.take() {
        let _ = writeln!(stdin, "quit");
    }
    let end = Instant::now() + DEADLINE;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn pair_typed_at_a_polish_table_is_said_in_polish_digit_by_digit() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let seats = format!("127.0.0.1:{port}");
    let (mut child, out) = plain_table(dir.path(), &["--lang", "pl", "--seats", &seats]);
    wait_text(&out, "the start", |s| s.contains("move> "));
    // What the table says, as `tandem ctl events` follows it.
    let mut events = Command::new(TANDEM)
        .args(["ctl", "--socket"])
        .arg(dir.path().join("t.sock"))
        .arg("events")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (heard, _reader) = collect(events.stdout.take().unwrap());
    // Following once a question's answer comes through.
    let end = Instant::now() + DEADLINE;
    while !String::from_utf8_lossy(&heard.lock().unwrap()).contains("\"speech\"") {
        assert!(Instant::now() < end, "tandem ctl events shows nothing");
        let ok = Command::new(TANDEM)
            .args(["ctl", "--socket"])
            .arg(dir.path().join("t.sock"))
            .arg("clock")
            .output()
            .unwrap();
        assert!(ok.status.success(), "{ok:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "pair black").unwrap();
    let said = wait_text(&heard, "the code said", |s| s.contains("Kod parowania"));
    let text = said
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find_map(|v| {
            v["text"]
                .as_str()
                .filter(|t| t.starts_with("Kod parowania"))
                .map(str::to_owned)
        })
        .unwrap();
    let code: String = text.chars().filter(char::is_ascii_digit).collect();
    assert_eq!(code.len(), 6, "{text}");
    let digits: Vec<String> = code.chars().map(String::from).collect();
    assert_eq!(
        text,
        format!(
            "Kod parowania dla czarnych: {}, ważny dwie minuty. Adres i kod QR są na ekranie stołu.",
            digits.join(", ")
        )
    );
    // The plain screen writes the address; nothing says it aloud.
    wait_text(&out, "the code written", |s| {
        s.contains(&format!(
            "Pairing code for Black: {code}, at http://{seats}/"
        ))
    });
    assert_eq!(
        redeem(port, &code),
        200,
        "the code said is the one that works"
    );
    let _ = events.kill();
    let _ = events.wait();
    child.stdin = Some(stdin);
    stop(child);
    let written = std::fs::read_to_string(dir.path().join("game.jsonl")).unwrap();
    assert!(!written.contains(&digits.join(", ")), "{written}");
    assert!(
        announced(&dir.path().join("game.jsonl")).contains(
            &"Kod parowania dla czarnych: (kodu nie zapisano w dzienniku), ważny dwie minuty. \
              Adres i kod QR są na ekranie stołu."
                .to_owned()
        ),
        "{written}"
    );
}

#[test]
fn pair_typed_at_a_table_without_device_seats_is_refused_aloud() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, out) = plain_table(dir.path(), &["--lang", "en"]);
    wait_text(&out, "the start", |s| s.contains("move> "));
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "pair white").unwrap();
    let refusal = "No device seats at this table: start it with --seats.";
    wait_text(&out, "the refusal", |s| {
        s.contains(&format!("» {refusal}\n"))
    });
    child.stdin = Some(stdin);
    stop(child);
    let journal = journal_lines(&dir.path().join("game.jsonl"));
    assert!(journal.iter().any(|v| v["event"]["type"] == "rejected"
        && v["event"]["input"] == "pair white"
        && v["event"]["reason"] == refusal));
    assert!(announced(&dir.path().join("game.jsonl")).contains(&refusal.to_owned()));
}

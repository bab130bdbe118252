//! `tandem export` and `tandem arbiter reconcile … RECORD.brf` (issue 15,
//! "Documents") on journals of real games played through the daemon: the
//! international draughts game van der Zee - Clasquin (Dutch semifinals
//! 1996) and the chess game Aronian - Munizaba (Bratislava 1993), with
//! Polish names. Real components throughout: liblouis in tandem, Debian's
//! `lou_translate` to read the braille back, `pdftoppm`/`pdftotext` for the
//! PDF, espeak-ng and sox for the audio. Golden BRF pages of the fixture
//! journal (Meijer - Meurs, NK 2009) are in `tests/data/export/`
//! (`TANDEM_BLESS=1` rewrites them).

mod support;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use serde_json::Value;
use support::{real_game, tandem, Daemon, TANDEM};
use tandem_rules::chess::pgn::{parse_pgn, replay, Replay};
use tandem_rules::chess::ChessGame;

const WHITE: &str = "Łukasz Żółć";
const BLACK: &str = "Zofia Ślęzak-Nowak";
const EVENT: &str = "Mistrzostwa Polski Niewidomych, Łódź";

/// A folder under the target dir that outlives one test (the games are
/// played once per run and shared).
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_export")
        .join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Plays `moves` through a real `tandem play` daemon and returns its journal.
fn play(name: &str, variant: &str, lang: &str, moves: &[String], resign: Option<&str>) -> PathBuf {
    let dir = scratch(name);
    let journal = dir.join("game.jsonl");
    let _ = std::fs::remove_file(&journal);
    let args = [
        "--variant",
        variant,
        "--lang",
        lang,
        "--speech",
        "text",
        "--braille",
        "none",
        "--white",
        WHITE,
        "--black",
        BLACK,
        "--event",
        EVENT,
        "--journal",
        journal.to_str().unwrap(),
    ];
    let d = Daemon::start(&args, &dir.join("tandem.sock"), &[]);
    let mut c = d.client();
    for m in moves {
        let r = c.request("move", Some(m)).unwrap();
        assert_eq!(r["ok"], true, "{m}: {r}");
    }
    if let Some(side) = resign {
        let r = c.request("resign", Some(side)).unwrap();
        assert_eq!(r["ok"], true, "{r}");
    }
    drop(d);
    journal
}

fn draughts_moves() -> Vec<String> {
    real_game().move_texts()
}

fn draughts_journal() -> &'static Path {
    static J: OnceLock<PathBuf> = OnceLock::new();
    J.get_or_init(|| {
        play(
            "draughts",
            "international",
            "pl",
            &draughts_moves(),
            Some("black"),
        )
    })
}

fn chess_game() -> ChessGame {
    let path = format!(
        "{}/../rules/tests/data/chess/aronian-1993-2002.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    match replay(&parse_pgn(&std::fs::read_to_string(path).unwrap())[0]) {
        Replay::Ok(g) => g,
        other => panic!("{other:?}"),
    }
}

fn chess_journal() -> &'static Path {
    static J: OnceLock<PathBuf> = OnceLock::new();
    J.get_or_init(|| play("chess", "chess", "en", chess_game().sans(), None))
}

fn fixture_journal() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/tests/data/arbiter/meijer-meurs.jsonl")
}

fn export(journal: &Path, args: &[&str]) -> Output {
    let out = Command::new(TANDEM)
        .arg("export")
        .arg(journal)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "tandem export {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn export_text(journal: &Path, args: &[&str]) -> String {
    String::from_utf8(export(journal, args).stdout).unwrap()
}

/// Debian's `lou_translate --backward en-us-brf.dis,TABLE`, line by line
/// (form feeds as line ends).
fn lou_backward(brf: &str, table: &str) -> String {
    let mut child = Command::new("lou_translate")
        .args(["--backward", &format!("en-us-brf.dis,{table}")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lou_translate (apt-get install liblouis-bin)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(brf.replace('\x0c', "\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The moves of a back-translated record, read independently of tandem:
/// the words after the moves label, without move numbers (`12.`, `3...`)
/// and bracketed clock times.
fn moves_read_back(text: &str, label: &str) -> Vec<String> {
    let body = text
        .split_once(label)
        .unwrap_or_else(|| panic!("no {label:?} in {text}"))
        .1;
    body.split_whitespace()
        .filter(|w| !(w.starts_with('[') && w.ends_with(']')))
        .filter(|w| !w.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()))
        .map(str::to_owned)
        .collect()
}

fn assert_brf_layout(brf: &str, width: usize, lines: usize) {
    assert_eq!(tandem_braille::brf::check(brf, width, lines), None, "{brf}");
    assert!(brf.chars().all(|c| matches!(c, ' '..='_' | '\n' | '\x0c')));
}

#[test]
fn brf_of_a_played_draughts_game_reads_back_with_lou_translate() {
    let j = draughts_journal();
    let brf = export_text(j, &["--format", "brf", "--lang", "pl"]);
    assert_brf_layout(&brf, 40, 25);
    assert!(brf.contains('\x0c'), "a long game fills several pages");
    let back = lou_backward(&brf, "Pl-Pl-g1.utb");
    assert_eq!(moves_read_back(&back, "Posunięcia:"), draughts_moves());
    // The heading, with the Polish names, and the result.
    for want in [WHITE, BLACK, "Wynik: 2-0", "Turniej: Mistrzostwa Polski"] {
        assert!(back.contains(want), "{want:?} not in {back}");
    }
    // No move is split across lines: every move is whole on some line.
    let lines: Vec<&str> = back.lines().collect();
    for m in draughts_moves() {
        assert!(
            lines.iter().any(|l| l.split_whitespace().any(|w| w == m)),
            "{m} split"
        );
    }
    // Narrower and shorter pages: still every move, in order.
    let small = export_text(
        j,
        &[
            "--format", "brf", "--lang", "pl", "--width", "20", "--lines", "10",
        ],
    );
    assert_brf_layout(&small, 20, 10);
    let back = lou_backward(&small, "Pl-Pl-g1.utb");
    assert_eq!(moves_read_back(&back, "Posunięcia:"), draughts_moves());
}

#[test]
fn brf_of_a_played_chess_game_in_english_and_polish() {
    let j = chess_journal();
    let sans: Vec<String> = chess_game().sans().to_vec();
    // English (Unified English Braille, grade 1): SAN back exactly.
    let brf = export_text(j, &["--format", "brf", "--lang", "en"]);
    assert_brf_layout(&brf, 40, 25);
    let back = lou_backward(&brf, "en-ueb-g1.ctb");
    assert_eq!(moves_read_back(&back, "Moves:"), sans);
    // English braille has no ż: the name keeps every letter it has.
    assert!(
        back.contains("White: Łukasz Zółć") && back.contains("Chess"),
        "{back}"
    );
    // Polish grade 1 shares one cell between `+` and `!` (dots 235) and
    // one between `=` and `(` (2356): liblouis reads them back as `!`
    // and `(`. Everything else is the SAN as tandem writes it.
    let brf = export_text(
        j,
        &["--format", "brf", "--lang", "pl", "--table", "Pl-Pl-g1.utb"],
    );
    assert_brf_layout(&brf, 40, 25);
    let back = lou_backward(&brf, "Pl-Pl-g1.utb");
    let polish: Vec<String> = sans
        .iter()
        .map(|s| s.replace('+', "!").replace('=', "("))
        .collect();
    assert_eq!(moves_read_back(&back, "Posunięcia:"), polish);
    assert!(sans.iter().any(|s| s.contains('+')), "the game has checks");
}

fn reconcile(journal: &Path, record: &Path, extra: &[&str]) -> (i32, Value) {
    let mut args = vec![
        "arbiter",
        "reconcile",
        journal.to_str().unwrap(),
        record.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(extra);
    let out = tandem(&args);
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), v)
}

#[test]
fn the_arbiter_reconciles_the_journal_with_a_brf_record() {
    let j = draughts_journal();
    let dir = scratch("reconcile");
    let brf = export_text(j, &["--format", "brf", "--lang", "pl"]);
    let good = dir.join("record.brf");
    std::fs::write(&good, &brf).unwrap();
    let (code, v) = reconcile(j, &good, &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["agree"], true);
    assert_eq!(v["records"]["b"]["format"], "brf");
    assert_eq!(v["agreed_plies"], draughts_moves().len());
    // A slip in the braille record: ply 7 written with another end square.
    let moves = draughts_moves();
    let tr = |m: &str| {
        let out = Command::new("lou_translate")
            .args(["--forward", "en-us-brf.dis,Pl-Pl-g1.utb"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = out;
        writeln!(out.stdin.take().unwrap(), "{m}").unwrap();
        String::from_utf8(out.wait_with_output().unwrap().stdout)
            .unwrap()
            .trim()
            .to_owned()
    };
    let (right, wrong) = (tr(&moves[6]), tr("49-44"));
    assert_eq!(moves[6], "50-44", "the game's 4th white move");
    assert_eq!(brf.matches(&right).count(), 1, "{right}");
    let slipped = dir.join("slip.brf");
    std::fs::write(&slipped, brf.replacen(&right, &wrong, 1)).unwrap();
    // An English report of a Polish braille record: the table named.
    let (code, v) = reconcile(j, &slipped, &["--lang", "en", "--table", "Pl-Pl-g1.utb"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["agreed_plies"], 6);
    assert_eq!(v["first_difference"]["a"], "50-44");
    assert_eq!(v["first_difference"]["b"], "49-44");
    // Chess: the English BRF of the chess game agrees with its journal.
    let c = chess_journal();
    let cbrf = dir.join("chess.brf");
    std::fs::write(&cbrf, export_text(c, &["--format", "brf", "--lang", "en"])).unwrap();
    let (code, v) = reconcile(c, &cbrf, &["--lang", "en"]);
    assert_eq!((code, &v["variant"]), (0, &Value::from("chess")), "{v}");
    // And the Polish one, read through Polish grade 1's shared cells.
    let cbrf_pl = dir.join("chess-pl.brf");
    std::fs::write(
        &cbrf_pl,
        export_text(c, &["--format", "brf", "--lang", "pl"]),
    )
    .unwrap();
    let (code, v) = reconcile(c, &cbrf_pl, &[]);
    assert_eq!(code, 0, "{v}");
    // Not BRF at all: a clear error, exit 2.
    let bad = dir.join("bad.brf");
    std::fs::write(&bad, "zażółć\n").unwrap();
    let out = tandem(&[
        "arbiter",
        "reconcile",
        j.to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a braille character"));
}

#[test]
fn golden_brf_pages_of_the_fixture_journal() {
    let j = fixture_journal();
    for (lang, table, label) in [
        ("pl", "Pl-Pl-g1.utb", "Posunięcia:"),
        ("en", "en-ueb-g1.ctb", "Moves:"),
    ] {
        let brf = export_text(&j, &["--format", "brf", "--lang", lang]);
        let golden = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/export")
            .join(format!("meijer-meurs-{lang}.brf"));
        if std::env::var_os("TANDEM_BLESS").is_some() {
            std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
            std::fs::write(&golden, &brf).unwrap();
        }
        assert_eq!(brf, std::fs::read_to_string(&golden).unwrap(), "{lang}");
        assert_brf_layout(&brf, 40, 25);
        let back = lou_backward(&brf, table);
        let want = tandem(&["pdn", "export", j.to_str().unwrap()]);
        let pdn = String::from_utf8(want.stdout).unwrap();
        let game = &tandem_rules::draughts::pdn::parse_pdn(&pdn)[0];
        let texts: Vec<String> = game.moves.iter().map(|m| m.text.clone()).collect();
        assert_eq!(moves_read_back(&back, label), texts, "{lang}");
    }
}

#[test]
fn the_default_format_is_the_games_own_record() {
    let pdn = export_text(draughts_journal(), &[]);
    let same = tandem(&["pdn", "export", draughts_journal().to_str().unwrap()]);
    assert_eq!(pdn.as_bytes(), same.stdout.as_slice());
    assert!(pdn.contains("[GameType \"20\"]"), "{pdn}");
    let pgn = export_text(chess_journal(), &["--format", "record"]);
    assert!(pgn.contains(&format!("[White \"{WHITE}\"]")), "{pgn}");
    assert!(pgn.contains("1. e4"), "{pgn}");
}

#[test]
fn the_pdf_scoresheet_renders_with_polish_letters() {
    let dir = scratch("pdf");
    let pdf = dir.join("scoresheet.pdf");
    let out = export(
        draughts_journal(),
        &["--format", "pdf", "--round", "3", "--board", "12"],
    );
    assert!(out.stdout.starts_with(b"%PDF-"));
    std::fs::write(&pdf, &out.stdout).unwrap();
    // Rendered to PNG (kept under target/ to be looked at).
    let png = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_export/scoresheet");
    let r = Command::new("pdftoppm")
        .args(["-png", "-r", "50", "-f", "1", "-l", "1", "-singlefile"])
        .arg(&pdf)
        .arg(&png)
        .output()
        .expect("pdftoppm (apt-get install poppler-utils)");
    assert!(r.status.success(), "{r:?}");
    let png = png.with_extension("png");
    assert!(
        std::fs::metadata(&png).unwrap().len() > 5_000,
        "{}",
        png.display()
    );
    let text = Command::new("pdftotext")
        .args(["-raw"])
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    for want in [
        WHITE,
        BLACK,
        "Protokół partii",
        "Podpis sędziego",
        "Wynik:",
        "2-0",
    ] {
        assert!(text.contains(want), "{want:?} not in {text}");
    }
    // Every move, in order.
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut at = 0;
    for m in draughts_moves() {
        at += words[at..]
            .iter()
            .position(|w| *w == m)
            .unwrap_or_else(|| panic!("{m} missing after word {at}"));
    }
    let en = export(chess_journal(), &["--format", "pdf", "--lang", "en"]);
    std::fs::write(dir.join("chess.pdf"), &en.stdout).unwrap();
    let text = Command::new("pdftotext")
        .arg(dir.join("chess.pdf"))
        .arg("-")
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("Scoresheet") && text.contains("Arbiter's signature"),
        "{text}"
    );
    assert!(text.contains("Nf3") || text.contains("e4"), "{text}");
}

/// sox's `stat`: (length in seconds, RMS amplitude).
fn sox_stat(wav: &Path) -> (f64, f64) {
    let out = Command::new("sox")
        .arg(wav)
        .args(["-n", "stat"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    let field = |name: &str| -> f64 {
        text.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.rsplit(':').next())
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {name} in {text}"))
    };
    (field("Length (seconds)"), field("RMS     amplitude"))
}

#[test]
fn the_audio_record_grows_with_the_moves() {
    let dir = scratch("audio");
    // The fixture journal cut after its first moves (a prefix of a journal
    // is a journal) and whole.
    let full = fixture_journal();
    let text = std::fs::read_to_string(&full).unwrap();
    let short = dir.join("short.jsonl");
    std::fs::write(
        &short,
        text.lines()
            .take(7)
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    )
    .unwrap();
    let mut stats = Vec::new();
    for (name, j) in [("short", short.as_path()), ("full", full.as_path())] {
        let wav = dir.join(format!("{name}.wav"));
        std::fs::write(&wav, export(j, &["--format", "audio"]).stdout).unwrap();
        let spec = hound::WavReader::open(&wav).unwrap().spec();
        assert_eq!((spec.channels, spec.bits_per_sample), (1, 16));
        stats.push(sox_stat(&wav));
    }
    let (short_len, short_rms) = stats[0];
    let (full_len, full_rms) = stats[1];
    assert!(short_len > 3.0 && short_rms > 0.01, "{stats:?}");
    assert!(full_rms > 0.01, "{stats:?}");
    assert!(full_len > short_len * 4.0, "{stats:?}");
    // Chess, in English, with the chess announcer's words.
    let wav = dir.join("chess.wav");
    std::fs::write(&wav, export(chess_journal(), &["--format", "audio"]).stdout).unwrap();
    let (len, rms) = sox_stat(&wav);
    assert!(len > 20.0 && rms > 0.01, "{len} s, RMS {rms}");
}

#[test]
fn bad_input_is_refused_in_words() {
    let dir = scratch("bad");
    let junk = dir.join("junk.jsonl");
    std::fs::write(&junk, "not a journal\n").unwrap();
    let out = tandem(&["export", junk.to_str().unwrap(), "--format", "brf"]);
    assert_eq!(out.status.code(), Some(2));
    let j = fixture_journal();
    let brf = |args: &[&str]| {
        tandem(&[&["export", j.to_str().unwrap(), "--format", "brf"], args].concat())
    };
    let out = brf(&["--table", "no-such.utb"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such.utb"));
    let out = brf(&["--width", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("too small"));
}

/// The last page of a PDF as text (`pdftotext`) and as a small PPM image
/// (`pdftoppm`), both kept under target/ to be looked at.
fn last_page(pdf: &Path, name: &str) -> (String, Vec<u8>) {
    let info = Command::new("pdfinfo").arg(pdf).output().expect("pdfinfo");
    let pages: String = String::from_utf8_lossy(&info.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .unwrap()
        .trim()
        .to_owned();
    let text = Command::new("pdftotext")
        .args(["-f", &pages, "-l", &pages])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    let img = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_export/{name}"));
    // A PNG to look at; a PPM (pdftoppm's default) to count pixels in.
    for (fmt, res) in [(Some("-png"), "60"), (None, "20")] {
        let r = Command::new("pdftoppm")
            .args(fmt)
            .args(["-r", res, "-f", &pages, "-l", &pages, "-singlefile"])
            .arg(pdf)
            .arg(&img)
            .output()
            .expect("pdftoppm");
        assert!(r.status.success(), "{r:?}");
    }
    let ppm = std::fs::read(img.with_extension("ppm")).unwrap();
    (String::from_utf8(text.stdout).unwrap(), ppm)
}

/// Pixels of a binary PPM within `tol` of `rgb`.
fn pixels_like(ppm: &[u8], rgb: [u8; 3], tol: u8) -> usize {
    // "P6\nW H\n255\n" then the pixels.
    let mut fields = 0;
    let mut at = 0;
    while fields < 4 {
        while ppm[at].is_ascii_whitespace() {
            at += 1;
        }
        while !ppm[at].is_ascii_whitespace() {
            at += 1;
        }
        fields += 1;
    }
    ppm[at + 1..]
        .chunks_exact(3)
        .filter(|p| (0..3).all(|i| p[i].abs_diff(rgb[i]) <= tol))
        .count()
}

/// Issue 22: the scoresheet ends with a diagram of the final position:
/// the chess glyphs are the final position's pieces (replayed here from
/// the PGN), the draughts board has its dark squares and numbers.
#[test]
fn the_pdf_scoresheet_ends_with_a_diagram_of_the_final_position() {
    let dir = scratch("pdf-diagram");
    let pdf = dir.join("chess.pdf");
    std::fs::write(
        &pdf,
        export(chess_journal(), &["--format", "pdf", "--lang", "en"]).stdout,
    )
    .unwrap();
    let (text, ppm) = last_page(&pdf, "chess-diagram");
    assert!(text.contains("Final position"), "{text}");
    let game = chess_game();
    let fen = tandem_rules::chess::to_fen(game.position());
    let board = fen.split(' ').next().unwrap();
    let glyph = |c: char| match c {
        'K' => '♔',
        'Q' => '♕',
        'R' => '♖',
        'B' => '♗',
        'N' => '♘',
        'P' => '♙',
        'k' => '♚',
        'q' => '♛',
        'r' => '♜',
        'b' => '♝',
        'n' => '♞',
        _ => '♟',
    };
    for c in "KQRBNPkqrbnp".chars() {
        let want = board.chars().filter(|x| *x == c).count();
        let got = text.chars().filter(|x| *x == glyph(c)).count();
        assert_eq!(got, want, "{c} in {fen}: {text}");
    }
    // The dark squares drawn (181, 136, 99), a good part of the page.
    assert!(pixels_like(&ppm, [181, 136, 99], 6) > 500);

    let pdf = dir.join("draughts.pdf");
    std::fs::write(
        &pdf,
        export(draughts_journal(), &["--format", "pdf"]).stdout,
    )
    .unwrap();
    let (text, ppm) = last_page(&pdf, "draughts-diagram");
    assert!(text.contains("Pozycja końcowa"), "{text}");
    let numbers: Vec<&str> = text.split_whitespace().collect();
    for n in ["1", "25", "46", "50"] {
        assert!(numbers.contains(&n), "square {n}: {text}");
    }
    assert!(pixels_like(&ppm, [181, 136, 99], 6) > 500);
}

/// The mover's remaining time after each move, as the journal recorded it
/// (whole seconds): what `{[%clk H:MM:SS]}` must say.
fn movers_clocks(journal: &Path) -> Vec<f64> {
    std::fs::read_to_string(journal)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["event"].clone())
        .filter(|e| e["type"] == "move")
        .map(|e| {
            let ms = if e["side"] == "white" {
                &e["white_ms"]
            } else {
                &e["black_ms"]
            };
            (ms.as_u64().unwrap() / 1000) as f64
        })
        .collect()
}

#[test]
fn a_chess_record_carries_the_movers_clock_as_python_chess_reads_it() {
    let journal = chess_journal();
    let pgn = export_text(journal, &[]);
    // One way to write a chess record: `tandem export` and `tandem pdn export` agree.
    let same = tandem(&["pdn", "export", journal.to_str().unwrap()]);
    assert_eq!(pgn.as_bytes(), same.stdout.as_slice());
    assert!(!pgn.contains("{white "), "the old clock comment: {pgn}");
    let Some(games) = support::pychess::read(&pgn) else {
        return;
    };
    assert_eq!(games.len(), 1, "{pgn}");
    let g = &games[0];
    assert_eq!(g["errors"], serde_json::json!([]), "{pgn}");
    for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result"] {
        assert!(g["headers"][tag].is_string(), "{tag} missing: {g}");
    }
    assert_eq!(g["headers"]["White"], WHITE);
    assert_eq!(g["headers"]["Event"], EVENT);
    let sans: Vec<&str> = g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, chess_game().sans());
    let clocks: Vec<f64> = g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            m["clock"]
                .as_f64()
                .unwrap_or_else(|| panic!("no clock: {m}"))
        })
        .collect();
    assert_eq!(clocks, movers_clocks(journal), "{pgn}");
}

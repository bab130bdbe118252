//! `tandem clock presets [--json]` and
//! `tandem clock replay --control PRESET|SPEC --presses FILE [--end SECONDS] [--json]`.
//!
//! Replay is for the arbiter (001 ch. VIII 3.1.2: "the arbiter should also
//! correct the time"): from the logged moments of the presses it recomputes
//! both clocks under the time control, and says whose flag fell first and
//! when, even if presses came later. After a flag falls the replay goes on:
//! that side's time stays at zero with no more bonus or period time, its moves
//! still count, and the other side's clock runs as usual, so a second flag is
//! found too (`flags`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use tandem_rules::clock::{Clock, GameTime, TimeControl, PRESETS, PRESET_FAMILIES};
use tandem_rules::Color;

/// `tandem clock` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum ClockCommand {
    /// List the time-control presets with their written form.
    Presets(PresetsArgs),
    /// Recompute both clocks from the logged moments of the presses.
    Replay(ReplayArgs),
}

/// Arguments of `tandem clock presets`.
#[derive(Debug, clap::Args)]
pub struct PresetsArgs {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `tandem clock replay`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "FILE holds one time a line: seconds from the start of the game (decimals allowed), \
    each the moment a move was completed and the clock pressed, white's first. Blank lines and # comments \
    are allowed. After a flag falls the replay goes on; the flag is reported at the moment it fell."
)]
pub struct ReplayArgs {
    /// A preset name (see `tandem clock presets`) or a written time control such as `90m/45,30m+30s@46`.
    #[arg(long, value_name = "PRESET|SPEC")]
    pub control: String,
    /// The file of press times (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    pub presses: PathBuf,
    /// Run the clock on after the last press to this moment (seconds from the start), e.g. when the arbiter
    /// stopped it, to see whether the side to move had lost on time.
    #[arg(long, value_name = "SECONDS")]
    pub end: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `tandem clock`.
pub fn run(c: ClockCommand) -> anyhow::Result<ExitCode> {
    match c {
        ClockCommand::Presets(args) => presets(&args),
        ClockCommand::Replay(args) => replay(&args),
    }
}

fn presets(args: &PresetsArgs) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if args.json {
        let presets: Vec<_> = PRESETS
            .iter()
            .map(|p| {
                serde_json::json!({
                    "name": p.name, "control": p.written, "description": p.description, "source": p.source,
                })
            })
            .collect();
        let families: Vec<_> = PRESET_FAMILIES
            .iter()
            .map(|f| {
                serde_json::json!({
                    "pattern": f.pattern,
                    "example": f.example,
                    "example_control": TimeControl::preset(f.example).map(|tc| tc.to_string()),
                    "description": f.description,
                    "source": f.source,
                })
            })
            .collect();
        writeln!(
            out,
            "{}",
            serde_json::json!({ "presets": presets, "families": families })
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let width = PRESETS
        .iter()
        .map(|p| p.name.len())
        .chain(PRESET_FAMILIES.iter().map(|f| f.pattern.len()))
        .max();
    let width = width.unwrap_or(0);
    for p in PRESETS {
        writeln!(
            out,
            "{:width$}  {:18}  {} ({})",
            p.name, p.written, p.description, p.source
        )?;
    }
    for f in PRESET_FAMILIES {
        let example = TimeControl::preset(f.example)
            .map(|tc| tc.to_string())
            .unwrap_or_default();
        writeln!(
            out,
            "{:width$}  {:18}  {} ({}); {} is {example}",
            f.pattern, "", f.description, f.source, f.example
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One line of the presses file: its number (from 1) and the moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PressLine {
    line: usize,
    at: GameTime,
}

/// Parses seconds like `12`, `12.5`, `0.000000001` exactly (no binary
/// floating point on the way).
fn parse_seconds(s: &str) -> Option<Duration> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if s.contains('.')
        && (frac.is_empty() || frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let secs: u64 = int.parse().ok()?;
    let nanos: u32 = if frac.is_empty() {
        0
    } else {
        // At most 9 ASCII digits: fits a u32; scaled to nanoseconds.
        frac.parse::<u32>().ok()? * 10u32.pow(9 - frac.len() as u32)
    };
    Some(Duration::new(secs, nanos))
}

/// Reads the presses file: one time a line, blank lines and `#` comments
/// allowed, times never going back.
fn parse_presses(text: &str) -> anyhow::Result<Vec<PressLine>> {
    let mut out: Vec<PressLine> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let Some(d) = parse_seconds(content) else {
            bail!("line {line}: {content:?} is not a time in seconds from the start of the game (like 12 or 12.5)");
        };
        let at = GameTime::from_duration(d);
        if let Some(prev) = out.last() {
            if at < prev.at {
                bail!(
                    "line {line}: {content} s is before the previous press at {} s (line {})",
                    seconds(prev.at.since_start()),
                    prev.line
                );
            }
        }
        out.push(PressLine { line, at });
    }
    Ok(out)
}

fn seconds(d: Duration) -> f64 {
    d.as_secs_f64()
}

/// A clock face for text output: `1:29:57`, `4:03.5`.
fn face(d: Duration) -> String {
    GameTime::from_duration(d).to_string()
}

fn replay(args: &ReplayArgs) -> anyhow::Result<ExitCode> {
    let control = TimeControl::lookup(&args.control).context("--control")?;
    let presses = read_presses(&args.presses)?;
    let end = end_time(args.end.as_deref(), &presses)?;
    let mut clock = Clock::new(control);
    let rows = press_all(&mut clock, &presses)?;
    let last = end
        .or(presses.last().map(|p| p.at))
        .unwrap_or(GameTime::ZERO);
    clock.advance(last)?;
    let mut flags: Vec<(Color, GameTime)> = [Color::White, Color::Black]
        .into_iter()
        .filter_map(|c| clock.flag(c, last).map(|t| (c, t)))
        .collect();
    flags.sort_by_key(|&(_, t)| t);

    let mut out = std::io::stdout().lock();
    if args.json {
        write_json(&mut out, &clock, &rows, &flags)?;
    } else {
        write_text(&mut out, &clock, &rows, last, &flags)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The presses of `--presses FILE` (`-`: standard input).
fn read_presses(path: &std::path::Path) -> anyhow::Result<Vec<PressLine>> {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
            .context("reading the presses from standard input")?
    } else {
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?
    };
    parse_presses(&text).with_context(|| format!("in {}", path.display()))
}

/// `--end SECONDS`: a moment no earlier than the last press.
fn end_time(end: Option<&str>, presses: &[PressLine]) -> anyhow::Result<Option<GameTime>> {
    let Some(s) = end else {
        return Ok(None);
    };
    let Some(d) = parse_seconds(s.trim()) else {
        bail!("--end {s:?} is not a time in seconds from the start of the game (like 12 or 12.5)");
    };
    let end = GameTime::from_duration(d);
    if let Some(last) = presses.last().filter(|p| p.at > end) {
        bail!(
            "--end {s} is before the last press ({} s, line {})",
            seconds(last.at.since_start()),
            last.line
        );
    }
    Ok(Some(end))
}

/// Starts the clock at time 0 with white's clock running and presses it at
/// each moment: a row a ply.
fn press_all(clock: &mut Clock, presses: &[PressLine]) -> anyhow::Result<Vec<Row>> {
    clock.start(GameTime::ZERO)?;
    let mut rows = Vec::with_capacity(presses.len());
    for (i, p) in presses.iter().enumerate() {
        let press = clock
            .press(p.at)
            .with_context(|| format!("line {}", p.line))?;
        rows.push(Row {
            ply: i + 1,
            side: press.side,
            at: p.at,
            white_remaining: clock.remaining(Color::White, p.at),
            black_remaining: clock.remaining(Color::Black, p.at),
            white_used: clock.used(Color::White, p.at),
            black_used: clock.used(Color::Black, p.at),
            move_time: press.move_time,
            flags: press
                .events
                .iter()
                .filter(|e| e.kind == tandem_rules::clock::ClockEventKind::Flag)
                .map(|e| (e.side, e.at))
                .collect(),
        });
    }
    Ok(rows)
}

/// `--json`: one object.
fn write_json(
    out: &mut impl Write,
    clock: &Clock,
    rows: &[Row],
    flags: &[(Color, GameTime)],
) -> anyhow::Result<()> {
    let presses: Vec<_> = rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "ply": r.ply,
                "at": seconds(r.at.since_start()),
                "white_remaining": seconds(r.white_remaining),
                "black_remaining": seconds(r.black_remaining),
                "white_used": seconds(r.white_used),
                "black_used": seconds(r.black_used),
            })
        })
        .collect();
    let flag_json = |&(side, t): &(Color, GameTime)| serde_json::json!({"side": side.name(), "at": seconds(t.since_start())});
    let obj = serde_json::json!({
        "control": clock.control().to_string(),
        "presses": presses,
        "flag": flags.first().map(flag_json),
        "flags": flags.iter().map(flag_json).collect::<Vec<_>>(),
    });
    writeln!(out, "{obj}")?;
    Ok(())
}

/// The text: a line a ply, then both clocks at `last` and the flags.
fn write_text(
    out: &mut impl Write,
    clock: &Clock,
    rows: &[Row],
    last: GameTime,
    flags: &[(Color, GameTime)],
) -> anyhow::Result<()> {
    writeln!(out, "control {}", clock.control())?;
    // Untimed (`none`): no time is left or lacking, only used.
    let untimed = clock.control().is_untimed();
    let left = |d| {
        if untimed {
            "no clock".to_owned()
        } else {
            format!("{:>10} left", face(d))
        }
    };
    for r in rows {
        writeln!(
            out,
            "ply {:>3} {} at {:>10}  move {:>8}  white {:>15}, {:>10} used  black {:>15}, {:>10} used",
            r.ply,
            r.side,
            r.at.to_string(),
            face(r.move_time),
            left(r.white_remaining),
            face(r.white_used),
            left(r.black_remaining),
            face(r.black_used),
        )?;
        for (side, t) in &r.flags {
            writeln!(out, "        {side}'s flag fell at {t}")?;
        }
    }
    writeln!(
        out,
        "end at {}, {} to move{}",
        last,
        clock.side_to_move(),
        if clock.is_running() {
            ""
        } else {
            " (clock not running)"
        }
    )?;
    for c in [Color::White, Color::Black] {
        let to_control = match clock.moves_to_control(c) {
            Some(n) => format!("{n} to the next control"),
            None => "no further control".to_owned(),
        };
        writeln!(
            out,
            "  {c}: {}, {} used, {} made, {to_control}{}",
            left(clock.remaining(c, last)).trim_start(),
            face(clock.used(c, last)),
            match clock.moves_made(c) {
                1 => "1 move".to_owned(),
                n => format!("{n} moves"),
            },
            if clock.in_time_trouble(c, last) {
                ", in time trouble"
            } else {
                ""
            },
        )?;
    }
    match flags {
        [] => writeln!(out, "no flag fell")?,
        [(side, t)] => writeln!(out, "flag: {side}'s fell at {t}")?,
        [(s1, t1), (s2, t2), ..] => {
            writeln!(out, "flags: {s1}'s fell first, at {t1}; {s2}'s at {t2}")?
        }
    }
    Ok(())
}

struct Row {
    ply: usize,
    side: Color,
    at: GameTime,
    white_remaining: Duration,
    black_remaining: Duration,
    white_used: Duration,
    black_used: Duration,
    move_time: Duration,
    flags: Vec<(Color, GameTime)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_parse_exactly() {
        assert_eq!(parse_seconds("12"), Some(Duration::from_secs(12)));
        assert_eq!(parse_seconds("12.5"), Some(Duration::from_millis(12_500)));
        assert_eq!(parse_seconds("0.1"), Some(Duration::from_millis(100)));
        assert_eq!(parse_seconds("0.000000001"), Some(Duration::from_nanos(1)));
        for bad in [
            "",
            ".5",
            "5.",
            "-1",
            "+1",
            "1e3",
            "1.2.3",
            "0.0000000001",
            "abc",
            "1 2",
            "99999999999999999999999",
        ] {
            assert_eq!(parse_seconds(bad), None, "{bad}");
        }
    }

    #[test]
    fn presses_file() {
        let text = "# game 1\n3\n\n  7.25  # white's reply\n7.25\n";
        let got = parse_presses(text).unwrap();
        let lines: Vec<_> = got.iter().map(|p| (p.line, p.at.as_millis())).collect();
        assert_eq!(lines, [(2, 3000), (4, 7250), (5, 7250)]);
        let err = parse_presses("3\n2\n").unwrap_err().to_string();
        assert_eq!(
            err,
            "line 2: 2 s is before the previous press at 3 s (line 1)"
        );
        let err = parse_presses("3\n\nfour\n").unwrap_err().to_string();
        assert!(err.starts_with("line 3: \"four\""), "{err}");
    }
}

//! `tandem hear --batch DIR --labels FILE [--json]`: every WAV recording of
//! a folder against its expected move or command, so that a club can
//! measure a model on its own players' voices before a tournament.
//!
//! The labels file has one line per recording: its file name, a tab, the
//! expected answer (a move as it would be typed, `32-28`, `3228` or `Nf3`;
//! or a command by name: `clock`, `yes`, `square 23`; see
//! `tandem hear --help`). Blank lines and lines starting with `#` are
//! skipped. Every recording is heard in the same position (`--fen`, default
//! the initial one) with one recognizer (the model is loaded once).
//!
//! With `--json`, one object:
//! `{"files": N, "correct": N, "accuracy": F, "misses": [{"file": "...",
//! "expected": "...", "heard": "..."}]}`; `heard` is what tandem understood
//! (`32-28`, `clock`, `32-28 or 32-27`, `illegal 32-26`), or the
//! recognizer's words in quotes when it understood nothing (empty when it
//! heard nothing).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use serde::Serialize;
use tandem_speech::listen::{read_wav_16k, Recognizer};

use crate::voice::ear::Ear;

/// One recording understood as something else.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Miss {
    /// The file name.
    pub file: String,
    /// What it should have been.
    pub expected: String,
    /// What was understood instead.
    pub heard: String,
}

/// The outcome of a batch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Recordings heard.
    pub files: usize,
    /// Understood as expected.
    pub correct: usize,
    /// `correct / files` (0 for no files).
    pub accuracy: f64,
    /// The others, by file name.
    pub misses: Vec<Miss>,
}

/// Reads a labels file: file name -> expected answer.
///
/// # Errors
/// A line without a tab, a file named twice, or an empty expected answer.
pub fn parse_labels(text: &str) -> anyhow::Result<BTreeMap<String, String>> {
    let mut labels = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let (file, expected) = line.split_once('\t').with_context(|| {
            format!("line {n}: expected FILE<tab>EXPECTED (a tab between them), got {line:?}")
        })?;
        let (file, expected) = (file.trim(), expected.trim());
        anyhow::ensure!(
            !file.is_empty() && !expected.is_empty(),
            "line {n}: a file name and the expected move or command are both needed"
        );
        anyhow::ensure!(
            labels
                .insert(file.to_owned(), expected.to_owned())
                .is_none(),
            "line {n}: {file} is labelled twice"
        );
    }
    Ok(labels)
}

/// The WAV files of `dir` (by name, sorted).
fn wav_files(dir: &Path) -> anyhow::Result<Vec<String>> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        let is_wav = Path::new(&name)
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("wav"));
        if is_wav && e.path().is_file() {
            files.push(name);
        }
    }
    files.sort();
    Ok(files)
}

/// The recordings of `dir`, each with a label and each label with a
/// recording.
///
/// # Errors
/// The folder cannot be read, a recording has no label or a label no recording.
pub fn labelled_files(
    dir: &Path,
    labels: &BTreeMap<String, String>,
) -> anyhow::Result<Vec<String>> {
    let files = wav_files(dir)?;
    let unlabelled: Vec<&str> = files
        .iter()
        .filter(|f| !labels.contains_key(*f))
        .map(String::as_str)
        .collect();
    let absent: Vec<&str> = labels
        .keys()
        .filter(|f| !files.contains(f))
        .map(String::as_str)
        .collect();
    anyhow::ensure!(
        unlabelled.is_empty(),
        "no label for {} (add a line FILE<tab>EXPECTED to the labels file)",
        unlabelled.join(", ")
    );
    anyhow::ensure!(
        absent.is_empty(),
        "labelled but not in {}: {}",
        dir.display(),
        absent.join(", ")
    );
    Ok(files)
}

/// Hears every recording of `files` (in `dir`) and compares it with its label.
///
/// # Errors
/// The recognizer fails.
pub fn measure(
    ear: &Ear,
    rec: &mut dyn Recognizer,
    dir: &Path,
    files: &[String],
    labels: &BTreeMap<String, String>,
) -> anyhow::Result<(Report, Vec<(String, String)>)> {
    let mut correct = 0;
    let mut misses = Vec::new();
    let mut lines = Vec::new();
    for f in files {
        let expected = (ear.normalize)(&labels[f]);
        let heard = match read_wav_16k(&dir.join(f)) {
            Ok(audio) => {
                rec.accept(&audio)?;
                let v = (ear.judge)(&rec.finish()?)?;
                lines.push((f.clone(), v.line));
                v.label
            }
            // A bad file is a miss, said as such; the others are still heard.
            Err(e) => {
                let why = format!("(unreadable: {e})");
                lines.push((f.clone(), why.clone()));
                why
            }
        };
        if heard == expected {
            correct += 1;
        } else {
            misses.push(Miss {
                file: f.clone(),
                expected,
                heard,
            });
        }
    }
    let accuracy = if files.is_empty() {
        0.0
    } else {
        correct as f64 / files.len() as f64
    };
    Ok((
        Report {
            files: files.len(),
            correct,
            accuracy,
            misses,
        },
        lines,
    ))
}

/// Runs `tandem hear --batch DIR --labels FILE`.
///
/// # Errors
/// See [`measure`].
pub fn run<R: Recognizer>(
    json: bool,
    ear: &Ear,
    dir: &Path,
    labels: &Path,
    load: impl FnOnce() -> anyhow::Result<R>,
) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(labels)
        .with_context(|| format!("cannot read --labels {}", labels.display()))?;
    let labels = parse_labels(&text).with_context(|| format!("--labels {}", labels.display()))?;
    // Checked before the model is loaded (a few seconds).
    let files = labelled_files(dir, &labels)?;
    let mut rec = load()?;
    let (report, lines) = measure(ear, &mut rec, dir, &files, &labels)?;
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    for (file, line) in &lines {
        let miss = report.misses.iter().find(|m| &m.file == file);
        match miss {
            None => writeln!(out, "ok    {file}: {line}")?,
            Some(m) => writeln!(out, "MISS  {file}: expected {}; {line}", m.expected)?,
        }
    }
    writeln!(
        out,
        "{} of {} understood as expected ({:.1} %)",
        report.correct,
        report.files,
        report.accuracy * 100.0
    )?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_tab_separated_with_comments() {
        let l = parse_labels("# name\texpected\n\na.wav\t32-28\r\nb.wav\t square 23 \n").unwrap();
        assert_eq!(l["a.wav"], "32-28");
        assert_eq!(l["b.wav"], "square 23");
        let e = parse_labels("a.wav 32-28\n").unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("tab"), "{e}");
        let e = parse_labels("a.wav\t32-28\na.wav\t33-29\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("twice"), "{e}");
        assert!(parse_labels("a.wav\t\n").is_err());
    }

    #[test]
    fn the_report_is_the_exact_json_object() {
        let r = Report {
            files: 2,
            correct: 1,
            accuracy: 0.5,
            misses: vec![Miss {
                file: "b.wav".into(),
                expected: "33-29".into(),
                heard: "yes".into(),
            }],
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"files":2,"correct":1,"accuracy":0.5,"misses":[{"file":"b.wav","expected":"33-29","heard":"yes"}]}"#
        );
    }
}

//! The tests' independent Python readers and oracles (python-chess,
//! num2words), installed by `scripts/setup.sh --test` into
//! `$TANDEM_PYTHONPATH`: a script run with its input on stdin.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

/// Runs `script` with `input` on stdin and `$TANDEM_PYTHONPATH` on the
/// path, once `import MODULE` works: the JSON it printed. `None` when the
/// module is missing (the test then returns early, or fails:
/// `tandem_testkit::require`, naming `what`).
#[must_use]
pub fn run_json(module: &str, what: &str, script: &str, input: &str) -> Option<Value> {
    let present = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .env("PYTHONPATH", tandem_testkit::python_path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| e.to_string())
        .and_then(|o| {
            if o.status.success() {
                Ok(())
            } else {
                Err(String::from_utf8_lossy(&o.stderr).into_owned())
            }
        });
    tandem_testkit::require(what, present)?;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .env("PYTHONPATH", tandem_testkit::python_path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

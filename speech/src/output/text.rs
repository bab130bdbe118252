//! [`TextOutput`]: speech as lines of text on any writer.

use std::io::Write;

use super::{Caps, SpeechError, SpeechOutput, VoiceParams};
use crate::utterance::Utterance;

/// Writes each utterance as one line. With `tagged`, lines carry the
/// priority as in the golden files: `SPEECH[next]: ...`.
#[derive(Debug)]
pub struct TextOutput<W> {
    out: W,
    tagged: bool,
}

impl<W: Write> TextOutput<W> {
    /// Plain lines.
    pub fn new(out: W) -> TextOutput<W> {
        TextOutput { out, tagged: false }
    }

    /// Lines tagged with the priority.
    pub fn tagged(out: W) -> TextOutput<W> {
        TextOutput { out, tagged: true }
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> SpeechOutput for TextOutput<W> {
    fn name(&self) -> &'static str {
        "text"
    }

    fn capabilities(&self) -> Caps {
        Caps::default()
    }

    fn speak(&mut self, u: &Utterance) -> Result<(), SpeechError> {
        let line = if self.tagged {
            u.golden_line()
        } else {
            u.text()
        };
        writeln!(self.out, "{line}")
            .and_then(|()| self.out.flush())
            .map_err(|e| SpeechError::Failed(e.to_string()))
    }

    fn is_speaking(&mut self) -> bool {
        false
    }

    fn cancel(&mut self) -> Result<(), SpeechError> {
        Ok(())
    }

    fn set_params(&mut self, _params: &VoiceParams) -> Result<(), SpeechError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Kind, Priority};

    #[test]
    fn writes_lines() {
        let mut t = TextOutput::tagged(Vec::new());
        t.speak(&Utterance::new(
            Priority::Now,
            Kind::Warning,
            vec!["Flag.".into()],
        ))
        .unwrap();
        let mut p = TextOutput::new(Vec::new());
        p.speak(&Utterance::new(
            Priority::Next,
            Kind::Move,
            vec!["A.".into(), "B.".into()],
        ))
        .unwrap();
        assert_eq!(
            String::from_utf8(t.into_inner()).unwrap(),
            "SPEECH[now]: Flag.\n"
        );
        assert_eq!(String::from_utf8(p.into_inner()).unwrap(), "A. B.\n");
    }
}

//! The dictaphone record (`tandem export --format audio`): the whole record
//! read aloud in the game's language with the announcer's words (the same
//! phrasebook as at the table), each move number before its move pair, as
//! one WAV file. Each sentence is spoken into a WAV file by espeak-ng (the
//! speech crate's espeak-ng backend), and the files are joined with a short
//! pause between them.

use std::io::Cursor;

use anyhow::{bail, Context};
use tandem_speech::output::espeak::synthesize_wav;
use tandem_speech::output::VoiceParams;

use super::record::GameRecord;

/// The pause between two sentences.
const PAUSE_MS: u32 = 400;

/// The record read aloud in `lang`, as the bytes of one WAV file.
///
/// # Errors
/// espeak-ng is missing or fails; its files cannot be read.
pub fn to_wav(rec: &GameRecord, lang: &str) -> anyhow::Result<Vec<u8>> {
    let sentences = rec.read_aloud(lang);
    let dir = tempfile::tempdir().context("a temporary folder for the audio")?;
    let params = VoiceParams::for_language(lang);
    let mut spec: Option<hound::WavSpec> = None;
    let mut samples: Vec<i16> = Vec::new();
    for (i, s) in sentences.iter().enumerate() {
        let path = dir.path().join(format!("{i}.wav"));
        synthesize_wav(s, &params, &path).with_context(|| format!("speaking {s:?}"))?;
        let mut r = hound::WavReader::open(&path)
            .with_context(|| format!("reading espeak-ng's {}", path.display()))?;
        let this = r.spec();
        if this.bits_per_sample != 16 || this.sample_format != hound::SampleFormat::Int {
            bail!("espeak-ng wrote {this:?}; tandem joins 16-bit PCM");
        }
        match spec {
            None => spec = Some(this),
            Some(first) if first != this => {
                bail!("espeak-ng wrote {this:?} after {first:?}: the parts cannot be joined")
            }
            Some(_) => {}
        }
        if i > 0 {
            let pause = this.sample_rate * PAUSE_MS / 1000 * u32::from(this.channels);
            samples.resize(samples.len() + pause as usize, 0);
        }
        for x in r.samples::<i16>() {
            samples.push(x.context("espeak-ng's audio")?);
        }
    }
    let Some(spec) = spec else {
        bail!("nothing to read aloud");
    };
    let mut out = Cursor::new(Vec::new());
    {
        let mut w = hound::WavWriter::new(&mut out, spec)?;
        for x in samples {
            w.write_sample(x)?;
        }
        w.finalize()?;
    }
    Ok(out.into_inner())
}

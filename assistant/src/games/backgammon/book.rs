//! `tandem play --phrasebook FILE` for backgammon: the file is a backgammon
//! phrasebook (its words said; its `[listen]` and `[listen.commands]`
//! listened for).

use std::path::Path;
use std::sync::Arc;

use tandem_speech::backgammon::BgPhrasebook;
use tandem_speech::Phrasebook;

use crate::game_book::GameBook;
use crate::voice::GameWords;

/// Reads `file` as a backgammon phrasebook.
///
/// # Errors
/// The file is not a backgammon phrasebook, or its listening words do not read.
pub fn read(file: &Path) -> anyhow::Result<GameBook> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| anyhow::anyhow!("--phrasebook {}: {e}", file.display()))?;
    let book = BgPhrasebook::from_toml_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "--phrasebook {}: {e} (a backgammon game takes a backgammon phrasebook, \
             like speech/phrasebooks/backgammon/en.toml)",
            file.display()
        )
    })?;
    // Its listening words, checked now rather than when the voice thread starts.
    super::voice::file_words(file, &Phrasebook::english())?;
    Ok(GameBook {
        own: Some(Arc::new(book)),
        file: Some(file.to_owned()),
        ..GameBook::default()
    })
}

/// The words voice input listens for: those of the `--phrasebook` file
/// (its commands, else the table's), or `None` for the built-in ones.
///
/// # Errors
/// The file's words do not read.
pub fn words(book: &GameBook, table: &Phrasebook) -> anyhow::Result<Option<GameWords>> {
    book.file
        .as_deref()
        .map(|p| super::voice::file_words(p, table))
        .transpose()
}

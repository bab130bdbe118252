//! `tandem play --phrasebook FILE` for draughts: the file is the table's
//! phrasebook (draughts' words and the shared sentences).

use std::path::Path;

use tandem_speech::Phrasebook;

use crate::game_book::GameBook;

/// Reads `file` as the table's phrasebook.
///
/// # Errors
/// The file does not read or is not a phrasebook.
pub fn read(file: &Path) -> anyhow::Result<GameBook> {
    let book = Phrasebook::from_file(file)
        .map_err(|e| anyhow::anyhow!("--phrasebook {}: {e}", file.display()))?;
    Ok(GameBook {
        table: Some(book),
        file: Some(file.to_owned()),
        ..GameBook::default()
    })
}

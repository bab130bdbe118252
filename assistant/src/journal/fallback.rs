//! The fallback copy of a journal that cannot be written (a full disk, a
//! read-only one): where it goes ([`fallback_dirs`]) and the folder it goes
//! in, made private or refused ([`private_folder`]): a folder that another
//! user made first (`/tmp/tandem-fallback-UID` is a name anyone can take),
//! a link, or one that others may write in is never given the journal.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use super::{sync_dir, write_synced, JournalWriter};

/// The copy being written.
#[derive(Debug)]
pub(super) struct Fallback {
    pub(super) path: PathBuf,
    /// `None` after the copy failed: nothing more is written there.
    pub(super) file: Option<File>,
}

/// Makes `dir` (mode 0700; its parents as usual) or checks the one there:
/// a folder, not a link, this user's, that no one else may write in; then
/// makes it private (0700), so that no one else can read the journal's copy
/// either.
///
/// # Errors
/// The folder cannot be made, or is refused (why, in the error).
pub fn private_folder(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
        _ => {}
    }
    let refuse = |why: String| {
        Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{}: {why}: the journal's copy is not put there",
                dir.display()
            ),
        ))
    };
    let m = std::fs::symlink_metadata(dir)?;
    if !m.file_type().is_dir() {
        return refuse("not a folder (a link?)".into());
    }
    let me = rustix::process::getuid().as_raw();
    if m.uid() != me {
        return refuse(format!("it belongs to another user (uid {})", m.uid()));
    }
    if m.mode() & 0o022 != 0 {
        return refuse(format!(
            "others may write in it (mode {:o})",
            m.mode() & 0o777
        ));
    }
    if m.mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// Where a journal's fallback copy goes: `$XDG_STATE_HOME/tandem/fallback/`
/// (else `~/.local/state/tandem/fallback/`), and `/tmp/tandem-fallback-$UID/`
/// when that cannot be written either.
#[must_use]
pub fn fallback_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(s) = std::env::var_os("XDG_STATE_HOME").filter(|v| !v.is_empty()) {
        dirs.push(PathBuf::from(s).join("tandem").join("fallback"));
    } else if let Some(h) = std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        dirs.push(PathBuf::from(h).join(".local/state/tandem/fallback"));
    }
    dirs.push(PathBuf::from(format!(
        "/tmp/tandem-fallback-{}",
        rustix::process::getuid().as_raw()
    )));
    dirs
}

impl JournalWriter {
    /// A full copy of the good lines of the journal file in the first
    /// fallback folder that takes it.
    pub(super) fn open_fallback(&self) -> Option<Fallback> {
        use std::io::Read;
        let mut good = Vec::new();
        let read = File::open(&self.path)
            .and_then(|f| f.take(self.good_len).read_to_end(&mut good))
            .is_ok_and(|n| n as u64 == self.good_len);
        if !read {
            return None;
        }
        let name = self.path.file_name().map_or_else(
            || "journal.jsonl".into(),
            |n| n.to_string_lossy().into_owned(),
        );
        let mut last = None;
        for dir in &self.fallback_dirs {
            let path = dir.join(format!("{}-{name}", std::process::id()));
            let made = private_folder(dir).and_then(|()| {
                use std::os::unix::fs::OpenOptionsExt;
                let f = OpenOptions::new()
                    .create(true)
                    .truncate(true)
                    .write(true)
                    .mode(0o600)
                    .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
                    .open(&path)?;
                write_synced(&f, &good)?;
                Ok(f)
            });
            match made {
                Ok(f) => {
                    sync_dir(&path);
                    return Some(Fallback {
                        path,
                        file: Some(f),
                    });
                }
                Err(e) => {
                    tracing::error!("journal fallback {}: {e}", path.display());
                    last = Some(path);
                }
            }
        }
        last.map(|path| Fallback { path, file: None })
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    use super::*;
    use crate::journal::{Event, HealthChange, Journal, JournalWriter, Source};

    fn mode(p: &Path) -> u32 {
        std::fs::symlink_metadata(p).unwrap().mode() & 0o777
    }

    #[test]
    fn a_new_fallback_folder_is_private_and_an_open_one_of_ours_made_private() {
        let d = tempfile::tempdir().unwrap();
        let new = d.path().join("a").join("fallback");
        private_folder(&new).unwrap();
        assert_eq!(mode(&new), 0o700);
        // Ours, readable by others (made by an older tandem): closed.
        let old = d.path().join("old");
        std::fs::create_dir(&old).unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o755)).unwrap();
        private_folder(&old).unwrap();
        assert_eq!(mode(&old), 0o700);
    }

    #[test]
    fn a_fallback_folder_others_may_write_in_a_link_or_another_users_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let open = d.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
        let e = private_folder(&open).unwrap_err().to_string();
        assert!(e.contains("others may write"), "{e}");
        let link = d.path().join("link");
        std::os::unix::fs::symlink(d.path(), &link).unwrap();
        let e = private_folder(&link).unwrap_err().to_string();
        assert!(e.contains("not a folder"), "{e}");
        if rustix::process::getuid().is_root() {
            let theirs = d.path().join("theirs");
            std::fs::create_dir(&theirs).unwrap();
            std::fs::set_permissions(&theirs, std::fs::Permissions::from_mode(0o700)).unwrap();
            std::os::unix::fs::chown(&theirs, Some(1), Some(1)).unwrap();
            let e = private_folder(&theirs).unwrap_err().to_string();
            assert!(e.contains("another user (uid 1)"), "{e}");
            assert_eq!(std::fs::metadata(&theirs).unwrap().uid(), 1);
        } else {
            eprintln!("not root: the other user's folder (chown) is not checked here");
        }
    }

    /// `/dev/full` makes the journal unwritable: the copy skips a folder
    /// another user could have prepared and goes to the private one, 0600.
    #[test]
    fn the_journals_copy_goes_only_to_a_private_folder() {
        let (d, p) = crate::journal::tests::sample();
        let trap = d.path().join("trap");
        std::fs::create_dir(&trap).unwrap();
        std::fs::set_permissions(&trap, std::fs::Permissions::from_mode(0o777)).unwrap();
        let good = d.path().join("good");
        let mut w = JournalWriter::resume(&p, &Journal::read(&p).unwrap())
            .unwrap()
            .with_fallback_dirs(vec![trap.clone(), good.clone()]);
        w.file = OpenOptions::new().write(true).open("/dev/full").unwrap();
        w.append(
            1000,
            Event::Rejected {
                source: Source::Typed,
                input: "x".into(),
                reason: "y".into(),
                seat: None,
            },
        )
        .unwrap();
        let Some(HealthChange::Degraded {
            fallback: Some(copy),
            ..
        }) = w.take_change()
        else {
            panic!("no copy")
        };
        assert!(copy.starts_with(&good), "{}", copy.display());
        assert_eq!(std::fs::read_dir(&trap).unwrap().count(), 0);
        assert_eq!(mode(&good), 0o700);
        assert_eq!(mode(&copy), 0o600);
    }
}

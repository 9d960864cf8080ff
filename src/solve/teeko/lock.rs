//! The build lock: one process at a time writes a table file (protocol.md, Environment).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::table;

/// `<table file>.lock`, locked (an advisory `flock`) while this process writes the table.
///
/// The lock belongs to the open file, not to the file's existence: a lock file left behind
/// by a process that was killed is not locked, and the next process takes it at once.
/// Holding it, the process also removes temporary files an interrupted save left behind
/// (only a lock holder writes them). The file is removed when the lock is released, or,
/// when the process ends with a build under way (the build is abandoned: its thread never
/// returns to drop the lock), by [`release_held_locks`].
pub struct BuildLock {
    path: PathBuf,
    _file: fs::File,
}

impl BuildLock {
    /// `Ok(None)` when another live process holds it.
    pub fn acquire(table: &Path) -> std::io::Result<Option<BuildLock>> {
        if let Some(d) = table.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(d)?;
        }
        let mut name = table.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let mut attempts = 0;
        let file = loop {
            attempts += 1;
            let file = fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(fs::TryLockError::WouldBlock) => return Ok(None),
                Err(fs::TryLockError::Error(e)) => return Err(e),
            }
            // The holder we waited for may have removed the file between our open and our
            // lock: then we locked a file nobody else will open. Lock the one at the path.
            if same_file(&file, &path) || attempts == 3 {
                break file;
            }
        };
        // Ours now; the pid is only a hint for people looking at the directory.
        let _ = file.set_len(0);
        let _ =
            std::io::Write::write_all(&mut &file, format!("{}\n", std::process::id()).as_bytes());
        table::remove_stale_temporaries(table);
        held().push(path.clone());
        Ok(Some(BuildLock { path, _file: file }))
    }
}

/// The lock files this process holds.
fn held() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    static HELD: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    HELD.lock().unwrap_or_else(|e| e.into_inner())
}

/// For a process about to exit: removes the lock files of the builds still under way (and
/// their temporary files, if a save had begun). The builds are abandoned with the process,
/// and nothing of them is left behind; the next process that needs a table builds it.
pub fn release_held_locks() {
    for lock in held().drain(..) {
        let _ = fs::remove_file(&lock);
        let table = lock.with_extension("");
        table::remove_own_temporaries(&table);
    }
}

/// Whether `path` names the file `file` has open.
fn same_file(file: &fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        // Removed while still locked (the lock goes with the file handle, just after), so a
        // process that opens the path later creates a fresh file and locks that.
        let _ = fs::remove_file(&self.path);
        held().retain(|p| p != &self.path);
    }
}

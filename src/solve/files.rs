//! What the solvers' table files share: where they live, the lock a process holds while it
//! writes one, the cleanup of an interrupted save, and the checksum that finds a damaged file
//! (protocol.md, Environment, states the rules for users).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A 64-bit checksum against damage (not against tampering): word-wise multiply, rotate.
pub fn checksum(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |w: u64| {
        h = (h ^ w).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(29);
    };
    for part in parts {
        let mut chunks = part.chunks_exact(8);
        for c in &mut chunks {
            mix(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        for &b in chunks.remainder() {
            mix(b as u64 | 0x100);
        }
        mix(part.len() as u64);
    }
    h ^ h >> 32
}

/// Where tables live by default: `$PLY_TABLES`, else `$XDG_DATA_HOME/ply`, else
/// `~/.local/share/ply`, else (no home) the temporary directory's `ply-tables`.
pub fn default_dir() -> PathBuf {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = var("PLY_TABLES") {
        PathBuf::from(d)
    } else if let Some(d) = var("XDG_DATA_HOME") {
        PathBuf::from(d).join("ply")
    } else if let Some(h) = var("HOME") {
        PathBuf::from(h).join(".local/share/ply")
    } else {
        fallback_dir()
    }
}

/// Where a table goes when the default directory is not writable (never when `PLY_TABLES`
/// names a directory: then that directory is the only one).
pub fn fallback_dir() -> PathBuf {
    std::env::temp_dir().join("ply-tables")
}

/// The directories tables are looked for in, and built in, in order: `$PLY_TABLES` alone
/// when it is set (a directory given explicitly is never silently replaced by another);
/// otherwise the default directory, then the fallback.
pub fn search_dirs() -> Vec<PathBuf> {
    if std::env::var_os("PLY_TABLES").is_some_and(|v| !v.is_empty()) {
        vec![default_dir()]
    } else {
        let (d, f) = (default_dir(), fallback_dir());
        if d == f { vec![d] } else { vec![d, f] }
    }
}

/// Removes the temporary files that [`Table::save`] leaves when it is interrupted (a killed
/// process), next to `path`. Call it only while holding the table's build lock: then no
/// save of this table is in progress.
pub fn remove_stale_temporaries(path: &Path) {
    remove_temporaries(path, "");
}

/// Removes this process's own temporary files next to `path` (a save it abandons as it exits).
pub fn remove_own_temporaries(path: &Path) {
    remove_temporaries(path, &format!("{}-", std::process::id()));
}

/// Removes the files next to `path` named as [`Table::save`]'s temporaries, `.<name>.tmp-`
/// followed by `more` (the process id and a dash, to remove only one process's).
fn remove_temporaries(path: &Path, more: &str) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!(".{}.tmp-{more}", name.to_string_lossy());
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.file_name().to_string_lossy().starts_with(&prefix) {
            log::info!(
                "removing {}, left by an interrupted save",
                e.path().display()
            );
            let _ = fs::remove_file(e.path());
        }
    }
}

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
        remove_stale_temporaries(table);
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
        remove_own_temporaries(&table);
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

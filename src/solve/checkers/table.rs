//! The databases on disk and in memory: one file per slice ([`super::index`]), mapped into
//! memory on first use, so every engine process shares one copy through the page cache.
//!
//! File layout (little-endian), version 1, `checkers-<slice name>-v1.plydb`:
//!
//! ```text
//! offset  size  field
//!      0     8  magic "PLYCHKDB"
//!      8     4  format version (1)
//!     12     4  the slice: own men, own kings, opponent's men, opponent's kings (a byte each)
//!     16     8  entries (the slice's size)
//!     24     8  checksum of bytes 0..24 and of the payload (solve/files.rs)
//!     32     -  payload: one byte per index, as value.rs says
//! ```
//!
//! A file whose header, size or checksum is wrong is refused (and rebuilt by a build).
//! Files are written to a temporary name and renamed into place, so a reader sees a whole
//! file or none.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};

use super::index::{Slice, index};
use super::value::Value;
use crate::games::checkers::Board;
use crate::solve::files::checksum;

const MAGIC: &[u8; 8] = b"PLYCHKDB";
const VERSION: u32 = 1;
const HEADER: usize = 32;
/// The most pieces a database here may hold (the slots of [`Tables`]).
pub const MAX_PIECES: u32 = 8;

/// Why a slice file could not be used.
#[derive(Debug)]
pub enum TableError {
    Missing,
    Io(io::Error),
    /// Not a table of this slice and version, truncated, or damaged.
    Bad(String),
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableError::Missing => f.write_str("no such table"),
            TableError::Io(e) => write!(f, "{e}"),
            TableError::Bad(s) => f.write_str(s),
        }
    }
}

pub fn file_name(s: &Slice) -> String {
    format!("checkers-{}-v{VERSION}.plydb", s.name())
}

fn header(s: &Slice, data: &[u8]) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&[s.own_men, s.own_kings, s.opp_men, s.opp_kings]);
    h[16..24].copy_from_slice(&(data.len() as u64).to_le_bytes());
    let sum = checksum(&[&h[..24], data]);
    h[24..32].copy_from_slice(&sum.to_le_bytes());
    h
}

/// Writes one slice's bytes to `path` atomically (a temporary file in the same directory,
/// synced, then renamed over `path`).
pub fn save(s: &Slice, data: &[u8], path: &Path) -> io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(d) = dir {
        fs::create_dir_all(d)?;
    }
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other("the table path has no file name"))?;
    // The name solve/files.rs's cleanup looks for.
    let tmp = path.with_file_name(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut f = io::BufWriter::new(fs::File::create(&tmp)?);
        f.write_all(&header(s, data))?;
        f.write_all(data)?;
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// One slice's values, mapped from its file (or held in memory).
pub struct SliceTable {
    pub slice: Slice,
    bytes: Bytes,
}

enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl SliceTable {
    /// Maps a slice's file and checks its header and size, and its checksum when `verify`
    /// (which reads the whole file).
    pub fn open(path: &Path, s: &Slice, verify: bool) -> Result<SliceTable, TableError> {
        let file = match fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(TableError::Missing),
            Err(e) => return Err(TableError::Io(e)),
        };
        // SAFETY: the file is only ever replaced by renaming a new one over it, never
        // written in place, so the mapped bytes do not change under us.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(TableError::Io)?;
        let bad = |why: &str| Err(TableError::Bad(format!("{}: {why}", path.display())));
        if map.len() < HEADER || &map[..8] != MAGIC {
            return bad("not a ply checkers table");
        }
        let field = |a: usize| u64::from_le_bytes(map[a..a + 8].try_into().expect("8 bytes"));
        if map[8..12] != VERSION.to_le_bytes() {
            return bad("another version of the format");
        }
        if map[12..16] != [s.own_men, s.own_kings, s.opp_men, s.opp_kings] {
            return bad("the table of another slice");
        }
        if field(16) != s.size() || map.len() as u64 != HEADER as u64 + s.size() {
            return bad("truncated, or of another size");
        }
        if verify && checksum(&[&map[..24], &map[HEADER..]]) != field(24) {
            return bad("damaged (its checksum does not match)");
        }
        Ok(SliceTable {
            slice: *s,
            bytes: Bytes::Mapped(map),
        })
    }

    pub fn from_bytes(slice: Slice, data: Vec<u8>) -> SliceTable {
        SliceTable {
            slice,
            bytes: Bytes::Owned(data),
        }
    }

    /// The value bytes, one per index.
    pub fn bytes(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Mapped(m) => &m[HEADER..],
            Bytes::Owned(v) => v,
        }
    }

    pub fn get(&self, i: u64) -> u8 {
        self.bytes()[i as usize]
    }
}

/// The most pieces of a slice whose file is in `dir` (0 when there is none).
fn most_pieces_in(dir: &Path) -> u32 {
    let names = fs::read_dir(dir).into_iter().flatten().flatten();
    names
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let digits = name
                .strip_prefix("checkers-")?
                .strip_suffix(&format!("-v{VERSION}.plydb"))?;
            let counts: Option<Vec<u32>> = digits.chars().map(|c| c.to_digit(16)).collect();
            Some(counts?.iter().sum::<u32>())
        })
        .filter(|&n| n <= MAX_PIECES)
        .max()
        .unwrap_or(0)
}

/// The slot of a slice in [`Tables`], for slices of at most [`MAX_PIECES`] pieces.
fn slot(s: &Slice) -> usize {
    let m = MAX_PIECES as usize + 1;
    ((s.own_men as usize * m + s.own_kings as usize) * m + s.opp_men as usize) * m
        + s.opp_kings as usize
}

/// Every slice table of a directory, each mapped when first asked for (its checksum checked
/// then), or put in by a build.
pub struct Tables {
    dirs: Vec<PathBuf>,
    /// Whether a slice not put in is looked for in `dirs` (the engine); a build puts in
    /// every slice it needs, in order, and looks for none.
    lazy: bool,
    slots: Vec<OnceLock<Option<Arc<SliceTable>>>>,
    /// The most pieces of any slice there may be (the files seen when made, or those put
    /// in): positions with more are not looked for.
    most: AtomicU32,
}

impl Tables {
    /// Tables read from the first of `dirs` that has each slice.
    pub fn lazy(dirs: Vec<PathBuf>) -> Tables {
        Self::with(dirs, true)
    }

    /// Tables a build puts in one by one.
    pub fn building() -> Tables {
        Self::with(Vec::new(), false)
    }

    fn with(dirs: Vec<PathBuf>, lazy: bool) -> Tables {
        let m = MAX_PIECES as usize + 1;
        let most = dirs.iter().map(|d| most_pieces_in(d)).max().unwrap_or(0);
        Tables {
            dirs,
            lazy,
            slots: (0..m * m * m * m).map(|_| OnceLock::new()).collect(),
            most: AtomicU32::new(most),
        }
    }

    /// The most pieces of a slice these tables may hold.
    pub fn most_pieces(&self) -> u32 {
        self.most.load(Ordering::Relaxed)
    }

    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Puts in a slice's table (a build does, once the slice is solved or found on disk).
    pub fn insert(&self, t: SliceTable) {
        self.most.fetch_max(t.slice.pieces(), Ordering::Relaxed);
        let _ = self.slots[slot(&t.slice)].set(Some(Arc::new(t)));
    }

    /// The table of a slice, if there is one (looked for once, lazily).
    pub fn slice(&self, s: &Slice) -> Option<&SliceTable> {
        if s.pieces() > self.most_pieces() {
            return None;
        }
        let cell = &self.slots[slot(s)];
        let found = if self.lazy {
            cell.get_or_init(|| self.find(s).map(Arc::new))
        } else {
            cell.get()?
        };
        found.as_deref()
    }

    fn find(&self, s: &Slice) -> Option<SliceTable> {
        for dir in &self.dirs {
            match SliceTable::open(&dir.join(file_name(s)), s, true) {
                Ok(t) => {
                    log::info!(
                        "checkers database {} mapped from {}",
                        s.name(),
                        dir.display()
                    );
                    return Some(t);
                }
                Err(TableError::Missing) => {}
                Err(e) => log::warn!("checkers database {}: {e}", s.name()),
            }
        }
        None
    }

    /// The value of a mover-relative board (the side to move is Black), if its slice is
    /// here. A mover without pieces has lost.
    pub fn probe_relative(&self, b: &Board) -> Option<Value> {
        if b.black == 0 {
            return Some(Value::Loss(0));
        }
        let s = Slice::of(b);
        let t = self.slice(&s)?;
        Some(Value::decode(t.get(index(b, &s))))
    }

    /// The value of a board with `side` to move.
    pub fn probe(&self, b: &Board, side: crate::game::Player) -> Option<Value> {
        if b.occupied().count_ones() > self.most_pieces() {
            return None;
        }
        match side {
            crate::game::Player::First => self.probe_relative(b),
            crate::game::Player::Second => self.probe_relative(&b.flipped()),
        }
    }
}

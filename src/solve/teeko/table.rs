//! The Teeko table in memory and on disk.
//!
//! File layout (little-endian), version 1:
//!
//! ```text
//! offset  size  field
//!      0     8  magic "PLYTEEKO"
//!      8     4  format version (1)
//!     12     4  flags: bit 0 = advanced rules (58 goals)
//!     16     4  number of sections (9)
//!     20     4  reserved, 0
//!     24    72  entries per section, u64 each: drop-phase layers with 0..=7 markers, then
//!               the move phase
//!     96     8  checksum of bytes 0..96 and of the payload (see `checksum`)
//!    104     -  payload: the sections' bytes in the same order, one per slot
//! ```
//!
//! Slots are laid out as in [`super::index`] and bytes mean what [`super::code`] says. The
//! section sizes are fixed by the index, so a file of another layout or a truncated one is
//! refused, as is one whose checksum does not match. Files are written to a temporary name
//! in the same directory and renamed into place, so a reader sees a whole file or none.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::build::Values;
use super::code;
use super::index::Layer;
use crate::game::{Game, Player};
use crate::games::Teeko;
use crate::solve::files::checksum;
pub use crate::solve::files::{
    default_dir, fallback_dir, remove_own_temporaries, remove_stale_temporaries, search_dirs,
};
use crate::value::{back_up, terminal_value};

const MAGIC: &[u8; 8] = b"PLYTEEKO";
pub const VERSION: u32 = 1;
const SECTIONS: usize = 9;
const HEADER: usize = 104;

/// The values of every position of one rule variant (either centre rule).
pub struct Table {
    pub advanced: bool,
    /// How long the move phase and the drop phase took to build, when built here.
    pub build_times: Option<[std::time::Duration; 2]>,
    /// Drop-phase layers by markers on the board (0..=7), then the move phase.
    layers: [Layer; SECTIONS],
    sections: [Vec<u8>; SECTIONS],
}

/// Why a table file was not loaded.
#[derive(Debug)]
pub enum TableError {
    Missing,
    Io(io::Error),
    /// Wrong magic, version, variant or sizes, truncated, or a bad checksum.
    Corrupt(String),
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableError::Missing => f.write_str("no table file"),
            TableError::Io(e) => write!(f, "cannot read the table: {e}"),
            TableError::Corrupt(s) => write!(f, "the table file is not usable: {s}"),
        }
    }
}

impl std::error::Error for TableError {}

fn layouts() -> [Layer; SECTIONS] {
    std::array::from_fn(|i| {
        if i < 8 {
            Layer::drop_phase(i as u32)
        } else {
            Layer::new(4, 4)
        }
    })
}

impl Table {
    pub fn from_values(advanced: bool, v: Values) -> Table {
        let mut it = v.drops.into_iter();
        let sections = std::array::from_fn(|i| {
            if i < 8 {
                it.next().expect("eight drop layers")
            } else {
                Vec::new()
            }
        });
        let mut t = Table {
            advanced,
            build_times: Some(v.times),
            layers: layouts(),
            sections,
        };
        t.sections[8] = v.moves;
        for (l, s) in t.layers.iter().zip(&t.sections) {
            assert_eq!(l.len, s.len(), "section size");
        }
        t
    }

    /// The section and slot of a position with `m` for the side to move, `o` for the other.
    #[inline]
    fn locate(&self, m: u32, o: u32) -> (usize, usize) {
        let n = (m | o).count_ones() as usize;
        let section = n.min(8);
        (section, self.layers[section].slot(m, o))
    }

    /// The stored byte of a position given mover-relative: `m` the side to move's markers,
    /// `o` the other's (a valid board: disjoint, 4 + 4 or the drop phase's counts).
    #[inline]
    pub fn code(&self, m: u32, o: u32) -> u8 {
        let (sec, slot) = self.locate(m, o);
        self.sections[sec][slot]
    }

    /// The stored byte of a position.
    pub fn code_of(&self, pos: &Teeko) -> u8 {
        let side = pos.side_to_move();
        self.code(pos.markers(side), pos.markers(side.other()))
    }

    /// The value of a position (searcher's scale) as stored. For the start position this is
    /// the value with the centre allowed as first drop.
    pub fn value_of(&self, pos: &Teeko) -> i32 {
        if let Some(o) = pos.outcome() {
            return terminal_value(o, pos.side_to_move(), 0);
        }
        code::value(self.code_of(pos)).unwrap_or(0)
    }

    /// The value of a position under its own rules: the stored value, except at the start
    /// when the centre is forbidden, where it is the best of the other first drops.
    pub fn rule_value(&self, pos: &Teeko) -> i32 {
        if (pos.markers(Player::First) | pos.markers(Player::Second)) == 0
            && !pos.rules().centre_first
        {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            moves
                .into_iter()
                .map(|mv| {
                    let mut c = *pos;
                    c.play(mv);
                    back_up(self.value_of(&c))
                })
                .max()
                .expect("the start has moves")
        } else {
            self.value_of(pos)
        }
    }

    /// Number of slots per section (drop layers 0..=7, then the move phase).
    pub fn section_lens(&self) -> [usize; SECTIONS] {
        std::array::from_fn(|i| self.sections[i].len())
    }

    /// The raw bytes of a section and its layout, for checks.
    pub fn section(&self, i: usize) -> (Layer, &[u8]) {
        (self.layers[i], &self.sections[i])
    }

    /// Writes the table to `path` atomically (a temporary file in the same directory,
    /// synced, then renamed over `path`).
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        if let Some(d) = dir {
            fs::create_dir_all(d)?;
        }
        let name = path
            .file_name()
            .ok_or_else(|| io::Error::other("the table path has no file name"))?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let tmp_name = format!(
            ".{}.tmp-{}-{nanos}",
            name.to_string_lossy(),
            std::process::id()
        );
        let tmp = match dir {
            Some(d) => d.join(tmp_name),
            None => PathBuf::from(tmp_name),
        };
        let result = (|| {
            let mut f = io::BufWriter::new(fs::File::create(&tmp)?);
            f.write_all(&self.header())?;
            for s in &self.sections {
                f.write_all(s)?;
            }
            f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            fs::rename(&tmp, path)
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }

    fn header(&self) -> [u8; HEADER] {
        let mut h = [0u8; HEADER];
        h[..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12..16].copy_from_slice(&(self.advanced as u32).to_le_bytes());
        h[16..20].copy_from_slice(&(SECTIONS as u32).to_le_bytes());
        for (i, s) in self.sections.iter().enumerate() {
            h[24 + 8 * i..32 + 8 * i].copy_from_slice(&(s.len() as u64).to_le_bytes());
        }
        let mut parts: Vec<&[u8]> = vec![&h[..96]];
        parts.extend(self.sections.iter().map(|s| s.as_slice()));
        let sum = checksum(&parts);
        h[96..104].copy_from_slice(&sum.to_le_bytes());
        h
    }

    /// Reads and checks a table file for the given variant. Each section is read straight
    /// into its own buffer, so loading takes the table's memory once, not twice.
    pub fn load(path: &Path, advanced: bool) -> Result<Table, TableError> {
        let expected = HEADER as u64 + layouts().iter().map(|l| l.len as u64).sum::<u64>();
        let io_error = |e: io::Error| match e.kind() {
            io::ErrorKind::NotFound => TableError::Missing,
            io::ErrorKind::UnexpectedEof => TableError::Corrupt("truncated".into()),
            _ => TableError::Io(e),
        };
        let mut file = fs::File::open(path).map_err(io_error)?;
        let len = file.metadata().map_err(io_error)?.len();
        if len != expected {
            return Err(TableError::Corrupt(format!(
                "{len} bytes, expected {expected} (truncated or padded)"
            )));
        }
        let mut header = [0u8; HEADER];
        file.read_exact(&mut header).map_err(io_error)?;
        let layers = Self::check_header(&header, advanced)?;
        let mut sections: [Vec<u8>; SECTIONS] = Default::default();
        for (s, l) in sections.iter_mut().zip(&layers) {
            *s = vec![0; l.len];
            file.read_exact(s).map_err(io_error)?;
        }
        Self::checked(&header, layers, sections, advanced)
    }

    /// Parses and checks a table file's contents.
    pub fn from_bytes(bytes: &[u8], advanced: bool) -> Result<Table, TableError> {
        let Some(header) = bytes.first_chunk::<HEADER>() else {
            return Err(TableError::Corrupt("shorter than its header".into()));
        };
        let layers = Self::check_header(header, advanced)?;
        let at = HEADER + layers.iter().map(|l| l.len).sum::<usize>();
        if bytes.len() != at {
            return Err(TableError::Corrupt(format!(
                "{} bytes, expected {at} (truncated or padded)",
                bytes.len()
            )));
        }
        let mut sections: [Vec<u8>; SECTIONS] = Default::default();
        let mut at = HEADER;
        for (i, l) in layers.iter().enumerate() {
            sections[i] = bytes[at..at + l.len].to_vec();
            at += l.len;
        }
        Self::checked(header, layers, sections, advanced)
    }

    /// The section layouts the header announces, when it is a header of this build's format
    /// for the given variant.
    fn check_header(h: &[u8; HEADER], advanced: bool) -> Result<[Layer; SECTIONS], TableError> {
        let bad = |s: &str| Err(TableError::Corrupt(s.to_string()));
        let u32_at = |i: usize| u32::from_le_bytes(h[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().expect("8 bytes"));
        if &h[..8] != MAGIC {
            return bad("not a ply Teeko table (bad magic)");
        }
        if u32_at(8) != VERSION {
            return Err(TableError::Corrupt(format!(
                "format version {} (this build reads {VERSION})",
                u32_at(8)
            )));
        }
        if u32_at(12) != advanced as u32 {
            return bad("the table is for the other rule variant");
        }
        let layers = layouts();
        if u32_at(16) as usize != SECTIONS {
            return bad("wrong number of sections");
        }
        for (i, l) in layers.iter().enumerate() {
            if u64_at(24 + 8 * i) != l.len as u64 {
                return bad("section sizes do not match this build's index");
            }
        }
        Ok(layers)
    }

    /// The table, once the header's checksum matches its contents.
    fn checked(
        header: &[u8; HEADER],
        layers: [Layer; SECTIONS],
        sections: [Vec<u8>; SECTIONS],
        advanced: bool,
    ) -> Result<Table, TableError> {
        let mut parts: Vec<&[u8]> = vec![&header[..96]];
        parts.extend(sections.iter().map(|s| s.as_slice()));
        let sum = u64::from_le_bytes(header[96..104].try_into().expect("8 bytes"));
        if checksum(&parts) != sum {
            return Err(TableError::Corrupt("checksum mismatch".into()));
        }
        Ok(Table {
            advanced,
            build_times: None,
            layers,
            sections,
        })
    }

    /// Counts and extremes over the whole table.
    pub fn stats(&self) -> Stats {
        let mut drop = PhaseStats::default();
        let mut moves = PhaseStats::default();
        for (i, (layer, bytes)) in self.layers.iter().zip(&self.sections).enumerate() {
            let phase = if i < 8 { &mut drop } else { &mut moves };
            // Per mover class: a histogram of codes, weighted by the class size.
            for (orbit, block) in bytes.chunks(layer.block).enumerate() {
                let mut hist = [0u64; 256];
                for &c in block {
                    hist[c as usize] += 1;
                }
                let w = layer.weight(orbit);
                for (c, &n) in hist.iter().enumerate() {
                    if n == 0 {
                        continue;
                    }
                    let c = c as u8;
                    let n = n * w;
                    match c {
                        code::DRAW => phase.drawn += n,
                        code::INVALID => phase.invalid += n,
                        code::LOSS_NOW => {
                            phase.lost += n;
                            phase.finished += n;
                        }
                        _ if code::is_win(c) => phase.won += n,
                        _ => phase.lost += n,
                    }
                    if code::is_win(c) && code::plies(c) > phase.longest_win {
                        phase.longest_win = code::plies(c);
                        let at = orbit * layer.block
                            + block.iter().position(|&b| b == c).expect("counted");
                        let (_, m, o) = layer.position(at);
                        phase.longest_win_at = (m, o);
                    }
                    if code::is_loss(c) && code::plies(c) > phase.longest_loss {
                        phase.longest_loss = code::plies(c);
                    }
                }
            }
        }
        let start = Teeko::default();
        let rules = crate::games::teeko::rules(self.advanced, false);
        let no_centre = Teeko::from_raw(0, 0, Player::First, rules);
        Stats {
            drop,
            moves,
            start: self.value_of(&start),
            start_no_centre: self.rule_value(&no_centre),
        }
    }

    /// A position as a Teeko position with Black to move when the mover-relative `(m, o)`
    /// has Black's counts, for showing slots in reports.
    pub fn position(&self, m: u32, o: u32) -> Teeko {
        let rules = crate::games::teeko::rules(self.advanced, true);
        if m.count_ones() == o.count_ones() {
            Teeko::from_raw(m, o, Player::First, rules)
        } else {
            Teeko::from_raw(o, m, Player::Second, rules)
        }
    }
}

/// Counts over one phase, in concrete mover-relative boards (each board once, whoever's
/// colour the side to move has), and its extremes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PhaseStats {
    pub won: u64,
    pub drawn: u64,
    /// Including the finished ones.
    pub lost: u64,
    /// Boards where the side to move's opponent has a goal: lost, 0 plies.
    pub finished: u64,
    /// Boards where the side to move has a goal: never reached in a game.
    pub invalid: u64,
    /// Longest forced win, in plies, and one board with it, mover-relative.
    pub longest_win: u32,
    pub longest_win_at: (u32, u32),
    /// Longest forced loss, in plies.
    pub longest_loss: u32,
}

impl PhaseStats {
    pub fn total(&self) -> u64 {
        self.won + self.drawn + self.lost + self.invalid
    }
}

#[derive(Clone, Debug)]
pub struct Stats {
    pub drop: PhaseStats,
    pub moves: PhaseStats,
    /// Value of the start with the centre allowed as first drop, and forbidden.
    pub start: i32,
    pub start_no_centre: i32,
}

/// The file name of a variant's table.
pub fn file_name(advanced: bool) -> String {
    format!(
        "teeko-{}-v{VERSION}.plytb",
        if advanced { "advanced" } else { "standard" }
    )
}

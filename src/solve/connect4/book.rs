//! The Connect Four opening book: exact scores and perfect moves of 7×6 positions near the
//! start, computed by this solver (`scripts/data/build_c4_book.sh` builds it; see
//! [`super::book_build`] for which positions it holds) and compiled into the program.
//!
//! File format (`book-7x6.bin`, little-endian):
//!
//! ```text
//! offset  size  field
//!      0     8  magic "PLYC4BK2"
//!      8     1  board width (7)
//!      9     1  board height (6)
//!     10     1  depth: the most discs of any position in the book
//!     11     1  open plies: the book's lines start there (see [`super::book_build`])
//!     12     1  full: every position with at most this many discs is in the book
//!     13     3  zero
//!     16     4  entry count N
//!     20   8*N  entries, u64 each, in increasing order:
//!                 bits  0..6   Pons score of the side to move, plus 32
//!                 bits  6..9   the perfect move's column (0 = leftmost) in the keyed orientation
//!                 bits  9..58  the position's key (below)
//! ```
//!
//! The key of a position is the solver's (see `board::Geo::key`: the side to move's discs plus
//! one bit on the lowest empty cell of each column, 49 bits on 7×6), of the position or of
//! its mirror image, whichever is smaller; the move is stored for that orientation. The
//! perfect move is the fastest win, the slowest loss or a drawing move: for a solved position
//! the one the solver's `best_move` finds (the move that proved the score if the table still
//! holds it, else the first in centre-first order 4 3 5 2 6 1 7), for one backed up from its
//! children the first in centre-first order among equals. Sorting the whole words sorts the
//! keys, so a lookup is a binary search over `N` words.

use super::board::Geo;
use crate::games::Connect4;

/// The book compiled into the program.
static BOOK_7X6: &[u8] = include_bytes!("book-7x6.bin");

const MAGIC: &[u8; 8] = b"PLYC4BK2";
const HEADER: usize = 20;
const KEY_SHIFT: u32 = 9;
const MOVE_SHIFT: u32 = 6;
const OFFSET: i32 = 32;

type G = Geo<7, 6>;

/// A book entry: the exact Pons score of the side to move and a perfect move (a column, 0 =
/// leftmost, in the position's own orientation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub score: i32,
    pub column: u8,
}

/// A parsed book: its header fields and its entries.
#[derive(Clone, Copy)]
pub struct Book<'a> {
    pub depth: u32,
    pub open: u32,
    /// Every position with at most this many discs is in the book (at least `open`).
    pub full: u32,
    entries: &'a [u8],
}

impl<'a> Book<'a> {
    /// The book compiled into the program (7×6), checked once.
    pub fn builtin() -> Book<'static> {
        static BUILTIN: std::sync::OnceLock<Book<'static>> = std::sync::OnceLock::new();
        *BUILTIN.get_or_init(|| {
            Book::parse(BOOK_7X6).expect("the compiled-in book is well formed (checked by a test)")
        })
    }

    /// Reads a book file's bytes (see the module doc), checking the header and the order of
    /// the entries.
    pub fn parse(bytes: &'a [u8]) -> Result<Book<'a>, String> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err("not a ply Connect Four book (bad magic)".into());
        }
        if (bytes[8], bytes[9]) != (7, 6) {
            return Err(format!(
                "a {}x{} book; only 7x6 is supported",
                bytes[8], bytes[9]
            ));
        }
        let n = u32::from_le_bytes(bytes[16..20].try_into().expect("4 bytes")) as usize;
        if bytes.len() != HEADER + 8 * n {
            return Err(format!(
                "{} bytes for {n} entries (want {})",
                bytes.len(),
                HEADER + 8 * n
            ));
        }
        let book = Book {
            depth: bytes[10] as u32,
            open: bytes[11] as u32,
            full: bytes[12] as u32,
            entries: &bytes[HEADER..],
        };
        if book.full < book.open || book.full > book.depth {
            return Err(format!(
                "full coverage to {} discs, with lines from {} to {}",
                book.full, book.open, book.depth
            ));
        }
        if (1..n).any(|i| book.word(i - 1) >= book.word(i)) {
            return Err("entries are not in increasing order".into());
        }
        Ok(book)
    }

    /// Entries in the book.
    pub fn len(&self) -> usize {
        self.entries.len() / 8
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn word(&self, i: usize) -> u64 {
        u64::from_le_bytes(self.entries[8 * i..8 * i + 8].try_into().expect("8 bytes"))
    }

    /// The entry of `pos`, if the book holds it (7×6 positions only).
    pub fn lookup(&self, pos: &Connect4) -> Option<BookMove> {
        let r = pos.rules();
        if (r.width, r.height) != (7, 6) || pos.moves_played() > self.depth {
            return None;
        }
        let (key, mirrored) = canonical_key(pos.current(), pos.mask());
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let w = self.word(mid);
            match (w >> KEY_SHIFT).cmp(&key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    let (score, column) = decode(w);
                    let column = if mirrored { 6 - column } else { column };
                    return Some(BookMove { score, column });
                }
            }
        }
        None
    }

    /// Every entry as (key, score, column in the keyed orientation), in file order.
    pub fn entries(&self) -> impl Iterator<Item = (u64, i32, u8)> + '_ {
        (0..self.len()).map(|i| {
            let w = self.word(i);
            let (score, column) = decode(w);
            (w >> KEY_SHIFT, score, column)
        })
    }
}

fn decode(w: u64) -> (i32, u8) {
    ((w & 63) as i32 - OFFSET, ((w >> MOVE_SHIFT) & 7) as u8)
}

/// The book key of a 7×6 position and whether it is its mirror image's.
pub fn canonical_key(cur: u64, mask: u64) -> (u64, bool) {
    let k = G::key(cur, mask);
    let m = G::mirror(k);
    if m < k { (m, true) } else { (k, false) }
}

/// The position a book key stands for (in the keyed orientation); `None` for bits that are
/// not a key of a 7×6 position with a side to move.
pub fn position_of_key(key: u64) -> Option<Connect4> {
    // Each column's seven key bits: the side to move's discs, then a marker bit on the
    // lowest empty cell (the sentinel row when the column is full).
    let mut mask = 0u64;
    for c in 0..7 {
        let bits = (key >> (c * 7)) & 0x7f;
        if bits == 0 {
            return None;
        }
        let height = 63 - bits.leading_zeros();
        mask |= ((1u64 << height) - 1) << (c * 7);
    }
    Connect4::from_bits(&Connect4::default(), key & mask, mask)
}

/// The bytes of a book file holding `entries` (key, score, column), in any order; `depth`,
/// `open` and `full` as the header describes them.
pub fn encode(depth: u32, open: u32, full: u32, entries: &[(u64, i32, u8)]) -> Vec<u8> {
    let mut words: Vec<u64> = entries
        .iter()
        .map(|&(key, score, col)| {
            (key << KEY_SHIFT) | ((col as u64) << MOVE_SHIFT) | (score + OFFSET) as u64
        })
        .collect();
    words.sort_unstable();
    words.dedup();
    let mut out = Vec::with_capacity(HEADER + 8 * words.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[7, 6, depth as u8, open as u8, full as u8, 0, 0, 0]);
    out.extend_from_slice(&(words.len() as u32).to_le_bytes());
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

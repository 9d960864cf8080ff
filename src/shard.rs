//! Shards: `i/N` names the `i`-th (from 0) of `N` disjoint, contiguous slices of a numbered
//! list of work — a match's games (`ply-referee --shard`), an input's positions (`ply analyse
//! --shard`) — so that `N` machines can each do one slice and the slices together are the
//! whole list, item for item. Numbering from 0 matches Slurm's `--array=0-(N-1)` and
//! Kubernetes' `JOB_COMPLETION_INDEX` (docs/cluster.md).
//!
//! Items can be kept together in units (a match's game pairs: unit 2): slices are cut between
//! units, and their sizes differ by at most one unit.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// The `index`-th of `count` slices; `index < count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The items of `0..items` in this slice, cut between units of `unit` items (the last
    /// unit may be short).
    pub fn range(&self, items: u64, unit: u64) -> Range<u64> {
        let unit = unit.max(1);
        let units = items.div_ceil(unit) as u128;
        // u128: `units · count` may not fit in 64 bits.
        let cut = |i: u64| ((units * i as u128 / self.count as u128) as u64).saturating_mul(unit);
        cut(self.index).min(items)..cut(self.index + 1).min(items)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}': a shard is i/N with 0 <= i < N (0/4 .. 3/4)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses() {
        assert_eq!("2/5".parse::<Shard>(), Ok(Shard { index: 2, count: 5 }));
        assert_eq!("0/1".parse::<Shard>().unwrap().to_string(), "0/1");
        for bad in ["5/5", "1/0", "3", "-1/4", "a/4", "1/4/2", ""] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains("0 <= i < N"), "{bad}: {e}");
        }
    }

    #[test]
    fn slices_cover_everything_once_and_keep_units_whole() {
        for items in [0u64, 1, 2, 7, 10, 101] {
            for count in 1..=12u64 {
                for unit in [1u64, 2, 3] {
                    let mut next = 0;
                    let mut sizes = Vec::new();
                    for index in 0..count {
                        let r = Shard { index, count }.range(items, unit);
                        assert_eq!(r.start, next, "{items} items, {index}/{count}");
                        assert!(r.start.is_multiple_of(unit) || r.is_empty());
                        sizes.push((r.end - r.start).div_ceil(unit));
                        next = r.end;
                    }
                    assert_eq!(next, items);
                    // Whole units, as even as they can be: counts of units differ by at most 1.
                    let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                    assert!(hi - lo <= 1, "{items}/{count}/{unit}: {sizes:?}");
                }
            }
        }
        // Far from the 64-bit limit's overflow.
        let r = Shard { index: 3, count: 4 }.range(u64::MAX, 2);
        assert_eq!(r.end, u64::MAX);
    }
}

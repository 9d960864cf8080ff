//! Nim as the seeds' stick game: a row of N empty cells; players alternately fill the next
//! 1..k of them; whoever fills the last cell wins. The empty cells left are a heap, so this is
//! the subtraction game S = {1..k}. Generalised to several heaps (a move takes from one heap)
//! and to misère play (whoever takes the last object loses).
//!
//! Parameters: `length=N` (one heap, default 10) or `heaps=3,4,5` (several), `max=k` (largest
//! take, default 3; a `max` at least the largest heap is classic Nim), `misere=true|false`
//! (default false: normal play, which the seeds play). Note that OpenSpiel's `nim` defaults to
//! misère; ply defaults to normal play.
//!
//! Notation: with one heap a move is the number of cells filled (`2`); with several heaps it
//! is `heap:count`, heaps numbered from 1 (`2:3` takes 3 from the second heap; `1:2` is also
//! accepted with one heap). A position is the heaps left, comma-separated, then the side to
//! move, `1` or `2`: `8 2` is the seeds' start after the first player filled two cells.
//! The rules (`max`, `misere`) belong to the game, not to the position.

use crate::game::{FenError, Game, MoveError, Outcome, ParamError, ParamSpec, Params, Player};
use crate::setting::Kind;

pub const MAX_HEAPS: usize = 16;
/// Heaps are at most this big, so that a whole game (at most 16 × 50 000 plies) stays
/// below the searcher's mate scale and every distance can be reported.
pub const MAX_HEAP_SIZE: u32 = 50_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NimMove {
    /// Heap index, from 0.
    pub heap: u8,
    /// Objects taken, at least 1.
    pub take: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Nim {
    heaps: [u32; MAX_HEAPS],
    count: u8,
    side: Player,
    max_take: u32,
    misere: bool,
}

impl Nim {
    pub fn heaps(&self) -> &[u32] {
        &self.heaps[..self.count as usize]
    }
    pub fn max_take(&self) -> u32 {
        self.max_take
    }
    pub fn misere(&self) -> bool {
        self.misere
    }

    fn parse_heaps(text: &str) -> Result<Vec<u32>, String> {
        let heaps: Vec<&str> = text.split(',').collect();
        if heaps.len() > MAX_HEAPS {
            return Err(format!("{} heaps; at most {MAX_HEAPS}", heaps.len()));
        }
        heaps
            .iter()
            .map(|h| match h.parse::<u32>() {
                Ok(n) if n <= MAX_HEAP_SIZE && !h.starts_with('+') => Ok(n),
                _ => Err(format!("heap '{h}' is not a size 0..{MAX_HEAP_SIZE}")),
            })
            .collect()
    }
}

impl Default for Nim {
    fn default() -> Self {
        let mut heaps = [0; MAX_HEAPS];
        heaps[0] = 10;
        Nim {
            heaps,
            count: 1,
            side: Player::First,
            max_take: 3,
            misere: false,
        }
    }
}

impl Game for Nim {
    type Move = NimMove;
    const NAME: &'static str = "nim";
    const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            key: "length",
            kind: Kind::Spin {
                default: 10,
                min: 1,
                max: MAX_HEAP_SIZE as i64,
            },
            label: "Length",
            help: "One heap of this many objects (the seeds' row of cells); not with heaps.",
        },
        ParamSpec {
            key: "heaps",
            kind: Kind::List {
                default: &[],
                min: 1,
                max: MAX_HEAP_SIZE as i64,
                max_len: MAX_HEAPS,
            },
            label: "Heaps",
            help: "Several heaps instead of one, such as 3,4,5; not with length.",
        },
        ParamSpec {
            key: "max",
            kind: Kind::Spin {
                default: 3,
                min: 1,
                max: u32::MAX as i64,
            },
            label: "Largest take",
            help: "The most objects one move takes; at least the largest heap is classic Nim.",
        },
        ParamSpec {
            key: "misere",
            kind: Kind::Check { default: false },
            label: "Misère",
            help: "Whoever takes the last object loses.",
        },
    ];
    const MOVE_IDS: usize = 1024;

    fn new(params: &Params) -> Result<Self, ParamError> {
        let p = params.resolve(Self::NAME, Self::PARAMS)?;
        let sizes: Vec<u32> = match (p.given("length"), p.given("heaps")) {
            (true, true) => {
                return Err(ParamError(
                    "give length=N or heaps=a,b,..., not both".into(),
                ));
            }
            // Each heap is within 1..=MAX_HEAP_SIZE, as the spec declares.
            (false, true) => p.list("heaps").iter().map(|&h| h as u32).collect(),
            (_, false) => vec![p.spin_u32("length")],
        };
        let mut heaps = [0; MAX_HEAPS];
        heaps[..sizes.len()].copy_from_slice(&sizes);
        Ok(Nim {
            heaps,
            count: sizes.len() as u8,
            side: Player::First,
            max_take: p.spin_u32("max"),
            misere: p.check("misere"),
        })
    }

    fn params(&self) -> Params {
        let heaps: Vec<String> = self.heaps().iter().map(|h| h.to_string()).collect();
        let mut p = if self.count == 1 {
            vec![("length".to_string(), heaps[0].clone())]
        } else {
            vec![("heaps".to_string(), heaps.join(","))]
        };
        p.push(("max".into(), self.max_take.to_string()));
        p.push(("misere".into(), self.misere.to_string()));
        Params(p)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    /// Larger takes first, heap by heap.
    fn legal_moves(&self, out: &mut Vec<NimMove>) {
        for (i, &h) in self.heaps().iter().enumerate() {
            for take in (1..=h.min(self.max_take)).rev() {
                out.push(NimMove {
                    heap: i as u8,
                    take,
                });
            }
        }
    }

    fn play(&mut self, mv: NimMove) {
        debug_assert!(mv.take >= 1 && mv.take <= self.max_take);
        self.heaps[mv.heap as usize] -= mv.take;
        self.side = self.side.other();
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.heaps().iter().any(|&h| h > 0) {
            None
        } else if self.misere {
            // The previous player took the last object, and loses.
            Some(Outcome::Win(self.side))
        } else {
            Some(Outcome::Win(self.side.other()))
        }
    }

    fn ending(&self) -> Option<&'static str> {
        self.outcome().map(|_| {
            if self.misere {
                "the other side taking the last object"
            } else {
                "taking the last object"
            }
        })
    }

    fn key(&self) -> u64 {
        // SplitMix-style mixing of each heap with its index; not perfect, but positions that
        // compare equal always hash equal.
        let mut k = 0x9E37_79B9_7F4A_7C15u64 ^ (self.side as u64);
        for (i, &h) in self.heaps().iter().enumerate() {
            let mut z = k ^ ((h as u64) << 8 | i as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 30)).wrapping_mul(0x94D0_49BB_1331_11EB);
            k = z ^ (z >> 31);
        }
        k
    }

    fn max_remaining_plies(&self) -> Option<u32> {
        Some(self.heaps().iter().sum())
    }

    fn move_id(&self, mv: NimMove) -> usize {
        (mv.heap as usize * 61 + mv.take as usize) % Self::MOVE_IDS
    }

    fn parse_move(&self, text: &str) -> Result<NimMove, MoveError> {
        let n = self.count as usize;
        let number = |s: &str| s.parse::<u32>().ok().filter(|_| !s.starts_with('+'));
        let (heap, take) = match text.split_once(':') {
            Some((h, t)) => match (number(h), number(t)) {
                (Some(h), Some(t)) => (h, t),
                _ => {
                    return Err(MoveError::Malformed(format!(
                        "'{text}' is not heap:count (two numbers)"
                    )));
                }
            },
            None if n == 1 => match number(text) {
                Some(t) => (1, t),
                None => {
                    return Err(MoveError::Malformed(format!(
                        "'{text}' is not a number of objects to take"
                    )));
                }
            },
            None => {
                return Err(MoveError::Malformed(format!(
                    "'{text}': with {n} heaps a move is heap:count, such as 1:2"
                )));
            }
        };
        if heap == 0 || heap as usize > n {
            return Err(MoveError::Malformed(format!(
                "'{text}': heaps are numbered 1..{n}"
            )));
        }
        if take == 0 {
            return Err(MoveError::Malformed(format!(
                "'{text}': a move takes at least 1"
            )));
        }
        if let Some(o) = self.outcome() {
            return Err(MoveError::Illegal(format!(
                "{text}: the game is over ({})",
                o.protocol_name()
            )));
        }
        let left = self.heaps[heap as usize - 1];
        if take > self.max_take {
            return Err(MoveError::Illegal(format!(
                "{text}: at most {} may be taken",
                self.max_take
            )));
        }
        if take > left {
            return Err(MoveError::Illegal(format!(
                "{text}: heap {heap} has only {left}"
            )));
        }
        Ok(NimMove {
            heap: (heap - 1) as u8,
            take,
        })
    }

    fn format_move(&self, mv: NimMove) -> String {
        if self.count == 1 {
            mv.take.to_string()
        } else {
            format!("{}:{}", mv.heap + 1, mv.take)
        }
    }

    fn from_fen(&self, fen: &str) -> Result<Self, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 2 {
            return Err(FenError(format!(
                "expected 2 fields (heaps, side to move), got {}",
                fields.len()
            )));
        }
        let sizes = Nim::parse_heaps(fields[0]).map_err(FenError)?;
        let side = match fields[1] {
            "1" => Player::First,
            "2" => Player::Second,
            s => return Err(FenError(format!("side to move '{s}' must be 1 or 2"))),
        };
        let mut heaps = [0; MAX_HEAPS];
        heaps[..sizes.len()].copy_from_slice(&sizes);
        Ok(Nim {
            heaps,
            count: sizes.len() as u8,
            side,
            ..*self
        })
    }

    fn fen(&self) -> String {
        let heaps: Vec<String> = self.heaps().iter().map(|h| h.to_string()).collect();
        format!(
            "{} {}",
            heaps.join(","),
            if self.side == Player::First { 1 } else { 2 }
        )
    }

    fn diagram(&self) -> String {
        let mut s = String::new();
        for (i, &h) in self.heaps().iter().enumerate() {
            let bar = if h <= 60 {
                "|".repeat(h as usize)
            } else {
                format!("{}...", "|".repeat(57))
            };
            s.push_str(&format!(" heap {:>2}: {bar} ({h})\n", i + 1));
        }
        s.push_str(&format!(
            " take 1..{} from one heap; {} to move; {}\n",
            self.max_take,
            if self.side == Player::First {
                "player 1"
            } else {
                "player 2"
            },
            if self.misere {
                "misère: who takes the last object loses"
            } else {
                "who takes the last object wins"
            }
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::play_moves;

    #[test]
    fn seed_game_and_notation() {
        let p = Nim::default();
        assert_eq!(p.fen(), "10 1");
        // The seed's sample game: AI fills 1, human 3, AI 1, human 1, AI 1, human 2, AI 1:
        // the AI (first player) fills the tenth cell and wins.
        let end = play_moves(&p, &["1", "3", "1", "1", "1", "2", "1"]).unwrap();
        assert_eq!(end.outcome(), Some(Outcome::Win(Player::First)));
        assert!(matches!(p.parse_move("4"), Err(MoveError::Illegal(_))));
        assert!(matches!(p.parse_move("0"), Err(MoveError::Malformed(_))));
        assert!(matches!(p.parse_move("x"), Err(MoveError::Malformed(_))));
        assert_eq!(p.parse_move("1:2"), Ok(NimMove { heap: 0, take: 2 }));
    }

    #[test]
    fn several_heaps_and_misere() {
        let p = Nim::new(&Params::parse(["heaps=3,4,5", "misere=true", "max=9"]).unwrap()).unwrap();
        assert_eq!(p.format_move(p.parse_move("2:4").unwrap()), "2:4");
        assert!(matches!(p.parse_move("2:5"), Err(MoveError::Illegal(_))));
        assert!(matches!(p.parse_move("4:1"), Err(MoveError::Malformed(_))));
        assert!(matches!(p.parse_move("3"), Err(MoveError::Malformed(_))));
        let end = play_moves(&p, &["1:3", "2:4", "3:5"]).unwrap();
        // Player 1 took the last object; in misère play that loses.
        assert_eq!(end.outcome(), Some(Outcome::Win(Player::Second)));
        assert_eq!(p.from_fen("0,4,5 2").unwrap().heaps(), [0, 4, 5]);
        assert!(Nim::new(&Params::parse(["heaps=3,0"]).unwrap()).is_err());
        assert!(Nim::new(&Params::parse(["length=3", "heaps=3"]).unwrap()).is_err());
    }
}

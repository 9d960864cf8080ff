//! The position notation and the diagram shared by the grid games (tic-tac-toe, Connect
//! Four, Teeko): the rows from the top down, separated by `/`, each cell the first player's
//! letter, the second player's letter or `.` (a number stands for that many empty cells),
//! then a space and the side to move's letter. For example `xo./.x./..o x`.

use crate::game::{FenError, Player};

/// The shape of a grid and the letters of its notation.
pub struct Grid {
    pub width: u32,
    pub height: u32,
    /// What a row is called in messages: "rank" or "row".
    pub row_word: &'static str,
    /// The notation's letters for the first and the second player (lower case; upper case
    /// is accepted too).
    pub letters: [char; 2],
    /// Added to the message when the number of rows is wrong (how to change the size).
    pub size_hint: String,
}

/// A parsed grid: `cells[row * width + col]`, row 0 at the bottom.
pub struct Parsed {
    pub cells: Vec<Option<Player>>,
    pub side: Player,
}

impl Grid {
    fn letter(&self, p: Player) -> char {
        self.letters[p.index()]
    }

    fn owner_of(&self, c: char) -> Option<Option<Player>> {
        match c.to_ascii_lowercase() {
            '.' => Some(None),
            l if l == self.letters[0] => Some(Some(Player::First)),
            l if l == self.letters[1] => Some(Some(Player::Second)),
            _ => None,
        }
    }

    pub fn parse(&self, fen: &str) -> Result<Parsed, FenError> {
        let err = |s: String| Err(FenError(s));
        let [a, b] = self.letters;
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 2 {
            return err(format!(
                "expected 2 fields (board, side to move), got {}",
                fields.len()
            ));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != self.height as usize {
            return err(format!(
                "expected {} {}s separated by '/', got {}{}",
                self.height,
                self.row_word,
                rows.len(),
                self.size_hint
            ));
        }
        let w = self.width;
        let mut cells = vec![None; (w * self.height) as usize];
        for (i, text) in rows.iter().enumerate() {
            let row = self.height - 1 - i as u32;
            let name = format!("{} {}", self.row_word, row + 1);
            let mut col = 0u32;
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                let (owner, run) = match (self.owner_of(c), c.to_digit(10)) {
                    (Some(o), _) => (o, 1),
                    (None, Some(d)) if d > 0 => {
                        let mut n = d;
                        while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                            n = n.saturating_mul(10).saturating_add(d);
                            chars.next();
                        }
                        (None, n)
                    }
                    _ => {
                        return err(format!(
                            "{name} has '{c}'; cells are {a}, {b}, . or a count of empty cells"
                        ));
                    }
                };
                if col.saturating_add(run) > w {
                    return err(format!("{name} '{text}' has more than {w} cells"));
                }
                if owner.is_some() {
                    cells[(row * w + col) as usize] = owner;
                }
                col += run;
            }
            if col != w {
                return err(format!("{name} '{text}' has {col} cells, not {w}"));
            }
        }
        let side = match fields[1].chars().collect::<Vec<_>>().as_slice() {
            [c] => match self.owner_of(*c) {
                Some(Some(p)) => p,
                _ => return err(format!("side to move '{}' must be {a} or {b}", fields[1])),
            },
            _ => return err(format!("side to move '{}' must be {a} or {b}", fields[1])),
        };
        Ok(Parsed { cells, side })
    }

    /// The notation of a grid whose cell (`col`, `row`) (row 0 at the bottom) is
    /// `owner(col, row)`.
    pub fn write(&self, owner: impl Fn(u32, u32) -> Option<Player>, side: Player) -> String {
        let mut s = String::with_capacity(((self.width + 1) * self.height + 2) as usize);
        for row in (0..self.height).rev() {
            for col in 0..self.width {
                s.push(owner(col, row).map_or('.', |p| self.letter(p)));
            }
            if row > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.letter(side));
        s
    }

    /// A picture for people: row numbers on the left, column labels underneath, pieces in
    /// upper case.
    pub fn diagram(
        &self,
        owner: impl Fn(u32, u32) -> Option<Player>,
        label: impl Fn(u32) -> String,
    ) -> String {
        let labels: Vec<String> = (0..self.width).map(label).collect();
        let cell = labels.iter().map(|l| l.len()).max().unwrap_or(1) + 1;
        let margin = (self.height.to_string().len()).max(2);
        let mut s = String::new();
        for row in (0..self.height).rev() {
            s.push_str(&format!("{:>margin$} |", row + 1));
            for col in 0..self.width {
                let c = owner(col, row).map_or('.', |p| self.letter(p).to_ascii_uppercase());
                s.push_str(&format!("{c:>cell$}"));
            }
            s.push('\n');
        }
        s.push_str(&format!(
            "{:margin$} +{}\n{:margin$}  ",
            "",
            "-".repeat(cell * self.width as usize),
            ""
        ));
        for l in &labels {
            s.push_str(&format!("{l:>cell$}"));
        }
        s.push('\n');
        s
    }
}

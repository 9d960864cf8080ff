//! The chess network: a correction of the weighted evaluation learnt from ply's own games
//! (docs/chess.md, "The network"; its data by `examples/chess_datagen.rs`, its training by
//! `examples/chess_nnue_train.rs`, the recipe in `scripts/tuning/chess_network.sh`). The
//! search's evaluation with the `network` technique is `eval::evaluate_full` plus
//! [`evaluate`] (scaled down in drawish endgames and by the fifty-move clock: `Chess`'s
//! `evaluate_net`): the network was trained to add to the weighted evaluation what brings it
//! to the search's score (trained alone, from nothing, on the same data, it was the weaker).
//!
//! Shape: 768 inputs → [`HIDDEN`] → 1, seen from both sides. An input is one piece on one
//! square, from one side's point of view ([`feature`]): its colour (the viewer's or the
//! other's), its kind, and its square, mirrored rank-wise for Black so that each side sees
//! itself moving up the board. The hidden layer is computed twice, once for each side (the
//! same weights, each side's inputs): the *accumulators*. The output reads the side to
//! move's accumulator then the other's, each clipped to `0..=1` (CReLU), through one weight
//! per entry: `2 × HIDDEN` weights and a bias. The output `y` is in the units of the
//! training's sigmoid (`sigmoid(base / 400 + y)` being the expected score, `base` the
//! weighted evaluation); the network's value is `400 y` (the scale the training maps the
//! search's scores by), in the evaluation's centi-units.
//!
//! Quantised as is usual for such networks: the hidden weights and biases by [`QA`] (so a
//! clipped accumulator entry is `0..=QA`), the output weights by [`QB`], the output bias by
//! `QA × QB`; every sum is integer (the accumulators' 16-bit sums wrap, so adding and taking
//! away rows in any order gives the same accumulator). Each thread keeps the accumulators of
//! the last position it evaluated and brings them to the next by the pieces that differ
//! ([`evaluate`]).
//!
//! The file ([`NETWORK`], `network.nnue`), little-endian: the 8 bytes `PLYNNUE1`, `HIDDEN` as
//! a u32, then the hidden weights (input-major, `768 × HIDDEN` i16), the hidden biases
//! (`HIDDEN` i16), the output weights (`2 × HIDDEN` i16) and the output bias (i32).

use std::sync::OnceLock;

use cozy_chess::{Board, Color, Piece};

/// Inputs: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;
/// The hidden layer's width, for each side.
pub const HIDDEN: usize = 128;
/// The hidden layer's quantisation: 1.0 is `QA`.
pub const QA: i32 = 255;
/// The output weights' quantisation.
pub const QB: i32 = 256;
/// The evaluation's units per unit of the network's output (see the module's text).
pub const SCALE: i32 = 400;
/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"PLYNNUE1";

/// The committed network.
static NETWORK: &[u8] = include_bytes!("network.nnue");

/// The input for a piece of `colour` and `kind` on `square` (0 = a1 .. 63 = h8), seen by
/// `viewer`.
#[inline]
pub fn feature(viewer: Color, colour: Color, kind: Piece, square: usize) -> usize {
    let (side, sq) = if viewer == Color::White {
        (colour as usize, square)
    } else {
        (1 - colour as usize, square ^ 56)
    };
    side * 384 + kind as usize * 64 + sq
}

/// The inputs of `board` for each viewer (White's then Black's), in the order of the board's
/// squares; calls `f(white_input, black_input)` for each piece.
#[inline]
pub fn for_each_feature(board: &Board, mut f: impl FnMut(usize, usize)) {
    for colour in [Color::White, Color::Black] {
        for kind in Piece::ALL {
            for sq in board.colored_pieces(colour, kind) {
                let s = sq as usize;
                f(
                    feature(Color::White, colour, kind, s),
                    feature(Color::Black, colour, kind, s),
                );
            }
        }
    }
}

/// A network, quantised, laid out for the evaluation.
pub struct Network {
    /// `INPUTS` rows of `HIDDEN`.
    hidden: Vec<[i16; HIDDEN]>,
    bias: [i16; HIDDEN],
    /// The side to move's accumulator's weights, then the other's.
    out: [[i16; HIDDEN]; 2],
    out_bias: i32,
}

/// Why a network file could not be read.
#[derive(Debug, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl Network {
    /// Reads a network file (the format in the module's text).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let expected = 8 + 4 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
        if bytes.len() != expected || &bytes[..8] != MAGIC {
            return Err(NetworkError(format!(
                "not a network of width {HIDDEN}: {} bytes (expected {expected}, starting with {})",
                bytes.len(),
                String::from_utf8_lossy(MAGIC)
            )));
        }
        let width = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if width as usize != HIDDEN {
            return Err(NetworkError(format!(
                "the network's width is {width}, not {HIDDEN}"
            )));
        }
        let mut words = bytes[12..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut row = || {
            let mut r = [0i16; HIDDEN];
            for w in r.iter_mut() {
                *w = words.next().expect("the length was checked");
            }
            r
        };
        let hidden = (0..INPUTS).map(|_| row()).collect();
        let bias = row();
        let out = [row(), row()];
        let tail = &bytes[bytes.len() - 4..];
        let out_bias = i32::from_le_bytes(tail.try_into().expect("4 bytes"));
        Ok(Network {
            hidden,
            bias,
            out,
            out_bias,
        })
    }

    /// The network's value of `board` for the side to move, in the evaluation's units.
    pub fn evaluate(&self, board: &Board) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the CPU has AVX2 (checked at run time).
            return unsafe { self.evaluate_avx2(board) };
        }
        self.evaluate_portable(board)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2(&self, board: &Board) -> i32 {
        self.evaluate_portable(board)
    }

    #[inline(always)]
    fn evaluate_portable(&self, board: &Board) -> i32 {
        let mut white = self.bias;
        let mut black = self.bias;
        for_each_feature(board, |w, b| {
            add_row(&mut white, &self.hidden[w]);
            add_row(&mut black, &self.hidden[b]);
        });
        self.output(&white, &black, board.side_to_move() == Color::White)
    }

    /// The value for the side to move of the position whose inputs are `white` (White's view)
    /// and `black` (Black's), for the tools that keep positions as inputs.
    pub fn evaluate_features(&self, white: &[u16], black: &[u16], white_to_move: bool) -> i32 {
        let mut w = self.bias;
        let mut b = self.bias;
        for (&fw, &fb) in white.iter().zip(black) {
            add_row(&mut w, &self.hidden[fw as usize]);
            add_row(&mut b, &self.hidden[fb as usize]);
        }
        self.output(&w, &b, white_to_move)
    }

    /// The evaluation from the accumulators.
    #[inline(always)]
    fn output(&self, white: &[i16; HIDDEN], black: &[i16; HIDDEN], white_to_move: bool) -> i32 {
        let (us, them) = if white_to_move {
            (white, black)
        } else {
            (black, white)
        };
        let sum = dot_clipped(us, &self.out[0]) + dot_clipped(them, &self.out[1]) + self.out_bias;
        // `sum` is the output times QA × QB.
        (sum as i64 * SCALE as i64 / (QA * QB) as i64) as i32
    }
}

#[inline(always)]
fn sub_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*r);
    }
}

#[inline(always)]
fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*r);
    }
}

/// `Σ clamp(acc, 0, QA) × w`.
#[inline(always)]
fn dot_clipped(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| a.clamp(0, QA as i16) as i32 * w as i32)
        .sum()
}

#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    static AVX2: OnceLock<bool> = OnceLock::new();
    *AVX2.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
}

/// The committed network's file.
pub fn network_file() -> &'static [u8] {
    NETWORK
}

/// The committed network, read once.
pub fn network() -> &'static Network {
    static NET: OnceLock<Network> = OnceLock::new();
    NET.get_or_init(|| Network::from_bytes(NETWORK).expect("the committed network is valid"))
}

/// The last position a thread evaluated: its pieces and the committed network's
/// accumulators for them. An evaluation brings the accumulators from there to the new
/// position by the pieces that differ (a search evaluates mostly positions a few moves
/// apart, so a handful of rows instead of every piece's), and the position becomes the
/// cache's. It starts as the empty board, whose accumulators are the biases.
struct Cache {
    /// The pieces of each colour and kind.
    pieces: [[u64; 6]; 2],
    white: [i16; HIDDEN],
    black: [i16; HIDDEN],
}

std::thread_local! {
    static CACHE: std::cell::RefCell<Option<Box<Cache>>> = const { std::cell::RefCell::new(None) };
}

impl Network {
    /// [`Network::evaluate`], with the accumulators brought from `cache`'s position.
    fn evaluate_from(&self, cache: &mut Cache, board: &Board) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the CPU has AVX2 (checked at run time).
            return unsafe { self.evaluate_from_avx2(cache, board) };
        }
        self.evaluate_from_portable(cache, board)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_from_avx2(&self, cache: &mut Cache, board: &Board) -> i32 {
        self.evaluate_from_portable(cache, board)
    }

    #[inline(always)]
    fn evaluate_from_portable(&self, cache: &mut Cache, board: &Board) -> i32 {
        for colour in [Color::White, Color::Black] {
            for kind in Piece::ALL {
                let now = board.colored_pieces(colour, kind).0;
                let before = &mut cache.pieces[colour as usize][kind as usize];
                for (bits, add) in [(*before & !now, false), (now & !*before, true)] {
                    let mut bits = bits;
                    while bits != 0 {
                        let s = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let w = &self.hidden[feature(Color::White, colour, kind, s)];
                        let b = &self.hidden[feature(Color::Black, colour, kind, s)];
                        if add {
                            add_row(&mut cache.white, w);
                            add_row(&mut cache.black, b);
                        } else {
                            sub_row(&mut cache.white, w);
                            sub_row(&mut cache.black, b);
                        }
                    }
                }
                *before = now;
            }
        }
        self.output(
            &cache.white,
            &cache.black,
            board.side_to_move() == Color::White,
        )
    }
}

/// The committed network's value of `board` for the side to move (by the thread's cache:
/// the same value as [`Network::evaluate`], in fewer steps).
pub fn evaluate(board: &Board) -> i32 {
    let net = network();
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let cache = c.get_or_insert_with(|| {
            Box::new(Cache {
                pieces: [[0; 6]; 2],
                white: net.bias,
                black: net.bias,
            })
        });
        net.evaluate_from(cache, board)
    })
}

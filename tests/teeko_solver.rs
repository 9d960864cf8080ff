//! The Teeko tablebase: values checked by hand and by independent search, Steele's published
//! results, consistency of the table with the rules, counts, and the table file.
//!
//! The standard table is built once per test run, through the engine's own path: a
//! [`Provider`] over a fresh directory finds no file, builds it in the background, saves it
//! and hands it out. The advanced variant's tests are `#[ignore]`d (`scripts/checks/test_heavy.sh`).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use ply::game::{Game, Outcome, Params, Player};
use ply::games::Teeko;
use ply::games::teeko::{TeekoMove, rules};
use ply::solve::teeko::index::{ALL, Layer, masks};
use ply::solve::teeko::{
    BuildLock, Provider, Table, TableError, TeekoSolver, best_move, code, table,
};
use ply::solve::{Budget, Solvable, Solver};
use ply::util::Rng;
use ply::value::{MATE, MATE_BOUND, Score, back_up, terminal_value};

/// A directory of its own for one test run. Directories that earlier runs left behind
/// (over an hour old) are removed.
fn scratch(name: &str) -> PathBuf {
    let tmp = std::env::temp_dir();
    for e in std::fs::read_dir(&tmp).into_iter().flatten().flatten() {
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > Duration::from_secs(3600));
        if old
            && e.file_name()
                .to_string_lossy()
                .starts_with("ply-teeko-test-")
        {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
    let d = tmp.join(format!("ply-teeko-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch directory");
    d
}

fn provider_built(advanced: bool) -> (Arc<Table>, PathBuf) {
    let dir = scratch(if advanced { "advanced" } else { "standard" });
    let provider = Provider::new(dir.clone(), advanced);
    // No file yet: the provider starts a background build and declines meanwhile.
    assert!(provider.get().is_none());
    let t = provider
        .wait(Duration::from_secs(900))
        .expect("the background build finishes");
    let path = provider.path();
    assert!(path.exists(), "the built table was saved");
    (t, path)
}

fn standard() -> &'static (Arc<Table>, PathBuf) {
    static T: OnceLock<(Arc<Table>, PathBuf)> = OnceLock::new();
    T.get_or_init(|| provider_built(false))
}

fn advanced() -> &'static (Arc<Table>, PathBuf) {
    static T: OnceLock<(Arc<Table>, PathBuf)> = OnceLock::new();
    T.get_or_init(|| provider_built(true))
}

fn game(advanced: bool, centre: bool) -> Teeko {
    Teeko::new(&Params(vec![
        ("advanced".into(), advanced.to_string()),
        ("centre".into(), centre.to_string()),
    ]))
    .expect("valid parameters")
}

fn fen(advanced: bool, f: &str) -> Teeko {
    game(advanced, true).from_fen(f).expect("a valid position")
}

fn solve(table: &Arc<Table>, pos: &Teeko) -> ply::solve::Solution<TeekoMove> {
    let stop = AtomicBool::new(false);
    let budget = Budget {
        stop: &stop,
        deadline: None,
        nodes: None,
    };
    TeekoSolver::with_table(table.clone())
        .solve(pos, &budget)
        .expect("a table always answers")
}

/// Plain alpha-beta over the rules alone: the exact value when the game is decided within
/// `depth` plies, else 0 (leaves at the horizon count as 0).
fn search(pos: &Teeko, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
    if let Some(o) = pos.outcome() {
        return terminal_value(o, pos.side_to_move(), ply as usize);
    }
    if depth == 0 {
        return 0;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best = -MATE - 1;
    for mv in moves {
        let mut c = *pos;
        c.play(mv);
        let v = -search(&c, depth - 1, -beta, -alpha, ply + 1);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn exact_within(pos: &Teeko, depth: u32) -> i32 {
    search(pos, depth, -MATE - 1, MATE + 1, 0)
}

/// What [`exact_within`] should say about a position the table values at `v`.
fn horizon(v: i32, depth: u32) -> i32 {
    if v != 0 && (MATE - v.abs()) as u32 <= depth {
        v
    } else {
        0
    }
}

/// The value of `pos` recomputed from its children's stored values, by the rules.
fn backed_up(t: &Table, pos: &Teeko) -> i32 {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(!moves.is_empty(), "{pos:?} has no move");
    moves
        .into_iter()
        .map(|mv| {
            let mut c = *pos;
            c.play(mv);
            back_up(t.value_of(&c))
        })
        .max()
        .expect("moves")
}

fn random_set(rng: &mut Rng, k: u32, avoid: u32) -> u32 {
    let mut m = 0u32;
    while m.count_ones() < k {
        let c = 1 << rng.below(25);
        if (avoid | m) & c == 0 {
            m |= c;
        }
    }
    m
}

/// A random position, not finished, with `n` markers on the board (8 = the move phase,
/// either side to move).
fn random_position(rng: &mut Rng, advanced: bool, n: u32) -> Teeko {
    let r = rules(advanced, true);
    loop {
        let nb = n.div_ceil(2);
        let b = random_set(rng, nb, 0);
        let red = random_set(rng, n - nb, b);
        let side = if n < 8 && nb == n - nb || n == 8 && rng.below(2) == 0 {
            Player::First
        } else {
            Player::Second
        };
        let p = Teeko::from_raw(b, red, side, r);
        if !p.has_goal(Player::First) && !p.has_goal(Player::Second) {
            return p;
        }
    }
}

#[test]
fn win_in_one_drop_and_move_phase() {
    let (t, _) = standard();
    // Black has a1 b1 c1 and drops d1.
    let p = fen(false, "rrr../...../...../...../bbb.. b");
    let s = solve(t, &p);
    assert_eq!(Score::from_value(s.value), Score::Mate(1));
    assert_eq!(p.format_move(s.best.unwrap()), "d1");
    // Black steps a2 to a1 for the row a1-d1.
    let p = fen(false, "r.r.r/...../..r../b..../.bbb. b");
    let s = solve(t, &p);
    assert_eq!(s.value, MATE - 1);
    assert_eq!(p.format_move(s.best.unwrap()), "a2a1");
    assert!(s.tbhits > 0);
}

#[test]
fn win_in_three_plies_and_the_forced_loss_behind_it() {
    let (t, _) = standard();
    // Drop phase: b2 c2 then d2 threatens both a2 and e2; Red can block only one.
    let p = fen(false, "r...r/...../...../.bb../..... b");
    let s = solve(t, &p);
    assert_eq!(Score::from_value(s.value), Score::Mate(2));
    let mut after = p;
    after.play(s.best.unwrap());
    assert_eq!(
        t.value_of(&after),
        -(MATE - 2),
        "the reply position is lost"
    );
    let lost = fen(false, "r...r/...../...../.bbb./..... r");
    assert_eq!(Score::from_value(solve(t, &lost).value), Score::Mate(-1));
    // Move phase: e3-e2 threatens e2-e1 (b1-e1), and no red marker can reach e1 (b1-c2,
    // threatening e3-d2 for the square c1-d2, and e3-d2, threatening both, win as fast).
    let p = fen(false, "rr.rr/...../....b/...../.bbb. b");
    let s = solve(t, &p);
    assert_eq!(s.value, MATE - 3);
    assert_eq!(s.pv.len(), 3, "the line runs to the win: {:?}", s.pv);
    let fastest: Vec<String> = {
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        moves
            .into_iter()
            .filter(|&mv| {
                let mut c = p;
                c.play(mv);
                t.value_of(&c) == -(MATE - 2)
            })
            .map(|mv| p.format_move(mv))
            .collect()
    };
    assert_eq!(fastest, ["b1c2", "e3d2", "e3e2"]);
    assert_eq!(
        p.format_move(s.best.unwrap()),
        "b1c2",
        "the first in move order"
    );
    let lost = fen(false, "rr.rr/...../...../....b/.bbb. r");
    assert_eq!(solve(t, &lost).value, -(MATE - 2));
    // Independent check by plain search over the rules.
    for (f, v) in [
        ("r...r/...../...../.bb../..... b", MATE - 3),
        ("rr.rr/...../....b/...../.bbb. b", MATE - 3),
        ("rr.rr/...../...../....b/.bbb. r", -(MATE - 2)),
    ] {
        assert_eq!(exact_within(&fen(false, f), 3), v, "{f}");
        assert_eq!(exact_within(&fen(false, f), 1), horizon(v, 1), "{f}");
    }
}

#[test]
fn a_draw_keeps_drawing() {
    let (t, _) = standard();
    // The start is a draw (Steele); along the solver's own line the value stays 0, every
    // position has a drawing move and no winning one.
    let mut p = Teeko::default();
    for _ in 0..30 {
        let s = solve(t, &p);
        assert_eq!(s.value, 0, "{p:?}");
        assert_eq!(Score::from_value(s.value), Score::Cp(0));
        assert_eq!(backed_up(t, &p), 0);
        assert_eq!(exact_within(&p, 3), 0, "{p:?}");
        p.play(s.best.unwrap());
    }
    assert!(!p.in_drop_phase());
}

#[test]
fn steele_standard_teeko_is_a_draw() {
    let (t, _) = standard();
    assert_eq!(t.value_of(&Teeko::default()), 0);
    assert_eq!(solve(t, &game(false, true)).value, 0);
    assert_eq!(t.rule_value(&game(false, false)), 0);
}

#[test]
#[ignore = "builds the advanced table; run by scripts/checks/test_heavy.sh"]
fn steele_advanced_teeko_is_a_first_player_win_and_a_draw_without_the_centre() {
    let (t, _) = advanced();
    let start = game(true, true);
    let v = t.rule_value(&start);
    assert!(
        v > MATE_BOUND,
        "advanced Teeko is a first-player win, got {v}"
    );
    assert_eq!(solve(t, &start).value, v);
    let no_centre = game(true, false);
    assert_eq!(t.rule_value(&no_centre), 0);
    let s = solve(t, &no_centre);
    assert_eq!(s.value, 0);
    assert_ne!(no_centre.format_move(s.best.unwrap()), "c3");
    // With the centre allowed, the win starts on the centre: every other first drop draws
    // or loses.
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    for mv in moves {
        let mut c = start;
        c.play(mv);
        let after = back_up(t.value_of(&c));
        if start.format_move(mv) == "c3" {
            assert_eq!(after, v);
        } else {
            assert!(after <= 0, "{} also wins", start.format_move(mv));
        }
    }
}

/// Every sampled position's stored value equals the best of its children's stored values,
/// with the children generated by the game's rules (independently of the builder).
fn consistency(t: &Table, advanced: bool, samples: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    for i in 0..samples {
        let n = [1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 8][i % 12];
        let p = random_position(&mut rng, advanced, n);
        assert_eq!(t.value_of(&p), backed_up(t, &p), "{p:?}");
    }
}

#[test]
fn table_agrees_with_successors_on_a_sample() {
    consistency(&standard().0, false, 200_000, 1);
}

#[test]
#[ignore = "builds the advanced table; run by scripts/checks/test_heavy.sh"]
fn advanced_table_agrees_with_successors_on_a_sample() {
    consistency(&advanced().0, true, 200_000, 2);
}

/// Every slot of the table (each class of positions once, 12.7M) against its successors.
fn full_consistency(t: &Table) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for section in 0..9 {
        let (layer, bytes) = t.section(section);
        std::thread::scope(|sc| {
            for k in 0..threads {
                sc.spawn(move || {
                    for slot in (k..layer.len).step_by(threads) {
                        let (_, m, o) = layer.position(slot);
                        let p = t.position(m, o);
                        let c = bytes[slot];
                        if c == code::INVALID {
                            assert!(p.has_goal(p.side_to_move()), "{p:?}");
                        } else if c == code::LOSS_NOW {
                            assert!(p.has_goal(p.side_to_move().other()), "{p:?}");
                        } else {
                            assert_eq!(code::value(c), Some(backed_up(t, &p)), "{p:?}");
                        }
                    }
                });
            }
        });
    }
}

#[test]
#[ignore = "checks all 12.7M slots; run by scripts/checks/test_heavy.sh"]
fn every_position_agrees_with_its_successors() {
    full_consistency(&standard().0);
}

#[test]
#[ignore = "builds the advanced table and checks all its slots; run by scripts/checks/test_heavy.sh"]
fn every_advanced_position_agrees_with_its_successors() {
    full_consistency(&advanced().0);
}

/// Short distances agree with a plain search over the rules: positions the table values
/// within `depth` plies get exactly that value, the others 0.
fn short_distances(t: &Table, advanced: bool, seed: u64) {
    let mut rng = Rng::new(seed);
    let (mut decided, mut checked) = (0, 0);
    while checked < 300 {
        let n = [6, 7, 8, 8][rng.below(4)];
        let p = random_position(&mut rng, advanced, n);
        let v = t.value_of(&p);
        // Mostly decided positions, which are rarer in a random sample.
        if horizon(v, 4) == 0 && rng.below(8) != 0 {
            continue;
        }
        assert_eq!(exact_within(&p, 4), horizon(v, 4), "{p:?} table {v}");
        decided += (horizon(v, 4) != 0) as u32;
        checked += 1;
    }
    assert!(decided > 100, "{decided} decided positions");
}

#[test]
fn short_distances_agree_with_plain_search() {
    short_distances(&standard().0, false, 3);
}

#[test]
#[ignore = "builds the advanced table; run by scripts/checks/test_heavy.sh"]
fn advanced_short_distances_agree_with_plain_search() {
    short_distances(&advanced().0, true, 4);
}

#[test]
fn best_moves_keep_the_value_and_win_fastest() {
    let (t, _) = standard();
    let mut rng = Rng::new(5);
    for _ in 0..2000 {
        let p = random_position(&mut rng, false, 8);
        let (mv, v, _) = best_move(t, &p).expect("not over");
        assert_eq!(v, t.value_of(&p));
        let mut c = p;
        c.play(mv);
        if c.outcome().is_none() {
            assert_eq!(back_up(t.value_of(&c)), v);
        } else {
            assert_eq!(v, MATE - 1);
        }
    }
}

/// Following the solver's moves from a won position wins in exactly the promised number
/// of plies whatever the loser does (here: the loser plays the solver's slowest loss, or a
/// random move).
#[test]
fn playing_out_a_long_win_ends_on_time() {
    let (t, _) = standard();
    let st = t.stats();
    let (m, o) = st.moves.longest_win_at;
    let start = t.position(m, o);
    let mut rng = Rng::new(6);
    for trial in 0..8 {
        let mut p = start;
        let winner = p.side_to_move();
        let mut plies = 0;
        while p.outcome().is_none() {
            let mv = if p.side_to_move() == winner || trial == 0 {
                best_move(t, &p).unwrap().0
            } else {
                let mut moves = Vec::new();
                p.legal_moves(&mut moves);
                moves[rng.below(moves.len())]
            };
            p.play(mv);
            plies += 1;
            assert!(plies <= st.moves.longest_win);
        }
        assert_eq!(p.outcome(), Some(Outcome::Win(winner)));
        if trial == 0 {
            assert_eq!(plies, st.moves.longest_win);
        }
    }
}

/// Counts by a second route: every concrete board (75.7M in the move phase, 21M in the
/// drop phase) looked up one by one, against the table's weighted count by classes.
fn counts_match(t: &Table) {
    let st = t.stats();
    let mut tally = [[0u64; 256]; 2];
    let fours: Vec<u32> = masks(4, 25).collect();
    for &m in &fours {
        for &o in &fours {
            if m & o == 0 {
                tally[1][t.code(m, o) as usize] += 1;
            }
        }
    }
    for n in 0..8u32 {
        let (a, b) = (n / 2, n - n / 2);
        for m in masks(a, 25) {
            for o in masks(b, 25) {
                if m & o == 0 {
                    tally[0][t.code(m, o) as usize] += 1;
                }
            }
        }
    }
    for (h, p) in tally.iter().zip([&st.drop, &st.moves]) {
        let won: u64 = h[1..128].iter().sum();
        let lost: u64 = h[128..255].iter().sum();
        assert_eq!(won, p.won);
        assert_eq!(lost, p.lost);
        assert_eq!(h[code::LOSS_NOW as usize], p.finished);
        assert_eq!(h[code::DRAW as usize], p.drawn);
        assert_eq!(h[code::INVALID as usize], p.invalid);
        let longest = (1..128u8).rev().find(|&c| h[c as usize] > 0).unwrap();
        assert_eq!(code::plies(longest), p.longest_win);
    }
    assert_eq!(st.drop.total(), 20_981_226);
    assert_eq!(st.moves.total(), 75_710_250);
}

#[test]
fn counts_match_a_board_by_board_count() {
    let (t, _) = standard();
    counts_match(t);
    let st = t.stats();
    // Impossible boards: the side to move has one of the 44 goals, any opponent set.
    assert_eq!(st.moves.invalid, 44 * 5985);
    // Finished boards with the side to move on 4 non-goal cells; the oracle
    // (scripts/checks/perft_oracle.py) counts 75,184,578 boards after the 8th drop where
    // neither side has a goal.
    assert_eq!(
        st.moves.total() - st.moves.invalid - st.moves.finished,
        75_184_578
    );
    // Black completed a goal with its 4th drop: the 44 goals times 3 red markers.
    assert_eq!(st.drop.finished, 44 * 1330);
}

#[test]
#[ignore = "builds the advanced table; run by scripts/checks/test_heavy.sh"]
fn advanced_counts_match_a_board_by_board_count() {
    let (t, _) = advanced();
    counts_match(t);
    let st = t.stats();
    assert_eq!(st.moves.invalid, 58 * 5985);
    assert_eq!(
        st.moves.total() - st.moves.invalid - st.moves.finished,
        75_017_740
    );
}

/// The builder's view of the board (slots, class weights, neighbours) against the oracle's
/// perft: perft(9) from the start is 576 (drop orders) times the sum, over boards after the
/// 8th drop where neither side has a goal, of Black's legal steps.
#[test]
fn slot_weights_and_steps_match_the_oracle_perft() {
    for (advanced, perft9) in [(false, 707_093_763_840u64), (true, 705_446_348_544)] {
        let r = rules(advanced, true);
        let goals: std::collections::HashSet<u32> = r.goals.iter().copied().collect();
        let goal = |m: u32| goals.contains(&m);
        let layer = Layer::new(4, 4);
        let mut steps = 0u64;
        for s in 0..layer.len {
            let (orbit, m, o) = layer.position(s);
            if goal(m) || goal(o) {
                continue;
            }
            let empty = ALL & !(m | o);
            let n: u32 = (0..25)
                .filter(|c| m & 1 << c != 0)
                .map(|c| (r.neighbours[c] & empty).count_ones())
                .sum();
            steps += layer.weight(orbit) * n as u64;
        }
        assert_eq!(576 * steps, perft9, "advanced={advanced}");
    }
}

#[test]
fn the_table_file_round_trips_and_damage_is_detected() {
    let (t, path) = standard();
    let loaded = Table::load(path, false).expect("the saved table loads");
    for i in 0..9 {
        assert!(loaded.section(i).1 == t.section(i).1, "section {i}");
    }
    assert!(matches!(
        Table::load(path, true),
        Err(TableError::Corrupt(_))
    ));
    let bytes = std::fs::read(path).unwrap();
    let mut flipped = bytes.clone();
    let at = flipped.len() / 2;
    flipped[at] ^= 0x10;
    assert!(matches!(
        Table::from_bytes(&flipped, false),
        Err(TableError::Corrupt(_))
    ));
    assert!(matches!(
        Table::from_bytes(&bytes[..bytes.len() - 1], false),
        Err(TableError::Corrupt(_))
    ));
    assert!(matches!(
        Table::from_bytes(&bytes[..50], false),
        Err(TableError::Corrupt(_))
    ));
    assert!(Table::from_bytes(&bytes, false).is_ok());
    // A second provider over the same directory loads the file instead of building.
    let p = Provider::new(path.parent().unwrap().to_path_buf(), false);
    let again = p.wait(Duration::from_secs(60)).expect("loaded");
    assert!(again.section(8).1 == t.section(8).1);
}

#[test]
fn a_damaged_file_is_not_used() {
    let (_, path) = standard();
    let dir = scratch("damaged");
    let bad = dir.join(table::file_name(false));
    let mut bytes = std::fs::read(path).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&bad, &bytes).unwrap();
    assert!(matches!(
        Table::load(&bad, false),
        Err(TableError::Corrupt(_))
    ));
    // Another process holds the build lock: the provider neither uses the damaged file
    // nor starts a second build; it declines and keeps checking.
    let held = BuildLock::acquire(&bad).unwrap().expect("the lock is free");
    let p = Provider::new(dir.clone(), false);
    assert!(p.get().is_none());
    assert!(p.get().is_none());
    // The other process finishes: the good file appears by rename, and is picked up.
    std::fs::copy(path, dir.join("incoming")).unwrap();
    std::fs::rename(dir.join("incoming"), &bad).unwrap();
    drop(held);
    assert!(p.wait(Duration::from_secs(10)).is_some());
}

/// A damaged file in the first directory is replaced by the good copy found in a later one
/// (before, the good copy was used and the damaged file stayed, although the log said it
/// would be rebuilt).
#[test]
fn a_damaged_file_is_replaced_by_a_good_copy() {
    let (_, path) = standard();
    let first = scratch("repair-first");
    let second = scratch("repair-second");
    let bad = first.join(table::file_name(false));
    std::fs::write(&bad, b"PLYTEEKO but not a table").unwrap();
    std::fs::copy(path, second.join(table::file_name(false))).unwrap();
    let p = Provider::with_dirs(vec![first.clone(), second], false);
    assert!(
        p.wait(Duration::from_secs(60)).is_some(),
        "the good copy is used"
    );
    assert!(
        Table::load(&bad, false).is_ok(),
        "the damaged file was replaced"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&first)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers,
        [std::ffi::OsString::from(table::file_name(false))]
    );
}

/// The build lock is the operating system's: a lock file left by a killed process does not
/// block anyone, a live holder does, and an interrupted save's temporary file is cleaned up
/// by the next holder.
#[test]
fn build_locks_survive_crashes() {
    let dir = scratch("locks");
    let table = dir.join(table::file_name(false));
    let lock = dir.join(format!("{}.lock", table::file_name(false)));
    // Left behind by a process that died (its lock went with it).
    std::fs::write(&lock, "99999\n").unwrap();
    let stale_tmp = dir.join(format!(".{}.tmp-99999-1", table::file_name(false)));
    std::fs::write(&stale_tmp, b"half a table").unwrap();
    let mine = BuildLock::acquire(&table)
        .unwrap()
        .expect("a stale lock file is free");
    assert!(
        !stale_tmp.exists(),
        "the interrupted save's file was removed"
    );
    // Held: nobody else gets it (flock locks conflict between open files, even in one
    // process), until it is released; the lock file goes with it.
    assert!(BuildLock::acquire(&table).unwrap().is_none());
    drop(mine);
    assert!(!lock.exists());
    assert!(BuildLock::acquire(&table).unwrap().is_some());

    // A real crash: an engine building the table in the background is killed mid-build.
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ply"));
    cmd.env("PLY_TABLES", &dir)
        .env_remove("PLY_TABLES_AUTOBUILD")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = cmd.spawn().unwrap();
    {
        use std::io::Write;
        let stdin = child.stdin.as_mut().unwrap();
        stdin.write_all(b"newgame teeko\ngo movetime 10\n").unwrap();
        stdin.flush().unwrap();
    }
    let t = std::time::Instant::now();
    while !lock.exists() && t.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(lock.exists(), "the engine started a build");
    assert!(
        BuildLock::acquire(&table).unwrap().is_none(),
        "held while the engine builds"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    if !table.exists() {
        // Killed mid-build (the usual case): the lock file stayed, but nothing holds it.
        assert!(lock.exists());
        assert!(BuildLock::acquire(&table).unwrap().is_some());
    }
}

#[test]
fn the_engine_gets_a_solver_for_every_variant() {
    for (adv, centre) in [(false, true), (false, false), (true, true), (true, false)] {
        assert!(Teeko::solver(&game(adv, centre), 16).is_some());
    }
    // A solver for one variant declines positions of the other.
    let (t, _) = standard();
    let stop = AtomicBool::new(false);
    let budget = Budget {
        stop: &stop,
        deadline: None,
        nodes: None,
    };
    let mut s = TeekoSolver::with_table(t.clone());
    assert!(s.solve(&game(true, true), &budget).is_none());
    let done = fen(false, "bbbb./5/5/rrr2/5 r");
    let sol = s.solve(&done, &budget).unwrap();
    assert_eq!((sol.best, sol.value), (None, -MATE));
}

#[test]
fn cli_probes_the_table_and_has_help() {
    let (_, path) = standard();
    let exe = env!("CARGO_BIN_EXE_ply");
    let out = std::process::Command::new(exe)
        .args(["solve", "teeko", "--out"])
        .arg(path)
        .args(["--probe", "rr.rr/...../....b/...../.bbb. b"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("win in 3 plies (score mate 2)"), "{text}");
    assert!(text.contains("best move: b1c2"), "{text}");
    // `ply solve` itself takes a `--help` right after the game name; `--` passes it on.
    let help = std::process::Command::new(exe)
        .args(["solve", "teeko", "--", "--help"])
        .output()
        .unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("--advanced"));
}

use super::*;
use crate::game::{Line, perft, play_moves};

fn fen(text: &str) -> Checkers {
    Checkers::default().from_fen(text).unwrap()
}

fn moves(pos: &Checkers) -> Vec<String> {
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    let mut texts: Vec<String> = out.iter().map(|&m| pos.format_move(m)).collect();
    texts.sort();
    texts
}

#[test]
fn perft_from_the_start_matches_oeis_a133046() {
    let start = Checkers::default();
    let expected = [7, 49, 302, 1469, 7361, 36768];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&start, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn the_start_and_its_notation() {
    let p = Checkers::default();
    assert_eq!(
        p.fen(),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert_eq!(
        moves(&p),
        ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
    );
    assert_eq!(fen("B:W21-32:B1-12"), p);
    // 11-15 22-18 offers a man: 15x22 is forced, and White takes back 25x18 or 26x17.
    let q = play_moves(&p, &["11-15", "22-18"]).unwrap();
    assert_eq!(moves(&q), ["15x22"]);
    let r = play_moves(&q, &["15x22"]).unwrap();
    assert_eq!(moves(&r), ["25x18", "26x17"]);
}

#[test]
fn captures_are_compulsory_and_continue() {
    // Black man on 9, white men on 14 and 22: 9x18x25 (two jumps), not 9x18.
    let p = fen("B:W14,22,30:B9");
    assert_eq!(moves(&p), ["9x18x25"]);
    assert!(matches!(p.parse_move("9-13"), Err(MoveError::Illegal(_))));
    assert_eq!(p.parse_move("9x25"), p.parse_move("9x18x25"));
    assert_eq!(p.parse_move("9-18-25"), p.parse_move("9x18x25"));
    let e = p.parse_move("9x18").unwrap_err().to_string();
    assert!(e.contains("can play 9x18x25"), "{e}");
}

#[test]
fn crowning_ends_the_move() {
    // Black man on 22 jumps 26 to land on 31 and is crowned; as a king it could go on over
    // 27, but its move ends there.
    let p = fen("B:W26,27:B22");
    assert_eq!(moves(&p), ["22x31"]);
    let mut q = p;
    q.play(q.parse_move("22x31").unwrap());
    assert_eq!(q.fen(), "W:W27:BK31");
    // A king does go on.
    let k = fen("B:W26,27:BK22");
    assert_eq!(moves(&k), ["22x31x24"]);
}

#[test]
fn ambiguous_captures_need_their_landing_squares() {
    // A black king on 10 around white men on 14, 15, 22, 23 can run the circuit either way.
    let p = fen("B:W14,15,22,23:BK10");
    assert_eq!(moves(&p), ["10x17x26x19x10", "10x19x26x17x10"]);
    let e = p.parse_move("10x10").unwrap_err().to_string();
    assert!(e.contains("ambiguous"), "{e}");
    // Both circuits pass 17 (at different times); 17 then 26 names one of them.
    assert!(p.parse_move("10x17x10").is_err());
    assert_eq!(
        p.parse_move("10x17x26x10").map(|m| p.format_move(m)),
        Ok("10x17x26x19x10".to_string())
    );
}

#[test]
fn bad_moves_say_why() {
    let p = Checkers::default();
    let e = |t: &str| p.parse_move(t).unwrap_err();
    assert!(matches!(e("11-"), MoveError::Malformed(_)));
    assert!(matches!(e("11"), MoveError::Malformed(_)));
    assert!(matches!(e("0-4"), MoveError::Malformed(_)));
    assert!(matches!(e("11-33"), MoveError::Malformed(_)));
    assert!(matches!(e("a3-b4"), MoveError::Malformed(_)));
    assert!(e("13-17").to_string().contains("no black piece on 13"));
    assert!(e("22-18").to_string().contains("22 holds a white piece"));
    assert!(e("11-14").to_string().contains("can only play 11-15"));
    assert!(e("1-5").to_string().contains("cannot move"));
}

#[test]
fn position_notation_reads_and_writes() {
    let p = fen("B:W21,22,K3:B1,2,K30");
    assert_eq!(p.fen(), "B:W21,22,K3:B1,2,K30");
    assert_eq!(fen("W:B1,2,K30:W21,22,K3").fen(), "W:W21,22,K3:B1,2,K30");
    assert_eq!(fen("B:W21,22,K3:B1,2,K30:H7:F30").quiet_plies(), 7);
    assert_eq!(fen("B:WK3:BK30:H7").fen(), "B:WK3:BK30:H7");
    assert_eq!(fen(" B:W21, 22:B1 .").fen(), "B:W21,22:B1");
    let e = |t: &str| Checkers::default().from_fen(t).unwrap_err().0;
    assert!(e("X:W1:B2").contains("must be B or W"));
    assert!(e("B:W21").contains("expected"));
    assert!(e("B:W21,21:B1").contains("given twice"));
    assert!(e("B:W21:B21").contains("given twice"));
    assert!(e("B:W1:B5").contains("white man on 1"));
    assert!(e("B:W5:B30").contains("black man on 30"));
    assert!(e("B:W33:B1").contains("not a square"));
    assert!(e("B:W9-5:B1").contains("not a square"));
    assert!(e("B:W:B1").contains("white has no pieces"));
    assert!(e("B:WK1-13:BK30").contains("at most 12"));
    assert!(e("B:W5:B1:H-1").contains("no-progress count"));
    assert!(e("B:W5:B1:Q").contains("field 'Q'"));
    // The side to move may have nothing left: it has lost.
    assert_eq!(fen("B:W5:B").outcome(), Some(Outcome::Win(Player::Second)));
}

#[test]
fn a_blocked_side_loses() {
    // Black's man on 4 can only step to 8, where a white man stands with another on 11
    // behind it: no move.
    let p = fen("B:W8,11:B4");
    assert!(moves(&p).is_empty());
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::Second)));
}

#[test]
fn no_progress_rule_draws_after_forty_moves_each() {
    let kings = fen("B:WK32:BK1");
    let shuffle = ["1-5", "32-28", "5-1", "28-32"];
    let mut p = kings;
    for i in 0..80 {
        assert_eq!(p.outcome(), None, "ply {i}");
        p.play(p.parse_move(shuffle[i % 4]).unwrap());
    }
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert_eq!(p.fen(), "B:WK32:BK1:H80");
    // A man's move resets the count; noprogress=0 turns the rule off.
    let mut q = fen("B:WK32,21:BK1:H79");
    q.play(q.parse_move("1-5").unwrap());
    assert_eq!(q.outcome(), Some(Outcome::Draw));
    let mut r = fen("W:WK32,21:BK1:H79");
    r.play(r.parse_move("21-17").unwrap());
    assert_eq!((r.outcome(), r.quiet_plies()), (None, 0));
    let off = Checkers::new(&Params::parse(["noprogress=0"]).unwrap()).unwrap();
    let long = off.from_fen("B:WK32:BK1:H500").unwrap();
    assert_eq!(long.outcome(), None);
    assert_eq!(
        Checkers::new(&Params::parse(["noprogress=x"]).unwrap())
            .unwrap_err()
            .0,
        "parameter noprogress=x: expected an integer from 0 to 10000"
    );
}

#[test]
fn threefold_repetition_through_the_line() {
    let mut line = Line::new(fen("B:WK32,21:BK1"));
    let shuffle = ["1-5", "32-28", "5-1", "28-32"];
    for (i, m) in shuffle.iter().cycle().take(8).enumerate() {
        assert_eq!(line.outcome(), None, "ply {i}");
        let mv = line.pos().parse_move(m).unwrap();
        line.play(mv);
    }
    assert_eq!(line.occurrences(), 3);
    assert_eq!(line.outcome(), Some(Outcome::Draw));
}

#[test]
fn keys_ignore_the_count_and_see_the_side() {
    let a = fen("B:WK32:BK1");
    assert_eq!(a.key(), fen("B:WK32:BK1:H6").key());
    assert_ne!(a.key(), fen("W:WK32:BK1").key());
    assert_ne!(a.key(), fen("B:W32:BK1").key());
}

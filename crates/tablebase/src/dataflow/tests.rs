//! Unit tests of `dataflow`.

use super::RoundGate;

#[test]
fn a_tiding_waits_until_the_round_before_its_own_is_settled() {
    let mut gate = RoundGate::default();
    // Nothing settled yet: even round 1 waits (round 0 is settled first).
    let mut batch = vec![(7, 1)];
    assert!(!gate.admit(1, &mut batch));
    assert!(batch.is_empty(), "the gate keeps what it holds back");
    // Round 3 comes while only round 0 is settled: it waits.
    assert_eq!(gate.settled(0), Some(vec![(7, 1)]));
    let mut batch = vec![(9, 0), (11, 1)];
    assert!(!gate.admit(3, &mut batch));
    // Round 1 settled: round 2 may be told, round 3 still waits.
    assert_eq!(gate.settled(1), None);
    assert!(gate.admit(2, &mut vec![(5, 0)]));
    let mut batch = vec![(13, 0)];
    assert!(!gate.admit(3, &mut batch));
    // Round 2 settled: the kept tidings of round 3 are handed back, in
    // the order they came, and later ones pass at once.
    assert_eq!(gate.settled(2), Some(vec![(9, 0), (11, 1), (13, 0)]));
    assert!(gate.admit(3, &mut vec![(15, 1)]));
    // A round already settled admits its late tidings too.
    assert!(gate.admit(2, &mut vec![(17, 1)]));
}

#[test]
fn a_due_round_hands_back_its_kept_tidings() {
    // A round with no work here has no notification, so a later
    // round's tidings may still be kept when that round is due: every
    // earlier round is settled by then.
    let mut gate = RoundGate::default();
    gate.settled(0);
    let mut batch = vec![(3, 0)];
    assert!(!gate.admit(4, &mut batch));
    assert_eq!(gate.due(3), None);
    assert_eq!(gate.due(4), Some(vec![(3, 0)]));
    assert_eq!(gate.due(4), None, "handed back once");
}

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::{as_made, in_order, lock};

#[test]
fn in_order_keeps_the_items_order_whichever_thread_finishes_first() {
    // The first items take longest, so they finish last.
    let squares = in_order(0..16usize, 4, |i| {
        std::thread::sleep(std::time::Duration::from_millis(16 - i as u64));
        Ok::<_, ()>(i * i)
    })
    .unwrap();
    assert_eq!(squares, (0..16usize).map(|i| i * i).collect::<Vec<_>>());
}

#[test]
fn each_item_is_made_once_on_the_threads_asked_for() {
    let threads = Mutex::new(std::collections::HashSet::new());
    let mut seen = Vec::new();
    as_made(
        0..64usize,
        3,
        |i| {
            lock(&threads).insert(std::thread::current().id());
            std::thread::sleep(std::time::Duration::from_millis(1));
            Ok::<_, ()>(i)
        },
        |i| seen.push(i),
    )
    .unwrap();
    seen.sort_unstable();
    assert_eq!(seen, (0..64).collect::<Vec<_>>());
    let used = lock(&threads).len();
    assert!((2..=3).contains(&used), "{used} threads");
    assert!(!lock(&threads).contains(&std::thread::current().id()));
}

#[test]
fn one_thread_works_on_the_callers_thread() {
    let caller = std::thread::current().id();
    let ids = in_order(0..3, 1, |_| Ok::<_, ()>(std::thread::current().id())).unwrap();
    assert_eq!(ids, vec![caller; 3]);
}

#[test]
fn the_first_error_stops_new_items_and_is_returned() {
    let started = AtomicUsize::new(0);
    let failed = in_order(0..1000usize, 2, |i| {
        started.fetch_add(1, Ordering::Relaxed);
        if i == 3 {
            Err(format!("item {i}"))
        } else {
            std::thread::sleep(std::time::Duration::from_millis(1));
            Ok(i)
        }
    });
    assert_eq!(failed, Err("item 3".to_string()));
    assert!(started.load(Ordering::Relaxed) < 1000);
}

#[test]
#[should_panic(expected = "item 5 is a bug")]
fn a_workers_panic_goes_on_on_the_callers_thread() {
    let _ = in_order(0..8, 2, |i| {
        if i == 5 {
            panic!("item {i} is a bug");
        }
        Ok::<_, ()>(i)
    });
}

#[test]
fn lock_goes_on_after_a_panic_while_held() {
    let m = Mutex::new(vec![1, 2]);
    let _ = std::thread::scope(|s| {
        s.spawn(|| {
            let _held = m.lock().unwrap();
            panic!("poisons the mutex");
        })
        .join()
    });
    assert!(m.is_poisoned());
    assert_eq!(*lock(&m), vec![1, 2]);
}

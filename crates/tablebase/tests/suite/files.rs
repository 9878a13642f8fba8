//! The file format: tables round-trip through a directory, and a corrupt,
//! truncated or mismatched file is refused with a typed error, never
//! misread and never a panic.

use qi_jungle::{Jungle, Rules};
use qi_tablebase::jungle::{Material, Table, Tablebase};
use qi_tablebase::{load_table, FileError, FormatError, ProbeError, Wdl, MAGIC};

const FORMAT_VERSION: u16 = qi_tablebase::version_of(qi_tablebase::SlotIndex::JungleRank);

fn small_base() -> Tablebase {
    let m: Material = "LvR".parse().unwrap();
    Tablebase::generate(&Rules::standard(), &[m], 2).unwrap()
}

use crate::common::fnv;
use fnv::fnv1a;

/// The offset of the checksum in a file: after magic, version, game,
/// rules, material, count and width.
fn checksum_at(bytes: &[u8]) -> usize {
    let mut at = 8 + 2;
    at += 1 + usize::from(bytes[at]);
    at += 2 + usize::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
    at += 1 + usize::from(bytes[at]);
    at + 8 + 1
}

/// Rewrites the checksum so that only the edited field is wrong.
fn reseal(bytes: &mut [u8]) {
    let at = checksum_at(bytes);
    let mut rest = bytes[..at].to_vec();
    rest.extend_from_slice(&bytes[at + 8..]);
    let sum = fnv1a(&rest);
    bytes[at..at + 8].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn tables_round_trip_through_a_directory() {
    let tb = small_base();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    tb.save_dir(&dir).unwrap();
    let loaded = Tablebase::load_dir(&dir, &Rules::standard()).unwrap();
    assert_eq!(
        loaded.tables().map(Table::material).collect::<Vec<_>>(),
        tb.tables().map(Table::material).collect::<Vec<_>>()
    );
    for (a, b) in tb.tables().zip(loaded.tables()) {
        assert_eq!(a, b);
    }
    // The history rules are not in the tables: a `yeshou` directory would
    // be refused, but `standard` with another no-capture count is fine.
    let mut rules = Rules::standard();
    rules.no_capture_draw = 100;
    assert!(Tablebase::load_dir(&dir, &rules).is_ok());
    assert!(matches!(
        Tablebase::load_dir(&dir, &Rules::yeshou()),
        Err(FormatError::RulesMismatch { .. })
    ));
}

#[test]
fn header_fields_are_as_documented() {
    let tb = small_base();
    let m: Material = "LvR".parse().unwrap();
    let bytes = tb.table(m).unwrap().to_bytes();
    assert_eq!(bytes[..8], MAGIC);
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), FORMAT_VERSION);
    assert_eq!(&bytes[11..17], b"jungle");
    let n = m.index_count() as usize;
    // Header, then 2 bits and 1 distance byte a position.
    assert_eq!(bytes.len(), checksum_at(&bytes) + 8 + n.div_ceil(4) + n);
}

#[test]
fn every_corrupted_byte_is_refused() {
    let tb = small_base();
    let table = tb.table("LvR".parse().unwrap()).unwrap();
    let bytes = table.to_bytes();
    assert_eq!(&Table::from_bytes(&bytes, None).unwrap(), table);
    for i in 0..bytes.len() {
        for flip in [0x01u8, 0x80, 0xff] {
            let mut bad = bytes.clone();
            bad[i] ^= flip;
            assert!(
                Table::from_bytes(&bad, None).is_err(),
                "byte {i} ^ {flip:#x}"
            );
        }
    }
    for len in 0..bytes.len() {
        assert!(
            Table::from_bytes(&bytes[..len], None).is_err(),
            "cut at {len}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(Table::from_bytes(&longer, None).is_err());
}

#[test]
fn wrong_headers_are_refused_with_their_error() {
    let tb = small_base();
    let bytes = tb.table("LvR".parse().unwrap()).unwrap().to_bytes();
    let edit = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = bytes.clone();
        f(&mut b);
        Table::from_bytes(&b, Some(&Rules::standard())).unwrap_err()
    };
    assert!(matches!(
        edit(&|b| b[0] = b'X'),
        FormatError::File {
            source: FileError::BadMagic,
            ..
        }
    ));
    assert!(matches!(
        edit(&|b| {
            let at = checksum_at(b) + 8;
            b[at] ^= 1
        }),
        FormatError::File {
            source: FileError::Checksum { .. },
            ..
        }
    ));
    assert!(matches!(
        edit(&|b| {
            b[8] = 9;
            reseal(b)
        }),
        FormatError::File {
            source: FileError::UnsupportedVersion(9),
            ..
        }
    ));
    assert!(matches!(
        edit(&|b| {
            b[11] = b'x';
            reseal(b)
        }),
        FormatError::File {
            source: FileError::WrongGame(_),
            ..
        }
    ));
    // The count of another material.
    assert!(matches!(
        edit(&|b| {
            let at = checksum_at(b) - 9;
            b[at] ^= 4;
            reseal(b)
        }),
        FormatError::CountMismatch { .. }
    ));
    assert!(matches!(
        edit(&|b| {
            let at = checksum_at(b) - 1;
            b[at] = 3;
            reseal(b)
        }),
        FormatError::File {
            source: FileError::BadWidth(3),
            ..
        }
    ));
    // A value code 3.
    assert!(matches!(
        edit(&|b| {
            let at = checksum_at(b) + 8;
            b[at] |= 3;
            reseal(b)
        }),
        FormatError::File {
            source: FileError::BadValue(0),
            ..
        }
    ));
    // Another material's letters: the count then disagrees.
    let pos = bytes.windows(3).position(|w| w == b"LvR").unwrap();
    assert!(matches!(
        edit(&|b| {
            b[pos + 2] = b'X';
            reseal(b)
        }),
        FormatError::BadMaterial(_)
    ));
    assert!(matches!(
        edit(&|b| {
            b[pos + 2] = b'E';
            reseal(b)
        }),
        FormatError::CountMismatch { .. }
    ));
    // Rules of another preset.
    let yeshou = Tablebase::generate(&Rules::yeshou(), &["LvR".parse().unwrap()], 1).unwrap();
    let y = yeshou.table("LvR".parse().unwrap()).unwrap().to_bytes();
    assert!(matches!(
        Table::from_bytes(&y, Some(&Rules::standard())),
        Err(FormatError::RulesMismatch { .. })
    ));
    assert!(Table::from_bytes(&y, Some(&Rules::yeshou())).is_ok());
}

/// A file of the given header fields and payload, with a right checksum.
fn craft(material: &str, count: u64, width: u8, payload: &[u8]) -> Vec<u8> {
    let mut b = MAGIC.to_vec();
    b.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    b.push(6);
    b.extend_from_slice(b"jungle");
    b.extend_from_slice(&8u16.to_le_bytes());
    b.extend_from_slice(b"standard");
    b.push(material.len() as u8);
    b.extend_from_slice(material.as_bytes());
    b.extend_from_slice(&count.to_le_bytes());
    b.push(width);
    b.extend_from_slice(&[0; 8]);
    b.extend_from_slice(payload);
    reseal(&mut b);
    b
}

#[test]
fn crafted_headers_are_refused_without_allocating_their_claims() {
    // The largest material: its count saturates, and the payload it
    // claims is never allocated.
    let all = "ELTPWDCRvELTPWDCR";
    assert!(matches!(
        Table::from_bytes(&craft(all, u64::MAX, 1, &[]), None),
        Err(FormatError::File {
            source: FileError::Truncated,
            ..
        })
    ));
    assert!(matches!(
        Table::from_bytes(&craft(all, 12, 1, &[]), None),
        Err(FormatError::CountMismatch { .. })
    ));
    // A well-formed header and payload is read (LvE stores 28 × 48 × 2
    // positions: the Lion on files a to d).
    let n = 2688;
    let mut payload = vec![0x55u8; n / 4];
    payload.extend(std::iter::repeat_n(0u8, n));
    let t = Table::from_bytes(&craft("LvE", n as u64, 1, &payload), None).unwrap();
    assert_eq!(t.at(0), Some((Wdl::Draw, 0)));
    payload.push(0);
    assert!(matches!(
        Table::from_bytes(&craft("LvE", n as u64, 1, &payload), None),
        Err(FormatError::File {
            source: FileError::TrailingBytes(1),
            ..
        })
    ));
}

#[test]
fn garbage_never_panics() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let good = small_base()
        .table("LvR".parse().unwrap())
        .unwrap()
        .to_bytes();
    for _ in 0..2000 {
        let len = (next() % 200) as usize;
        let mut b: Vec<u8> = if next() % 2 == 0 {
            good[..len.min(good.len())].to_vec()
        } else {
            (0..len).map(|_| next() as u8).collect()
        };
        if let Some(x) = b.get_mut((next() % 64) as usize) {
            *x = next() as u8;
        }
        assert!(Table::from_bytes(&b, None).is_err());
    }
}

#[test]
fn a_file_named_for_another_material_is_refused() {
    let tb = small_base();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    tb.save_dir(&dir).unwrap();
    std::fs::rename(dir.join("LvR.qtb"), dir.join("LvC.qtb")).unwrap();
    assert!(matches!(
        load_table::<Jungle>(&dir.join("LvC.qtb"), &Rules::standard()),
        Err(FormatError::MaterialMismatch { .. })
    ));
    assert!(matches!(
        Tablebase::load_dir(&dir, &Rules::standard()),
        Err(FormatError::MaterialMismatch { .. })
    ));
    assert!(matches!(
        load_table::<Jungle>(&dir.join("missing.qtb"), &Rules::standard()),
        Err(FormatError::Io { .. })
    ));
}

#[test]
fn probing() {
    let tb = small_base();
    let rules = Rules::standard();
    let pos = |t: &str| Jungle::from_text(t, rules).unwrap();
    // Red Lion beside the Blue den, Red to move: wins at once; Blue to
    // move, its Rat cannot stop it: lost in 2.
    assert_eq!(
        tb.probe(&pos("7/3L3/7/7/7/7/7/7/r6 w")).unwrap(),
        Some((Wdl::Win, 1))
    );
    assert_eq!(
        tb.probe(&pos("7/3L3/7/7/7/7/7/7/r6 b")).unwrap(),
        Some((Wdl::Loss, 2))
    );
    // The counters play no part.
    assert_eq!(
        tb.probe(&pos("7/3L3/7/7/7/7/7/7/r6 b 150 80")).unwrap(),
        Some((Wdl::Loss, 2))
    );
    // A game already over.
    assert_eq!(
        tb.probe(&pos("3L3/7/7/7/7/7/7/7/r6 b")).unwrap(),
        Some((Wdl::Loss, 0))
    );
    // A material not loaded.
    assert_eq!(tb.probe(&pos("7/3L3/7/7/7/7/7/7/c6 w")).unwrap(), None);
    assert_eq!(tb.probe(&Jungle::default()).unwrap(), None);
    // Another preset's board rules.
    let datou = Jungle::from_text("7/3L3/7/7/7/7/7/7/r6 w", Rules::datou()).unwrap();
    assert!(matches!(
        tb.probe(&datou),
        Err(ProbeError::RulesMismatch { .. })
    ));
}

#[test]
fn statistics_count_every_position() {
    let tb = small_base();
    let stats = tb.stats();
    assert_eq!(stats.len(), 1);
    let (m, s) = stats[0];
    assert_eq!(s.wins + s.draws + s.losses, m.position_count());
    let i = s.longest_win_index.unwrap();
    assert_eq!(tb.table(m).unwrap().at(i), Some((Wdl::Win, s.longest_win)));
}

/// `load_table` on another thread, which must answer within 10 s (a FIFO
/// or `/dev/zero` read as a file never does).
#[cfg(unix)]
fn load_within(path: &std::path::Path) -> Result<Table, FormatError> {
    let (tx, rx) = std::sync::mpsc::channel();
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(load_table::<Jungle>(&path, &Rules::standard()));
    });
    rx.recv_timeout(std::time::Duration::from_secs(10))
        .expect("load_table answers at once")
}

/// A FIFO or a device under a table's name is refused unread; a file whose
/// size is not the one its header implies is refused before its payload is
/// read (a large file of zeros after its first bytes).
#[cfg(unix)]
#[test]
fn non_regular_and_oversized_files_are_refused_before_reading() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let fifo = dir.join("LvR.qtb");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let e = load_within(&fifo).unwrap_err();
    assert!(
        matches!(&e, FormatError::Io { source, .. } if source.to_string().contains("not a regular file")),
        "{e}"
    );
    std::fs::remove_file(&fifo).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &fifo).unwrap();
    assert!(matches!(load_within(&fifo), Err(FormatError::Io { .. })));
    std::fs::remove_file(&fifo).unwrap();
    // 300 MB of zeros (a sparse file): the magic is wrong at once.
    let zeros = std::fs::File::create(&fifo).unwrap();
    zeros.set_len(300_000_000).unwrap();
    assert!(matches!(
        load_within(&fifo),
        Err(FormatError::File {
            source: FileError::BadMagic,
            ..
        })
    ));
    // A good table with 300 MB more: the header says how long it is.
    small_base().save_dir(&dir).unwrap();
    let size = std::fs::metadata(&fifo).unwrap().len();
    let grown = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    grown.set_len(size + 300_000_000).unwrap();
    match load_within(&fifo) {
        Err(FormatError::File {
            source: FileError::SizeMismatch { expected, found },
            ..
        }) => {
            assert_eq!((expected, found), (size, size + 300_000_000));
        }
        other => panic!("{other:?}"),
    }
}

//! Unit tests of `format::partition`.

use super::*;
use qi_five_tigers::{FiveTigers, Rules};

fn part(owner: usize, workers: usize) -> Partition<FiveTigers> {
    let deal = Deal::new(workers, 1);
    let n = deal.count(11, owner) as usize;
    Partition {
        info: PartInfo {
            material: "3v2".parse().unwrap(),
            rules: Rules::shandong_shuttle(),
            slots: 11,
            shift: 1,
            owner,
            workers,
        },
        codes: (0..n).map(|i| (i % 4) as u8).collect(),
        distances: (0..n).map(|i| 300 * i as u16).collect(),
    }
}

#[test]
fn a_partition_round_trips_and_every_byte_is_checked() {
    let p = part(1, 3);
    let bytes = p.to_bytes();
    let rules = Rules::shandong_shuttle();
    assert_eq!(Partition::from_bytes(&bytes, &rules).unwrap(), p);
    for i in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[i] ^= 0x10;
        assert!(
            Partition::<FiveTigers>::from_bytes(&bad, &rules).is_err(),
            "byte {i} changed and read"
        );
    }
    assert!(Partition::<FiveTigers>::from_bytes(&bytes[..bytes.len() - 1], &rules).is_err());
    // The streaming check of a file refuses the same, and so does the
    // check of the data after the header a few bytes at a time.
    let in_chunks = |bytes: &[u8], chunk| -> Result<PartHeader<FiveTigers>, FormatError> {
        let head = PartHeader::parse(bytes, &rules, bytes.len() as u64)?;
        head.verify(&bytes[head.data_at as usize..], Path::new(""), chunk)?;
        Ok(head)
    };
    let dir = tempfile::tempdir().unwrap();
    let path = p.save(dir.path()).unwrap();
    let head = Partition::<FiveTigers>::check(&path, &rules).unwrap();
    assert_eq!(
        (head.info.owner, head.info.workers, head.count),
        (1, 3, p.codes.len() as u64)
    );
    for chunk in [1, 3, 5] {
        assert_eq!(in_chunks(&bytes, chunk).unwrap().count, head.count);
    }
    for i in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[i] ^= 0x10;
        std::fs::write(&path, &bad).unwrap();
        assert!(
            Partition::<FiveTigers>::check(&path, &rules).is_err(),
            "byte {i} changed and checked"
        );
        assert!(
            in_chunks(&bad, 3).is_err(),
            "byte {i} changed and checked in chunks of 3"
        );
    }
    // A code that is not a value, under a checksum that matches it.
    let mut q = p.clone();
    q.codes[2] = 4;
    std::fs::write(&path, q.to_bytes()).unwrap();
    let e = Partition::<FiveTigers>::from_bytes(&q.to_bytes(), &rules).unwrap_err();
    assert!(e.to_string().contains("position 2"), "{e}");
    let e = Partition::<FiveTigers>::check(&path, &rules).unwrap_err();
    assert!(e.to_string().contains("position 2"), "{e}");
    let e = in_chunks(&q.to_bytes(), 3).unwrap_err();
    assert!(e.to_string().contains("position 2"), "{e}");
    // The rules of the ban give other tables: refused.
    let e = Partition::<FiveTigers>::from_bytes(&bytes, &Rules::shandong()).unwrap_err();
    assert!(matches!(e, FormatError::RulesMismatch { .. }), "{e}");
}

#[test]
fn a_count_that_is_not_the_deals_is_refused() {
    let mut p = part(0, 2);
    p.codes.pop();
    p.distances.pop();
    let e =
        Partition::<FiveTigers>::from_bytes(&p.to_bytes(), &Rules::shandong_shuttle()).unwrap_err();
    assert!(matches!(e, FormatError::PartitionMismatch { .. }), "{e}");
}

#[test]
fn partitions_join_and_a_missing_one_is_named() {
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let paths: Vec<PathBuf> = dirs.iter().map(|d| d.path().to_path_buf()).collect();
    let rules = Rules::shandong_shuttle();
    let m = "3v2".parse().unwrap();
    for owner in 0..3 {
        part(owner, 3).save(&paths[owner % 2]).unwrap();
    }
    let values = join_partitions::<FiveTigers>(&rules, m, &paths).unwrap();
    let expected = join_parts(
        11,
        1,
        (0..3)
            .map(|o| (part(o, 3).codes, part(o, 3).distances))
            .collect(),
    );
    assert_eq!(values, expected);
    std::fs::remove_file(Partition::<FiveTigers>::path(&paths[0], m, 2, 3)).unwrap();
    let e = join_partitions::<FiveTigers>(&rules, m, &paths).unwrap_err();
    assert!(e.to_string().contains("partition 2 of 3"), "{e}");
}

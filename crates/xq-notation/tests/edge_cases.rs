#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

//! The 51 edge-case vectors of the formats note (§4.3), read leniently; and the departures from
//! the standard that strict mode reports.

use std::path::Path;

use xq_core::Position;
use xq_notation::{Mode, NotationError, ResolveError, read};

#[test]
fn all_51_vectors() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/notation/edge-cases.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut failures = Vec::new();
    let mut count = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let (name, fen, token, expected) = (cols[0], cols[1], cols[2], cols[3]);
        count += 1;
        let pos = Position::from_fen(fen).unwrap();
        let got = read(token, &pos, Mode::Lenient);
        let ok = match (&got, expected) {
            (
                Err(NotationError::Resolve(ResolveError::Ambiguous { candidates, .. })),
                "AMBIGUOUS",
            ) => candidates.len() == 2,
            (Ok(m), want) => m.to_string() == want,
            _ => false,
        };
        if !ok {
            failures.push(format!("{name} {token}: expected {expected}, got {got:?}"));
        }
    }
    assert_eq!(count, 51);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn strict_mode_rejects_the_lenient_forms_with_reasons() {
    let start = Position::new();
    let p22r = Position::from_fen("3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w").unwrap();
    for (pos, token) in [
        (&start, "炮2平5"),  // digits for Red
        (&p22r, "前三平四"), // piece-less
        (&start, "c2.5"),    // lower case
        (&start, "C25"),     // no direction sign
    ] {
        match read(token, pos, Mode::Strict) {
            Err(NotationError::Resolve(ResolveError::NotStrict {
                reasons, standard, ..
            })) => {
                assert!(!reasons.is_empty());
                assert!(!standard.is_empty());
            }
            other => panic!("{token}: {other:?}"),
        }
        assert!(read(token, pos, Mode::Lenient).is_ok(), "{token}");
    }
    // Both rooks on Black's file 2: naming one by the file is an archive habit, fine leniently
    // when only one of them can make the move.
    let doubled = Position::from_fen("4k4/1r7/1r7/9/9/9/9/9/9/3K5 b").unwrap();
    assert_eq!(
        read("車２進４", &doubled, Mode::Lenient)
            .unwrap()
            .to_string(),
        "b7b3"
    );
    let strict = read("車２進４", &doubled, Mode::Strict).unwrap_err();
    assert_eq!(strict.kind(), "not_strict");
    assert!(strict.to_string().contains("前车进４"), "{strict}"); // b7 is the front rook for Black
    // Both rooks can go sideways to file 3: ambiguous even leniently.
    assert_eq!(
        read("車２平３", &doubled, Mode::Lenient)
            .unwrap_err()
            .kind(),
        "ambiguous"
    );
}

#[test]
fn error_kinds() {
    let start = Position::new();
    let kind = |t: &str| read(t, &start, Mode::Lenient).unwrap_err().kind();
    assert_eq!(kind("炮二平十"), "syntax");
    assert_eq!(kind("车二进一"), "no_piece");
    assert_eq!(kind("车一进五"), "cannot_reach");
    assert_eq!(kind("马二进四"), "cannot_reach");
    assert_eq!(kind("h5h6"), "no_piece");
    assert_eq!(kind("e6e5"), "no_piece");
    assert_eq!(kind("a0a5"), "cannot_reach");
    // The only piece between the kings may not step aside.
    let facing = Position::from_fen("4k4/9/9/9/4C4/9/9/9/9/4K4 w").unwrap();
    let err = read("炮五平四", &facing, Mode::Lenient).unwrap_err();
    assert_eq!(err.kind(), "illegal");
    assert!(err.to_string().contains("将帅对面"), "{err}");
}

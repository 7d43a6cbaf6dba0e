//! Pictures: the SVG board (text snapshot-tested) and the HTML ruling report, and both rendered
//! in a real browser — headless Chromium, where one is installed (`apt-get install chromium`);
//! without it the browser test says so and checks only the documents.

#![allow(clippy::unwrap_used, clippy::print_stderr)] // tests: a panic is the failure report

mod support;

use std::{path::Path, process::Command};

use support::xq;

#[test]
fn a_board_with_the_last_move_and_an_arrow() {
    let run = xq(&[
        "render",
        "--fen",
        "3k5/9/9/9/9/9/9/9/4A4/R3K4 w",
        "--moves",
        "a0a9",
        "--arrow",
        "a9d9",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let svg = run.stdout;
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    // Four pieces (the red ones with a second ring), no text element: every character is an
    // outline.
    assert_eq!(svg.matches("<circle").count(), 4 + 3);
    assert!(!svg.contains("<text"));
    assert!(svg.contains("marker-end=\"url(#attack)\""));
    insta::assert_snapshot!("board_svg", svg);
    let flipped = xq(&["render", "--fen", "3k5/9/9/9/9/9/9/9/4A4/R3K4 w", "--flip"]).stdout;
    assert_ne!(
        flipped,
        xq(&["render", "--fen", "3k5/9/9/9/9/9/9/9/4A4/R3K4 w"]).stdout
    );
}

#[test]
fn a_position_of_a_record_by_its_ply() {
    // Ply 9 of the game is 炮二平五 (h2e2), after the horses went out and back twice.
    let from_record = xq(&["render", "fixtures/judge/two-repetitions.pgn", "--ply", "9"]);
    assert_eq!(from_record.code, 0, "{}", from_record.stderr);
    let moves = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9 h2e2";
    let from_moves = xq(&["render", "--moves", moves]);
    assert_eq!(from_record.stdout, from_moves.stdout);
    let start = xq(&["render"]);
    assert_ne!(from_record.stdout, start.stdout);
    let beyond = xq(&[
        "render",
        "fixtures/judge/two-repetitions.pgn",
        "--ply",
        "15",
    ]);
    assert_eq!(
        (beyond.code, beyond.stderr.as_str()),
        (2, "xq: --ply 15: the line has only 14 plies\n")
    );
}

#[test]
fn the_html_report_is_one_self_contained_file() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("report.html");
    let run = xq(&[
        "judge",
        "fixtures/judge/cxa2020-figure-2.txt",
        "--format",
        "html",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    // No network: no scripts, links, images or fonts fetched from anywhere.
    for banned in ["<script", "<link", "src=", "@import", "url(http"] {
        assert!(!html.contains(banned), "{banned}");
    }
    // The start position and a board per move of the cycle, each with its nature.
    assert_eq!(html.matches("<svg").count(), 1 + 4);
    assert_eq!(html.matches("class=\"nature\"").count(), 4);
    assert!(html.contains("红方须变着"));
    assert!(html.contains("25.3"));
    assert!(html.contains("@media print"));
}

fn chromium() -> Option<&'static str> {
    [
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ]
    .into_iter()
    .find(|p| Path::new(p).exists())
}

/// Renders `page` to a PNG of `size` with headless Chromium.
fn screenshot(browser: &str, page: &Path, png: &Path, size: &str, profile: &Path) -> bool {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--window-size={size}"),
            &format!("--screenshot={}", png.display()),
            &format!("file://{}", page.display()),
        ])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn a_real_browser_draws_the_board_and_the_report() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: no Chromium installed (apt-get install chromium to run this test)");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("board.svg");
    let html = tmp.path().join("report.html");
    assert_eq!(xq(&["render", "-o", svg.to_str().unwrap()]).code, 0);
    assert_eq!(
        xq(&[
            "judge",
            "fixtures/judge/cxa2020-figure-2.txt",
            "--format",
            "html",
            "-o",
            html.to_str().unwrap()
        ])
        .code,
        0
    );
    for (page, size) in [(&svg, "600,720"), (&html, "420,2400")] {
        let png = page.with_extension("png");
        assert!(
            screenshot(browser, page, &png, size, &tmp.path().join("profile")),
            "Chromium failed on {}",
            page.display()
        );
        let bytes = std::fs::read(&png).unwrap();
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
        // A blank page compresses to a few kilobytes; a drawn board to tens.
        assert!(
            bytes.len() > 20_000,
            "{}: {} bytes",
            png.display(),
            bytes.len()
        );
    }
}

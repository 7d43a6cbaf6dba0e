//! Pictures: the SVG board (text snapshot-tested) and the HTML ruling report, and both rendered
//! in a real browser — headless Chromium, where one is installed (`apt-get install chromium`, or
//! the one `XQ_CHROMIUM` names); without it the browser tests say so and check only the
//! documents.

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
    // Four pieces (the red ones with a second ring), the dashed ring on the point the rook left,
    // the disc of the side to move (Black: one ring); no text element: every character is an
    // outline.
    assert_eq!(svg.matches("<circle").count(), 4 + 3 + 1 + 1);
    assert!(svg.contains("stroke-dasharray") && svg.contains("Black to move"));
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

/// Headless Chromium: `XQ_CHROMIUM` if set, else the first of chromium, chromium-browser and
/// google-chrome on the PATH.
fn chromium() -> Option<String> {
    if let Some(path) = std::env::var_os("XQ_CHROMIUM") {
        return Some(path.to_string_lossy().into_owned());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| {
            ["chromium", "chromium-browser", "google-chrome"].map(|name| dir.join(name))
        })
        .find(|p| p.is_file())
        .map(|p| p.to_string_lossy().into_owned())
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
    let browser = browser.as_str();
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

/// A page script that draws each non-ASCII character of the page's text on a canvas in the
/// body's fonts and compares it with a private-use character no font has (the "tofu" box), then
/// writes `checked N tofu CHARS` into the page.
const TOFU_PROBE: &str = r#"<script>(async () => {
  const out = document.createElement('pre');
  out.id = 'probe';
  try {
    await document.fonts.ready;
    const chars = [...new Set([...document.body.innerText].filter(c => c.codePointAt(0) > 127 && c.trim() !== ''))];
    const family = getComputedStyle(document.body).fontFamily;
    await document.fonts.load('40px ' + family, chars.join(''));
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 48;
    const g = canvas.getContext('2d', { willReadFrequently: true });
    const draw = c => {
      g.clearRect(0, 0, 48, 48);
      g.font = '40px ' + family;
      g.fillText(c, 2, 40);
      return g.getImageData(0, 0, 48, 48).data.join(',');
    };
    const tofu = draw('\uE000');
    out.textContent = 'checked ' + chars.length + ' tofu ' + chars.filter(c => draw(c) === tofu).join('');
  } catch (e) {
    out.textContent = 'error ' + e;
  }
  document.body.appendChild(out);
})();</script>"#;

/// What [`TOFU_PROBE`] found on `page` in Chromium with the fonts `fonts_conf` lists: the
/// number of characters checked and those drawn as tofu.
fn tofu(browser: &str, page: &Path, fonts_conf: &Path, profile: &Path) -> (usize, String) {
    let run = Command::new(browser)
        .env("FONTCONFIG_FILE", fonts_conf)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--virtual-time-budget=10000",
            &format!("--user-data-dir={}", profile.display()),
            "--dump-dom",
            &format!("file://{}", page.display()),
        ])
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&run.stdout);
    let found = dom
        .split("<pre id=\"probe\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| panic!("no probe result: {dom:.500}"));
    let rest = found
        .strip_prefix("checked ")
        .unwrap_or_else(|| panic!("{found}"));
    let (n, tofu) = rest
        .split_once(" tofu ")
        .unwrap_or_else(|| panic!("{found}"));
    (n.parse().unwrap(), tofu.to_owned())
}

#[test]
fn the_html_report_reads_in_a_browser_without_any_cjk_font() {
    let Some(browser) = chromium() else {
        eprintln!(
            "skipped: no Chromium to render the report with (install chromium, or set XQ_CHROMIUM to one)"
        );
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    // Fonts for the browser: DejaVu (no CJK) where installed, nothing else.
    let conf = tmp.path().join("fonts.conf");
    std::fs::write(
        &conf,
        format!(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>{}</cachedir></fontconfig>\n",
            tmp.path().join("fc-cache").display()
        ),
    )
    .unwrap();
    // A record that names its event and players, in simplified and traditional characters.
    let record = std::fs::read_to_string("fixtures/judge/two-repetitions.pgn")
        .unwrap()
        .replace("xq fixture: two repetitions in one game", "全国象棋个人赛")
        .replace("[Red \"Red\"]", "[Red \"許銀川\"]")
        .replace("[Black \"Black\"]", "[Black \"吕钦\"]");
    let pgn = tmp.path().join("named.pgn");
    std::fs::write(&pgn, record).unwrap();
    for lang in ["zh", "en"] {
        let html = tmp.path().join(format!("{lang}.html"));
        let run = xq(&[
            "judge",
            pgn.to_str().unwrap(),
            "--format",
            "html",
            "--lang",
            lang,
            "-o",
            html.to_str().unwrap(),
        ]);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""));
        let page = std::fs::read_to_string(&html)
            .unwrap()
            .replace("</body>", &format!("{TOFU_PROBE}</body>"));
        // The same page without its font: the control, that shows the probe sees tofu here.
        let face = page.find("@font-face{").unwrap();
        let face_end = face + page[face..].find('}').unwrap() + 1;
        let bare = format!("{}{}", &page[..face], &page[face_end..]);
        let (probed, bare_page) = (tmp.path().join("probed.html"), tmp.path().join("bare.html"));
        std::fs::write(&probed, &page).unwrap();
        std::fs::write(&bare_page, &bare).unwrap();
        let profile = tmp.path().join("profile");
        let (checked, boxes) = tofu(&browser, &probed, &conf, &profile);
        let (bare_checked, bare_boxes) = tofu(&browser, &bare_page, &conf, &profile);
        eprintln!("{lang}: {checked} checked; without the font, tofu: {bare_boxes}");
        assert!(checked > 15, "{lang}: only {checked} characters checked");
        assert_eq!(bare_checked, checked);
        assert!(
            ["許", "銀", "吕", "马", "进"]
                .iter()
                .all(|c| bare_boxes.contains(c)),
            "{lang}: without the inlined font the browser should draw tofu here (is a CJK font installed?): {bare_boxes}"
        );
        assert_eq!(boxes, "", "{lang}: drawn as tofu with the inlined font");
    }
}

#[test]
fn xq_judge_names_the_characters_the_page_s_font_lacks() {
    let tmp = tempfile::tempdir().unwrap();
    let record = std::fs::read_to_string("fixtures/judge/two-repetitions.pgn")
        .unwrap()
        .replace("[Red \"Red\"]", "[Red \"王\u{2000B}\"]");
    let pgn = tmp.path().join("rare.pgn");
    std::fs::write(&pgn, record).unwrap();
    let html = tmp.path().join("report.html");
    let args = ["judge", pgn.to_str().unwrap(), "--format", "html", "-o"];
    let run = xq(&[&args[..], &[html.to_str().unwrap()]].concat());
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stderr,
        "xq: note: the page's embedded font lacks \u{2000B}: they show only if the reader's fonts have them\n"
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<p class=\"font-note\">以下字符不在本页内嵌的字体中，能否显示取决于读者的字体：\u{2000B}</p>"));
    // Text and JSON need no font: no note.
    let text = xq(&["judge", pgn.to_str().unwrap()]);
    assert_eq!((text.code, text.stderr.as_str()), (0, ""));
}

//! The embedded text glyphs cover xq's own words: every non-ASCII character of the workspace's
//! sources (code lines; comment lines left out) and grammars, the rule `tools/text_glyphs.py`
//! collects them by. A new Chinese word in the code without the table made again fails here.

#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

use std::path::{Path, PathBuf};

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

#[test]
fn every_character_of_xq_s_own_texts_has_a_glyph() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut sources = Vec::new();
    files(&root.join("src"), "rs", &mut sources);
    for krate in std::fs::read_dir(root.join("crates")).unwrap() {
        let src = krate.unwrap().path().join("src");
        if src.is_dir() {
            files(&src, "rs", &mut sources);
        }
    }
    let mut grammars = Vec::new();
    files(&root.join("grammar"), "pest", &mut grammars);
    assert!(sources.len() > 50 && !grammars.is_empty());
    let mut missing = std::collections::BTreeSet::new();
    let mut seen = 0;
    let mut check = |c: char| {
        if !c.is_ascii() {
            seen += 1;
            if !xq_render::text_font_has(c) {
                missing.insert(c);
            }
        }
    };
    for path in &sources {
        for line in std::fs::read_to_string(path).unwrap().lines() {
            if !line.trim_start().starts_with("//") {
                line.chars().for_each(&mut check);
            }
        }
    }
    for path in &grammars {
        std::fs::read_to_string(path)
            .unwrap()
            .chars()
            .for_each(&mut check);
    }
    assert!(seen > 1000, "{seen}");
    assert!(
        missing.is_empty(),
        "not in crates/xq-render/fonts/text-glyphs.bin: {missing:?}; run tools/text_glyphs.py"
    );
}

#[test]
fn the_common_characters_of_names_are_there() {
    // Simplified and traditional forms of common surnames and of event words.
    for c in "王李张張陈陳刘劉杨楊黄黃赵趙吴吳周徐孙孫胡朱高林何郭马馬罗羅梁宋郑鄭谢謝韩韓唐冯馮于董萧蕭程曹袁邓鄧许許傅沈曾彭吕呂苏蘇卢盧蒋蔣蔡贾賈丁魏薛叶葉阎閻余潘杜戴夏钟鍾汪田任姜范方石姚谭譚廖邹鄒熊金陆陸郝孔白崔康毛邱秦江史顾顧侯邵孟龙龍万萬段雷钱錢汤湯尹黎易常武乔喬贺賀赖賴龚龔文锦標标赛賽杯届屆甲级級联聯".chars() {
        assert!(xq_render::text_font_has(c), "{c}");
    }
    assert!(
        !xq_render::text_font_has('\u{2000B}'),
        "extension B is not embedded"
    );
}

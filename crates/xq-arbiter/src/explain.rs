//! One-sentence explanations of move natures, in Chinese or English.

use xq_core::{Color, Piece, Position, Role, Square};

use crate::facts::{Chase, Classified, IdleReason, Protection, Reason};

/// The language of explanations.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// 中文.
    #[default]
    Chinese,
    /// English.
    English,
}

fn piece_zh(piece: Piece) -> String {
    format!(
        "{}{}",
        if piece.color == Color::Red {
            "红"
        } else {
            "黑"
        },
        piece.chinese()
    )
}

fn piece_en(piece: Piece) -> String {
    format!("{} {}", piece.color.name(), piece.role.name())
}

fn named(pos: &Position, sq: Square, lang: Lang) -> String {
    match (pos.piece_at(sq), lang) {
        (Some(p), Lang::Chinese) => format!("{}({sq})", piece_zh(p)),
        (Some(p), Lang::English) => format!("the {} on {sq}", piece_en(p)),
        (None, Lang::Chinese) => format!("({sq})"),
        (None, Lang::English) => format!("the piece on {sq}"),
    }
}

fn letter_piece(letter: char) -> Option<Piece> {
    Piece::from_fen_char(letter)
}

fn chase_sentence(ch: &Chase, lang: Lang) -> String {
    let target = letter_piece(ch.target_piece);
    let attacker = letter_piece(ch.attacker_piece);
    let (t, a) = match lang {
        Lang::Chinese => (
            target.map_or_else(String::new, piece_zh) + &format!("({})", ch.target),
            attacker.map_or_else(String::new, piece_zh) + &format!("({})", ch.attacker),
        ),
        Lang::English => (
            format!(
                "the {} on {}",
                target.map_or_else(String::new, piece_en),
                ch.target
            ),
            format!(
                "the {} on {}",
                attacker.map_or_else(String::new, piece_en),
                ch.attacker
            ),
        ),
    };
    let others: Vec<String> = ch
        .pieces
        .iter()
        .filter(|&&s| s != ch.attacker)
        .map(ToString::to_string)
        .collect();
    match lang {
        Lang::Chinese => {
            let why = match ch.protection {
                Protection::Unprotected => "无根",
                Protection::FakeRoot => "假根（保护子不能合法反吃或反吃即被杀）",
                Protection::UnderProtected => "少根（保护子少于进攻子）",
                Protection::OutweighsAttacker => "价值高于进攻子，有根亦失子",
                Protection::ByChecks => "可借将军得子",
                Protection::ExchangeWins => "完整互吃后得子",
                Protection::ExchangeTrap => "对方兑子即失子或被杀",
            };
            let mut s = format!("{a}捉{t}，{why}");
            if ch.joint {
                s.push_str(&format!("，联合捉（{}参与）", others.join("、")));
            }
            if ch.each_takes_each {
                s.push_str("，各吃各子价值相当按捉");
            }
            s
        }
        Lang::English => {
            let why = match ch.protection {
                Protection::Unprotected => "unprotected",
                Protection::FakeRoot => {
                    "only falsely protected (its protector cannot legally take back, or taking back allows mate)"
                }
                Protection::UnderProtected => "under-protected (fewer protectors than attackers)",
                Protection::OutweighsAttacker => {
                    "worth more than its attacker, so lost even if protected"
                }
                Protection::ByChecks => "won by a series of checks",
                Protection::ExchangeWins => "lost in the complete exchange",
                Protection::ExchangeTrap => {
                    "an exchange the opponent cannot accept without loss or mate"
                }
            };
            let mut s = format!("{a} attacks {t}, {why}");
            if ch.joint {
                s.push_str(&format!("; a joint chase with {}", others.join(", ")));
            }
            if ch.each_takes_each {
                s.push_str("; even if each side takes a piece, which counts as a chase");
            }
            s
        }
    }
}

/// A one-sentence explanation of `c`, played in `before`.
pub fn explain(before: &Position, c: &Classified, lang: Lang) -> String {
    let mut after = before.clone();
    after.play_unchecked(c.m);
    let mover = named(&after, c.m.to, lang);
    let zh = lang == Lang::Chinese;
    match &c.reason {
        Reason::Check { checkers, chases } => {
            let king = after.king(c.side.other());
            let by: Vec<String> = checkers.iter().map(|&s| named(&after, s, lang)).collect();
            let also: Vec<String> = chases.iter().map(|ch| chase_sentence(ch, lang)).collect();
            match (zh, also.is_empty()) {
                (true, true) => format!("将：{}照将{}", by.join("、"), named(&after, king, lang)),
                (true, false) => format!(
                    "将：{}照将{}，同时捉子：{}",
                    by.join("、"),
                    named(&after, king, lang),
                    also.join("；")
                ),
                (false, true) => format!(
                    "check: {} attacks {}",
                    by.join(" and "),
                    named(&after, king, lang)
                ),
                (false, false) => format!(
                    "check: {} attacks {}, and the move chases as well: {}",
                    by.join(" and "),
                    named(&after, king, lang),
                    also.join("; ")
                ),
            }
        }
        Reason::MateThreat { line } => {
            if zh {
                format!("杀：若对方停着，可连续将军成杀（{}）", line.join(" "))
            } else {
                format!(
                    "mate threat: were the opponent to pass, checks mate ({})",
                    line.join(" ")
                )
            }
        }
        Reason::Chase { chases } => {
            // One sentence a chase, said once: chases that differ only in their winning line
            // (a series of checks that may start in several ways) read alike.
            // A chase won by checks names its line (the first, when several win alike).
            let mut said: Vec<String> = Vec::new();
            let mut parts: Vec<String> = Vec::new();
            for ch in chases {
                let sentence = chase_sentence(ch, lang);
                if said.contains(&sentence) {
                    continue;
                }
                let line = ch.line.join(" ");
                parts.push(match (ch.protection, zh) {
                    (Protection::ByChecks, true) if !line.is_empty() => {
                        format!("{sentence}（如 {line}）")
                    }
                    (Protection::ByChecks, false) if !line.is_empty() => {
                        format!("{sentence} (as {line})")
                    }
                    _ => sentence.clone(),
                });
                said.push(sentence);
            }
            if zh {
                format!("捉：{}", parts.join("；"))
            } else {
                format!("chase: {}", parts.join("; "))
            }
        }
        Reason::Exchange { piece, partner } => {
            let offered = named(&after, *piece, lang);
            let partner = named(&after, *partner, lang);
            match (zh, *piece == c.m.to) {
                (true, true) => format!("兑：{mover}邀兑同类子{partner}，对方兑子并不吃亏"),
                (true, false) => {
                    format!("兑：走后{offered}与同类子{partner}相对（邀兑），对方兑子并不吃亏")
                }
                (false, true) => {
                    format!("exchange offer: {mover} faces {partner}, and taking is an even trade")
                }
                (false, false) => format!(
                    "exchange offer: the move sets {offered} against {partner}, and taking is an even trade"
                ),
            }
        }
        Reason::PressesExchange { piece, partner } => {
            let ours = named(&after, *piece, lang);
            let partner = named(&after, *partner, lang);
            if zh {
                format!(
                    "兑：走后可吃{partner}，但它与同类子{ours}相对，对方可以兑子，按兑处理（26.10）"
                )
            } else {
                format!(
                    "exchange offer: the move threatens {partner}, which faces {ours} of the same kind; the opponent may exchange instead (26.10)"
                )
            }
        }
        Reason::Offer { takers, .. } => {
            let by: Vec<String> = takers.iter().map(|&s| named(&after, s, lang)).collect();
            if zh {
                format!("献：{mover}送至{}口中，对方吃子并不吃亏", by.join("、"))
            } else {
                format!(
                    "offer: {mover} can be taken by {} without loss",
                    by.join(" or ")
                )
            }
        }
        Reason::Block { blocked, .. } => {
            let by: Vec<String> = blocked.iter().map(|&s| named(&after, s, lang)).collect();
            if zh {
                format!("拦：{mover}阻挡{}的行动，本身不构成攻击", by.join("、"))
            } else {
                format!(
                    "block: {mover} stands in the way of {} without attacking",
                    by.join(" and ")
                )
            }
        }
        Reason::Follow { targets, .. } => {
            let t: Vec<String> = targets.iter().map(|&s| named(&after, s, lang)).collect();
            if zh {
                format!("跟：{mover}跟住有根的{}，吃之不能得子", t.join("、"))
            } else {
                format!(
                    "follow: {mover} shadows {} (protected), which it cannot win",
                    t.join(" and ")
                )
            }
        }
        Reason::Idle(why) => idle(&after, why, lang),
    }
}

fn idle(after: &Position, why: &IdleReason, lang: Lang) -> String {
    let list = |targets: &[Square]| -> String {
        let names: Vec<String> = targets.iter().map(|&s| named(after, s, lang)).collect();
        names.join(if lang == Lang::Chinese { "、" } else { ", " })
    };
    match (why, lang) {
        (IdleReason::NothingNew, Lang::Chinese) => "闲：走后没有新的将、杀或捉".to_owned(),
        (IdleReason::NothingNew, Lang::English) => {
            "idle: no new check, mate threat or chase".to_owned()
        }
        (IdleReason::KingAnswersCheck, Lang::Chinese) => {
            "闲：帅（将）应将，所生之捉或杀按闲处理（26.1）".to_owned()
        }
        (IdleReason::KingAnswersCheck, Lang::English) => {
            "idle: the king answers a check; whatever that creates counts as idle (26.1)".to_owned()
        }
        (IdleReason::KingOrPawnAlone { targets }, Lang::Chinese) => {
            format!(
                "闲：兵（卒）或帅（将）本身捉{}，按闲处理（26.1, 26.8）",
                list(targets)
            )
        }
        (IdleReason::KingOrPawnAlone { targets }, Lang::English) => {
            format!(
                "idle: only a king or pawn attacks {}, which counts as idle (26.1, 26.8)",
                list(targets)
            )
        }
        (IdleReason::DrawingKeyPoint { targets }, Lang::Chinese) => {
            format!(
                "闲：守和方唯一进攻子占据要点，附带捉士象{}按闲处理（26.2）",
                list(targets)
            )
        }
        (IdleReason::DrawingKeyPoint { targets }, Lang::English) => format!(
            "idle: the lone attacking piece's incidental attack on {} counts as idle (26.2)",
            list(targets)
        ),
        (IdleReason::CheckerLeftItsPost { targets }, Lang::Chinese) => {
            format!(
                "闲：{}失根系对方离线断根将军所致，责任自负（26.4）",
                list(targets)
            )
        }
        (IdleReason::CheckerLeftItsPost { targets }, Lang::English) => format!(
            "idle: {} lost its protector when that piece left to give check, the checker's own doing (26.4)",
            list(targets)
        ),
        (IdleReason::OnlyEscapes { targets }, Lang::Chinese) => {
            format!(
                "闲：走子只是避开对方的攻击，虽使{}可被吃，但未增加攻击力量（24.3）",
                list(targets)
            )
        }
        (IdleReason::OnlyEscapes { targets }, Lang::English) => format!(
            "idle: the move only steps out of an attack; that this lets {} be won adds no attacking force (24.3)",
            list(targets)
        ),
        (IdleReason::NotNew { targets }, Lang::Chinese) => {
            format!("闲：对{}的攻击走子前已存在（从捉到捉）", list(targets))
        }
        (IdleReason::NotNew { targets }, Lang::English) => {
            format!(
                "idle: the attack on {} existed before the move",
                list(targets)
            )
        }
    }
}

/// The rulebook name of a role in Chinese, for reports.
pub fn role_zh(role: Role) -> char {
    Piece::new(Color::Black, role).chinese()
}

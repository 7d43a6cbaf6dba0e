//! The nature of a move (着法性质): 将 杀 捉 兑 献 拦 跟 闲.

use std::fmt;

use serde::Serialize;

/// One of the eight natures the rulebook gives a move (第24条).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Nature {
    /// 将: gives check.
    Check,
    /// 杀: threatens to mate next move by a check or a series of checks.
    MateThreat,
    /// 捉: threatens to win material next move.
    Chase,
    /// 兑: offers an exchange of same-kind pieces.
    Exchange,
    /// 献: offers a piece.
    Offer,
    /// 拦: blocks an enemy piece without attacking.
    Block,
    /// 跟: shadows a protected enemy piece without attacking.
    Follow,
    /// 闲: none of the others.
    Idle,
}

impl Nature {
    /// All eight, heaviest first.
    pub const ALL: [Nature; 8] = [
        Nature::Check,
        Nature::MateThreat,
        Nature::Chase,
        Nature::Exchange,
        Nature::Offer,
        Nature::Block,
        Nature::Follow,
        Nature::Idle,
    ];

    /// The rulebook's character: 将 杀 捉 兑 献 拦 跟 闲.
    pub const fn chinese(self) -> &'static str {
        match self {
            Nature::Check => "将",
            Nature::MateThreat => "杀",
            Nature::Chase => "捉",
            Nature::Exchange => "兑",
            Nature::Offer => "献",
            Nature::Block => "拦",
            Nature::Follow => "跟",
            Nature::Idle => "闲",
        }
    }

    /// Reads the rulebook's character.
    pub fn from_chinese(text: &str) -> Option<Nature> {
        Nature::ALL.into_iter().find(|n| n.chinese() == text)
    }

    /// The English name.
    pub const fn name(self) -> &'static str {
        match self {
            Nature::Check => "check",
            Nature::MateThreat => "mate threat",
            Nature::Chase => "chase",
            Nature::Exchange => "exchange offer",
            Nature::Offer => "offer",
            Nature::Block => "block",
            Nature::Follow => "follow",
            Nature::Idle => "idle",
        }
    }

    /// The family for the repetition rules: 将, 杀, 捉, or 闲 (兑 献 拦 跟 闲 are all idle moves).
    pub const fn family(self) -> Nature {
        match self {
            Nature::Check | Nature::MateThreat | Nature::Chase => self,
            _ => Nature::Idle,
        }
    }

    /// Whether the move attacks (将, 杀 or 捉), the moves that can make a pattern forbidden.
    pub const fn is_attacking(self) -> bool {
        matches!(self, Nature::Check | Nature::MateThreat | Nature::Chase)
    }
}

impl fmt::Display for Nature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.chinese())
    }
}

//! Xiangqi arbitration: the nature of every move (将 杀 捉 兑 献 拦 跟 闲) with the reason,
//! repetition cycles, the ruling with its clause, and the 60-round limit (自然限着), under the
//! Chinese rules (CXA 2020 棋例) or the Asian rules (AXF). See `docs/arbiter.md` for how each
//! nature and ruling is decided.
//!
//! # Layout
//! - Shared primitives: [`material`] (the rulebook's scale), [`search`] (mate and material
//!   searches), [`threats`] (what a side can win next move), [`quiet`] (mate threats and the 闲
//!   family), [`cycle`] (finding the repetition), [`identity`] (pieces followed through a line),
//!   [`pattern`] (a side's moves over a cycle, named), [`facts`] (what was found, as data).
//! - One module per rule profile, each implementing [`profile::RuleSet`]: [`cxa2020`] and
//!   [`axf`]. A new profile is one more module and one [`Profile`] constant.
//! - Driving them: [`classify`](mod@classify) (each move's nature, asking the profile),
//!   [`judge`](mod@judge) (cycle, natures, patterns, ruling), [`limit`] (the 60-round count),
//!   [`banned`] (the moves a repetition forbids), [`opening`] and [`procedure`] (tournament
//!   procedure), [`explain`](mod@explain) (sentences for people).

#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

pub mod axf;
pub mod banned;
pub mod classify;
pub mod cxa2020;
pub mod cycle;
pub mod explain;
pub mod facts;
pub mod identity;
pub mod judge;
pub mod limit;
pub mod material;
pub mod nature;
pub mod opening;
pub mod pattern;
pub mod procedure;
pub mod profile;
pub mod quiet;
pub mod rule_set;
pub mod ruling;
pub mod search;
mod ser;
pub mod threats;

pub use crate::{
    banned::{BanOptions, BannedMoves, Repeat, banned_moves},
    classify::{Effort, classify, classify_line},
    explain::{Lang, explain},
    facts::{Chase, Classified, IdleReason, Protection, Reason},
    judge::{JudgeOptions, JudgedMove, Judgement, Sides, judge},
    limit::{LimitOptions, LimitReport},
    nature::Nature,
    pattern::Pattern,
    profile::{Profile, RuleSet},
    ruling::{Ruling, Verdict},
};

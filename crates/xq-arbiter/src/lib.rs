//! Xiangqi arbitration under the CXA 2020 rules (棋例): the nature of every move (将 杀 捉 兑 献
//! 拦 跟 闲) with the reason, repetition cycles, the ruling with its clause, and the 60-round
//! limit (自然限着). See `docs/arbiter.md` for how each nature and ruling is decided.

#![warn(missing_docs, clippy::print_stdout, clippy::print_stderr)]

pub mod axf;
pub mod classify;
pub mod cycle;
pub mod explain;
pub mod judge;
pub mod limit;
pub mod material;
pub mod nature;
pub mod procedure;
pub mod profile;
pub mod ruling;
pub mod search;
pub mod threats;

pub use crate::{
    classify::{
        Chase, Classified, Effort, IdleReason, Protection, Reason, classify, classify_line,
    },
    explain::{Lang, explain},
    judge::{JudgeOptions, JudgedMove, Judgement, Sides, judge},
    limit::{LimitOptions, LimitReport},
    nature::Nature,
    profile::Profile,
    ruling::{Pattern, Ruling, Verdict},
};

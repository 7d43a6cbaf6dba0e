//! `xq perft`.

use std::{io::Write, time::Instant};

use serde::Serialize;
use xq_core::perft;

use crate::{
    CliError, ExitStatus,
    args::{Format, PerftArgs},
};

#[derive(Serialize)]
struct PerftReport {
    fen: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<DivideEntry>>,
}

#[derive(Serialize)]
struct DivideEntry {
    #[serde(rename = "move")]
    m: String,
    nodes: u64,
}

pub(crate) fn run(args: &PerftArgs, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let pos = super::parse_fen(args.fen.as_deref().unwrap_or(xq_core::START_FEN), false)?;
    let started = Instant::now();
    let (nodes, divide) = if args.divide {
        let split = perft::divide(&pos, args.depth);
        let total = if args.depth == 0 {
            1
        } else {
            split.iter().map(|(_, n)| n).sum()
        };
        (total, Some(split))
    } else {
        (perft::perft(&pos, args.depth), None)
    };
    let seconds = started.elapsed().as_secs_f64();
    let report = PerftReport {
        fen: pos.fen(),
        depth: args.depth,
        nodes,
        seconds,
        nodes_per_second: if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        },
        divide: divide.map(|split| {
            split
                .into_iter()
                .map(|(m, nodes)| DivideEntry {
                    m: m.to_string(),
                    nodes,
                })
                .collect()
        }),
    };
    match args.format {
        Format::Json => {
            serde_json::to_writer(&mut *out, &report).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Format::Text => {
            if let Some(entries) = &report.divide {
                for entry in entries {
                    writeln!(out, "{} {}", entry.m, entry.nodes)?;
                }
                writeln!(out)?;
            }
            writeln!(out, "depth {} nodes {}", report.depth, report.nodes)?;
            writeln!(
                out,
                "time {:.3} s ({:.1} M nodes/s)",
                report.seconds,
                report.nodes_per_second / 1e6
            )?;
        }
    }
    Ok(ExitStatus::Success)
}

//! Rebuilding a move tree from records in pre-order (XQF, CBR): each record is a move that
//! continues its line unless it ends it, and may have an alternative; the alternative to a move
//! comes after that move's continuation. Built without recursion over lines, so a hostile file
//! cannot exhaust the stack.

use xq_core::Move;

use crate::{
    error::{ReadError, ReadErrorKind},
    game::Node,
    pgn::MAX_DEPTH,
};

/// One record of a pre-order tree.
pub(crate) struct PreNode {
    pub(crate) m: Move,
    pub(crate) comment: Option<String>,
    /// The line ends after this move.
    pub(crate) ends: bool,
    /// Another move replaces this one (it follows this move's continuation).
    pub(crate) sibling: bool,
}

/// The tree of `records` (the root excluded); `root_ends` when the root has no moves after it.
pub(crate) fn from_preorder(
    records: Vec<PreNode>,
    root_ends: bool,
) -> Result<Vec<Node>, ReadError> {
    // Lines in an arena; a node's variations are line ids until the end.
    let mut lines: Vec<Vec<(Node, Vec<usize>)>> = vec![Vec::new()];
    let mut depth = vec![0usize];
    let mut current = 0usize;
    // Moves waiting for an alternative, as (line, index) of the move the alternative replaces.
    let mut pending: Vec<(usize, usize)> = Vec::new();
    // For each line that is an alternative, the move it replaces.
    let mut replaces: Vec<Option<(usize, usize)>> = vec![None];
    let mut ended = root_ends;
    for r in records {
        if ended {
            // The next record is the alternative to the latest move waiting for one.
            let Some((line, index)) = pending.pop() else {
                break;
            };
            if depth[line] + 1 > MAX_DEPTH {
                return Err(ReadError::new(
                    ReadErrorKind::TooDeep,
                    format!("variations nested deeper than {MAX_DEPTH} levels"),
                ));
            }
            lines.push(Vec::new());
            depth.push(depth[line] + 1);
            replaces.push(Some((line, index)));
            let id = lines.len() - 1;
            lines[line][index].1.push(id);
            current = id;
        }
        let mut node = Node::coord(r.m);
        node.set_comment(r.comment);
        lines[current].push((node, Vec::new()));
        if r.sibling {
            // Another move replaces this one. The first move of an alternative stands where the
            // move it replaces stands: its own alternatives are siblings of it, alternatives to
            // that same move, not variations inside it.
            let here = (current, lines[current].len() - 1);
            let anchor = match replaces[current] {
                Some(replaced) if here.1 == 0 => replaced,
                _ => here,
            };
            pending.push(anchor);
        }
        ended = r.ends;
    }
    Ok(assemble(&mut lines, 0))
}

/// Line `id` with its variations in place (recursion as deep as the nesting, which is capped).
fn assemble(lines: &mut Vec<Vec<(Node, Vec<usize>)>>, id: usize) -> Vec<Node> {
    let line = std::mem::take(&mut lines[id]);
    line.into_iter()
        .map(|(mut node, variations)| {
            node.set_variations(variations.into_iter().map(|v| assemble(lines, v)).collect());
            node
        })
        .collect()
}

//! `-` as an input: standard input, read once into a file named `stdin` in a fresh temporary
//! directory, so that every command reads it like any record (the format told from the content;
//! a message names it `…/stdin`; a caret can show its lines). The directory goes when the command
//! ends.

use std::{io::Read, path::PathBuf};

use crate::{
    CliError,
    args::{Cli, Command},
};

/// Replaces every `-` among the command's inputs with standard input spooled to a file; the
/// directory it returns must live as long as the command runs.
pub(crate) fn spool(cli: &mut Cli) -> Result<Option<tempfile::TempDir>, CliError> {
    let mut inputs: Vec<&mut PathBuf> = match &mut cli.command {
        Command::Validate(a) => a.paths.iter_mut().collect(),
        Command::Convert(a) => a.inputs.iter_mut().collect(),
        Command::Dataset(a) => a.paths.iter_mut().collect(),
        Command::Show(a) => vec![&mut a.file],
        Command::Judge(a) => a.line.file.iter_mut().collect(),
        Command::Limit(a) => a.line.file.iter_mut().collect(),
        Command::Banned(a) => a.line.file.iter_mut().collect(),
        Command::Render(a) => a.line.file.iter_mut().collect(),
        _ => Vec::new(),
    };
    inputs.retain(|p| p.as_os_str() == "-");
    if inputs.is_empty() {
        return Ok(None);
    }
    let io = |context: &str| {
        let context = context.to_owned();
        move |source| CliError::Io { context, source }
    };
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(io("cannot read standard input"))?;
    let dir = tempfile::Builder::new()
        .prefix("xq-stdin-")
        .tempdir()
        .map_err(io("cannot make a temporary directory for standard input"))?;
    let file = dir.path().join("stdin");
    std::fs::write(&file, &bytes).map_err(io("cannot keep standard input"))?;
    for p in inputs {
        p.clone_from(&file);
    }
    Ok(Some(dir))
}

//! Writing an output file atomically.

use std::{
    fs,
    io::{self, Write},
    path::Path,
};

/// Writes `bytes` to a temporary file beside `path`, then moves it to `path`: replacing an
/// existing file only if `force` (otherwise the error is `AlreadyExists`).
pub(crate) fn write_atomically(path: &Path, bytes: &[u8], force: bool) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    if !force && path.exists() {
        return Err(io::Error::from(io::ErrorKind::AlreadyExists));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.{}.xq-tmp", std::process::id()));
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        if force {
            fs::rename(&tmp, path)
        } else {
            // A hard link fails if the target appeared meanwhile; fall back to a rename where
            // the file system has no hard links.
            match fs::hard_link(&tmp, path) {
                Ok(()) => fs::remove_file(&tmp),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(e),
                Err(_) => fs::rename(&tmp, path),
            }
        }
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Writes `bytes` to `path` atomically (replacing it), or to `out` when there is no path.
pub(crate) fn emit(
    path: Option<&Path>,
    bytes: &[u8],
    out: &mut dyn Write,
) -> Result<(), crate::CliError> {
    match path {
        Some(path) => write_atomically(path, bytes, true).map_err(|source| crate::CliError::Io {
            context: format!("cannot write {}", path.display()),
            source,
        }),
        None => out.write_all(bytes).map_err(crate::CliError::from),
    }
}

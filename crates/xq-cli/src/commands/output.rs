//! Writing an output file safely.
//!
//! * A regular file (or a new name) is written to a temporary file beside it and moved into place,
//!   so a reader never sees half a file. The temporary file has a random name and is created with
//!   `O_EXCL` (the `tempfile` crate): a link planted under a predictable name cannot redirect the
//!   write. Without `force` the move never replaces anything (`persist_noclobber`).
//! * A target that is no regular file — a character device (`/dev/null`, a terminal), a FIFO,
//!   `/dev/stdout` — is written to directly as a stream: it is never replaced by a file.
//! * A symbolic link to a regular file is kept: the file it names is replaced.
//! * Temporary files are removed on error, on drop, and on Ctrl-C / SIGTERM (a handler removes the
//!   ones in flight); a later run removes those that a killed run left beside its outputs.

use std::{
    collections::HashSet,
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
    sync::{Mutex, Once},
};

/// The suffix of every temporary file.
const TMP_SUFFIX: &str = ".xq-tmp";

/// At most this many bytes of the target's name go into its temporary file's name, so that a name
/// legal as a target stays legal with the temporary decoration (255 bytes on most file systems).
const NAME_IN_TMP: usize = 64;

/// Creates the directory `dir` to write into (and its parents), saying, when it names a file
/// (`b.json/` with `b.json` a file, where the system says only that it exists), what to change.
pub(crate) fn create_dir(dir: &Path) -> Result<(), crate::CliError> {
    fs::create_dir_all(dir).map_err(|source| {
        let named: PathBuf = dir.components().collect();
        let file = fs::metadata(named).is_ok_and(|m| m.is_file());
        let why = if file {
            ", which names a file, not a directory (a name ending in / is a directory to write into)"
        } else {
            ""
        };
        crate::CliError::Io {
            context: format!(
                "cannot create the directory {}{why}",
                xq_core::text::visible_path(dir)
            ),
            source,
        }
    })
}

/// Whether an existing regular file may be replaced.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Replace {
    /// Replace it (`--force`, or `-o` of a report).
    Yes,
    /// Never: the error is `AlreadyExists`.
    No,
}

/// How an output was written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Wrote {
    /// A regular file, moved into place.
    File,
    /// A device, FIFO or standard output, written as a stream.
    Stream,
}

/// Temporary files being written, removed by the signal handler.
static IN_FLIGHT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Directories already cleared of stale temporary files in this run.
static CLEANED: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
static HANDLER: Once = Once::new();

/// Removes the temporary files in flight and exits as a shell does after SIGINT (130).
fn install_signal_handler() {
    HANDLER.call_once(|| {
        // Failing to install (another handler exists) leaves drop-time cleanup only.
        let _ = ctrlc::set_handler(|| {
            if let Ok(paths) = IN_FLIGHT.lock() {
                for p in paths.iter() {
                    let _ = fs::remove_file(p);
                }
            }
            std::process::exit(130);
        });
    });
}

/// Writes `bytes` to `path` as described in the module documentation. `-` is standard output.
pub(crate) fn write_output(path: &Path, bytes: &[u8], replace: Replace) -> io::Result<Wrote> {
    let mut output = Output::create(path, replace)?;
    output.write_all(bytes)?;
    output.finish()
}

/// An output being written, piece by piece: a stream, or a temporary file moved into place by
/// [`Output::finish`] (dropped unfinished, the temporary file is removed and nothing replaced).
pub(crate) enum Output {
    /// Standard output, buffered (a record written piece by piece makes a few large writes).
    Stdout(io::BufWriter<io::Stdout>),
    /// A device or FIFO.
    Device(fs::File),
    /// A temporary file, its target, and whether to replace the target.
    File(tempfile::NamedTempFile, PathBuf, Replace),
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Output::Stdout(_) => "Output::Stdout",
            Output::Device(_) => "Output::Device",
            Output::File(..) => "Output::File",
        })
    }
}

impl Output {
    /// Opens `path` for writing as described in the module documentation. Fails with
    /// `AlreadyExists` if it is a regular file and `replace` is `No`.
    pub(crate) fn create(path: &Path, replace: Replace) -> io::Result<Output> {
        if path.as_os_str() == "-" {
            return Ok(Output::Stdout(io::BufWriter::with_capacity(
                1 << 16,
                io::stdout(),
            )));
        }
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "it is a directory",
            )),
            // A device or FIFO: write into it, never replace it.
            Ok(meta) if !meta.is_file() => Ok(Output::Device(
                fs::OpenOptions::new().write(true).open(path)?,
            )),
            Ok(_) if replace == Replace::No => Err(io::Error::from(io::ErrorKind::AlreadyExists)),
            Ok(_) => {
                // A link to a regular file stays a link: the file it names is replaced.
                let real = if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
                    fs::canonicalize(path)?
                } else {
                    path.to_path_buf()
                };
                temporary(&real, Replace::Yes)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if fs::symlink_metadata(path).is_ok() {
                    // A link to nothing: writing through it would create a file anywhere.
                    return Err(io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        "it is a symbolic link to nothing; not followed",
                    ));
                }
                temporary(path, replace)
            }
            Err(e) => Err(e),
        }
    }

    /// Completes the output: flushes a stream, moves a file into place.
    pub(crate) fn finish(self) -> io::Result<Wrote> {
        match self {
            Output::Stdout(mut out) => {
                out.flush()?;
                Ok(Wrote::Stream)
            }
            Output::Device(mut file) => {
                file.flush()?;
                Ok(Wrote::Stream)
            }
            Output::File(tmp, path, replace) => {
                let tmp_path = tmp.path().to_path_buf();
                let result = (|| {
                    tmp.as_file().sync_all()?;
                    match replace {
                        Replace::Yes => tmp.persist(&path).map(drop).map_err(|e| e.error),
                        // `link` + `unlink` (or `renameat2(RENAME_NOREPLACE)`): fails if the
                        // target exists.
                        Replace::No => tmp.persist_noclobber(&path).map(drop).map_err(|e| e.error),
                    }
                })();
                if let Ok(mut list) = IN_FLIGHT.lock() {
                    list.retain(|p| p != &tmp_path);
                }
                result.map(|()| Wrote::File)
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(out) => out.write(buf),
            Output::Device(file) => file.write(buf),
            Output::File(tmp, ..) => tmp.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(out) => out.flush(),
            Output::Device(file) => file.flush(),
            Output::File(tmp, ..) => tmp.flush(),
        }
    }
}

/// A temporary file beside `path`, to be moved to `path`.
fn temporary(path: &Path, replace: Replace) -> io::Result<Output> {
    let dir = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => dir.to_path_buf(),
        None => PathBuf::from("."),
    };
    // The directory is the caller's to make (a mistyped path is not created).
    if !dir.is_dir() {
        return Err(if dir.exists() {
            io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a directory", xq_core::text::visible_path(&dir)),
            )
        } else {
            io::Error::new(io::ErrorKind::NotFound, "its directory does not exist")
        });
    }
    remove_stale_temporaries(&dir);
    install_signal_handler();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut builder = tempfile::Builder::new();
    let prefix = format!(".{}.{}.", shorten(&name, NAME_IN_TMP), std::process::id());
    builder.prefix(&prefix).suffix(TMP_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // As `File::create` would: everyone may read unless the umask says otherwise (the
        // replaced file's own mode when there is one).
        let mode = fs::metadata(path).map_or(0o666, |m| m.permissions().mode() & 0o7777);
        builder.permissions(fs::Permissions::from_mode(mode));
    }
    let tmp = builder.tempfile_in(&dir)?;
    if let Ok(mut list) = IN_FLIGHT.lock() {
        list.push(tmp.path().to_path_buf());
    }
    Ok(Output::File(tmp, path.to_path_buf(), replace))
}

/// At most `max` bytes of `name`, cut at a character boundary.
fn shorten(name: &str, max: usize) -> &str {
    let mut end = name.len().min(max);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// Removes, once per run and directory, the temporary files of runs that no longer exist (their
/// process id, in the name, is not running) or, where that cannot be told, that are a day old.
fn remove_stale_temporaries(dir: &Path) {
    {
        let Ok(mut cleaned) = CLEANED.lock() else {
            return;
        };
        if !cleaned
            .get_or_insert_with(HashSet::new)
            .insert(dir.to_path_buf())
        {
            return;
        }
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let proc_fs = Path::new("/proc/self").exists();
    let own = std::process::id().to_string();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = temporary_pid(name) else {
            continue;
        };
        if pid == own {
            continue;
        }
        // Only files and links (a link is removed, never followed).
        let Ok(meta) = entry.metadata() else { continue };
        if meta.is_dir() {
            continue;
        }
        let dead = if proc_fs {
            !Path::new("/proc").join(pid).exists()
        } else {
            meta.modified()
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 24 * 3600)
        };
        if dead {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The process id in a temporary file's name `.NAME.PID.RANDOM.xq-tmp`.
fn temporary_pid(name: &str) -> Option<&str> {
    let inner = name.strip_prefix('.')?.strip_suffix(TMP_SUFFIX)?;
    let mut parts = inner.rsplitn(3, '.');
    let _random = parts.next()?;
    let pid = parts.next()?;
    let _name = parts.next()?;
    (!pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())).then_some(pid)
}

/// Writes `bytes` to `path` (replacing a file, streaming into a device), or to `out` when there is
/// no path.
pub(crate) fn emit(
    path: Option<&Path>,
    bytes: &[u8],
    out: &mut dyn Write,
) -> Result<(), crate::CliError> {
    match path {
        Some(path) => write_output(path, bytes, Replace::Yes)
            .map(drop)
            .map_err(|source| crate::CliError::Io {
                context: format!("cannot write {}", path.display()),
                source,
            }),
        None => out.write_all(bytes).map_err(crate::CliError::from),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn temporary_names_carry_the_process_id() {
        assert_eq!(temporary_pid(".a.json.123.Xy7aQ1.xq-tmp"), Some("123"));
        assert_eq!(temporary_pid(".a.json.xq-tmp"), None);
        assert_eq!(temporary_pid("a.json"), None);
    }

    #[test]
    fn a_long_legal_name_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("{}.json", "名".repeat(82)));
        assert!(path.file_name().unwrap().len() <= 255);
        write_output(&path, b"{}", Replace::No).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"{}");
    }

    #[test]
    fn a_planted_link_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "keep").unwrap();
        // The old predictable temporary name, and a dangling target link.
        #[cfg(unix)]
        {
            let pid = std::process::id();
            std::os::unix::fs::symlink(&victim, dir.path().join(format!(".out.{pid}.xq-tmp")))
                .unwrap();
            std::os::unix::fs::symlink(dir.path().join("nowhere"), dir.path().join("dangling"))
                .unwrap();
            assert!(write_output(&dir.path().join("dangling"), b"x", Replace::Yes).is_err());
            assert!(!dir.path().join("nowhere").exists());
        }
        write_output(&dir.path().join("out"), b"new", Replace::Yes).unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
        assert_eq!(fs::read_to_string(dir.path().join("out")).unwrap(), "new");
    }

    #[test]
    fn stale_temporaries_of_dead_runs_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        // A process id that cannot be running (above the kernel's maximum).
        let stale = dir.path().join(".a.json.4294967295.abcdef.xq-tmp");
        fs::write(&stale, "half").unwrap();
        let other = dir.path().join(".notes.txt");
        fs::write(&other, "mine").unwrap();
        write_output(&dir.path().join("a.json"), b"{}", Replace::Yes).unwrap();
        if Path::new("/proc/self").exists() {
            assert!(!stale.exists());
        }
        assert!(other.exists());
    }
}

//! The files a batch command works on: files named on the command line, and record files found
//! below directories.

use std::{
    fs,
    path::{Path, PathBuf},
};

/// Extensions of record files looked for in directories.
pub(crate) const RECORD_EXTENSIONS: &[&str] = &[
    "pgn", "xqf", "cbr", "cbl", "cbf", "txt", "json", "htm", "html", "ubb",
];

/// Extensions that other files share (notes, web pages, data): found in a directory, such a file
/// is skipped when its content is not a game record.
pub(crate) const SHARED_EXTENSIONS: &[&str] = &["txt", "json", "htm", "html"];

/// One file to work on.
#[derive(Debug, Clone)]
pub(crate) struct Input {
    /// The file.
    pub(crate) path: PathBuf,
    /// The path for reports: as given, or the directory argument joined with the path below it;
    /// control characters and bytes that are not UTF-8 escaped (`xq_core::text::visible_path`).
    pub(crate) display: String,
    /// The path below the directory argument (the file name for a file argument).
    pub(crate) relative: PathBuf,
    /// Whether the file was found in a directory (rather than named).
    pub(crate) found: bool,
}

impl Input {
    /// Whether the file's extension is shared with files that are not records.
    pub(crate) fn may_not_be_a_record(&self) -> bool {
        self.found && extension_in(&self.path, SHARED_EXTENSIONS)
    }
}

fn extension_in(path: &Path, list: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| list.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// A path argument that cannot be used.
#[derive(Debug)]
pub(crate) struct Missing {
    /// The path as given.
    pub(crate) display: String,
    /// Why.
    pub(crate) error: std::io::Error,
}

/// The files named by `paths`, in order, each directory's files sorted by path.
pub(crate) fn collect(paths: &[PathBuf]) -> (Vec<Input>, Vec<Missing>) {
    let mut inputs = Vec::new();
    let mut missing = Vec::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                let mut found = Vec::new();
                walk(path, &mut found, &mut missing);
                inputs.extend(found.into_iter().map(|file| {
                    let relative = file
                        .strip_prefix(path)
                        .map_or_else(|_| file.clone(), Path::to_path_buf);
                    Input {
                        display: xq_core::text::visible_path(&file),
                        path: file,
                        relative,
                        found: true,
                    }
                }));
            }
            Ok(_) => inputs.push(Input {
                path: path.clone(),
                display: xq_core::text::visible_path(path),
                relative: path.file_name().map_or_else(|| path.clone(), PathBuf::from),
                found: false,
            }),
            Err(error) => missing.push(Missing {
                display: xq_core::text::visible_path(path),
                error,
            }),
        }
    }
    (inputs, missing)
}

/// Record files below `dir` (symbolic links to directories are not followed: no loops).
fn walk(dir: &Path, out: &mut Vec<PathBuf>, missing: &mut Vec<Missing>) {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) => {
            missing.push(Missing {
                display: xq_core::text::visible_path(dir),
                error,
            });
            return;
        }
    };
    // Sorted by name, directory by directory: the order is the same on every machine (and
    // comparing names is far cheaper than comparing whole paths).
    let mut listed = Vec::new();
    for entry in entries {
        match entry {
            Ok(entry) => listed.push((entry.file_name(), entry)),
            Err(error) => missing.push(Missing {
                display: xq_core::text::visible_path(dir),
                error,
            }),
        }
    }
    listed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for (_, entry) in listed {
        let path = entry.path();
        // The entry's type comes with the listing; only a link needs a look at its target.
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            walk(&path, out, missing);
        } else if extension_in(&path, RECORD_EXTENSIONS)
            && (kind.is_file() || (kind.is_symlink() && path.is_file()))
        {
            out.push(path);
        }
    }
}

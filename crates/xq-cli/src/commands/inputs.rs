//! The files a batch command works on: files named on the command line, and record files found
//! below directories.

use std::{
    collections::HashSet,
    fs,
    path::{Path, PathBuf},
};

use crate::error::CliError;

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
    /// The path for reports ([`Input::display`]), made when first asked for: most files of an
    /// archive check clean, and a report that names only the files with a fault never makes
    /// the others' (about 1,000 instructions a path of Chinese names).
    display: std::sync::OnceLock<String>,
    /// The path below the directory argument (the file name for a file argument).
    pub(crate) relative: PathBuf,
    /// Whether the file was found in a directory (rather than named).
    pub(crate) found: bool,
    /// Whether the file was a regular file when the walk met it (its listing's type, or a named
    /// path's metadata): only such a file may be opened ahead of its turn (a FIFO's opening waits
    /// for its writer). What the walk saw: the name may be given to another file since, which
    /// the pipeline's opening ahead allows for.
    pub(crate) regular: bool,
}

impl Input {
    /// The file `path`, `relative` below the directory argument; `found` in a directory (rather
    /// than named), `regular` as the walk saw it.
    pub(crate) fn new(path: PathBuf, relative: PathBuf, found: bool, regular: bool) -> Input {
        Input {
            path,
            display: std::sync::OnceLock::new(),
            relative,
            found,
            regular,
        }
    }

    /// The path for reports: as given, or the directory argument joined with the path below it;
    /// control characters and bytes that are not UTF-8 escaped (`xq_core::text::visible_path`).
    pub(crate) fn display(&self) -> &str {
        self.display
            .get_or_init(|| xq_core::text::visible_path(&self.path))
    }

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

/// [`extension_in`] for the name of an entry of a directory listing (never `.` nor `..`, never
/// holding a separator), told from its bytes as [`Path::extension`] tells it: what follows its
/// last dot, unless that dot starts the name. (Parsing the name as a path took about 400
/// instructions, for every file of a directory.)
fn name_extension_in(name: &std::ffi::OsStr, list: &[&str]) -> bool {
    let name = name.as_encoded_bytes();
    name.iter()
        .rposition(|&b| b == b'.')
        .filter(|&dot| dot > 0)
        .is_some_and(|dot| {
            let extension = &name[dot + 1..];
            list.iter()
                .any(|x| x.as_bytes().eq_ignore_ascii_case(extension))
        })
}

/// A path argument that cannot be used.
#[derive(Debug)]
pub(crate) struct Missing {
    /// The path as given.
    pub(crate) display: String,
    /// Why.
    pub(crate) error: std::io::Error,
}

/// An entry found in a directory that looks like a record (by its name) but is not read.
#[derive(Debug)]
pub(crate) struct Skipped {
    /// The path, shown as in reports.
    pub(crate) display: String,
    /// Why, in words.
    pub(crate) why: String,
}

/// What the paths name: files to read, paths that cannot be used, entries skipped.
#[derive(Debug, Default)]
pub(crate) struct Collected {
    /// The files ([`walk`] hands them on as found, and leaves this empty).
    pub(crate) files: Vec<Input>,
    /// How many files were found.
    pub(crate) found: usize,
    pub(crate) missing: Vec<Missing>,
    pub(crate) skipped: Vec<Skipped>,
}

impl Collected {
    /// Whether the paths named nothing to work on (an empty directory, a mount that is not there
    /// yet): no success for any batch command.
    ///
    /// # Errors
    /// Then, saying so.
    pub(crate) fn something(&self) -> Result<(), CliError> {
        if self.found == 0 && self.missing.is_empty() && self.skipped.is_empty() {
            return Err(CliError::Invalid(
                "no record files found in the inputs".to_owned(),
            ));
        }
        Ok(())
    }
}

/// The files named by `paths`, in order, each directory's files sorted by path.
///
/// A file named on the command line is read whatever it is (a link is followed: it was named).
/// Below a directory, a symbolic link is followed only to a file inside that directory (or
/// anywhere with `follow`; a linked directory only with `follow`, and then each directory once,
/// where the walk first meets it in name order, by its name or by a link); a link to
/// nothing, a link loop, a link out of the directory, and a FIFO, socket or device with a record's
/// name are listed in `skipped`, never read and never dropped silently.
pub(crate) fn collect(paths: &[PathBuf], follow: bool) -> Collected {
    let mut files = Vec::new();
    let mut out = walk(paths, follow, |input| files.push(input));
    out.files = files;
    out
}

/// What [`collect`] finds, each file handed to `found` as soon as it is found (so that work on
/// the first files can start while a large tree is still being walked); the paths that cannot
/// be used and the entries skipped are returned at the end (`files` left empty).
pub(crate) fn walk(paths: &[PathBuf], follow: bool, mut found: impl FnMut(Input)) -> Collected {
    let mut out = Collected::default();
    let mut count = 0;
    let mut found = |input| {
        count += 1;
        found(input);
    };
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                let root = fs::canonicalize(path).unwrap_or_else(|_| path.clone());
                let mut walker = Walker {
                    root: &root,
                    follow,
                    seen_dirs: HashSet::new(),
                    found: &mut found,
                    out: &mut out,
                };
                walker.walk(path, Path::new(""));
            }
            Ok(meta) => found(Input::new(
                path.clone(),
                path.file_name().map_or_else(|| path.clone(), PathBuf::from),
                false,
                meta.is_file(),
            )),
            Err(error) => out.missing.push(Missing {
                display: xq_core::text::visible_path(path),
                error,
            }),
        }
    }
    out.found = count;
    out
}

/// Walking one directory argument.
struct Walker<'a> {
    /// The directory given, canonical.
    root: &'a Path,
    follow: bool,
    /// Directories entered (canonical), when links are followed: each is entered once, where the
    /// walk first meets it (by its own name or by a link), so that no file is read twice.
    seen_dirs: HashSet<PathBuf>,
    found: &'a mut dyn FnMut(Input),
    out: &'a mut Collected,
}

impl Walker<'_> {
    fn skip(&mut self, path: &Path, why: &str) {
        self.out.skipped.push(Skipped {
            display: xq_core::text::visible_path(path),
            why: why.to_owned(),
        });
    }

    /// A record file found at `path`, `relative` below the directory argument.
    fn found(&mut self, path: PathBuf, relative: PathBuf) {
        (self.found)(Input::new(path, relative, true, true));
    }

    /// Record files below `dir`, which is `relative` below the directory argument (the path
    /// below it is built on the way down, not cut from each file's path after).
    fn walk(&mut self, dir: &Path, relative: &Path) {
        if self.follow {
            let canonical = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
            if !self.seen_dirs.insert(canonical) {
                return;
            }
        }
        let entries = match fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(error) => {
                self.out.missing.push(Missing {
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
                Err(error) => self.out.missing.push(Missing {
                    display: xq_core::text::visible_path(dir),
                    error,
                }),
            }
        }
        listed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (name, entry) in listed {
            let path = entry.path();
            let named_like_a_record = name_extension_in(&name, RECORD_EXTENSIONS);
            let relative = relative.join(name);
            // The entry's type comes with the listing; only a link needs a look at its target.
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                self.walk(&path, &relative);
            } else if kind.is_file() {
                if named_like_a_record {
                    self.found(path, relative);
                }
            } else if kind.is_symlink() {
                self.link(&path, relative, named_like_a_record);
            } else if named_like_a_record {
                self.skip(&path, "not a regular file (a FIFO, socket or device)");
            }
        }
    }

    fn link(&mut self, path: &Path, relative: PathBuf, named_like_a_record: bool) {
        let (target, meta) = match fs::canonicalize(path).and_then(|t| Ok((fs::metadata(&t)?, t))) {
            Ok((meta, target)) => (target, meta),
            Err(_) => {
                if named_like_a_record {
                    self.skip(path, "a symbolic link to nothing (or a loop of links)");
                }
                return;
            }
        };
        let inside = target.starts_with(self.root);
        if meta.is_dir() {
            if !self.follow {
                self.skip(
                    path,
                    "a symbolic link to a directory: not followed (--follow enters it)",
                );
            } else {
                // (Entered unless it was already: see `walk`.)
                self.walk(path, &relative);
            }
        } else if !named_like_a_record {
        } else if !meta.is_file() {
            self.skip(path, "a symbolic link to something that is no regular file");
        } else if inside || self.follow {
            self.found(path.to_path_buf(), relative);
        } else {
            self.skip(
                path,
                "a symbolic link out of the directory given: not followed (--follow reads it)",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A listing's name has the extension that the path of that name has, for names of every
    /// shape: no dot, a leading dot, a trailing dot, several dots, case, bytes beyond ASCII.
    #[test]
    fn a_names_extension_is_its_paths() {
        let names = [
            "a.pgn",
            "A.PGN",
            "a.Pgn",
            ".pgn",
            "..pgn",
            "a..pgn",
            "a.",
            "a",
            "pgn",
            ".a.pgn",
            "a.pgn.",
            "a.tar.pgn",
            "a.pgnx",
            "a.pg",
            "棋.pgn",
            "a.棋",
            "a.txt",
            "a.HTML",
            ".",
            "a. pgn",
            "a.pgn ",
            "a.json",
            "a.ubb",
            "a.xqf",
            "...",
            "a.b.c",
        ];
        for name in names {
            for list in [RECORD_EXTENSIONS, SHARED_EXTENSIONS] {
                assert_eq!(
                    name_extension_in(std::ffi::OsStr::new(name), list),
                    extension_in(Path::new(name), list),
                    "{name:?}"
                );
            }
        }
        // Names that are records, and names that are not.
        assert!(name_extension_in("a.PGN".as_ref(), RECORD_EXTENSIONS));
        assert!(!name_extension_in(".pgn".as_ref(), RECORD_EXTENSIONS));
        assert!(!name_extension_in("a.pgnx".as_ref(), RECORD_EXTENSIONS));
    }

    /// A named path's `regular` is what its metadata says (a FIFO named is no regular file, and
    /// is never opened ahead of its turn); a file found in a directory was a regular file when
    /// listed. A FIFO found in a directory is skipped, said so.
    #[cfg(all(unix, not(target_vendor = "apple")))]
    #[test]
    fn named_and_found_files_say_whether_they_are_regular_files() {
        use crate::commands::testing::make_fifo;

        let dir = tempfile::tempdir().unwrap();
        let (file, fifo, below) = (
            dir.path().join("a.pgn"),
            dir.path().join("p.pgn"),
            dir.path().join("below"),
        );
        fs::write(&file, "").unwrap();
        make_fifo(&fifo);
        fs::create_dir(&below).unwrap();
        fs::write(below.join("b.pgn"), "").unwrap();
        make_fifo(&below.join("q.pgn"));
        let collected = collect(&[file, fifo, below], false);
        let seen: Vec<_> = collected
            .files
            .iter()
            .map(|input| (input.relative.clone(), input.found, input.regular))
            .collect();
        assert_eq!(
            seen,
            [
                (PathBuf::from("a.pgn"), false, true),
                (PathBuf::from("p.pgn"), false, false),
                (PathBuf::from("b.pgn"), true, true),
            ]
        );
        assert_eq!(collected.skipped.len(), 1);
        assert!(collected.skipped[0].display.ends_with("q.pgn"));
    }
}

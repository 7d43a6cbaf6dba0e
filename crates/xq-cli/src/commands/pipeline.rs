//! Working through many files at disk speed, with results written in the order of the inputs.
//!
//! Three kinds of threads, joined by channels:
//! * readers (more than there are cores: with a cold page cache a file read waits on the disk,
//!   and only reads in flight keep it busy) read the files ahead, in input order, each whole into
//!   memory — its length is what the read returns — but no more than [`LARGE`] bytes: a larger
//!   file is left to be streamed when its turn comes. Each takes the files a few at a time
//!   ([`IN_FLIGHT`] among them, fewer under a low limit on open files), opens them and asks the
//!   kernel for their pages at once (`posix_fadvise(WILLNEED)`, which starts the disk reads
//!   without waiting for them), then reads them in order: many reads are in flight, without a
//!   thread waiting on each. Only files the walk saw as regular files are opened ahead, and
//!   without waiting (a name may have been given to a FIFO since: see [`open_ahead`]); anything
//!   else (a FIFO named on the command line) ends a reader's share and is opened only at its
//!   turn;
//! * workers (one per core) decode, parse and replay what the readers bring, each with its own
//!   notation reader, and free it;
//! * the calling thread only hands results to the sink, in input order, as soon as the next one
//!   is ready.
//!
//! The readers stay at most [`AHEAD`] files and about [`BUDGET`] bytes ahead of the sink, so
//! memory stays bounded whatever the number of files. A large file is cut into pieces read and
//! replayed on a rayon pool ([`for_each_group`]).

use std::{
    collections::VecDeque,
    io::{self, Read},
    path::Path,
    sync::{Condvar, Mutex, PoisonError, TryLockError, mpsc},
};

use xq_notation::{Reader, ReaderPool};
use xq_record::{Encoding, Game, GameStream, ReadError, stream::PieceRead};

use super::inputs::Input;
use crate::CliError;

/// Files larger than this are streamed and their games replayed in parallel.
pub(crate) const LARGE: u64 = 4 << 20;
/// The room a file is first read into: as much as `read_to_end` reads in its first call (the
/// standard library's 8 KiB). Most record files are smaller (a CCPD game is about 1 KiB, an XQF
/// file 2 KiB); a larger one is asked its length, and given room for it (see
/// [`read_up_to_large`]).
const FIRST_READ: usize = 8 << 10;
/// How many files the readers may be ahead of the sink.
const AHEAD: usize = 512;
/// How many files the readers hold open at most, their pages asked for ahead of reading them,
/// shared among the readers (each takes its share of files at a time). On a cold page cache,
/// with 8 readers, 128 gave 1.7 times the files a second of one file a reader (31,060 CCPD files
/// in 1.07 s against 1.87 s, medians of 5; 64 gave 1.14 s), and no difference warm. Fewer where
/// the process may open few files ([`in_flight`]).
const IN_FLIGHT: usize = 128;
/// The open files left, under the process's limit, to all but the files opened ahead: the
/// standard streams, the directories the readers hold, the file each reads at its turn, outputs.
const FILES_KEPT: usize = 64;

/// How many files the readers may hold open ahead, all together: [`IN_FLIGHT`], or half of what
/// the limit on open files leaves after [`FILES_KEPT`], so that files opened ahead never take
/// what a file opened at its turn, or an output, needs (with `ulimit -n 64`, files were reported
/// unreadable, "Too many open files", that one file a reader at a time reads).
fn in_flight() -> usize {
    #[cfg(unix)]
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
    #[cfg(not(unix))]
    let limit = None;
    in_flight_under(limit)
}

/// [`in_flight`] under a limit of `limit` open files (`None`: no limit).
fn in_flight_under(limit: Option<u64>) -> usize {
    let limit = limit.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
    IN_FLIGHT.min(limit.saturating_sub(FILES_KEPT) / 2)
}
/// How many bytes read but not yet replayed the readers may hold (one file more is always let
/// through, so that the next file to report is never held back).
const BUDGET: usize = 64 << 20;
/// Games of a large file that is not PGN (read whole) replayed in one task.
const GROUP: usize = 512;
/// How far the sink moves before readers held back by [`AHEAD`] are woken (not at every file
/// the sink takes: with a warm page cache they are always a whole window ahead).
const SLACK: usize = AHEAD / 2;
/// How many results a worker hands on at once, while more files are waiting for it (a result
/// handed to a sink that is waiting wakes it: a system call and a context switch; with a result
/// for every file handed on alone, and readers woken at every file, a directory of small files
/// warm in the page cache made 20,000 context switches for 31,000 files, 4,900 with neither).
const RESULTS_AT_ONCE: usize = 64;

/// A file as the readers bring it.
#[derive(Debug)]
pub(crate) enum Loaded {
    /// Its bytes (at most [`LARGE`]).
    Bytes(Vec<u8>),
    /// It is larger than [`LARGE`]: to be streamed.
    Large,
    /// It could not be read.
    Failed(io::Error),
}

impl Loaded {
    /// Reads `path` whole, or finds it large: from `opened`, the file opened ahead if it could
    /// be, else opened now.
    fn read(path: &Path, opened: Option<Ahead>) -> Loaded {
        // Room for a whole record file of the usual size, so that it is read in one call (and one
        // more that finds the end): from an empty vector, `read_to_end` reads 32 bytes, then
        // doubles, seven calls for a 1 KiB file. The length is not asked first (one call more).
        let mut bytes = Vec::with_capacity(FIRST_READ);
        let file = match opened {
            None => open(path),
            Some(Ahead { file, fifo: false }) => Ok(file),
            Some(Ahead { file, fifo: true }) => fifo_at_its_turn(path, file),
        };
        let read = file.and_then(|file| read_up_to_large(file, &mut bytes));
        match read {
            Err(e) => Loaded::Failed(e),
            Ok(large) if large || bytes.len() as u64 > LARGE => Loaded::Large,
            Ok(_) => Loaded::Bytes(bytes),
        }
    }

    fn len(&self) -> usize {
        match self {
            Loaded::Bytes(bytes) => bytes.len(),
            Loaded::Large | Loaded::Failed(_) => 0,
        }
    }
}

/// Reads `file` onto `bytes` up to one byte past [`LARGE`]; `true` if it was found larger than
/// that from its length, and not read. First what `bytes` has room for, the whole of most record
/// files (no system call to ask the length first); a regular file that fills it is asked its
/// length, and then read whole at once, or not at all if it is large (it is streamed: reading
/// 4 MiB of it to throw them away took a read and eight copies of the bytes growing the vector).
/// A file opened ahead is opened without waiting ([`open_ahead`]), a flag that changes nothing
/// in reading a regular file on Linux's own file systems; where a read says it would have to
/// wait all the same (a file system that honours the flag), the flag is cleared and the read
/// goes on, waiting as it does for a file opened at its turn. (Cleared then rather than after
/// every opening ahead: a system call a file less.)
fn read_up_to_large(file: std::fs::File, bytes: &mut Vec<u8>) -> io::Result<bool> {
    let mut cleared = false;
    let room = bytes.capacity().max(1) as u64;
    let mut first = file.take(room);
    read_waiting(&mut first, bytes, &mut cleared)?;
    if (bytes.len() as u64) < room {
        return Ok(false);
    }
    let file = first.into_inner();
    let len = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    if let Some(len) = len {
        if len > LARGE {
            return Ok(true);
        }
        // (And a little more, where `read_to_end` finds the end.)
        let more = usize::try_from(len)
            .unwrap_or(0)
            .saturating_sub(bytes.len());
        bytes.reserve_exact(more + 32);
    }
    let mut rest = file.take((LARGE + 1).saturating_sub(bytes.len() as u64));
    read_waiting(&mut rest, bytes, &mut cleared)?;
    Ok(false)
}

/// `file.read_to_end(bytes)`, the file's `O_NONBLOCK` cleared (once: `cleared`) if a read says
/// it would wait (see [`read_up_to_large`]).
fn read_waiting(
    file: &mut io::Take<std::fs::File>,
    bytes: &mut Vec<u8>,
    cleared: &mut bool,
) -> io::Result<()> {
    loop {
        match file.read_to_end(bytes) {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock && !*cleared => {
                *cleared = true;
                #[cfg(unix)]
                wait_in_reads(file.get_ref())?;
            }
            other => return other.map(drop),
        }
    }
}

/// Clears `O_NONBLOCK` on `file`: its reads wait again.
#[cfg(unix)]
fn wait_in_reads(file: &std::fs::File) -> io::Result<()> {
    use rustix::fs::OFlags;

    let flags = rustix::fs::fcntl_getfl(file)?;
    rustix::fs::fcntl_setfl(file, flags - OFlags::NONBLOCK)?;
    Ok(())
}

/// Opens `path` to read it: relative to its directory, kept open by this thread while the files
/// it reads are that directory's (files come in directory order), so that the kernel looks up
/// the file's name alone, not every directory of its path again (the path walk was a fifth of
/// the kernel's time for a tree of small files warm in the page cache; 2.5% of the CPU time of
/// the whole run saved).
#[cfg(unix)]
fn open(path: &Path) -> io::Result<std::fs::File> {
    open_with(path, rustix::fs::OFlags::empty())
}

/// [`open`] with `extra` flags.
#[cfg(unix)]
fn open_with(path: &Path, extra: rustix::fs::OFlags) -> io::Result<std::fs::File> {
    use std::{
        cell::RefCell,
        os::{fd::OwnedFd, unix::fs::OpenOptionsExt},
        path::PathBuf,
    };

    use rustix::fs::{Mode, OFlags};

    // By its path, as `File::open` opens it.
    let by_path = || {
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(extra.bits().cast_signed())
            .open(path)
    };

    thread_local! {
        /// The directory of the last file this thread opened, and its handle.
        static DIR: RefCell<Option<(PathBuf, OwnedFd)>> = const { RefCell::new(None) };
    }
    let Some((dir, name)) = dir_and_name(path) else {
        return by_path();
    };
    if dir.as_os_str().is_empty() {
        return by_path();
    }
    DIR.with_borrow_mut(|held| {
        if held
            .as_ref()
            .is_none_or(|(at, _)| at.as_os_str() != dir.as_os_str())
        {
            let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
            *held = rustix::fs::open(dir, flags, Mode::empty())
                .ok()
                .map(|fd| (dir.to_path_buf(), fd));
        }
        let flags = OFlags::RDONLY | OFlags::CLOEXEC | extra;
        match held
            .as_ref()
            .map(|(_, fd)| rustix::fs::openat(fd, name, flags, Mode::empty()))
        {
            Some(Ok(file)) => Ok(file.into()),
            // (Not there, or not readable: by its path, as if no directory were held, in case
            // the directory held was replaced since. Either way the path's answer is the one.)
            Some(Err(_)) | None => by_path(),
        }
    })
}

/// `path`'s [`Path::parent`] and [`Path::file_name`] when it has both, from one parse of the
/// path (each of them parses it again: about 250 instructions for every file opened).
#[cfg(unix)]
fn dir_and_name(path: &Path) -> Option<(&Path, &std::ffi::OsStr)> {
    let mut components = path.components();
    let Some(std::path::Component::Normal(name)) = components.next_back() else {
        return None;
    };
    Some((components.as_path(), name))
}

#[cfg(not(unix))]
fn open(path: &Path) -> io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Whether [`open_ahead`] starts reading a file's pages here: else files are opened one at a
/// time, as they are read.
const ADVISES: bool = cfg!(any(target_os = "linux", target_os = "android"));

/// A file opened ahead of its turn.
#[derive(Debug)]
struct Ahead {
    file: std::fs::File,
    /// Whether it is a FIFO (a name the walk saw as a regular file, given to a FIFO since): read
    /// at its turn as [`fifo_at_its_turn`] says.
    fifo: bool,
}

/// Opens `path` ahead of its turn and asks the kernel to read the pages of it that
/// [`Loaded::read`] reads (up to one byte past [`LARGE`]) into the page cache without waiting for
/// them (`posix_fadvise(WILLNEED)`); `None` if it cannot be opened now: it is then opened at its
/// turn, and that answer is the one reported.
///
/// Opening ahead never waits. The walk saw a regular file, but the name may have been given to a
/// FIFO since, whose opening waits for its writer, who may be waiting for a file before it to be
/// read: so the file is opened without waiting (`O_NONBLOCK`, left set: see
/// [`read_up_to_large`]), and a FIFO is told by the kernel's answer to the advice (`ESPIPE`; on
/// any other refusal, by asking its type) and kept open until its turn (see
/// [`fifo_at_its_turn`]). (The advice is a hint only: any other failure changes nothing but the
/// speed. It does not cover the whole file: a large one is streamed when its turn comes, read as
/// it goes; asked for whole, one larger than the memory would push out of the page cache what it
/// holds, its own first pages among them.)
#[cfg(any(target_os = "linux", target_os = "android"))]
fn open_ahead(path: &Path) -> Option<Ahead> {
    use rustix::{
        fs::{FileType, OFlags},
        io::Errno,
    };

    let file = open_with(path, OFlags::NONBLOCK).ok()?;
    let advice = rustix::fs::fadvise(
        &file,
        0,
        std::num::NonZeroU64::new(LARGE + 1),
        rustix::fs::Advice::WillNeed,
    );
    let fifo = match advice {
        Ok(()) => false,
        Err(Errno::SPIPE) => true,
        Err(_) => {
            let stat = rustix::fs::fstat(&file).ok()?;
            FileType::from_raw_mode(stat.st_mode) == FileType::Fifo
        }
    };
    Some(Ahead { file, fifo })
}

/// Files are opened one at a time, as they are read, where the kernel is not asked for their
/// pages ahead ([`ADVISES`]).
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn open_ahead(_: &Path) -> Option<Ahead> {
    None
}

/// The FIFO `held`, at `path`, opened ahead without waiting, as it is read at its turn. Held open
/// since, it kept the pipe a reader: a writer that was waiting to open it, or came since, was let
/// through and wrote into it (its data not lost when a reader let go, nor the writer left to
/// write to none). If a writer has written, or has been and gone, `held` is read (what was
/// written, then more while a writer is there); if none has come, the FIFO is opened again as at
/// its turn, which waits for one, and read from there (`held` let go once it is open).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn fifo_at_its_turn(path: &Path, held: std::fs::File) -> io::Result<std::fs::File> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};

    // (Readable, or hung up: a writer came, and has written or gone. Neither: no writer yet, or
    // one there that has written nothing, whose opening again does not wait.)
    let mut fds = [PollFd::new(&held, PollFlags::IN)];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    if poll(&mut fds, Some(&now))? > 0 {
        wait_in_reads(&held)?;
        return Ok(held);
    }
    let file = open(path)?;
    drop(held);
    Ok(file)
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn fifo_at_its_turn(path: &Path, _: std::fs::File) -> io::Result<std::fs::File> {
    open(path)
}

/// Where the sink is, for the readers to keep their distance.
struct Gate {
    state: Mutex<GateState>,
    moved: Condvar,
}

struct GateState {
    /// Files handed to the sink.
    written: usize,
    /// Bytes read and not yet replayed.
    held: usize,
    /// The sink stopped (an error): readers stop too.
    stop: bool,
    /// Readers waiting (wakened only when there are some: a wake-up is a system call).
    waiting: usize,
    /// The number of files handed to the sink at which the readers held back by the distance are
    /// woken: [`SLACK`] files after the first of them could go on (`usize::MAX`: none waits for
    /// the sink).
    wake_at: usize,
}

impl Gate {
    fn lock(&self) -> std::sync::MutexGuard<'_, GateState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until file `i` may be read; `false` when everything stops.
    fn wait_for(&self, i: usize) -> bool {
        let mut state = self.lock();
        loop {
            if state.stop {
                return false;
            }
            if i == state.written || (i < state.written + AHEAD && state.held < BUDGET) {
                return true;
            }
            // Woken when the sink reaches this file, or, held back by the distance, once the
            // sink is some way past the point where it may go on (held back by the bytes held, it
            // is woken when they are freed).
            let wake_at = if i >= state.written + AHEAD {
                (i + 1 - AHEAD + SLACK).min(i)
            } else {
                i
            };
            state.wake_at = state.wake_at.min(wake_at);
            state.waiting += 1;
            state = self
                .moved
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
            state.waiting -= 1;
        }
    }

    /// Changes the state; wakes the waiting readers if `f` says it may let one through.
    fn update(&self, f: impl FnOnce(&mut GateState) -> bool) {
        let mut state = self.lock();
        if f(&mut state) && state.waiting > 0 {
            self.moved.notify_all();
        }
    }
}

/// A reader's share: up to `at_once` files from `next` into `taken` (empty), each without a
/// handle yet. A file that is not a regular file (a FIFO named on the command line) ends it: its
/// opening waits for its writer, who may be waiting for the next file to be opened by another
/// reader (as one file a reader at a time lets it).
fn take_share(
    next: &mut impl Iterator<Item = (usize, Input)>,
    at_once: usize,
    taken: &mut Vec<(usize, Input, Option<Ahead>)>,
) {
    while taken.len() < at_once
        && taken.last().is_none_or(|(_, input, _)| input.regular)
        && let Some((i, input)) = next.next()
    {
        taken.push((i, input, None));
    }
}

/// Reads, works on (`work`, on a worker with the file's index and the worker's notation reader)
/// and hands to `sink` (on the calling thread, in input order) every file of `files`, with
/// `workers` workers. The files may come as they are found (`files` may wait for the next, as
/// the receiving end of a directory walk does): the readers take them as they come.
///
/// # Errors
/// The first error of `sink`: the work stops there.
pub(crate) fn for_each_file<T: Send>(
    files: impl IntoIterator<Item = Input, IntoIter: Send>,
    workers: usize,
    readers: &ReaderPool,
    work: impl Fn(usize, &Input, Loaded, &mut Reader) -> T + Sync,
    sink: impl FnMut(Input, T) -> Result<(), CliError>,
) -> Result<(), CliError> {
    for_each_file_holding(files, workers, in_flight(), readers, work, sink)
}

/// [`for_each_file`], with at most `files_ahead` files held open ahead by all the readers together
/// (what [`in_flight`] allows in this process; the tests give their own number, so that what
/// they test does not depend on the limit on open files they run under).
fn for_each_file_holding<T: Send>(
    files: impl IntoIterator<Item = Input, IntoIter: Send>,
    workers: usize,
    files_ahead: usize,
    readers: &ReaderPool,
    work: impl Fn(usize, &Input, Loaded, &mut Reader) -> T + Sync,
    mut sink: impl FnMut(Input, T) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let files = files.into_iter();
    // (How many files there are is known only for a list given whole: no more threads than
    // files then.)
    let n = match files.size_hint() {
        (lower, Some(upper)) if lower == upper => upper,
        _ => usize::MAX,
    };
    if n == 0 {
        return Ok(());
    }
    let workers = workers.clamp(1, n);
    let io_threads = (workers * 4).clamp(4, 16).min(n);
    // The files each reader takes at a time (one, and none opened ahead, where the kernel is not
    // asked for pages ahead, or too few files may be open for two a reader).
    let at_once = if ADVISES {
        (files_ahead / io_threads).max(1)
    } else {
        1
    };
    let gate = Gate {
        state: Mutex::new(GateState {
            written: 0,
            held: 0,
            stop: false,
            waiting: 0,
            wake_at: usize::MAX,
        }),
        moved: Condvar::new(),
    };
    // The files not yet taken by a reader, and the index of the next.
    let next = Mutex::new(files.enumerate());
    let (load_tx, load_rx) = mpsc::channel::<(usize, Input, Loaded)>();
    let load_rx = Mutex::new(load_rx);
    let (done_tx, done_rx) = mpsc::channel::<Vec<(usize, Input, T)>>();
    std::thread::scope(|s| {
        for _ in 0..io_threads {
            let load_tx = load_tx.clone();
            let (gate, next) = (&gate, &next);
            s.spawn(move || {
                // The reader's share: each file, and its handle if it was opened ahead.
                let mut taken: Vec<(usize, Input, Option<Ahead>)> = Vec::with_capacity(at_once);
                'taking: loop {
                    take_share(
                        &mut *next.lock().unwrap_or_else(PoisonError::into_inner),
                        at_once,
                        &mut taken,
                    );
                    let Some(&(first, ..)) = taken.first() else {
                        break;
                    };
                    if !gate.wait_for(first) {
                        break;
                    }
                    // (Opened together only where their reads are started together; only
                    // regular files: anything else is opened only when its turn comes, as said
                    // above. A file that is no longer one is told by `open_ahead`.)
                    if at_once > 1 {
                        for (_, input, file) in
                            taken.iter_mut().filter(|(_, input, _)| input.regular)
                        {
                            *file = open_ahead(&input.path);
                        }
                    }
                    for (i, input, file) in taken.drain(..) {
                        if !gate.wait_for(i) {
                            break 'taking;
                        }
                        let loaded = Loaded::read(&input.path, file);
                        let len = loaded.len();
                        gate.update(|state| {
                            state.held += len;
                            false
                        });
                        if load_tx.send((i, input, loaded)).is_err() {
                            break 'taking;
                        }
                    }
                }
            });
        }
        drop(load_tx);
        for worker in 0..workers {
            let done_tx = done_tx.clone();
            let (gate, load_rx, work) = (&gate, &load_rx, &work);
            s.spawn(move || {
                // Results not yet handed on, and the bytes of their files.
                let mut results = Vec::with_capacity(RESULTS_AT_ONCE);
                let mut freed = 0;
                let hand_on = |results: &mut Vec<(usize, Input, T)>, freed: &mut usize| {
                    let len = std::mem::take(freed);
                    gate.update(|state| {
                        state.held -= len;
                        state.held + len >= BUDGET
                    });
                    done_tx
                        .send(std::mem::replace(
                            results,
                            Vec::with_capacity(RESULTS_AT_ONCE),
                        ))
                        .is_ok()
                };
                loop {
                    // The lock is held only while waiting for the next file. Results are handed
                    // on when there are enough of them, and before waiting: for the next file,
                    // and for the lock, which the other worker may hold while it waits (the sink
                    // may be waiting for one of them).
                    let load_rx = match load_rx.try_lock() {
                        Ok(load_rx) => Some(load_rx),
                        Err(TryLockError::Poisoned(load_rx)) => Some(load_rx.into_inner()),
                        Err(TryLockError::WouldBlock) if !results.is_empty() => None,
                        Err(TryLockError::WouldBlock) => {
                            Some(load_rx.lock().unwrap_or_else(PoisonError::into_inner))
                        }
                    };
                    let item = match load_rx.map(|load_rx| (load_rx.try_recv(), load_rx)) {
                        Some((Ok(item), _)) => Ok(item),
                        Some((Err(_), load_rx)) if results.is_empty() => {
                            load_rx.recv().map_err(|_| ())
                        }
                        _ => Err(()),
                    };
                    let Ok((i, input, loaded)) = item else {
                        if results.is_empty() {
                            break;
                        }
                        if !hand_on(&mut results, &mut freed) {
                            break;
                        }
                        continue;
                    };
                    freed += loaded.len();
                    let result =
                        readers.with(Some(worker), |reader| work(i, &input, loaded, reader));
                    results.push((i, input, result));
                    // (Large files are handed on sooner: their bytes count against the budget
                    // until then.)
                    if (results.len() >= RESULTS_AT_ONCE || freed >= BUDGET / 8)
                        && !hand_on(&mut results, &mut freed)
                    {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        // The results that came before their turn: slot `k` holds file `written + k`'s (a ring,
        // where a map ordered by index moved its large entries about on every insertion and
        // removal). Every file's result comes once, after every file written, so its slot is
        // never before the ring's start; the ring spans at most the files in flight.
        let mut held: VecDeque<Option<(Input, T)>> = VecDeque::new();
        let mut written = 0;
        let result = loop {
            // Every worker gone: every file was worked on (or one panicked, which the scope
            // passes on).
            let Ok(results) = done_rx.recv() else {
                break Ok(());
            };
            for (i, input, result) in results {
                let slot = i - written;
                if held.len() <= slot {
                    held.resize_with(slot + 1, || None);
                }
                held[slot] = Some((input, result));
            }
            let mut step = || -> Result<(), CliError> {
                while held.front().is_some_and(Option::is_some) {
                    if let Some(Some((input, result))) = held.pop_front() {
                        sink(input, result)?;
                        written += 1;
                    }
                }
                Ok(())
            };
            let stepped = step();
            gate.update(|state| {
                state.written = written;
                if written >= state.wake_at {
                    state.wake_at = usize::MAX;
                    true
                } else {
                    false
                }
            });
            if let Err(e) = stepped {
                break Err(e);
            }
        };
        gate.update(|state| {
            state.stop = true;
            true
        });
        drop(done_rx);
        result
    })
}

/// Replays the games of a (large) file's stream on `pool`, each game with `replay` (given its
/// index, the game as read and a notation reader), and hands them to `sink` in groups, in order,
/// each with the file's encoding as told when the group was read (a PGN file whose head is ASCII
/// is told by the first bytes that are not, further on). Returns the number of games.
///
/// A PGN stream is cut into pieces on the calling thread, and each piece is decoded and read on
/// the pool ([`xq_record::stream::Piece`]); the calling thread only takes them back in order
/// (reading again the rare piece that did not start at a game) and sends their games to be
/// replayed. Other streams are read on the calling thread in groups, each replayed while the
/// next is read.
///
/// # Errors
/// The first error of `sink`.
pub(crate) fn for_each_group<G: Send>(
    stream: &mut GameStream<'_>,
    readers: &ReaderPool,
    pool: &rayon::ThreadPool,
    replay: impl Fn(usize, Result<Game, ReadError>, &mut Reader) -> G + Sync,
    mut sink: impl FnMut(Vec<G>, Option<Encoding>) -> Result<(), CliError>,
) -> Result<usize, CliError> {
    let replay = &replay;
    // Pieces being read, and groups being replayed, at most.
    let in_flight = pool.current_num_threads() + 1;
    let mut index = 0;
    pool.in_place_scope(|scope| {
        let mut reading: VecDeque<mpsc::Receiver<PieceRead>> = VecDeque::new();
        let mut replaying: VecDeque<(Option<Encoding>, mpsc::Receiver<Vec<G>>)> = VecDeque::new();
        let mut cut_all = !stream.is_pieced();
        loop {
            while !cut_all && reading.len() < in_flight {
                let Some(piece) = stream.next_piece() else {
                    cut_all = true;
                    break;
                };
                let (tx, rx) = mpsc::sync_channel(1);
                scope.spawn(move |_| {
                    let _ = tx.send(piece.read());
                });
                reading.push_back(rx);
            }
            let group: Vec<_> = if stream.is_pieced() {
                let Some(read) = reading.pop_front() else {
                    break;
                };
                // A reading that panicked sends nothing; the scope passes the panic on.
                let Ok(read) = read.recv() else { break };
                stream.accept(read)
            } else {
                let group: Vec<_> = stream.by_ref().take(GROUP).collect();
                if group.is_empty() {
                    break;
                }
                group
            };
            if !group.is_empty() {
                let first = index;
                index += group.len();
                let (tx, rx) = mpsc::sync_channel(1);
                scope.spawn(move |_| {
                    let games: Vec<G> = group
                        .into_iter()
                        .enumerate()
                        .map(|(i, item)| {
                            readers.with(rayon::current_thread_index(), |reader| {
                                replay(first + i, item, reader)
                            })
                        })
                        .collect();
                    let _ = tx.send(games);
                });
                replaying.push_back((stream.encoding(), rx));
            }
            // Hand on the groups replayed, in order; wait for the oldest when too many are out.
            while let Some((encoding, oldest)) = replaying.front() {
                let encoding = *encoding;
                let games = match oldest.try_recv() {
                    Ok(games) => Some(games),
                    Err(mpsc::TryRecvError::Empty) if replaying.len() > in_flight => {
                        oldest.recv().ok()
                    }
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => None,
                };
                replaying.pop_front();
                if let Some(games) = games {
                    sink(games, encoding)?;
                }
            }
        }
        for (encoding, oldest) in replaying {
            if let Ok(games) = oldest.recv() {
                sink(games, encoding)?;
            }
        }
        Ok(index)
    })
}

#[cfg(test)]
mod tests {
    use std::{
        path::PathBuf,
        sync::atomic::{AtomicUsize, Ordering},
    };

    use xq_notation::Mode;

    use super::*;
    #[cfg(all(unix, not(target_vendor = "apple")))]
    use crate::commands::testing::make_fifo;

    /// The files the readers hold open ahead in these tests: a few for each reader (shares of 8,
    /// 4 and 2 for 4, 8 and 16 readers), whatever the limit on open files this process runs
    /// under (under a low one, the pipeline's own choice would be none, and shares would go
    /// untested). For them, the soft limit is raised to the hard one (as far as 4,096), once:
    /// several tests at once each hold that many, and one file more a reader at its turn. (Under
    /// a hard limit of about 100 or less they may fail, saying a file could not be read.)
    fn held() -> usize {
        #[cfg(unix)]
        {
            static RAISED: std::sync::Once = std::sync::Once::new();
            RAISED.call_once(|| {
                use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

                let Rlimit { current, maximum } = getrlimit(Resource::Nofile);
                let wanted = maximum.map_or(4096, |hard| hard.min(4096));
                if current.is_some_and(|soft| soft < wanted) {
                    let _ = setrlimit(
                        Resource::Nofile,
                        Rlimit {
                            current: Some(wanted),
                            maximum,
                        },
                    );
                }
            });
        }
        32
    }

    fn input(path: PathBuf) -> Input {
        let regular = std::fs::metadata(&path).is_ok_and(|meta| meta.is_file());
        Input::new(path.clone(), path, false, regular)
    }

    /// `n` files whose contents are their indices, and one missing file at the end, as found in
    /// a directory (opened ahead, a few at a time).
    fn files(dir: &Path, n: usize) -> Vec<Input> {
        let found = |path: PathBuf| Input::new(path.clone(), path, true, true);
        let mut files: Vec<Input> = (0..n)
            .map(|i| {
                let path = dir.join(format!("{i}.txt"));
                std::fs::write(&path, i.to_string()).unwrap();
                found(path)
            })
            .collect();
        files.push(found(dir.join("missing.txt")));
        files
    }

    fn content(loaded: Loaded) -> String {
        match loaded {
            Loaded::Bytes(bytes) => String::from_utf8(bytes).unwrap(),
            Loaded::Large => "large".to_owned(),
            Loaded::Failed(_) => "failed".to_owned(),
        }
    }

    /// `f`'s answer, or a failure if it takes longer than a minute: a pipeline that stalls (a
    /// worker holding results the sink waits for, while it waits itself) fails the test rather
    /// than hanging it.
    fn within_a_minute<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || tx.send(f()));
        rx.recv_timeout(std::time::Duration::from_secs(60))
            .expect("the pipeline stalled")
    }

    /// Every file of `files` through the pipeline (with `workers` workers, [`held`] files held
    /// ahead), each with what `work` made of it, as the sink is handed them.
    fn run_all<T: Send>(
        files: impl IntoIterator<Item = Input, IntoIter: Send>,
        workers: usize,
        work: impl Fn(usize, Loaded) -> T + Sync,
    ) -> Vec<(Input, T)> {
        let readers = ReaderPool::new(workers, Mode::Lenient);
        let mut seen = Vec::new();
        for_each_file_holding(
            files,
            workers,
            held(),
            &readers,
            |i, _, loaded, _| work(i, loaded),
            |input, made| {
                seen.push((input, made));
                Ok(())
            },
        )
        .unwrap();
        seen
    }

    /// A path's directory and name, from one parse, are its parent and file name whenever it
    /// has both, and none when either is missing.
    #[cfg(unix)]
    #[test]
    fn a_paths_directory_and_name_are_its_parent_and_file_name() {
        for path in [
            "a/b.pgn",
            "b.pgn",
            "/b.pgn",
            "/",
            "",
            ".",
            "..",
            "a/..",
            "a/.",
            "a/b/",
            "a//b",
            "./b",
            "../b",
            "a/./b",
            "/a/b/c.pgn",
            "棋/局.pgn",
            "a/b/.",
            "//b",
        ] {
            let path = Path::new(path);
            let both = path.parent().zip(path.file_name());
            assert_eq!(dir_and_name(path), both, "{path:?}");
        }
    }

    #[test]
    fn results_come_in_input_order_whatever_the_workers() {
        let dir = tempfile::tempdir().unwrap();
        // More files than the readers may be ahead, so that the gate holds them back, and work
        // so quick that workers often wait for files (and for each other's lock) with results
        // not yet handed on.
        let n = AHEAD * 4 + 7;
        let files = files(dir.path(), n);
        for workers in [1, 2, 5] {
            let given = files.clone();
            let seen = within_a_minute(move || {
                run_all(given, workers, |_, loaded| content(loaded))
                    .into_iter()
                    .map(|(input, text)| (input.display().to_owned(), text))
                    .collect::<Vec<_>>()
            });
            assert_eq!(seen.len(), n + 1);
            for (i, (display, text)) in seen.iter().enumerate().take(n) {
                assert_eq!(display, files[i].display());
                assert_eq!(text, &i.to_string());
            }
            assert_eq!(seen[n].1, "failed");
        }
    }

    #[test]
    fn files_found_one_by_one_come_in_order_as_they_come() {
        let dir = tempfile::tempdir().unwrap();
        let n = AHEAD * 2 + 3;
        let files = files(dir.path(), n);
        let given = files.clone();
        let seen = within_a_minute(move || {
            // Handed on by another thread, with pauses: the readers wait for each file, and a
            // reader waiting for one holds the others back.
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                for (i, input) in given.into_iter().enumerate() {
                    if i % 100 == 0 {
                        std::thread::sleep(std::time::Duration::from_millis(5));
                    }
                    tx.send(input).unwrap();
                }
            });
            run_all(rx, 2, |i, loaded| (i, content(loaded)))
                .into_iter()
                .map(|(input, (i, text))| (input.display().to_owned(), i, text))
                .collect::<Vec<_>>()
        });
        assert_eq!(seen.len(), n + 1);
        for (i, (display, index, text)) in seen.iter().enumerate().take(n) {
            assert_eq!(display, files[i].display());
            assert_eq!(*index, i);
            assert_eq!(text, &i.to_string());
        }
        assert_eq!(seen[n].2, "failed");
    }

    #[test]
    fn an_error_of_the_sink_stops_the_work_and_is_returned() {
        let dir = tempfile::tempdir().unwrap();
        let files = files(dir.path(), AHEAD * 3);
        let readers = ReaderPool::new(2, Mode::Lenient);
        let worked = AtomicUsize::new(0);
        let mut sunk = 0;
        let result = for_each_file_holding(
            files,
            2,
            held(),
            &readers,
            |_, _, loaded, _| {
                worked.fetch_add(1, Ordering::Relaxed);
                content(loaded)
            },
            |_, _| {
                sunk += 1;
                if sunk == 10 {
                    return Err(CliError::Invalid("stop".to_owned()));
                }
                Ok(())
            },
        );
        assert!(matches!(result, Err(CliError::Invalid(m)) if m == "stop"));
        assert_eq!(sunk, 10);
        // The readers stopped within their distance of the sink.
        assert!(worked.load(Ordering::Relaxed) <= 10 + AHEAD + 16);
    }

    /// Files read one directory after another, and back, each read whole; a file in a
    /// directory replaced since its directory was last held is read all the same.
    #[test]
    fn files_are_read_in_the_directory_they_are_named_in() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        for (d, n) in [(&a, "1"), (&b, "2")] {
            std::fs::create_dir(d).unwrap();
            std::fs::write(d.join("x.txt"), n).unwrap();
        }
        for (d, n) in [(&a, "1"), (&a, "1"), (&b, "2"), (&a, "1")] {
            assert_eq!(content(Loaded::read(&d.join("x.txt"), None)), n);
        }
        assert_eq!(content(Loaded::read(&a.join("none.txt"), None)), "failed");
        std::fs::remove_dir_all(&a).unwrap();
        std::fs::create_dir(&a).unwrap();
        std::fs::write(a.join("y.txt"), "3").unwrap();
        assert_eq!(content(Loaded::read(&a.join("y.txt"), None)), "3");
        assert_eq!(content(Loaded::read(&a.join("x.txt"), None)), "failed");
        // A name alone (the current directory's) is read by its path.
        assert_eq!(
            content(Loaded::read(Path::new("no-such-file.txt"), None)),
            "failed"
        );
    }

    #[test]
    fn files_opened_ahead_stay_well_within_the_limit_on_open_files() {
        assert_eq!(in_flight_under(None), IN_FLIGHT);
        assert_eq!(in_flight_under(Some(1024)), IN_FLIGHT);
        assert_eq!(in_flight_under(Some(320)), 128);
        assert_eq!(in_flight_under(Some(150)), 43);
        assert_eq!(in_flight_under(Some(65)), 0);
        assert_eq!(in_flight_under(Some(0)), 0);
        assert!(in_flight() <= IN_FLIGHT);
    }

    /// A FIFO named on the command line ends a reader's share and is not opened ahead: a FIFO
    /// waits to be opened until its writer opens it, and a writer filling two in another order
    /// than they are named waits for the second to be opened while the first waits for it (with
    /// both taken by one reader, neither was ever read). Regular files around them are read as
    /// usual.
    #[cfg(all(unix, not(target_vendor = "apple")))]
    #[test]
    fn named_fifos_written_in_another_order_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let (p1, p2) = (dir.path().join("p1"), dir.path().join("p2"));
        make_fifo(&p1);
        make_fifo(&p2);
        let writer = {
            let (p1, p2) = (p1.clone(), p2.clone());
            std::thread::spawn(move || {
                std::fs::write(p2, "b").unwrap();
                std::fs::write(p1, "a").unwrap();
            })
        };
        let mut given = files(dir.path(), 3);
        given.pop();
        given.insert(1, input(p1));
        given.push(input(p2));
        let seen = within_a_minute(move || {
            run_all(given, 2, |_, loaded| content(loaded))
                .into_iter()
                .map(|(_, text)| text)
                .collect::<Vec<_>>()
        });
        writer.join().unwrap();
        assert_eq!(seen, ["0", "a", "1", "2", "b"]);
    }

    /// A share is `at_once` files, named or found alike while they are regular files; one that
    /// is not ends it.
    #[test]
    fn a_share_ends_at_a_file_that_is_not_a_regular_file() {
        let file = |name: &str, regular: bool| {
            let mut file = input(PathBuf::from(name));
            file.regular = regular;
            file
        };
        let given = [
            file("a", true),
            file("b", true),
            file("c", true),
            file("fifo", false),
            file("d", true),
        ];
        let mut next = given.into_iter().enumerate();
        let mut shares = Vec::new();
        loop {
            let mut taken = Vec::new();
            take_share(&mut next, 3, &mut taken);
            if taken.is_empty() {
                break;
            }
            shares.push(taken.into_iter().map(|(i, ..)| i).collect::<Vec<_>>());
        }
        assert_eq!(shares, [vec![0, 1, 2], vec![3], vec![4]]);
        let mut taken = Vec::new();
        take_share(
            &mut [(0, file("fifo", false)), (1, file("a", true))].into_iter(),
            4,
            &mut taken,
        );
        assert_eq!(taken.len(), 1);
    }

    /// A FIFO at `dir/p.pgn`, as a name the walk saw as a regular file may have become.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn fifo_in(dir: &Path) -> PathBuf {
        let fifo = dir.join("p.pgn");
        make_fifo(&fifo);
        fifo
    }

    /// A writer of `text` to the FIFO `fifo`, after waiting `ms` milliseconds (a write refused,
    /// no reader there, is left: the test's read then says so).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn writer(fifo: &Path, ms: u64, text: &'static str) -> std::thread::JoinHandle<()> {
        let fifo = fifo.to_path_buf();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(ms));
            if let Ok(mut file) = std::fs::OpenOptions::new().write(true).open(fifo) {
                let _ = io::Write::write_all(&mut file, text.as_bytes());
            }
        })
    }

    /// Opening ahead never waits: a FIFO where a regular file was listed (its name given to it
    /// since) opens at once and is told apart; a regular file is read from its handle, and a
    /// missing one left to its turn.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn opening_ahead_never_waits_and_tells_a_fifo() {
        let dir = tempfile::tempdir().unwrap();
        let (fifo, file) = (fifo_in(dir.path()), dir.path().join("f.pgn"));
        std::fs::write(&file, "1").unwrap();
        let (fifo_ahead, file_ahead) =
            within_a_minute(move || (open_ahead(&fifo), open_ahead(&file)));
        assert!(fifo_ahead.is_some_and(|ahead| ahead.fifo));
        let file_ahead = file_ahead.unwrap();
        assert!(!file_ahead.fifo);
        assert_eq!(
            content(Loaded::read(Path::new("f.pgn"), Some(file_ahead))),
            "1"
        );
        assert!(open_ahead(&dir.path().join("missing.pgn")).is_none());
    }

    /// A FIFO opened ahead is read whole at its turn, whenever its writer comes: one waiting to
    /// open it before it was opened ahead (let through then: what it wrote is kept in the pipe,
    /// and read, though the writer has gone), one that comes after its turn (waited for), one
    /// there at its turn that has not written yet.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn a_fifo_opened_ahead_is_read_whenever_its_writer_comes() {
        let before = within_a_minute(|| {
            let dir = tempfile::tempdir().unwrap();
            let fifo = fifo_in(dir.path());
            let writing = writer(&fifo, 0, "12");
            std::thread::sleep(std::time::Duration::from_millis(100));
            let ahead = open_ahead(&fifo);
            writing.join().unwrap();
            content(Loaded::read(&fifo, ahead))
        });
        assert_eq!(before, "12");
        let after = within_a_minute(|| {
            let dir = tempfile::tempdir().unwrap();
            let fifo = fifo_in(dir.path());
            let ahead = open_ahead(&fifo);
            let writing = writer(&fifo, 100, "34");
            let loaded = content(Loaded::read(&fifo, ahead));
            writing.join().unwrap();
            loaded
        });
        assert_eq!(after, "34");
        let silent = within_a_minute(|| {
            let dir = tempfile::tempdir().unwrap();
            let fifo = fifo_in(dir.path());
            let ahead = open_ahead(&fifo);
            let writing = std::thread::spawn({
                let fifo = fifo.clone();
                move || {
                    let mut file = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
                    std::thread::sleep(std::time::Duration::from_millis(200));
                    io::Write::write_all(&mut file, b"56").unwrap();
                }
            });
            std::thread::sleep(std::time::Duration::from_millis(50));
            let loaded = content(Loaded::read(&fifo, ahead));
            writing.join().unwrap();
            loaded
        });
        assert_eq!(silent, "56");
    }

    /// A file opened without waiting, whose read would have to wait, is read waiting, whole (a
    /// FIFO whose writer writes later stands for a file system that honours `O_NONBLOCK`).
    #[cfg(all(unix, not(target_vendor = "apple")))]
    #[test]
    fn a_read_that_would_wait_waits() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("p.pgn");
        make_fifo(&fifo);
        let loaded = within_a_minute(move || {
            let reading = open_with(&fifo, rustix::fs::OFlags::NONBLOCK).unwrap();
            let mut writing = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            let writer = std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(100));
                io::Write::write_all(&mut writing, b"12").unwrap();
            });
            let ahead = Ahead {
                file: reading,
                fifo: false,
            };
            let loaded = Loaded::read(&fifo, Some(ahead));
            writer.join().unwrap();
            loaded
        });
        assert_eq!(content(loaded), "12");
    }

    /// A file opened ahead is read from that handle (what it held when opened, even if its name
    /// has been given to another file since); one that could not be opened ahead is opened when
    /// it is read, whose answer is the one that counts.
    #[test]
    fn a_file_opened_ahead_is_read_from_its_handle() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.txt");
        std::fs::write(&path, "1").unwrap();
        let ahead = open(&path).unwrap();
        let other = dir.path().join("y.txt");
        std::fs::write(&other, "2").unwrap();
        std::fs::rename(&other, &path).unwrap();
        let ahead = Ahead {
            file: ahead,
            fifo: false,
        };
        assert_eq!(content(Loaded::read(&path, Some(ahead))), "1");
        assert_eq!(content(Loaded::read(&path, None)), "2");
    }

    /// A file read in two steps (what the first read has room for, then the rest at once, its
    /// length asked) comes whole and in order at every size about the first read's room; a FIFO,
    /// which has no length, too.
    #[test]
    fn a_file_longer_than_the_first_read_comes_whole() {
        let letters = |len: usize| -> String {
            (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect()
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.pgn");
        for len in [
            0,
            FIRST_READ - 1,
            FIRST_READ,
            FIRST_READ + 1,
            3 * FIRST_READ + 5,
            100_000,
        ] {
            std::fs::write(&path, letters(len)).unwrap();
            assert_eq!(content(Loaded::read(&path, None)), letters(len), "{len}");
        }
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            let text: &'static str = letters(3 * FIRST_READ + 5).leak();
            let read = within_a_minute(move || {
                let dir = tempfile::tempdir().unwrap();
                let fifo = fifo_in(dir.path());
                let writing = writer(&fifo, 0, text);
                let loaded = content(Loaded::read(&fifo, None));
                writing.join().unwrap();
                loaded
            });
            assert_eq!(read, text);
        }
    }

    #[test]
    fn a_file_over_the_large_size_is_left_to_be_streamed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.pgn");
        std::fs::write(&path, vec![b' '; LARGE as usize + 1]).unwrap();
        assert!(matches!(Loaded::read(&path, None), Loaded::Large));
        std::fs::write(&path, vec![b' '; LARGE as usize]).unwrap();
        assert!(matches!(Loaded::read(&path, None), Loaded::Bytes(b) if b.len() == LARGE as usize));
        assert!(matches!(
            Loaded::read(&dir.path().join("no"), None),
            Loaded::Failed(_)
        ));
    }

    #[test]
    fn no_files_is_nothing_to_do() {
        let readers = ReaderPool::new(1, Mode::Lenient);
        for_each_file_holding(
            [],
            2,
            held(),
            &readers,
            |_, _, _, _| (),
            |_, ()| unreachable!(),
        )
        .unwrap();
    }
}

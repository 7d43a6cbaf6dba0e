//! The `xq` command. Everything lives in the `xq-cli` crate; see `xq --help`.

/// mimalloc instead of the system allocator: reading an archive allocates and frees a game's
/// strings and nodes on every thread, which glibc's malloc serves slowly (see the commit that
/// brought it in for the figures). Built without transparent huge pages (`no_thp`): with them,
/// its first arena took a huge page at start (2 MiB zeroed) and split it again when purging,
/// about 0.4 ms of every command's start and slower on a large file.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    xq_cli::main()
}

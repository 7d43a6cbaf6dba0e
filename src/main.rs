//! The `xq` command. Everything lives in the `xq-cli` crate; see `xq --help`.

/// mimalloc instead of the system allocator: reading an archive allocates and frees a game's
/// strings and nodes on every thread, which glibc's malloc serves slowly (see the commit that
/// brought it in for the figures). Built without transparent huge pages (`no_thp`): with them,
/// its first arena took a huge page at start (2 MiB zeroed) and split it again when purging,
/// about 0.4 ms of every command's start and slower on a large file.
///
/// Measured again at the end of the speed round (`tools/bench-archive.sh`, medians of 5, each
/// build against this one in the same run): with the system allocator the warm directory took
/// 1.14× as long and the 286 MB file 1.21× (at half the peak memory), the cold directory 1.02×
/// and `convert` 1.04×, while `limit` on one game took 0.86× (mimalloc costs a short command
/// 85–115 more page faults); callgrind counts 5.7% more instructions per ply. mimalloc's
/// version 2 (its crate's `v2`) was mixed: 0.93× on the warm directory, 1.12× on the 286 MB
/// file, 1.30× on `convert`, 0.90× on `limit` (the same build ran 10% apart between runs).
/// Archives are what the binary is for: kept as it is.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    xq_cli::main()
}

//! The `xq` command. Everything lives in the `xq-cli` crate; see `xq --help`.

/// mimalloc instead of the system allocator: reading an archive allocates and frees a game's
/// strings and nodes on every thread, which glibc's malloc serves slowly (see the commit that
/// brought it in for the figures).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    xq_cli::main()
}

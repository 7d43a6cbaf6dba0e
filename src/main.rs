//! The `xq` command. Everything lives in the `xq-cli` crate; see `xq --help`.

fn main() -> std::process::ExitCode {
    xq_cli::main()
}

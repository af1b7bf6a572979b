//! The `ctxlens` binary: parse arguments, run, map errors to exit codes.
//! 0 ok, 1 `check` found problems, 2 bad usage or unreadable input.
//! A closed standard output (`ctxlens stats big.json | head`) is success.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = ctxlens::cli::Cli::parse();
    match ctxlens::cli::run(&cli) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<std::io::Error>())
        .any(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}

//! The `ctxlens` binary: parse arguments, run, map errors to exit codes.
//! 0 ok, 1 `check` found problems, 2 bad usage or unreadable input, 128+N after signal N.
//! A closed standard output (`ctxlens stats big.json | head`) is success.

mod cli;

use std::process::ExitCode;

/// mimalloc rather than the system allocator: a report or a sweep makes millions of small
/// strings from rayon's threads at once, where glibc's allocator spent a sixth of the time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::Parser;

fn main() -> ExitCode {
    if let Some(message) = cli::mistyped_subcommand(std::env::args_os().nth(1).as_deref()) {
        eprintln!("error: {message}");
        return ExitCode::from(2);
    }
    let args = cli::Cli::parse();
    // A summarizer command's process group never outlives ctxlens: not after a panic
    // (the hook runs before the unwinding ends the process) and not after any return.
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        ctxlens::summarize::kill_running_commands();
        previous_hook(info);
    }));
    let result = cli::run(&args);
    ctxlens::summarize::kill_running_commands();
    match result {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// A reader that closed standard output early (`| head`): by its error's kind, never its
/// text. Output files are regular files (`export` refuses pipes), so only standard output
/// can be a closed pipe, written through `io::Write` or `serde_json`.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        let kind = e
            .downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind)
            // JSON written straight to standard output wraps the write's error.
            .or_else(|| {
                e.downcast_ref::<serde_json::Error>()
                    .and_then(serde_json::Error::io_error_kind)
            });
        kind == Some(std::io::ErrorKind::BrokenPipe)
    })
}

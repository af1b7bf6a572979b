//! The `rust-version` both crates claim is true: no crate in the lockfile asks for a newer
//! Rust. (CI also builds everything with that toolchain; this test says which crate
//! would break it, on any machine, without installing one.)

use std::path::Path;
use std::process::Command;

/// `1.88` / `1.85.1` as numbers, to compare (`1.88` is `1.88.0`).
fn version(text: &str) -> [u64; 3] {
    let mut parts = text.split('.').map(|part| part.parse().unwrap_or(0));
    [0; 3].map(|_| parts.next().unwrap_or(0))
}

/// The platform this test runs on, as `rustc -vV` names it (`x86_64-unknown-linux-gnu`).
fn host_triple() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let out = Command::new(rustc).arg("-vV").output().expect("rustc -vV runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names its host")
        .to_owned()
}

#[test]
fn no_locked_crate_needs_a_newer_rust_than_the_manifest_claims() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let claimed = |manifest: &str| -> String {
        let text = std::fs::read_to_string(top.join(manifest)).expect("manifest");
        text.lines()
            .find_map(|l| l.strip_prefix("rust-version = \""))
            .and_then(|rest| rest.strip_suffix('"'))
            .unwrap_or_else(|| panic!("{manifest} claims a rust-version"))
            .to_owned()
    };
    let ours = claimed("Cargo.toml");
    assert_eq!(claimed("core/Cargo.toml"), ours, "both crates claim the same Rust");
    // The crates this machine builds: `cargo tree`'s graph (the features the workspace
    // turns on, this platform), not the whole lockfile (a crate only another platform or
    // an unused feature pulls in is locked but never compiled).
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let tree = Command::new(&cargo)
        .args([
            "tree",
            "--workspace",
            "--locked",
            "--offline",
            "-e",
            "normal,build,dev",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ])
        .current_dir(top)
        .output()
        .expect("cargo tree runs");
    assert!(tree.status.success(), "{}", String::from_utf8_lossy(&tree.stderr));
    let built: std::collections::BTreeSet<(String, String)> = String::from_utf8_lossy(&tree.stdout)
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            Some((
                words.next()?.to_owned(),
                words.next()?.trim_start_matches('v').to_owned(),
            ))
        })
        .collect();
    // Only this platform's packages: a fresh machine's cargo has downloaded those and no
    // others (a Windows-only crate of the lockfile is never fetched here), and offline
    // `cargo metadata` without the filter asks for every package of the lockfile.
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--offline",
            "--filter-platform",
            &host_triple(),
        ])
        .current_dir(top)
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata JSON");
    let packages = metadata["packages"].as_array().expect("packages");
    assert!(built.len() > 50, "the whole graph is read: {} crates", built.len());
    let newer: Vec<String> = packages
        .iter()
        .filter(|p| {
            let key = (
                p["name"].as_str().unwrap_or_default().to_owned(),
                p["version"].as_str().unwrap_or_default().to_owned(),
            );
            built.contains(&key)
        })
        .filter_map(|p| {
            let needs = p["rust_version"].as_str()?;
            (version(needs) > version(&ours)).then(|| format!("{} {} needs {needs}", p["name"], p["version"]))
        })
        .collect();
    assert!(newer.is_empty(), "rust-version {ours} is claimed, but: {newer:?}");
}

//! Writing output files safely: a temporary file in the destination's folder, renamed
//! over the destination only once complete, so no half-written file is ever left; and a
//! refusal to overwrite the input transcript unless forced.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context};

/// Writes `bytes` to `out` atomically. Refuses when `out` is the input file `input`
/// (the same file, whatever the path spelling) unless `force`.
pub fn write_atomic(out: &Path, bytes: &[u8], input: Option<&Path>, force: bool) -> anyhow::Result<()> {
    if !force {
        if let Some(input) = input.filter(|i| i.as_os_str() != "-") {
            if same_file(out, input) {
                bail!(
                    "{}: refusing to overwrite the input transcript (pass --force to replace it)",
                    out.display()
                );
            }
        }
    }
    let folder = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut temp = tempfile::Builder::new()
        .prefix(".ctxlens-")
        .suffix(".tmp")
        .tempfile_in(folder)
        .with_context(|| {
            format!(
                "{}: cannot create a temporary file in {}",
                out.display(),
                folder.display()
            )
        })?;
    temp.write_all(bytes)
        .and_then(|()| temp.as_file().sync_all())
        .with_context(|| format!("{}: cannot write", out.display()))?;
    temp.persist(out)
        .map_err(|e| e.error)
        .with_context(|| format!("{}: cannot replace", out.display()))?;
    Ok(())
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_the_input_unless_forced_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let input = dir.path().join("t.json");
        std::fs::write(&input, b"[]").expect("write");
        let err = write_atomic(&input, b"x", Some(&input), false).expect_err("must refuse");
        assert!(err.to_string().contains("refusing to overwrite"));
        assert_eq!(std::fs::read(&input).expect("read"), b"[]");
        write_atomic(&input, b"new", Some(&input), true).expect("forced write");
        assert_eq!(std::fs::read(&input).expect("read"), b"new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names.len(), 1, "only the output remains: {names:?}");
    }
}

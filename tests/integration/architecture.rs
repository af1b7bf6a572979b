//! The house rules the compiler cannot see, checked on the source and the manifests. The
//! core (`core/`, the `ctxlens-core` crate) cannot import a front end: it is another
//! crate, which the compiler keeps; what it could still do is depend on a front end's
//! crate, which its manifest shows. Within a crate no two modules may import each other
//! (directly or round a loop), only `compact` decides what a strategy does and only a
//! dialect's own module (`transcript/dialect/`) what a dialect does. Read as
//! text: `crate::…` and `super::…` paths outside `#[cfg(test)]` blocks are the edges,
//! brace groups (`use crate::{a, b::c}`) expanded.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every module of both crates but the command line: its path (`compact::plan`,
/// `tui::app`; the app crate re-exports the core's modules, so one namespace holds
/// both) and its source, brace groups expanded.
fn modules() -> BTreeMap<String, String> {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = modules_under(&top.join("core/src"));
    all.extend(modules_under(&top.join("src")));
    all
}

/// The modules of the crate whose sources are under `root`.
fn modules_under(root: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = root.to_path_buf();
    let mut files = Vec::new();
    walk(&root, &mut files);
    files
        .into_iter()
        .filter(|p| !p.starts_with(root.join("cli")) && p != &root.join("main.rs") && p != &root.join("lib.rs"))
        .map(|p| {
            let rel = p.strip_prefix(&root).expect("inside src").with_extension("");
            let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            if parts.last().is_some_and(|l| l == "mod") {
                parts.pop();
            }
            let text = std::fs::read_to_string(&p).expect("source");
            // Unit tests may reach anywhere.
            let code = text
                .split("#[cfg(test)]\nmod tests")
                .next()
                .unwrap_or_default()
                .to_owned();
            let expanded = expand_groups(&code);
            (parts.join("::"), format!("{code}\n{expanded}"))
        })
        .collect()
}

/// Every path a brace group of `code` names, one per line: `use crate::{a, b::{c, d}}`
/// gives `crate::a`, `crate::b::c`, `crate::b::d`.
fn expand_groups(code: &str) -> String {
    let mut out = String::new();
    for prefix in ["crate::", "super::"] {
        for (at, _) in code.match_indices(prefix) {
            let rest = &code[at + prefix.len()..];
            let head_len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            if rest[head_len..].starts_with('{') {
                for path in group_paths(&rest[head_len..]) {
                    out.extend([prefix, &rest[..head_len], &path, "\n"]);
                }
            }
        }
    }
    out
}

/// The paths of the brace group `text` starts with, nested groups expanded, renames
/// (`a as b`) dropped.
fn group_paths(text: &str) -> Vec<String> {
    let mut depth = 0;
    let mut end = text.len();
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    end = i;
                    break;
                }
            }
            _ => {}
        }
    }
    let inner = &text[1..end];
    let (mut items, mut start, mut depth) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    let mut paths = Vec::new();
    for item in items.into_iter().map(str::trim).filter(|i| !i.is_empty()) {
        let item = item.split(" as ").next().unwrap_or(item).trim();
        match item.find('{') {
            Some(brace) => paths.extend(
                group_paths(&item[brace..])
                    .into_iter()
                    .map(|p| format!("{}{p}", &item[..brace])),
            ),
            None => paths.push(item.to_owned()),
        }
    }
    paths
}

/// The module a path names: its longest prefix that is a module.
fn resolve<'a>(path: &str, modules: &'a BTreeMap<String, String>) -> Option<&'a str> {
    let parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
    (1..=parts.len())
        .rev()
        .find_map(|n| modules.get_key_value(&parts[..n].join("::")).map(|(k, _)| k.as_str()))
}

/// Paths after `prefix` in `code` (`crate::compact::plan` → `compact::plan`).
fn paths_after<'a>(code: &'a str, prefix: &str) -> Vec<&'a str> {
    code.match_indices(prefix)
        .map(|(at, _)| {
            let rest = &code[at + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            rest[..end].trim_end_matches(':')
        })
        .collect()
}

/// Module → the modules it uses (neither an ancestor nor a descendant of it).
fn edges(modules: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, code) in modules {
        let is_dir_module = modules.keys().any(|k| k.starts_with(&format!("{name}::")));
        let parent: Vec<&str> = name.split("::").collect();
        let base = if is_dir_module {
            &parent[..]
        } else {
            &parent[..parent.len() - 1]
        };
        let mut targets: Vec<String> = paths_after(code, "crate::").into_iter().map(str::to_owned).collect();
        targets.extend(
            paths_after(code, "super::")
                .into_iter()
                .map(|p| format!("{}::{p}", base[..base.len().saturating_sub(1)].join("::"))),
        );
        for target in targets {
            let Some(module) = resolve(&target, modules) else {
                continue;
            };
            let related =
                module == name || name.starts_with(&format!("{module}::")) || module.starts_with(&format!("{name}::"));
            if !related {
                out.entry(name.clone()).or_default().insert(module.to_owned());
            }
        }
    }
    out
}

/// The graph with every module cut to its first `depth` path segments.
fn at_depth(edges: &BTreeMap<String, BTreeSet<String>>, depth: usize) -> BTreeMap<String, BTreeSet<String>> {
    let cut = |m: &str| m.split("::").take(depth).collect::<Vec<_>>().join("::");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in edges {
        for to in tos {
            let (a, b) = (cut(from), cut(to));
            if a != b {
                out.entry(a).or_default().insert(b);
            }
        }
    }
    out
}

/// A cycle of the graph, if it has one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|n| n == node) {
            return Some(stack[at..].to_vec());
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, stack, done) {
                return Some(cycle);
            }
        }
        stack.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_core_depends_on_no_front_end_crate() {
    // An import of the app from the core does not compile (the core cannot name the
    // crate that depends on it); a dependency on a terminal, UI, argument or HTTP crate
    // would, so the core's manifest is read.
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("core/Cargo.toml")).expect("core manifest");
    let dependencies: Vec<&str> = manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with('['))
        .filter_map(|l| l.split_once('=').map(|(name, _)| name.trim()))
        .collect();
    assert!(
        dependencies.contains(&"serde_json"),
        "the manifest is read: {dependencies:?}"
    );
    for forbidden in [
        "ratatui",
        "crossterm",
        "clap",
        "anyhow",
        "ureq",
        "reqwest",
        "hyper",
        "tui-input",
        "signal-hook",
        "mimalloc",
        "ctxlens",
    ] {
        assert!(
            !dependencies.contains(&forbidden),
            "ctxlens-core depends on `{forbidden}`"
        );
    }
}

#[test]
fn brace_groups_are_read_as_imports() {
    let expanded = expand_groups("use crate::{replay as _r, tui::app as _};\nuse super::{a, b::{c, d}};");
    assert_eq!(
        expanded,
        "crate::replay\ncrate::tui::app\nsuper::a\nsuper::b::c\nsuper::b::d\n"
    );
}

#[test]
fn no_module_imports_another_round_a_loop() {
    let modules = modules();
    let graph = edges(&modules);
    assert!(
        graph.get("tui::app").is_some_and(|to| to.contains("tui::jobs")),
        "the reader sees edges: {graph:?}"
    );
    for depth in 1..=3 {
        let cycle = find_cycle(&at_depth(&graph, depth));
        assert!(cycle.is_none(), "import cycle at depth {depth}: {cycle:?}");
    }
}

#[test]
fn only_compact_decides_what_a_strategy_does() {
    let modules = modules();
    for (name, code) in &modules {
        if name == "compact" || name.starts_with("compact::") {
            continue;
        }
        for variant in ["Strategy::Deterministic", "Strategy::DeterministicThenTail"] {
            assert!(
                !code.contains(variant),
                "`{name}` names {variant}: ask the strategy (cuts_a_tail, uses_deterministic_pass) instead"
            );
        }
        assert!(!code.contains("Strategy::Tail =>"), "`{name}` matches on a strategy");
        // Nor through the variants imported bare (`use …::Strategy::*`).
        assert!(
            !code.contains("Strategy::*") && !code.contains("Strategy::{"),
            "`{name}` imports a strategy's variants"
        );
    }
}

/// Where `code` decides by a dialect: a match arm or `matches!` on a `Dialect::` variant,
/// or a comparison with one. Naming a variant as a value (`Dialect::Responses.rules()`)
/// is not deciding.
fn dialect_decisions(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in code.lines() {
        let mut rest = line;
        while let Some(at) = rest.find("Dialect::") {
            let before = rest[..at].trim_end();
            let after_path = &rest[at + "Dialect::".len()..];
            let name_end = after_path
                .find(|c: char| !c.is_alphanumeric() && c != '_')
                .unwrap_or(after_path.len());
            let after = after_path[name_end..].trim_start();
            let decides = before.ends_with("==")
                || before.ends_with("!=")
                || before.contains("matches!(")
                || after.starts_with('|')
                || after.contains("=>");
            if decides && name_end > 0 {
                found.push(line.trim().to_owned());
                break;
            }
            rest = &after_path[name_end..];
        }
    }
    found
}

#[test]
fn dialect_decisions_are_seen() {
    assert_eq!(dialect_decisions("Dialect::Gemini | Dialect::OpenAi => 1,").len(), 1);
    assert_eq!(
        dialect_decisions("(Dialect::OpenAi, Container::Jsonl) => \"x\",").len(),
        1
    );
    assert_eq!(dialect_decisions("if dialect == Dialect::Responses {").len(), 1);
    assert_eq!(dialect_decisions("matches!(d, Dialect::Gemini)").len(), 1);
    assert!(dialect_decisions("FormatOverride::Gemini => Dialect::Gemini,").is_empty());
    assert!(dialect_decisions("let (m, _) = Dialect::Responses.rules().view(raw)?;").is_empty());
}

#[test]
fn only_a_dialects_own_module_decides_by_dialect() {
    for (name, code) in &modules() {
        if name == "transcript::dialect" || name.starts_with("transcript::dialect::") {
            continue;
        }
        let decisions = dialect_decisions(code);
        assert!(
            decisions.is_empty(),
            "`{name}` decides by dialect ({decisions:?}): ask the dialect's rules (transcript/dialect/) instead"
        );
    }
}

/// Every Rust source under `dir`, with its path (tests included: a test spelling a
/// policy's name is fine, but not code that decides by it).
fn sources_under(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("source");
                let code = text.split("#[cfg(test)]").next().unwrap_or_default().to_owned();
                out.push((path, code));
            }
        }
    }
    out
}

/// A policy's identity is its module: its name appears as a string literal only there
/// (and in the registry, `policy::all`, which names types, not strings). Two other
/// concepts share some of the words and are allowed their own files: the input formats
/// (`--format claude-code`, `transcript/format.rs`), the agents' configuration files
/// (`--emit-config codex`, `agent_config.rs`) and where an agent keeps its sessions
/// (opencode's data folder, `transcript/opencode_store.rs`).
#[test]
fn a_policys_name_is_written_only_in_its_module() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let names: Vec<&str> = ctxlens::policy::all().iter().map(|p| p.name()).collect();
    assert_eq!(names.len(), 17, "the registry lists every policy");
    let other_concepts = [
        top.join("core/src/transcript/format.rs"),
        top.join("core/src/agent_config.rs"),
        top.join("core/src/transcript/opencode_store.rs"),
    ];
    let mut found = Vec::new();
    for dir in ["core/src", "src", "python/src"] {
        for (path, code) in sources_under(&top.join(dir)) {
            if path.starts_with(top.join("core/src/policy")) || other_concepts.contains(&path) {
                continue;
            }
            for name in &names {
                if code.contains(&format!("\"{name}\"")) {
                    found.push(format!(
                        "{} spells \"{name}\"",
                        path.strip_prefix(top).expect("inside").display()
                    ));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "decide by the policy's trait, not its name: {found:?}"
    );
    // Inside the policy folder: only in the `fn name` of its own module.
    for (path, code) in sources_under(&top.join("core/src/policy")) {
        for name in &names {
            let spelled = code.matches(&format!("\"{name}\"")).count();
            assert!(
                spelled <= 1 || path.ends_with("settings.rs"),
                "{} spells \"{name}\" {spelled} times",
                path.display()
            );
        }
    }
}

/// docs/architecture.md is the map of the code: every source file of both crates (and
/// the command line's) is named there, by its file name or, for a `mod.rs`, its folder's.
#[test]
fn the_architecture_document_names_every_source_file() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(top.join("docs/architecture.md")).expect("docs/architecture.md");
    let named = |word: &str| {
        doc.match_indices(word).any(|(at, _)| {
            let before = doc[..at].chars().next_back();
            let after = doc[at + word.len()..].chars().next();
            let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            !part(before) && !part(after)
        })
    };
    let mut missing = Vec::new();
    let mut stack = vec![top.join("core/src"), top.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let stem = path.file_stem().expect("a name").to_string_lossy().into_owned();
            let name = if stem == "mod" {
                dir.file_name().expect("a folder").to_string_lossy().into_owned()
            } else {
                stem
            };
            if !named(&name) {
                missing.push(path.strip_prefix(top).expect("in the repository").display().to_string());
            }
        }
    }
    missing.sort();
    assert!(missing.is_empty(), "docs/architecture.md does not name: {missing:?}");
}

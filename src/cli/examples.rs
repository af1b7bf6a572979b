//! The examples each subcommand's `--help` ends with. Every line that starts with
//! `  ctxlens ` is run by `tests/integration/cli.rs` (in a folder holding a
//! `session.jsonl` and a `sessions/` folder), so an example can never go stale.

pub const STATS: &str = "Examples:
  ctxlens stats session.jsonl
  ctxlens stats session.jsonl --by kind
  ctxlens stats session.jsonl --tokenizer provider --json";

pub const COMPACT: &str = "Examples:
  ctxlens compact session.jsonl --max-tokens 40000 --plan
  ctxlens compact session.jsonl --max-tokens 40000 --keep-tail 10000 --summarizer extractive --report
  ctxlens compact session.jsonl --max-tokens 40000 -o compacted.jsonl --force
  ctxlens compact session.jsonl --policy claude-code --plan";

pub const CHECK: &str = "Examples:
  ctxlens check session.jsonl
  ctxlens check session.jsonl --provider openai --json";

pub const HISTORY: &str = "Examples:
  ctxlens history session.jsonl
  ctxlens history session.jsonl --all --json";

pub const BACKTEST: &str = "Examples:
  ctxlens backtest ~/.claude/projects
  ctxlens backtest session.jsonl --json";

pub const LEDGER: &str = "Examples:
  ctxlens ledger ~/.claude/projects/-home-me-myproject
  ctxlens ledger session.jsonl --json
  ctxlens ledger --emit-hook claude-code    # paste into .claude/settings.json
  ctxlens ledger session.jsonl --hook       # what the agent would be handed (a dry run)
  ctxlens ledger ~/.claude/projects/-home-me-myproject --emit-config claude-md >> CLAUDE.md";

pub const REPLAY: &str = "Examples:
  ctxlens replay session.jsonl --max-tokens 40000 --keep-tail 10000
  ctxlens replay session.jsonl --policy claude-code";

pub const SWEEP: &str = "Examples:
  ctxlens sweep session.jsonl --max-tokens 20000..60000:10000
  ctxlens sweep session.jsonl --policy langchain-trim --vary max_tokens=20000,40000";

pub const SCAN: &str = "Examples:
  ctxlens scan sessions
  ctxlens scan sessions --max-tokens 40000 --csv";

pub const COMPARE: &str = "Examples:
  ctxlens compare session.jsonl
  ctxlens compare session.jsonl --policies claude-code,codex --json";

pub const STATUS: &str = "Examples:
  ctxlens status session.jsonl
  ctxlens status sessions --template '{pct}% · compacts in {left}'
  ctxlens status session.jsonl --json";

pub const SCHEMA: &str = "Examples:
  ctxlens schema                         # the documents' names
  ctxlens schema stats > stats.schema.json
  ctxlens stats s.json --json > s.stats.json && check-jsonschema --schemafile stats.schema.json s.stats.json";

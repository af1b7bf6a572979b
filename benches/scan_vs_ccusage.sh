#!/usr/bin/env bash
# `ctxlens scan DIR --json` against ccusage (`daily --json --offline`) on the same
# generated Claude Code projects tree (benches/scan_corpus.py: 2,000 sessions made from the
# shipped real logs, unique ids), whole process, wall and CPU, runs interleaved, medians.
# ccusage is its native Linux binary (npm package @ccusage/ccusage-linux-x64); give its
# path as CCUSAGE, else the pair is skipped and only ctxlens is timed.
#
#   CCUSAGE=/path/to/ccusage benches/scan_vs_ccusage.sh [SESSIONS] [PAIRS]
set -euo pipefail
cd "$(dirname "$0")/.."
sessions=${1:-2000}
pairs=${2:-5}
corpus=target/bench-data/scan-corpus-$sessions
[ -d "$corpus/projects" ] || python3 benches/scan_corpus.py "$corpus" "$sessions"
cargo build --release --quiet --bin ctxlens
bin=target/release/ctxlens
du -sh "$corpus" | sed 's/^/corpus: /'
times=$(mktemp)
trap 'rm -f "$times" "$times.t"' EXIT
run() {
  local name=$1
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$times.t" "$@" > /dev/null 2>&1
  read -r wall user sys rss < "$times.t"
  echo "$name $wall $(echo "$user + $sys" | bc -l) $rss" >> "$times"
}
for _ in $(seq "$pairs"); do
  run ctxlens "$bin" scan "$corpus" --json
  if [ -n "${CCUSAGE:-}" ]; then
    run ccusage env CLAUDE_CONFIG_DIR="$corpus" "$CCUSAGE" daily --json --offline
  fi
done
# The median of column $2 (1: wall, 2: CPU, 3: peak) of `name`'s runs.
median() {
  grep "^$1 " "$times" | awk -v c="$2" '{ print $(c + 1) }' | sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}
echo "median of $pairs runs (wall s, CPU s, peak KiB):"
for name in ctxlens ccusage; do
  if grep -q "^$name " "$times"; then
    printf '  %-8s wall %6.2f  CPU %6.2f  peak %8d\n' "$name" "$(median "$name" 1)" "$(median "$name" 2)" "$(median "$name" 3)"
  fi
done
if [ -n "${CCUSAGE:-}" ]; then
  printf 'ratio ctxlens / ccusage: wall %.2f, CPU %.2f (target: at most 1)\n' \
    "$(echo "$(median ctxlens 1) / $(median ccusage 1)" | bc -l)" \
    "$(echo "$(median ctxlens 2) / $(median ccusage 2)" | bc -l)"
fi

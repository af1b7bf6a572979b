#!/usr/bin/env bash
# Time per message of replay, policy replay, compare and sweep on generated agent sessions
# of several shapes (`ctxlens::synth::SessionShape`: many short turns, long tool loops,
# bursty results), at several sizes, whole process (release build). The speed target
# (issue 39): for each command and shape, the largest time per message over the sizes is
# at most twice the smallest — the work grows with the session, not with the number of
# firings times the session.
#
#   benches/shapes.sh [SIZES…]          default: 10000 100000 1000000
#   REPEAT=N benches/shapes.sh …         runs per point below a million (default 3; the
#                                        fastest is kept)
#   ONLY=policy-codex benches/shapes.sh … one command's rows
#
# Prints one row per command × shape × size (wall and CPU seconds, µs per message of
# each), then per command × shape the ratio of the largest to the smallest CPU time per
# message. Generated files go to target/bench-data/shapes/ and are reused.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-10000 100000 1000000}")
read -r -a sizes <<< "${sizes[*]}"
cargo build --release --quiet --bin ctxlens --example agent_session
bin=target/release/ctxlens
data=target/bench-data/shapes
mkdir -p "$data"
shapes=(short-turns long-loops bursty)
# The budget makes each shape fire every 100-300 messages; the sweep's grid is the
# default one over 10k..40k.
commands=(
  "replay-placeholder|replay FILE --max-tokens 20000 --summarizer placeholder"
  "replay-extractive|replay FILE --max-tokens 20000 --summarizer extractive"
  # Codex keeps the user's messages up to 20,000 tokens: under a 20,000-token window that
  # alone is over its trigger and it fires at every call once a session has said that
  # much (it does so too). A budget in Codex's own proportion (20k of 272k) keeps the
  # workload the same at every size.
  "policy-codex|replay FILE --policy codex --context-window 20000 --set user_message_budget=1500"
  "policy-claude-code|replay FILE --policy claude-code --context-window 20000"
  "policy-opencode|replay FILE --policy opencode --context-window 20000"
  "compare|compare FILE --context-window 20000 --set max_tokens=20000"
  "sweep|sweep FILE --max-tokens 10000..40000"
)
results=$(mktemp)
trap 'rm -f "$results"' EXIT
printf '%-20s %-12s %9s %9s %9s %9s %9s\n' command shape messages wall_s cpu_s wall_us/m cpu_us/m
for shape in "${shapes[@]}"; do
  for n in "${sizes[@]}"; do
    file="$data/$shape-$n.json"
    [ -f "$file" ] || target/release/examples/agent_session "$n" "$shape" "$file"
    for entry in "${commands[@]}"; do
      name=${entry%%|*}
      # ONLY=NAME runs one command's rows.
      if [ -n "${ONLY:-}" ] && [ "$name" != "$ONLY" ]; then continue; fi
      args=${entry#*|}
      # The fastest of a few runs below a million messages (a busy machine only ever
      # adds time), one run at a million.
      runs=$((n >= 1000000 ? 1 : ${REPEAT:-3}))
      wall="" cpu=""
      for _ in $(seq "$runs"); do
        # shellcheck disable=SC2086 # the arguments are words
        /usr/bin/time -f '%e %U %S' -o "$results.t" $bin ${args/FILE/$file} > /dev/null 2> "$results.err" ||
          { echo "failed: $name on $file:"; cat "$results.err"; exit 1; }
        read -r w user sys < <(tail -1 "$results.t")
        c=$(echo "$user + $sys" | bc -l)
        if [ -z "$cpu" ] || [ "$(echo "$c < $cpu" | bc -l)" = 1 ]; then cpu=$c; fi
        if [ -z "$wall" ] || [ "$(echo "$w < $wall" | bc -l)" = 1 ]; then wall=$w; fi
      done
      awk -v c="$name" -v s="$shape" -v n="$n" -v w="$wall" -v u="$cpu" \
        'BEGIN { printf "%-20s %-12s %9d %9.2f %9.2f %9.2f %9.2f\n", c, s, n, w, u, w*1e6/n, u*1e6/n }' |
        tee -a "$results"
    done
  done
done
rm -f "$results.t" "$results.err"
echo
echo "largest / smallest CPU time per message over the sizes (target: at most 2)"
awk '{ key = $1 " " $2; v = $7; if (!(key in lo) || v < lo[key]) lo[key] = v; if (!(key in hi) || v > hi[key]) hi[key] = v }
     END { for (k in lo) printf "%-34s %5.2f\n", k, hi[k] / lo[k] }' "$results" | sort

#!/usr/bin/env bash
# Executions per second of each libFuzzer target, SECONDS (default 60) on one core from a
# scratch copy of its seed corpus, with libFuzzer's -seed=1. Given a second build folder (the
# fuzz preset built from another commit), runs its targets too, alternating with this one's, so
# that both are measured in the same run on the same machine.
# Usage: bench/libfuzzer_rates.sh [SECONDS] [BASELINE_BUILD_DIR] (after scripts/libfuzzer)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
baseline=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rate() {  # build-dir target -> "exec/s cov ft"
  local dir=$1 target=$2
  rm -rf "$work/corpus" && mkdir "$work/corpus" && cp corpus/seeds/"$target"/* "$work/corpus/"
  local args=(-max_total_time="$seconds" -seed=1 -print_final_stats=1)
  [ "$target" = parse ] && args+=(-dict=fuzz/uir.dict)
  "$dir/fuzz/fuzz_$target" "${args[@]}" "$work/corpus" 2>&1 |
    awk '/DONE/ {for (k = 1; k <= NF; ++k) { if ($k == "cov:") c = $(k+1); if ($k == "ft:") f = $(k+1) }}
         /stat::average_exec_per_sec/ {e = $2}
         END {printf "%s exec/s, cov %s, ft %s\n", e, c, f}'
}

for target in diff parse symbolic; do
  [ -n "$baseline" ] && echo "fuzz_$target baseline: $(rate "$baseline" "$target")"
  echo "fuzz_$target: $(rate build-fuzz "$target")"
done

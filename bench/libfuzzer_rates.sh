#!/usr/bin/env bash
# Executions per second of each libFuzzer target, SECONDS (default 60) on one core from a
# scratch copy of its seed corpus, with libFuzzer's -seed=1 (or SEEDS). Given a second build
# folder (the fuzz preset built from another commit), runs its targets too, alternating with
# this one's, so that both are measured in the same run on the same machine.
# A target's rate depends on where its mutations lead as much as on its cost, so SEEDS (default
# 1) can name several seeds; TARGETS (default "diff parse symbolic") picks targets.
# Usage: [SEEDS="1 2 3"] [TARGETS=diff] bench/libfuzzer_rates.sh [SECONDS] [BASELINE_BUILD_DIR]
# (after scripts/libfuzzer)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
baseline=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rate() {  # build-dir target seed -> "exec/s cov ft"
  local dir=$1 target=$2 seed=$3
  rm -rf "$work/corpus" && mkdir "$work/corpus" && cp corpus/seeds/"$target"/* "$work/corpus/"
  local args=(-max_total_time="$seconds" -seed="$seed" -print_final_stats=1)
  [ "$target" = parse ] && args+=(-dict=fuzz/uir.dict)
  "$dir/fuzz/fuzz_$target" "${args[@]}" "$work/corpus" 2>&1 |
    awk '/DONE/ {for (k = 1; k <= NF; ++k) { if ($k == "cov:") c = $(k+1); if ($k == "ft:") f = $(k+1) }}
         /stat::average_exec_per_sec/ {e = $2}
         END {printf "%s exec/s, cov %s, ft %s\n", e, c, f}'
}

for target in ${TARGETS:-diff parse symbolic}; do
  for seed in ${SEEDS:-1}; do
    [ -n "$baseline" ] && echo "fuzz_$target -seed=$seed baseline: $(rate "$baseline" "$target" "$seed")"
    echo "fuzz_$target -seed=$seed: $(rate build-fuzz "$target" "$seed")"
  done
done

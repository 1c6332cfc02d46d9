#!/usr/bin/env bash
# What one uopc process costs to start and run a small program: `uopc --version` and
# `uopc run --backend tcc` on a two-statement program, RUNS times each (default 200), as the
# CPU time (user + system) of all the runs together. Every `--target "uopc run"` engine run of a
# campaign pays this. Given a second uopc binary (the same build of another commit), runs it
# too, alternating in blocks of 20, and prints its time over this one's.
# Usage: bench/startup.sh [RUNS] [BASELINE_UOPC] (after scripts/test)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-200}
baseline=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%%x = buffer 6 dtype=i32\n%%v = reshape %%x shape=[2 3]\n' >"$work/small.uir"

cpu_of() {  # binary args... -> seconds of CPU for 20 runs
  local me=$BASHPID start end  # the runs' CPU time accrues to this shell's children's
  start=$(awk '{print $14 + $15 + $16 + $17}' /proc/"$me"/stat)
  for _ in $(seq 20); do "$@" >/dev/null 2>&1 || true; done
  end=$(awk '{print $14 + $15 + $16 + $17}' /proc/"$me"/stat)
  echo $(( end - start ))
}

for what in "--version" "run --backend tcc $work/small.uir"; do
  now=0 base=0
  for _ in $(seq $(( (runs + 19) / 20 ))); do
    # shellcheck disable=SC2086
    now=$(( now + $(cpu_of build/cli/uopc $what) ))
    # shellcheck disable=SC2086
    [ -n "$baseline" ] && base=$(( base + $(cpu_of "$baseline" $what) ))
  done
  hz=$(getconf CLK_TCK)
  line="uopc ${what%% *}: $(awk -v t="$now" -v n="$runs" -v hz="$hz" 'BEGIN {printf "%.2f ms a run", 1000 * t / hz / n}')"
  [ -n "$baseline" ] && line+=", baseline $(awk -v t="$base" -v n="$runs" -v hz="$hz" 'BEGIN {printf "%.2f ms", 1000 * t / hz / n}') ($(awk -v a="$base" -v b="$now" 'BEGIN {printf "%.2f", a / b}')x)"
  echo "$line"
done

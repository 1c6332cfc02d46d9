#!/usr/bin/env bash
# For every planted bug, a minimizing campaign into an empty corpus, and how many reproducer
# files it leaves (one bug should leave one). With --target, the same through an external
# engine: uopc run with the plant, against uopc interp, which must also refuse malformed programs.
# Usage: bench/files_per_plant.sh [SECONDS] [--target] [PLANT...]
# With KEEP=DIR, each plant's corpus stays in DIR/PLANT, to read the files that split a bug.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
target=0
if [ "${1:-}" = --target ]; then target=1; shift; fi
uopc=${UOPC:-build/cli/uopc}  # a copy keeps a rebuild from changing the binary mid-run
plants=("$@")
[ ${#plants[@]} -gt 0 ] || mapfile -t plants < <("$uopc" fuzz --list-plants | awk '$1 != "none" {print $1}')
if [ -n "${KEEP:-}" ]; then
  work=$KEEP
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
printf '%-26s %5s  %s\n' plant files signatures
for plant in "${plants[@]}"; do
  dir="$work/$plant"
  if [ $target = 1 ]; then
    "$uopc" fuzz --seconds "$seconds" --jobs 2 --minimize --corpus "$dir" \
      --rejection --target "$uopc run --backend tcc --plant $plant" >"$work/out" 2>&1 || true
  else
    "$uopc" fuzz --plant "$plant" --seconds "$seconds" --jobs 2 --minimize --corpus "$dir" \
      >"$work/out" 2>&1 || true
  fi
  files=$(find "$dir" -name '*.uir' 2>/dev/null | wc -l)
  names=$(find "$dir" -name '*.uir' -printf '%f ' 2>/dev/null | sed 's/\.uir//g')
  printf '%-26s %5d  %s\n' "$plant" "$files" "$names"
done

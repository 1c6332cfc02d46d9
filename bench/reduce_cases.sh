#!/usr/bin/env bash
# Every program given (files, or folders of .uir files) under every planted bug: where the
# plant makes it fail, `uopc reduce` shrinks it, and the statements left are counted. Prints
# one line per failing pair and then how many pairs ended at each count; pairs above four
# statements are listed again at the end. Error cases (err_*.uir) are left out, and so is
# print_f32_short: a printer that loses a literal loses the failure in every printed candidate
# (tests/fuzz/reduce_test.cpp says more).
# Usage: bench/reduce_cases.sh PATH...   (UOPC=binary to use another uopc)
set -euo pipefail
cd "$(dirname "$0")/.."
uopc=${UOPC:-build/cli/uopc}
files=()
for path in "$@"; do
  if [ -d "$path" ]; then
    while IFS= read -r f; do files+=("$f"); done < <(find "$path" -name '*.uir' ! -name 'err_*' | sort)
  else
    files+=("$path")
  fi
done
[ ${#files[@]} -gt 0 ] || { echo "usage: bench/reduce_cases.sh PATH..." >&2; exit 2; }
mapfile -t plants < <("$uopc" fuzz --list-plants | awk '$1 != "none" && $1 != "print_f32_short" {print $1}')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/counts"
for f in "${files[@]}"; do
  # A file that does not check is reported once, not as a failure under every plant.
  if ! why=$("$uopc" check "$f" 2>&1 >/dev/null); then
    echo "$f: skipped, $why" >&2
    continue
  fi
  for plant in "${plants[@]}"; do
    "$uopc" fuzz --check "$f" --plant "$plant" >/dev/null 2>&1 && continue
    out="$work/small.uir"
    "$uopc" reduce "$f" --plant "$plant" -o "$out" >/dev/null 2>&1 || { echo "$f $plant: not reduced"; continue; }
    n=$(grep -cv '^#' "$out" || true)
    echo "$n $f $plant" >>"$work/counts"
    printf '%-50s %-28s %d\n' "$(basename "$f")" "$plant" "$n"
  done
done
echo
echo "statements  pairs"
awk '{print $1}' "$work/counts" | sort -n | uniq -c | awk '{printf "%10d  %5d\n", $2, $1}'
awk '$1 > 4 {print "above four: " $2 " under " $3 " (" $1 ")"}' "$work/counts"

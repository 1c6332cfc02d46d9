#!/usr/bin/env bash
# run_case.sh UOPC EXPECTED_EXIT FILE: runs `uopc interp FILE` and checks its exit code; a
# rejected program must also say where, as FILE:LINE:COL: error: ...
set -u
uopc=$1 expect=$2 file=$3
err=$(mktemp)
trap 'rm -f "$err"' EXIT
"$uopc" interp "$file" >/dev/null 2>"$err"
rc=$?
cat "$err" >&2
if [ "$rc" -ne "$expect" ]; then
  echo "run_case: $file exited $rc, expected $expect" >&2
  exit 1
fi
if [ "$expect" -eq 2 ] && ! grep -qE "^$file:[0-9]+:[0-9]+: error: " "$err"; then
  echo "run_case: $file: the error does not name file:line:col" >&2
  exit 1
fi
exit 0

#!/usr/bin/env bash
# run_case.sh MODE UOPC EXPECTED_EXIT FILE
#   interp        `uopc interp FILE` exits EXPECTED_EXIT; a rejected program names file:line:col
#   run-cc|run-tcc  `uopc run --backend B FILE` prints exactly what `uopc interp FILE` prints,
#                 on stdout and stderr, with the same exit code
#   diff-cc|diff-tcc  `uopc diff --backend B FILE` exits EXPECTED_EXIT
set -u
mode=$1 uopc=$2 expect=$3 file=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

check_exit() {
  if [ "$1" -ne "$expect" ]; then
    echo "run_case: $mode $file exited $1, expected $expect" >&2
    exit 1
  fi
}

case $mode in
  interp)
    "$uopc" interp "$file" >/dev/null 2>"$dir/err"
    rc=$?
    cat "$dir/err" >&2
    check_exit $rc
    if [ "$expect" -eq 2 ] && ! grep -qE "^$file:[0-9]+:[0-9]+: error: " "$dir/err"; then
      echo "run_case: $file: the error does not name file:line:col" >&2
      exit 1
    fi
    ;;
  run-*)
    "$uopc" interp "$file" >"$dir/want.out" 2>"$dir/want.err"
    "$uopc" run --backend "${mode#run-}" "$file" >"$dir/got.out" 2>"$dir/got.err"
    rc=$?
    cat "$dir/got.err" >&2
    check_exit $rc
    if ! diff -u "$dir/want.out" "$dir/got.out" >&2 || ! diff -u "$dir/want.err" "$dir/got.err" >&2; then
      echo "run_case: uopc run --backend ${mode#run-} differs from uopc interp" >&2
      exit 1
    fi
    ;;
  diff-*)
    "$uopc" diff --backend "${mode#diff-}" "$file"
    check_exit $?
    ;;
  *)
    echo "run_case: unknown mode $mode" >&2
    exit 2
    ;;
esac
exit 0

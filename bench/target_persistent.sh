#!/usr/bin/env bash
# Programs per second through an external engine, one process per program against persistent
# mode, on the same seeds in one run: the NumPy adapter (targets/numpy_uir.py), whose start-up
# (the interpreter, the NumPy import) is most of what one program costs.
# Usage: bench/target_persistent.sh [SECONDS] [PYTHON]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
python=${2:-/usr/bin/python3}
uopc=${UOPC:-build/cli/uopc}
rate() {
  "$uopc" fuzz --seed 1 --seconds "$seconds" --compare spec "$@" 2>/dev/null |
    sed -n 's/.* \([0-9]*\) programs\/s.*/\1/p' | tail -1
}
one=$(rate --target "$python targets/numpy_uir.py")
persistent=$(rate --target "$python targets/numpy_uir.py --persistent" --target-persistent)
printf '%-28s %10s\n' mode programs/s
printf '%-28s %10s\n' "one process per program" "$one"
printf '%-28s %10s\n' "persistent" "$persistent"
awk -v a="$one" -v b="$persistent" 'BEGIN { printf "%-28s %9.1fx\n", "persistent / one-shot", b / a }'

#!/usr/bin/env bash
# End-to-end differential throughput: `uopc fuzz --jobs 1 --backend tcc` for SECONDS (default
# 30) from a fixed seed, and the resident memory of its worker sampled every 5 seconds.
# Usage: bench/fuzz_throughput.sh [SECONDS] (after building with scripts/test or scripts/fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
build/cli/uopc fuzz --jobs 1 --backend tcc --seconds "$seconds" --seed 1 >"$out" &
driver=$!
sleep 1
while kill -0 "$driver" 2>/dev/null; do
  worker=$(pgrep -P "$driver" | head -1 || true)
  [ -n "$worker" ] && echo "rss_kb $(awk '/VmRSS/ {print $2}' /proc/"$worker"/status 2>/dev/null || true)"
  sleep 5
done
wait "$driver" || true
tail -1 "$out"

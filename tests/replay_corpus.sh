#!/usr/bin/env bash
# replay_corpus.sh UOPC FILE: a reproducer of a fixed bug must pass every oracle again, through
# both backends (uopc fuzz --replay works on seeds; this works on files).
set -u
uopc=$1 file=$2
status=0
for backend in tcc cc; do
  "$uopc" diff --check-bounds --backend "$backend" "$file" || status=1
done
"$uopc" fuzz --check "$file" || status=1
printed=$("$uopc" print "$file") || status=1
if [ "$("$uopc" print - <<<"$printed")" != "$printed" ]; then
  echo "replay_corpus: printing $file is not a fixpoint" >&2
  status=1
fi
exit $status

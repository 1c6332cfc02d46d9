#!/usr/bin/env bash
# replay_corpus.sh UOPC FILE: a reproducer of a fixed bug must pass every oracle again, through
# both backends (uopc fuzz --replay works on seeds; this works on files).
# A header line `# flags: --opts '...' --threads N` names the kernel options the bug needed;
# the file is then replayed with them as well as with the defaults.
set -u
uopc=$1 file=$2
status=0
flags=$(sed -n "s/^# flags: //p" "$file" | head -1)
eval "extra=($flags)"
for backend in tcc cc; do
  "$uopc" diff --check-bounds --backend "$backend" "$file" || status=1
  if [ ${#extra[@]} -gt 0 ]; then
    "$uopc" diff --check-bounds --backend "$backend" "${extra[@]}" "$file" || status=1
  fi
done
"$uopc" fuzz --check "$file" || status=1
if [ ${#extra[@]} -gt 0 ]; then "$uopc" fuzz --check "$file" "${extra[@]}" || status=1; fi
printed=$("$uopc" print "$file") || status=1
if [ "$("$uopc" print - <<<"$printed")" != "$printed" ]; then
  echo "replay_corpus: printing $file is not a fixpoint" >&2
  status=1
fi
exit $status

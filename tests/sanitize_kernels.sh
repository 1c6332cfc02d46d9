#!/usr/bin/env bash
# sanitize_kernels.sh UOPC FILE...: runs the kernels of each program compiled with
# AddressSanitizer and UndefinedBehaviorSanitizer (and with uopc's own bounds checks), so a
# load outside a buffer, even one whose value is then discarded, fails the test.
set -u
uopc=$1
shift
asan=$(cc -print-file-name=libasan.so)
if [ ! -e "$asan" ]; then
  echo "sanitize_kernels: no libasan.so for cc" >&2
  exit 1
fi
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
chmod 700 "$cache"
status=0
for file in "$@"; do
  # The sanitizer runtime must be loaded first, since the kernels are dlopen()ed; leak
  # checking is off because the C compiler it also preloads into leaks on purpose.
  if ! UOPC_CACHE_DIR=$cache ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD=$asan \
      UOPC_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
      "$uopc" diff --check-bounds --backend cc "$file"; then
    echo "sanitize_kernels: $file failed" >&2
    status=1
  fi
done
exit $status

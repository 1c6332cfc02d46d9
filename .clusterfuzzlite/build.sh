#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: the three libFuzzer targets, linked with
# $LIB_FUZZING_ENGINE, with their seed corpora, dictionaries and options in $OUT.
# Runs from the repository root (locally: SRC, OUT, CC, CXX, CFLAGS, CXXFLAGS and
# LIB_FUZZING_ENGINE set as the fuzzing infrastructure sets them).
root=$(cd "$(dirname "$0")/.." && pwd)
build="${WORK:-$root}/build-clusterfuzzlite"

cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" \
  -DCMAKE_CXX_FLAGS="$CXXFLAGS -D_GLIBCXX_ASSERTIONS -fsanitize-coverage-ignorelist=$root/fuzz/coverage_ignore.txt" \
  -DUOPC_BUILD_TESTS=OFF -DUOPC_BUILD_BENCH=OFF \
  -DUOPC_FUZZ_TARGETS=ON -DUOPC_FUZZING_ENGINE="$LIB_FUZZING_ENGINE"
cmake --build "$build" --target fuzz_diff fuzz_parse fuzz_symbolic uopc_smt_z3
mkdir -p "$OUT"
# z3's encoding, which the targets load from beside themselves (fuzz/smt_load.cpp).
cp "$build/fuzz/libuopc_smt_z3.so" "$OUT/"

for name in diff parse symbolic; do
  target=fuzz_$name
  cp "$build/fuzz/$target" "$OUT/$target"
  rm -f "$OUT/${target}_seed_corpus.zip"
  zip -q -j "$OUT/${target}_seed_corpus.zip" "$root"/corpus/seeds/$name/*
  cp "$root/fuzz/uir.dict" "$OUT/$target.dict"
  # Inputs are programs (parse) or choices (diff, symbolic): a few KB is plenty.
  printf '[libfuzzer]\nmax_len = 4096\ntimeout = 25\n' >"$OUT/$target.options"
done

// The sanitizers' defaults in every libFuzzer target; ASAN_OPTIONS in the environment wins.
//
// An input compiles a program, allocating a few thousand nodes, lists and tables, and ASan
// records the call stack of every allocation and free for its reports: that took a fifth of
// fuzz_diff's time (docs/BENCHMARKS.md). Without it a report still says where memory was
// misused, but not where it was allocated or freed; for that, run the crash input again with
// ASAN_OPTIONS=malloc_context_size=30.
extern "C" const char* __asan_default_options() {
  return "malloc_context_size=0";
}

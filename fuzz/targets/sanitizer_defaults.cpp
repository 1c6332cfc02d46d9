// The sanitizers' defaults in every libFuzzer target; ASAN_OPTIONS in the environment wins.
//
// An input compiles a program, allocating a few thousand nodes, lists and tables, and ASan
// records the call stack of every allocation and free for its reports: that took a fifth of
// fuzz_diff's time (docs/BENCHMARKS.md). Without it a report still says where memory was
// misused, but not where it was allocated or freed; for that, run the crash input again with
// ASAN_OPTIONS=malloc_context_size=30.
//
// A freed block waits in ASan's quarantine, unusable, until the blocks freed after it pass
// the quarantine's size; a use after free reads poisoned memory until then. An input that
// makes a new program frees about 350 KB, so 64 MB still holds the blocks of the last hundred
// and more inputs, and a dangling pointer into an input's own blocks is caught. At ASan's
// default of 256 MB every allocation touched memory that had not been used for seconds: page
// faults made a tenth of fuzz_diff's time.
extern "C" const char* __asan_default_options() {
  return "malloc_context_size=0:quarantine_size_mb=64";
}

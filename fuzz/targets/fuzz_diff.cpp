// libFuzzer target: bytes -> a program and kernel options through the generator's byte
// driver -> every oracle (the compiled engine with bounds and overflow checks), a
// rule-breaking variant and, for some inputs, a symbolic expression (check_input).
// Each check that passes is remembered by content (fuzz/seen.h), so the many inputs that make
// a program already checked do not check it again. An input is a mutation of another, so many
// kernels of a new program were compiled before: the compile memo (compiler/compile_memo.h)
// takes their lowering and C instead of making them again.
// A disagreement prints the program and aborts, which libFuzzer records as a crash input.
// The generator's steering comes as flags after libFuzzer's own, which skips words that start
// with "--": `fuzz_diff corpus/ -max_total_time=60 --ops=buffer,reshape,add --no-nan`.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "compiler/compile_memo.h"
#include "fuzz/campaign.h"
#include "ir/error.h"

namespace {
uopc::Steering g_steering;

// libFuzzer's entropic schedule keeps every feature seen fewer than this many times in a
// list it searches once per feature of each input. An input here covers thousands of
// features, so at the default of 255 that search took half of each execution; at 16 the
// list stays short and the schedule still favours the rarest features. A flag on the
// command line wins.
constexpr const char* kRareFeatureFlag = "-entropic_feature_frequency_threshold=";
constexpr const char* kRareFeatureDefault = "-entropic_feature_frequency_threshold=16";

void add_default_flags(int* argc, char*** argv) {
  static std::vector<char*> args;
  for (int k = 0; k < *argc; ++k) {
    if (std::string((*argv)[k]).rfind(kRareFeatureFlag, 0) == 0) return;
    args.push_back((*argv)[k]);
  }
  args.push_back(const_cast<char*>(kRareFeatureDefault));
  args.push_back(nullptr);
  *argc = static_cast<int>(args.size()) - 1;
  *argv = args.data();
}
}  // namespace

// libFuzzer reads its flags after this returns, so the defaults added here count.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  add_default_flags(argc, argv);
  std::vector<std::string> words, rest;
  for (int k = 1; k < *argc; ++k)
    if (std::string((*argv)[k]).rfind("--", 0) == 0) words.push_back((*argv)[k]);
  try {
    g_steering = uopc::parse_steering(words, &rest);
  } catch (const uopc::UserError& e) {
    std::fprintf(stderr, "fuzz_diff: %s\n", e.what());
    std::exit(2);
  }
  for (const std::string& word : rest)
    std::fprintf(stderr, "fuzz_diff: %s is not a steering flag; ignored\n", word.c_str());
  if (!g_steering.is_default())
    std::fprintf(stderr, "fuzz_diff: programs keep to %s\n", g_steering.flags().c_str());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::unique_ptr<uopc::Backend> tcc = uopc::make_tcc_backend();
  static uopc::Seen seen;
  static uopc::CompileMemo compiled;
  uopc::BytesChoices choices(data, size);
  if (std::optional<uopc::Failure> f = uopc::check_input(choices, *tcc, g_steering, &seen)) {
    std::fprintf(stderr, "the %s oracle failed (%s%s%s): %s\n%s", f->oracle.c_str(),
                 f->config.flags().c_str(), g_steering.is_default() ? "" : ", generated with ",
                 g_steering.flags().c_str(), f->detail.c_str(), f->program.c_str());
    std::abort();
  }
  return 0;
}

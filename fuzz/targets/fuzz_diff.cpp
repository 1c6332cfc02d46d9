// libFuzzer target: bytes -> a program and kernel options through the generator's byte
// driver -> every oracle (the compiled engine with bounds and overflow checks), a
// rule-breaking variant and, for some inputs, a symbolic expression (check_input).
// A disagreement prints the program and aborts, which libFuzzer records as a crash input.
#include <cstdio>
#include <cstdlib>

#include "fuzz/campaign.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::unique_ptr<uopc::Backend> tcc = uopc::make_tcc_backend();
  uopc::BytesChoices choices(data, size);
  if (std::optional<uopc::Failure> f = uopc::check_input(choices, *tcc)) {
    std::fprintf(stderr, "the %s oracle failed (%s): %s\n%s", f->oracle.c_str(),
                 f->config.flags().c_str(), f->detail.c_str(), f->program.c_str());
    std::abort();
  }
  return 0;
}

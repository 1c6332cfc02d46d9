// libFuzzer target: bytes -> a random integer expression -> the simplifier must keep its value
// at every point of its domain, within its bounds.
#include <cstdio>
#include <cstdlib>

#include "fuzz/oracles.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uopc::BytesChoices choices(data, size);
  if (std::optional<uopc::Failure> f = uopc::check_symbolic(choices)) {
    std::fprintf(stderr, "%s\n%s\n", f->detail.c_str(), f->program.c_str());
    std::abort();
  }
  return 0;
}

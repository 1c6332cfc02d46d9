// libFuzzer target: bytes -> a program and kernel options through the generator's byte
// driver -> every oracle (the compiled engine with bounds and overflow checks), then a
// rule-breaking variant and, for some inputs, a symbolic expression.
// A disagreement prints the program and aborts, which libFuzzer records as a crash input.
#include <cstdio>
#include <cstdlib>

#include "fuzz/campaign.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::unique_ptr<uopc::Backend> tcc = uopc::make_tcc_backend();
  uopc::BytesChoices choices(data, size);
  // Small values and the composites through the interpreter only keep an input near the
  // 10 ms libFuzzer wants, even under the sanitizers.
  uopc::GenOptions gen;
  gen.max_numel = 64;
  uopc::Program p = uopc::generate(choices, gen);
  uopc::EngineConfig config = uopc::draw_engine_config(choices);
  std::optional<uopc::Failure> f = uopc::check_program(p, *tcc, false, config);
  if (!f) {
    uopc::Broken b = uopc::break_one_rule(choices, p);
    f = uopc::check_rejected(b.text, b.rule);
  }
  // The symbolic oracle on one input in four: z3 costs a few milliseconds an expression.
  if (!f && choices.one_in(4)) f = uopc::check_symbolic(choices);
  if (f) {
    std::fprintf(stderr, "the %s oracle failed (%s): %s\n%s", f->oracle.c_str(),
                 f->config.flags().c_str(), f->detail.c_str(), f->program.c_str());
    std::abort();
  }
  return 0;
}

// A seed or a byte string names one program, whether gcc or clang built uopc: a campaign's
// seed replays, and a libFuzzer input (built by clang under the fuzz preset) reads back, as the
// same program in a build by gcc. C++ leaves the order of a call's arguments unspecified, and
// gcc and clang evaluate them in opposite orders, so a call whose arguments both draw choices
// gives each compiler another program. The digest below is of what the generators draw for a
// range of seeds; the suite built under either preset runs it, so such a call fails it under
// one of the two.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "compiler/symbolic.h"
#include "fuzz/campaign.h"
#include "fuzz/choices.h"
#include "fuzz/expr_gen.h"
#include "fuzz/gen.h"
#include "ir/print.h"

namespace uopc {
namespace {

// What every generator draws for seeds 0 to 299 (programs, expressions, kernel options and
// broken rules), as text.
std::string drawn_text() {
  std::string all;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    RandomChoices for_expr(seed), for_program(seed), for_expressions(seed);
    all += expr_str(random_expr(for_expr).expr) + "\n";
    Program p = generate(for_program);
    all += print_program(p) + draw_engine_config(for_program, p).flags() + "\n";
    all += break_one_rule(for_program, p).text;
    all += print_program(expressions_program(for_expressions, GenOptions{}));
    std::mt19937_64 rng(seed);
    std::vector<uint8_t> bytes(300);
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    BytesChoices from_bytes(bytes.data(), bytes.size());
    all += print_program(generate(from_bytes));
  }
  return all;
}

TEST(Generator, ASeedNamesTheSameProgramUnderGccAndClang) {
  // Changing what the generators draw on purpose changes this; put the value printed below.
  constexpr uint64_t kDigest = 0xf72a2a6e43e5b083;
  std::string text = drawn_text();
  uint64_t digest = XXH3_64bits(text.data(), text.size());
  EXPECT_EQ(digest, kDigest) << "the generators drew other programs (digest 0x" << std::hex
                             << digest
                             << "). If no change to them was meant, look for a call with two "
                                "arguments that both draw choices";
}

}  // namespace
}  // namespace uopc

// The kernel options a campaign draws for a program take effect on it often enough: an option
// whose factor does not divide the size it applies to is dropped for that kernel, so a draw
// blind to the program leaves the bugs of unrolled and blocked reduces nearly unseen.
#include <gtest/gtest.h>

#include "fuzz/campaign.h"
#include "ir/parse.h"

namespace uopc {
namespace {

struct Fits {
  int drawn = 0;
  int fitting = 0;
  double share() const { return drawn ? static_cast<double>(fitting) / drawn : 0; }
};

// A reduce of a [10 5] value over both axes: unroll fits only with 5 (the innermost popped
// axis), block only with 2 or 5 (proper divisors of the first), neither among {2, 3, 4} alone.
TEST(EngineConfig, FactorsAreDrawnToFitTheProgram) {
  Program p = parse_program(
      "%x = buffer 50\n%m = reshape %x shape=[10 5]\n%r = reduce %m op=add pop=2\n", "fits.uir");
  Fits unroll, block;
  for (uint64_t seed = 1; seed <= 2000; ++seed) {
    RandomChoices c(seed);
    const Opts& o = draw_engine_config(c, p).opts.fixed;
    if (o.unroll > 1) {
      ++unroll.drawn;
      unroll.fitting += o.unroll == 5;
    }
    if (o.block > 1) {
      ++block.drawn;
      block.fitting += o.block == 2 || o.block == 5;
    }
  }
  ASSERT_GT(unroll.drawn, 100);
  ASSERT_GT(block.drawn, 100);
  // half the draws fit by construction; the other half are any small factor
  EXPECT_GT(unroll.share(), 0.4) << unroll.fitting << " of " << unroll.drawn;
  EXPECT_GT(block.share(), 0.55) << block.fitting << " of " << block.drawn;
}

// With nothing to fit, every factor still comes from the small ones, so the fitting of options
// to kernels (fit_opts) keeps being exercised.
TEST(EngineConfig, AProgramWithoutReducesStillGetsSmallFactors) {
  Program p = parse_program("%x = buffer 7\n", "plain.uir");
  int unrolls = 0;
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    RandomChoices c(seed);
    const Opts& o = draw_engine_config(c, p).opts.fixed;
    if (o.unroll == 1) continue;
    ++unrolls;
    EXPECT_TRUE(o.unroll >= 2 && o.unroll <= 4) << o.unroll;
  }
  EXPECT_GT(unrolls, 50);
}

}  // namespace
}  // namespace uopc

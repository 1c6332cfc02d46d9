// ctest as strong as a short campaign: without a plant, the seeded PRNG driver over as many
// programs as a 13-second campaign on two cores checks (8 x 4,500 programs through every
// oracle, seed ranges apart), and the symbolic oracle over 9,000 expressions, each decided for
// every value of its variables. Each part is its own ctest entry, so they run in parallel; a
// failure prints the seed or expression that replays it. (The sizes keep the whole of ctest
// under five minutes on two cores.)
#include <gtest/gtest.h>

#include "fuzz/campaign.h"

namespace uopc {
namespace {

constexpr uint64_t kFirstSeed = 20261201;
constexpr int64_t kProgramsPerPart = 4500;
constexpr int64_t kExpressionsPerPart = 1500;

class CampaignSuite : public ::testing::TestWithParam<int> {};

TEST_P(CampaignSuite, EveryOracleAgrees) {
  CampaignOptions o;
  o.seed = kFirstSeed + static_cast<uint64_t>(GetParam() * kProgramsPerPart);
  o.max_programs = kProgramsPerPart;
  o.seconds = 600;
  CampaignResult r = run_campaign(o);
  ASSERT_FALSE(r.failure) << "seed " << r.failing_seed << " (uopc fuzz --replay " << r.failing_seed
                          << "): the " << r.failure->oracle
                          << " oracle failed: " << r.failure->detail << "\n"
                          << r.failure->program;
  EXPECT_EQ(r.programs, kProgramsPerPart);
}

INSTANTIATE_TEST_SUITE_P(Part, CampaignSuite, ::testing::Range(0, 8));

class SymbolicSuite : public ::testing::TestWithParam<int> {};

TEST_P(SymbolicSuite, SimplificationIsSoundEverywhere) {
  SymbolicStats stats;
  for (int64_t k = 0; k < kExpressionsPerPart; ++k) {
    uint64_t seed = kFirstSeed + static_cast<uint64_t>(GetParam() * kExpressionsPerPart + k);
    RandomChoices choices(seed);
    std::optional<Failure> f = check_symbolic(choices, &stats);
    ASSERT_FALSE(f) << "expression of seed " << seed << ": " << f->detail << "\n" << f->program;
  }
  std::printf("%lld proved, %lld undecided\n", static_cast<long long>(stats.proved),
              static_cast<long long>(stats.undecided));
  // Undecided claims are the rare products and quotients of variables z3 gives up on.
  EXPECT_LT(stats.undecided, kExpressionsPerPart / 10);
}

INSTANTIATE_TEST_SUITE_P(Part, SymbolicSuite, ::testing::Range(0, 6));

}  // namespace
}  // namespace uopc

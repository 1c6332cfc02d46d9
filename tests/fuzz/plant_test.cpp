// Every planted bug must be found by the property suite, fast: a campaign with the bug switched
// on has to report a failure within a bounded number of programs.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

#include "fuzz/campaign.h"
#include "ir/plant.h"

namespace uopc {

// Test names and messages show the plant's name.
void PrintTo(const PlantInfo& p, std::ostream* os) {
  *os << p.name;
}

namespace {

class PlantedBug : public ::testing::TestWithParam<PlantInfo> {
 protected:
  void TearDown() override { set_plant(Plant::None); }
};

// A campaign of 3,000 programs, then (for a bug of the simplifier, which a campaign meets
// once in 32 programs) the symbolic oracle on up to 5,000 expressions.
// A mistake that kills the process is found when the campaign dies of it, in a child process
// (a campaign of `uopc fuzz` records it as a crash: tests/fuzz/fuzz_cli_test.cpp).
TEST_P(PlantedBug, IsFound) {
  set_plant(GetParam().plant);
  if (kills_process(GetParam().plant)) {
    EXPECT_EXIT(
        {
          CampaignOptions o;
          o.seed = 20261129;
          o.max_programs = 3000;
          run_campaign(o);
          std::exit(0);
        },
        ::testing::KilledBySignal(SIGFPE), "");
    return;
  }
  CampaignOptions o;
  o.seed = 20261129;
  o.max_programs = 3000;
  o.seconds = 120;
  CampaignResult r = run_campaign(o);
  int64_t expressions = 0;
  for (; !r.failure && expressions < 5000; ++expressions) {
    RandomChoices choices(o.seed + static_cast<uint64_t>(expressions));
    r.failure = check_symbolic(choices);
  }
  ASSERT_TRUE(r.failure) << GetParam().name << " went unnoticed in " << r.programs
                         << " programs and " << expressions << " expressions";
  std::printf("%s: found by the %s oracle after %lld programs and %lld expressions\n",
              std::string(GetParam().name).c_str(), r.failure->oracle.c_str(),
              static_cast<long long>(r.programs), static_cast<long long>(expressions));
}

// Without a plant the same campaign finds nothing: the failures above are the plants'.
TEST(PlantedBug, NoneMeansNoFailure) {
  set_plant(Plant::None);
  CampaignOptions o;
  o.seed = 20261129;
  o.max_programs = 3000;
  o.seconds = 120;
  CampaignResult r = run_campaign(o);
  EXPECT_FALSE(r.failure) << r.failure->oracle << ": " << r.failure->detail << "\n"
                          << r.failure->program;
}

INSTANTIATE_TEST_SUITE_P(All, PlantedBug, ::testing::ValuesIn(plant_list()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace uopc

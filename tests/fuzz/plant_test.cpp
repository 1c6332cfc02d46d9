// Every planted bug must be found by the property suite, fast: a campaign with the bug switched
// on has to report a failure within a bounded number of programs.
#include <gtest/gtest.h>

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

TEST_P(PlantedBug, IsFound) {
  set_plant(GetParam().plant);
  CampaignOptions o;
  o.seed = 20261129;
  o.max_programs = 3000;
  o.seconds = 120;
  CampaignResult r = run_campaign(o);
  ASSERT_TRUE(r.failure) << GetParam().name << " went unnoticed in " << r.programs << " programs";
  std::printf("%s: found by the %s oracle after %lld programs (%.2f s)\n",
              std::string(GetParam().name).c_str(), r.failure->oracle.c_str(),
              static_cast<long long>(r.programs), r.seconds);
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

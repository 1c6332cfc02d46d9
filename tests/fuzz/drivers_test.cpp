// The planted bugs of the classes that once got through every check (a rule's side
// condition, a remainder's range check, an overflow decision, NaN and -0 order in max and
// min, the constant tables no generated stack was long enough to reach) are each found by
// every driver of the one generator: the seeded PRNG of campaigns, RapidCheck, and bytes (the
// input mapping of the fuzz_diff libFuzzer target).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <random>

#include "fuzz/campaign.h"
#include "ir/plant.h"

namespace uopc {

// Test names and messages show the plant's name.
void PrintTo(const Plant& p, std::ostream* os) {
  *os << plant_name(p);
}

namespace {

// The most inputs each driver may need; each stops at its first failure.
constexpr int64_t kBudget = 20000;

const Plant kPlants[] = {Plant::DivDivUnchecked,         Plant::DivmodSplitUnchecked,
                         Plant::OverflowDecisionSub,     Plant::MinmaxReversed,
                         Plant::TableBroadcastFirstAxis, Plant::PadBoundsIgnoreFill,
                         Plant::MulIntervalTwoCorners,   Plant::NotBitwise};

class Drivers : public ::testing::TestWithParam<Plant> {
 protected:
  void SetUp() override { set_plant(GetParam()); }
  void TearDown() override { set_plant(Plant::None); }
  void report(const char* driver, int64_t inputs, const std::optional<Failure>& f) {
    ASSERT_TRUE(f) << driver << " missed " << plant_name(GetParam()) << " in " << inputs
                   << " inputs";
    std::printf("%s: %s found it after %lld inputs (the %s oracle)\n",
                std::string(plant_name(GetParam())).c_str(), driver, static_cast<long long>(inputs),
                f->oracle.c_str());
  }
};

Backend& tcc() {
  static std::unique_ptr<Backend> b = make_tcc_backend();
  return *b;
}

TEST_P(Drivers, SeededCampaignFindsIt) {
  CampaignOptions o;
  o.seed = 20261201;
  o.max_programs = kBudget * 4;
  o.seconds = 600;
  CampaignResult r = run_campaign(o);
  report("the seeded campaign", r.programs, r.failure);
}

TEST_P(Drivers, BytesFindIt) {
  std::mt19937_64 rng(20261201);
  std::optional<Failure> f;
  int64_t inputs = 0;
  Seen seen;  // as fuzz_diff keeps one
  while (!f && inputs < kBudget) {
    std::vector<uint8_t> bytes(static_cast<size_t>(64 + rng() % 448));
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    BytesChoices choices(bytes.data(), bytes.size());
    f = check_input(choices, tcc(), {}, &seen);
    ++inputs;
  }
  report("the bytes driver", inputs, f);
}

TEST_P(Drivers, RapidCheckFindsIt) {
  std::optional<Failure> found;
  int64_t inputs = 0;
  rc::detail::TestParams params;
  params.seed = 20261201;
  params.maxSuccess = static_cast<int>(kBudget);
  params.disableShrinking = true;  // shrinking is its own test; here only finding counts
  auto result = rc::detail::checkTestable(
      [&] {
        RapidCheckChoices c;
        ++inputs;
        std::optional<Failure> f = check_input(c, tcc());
        if (f) found = f;
        RC_ASSERT(!f);
      },
      rc::detail::TestMetadata{}, params);
  EXPECT_TRUE(result.template is<rc::detail::FailureResult>());
  report("RapidCheck", inputs, found);
}

INSTANTIATE_TEST_SUITE_P(NewClasses, Drivers, ::testing::ValuesIn(kPlants),
                         [](const auto& info) { return std::string(plant_name(info.param)); });

}  // namespace
}  // namespace uopc

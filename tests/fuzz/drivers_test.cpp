// The planted bugs of the classes that once got through every check (a rule's side
// condition, a remainder's range check, an overflow decision, NaN and -0 order in max and
// min, the constant tables no generated stack was long enough to reach, a kernel that kills
// its process, an equality decided where the generator's expressions hid the decision, a helper
// that breaks a tie the wrong way, a rule that takes two different dividends for one, a table's
// element read back wrong, which intervals check) are each
// found by every driver of the one generator: the seeded PRNG of campaigns, RapidCheck, and bytes
// (the input mapping of the fuzz_diff libFuzzer target).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <csignal>
#include <cstdlib>
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
                         Plant::MulIntervalTwoCorners,   Plant::NotBitwise,
                         Plant::ModMinusOneTraps,        Plant::EqualBoundsTouching,
                         Plant::MaxHelperTies,           Plant::DivmodPairAnyDividend,
                         Plant::ParamNumberedBelow,      Plant::LinearSubAsAdd,
                         Plant::LinearSubReversed,       Plant::WhereUnparenthesized,
                         Plant::CompositeFlipUnreversed, Plant::PrintBoolPadFill,
                         Plant::BinaryUnparenthesized,   Plant::MemoIgnoresIndex,
                         Plant::TableElementMisread,     Plant::BufferOneShort,
                         Plant::MinIdentityF32,          Plant::InterpPermuteInverse,
                         Plant::AssertReadsOneOperand,   Plant::LiteralOperandAnyOp};

Backend& tcc() {
  static std::unique_ptr<Backend> b = make_tcc_backend();
  return *b;
}

// Each driver until its first failure or kBudget inputs: the failure, and how many inputs.
struct Found {
  std::optional<Failure> failure;
  int64_t inputs = 0;
};

Found seeded_campaign() {
  CampaignOptions o;
  o.seed = 20261201;
  o.max_programs = kBudget * 4;
  o.seconds = 600;
  CampaignResult r = run_campaign(o);
  return {r.failure, r.programs};
}

Found bytes_driver() {
  std::mt19937_64 rng(20261201);
  Found found;
  Seen seen;  // as fuzz_diff keeps one
  while (!found.failure && found.inputs < kBudget) {
    std::vector<uint8_t> bytes(static_cast<size_t>(64 + rng() % 448));
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    BytesChoices choices(bytes.data(), bytes.size());
    found.failure = check_input(choices, tcc(), {}, &seen);
    ++found.inputs;
  }
  return found;
}

Found rapidcheck_driver() {
  Found found;
  rc::detail::TestParams params;
  params.seed = 20261201;
  params.maxSuccess = static_cast<int>(kBudget);
  params.disableShrinking = true;  // shrinking is its own test; here only finding counts
  auto result = rc::detail::checkTestable(
      [&] {
        RapidCheckChoices c;
        ++found.inputs;
        std::optional<Failure> f = check_input(c, tcc());
        if (f) found.failure = f;
        RC_ASSERT(!f);
      },
      rc::detail::TestMetadata{}, params);
  EXPECT_TRUE(result.template is<rc::detail::FailureResult>());
  return found;
}

class Drivers : public ::testing::TestWithParam<Plant> {
 protected:
  void SetUp() override { set_plant(GetParam()); }
  void TearDown() override { set_plant(Plant::None); }

  // A mistake that kills the process is found when the driver dies of it, in a child process
  // (as libFuzzer reports a deadly signal, and a campaign's worker dies).
  void expect_found(const char* driver, Found (*run)()) {
    if (kills_process(GetParam())) {
      EXPECT_EXIT(
          {
            run();
            std::exit(0);
          },
          ::testing::KilledBySignal(SIGFPE), "")
          << driver;
      return;
    }
    Found f = run();
    ASSERT_TRUE(f.failure) << driver << " missed " << plant_name(GetParam()) << " in " << f.inputs
                           << " inputs";
    std::printf("%s: %s found it after %lld inputs (the %s oracle)\n",
                std::string(plant_name(GetParam())).c_str(), driver,
                static_cast<long long>(f.inputs), f.failure->oracle.c_str());
  }
};

TEST_P(Drivers, SeededCampaignFindsIt) {
  expect_found("the seeded campaign", seeded_campaign);
}

TEST_P(Drivers, BytesFindIt) {
  expect_found("the bytes driver", bytes_driver);
}

TEST_P(Drivers, RapidCheckFindsIt) {
  expect_found("RapidCheck", rapidcheck_driver);
}

INSTANTIATE_TEST_SUITE_P(NewClasses, Drivers, ::testing::ValuesIn(kPlants),
                         [](const auto& info) { return std::string(plant_name(info.param)); });

}  // namespace
}  // namespace uopc

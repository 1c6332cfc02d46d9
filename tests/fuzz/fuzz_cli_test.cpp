// `uopc fuzz` as a user runs it.
#include <gtest/gtest.h>

#include "tests/support/run.h"

namespace uopc {
namespace {

using testing::run_uopc;

TEST(FuzzCli, ListsThePlants) {
  auto c = run_uopc("fuzz --list-plants");
  EXPECT_EQ(c.exit_code, 0);
  EXPECT_NE(c.out.find("permute_inverse "), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("stack_order_reversed "), std::string::npos) << c.out;
}

TEST(FuzzCli, ACleanCampaignExitsZero) {
  auto c = run_uopc("fuzz --seconds 20 --max-programs 300 --seed 5 --jobs 2");
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  EXPECT_NE(c.out.find("programs/s, 0 disagreements"), std::string::npos) << c.out;
}

TEST(FuzzCli, APlantedBugExitsOneAndPrintsTheProgram) {
  auto c = run_uopc("fuzz --plant permute_inverse --seconds 20 --seed 5");
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  EXPECT_NE(c.out.find("disagreement: the "), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("# program (seed "), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("permute "), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("1 disagreement"), std::string::npos) << c.out;
}

TEST(FuzzCli, ReplayChecksOneSeed) {
  auto c = run_uopc("fuzz --replay 12");
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  EXPECT_EQ(c.out.rfind("# seed 12: every oracle agrees\n", 0), 0u) << c.out;
}

TEST(FuzzCli, BadArgumentsExitTwo) {
  EXPECT_EQ(run_uopc("fuzz --plant no_such_bug").exit_code, 2);
  EXPECT_EQ(run_uopc("fuzz --backend gcc").exit_code, 2);
  EXPECT_EQ(run_uopc("fuzz --jobs 0").exit_code, 2);
}

}  // namespace
}  // namespace uopc

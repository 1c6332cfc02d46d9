// The tinygrad engine (targets/tinygrad_uir.py), when tinygrad can be imported (PYTHONPATH):
// every acceptance case is either answered 77 with a reason or agrees under the language's
// comparison, and a campaign steered by the adapter's own flags skips nothing. Skipped, saying so,
// when there is no tinygrad.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "fuzz/target.h"
#include "tests/support/run.h"

namespace uopc {
namespace {

std::string adapter() {
  return shell_quote(std::string(UOPC_SOURCE_DIR) + "/targets/tinygrad_uir.py");
}

// What a command prints when it succeeds. python3 is the one on PATH: tinygrad needs Python
// 3.11 or newer and is the user's own install.
std::string shell(const std::string& command) {
  testing::Command c = testing::run_shell(command);
  return c.exit_code == 0 ? c.out : "";
}

class TinygradEngine : public ::testing::Test {
 protected:
  void SetUp() override {
    if (shell("python3 -c 'import numpy, tinygrad; print(1)'").empty())
      GTEST_SKIP() << "tinygrad cannot be imported (put a tinygrad checkout on PYTHONPATH to "
                      "run this test): skipped";
  }
};

TEST_F(TinygradEngine, EveryCaseIsUnsupportedOrAgrees) {
  int agreed = 0, unsupported = 0;
  for (const auto& e : std::filesystem::directory_iterator(UOPC_CASES_DIR)) {
    std::string name = e.path().stem().string();
    if (e.path().extension() != ".uir" || name.rfind("err_", 0) == 0) continue;
    auto c =
        testing::run_uopc("fuzz --check " + e.path().string() +
                          " --compare spec --time-limit 300 --target 'python3 " + adapter() + "'");
    EXPECT_EQ(c.exit_code, 0) << name << "\n" << c.out << c.err;
    (c.out.find("does not support") != std::string::npos ? unsupported : agreed) += 1;
  }
  EXPECT_GT(
      agreed,
      25);  // 32 of the cases agree with tinygrad of 2026-08-22; 77 for everything is no adapter
  EXPECT_GT(unsupported, 5);
}

TEST_F(TinygradEngine, ItsSteeringLeavesNothingToSkip) {
  std::string steering = shell("python3 " + adapter() + " --steering");
  ASSERT_FALSE(steering.empty());
  steering.pop_back();
  auto c = testing::run_uopc(
      "fuzz --seconds 300 --time-limit 120 --max-programs 40 --jobs 2 --seed 3 --compare "
      "spec " +
      steering + " --target-persistent --target 'python3 " + adapter() +
      " --persistent' --out-dir " + ::testing::TempDir());
  EXPECT_NE(c.out.find("40 programs"), std::string::npos) << c.out << c.err;
  EXPECT_NE(c.out.find(" 0 skipped (unsupported)"), std::string::npos) << c.out << c.err;
}

}  // namespace
}  // namespace uopc

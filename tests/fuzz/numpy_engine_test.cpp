// The NumPy engine (targets/numpy_uir.py), a third implementation of every op: it agrees with
// the interpreter on every acceptance case, bit for bit; a campaign against it under the language's
// comparison is clean; a bug planted in it is found, small, with a replay line that replays;
// and it writes a failing program as a standalone NumPy script.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fuzz/oracles.h"
#include "fuzz/reduce.h"
#include "fuzz/target.h"
#include "ir/error.h"
#include "ir/parse.h"
#include "tests/support/run.h"

namespace uopc {
namespace {

std::string numpy_engine(bool persistent) {
  return shell_quote(UOPC_PYTHON) + " " +
         shell_quote(std::string(UOPC_SOURCE_DIR) + "/targets/numpy_uir.py") +
         (persistent ? " --persistent" : "");
}

std::vector<std::filesystem::path> valid_cases() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(UOPC_CASES_DIR))
    if (e.path().extension() == ".uir" && e.path().stem().string().rfind("err_", 0) != 0)
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Canonical text through the persistent protocol, exactly.
TEST(NumpyEngine, AgreesWithTheInterpreterOnEveryCase) {
  Target numpy(numpy_engine(true), true, 60);
  int checked = 0;
  for (const auto& path : valid_cases()) {
    Program p = parse_program(testing::read_file(path.string()), path.string());
    bool skipped = false;
    std::optional<Failure> f = check_target(p, numpy, &skipped);
    EXPECT_FALSE(f) << path << ": " << f->detail << "\n" << f->log;
    EXPECT_FALSE(skipped) << path;
    ++checked;
  }
  EXPECT_GT(checked, 50);
}

// The files as written, book form included, one process each.
TEST(NumpyEngine, ReadsTheBookForm) {
  int book = 0;
  for (const auto& path : valid_cases()) {
    std::string text = testing::read_file(path.string());
    if (text.find(", (") == std::string::npos && text.find(" : ") == std::string::npos) continue;
    ++book;
    auto want = testing::run_uopc("interp " + path.string());
    auto got = testing::run_shell(numpy_engine(false) + " " + path.string());
    EXPECT_EQ(got.out, want.out) << path << got.err;
    EXPECT_EQ(got.exit_code, want.exit_code) << path;
  }
  EXPECT_GE(book, 3);
}

// `uopc fuzz FLAGS` against the persistent NumPy engine, judged by spec comparison.
std::string numpy_campaign(const std::string& flags) {
  return "fuzz " + flags + " --compare spec --target-persistent --target " +
         shell_quote(numpy_engine(true));
}

TEST(NumpyEngine, ACampaignUnderSpecsComparisonIsClean) {
  auto c = testing::run_uopc(numpy_campaign("--seconds 60 --max-programs 1500 --jobs 2 --seed 11") +
                             " --out-dir " + ::testing::TempDir());
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  EXPECT_NE(c.out.find("1500 programs"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find(" 0 skipped (unsupported), 0 disagreements"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("compared spec"), std::string::npos) << c.out;
}

struct PlantedInNumpy {
  const char* plant;
  const char* signature;
};

TEST(NumpyEngine, CampaignsFindABugPlantedInIt) {
  for (PlantedInNumpy planted : {PlantedInNumpy{"idiv_truncates", "target-division"},
                                 PlantedInNumpy{"flip_drops_last_axis", "target-flip"}}) {
    std::string dir = ::testing::TempDir() + "/numpy-" + planted.plant;
    std::filesystem::remove_all(dir);
    ::setenv("NUMPY_UIR_PLANT", planted.plant, 1);
    auto c = testing::run_uopc(
        numpy_campaign("--seconds 60 --jobs 2 --seed 5 --minimize --max-programs 500") +
        " --corpus " + dir);
    EXPECT_EQ(c.exit_code, 1) << planted.plant << c.out << c.err;
    std::string file = dir + "/" + planted.signature + ".uir";
    ASSERT_TRUE(std::filesystem::exists(file)) << planted.plant << c.out;
    std::string text = testing::read_file(file);
    EXPECT_LE(count_statements(text), 4) << text;
    EXPECT_NE(text.find("# compared: spec\n"), std::string::npos) << text;
    // The replay line reproduces it, and without the plant the same file agrees.
    size_t at = text.find("# replay: uopc ") + 15;
    std::string replay = text.substr(at, text.find('\n', at) - at);
    EXPECT_EQ(testing::run_uopc(replay).exit_code, 1) << replay;
    ::unsetenv("NUMPY_UIR_PLANT");
    EXPECT_EQ(testing::run_uopc(replay).exit_code, 0) << replay;
  }
}

// Three engines at once: the interpreter, the compiled engine (here with a planted bug) and
// NumPy.
TEST(NumpyEngine, RunsBesideTheCompiledEngine) {
  auto c = testing::run_uopc(
      numpy_campaign("--seconds 60 --seed 5 --with-engines --plant permute_inverse") +
      " --out-dir " + ::testing::TempDir());
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  EXPECT_NE(c.out.find("signature engines-permute: "), std::string::npos) << c.out;
}

TEST(NumpyEngine, EmitsAStandaloneScript) {
  std::string uir = ::testing::TempDir() + "/emit.uir", py = ::testing::TempDir() + "/emit.py";
  std::ofstream(uir) << "%x = buffer 6 dtype=i32\n%m = reshape %x shape=[2 3]\n"
                        "%f = flip %m axes=[0 1]\n%q = idiv %f 4\n";
  auto ran = testing::run_shell(numpy_engine(false) + " " + uir + " --emit " + py + " && " +
                                shell_quote(UOPC_PYTHON) + " " + py);
  std::string out = ran.out;
  EXPECT_EQ(ran.exit_code, 0) << out << ran.err;
  // The engine's own output, then the script's: the same values.
  auto want = testing::run_uopc("interp " + uir);
  EXPECT_EQ(out.substr(0, want.out.size()), want.out) << out;
  EXPECT_NE(out.find("[[-3, -1, 2], [-2, 0, -3]]"), std::string::npos) << out;
  std::string script = testing::read_file(py);
  EXPECT_NE(script.find("flip(v1_m, [0, 1])"), std::string::npos) << script;
}

}  // namespace
}  // namespace uopc

// `uopc fuzz` as a user runs it.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "compiler/backend.h"
#include "fuzz/campaign.h"
#include "fuzz/reduce.h"
#include "fuzz/target.h"
#include "ir/parse.h"
#include "ir/plant.h"
#include "tests/fuzz/found_programs.h"
#include "tests/support/run.h"

namespace uopc {
namespace {

using testing::run_uopc;

// The exit code of the command on a reproducer's "# replay: uopc ..." line, or -1 without one.
int replay_exit_code(const std::string& reproducer) {
  size_t at = reproducer.find("# replay: uopc ");
  if (at == std::string::npos) return -1;
  at += std::string("# replay: uopc ").size();
  return run_uopc(reproducer.substr(at, reproducer.find('\n', at) - at)).exit_code;
}

// A campaign with `flags` that fails and writes its failures into a fresh folder `folder`:
// the path of the reproducer `file` it must leave there ("" when it left none), and the
// campaign's output.
std::pair<std::string, std::string> failure_file(const std::string& flags,
                                                 const std::string& folder,
                                                 const std::string& file) {
  std::string dir = ::testing::TempDir() + "/" + folder;
  std::filesystem::remove_all(dir);
  auto c = run_uopc("fuzz " + flags + " --out-dir " + dir);
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  std::string path = dir + "/" + file;
  EXPECT_TRUE(std::filesystem::exists(path)) << c.out;
  return {std::filesystem::exists(path) ? path : "", c.out};
}

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
  auto c = run_uopc("fuzz --plant permute_inverse --seconds 20 --seed 5 --out-dir " +
                    ::testing::TempDir());
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

// The summary's hint is a command that replays the failure, with the flags the campaign ran
// with, and what --replay prints is a .uir file.
TEST(FuzzCli, TheReplayHintReplaysAndPrintsValidUir) {
  auto c =
      run_uopc("fuzz --plant permute_inverse --seconds 20 --seed 5 --max-elements 64 --out-dir " +
               ::testing::TempDir());
  ASSERT_EQ(c.exit_code, 1) << c.out << c.err;
  size_t at = c.out.find("replay with uopc ");
  ASSERT_NE(at, std::string::npos) << c.out;
  at += std::string("replay with uopc ").size();
  std::string hint = c.out.substr(at, c.out.find(')', at) - at);
  EXPECT_NE(hint.find("--max-elements 64"), std::string::npos) << hint;
  auto replayed = run_uopc(hint);
  EXPECT_EQ(replayed.exit_code, 1) << hint << "\n" << replayed.out << replayed.err;
  EXPECT_EQ(replayed.out.rfind("# ", 0), 0u) << replayed.out;
  auto parsed = run_uopc("check -", replayed.out);
  EXPECT_EQ(parsed.exit_code, 0) << replayed.out << parsed.err;
}

// UOPC_PLANT is --plant for every subcommand, and a name that is no plant is an error.
TEST(FuzzCli, UopcPlantWorksLikePlant) {
  ::setenv("UOPC_PLANT", "permute_inverse", 1);
  auto found = run_uopc("fuzz --seconds 20 --seed 5 --out-dir " + ::testing::TempDir());
  ::setenv("UOPC_PLANT", "no_such_bug", 1);
  auto bad = run_uopc("interp -", "%a = stack 1 2\n");
  ::unsetenv("UOPC_PLANT");
  EXPECT_EQ(found.exit_code, 1) << found.out << found.err;
  EXPECT_NE(found.out.find("--plant permute_inverse"), std::string::npos) << found.out;
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("UOPC_PLANT: no planted bug named 'no_such_bug'"), std::string::npos)
      << bad.err;
}

// With stderr a log file rather than a terminal, a campaign still says how it is doing.
TEST(FuzzCli, StatusLinesInALog) {
  auto c = run_uopc("fuzz --seconds 3.5 --seed 5 --status-every 1");
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  size_t lines = 0;
  for (size_t at = 0; (at = c.err.find("fuzz: ", at)) != std::string::npos; ++at) ++lines;
  EXPECT_GE(lines, 3u) << c.err;
  EXPECT_EQ(c.err.find('\r'), std::string::npos) << "no terminal redraws in a log";
}

// A file in the corpus folder that this command did not write is reported and left alone;
// the signature's reproducer goes beside it.
TEST(FuzzCli, AForeignCorpusFileIsLeftAlone) {
  std::string dir = ::testing::TempDir() + "/foreign-corpus";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/engines-permute.uir") << "not a reproducer\n";
  auto c = run_uopc(
      "fuzz --plant permute_inverse --max-programs 200 --seconds 10 --seed 5 --corpus " + dir);
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  EXPECT_NE(c.err.find("left alone, not taken as a reproducer"), std::string::npos) << c.err;
  EXPECT_EQ(testing::read_file(dir + "/engines-permute.uir"), "not a reproducer\n");
  EXPECT_TRUE(std::filesystem::exists(dir + "/engines-permute-1.uir")) << c.out;
}

// `fuzz --check -` reads the program from standard input once: it read it twice, found it empty
// the second time, and said every oracle agreed on a failing program.
TEST(FuzzCli, CheckReadsStandardInputOnce) {
  std::string text = "%x = stack 1.0 2.0\n%p = pad %x pads=[1 1]\n";
  auto failing = run_uopc("fuzz --check - --plant pad_fill_nonzero", text);
  EXPECT_EQ(failing.exit_code, 1) << failing.out << failing.err;
  // with the name a campaign files it under
  EXPECT_NE(failing.out.find("\nsignature: engines-pad\n"), std::string::npos) << failing.out;
  auto fine = run_uopc("fuzz --check -", text);
  EXPECT_EQ(fine.exit_code, 0) << fine.out << fine.err;
  EXPECT_NE(fine.out.find("every oracle agrees on <stdin>"), std::string::npos) << fine.out;
}

// reduce looks for the failure with the kernel options it is given (this one shows only with
// an upcast), and the reproducer's replay line reproduces it.
TEST(FuzzCli, ReduceHonoursTheKernelOptions) {
  std::string dir = ::testing::TempDir() + "/reduce-opts";
  std::filesystem::create_directories(dir);
  std::string in = dir + "/up.uir", out = dir + "/small.uir";
  std::ofstream(in) << "%x = buffer 32\n%m = reshape %x shape=[4 8]\n%y = add %m 1.0\n"
                       "%z = mul %y 2.0\n";
  auto c = run_uopc("reduce " + in +
                    " --plant upcast_wrong_offset --opts 'upcast=1:2' "
                    "--threads 1 --backend tcc -o " +
                    out);
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  std::string text = testing::read_file(out);
  size_t at = text.find("# replay: uopc ");
  ASSERT_NE(at, std::string::npos) << text;
  at += std::string("# replay: uopc ").size();
  auto replayed = run_uopc(text.substr(at, text.find('\n', at) - at));
  EXPECT_EQ(replayed.exit_code, 1) << text << replayed.out << replayed.err;
}

// Ctrl-C (SIGINT to the whole process group) and SIGTERM end a campaign at once, with its
// summary, and no worker is reported as crashed.
TEST(FuzzCli, SigintAndSigtermEndWithTheSummary) {
  for (const char* signal : {"INT", "TERM"}) {
    std::string out = ::testing::TempDir() + "/stopped.txt";
    // setsid: the campaign leads its own process group, which the signal goes to, as a
    // terminal's Ctrl-C does.
    std::string script = std::string("setsid ") + UOPC_BINARY_PATH +
                         " fuzz --seconds 60 --seed 5 --jobs 2 >" + out +
                         " 2>/dev/null & p=$!; sleep 1.5; kill -" + signal +
                         " -- -$p; wait $p; echo \"exit $?\" >>" + out;
    auto start = std::chrono::steady_clock::now();
    std::system(("bash -c '" + script + "'").c_str());
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string text = testing::read_file(out);
    EXPECT_NE(text.find(std::string("stopped by SIG") + signal), std::string::npos) << text;
    EXPECT_NE(text.find("0 disagreements"), std::string::npos) << text;
    EXPECT_NE(text.find("exit 0"), std::string::npos) << text;
    EXPECT_LT(seconds, 30) << "the campaign ran on after the signal";
  }
}

// Without --corpus a failure still leaves a file, whose replay line reproduces it.
TEST(FuzzCli, AFailureLeavesAFileWithoutACorpus) {
  auto [path, out] = failure_file("--plant permute_inverse --seconds 20 --seed 5", "artifacts",
                                  "failure-engines-permute.uir");
  ASSERT_FALSE(path.empty());
  EXPECT_NE(out.find("reproducer " + path), std::string::npos) << out;
  std::string text = testing::read_file(path);
  EXPECT_EQ(replay_exit_code(text), 1) << text;
}

// A shrink has a time limit of its own, and one that reaches it ends on what it reached
// instead of being killed with it: the failure stays, says it was cut short, and replays.
// With a limit of 0 what it reached is the program as found.
TEST(FuzzCli, AShrinkPastItsTimeLimitKeepsWhatItReached) {
  std::string flags = "--plant reshape_column_major --seconds 60 --seed 1 --minimize";
  auto [path, out] =
      failure_file(flags + " --shrink-time-limit 0", "shrink-limit", "failure-engines-reshape.uir");
  ASSERT_FALSE(path.empty());
  std::string text = testing::read_file(path);
  EXPECT_NE(text.find("(shrinking stopped at its 0 s limit, --shrink-time-limit"),
            std::string::npos)
      << text;
  EXPECT_EQ(replay_exit_code(text), 1) << text;
  auto found = run_uopc("fuzz --replay 1 --plant reshape_column_major");
  EXPECT_EQ(count_statements(text), count_statements(found.out)) << text << found.out;
  // the same failure, given its time, shrinks, and says nothing of a limit
  auto [small, small_out] = failure_file(flags, "shrink-unlimited", "failure-engines-reshape.uir");
  ASSERT_FALSE(small.empty());
  std::string small_text = testing::read_file(small);
  EXPECT_LT(count_statements(small_text), count_statements(text)) << small_text;
  EXPECT_EQ(small_text.find("--shrink-time-limit"), std::string::npos) << small_text;
}

// The reproducer a campaign under reshape_column_major (seed 1, one disagreement) writes when
// its shrink meets the trouble `hook` (an environment setting) makes, after checking that the
// campaign reached its summary; with the statements of the program as found.
struct HookedShrink {
  std::string text;
  int found_statements = 0;
};

HookedShrink shrink_with_hook(const std::string& hook, const std::string& name,
                              const std::string& shrink_limit) {
  std::string dir = ::testing::TempDir() + "/" + name;
  std::filesystem::remove_all(dir);
  auto c = testing::run_shell(hook + " " + std::string(UOPC_BINARY_PATH) +
                              " fuzz --plant reshape_column_major --seconds 60 --seed 1 "
                              "--minimize --time-limit 0.5 --shrink-time-limit " +
                              shrink_limit + " --out-dir " + dir);
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  EXPECT_NE(c.out.find("1 disagreement"), std::string::npos) << c.out;
  std::string path = dir + "/failure-engines-reshape.uir";
  EXPECT_TRUE(std::filesystem::exists(path)) << c.out;
  if (!std::filesystem::exists(path)) return {};
  auto found = run_uopc("fuzz --replay 1 --plant reshape_column_major");
  return {testing::read_file(path), count_statements(found.out)};
}

// A shrink whose candidate never ends (a kernel that loops forever) cannot end itself: the
// driver kills its worker two time limits past the shrink's, keeps the failure as found with
// what happened, and the campaign goes on to its summary.
TEST(FuzzCli, AWorkerThatHangsShrinkingIsKilledAndTheFailureKept) {
  HookedShrink r = shrink_with_hook("UOPC_FUZZ_STALL_SHRINK=1", "shrink-hangs", "1");
  ASSERT_FALSE(r.text.empty());
  EXPECT_NE(r.text.find("(not shrunk: the worker ran past the 2 s time limit shrinking it)"),
            std::string::npos)
      << r.text;
  EXPECT_EQ(replay_exit_code(r.text), 1) << r.text;
  EXPECT_EQ(count_statements(r.text), r.found_statements) << r.text;
}

// A compiler that crashes on some of a shrink's candidates (in its type rules, say) kills the
// process shrinking; the shrink goes on in child processes, passing over each candidate that
// killed one, and reaches a small program that still fails.
TEST(FuzzCli, AShrinkPassesOverCandidatesThatKillIt) {
  HookedShrink r = shrink_with_hook("UOPC_FUZZ_CRASH_SHRINK=5", "shrink-crashes", "5");
  ASSERT_FALSE(r.text.empty());
  EXPECT_NE(r.text.find("candidates that killed the shrink's process passed over)"),
            std::string::npos)
      << r.text;
  EXPECT_EQ(r.text.find("not shrunk"), std::string::npos) << r.text;
  EXPECT_EQ(replay_exit_code(r.text), 1) << r.text;
  EXPECT_LE(count_statements(r.text), 4) << r.text;
  EXPECT_LT(count_statements(r.text), r.found_statements) << r.text;
}

// A bug that lets ill-typed programs through is named by the type rules the parser does not
// check, not by the ops of whatever program happened to show it, nor by the one rule each program
// happens to break: a checker that skips several rules is one signature, one file.
TEST(FuzzCli, WronglyAcceptedProgramsAreNamedByTheirRule) {
  std::string dir = ::testing::TempDir() + "/rules-corpus";
  std::filesystem::remove_all(dir);
  auto c = run_uopc(
      "fuzz --plant skip_static_checks --max-programs 1200 --seconds 60 --seed 5 "
      "--corpus " +
      dir);
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  const std::set<std::string> rules = {"reshape_element_count",
                                       "reduce_pop",
                                       "pad_length",
                                       "dtype",
                                       "permutation",
                                       "permutation_length",
                                       "flip_axes",
                                       "flip_axis_range",
                                       "shrink_bounds",
                                       "expand",
                                       "index_range",
                                       "shrink_provability",
                                       "stack_shapes",
                                       "pad_value_dtype",
                                       "reshape_inference",
                                       "rank_limit",
                                       "index_count",
                                       "reduce_op",
                                       "reduce_pop_sign",
                                       "where_condition",
                                       "assert_dtypes",
                                       "stack_dtypes",
                                       "buffer_size",
                                       "flip_axis_sign",
                                       "broadcast",
                                       "reduce_dtype",
                                       "pad_left_sign",
                                       "pad_right_sign",
                                       "expand_rank",
                                       "shrink_size",
                                       "shrink_offset_sign",
                                       "shrink_arity",
                                       "index_sign",
                                       "index_dtype",
                                       "permutation_range",
                                       "expand_to_smaller"};
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::string name = e.path().stem().string();
    ++files;
    ASSERT_EQ(name.rfind("rejection-", 0), 0u) << name;
    std::stringstream named(name.substr(10));
    int count = 0;
    for (std::string rule; std::getline(named, rule, '+'); ++count)
      EXPECT_TRUE(rules.count(rule)) << rule << " in " << name;
    EXPECT_GT(count, 1) << name;
  }
  EXPECT_EQ(files, 1);
}

// One bug, one file: a wrong copy index shows in whatever op an upcast, an unroll or --opts auto
// reaches, and all of it is one signature with one minimized reproducer. Its 196 failures are
// not each shrunk again: once a few of one signature were, the rest are kept as found.
TEST(FuzzCampaign, OneBugLeavesOneFile) {
  std::string dir = ::testing::TempDir() + "/one-bug-corpus";
  std::filesystem::remove_all(dir);
  auto c = testing::run_uopc(
      "fuzz --plant upcast_wrong_offset --max-programs 1500 --seconds 60 "
      "--jobs 2 --seed 5 --minimize --corpus " +
      dir);
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    files.push_back(e.path().filename().string());
  ASSERT_EQ(files.size(), 1u) << c.out;
  EXPECT_EQ(files[0], "engines-upcast.uir") << c.out;
  EXPECT_LE(count_statements(testing::read_file(dir + "/" + files[0])), 2) << c.out;
  std::smatch counts;
  ASSERT_TRUE(std::regex_search(c.out, counts,
                                std::regex("engines-upcast: 196 failures \\(([0-9]+) shrunk, ")))
      << c.out;
  // a worker may start shrinks before the driver, which polls, has heard of the others'
  EXPECT_LE(std::stoi(counts[1]), 12) << c.out;
}

TEST(FuzzCli, BadArgumentsExitTwo) {
  EXPECT_EQ(run_uopc("fuzz --plant no_such_bug").exit_code, 2);
  EXPECT_EQ(run_uopc("fuzz --backend gcc").exit_code, 2);
  EXPECT_EQ(run_uopc("fuzz --jobs 0").exit_code, 2);
}

// A campaign's failing program, as a file.
std::string failing_program(const std::string& plant) {
  auto c = testing::run_uopc("fuzz --plant " + plant + " --seconds 20 --seed 5 --out-dir " +
                             ::testing::TempDir());
  size_t at = c.out.find("):\n", c.out.find("# program (seed "));
  size_t end = c.out.find("fuzz: ", at);
  std::string path = ::testing::TempDir() + "/failing-" + plant + ".uir";
  std::ofstream(path) << c.out.substr(at + 3, end - at - 3);
  return path;
}

TEST(ReduceCli, WritesASmallReproducerWithAHeader) {
  std::string in = failing_program("permute_inverse");
  std::string out = ::testing::TempDir() + "/reduced.uir";
  auto c = testing::run_uopc("reduce --plant permute_inverse -o " + out + " " + in);
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  EXPECT_NE(c.out.find("reduced "), std::string::npos) << c.out;
  std::string text = testing::read_file(out);
  EXPECT_EQ(text.rfind("# reduced by uopc reduce from ", 0), 0u) << text;
  EXPECT_NE(text.find("# planted bug: permute_inverse\n"), std::string::npos) << text;
  EXPECT_NE(
      text.find("# replay: uopc fuzz --check " + out + " --backend tcc --plant permute_inverse "),
      std::string::npos)
      << text;
  EXPECT_LE(count_statements(text), 6) << text;
  // The reproducer still trips the bug, and only with it (bounds checked, so that a read past
  // a buffer fails every time instead of when the bytes there happen to differ).
  EXPECT_EQ(testing::run_uopc("diff --check-bounds --backend tcc --plant permute_inverse " + out)
                .exit_code,
            1);
  EXPECT_EQ(testing::run_uopc("diff --check-bounds --backend tcc " + out).exit_code, 0);
  // the same from standard input, which can be read only once
  auto piped =
      testing::run_uopc("reduce --plant permute_inverse -o " + out + " -", testing::read_file(in));
  ASSERT_EQ(piped.exit_code, 0) << piped.out << piped.err;
  EXPECT_EQ(testing::read_file(out).rfind("# reduced by uopc reduce from <stdin>: ", 0), 0u);
  EXPECT_LE(count_statements(testing::read_file(out)), 6);
}

// A printer that inlines a stack's literal operand writes a text that does not parse; the
// reducer prints the program, and each candidate, with literals as statements instead, so that
// the reduced file parses and fails again (it stopped at a parse error of its own output).
TEST(ReduceCli, APrinterThatInlinesTooMuchStillReducesToAFileThatParses) {
  std::string in = ::testing::TempDir() + "/literal_operands.uir";
  std::ofstream(in) << "%x = buffer 4\n%y = neg %x\n%a = expand 1.5 shape=[4]\n"
                       "%s = stack %y %a %x\n%r = reduce %s op=add\n";
  std::string out = ::testing::TempDir() + "/literal_operands_reduced.uir";
  auto c = testing::run_uopc("reduce --plant literal_operand_any_op -o " + out + " " + in);
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  std::string text = testing::read_file(out);
  EXPECT_NE(text.find("# signature: roundtrip-literal_operands\n"), std::string::npos) << text;
  EXPECT_LE(count_statements(text), 3) << text;
  EXPECT_EQ(testing::run_uopc("fuzz --check " + out + " --plant literal_operand_any_op").exit_code,
            1);
  EXPECT_EQ(testing::run_uopc("fuzz --check " + out).exit_code, 0);
}

// A --test script `name` that exits 0 while its program still shows flip_off_by_one, after the
// commands `first`. With bounds checks: an off-by-one flip reads past its buffer, and unchecked,
// what it reads there decides whether a candidate differs, so the test would not answer the
// same twice.
std::string flip_still_fails(const std::string& name, const std::string& first = "") {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << "#!/bin/sh\n"
                      << first << "! " << UOPC_BINARY_PATH
                      << " diff --check-bounds --backend tcc --plant flip_off_by_one \"$1\"\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

TEST(ReduceCli, TakesAnExternalTest) {
  std::string in = failing_program("flip_off_by_one");
  std::string script = flip_still_fails("still-fails.sh");
  std::string out = ::testing::TempDir() + "/reduced-ext.uir";
  auto c = testing::run_uopc("reduce --test " + script + " -o " + out + " " + in);
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  std::string text = testing::read_file(out);
  EXPECT_LE(count_statements(text), 6) << text;
  EXPECT_NE(text.find("# replay: " + script), std::string::npos) << text;
  // The report keeps what the test said about the reduced program, and reduce showed progress.
  EXPECT_NE(text.find("# the test's last output:\n#   "), std::string::npos) << text;
  size_t said = text.find("# the test's last output:\n#   ");
  ASSERT_NE(said, std::string::npos) << text;
  std::string line = text.substr(said, text.find('\n', said + 30) - said);
  EXPECT_TRUE(line.find(" differs: ") != std::string::npos ||
              line.find(": the tcc engine failed: ") != std::string::npos)
      << text;
  EXPECT_NE(c.err.find("reduce: "), std::string::npos) << c.err;
}

// Ctrl-C (SIGINT to the whole process group) ends a reduction at once, with the smallest
// failing program so far written as usual. It reached neither uopc, which ignored it while its
// test ran, nor the test, which ran in a process group of its own: the reduction went on.
TEST(ReduceCli, SigintEndsWithTheSmallestSoFar) {
  std::string in = failing_program("flip_off_by_one");
  std::string test = flip_still_fails("slow-test.sh", "sleep 0.4\n");
  std::string out = ::testing::TempDir() + "/interrupted.uir", log = out + ".log";
  std::filesystem::remove(out);
  std::string script = std::string("setsid ") + UOPC_BINARY_PATH + " reduce --test " + test +
                       " -o " + out + " " + in + " >" + log +
                       " 2>&1 & p=$!; sleep 2; kill -INT -- -$p; wait $p; echo \"exit $?\" >>" +
                       log;
  auto start = std::chrono::steady_clock::now();
  std::system(("bash -c '" + script + "'").c_str());
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string said = testing::read_file(log), text = testing::read_file(out);
  EXPECT_NE(said.find(", interrupted by SIGINT): "), std::string::npos) << said;
  EXPECT_NE(said.find("exit 0"), std::string::npos) << said;
  EXPECT_NE(text.find("# interrupted by SIGINT: the smallest so far\n"), std::string::npos) << text;
  EXPECT_EQ(replay_exit_code(text), -1) << text;  // an external test's replay is the test itself
  EXPECT_LT(seconds, 20) << "the reduction ran on after the signal";
}

// A test that hangs is stopped after --timeout and counts as not failing.
TEST(ReduceCli, ATestThatHangsTimesOut) {
  std::string in = failing_program("flip_off_by_one");
  auto start = std::chrono::steady_clock::now();
  auto c = testing::run_uopc("reduce --test 'sleep 600 ; true' --timeout 1 -o " +
                             ::testing::TempDir() + "/never.uir " + in);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(c.exit_code, 2) << c.out << c.err;
  EXPECT_NE(c.err.find("(exit 0 within --timeout 1 s) to begin with"), std::string::npos) << c.err;
  EXPECT_LT(seconds, 30);
}

// Whether checking `text` under `plant` kills the process that does it.
bool kills_checking(const std::string& text, Plant plant) {
  pid_t pid = ::fork();
  if (pid == 0) {
    set_plant(plant);
    std::unique_ptr<Backend> tcc = make_tcc_backend();
    check_program(parse_program(text, "case.uir"), *tcc, true);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFSIGNALED(status);
}

// A case whose kernel kills the process under a plant cannot be reduced in that process: uopc
// reduce finds it so and reduces it through `uopc run`, to at most four statements whose
// replay line still ends in that crash, and which `fuzz --check` reports as one.
TEST(ReduceCli, ACrashingCaseReducesThroughUopcRun) {
  int crashing = 0;
  for (const PlantInfo& plant : plant_list()) {
    if (!kills_process(plant.plant)) continue;
    for (const auto& e : std::filesystem::directory_iterator(UOPC_CASES_DIR)) {
      std::string name = e.path().filename().string();
      if (e.path().extension() != ".uir" || name.rfind("err_", 0) == 0) continue;
      if (!kills_checking(testing::read_file(e.path().string()), plant.plant)) continue;
      ++crashing;
      std::string out = ::testing::TempDir() + "/crash-" + name;
      auto c = run_uopc("reduce " + e.path().string() + " --plant " + std::string(plant.name) +
                        " -o " + out);
      EXPECT_EQ(c.exit_code, 0) << name << ": " << c.out << c.err;
      std::string text = testing::read_file(out);
      EXPECT_LE(count_statements(text), 4) << name << ":\n" << text;
      EXPECT_NE(text.find("# signature: crash-SIG"), std::string::npos) << text;
      EXPECT_EQ(replay_exit_code(text), 1) << text;
    }
  }
  EXPECT_GE(crashing, 1);
}

TEST(ReduceCli, RefusesAProgramThatDoesNotFail) {
  std::string path = ::testing::TempDir() + "/fine.uir";
  std::ofstream(path) << "%x = buffer 4\n%y = neg %x\n";
  auto c = testing::run_uopc("reduce " + path);
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.err.find("nothing to reduce: every oracle agrees"), std::string::npos) << c.err;
}

// The symbolic oracle's reproducer fails (`fuzz --check` exits 1), but it is an expression,
// which reduce does not shrink: it says so rather than that every oracle agrees.
TEST(ReduceCli, SaysAnExpressionIsNotAProgram) {
  std::string path = ::testing::TempDir() + "/div-div.uir";
  std::ofstream(path) << "# expression: ((neg(x0)//1073741824)//64)  ->  ((x0*-1)//0)  x0 in "
                         "[-8388608, 8388608]\n";
  std::string plant = " --plant div_div_unchecked";
  EXPECT_EQ(testing::run_uopc("fuzz --check " + path + plant).exit_code, 1);
  auto c = testing::run_uopc("reduce " + path + plant);
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.err.find("div-div.uir: error: this is an expression of the symbolic oracle, not a "
                       "program"),
            std::string::npos)
      << c.err;
}

// A hand-written test that `uopc run` fails only under its own default settings (kernel
// options chosen by auto): reduce and --check, given no settings, try those too, and the
// reproducer's settings shrink from there. Settings given are kept to.
TEST(ReduceCli, AProgramFailingOnlyUnderRunsDefaultsReducesUnderThem) {
  std::string in = ::testing::TempDir() + "/one-hot.uir";
  std::ofstream(in) << "# one-hot labels, and the labels back by a max\n"
                       "%labels = stack 2 0 1\n%l = reshape %labels shape=[3 1]\n"
                       "%le = expand %l shape=[3 4]\n%c = stack 0 1 2 3\n"
                       "%cr = reshape %c shape=[1 4]\n%ce = expand %cr shape=[3 4]\n"
                       "%hot = cmpeq %le %ce\n%h = cast %hot dtype=i32\n"
                       "%r0 = stack 0 0 1 0\n%r1 = stack 1 0 0 0\n%r2 = stack 0 1 0 0\n"
                       "%want = stack %r0 %r1 %r2\n%ok = assert %h %want\n"
                       "%hp = permute %h order=[1 0]\n%cp = permute %ce order=[1 0]\n"
                       "%w = mul %hp %cp\n%back = reduce %w op=max pop=1\n"
                       "%ok2 = assert %back %labels\n";
  std::string plant = " --plant equal_bounds_touching";
  ASSERT_EQ(run_uopc("run " + in + plant).exit_code, 1);
  auto given = run_uopc("fuzz --check " + in + plant + " --opts none --threads 1");
  EXPECT_EQ(given.exit_code, 0) << given.out << given.err;
  auto check = run_uopc("fuzz --check " + in + plant);
  EXPECT_EQ(check.exit_code, 1) << check.out << check.err;
  EXPECT_NE(check.out.find("failed with --opts 'auto'"), std::string::npos) << check.out;
  std::string out = ::testing::TempDir() + "/one-hot-reduced.uir";
  auto c = run_uopc("reduce " + in + plant + " -o " + out);
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  std::string text = testing::read_file(out);
  EXPECT_LE(count_statements(text), 4) << text;
  EXPECT_EQ(replay_exit_code(text), 1) << text;
  auto kept = run_uopc("reduce " + in + plant + " --opts none");
  EXPECT_EQ(kept.exit_code, 2) << kept.out << kept.err;
}

// A hand-written test, as the course writes them (values checked by assert against literals),
// that an external engine gets wrong, shrinks through that engine with --target; the
// reproducer's replay line fails against it and passes against a correct engine.
TEST(ReduceCli, ShrinksThroughAnExternalEngine) {
  std::string in = ::testing::TempDir() + "/row-max.uir";
  std::ofstream(in) << "# each row minus its max\n"
                       "%m = stack 1 5 2 7 3 0 4 4 9 8 6 2\n%a = reshape %m shape=[3 4]\n"
                       "%t = permute %a order=[1 0]\n%mx = reduce %t op=max pop=1\n"
                       "%c = reshape %mx shape=[3 1]\n%e = expand %c shape=[3 4]\n"
                       "%d = sub %a %e\n%want = stack -6 -2 -5 0 -1 -4 0 0 0 -1 -3 -7\n"
                       "%w = reshape %want shape=[3 4]\n%ok = assert %d %w\n";
  std::string run = std::string(UOPC_BINARY_PATH) + " run --backend tcc";
  std::string engine = run + " --plant reduce_trailing_axes";
  std::string out = ::testing::TempDir() + "/row-max-reduced.uir";
  auto c = run_uopc("reduce " + in + " --target '" + engine + "' -o " + out);
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  EXPECT_NE(c.err.find("reduce: "), std::string::npos) << c.err;  // progress
  std::string text = testing::read_file(out);
  EXPECT_LE(count_statements(text), 4) << text;
  EXPECT_NE(text.find("# signature: target-reduce\n"), std::string::npos) << text;
  EXPECT_EQ(replay_exit_code(text), 1) << text;
  EXPECT_EQ(run_uopc("fuzz --check " + out + " --target '" + run + "'").exit_code, 0) << text;
  // a program the engine gets right is refused, naming the file
  auto right = run_uopc("reduce " + in + " --target '" + run + "'");
  EXPECT_EQ(right.exit_code, 2) << right.out << right.err;
  EXPECT_NE(right.err.find("row-max.uir: error: nothing to reduce: the engine agrees"),
            std::string::npos)
      << right.err;
  // from standard input, named as every command names it
  auto piped = run_uopc("reduce - --target '" + engine + "' -o " + out, testing::read_file(in));
  ASSERT_EQ(piped.exit_code, 0) << piped.out << piped.err;
  EXPECT_EQ(testing::read_file(out).rfind("# reduced by uopc reduce from <stdin>: ", 0), 0u);
  EXPECT_LE(count_statements(testing::read_file(out)), 4);
}

// The progress lines count the user's statements, as the summary does, not those of the
// canonical form (where a scalar operand is an expand of its own: 7 here).
TEST(ReduceCli, ProgressCountsTheStatementsOfTheFile) {
  std::string in = ::testing::TempDir() + "/scaled-flip.uir";
  std::ofstream(in) << "%x = stack 1 2 3 4\n%f = flip %x axes=[0]\n%two = index %x 1\n"
                       "%y = mul %f %two\n%want = stack 8 6 4 2\n%ok = assert %y %want\n";
  std::string engine = std::string(UOPC_BINARY_PATH) + " run --backend tcc --plant flip_off_by_one";
  auto c = run_uopc("reduce " + in + " --target '" + engine + "' -o " + in + ".small");
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  EXPECT_EQ(c.err.rfind("reduce: 6 statements -> ", 0), 0u) << c.err;
  // (how far it gets is ShrinksThroughAnExternalEngine's subject: here only what it counts)
  EXPECT_EQ(c.out.rfind("reduced 6 statements to ", 0), 0u) << c.out;
  for (size_t at = 0; (at = c.err.find("reduce: ", at)) != std::string::npos; ++at)
    EXPECT_EQ(c.err.compare(at, 24, "reduce: 6 statements -> "), 0) << c.err;
}

// A program uopc refuses that the engine runs shrinks by lines, uopc still refusing it the
// same way: here an offset whose interval the engine's pad rule makes too narrow.
TEST(ReduceCli, ShrinksAMalformedProgramAnEngineRuns) {
  std::string in = ::testing::TempDir() + "/pad-offset.uir";
  std::ofstream(in) << "%x = stack 1 2 3\n%p = pad %x pads=[1 1] value=-5\n%n = neg %x\n"
                       "%o = index %p 0\n%y = buffer 8\n%s = shrink %y %o shape=[4]\n";
  std::string engine = std::string(UOPC_BINARY_PATH) + " run --plant pad_bounds_ignore_fill";
  std::string out = ::testing::TempDir() + "/pad-offset-reduced.uir";
  auto c = run_uopc("reduce " + in + " --target '" + engine + "' -o " + out);
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  std::string text = testing::read_file(out);
  EXPECT_EQ(text.find(" = neg "), std::string::npos) << text;
  EXPECT_NE(text.find("# signature: target-rejection-shrink\n"), std::string::npos) << text;
  EXPECT_EQ(run_uopc("check " + out).exit_code, 2) << text;
  EXPECT_EQ(replay_exit_code(text), 1) << text;
}

// A campaign's offset that its value's interval leaves out of range sums every element it
// reads, so no line of it can go; the program it was built on shrinks instead, and the offset
// is built anew, as a campaign's --minimize does. (A campaign's reproducer of 25 statements.)
TEST(ReduceCli, ShrinksTheProgramACampaignsOffsetWasBuiltOn) {
  std::string in = ::testing::TempDir() + "/interval-stack.uir";
  std::ofstream(in) << found::kIntervalStackBreaker;
  std::string engine = std::string(UOPC_BINARY_PATH) + " run --plant max_interval_lower_high";
  std::string out = ::testing::TempDir() + "/interval-stack-reduced.uir";
  auto c = run_uopc("reduce " + in + " --target '" + engine + "' -o " + out);
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  std::string text = testing::read_file(out);
  EXPECT_LE(count_statements(text), 8) << text;
  EXPECT_NE(text.find("# signature: target-interval_max\n"), std::string::npos) << text;
  EXPECT_EQ(run_uopc("check " + out).exit_code, 2) << text;
  EXPECT_EQ(replay_exit_code(text), 1) << text;
}

// An engine command that cannot be started (not found, not executable) is a mistake in the
// command line, not a failure of every program: every subcommand that takes --target says so.
TEST(FuzzTarget, AnEngineThatCannotStartIsAUserError) {
  std::string in = ::testing::TempDir() + "/one.uir";
  std::ofstream(in) << "%x = stack 1 2\n";
  for (const std::string& command : {std::string("fuzz --seconds 5 --target /nonexistent/engine"),
                                     "fuzz --check " + in + " --target /nonexistent/engine",
                                     "reduce " + in + " --target /nonexistent/engine",
                                     "fuzz --check " + in + " --target " + in}) {
    auto c = run_uopc(command);
    EXPECT_EQ(c.exit_code, 2) << command << "\n" << c.out << c.err;
    EXPECT_NE(c.err.find("cannot be started (exit 12"), std::string::npos) << command << c.err;
  }
  auto missing = run_uopc("fuzz --check " + in + " --target '/nonexistent/engine --run'");
  EXPECT_NE(missing.err.find("(exit 127: /nonexistent/engine: not found)"), std::string::npos)
      << missing.err;
}

// A command of plain words runs without a shell; one with shell syntax (an assignment, a
// redirection, quotes) runs through sh, as written.
TEST(TargetProtocol, ACommandWithShellSyntaxRunsThroughTheShell) {
  std::string file = ::testing::TempDir() + "/shell-syntax.uir";
  std::ofstream(file) << "%x = buffer 6 dtype=i32\n%v = reshape %x shape=[2 3]\n";
  std::string run = std::string(UOPC_BINARY_PATH) + " run --backend tcc";
  for (const std::string& command :
       {run, "UOPC_PRINT_LIMIT=0 " + run, "UOPC_PRINT_LIMIT='0' " + run, run + " 2>/dev/null",
        "'" + std::string(UOPC_BINARY_PATH) + "' run --backend tcc"}) {
    auto c = testing::run_uopc("fuzz --check " + file + " --target " + shell_quote(command));
    EXPECT_EQ(c.exit_code, 0) << command << "\n" << c.out << c.err;
    // The engine's own arguments reach it: one it refuses makes the check fail.
    auto wrong = testing::run_uopc("fuzz --check " + file + " --target " +
                                   shell_quote(command + " --backend nosuch"));
    EXPECT_EQ(wrong.exit_code, 1) << command << "\n" << wrong.out << wrong.err;
    EXPECT_NE(wrong.out.find("signature: target-exit2"), std::string::npos) << command << "\n"
                                                                            << wrong.out;
  }
}

int count_lines_starting(const std::string& text, const std::string& prefix) {
  int n = 0;
  for (size_t at = 0; (at = text.find(prefix, at)) != std::string::npos; at += prefix.size())
    if (at == 0 || text[at - 1] == '\n') ++n;
  return n;
}

// A campaign with a planted bug keeps one small reproducer per signature, not one per failure,
// and a second campaign in the same corpus adds no file for a signature it already has.
TEST(FuzzCampaign, KeepsOneReproducerPerSignature) {
  std::string dir = ::testing::TempDir() + "/uopc-corpus";
  std::filesystem::remove_all(dir);
  std::string args =
      "fuzz --plant shrink_offset_sign --max-programs 800 --seconds 30 --jobs 2 --seed 11 "
      "--minimize --corpus " +
      dir;
  auto c = testing::run_uopc(args);
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  int signatures = count_lines_starting(c.out, "signature ");
  ASSERT_GT(signatures, 0) << c.out;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path().string());
  EXPECT_EQ(static_cast<int>(files.size()), signatures) << c.out;
  for (const std::string& f : files) {
    std::string text = testing::read_file(f);
    EXPECT_EQ(text.rfind("# signature: ", 0), 0u) << text;
    EXPECT_LE(count_statements(text), 6) << text;
    EXPECT_EQ(testing::run_uopc("fuzz --check " + f + " --plant shrink_offset_sign").exit_code, 1)
        << text;
    EXPECT_EQ(testing::run_uopc("fuzz --check " + f).exit_code, 0) << text;
  }
  c = testing::run_uopc(args);
  size_t again = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    again += e.path().extension() == ".uir";
  EXPECT_LE(again, files.size() + static_cast<size_t>(count_lines_starting(c.out, "signature ")))
      << c.out;
}

// A reproducer shows the op its signature names: the flip here also fails, through the reduce
// of its composite, and a bare flip named engines-reduce would send its reader to the wrong op.
TEST(FuzzCli, AReducedProgramKeepsTheOpItsSignatureNames) {
  std::string dir = ::testing::TempDir() + "/reduce-keeps-op";
  std::filesystem::create_directories(dir);
  std::string in = dir + "/in.uir", out = dir + "/out.uir";
  std::ofstream(in) << "%x = buffer 6 dtype=i32\n%m = reshape %x shape=[3 2]\n"
                       "%r = reduce %m op=max pop=1\n%f = flip %r axes=[0]\n"
                       "%g = flip %x axes=[0]\n%h = add %g 1\n";
  auto c = testing::run_uopc("reduce --plant reduce_trailing_axes -o " + out + " " + in);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  std::string text = testing::read_file(out);
  EXPECT_NE(text.find("# signature: engines-reduce\n"), std::string::npos) << text;
  EXPECT_NE(text.find(" = reduce "), std::string::npos) << text;
}

TEST(FuzzCampaign, AProgramPastTheTimeLimitIsKilledAndTheCampaignGoesOn) {
  auto c =
      testing::run_uopc("fuzz --seconds 3 --time-limit 0.001 --keep-going --seed 3 --out-dir " +
                        ::testing::TempDir());
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  EXPECT_NE(c.out.find("signature timeout"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("ran past the 0.001 s time limit"), std::string::npos) << c.out;
}

TEST(FuzzCampaign, ACrashedWorkerIsReportedAndRestarted) {
  std::string out = ::testing::TempDir() + "/crash-campaign.txt";
  std::string script = std::string(UOPC_BINARY_PATH) +
                       " fuzz --seconds 5 --keep-going --seed 9 --out-dir " + ::testing::TempDir() +
                       " > " + out + " 2>&1 & d=$!; sleep 2; pkill -KILL -P $d; wait $d";
  std::system(script.c_str());
  std::string text = testing::read_file(out);
  EXPECT_NE(text.find("signature crash"), std::string::npos) << text;
  EXPECT_NE(text.find("died (signal 9)"), std::string::npos) << text;
  EXPECT_NE(text.find("fuzz: "), std::string::npos) << text;  // the driver finished the campaign
}

// An external engine: uopc run itself agrees with the interpreter, and with a planted bug it
// does not, and the failure is minimized.
TEST(FuzzTarget, DiffsAnExternalEngine) {
  std::string run = std::string(UOPC_BINARY_PATH) + " run --backend tcc";
  auto c = testing::run_uopc("fuzz --seconds 3 --seed 2 --target '" + run + "'");
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  c = testing::run_uopc("fuzz --seconds 20 --seed 2 --minimize --out-dir " + ::testing::TempDir() +
                        " --target '" + run + " --plant flip_off_by_one'");
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  EXPECT_NE(c.out.find("signature target-"), std::string::npos) << c.out;
  size_t at = c.out.find("):\n", c.out.find("# program (seed "));
  ASSERT_NE(at, std::string::npos) << c.out;
  EXPECT_LE(count_statements(c.out.substr(at + 3, c.out.find("fuzz: ", at) - at - 3)), 6) << c.out;
}

// The campaign asks the target for the kernel options it draws (UOPC_OPTS, UOPC_THREADS,
// UOPC_CHECK): a bug in uopc's tiling, which `uopc run`'s default options never reach, is
// found through `uopc run`, named by the option, and both lines of its reproducer replay it.
TEST(FuzzTarget, AsksTheEngineForTheCampaignsSettings) {
  std::string dir = ::testing::TempDir() + "/target-settings";
  std::filesystem::remove_all(dir);
  std::string engine =
      std::string(UOPC_BINARY_PATH) + " run --backend tcc --plant tile_remainder_dropped";
  auto c = testing::run_uopc("fuzz --seconds 30 --max-programs 20 --seed 1 --minimize --out-dir " +
                             dir + " --target '" + engine + "'");
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  std::string path = dir + "/failure-target-tile.uir";
  ASSERT_TRUE(std::filesystem::exists(path)) << c.out;
  std::string text = testing::read_file(path);
  EXPECT_LE(count_statements(text), 2) << text;
  size_t at = text.find("# replay: uopc ");
  ASSERT_NE(at, std::string::npos) << text;
  at += 15;
  std::string replay = text.substr(at, text.find('\n', at) - at);
  EXPECT_NE(replay.find("--opts 'tile="), std::string::npos) << replay;
  EXPECT_EQ(testing::run_uopc(replay).exit_code, 1) << replay;
  at = text.find("# by hand: ");
  ASSERT_NE(at, std::string::npos) << text;
  at += 11;
  std::string by_hand = text.substr(at, text.find('\n', at) - at);
  EXPECT_EQ(by_hand.rfind("UOPC_OPTS='tile=", 0), 0u) << by_hand;
  // run alone with the settings, the engine's bounds check stops at the element left unwritten
  int status = std::system((by_hand + " >/dev/null 2>&1").c_str());
  EXPECT_EQ(WEXITSTATUS(status), 3) << by_hand;
}

// After minimizing, a failure is named again on the small program: a target's signature
// names only ops its reproducer has. Once a few failures of one signature were shrunk through
// the engine, the rest are kept as found.
TEST(FuzzTarget, SignaturesNameOnlyOpsOfTheReproducer) {
  std::string dir = ::testing::TempDir() + "/target-corpus";
  std::filesystem::remove_all(dir);
  std::string run = std::string(UOPC_BINARY_PATH) + " run --backend tcc";
  auto c = testing::run_uopc("fuzz --seconds 20 --max-programs 60 --seed 2 --minimize --corpus " +
                             dir + " --target '" + run + " --plant stack_order_reversed'");
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    ++files;
    std::string name = e.path().stem().string(), text = testing::read_file(e.path().string());
    std::string program = text.substr(text.find("\n%") + 1);
    // target-OP1-OP2...: each op appears in a statement of the program
    for (size_t at = name.find('-'); at != std::string::npos; at = name.find('-', at + 1)) {
      std::string op = name.substr(at + 1, name.find('-', at + 1) - at - 1);
      EXPECT_NE(program.find(" = " + op + " "), std::string::npos) << name << ":\n" << text;
    }
  }
  EXPECT_EQ(files, 1) << c.out;
  EXPECT_NE(c.out.find(" more kept as found)"), std::string::npos) << c.out;
}

// A campaign through an engine checks a program of integer expressions on every eighth seed
// (5, 13, ..., 37, ..., 213): an engine whose simplifier drops a side condition is found by
// the values it prints, as no symbolic oracle reads its rules. `--replay` checks that program.
TEST(FuzzTarget, ExpressionProgramsShowAnEnginesUncheckedRewrites) {
  std::string run = std::string(UOPC_BINARY_PATH) + " run --backend tcc";
  for (auto [plant, seed] :
       {std::pair{"divmod_split_unchecked", "37"}, std::pair{"div_div_unchecked", "213"}}) {
    std::string replay = "fuzz --replay " + std::string(seed) + " --target '" + run;
    auto found = testing::run_uopc(replay + " --plant " + plant + "'");
    EXPECT_EQ(found.exit_code, 1) << plant << found.out << found.err;
    EXPECT_NE(found.out.find(" = idiv "), std::string::npos) << found.out;
    EXPECT_EQ(testing::run_uopc(replay + "'").exit_code, 0) << plant;
  }
}

// The one file a campaign with `--rejection` left in `dir`, checked: a small reproducer that
// uopc refuses, whose replay line fails against the engine and passes against `uopc run`.
void expect_one_rejection_file(const std::string& dir, const std::string& engine) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path());
  ASSERT_EQ(files.size(), 1u);
  std::string name = std::filesystem::path(files[0]).filename().string();
  EXPECT_EQ(name.rfind("target-rejection-", 0), 0u) << name;
  std::string text = testing::read_file(files[0]);
  EXPECT_LE(count_statements(text), 4) << text;
  EXPECT_EQ(testing::run_uopc("check '" + files[0] + "'").exit_code, 2) << text;
  std::string run = std::string(UOPC_BINARY_PATH) + " run --backend tcc";
  auto replay = testing::run_uopc("fuzz --check '" + files[0] + "' --target '" + engine + "'");
  EXPECT_EQ(replay.exit_code, 1) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("\nsignature: " + name.substr(0, name.size() - 4) + "\n"),
            std::string::npos)
      << replay.out;
  auto fixed = testing::run_uopc("fuzz --check '" + files[0] + "' --target '" + run + "'");
  EXPECT_EQ(fixed.exit_code, 0) << fixed.out << fixed.err;
}

// An engine that runs what it should refuse: uopc run with its type rules switched off is
// invisible to the value oracle and found by --rejection, as one signature that lists the rules
// it lets through.
TEST(FuzzTarget, RejectionFindsAnEngineThatRunsMalformedPrograms) {
  std::string dir = ::testing::TempDir() + "/rejection-corpus";
  std::filesystem::remove_all(dir);
  std::string run = std::string(UOPC_BINARY_PATH) + " run --backend tcc";
  std::string engine = run + " --plant skip_static_checks";
  std::string campaign = "fuzz --seconds 30 --max-programs 40 --seed 2 --target '" + engine + "'";
  auto without = testing::run_uopc(campaign);
  EXPECT_EQ(without.exit_code, 0) << without.out << without.err;
  auto c = testing::run_uopc(campaign + " --rejection --minimize --corpus " + dir);
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  EXPECT_NE(c.out.find("--rejection"), std::string::npos) << c.out;  // in the replay hint
  expect_one_rejection_file(dir, engine);
  auto clean = testing::run_uopc(
      "fuzz --seconds 30 --max-programs 80 --seed 2 --rejection "
      "--target '" +
      run + "'");
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
}

// An engine that fails with status 3 where it should refuse with 2 is found the same way.
TEST(FuzzTarget, RejectionFindsAnEngineThatCrashesOnMalformedPrograms) {
  std::string dir = ::testing::TempDir() + "/rejection-crash-corpus";
  std::filesystem::remove_all(dir);
  std::string engine = ::testing::TempDir() + "/crashes-on-malformed.sh";
  std::ofstream(engine) << "#!/bin/sh\n"
                        << UOPC_BINARY_PATH << " run --backend tcc \"$1\"\n"
                        << "status=$?\n[ $status = 2 ] && exit 3\nexit $status\n";
  ::chmod(engine.c_str(), 0755);
  auto c = testing::run_uopc(
      "fuzz --seconds 30 --max-programs 20 --seed 2 --rejection --minimize "
      "--corpus " +
      dir + " --target '" + engine + "'");
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  EXPECT_NE(c.out.find("exited 3 on a program that breaks the "), std::string::npos) << c.out;
  expect_one_rejection_file(dir, engine);
}

// An executable shell script in the test folder.
std::string script(const std::string& name, const std::string& body) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << "#!/bin/sh\n" << body;
  ::chmod(path.c_str(), 0755);
  return path;
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  if (std::filesystem::exists(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir))
      out.push_back(e.path().filename().string());
  return out;
}

// A kernel that kills its worker is named by the next worker through `uopc run`, by the op the
// localization finds and the signal, and with --minimize shrunk there, each candidate in a
// process of its own: one bug, one file, whichever programs met it. Without --minimize the
// programs were named by their outputs' ops, two files here.
TEST(FuzzCampaign, ACrashIsOneFileNamedByItsOp) {
  for (bool minimize : {false, true}) {
    std::string dir = ::testing::TempDir() + "/crash-corpus";
    std::filesystem::remove_all(dir);
    auto c = run_uopc(
        "fuzz --plant mod_minus_one_traps --seconds 60 --max-programs 120 --jobs 2 --seed 5 " +
        std::string(minimize ? "--minimize " : "") + "--corpus " + dir);
    EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
    EXPECT_NE(c.out.find(" disagreements in 1 signature"), std::string::npos) << c.out;
    std::vector<std::string> files = files_in(dir);
    ASSERT_EQ(files.size(), 1u) << c.out;
    EXPECT_EQ(files[0], "crash-SIGFPE-division.uir") << c.out;
    std::string text = testing::read_file(dir + "/" + files[0]);
    if (minimize) {
      EXPECT_LE(count_statements(text), 3) << text;
    }
    EXPECT_NE(text.find(" = mod "), std::string::npos) << text;
    EXPECT_EQ(replay_exit_code(text), 1) << text;
  }
}

// The target protocol (docs/ENGINES.md): 77 is "unsupported", counted and never a failure; a
// crash is named by its signal, with the engine's last lines on stderr in the report and the
// reproducer.
TEST(TargetProtocol, UnsupportedIsSkippedAndACrashIsNamedBySignal) {
  std::string run = std::string(UOPC_BINARY_PATH) + " run --backend tcc";
  std::string picky = script("picky.sh",
                             "grep -q ' flip ' \"$1\" && { echo 'no flip here' >&2; exit 77; }\n"
                             "grep -q ' pad ' \"$1\" && { echo 'pad: giving up' >&2; kill -SEGV "
                             "$$; }\nexec " +
                                 run + " \"$1\"\n");
  std::string dir = ::testing::TempDir() + "/protocol-corpus";
  std::filesystem::remove_all(dir);
  auto c = testing::run_uopc("fuzz --seconds 30 --max-programs 40 --seed 3 --target " + picky +
                             " --corpus " + dir);
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  EXPECT_EQ(c.out.find(" 0 skipped"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find(" skipped (unsupported)"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("killed by signal 11 (SIGSEGV)"), std::string::npos) << c.out;
  std::vector<std::string> files = files_in(dir);
  ASSERT_EQ(files.size(), 1u) << c.out;
  EXPECT_EQ(files[0], "target-SIGSEGV-pad.uir");
  std::string text = testing::read_file(dir + "/" + files[0]);
  EXPECT_NE(text.find("# pad: giving up"), std::string::npos) << text;
}

// Within a Recall, a program asked again with the same settings is answered as the engine
// answered it, without running it; another program, other settings, or the same program after
// the scope ends run the engine again.
TEST(TargetProtocol, ARecalledAnswerDoesNotRunTheEngineAgain) {
  std::string runs = ::testing::TempDir() + "/recall-runs.txt";
  std::filesystem::remove(runs);
  std::string engine =
      script("counting.sh", "echo run >>" + runs + "\nexec " + std::string(UOPC_BINARY_PATH) +
                                " run --backend tcc \"$1\"\n");
  auto count = [&] {
    std::string text = std::filesystem::exists(runs) ? testing::read_file(runs) : "";
    return std::count(text.begin(), text.end(), '\n');
  };
  Target target(engine, false, 10);
  const std::string a = "%v = stack 1 2\n", b = "%v = stack 3 4\n";
  {
    Target::Recall recall(target);
    TargetAnswer first = target.run(a);
    TargetAnswer again = target.run(a);
    EXPECT_EQ(count(), 1);
    EXPECT_EQ(again.out, first.out);
    EXPECT_EQ(again.code, first.code);
    target.run(b);
    target.run(a, {{"UOPC_OPTS", "upcast=0:2"}});
    EXPECT_EQ(count(), 3);
    {
      Target::Recall inner(target);  // a nested scope shares the outer one's answers
      target.run(b);
    }
    target.run(b);
    EXPECT_EQ(count(), 3);
  }
  target.run(a);
  EXPECT_EQ(count(), 4);
}

// uopc run summarizes a value of more than 500 elements unless asked for all of them; a
// campaign asks (UOPC_PRINT_LIMIT=0), so such a value is compared in full, and agrees.
TEST(TargetProtocol, ALargeValueIsPrintedAndComparedInFull) {
  std::string file = ::testing::TempDir() + "/large-value.uir";
  std::ofstream(file) << "%x = buffer 540 dtype=i32\n%v = reshape %x shape=[9 6 5 2]\n";
  std::string run = std::string(UOPC_BINARY_PATH) + " run --backend tcc";
  auto c = testing::run_uopc("fuzz --check " + file + " --target '" + run + "'");
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  // and a wrong value is still one
  auto wrong = testing::run_uopc("fuzz --check " + file + " --target '" + run +
                                 " --plant reshape_column_major'");
  EXPECT_EQ(wrong.exit_code, 1) << wrong.out << wrong.err;
}

// --time-limit applies to the engine's whole process group: an engine that hangs in a child it
// started is killed with it, and the campaign goes on.
TEST(TargetProtocol, AHangingEngineIsKilledWithItsChildren) {
  std::string marker = ::testing::TempDir() + "/hang-marker";
  std::string hang =
      script("hang.sh", "grep -q ' reduce ' \"$1\" && { (sleep 300.25; touch " + marker +
                            ") & wait; }\nexec " + std::string(UOPC_BINARY_PATH) +
                            " run --backend tcc \"$1\"\n");
  std::filesystem::remove(marker);
  auto started = std::chrono::steady_clock::now();
  auto c = testing::run_uopc(
      "fuzz --seconds 20 --max-programs 6 --seed 5 --time-limit 0.5 "
      "--keep-going --out-dir " +
      ::testing::TempDir() + " --target " + hang);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  EXPECT_NE(c.out.find("ran past the 0.5 s time limit"), std::string::npos) << c.out;
  EXPECT_LT(took, 60) << c.out;
  // no sleeper is left behind in the engine's group (its odd duration tells it from others)
  EXPECT_NE(std::system("pgrep -f '[s]leep 300[.]25' >/dev/null"), 0);
}

// A failure an engine showed is kept when the campaign is stopped while it is being shrunk
// through that (slow) engine: the campaign reports it and leaves its file, as found.
TEST(TargetProtocol, AFailureStoppedWhileShrinkingIsKept) {
  std::string marker = ::testing::TempDir() + "/slow-marker";
  // Wrong on stacks, and slow on every program after the first stack it sees.
  std::string slow =
      script("slow.sh", "[ -e " + marker + " ] && sleep 1\ngrep -q ' = stack ' \"$1\" && touch " +
                            marker + "\nexec " + std::string(UOPC_BINARY_PATH) +
                            " run --backend tcc --plant stack_order_reversed \"$1\"\n");
  std::filesystem::remove(marker);
  std::string dir = ::testing::TempDir() + "/stopped-shrinking";
  std::filesystem::remove_all(dir);
  std::string out = ::testing::TempDir() + "/stopped-shrinking.txt";
  std::string campaign = std::string("setsid ") + UOPC_BINARY_PATH +
                         " fuzz --seconds 120 --seed 2 --minimize --out-dir " + dir + " --target " +
                         slow + " >" + out + " 2>/dev/null";
  std::string script =
      campaign + " & p=$!; until [ -e " + marker +
      " ]; do sleep 0.1; done; sleep 3; kill -INT -- -$p; wait $p; echo \"exit $?\" >>" + out;
  std::system(("bash -c '" + script + "'").c_str());
  std::string text = testing::read_file(out);
  EXPECT_NE(text.find("(not shrunk: the campaign was stopped while shrinking it)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("1 disagreement in 1 signature, 1 reproducer written"), std::string::npos)
      << text;
  EXPECT_NE(text.find("exit 1"), std::string::npos) << text;
  std::vector<std::string> files = files_in(dir);
  ASSERT_EQ(files.size(), 1u) << text;
  EXPECT_NE(testing::read_file(dir + "/" + files[0]).find(" = stack "), std::string::npos);
}

// Persistent mode: the engine is started once per worker, reads paths on stdin and answers
// each with its status; a wrong value is found and named as in one-shot mode.
TEST(TargetProtocol, PersistentModeFindsWhatOneShotFinds) {
  std::string engine = script(
      "persistent.sh", "while read -r f; do\n  " + std::string(UOPC_BINARY_PATH) +
                           " run --backend tcc \"$@\" \"$f\" >\"$f.out\" 2>/dev/null\n  echo $?\n"
                           "done\n");
  auto c = testing::run_uopc(
      "fuzz --seconds 20 --max-programs 80 --seed 2 --target-persistent "
      "--target " +
      engine);
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  std::string dir = ::testing::TempDir() + "/persistent-corpus";
  std::filesystem::remove_all(dir);
  c = testing::run_uopc("fuzz --seconds 30 --max-programs 40 --seed 2 --minimize --corpus " + dir +
                        " --target-persistent --target '" + engine +
                        " --plant stack_order_reversed'");
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  std::vector<std::string> files = files_in(dir);
  ASSERT_EQ(files.size(), 1u) << c.out;
  EXPECT_EQ(files[0], "target-stack.uir");
  std::string text = testing::read_file(dir + "/" + files[0]);
  EXPECT_LE(count_statements(text), 2) << text;
  EXPECT_NE(text.find("# by hand: echo "), std::string::npos) << text;
  // The replay line checks the file through the engine again, judged as the campaign judged it.
  size_t at = text.find("# replay: uopc ");
  ASSERT_NE(at, std::string::npos) << text;
  at += 15;
  std::string replay = text.substr(at, text.find('\n', at) - at);
  EXPECT_NE(replay.find("--target-persistent"), std::string::npos) << replay;
  auto again = testing::run_uopc(replay);
  EXPECT_EQ(again.exit_code, 1) << replay << "\n" << again.out << again.err;
  EXPECT_NE(again.out.find("disagreement: the target oracle failed"), std::string::npos);
  // under the name the campaign filed it under
  EXPECT_NE(again.out.find("\nsignature: target-stack\n"), std::string::npos) << again.out;
}

// A symbolic reproducer is a .uir file whose "# expression: " line `uopc fuzz --check` reads
// back and runs the symbolic oracle on: its replay line replays it. The line was plain text
// after the header, which --check refused as a program that does not parse.
TEST(FuzzCli, ASymbolicReproducerReplays) {
  std::string dir = ::testing::TempDir() + "/symbolic";
  std::filesystem::create_directories(dir);
  std::string path = dir + "/symbolic-div_div.uir";
  std::ofstream(path) << "# signature: symbolic-div_div\n"
                         "# expression: ((x0//65536)//65536)  ->  (x0//0)  x0 in [-100, 100]\n";
  auto found = run_uopc("fuzz --check " + path + " --plant div_div_unchecked");
  EXPECT_EQ(found.exit_code, 1) << found.out << found.err;
  EXPECT_NE(found.out.find("the symbolic oracle failed: div_div: "), std::string::npos)
      << found.out;
  auto clean = run_uopc("fuzz --check " + path);
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  EXPECT_EQ(run_uopc("check " + path).exit_code, 0) << "not a valid .uir file";
  std::ofstream(path) << "# expression: max((x0-18), (16/0))  ->  1  x0 in [0, 5]\n";
  auto bad = run_uopc("fuzz --check " + path);
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find(path + ":1:31: error: the expression does not read: expected an "
                                "operator"),
            std::string::npos)
      << bad.err;
}

// A campaign's symbolic reproducer, as written, replays by its own replay line.
TEST(FuzzCli, ACampaignsSymbolicReproducerReplays) {
  std::string path = failure_file("--plant div_div_unchecked --seconds 60 --seed 5",
                                  "symbolic-campaign", "failure-symbolic-div_div.uir")
                         .first;
  ASSERT_FALSE(path.empty());
  std::string text = testing::read_file(path);
  EXPECT_EQ(replay_exit_code(text), 1) << text;
}

// A campaign under a printer's plant leaves exactly `file`, whose replay line regenerates the
// program from its seed: the file's own text, printed by that printer, no longer holds the
// failure.
void expect_one_file_replayed_by_seed(const std::string& plant, int64_t programs,
                                      const std::string& file) {
  std::string dir = ::testing::TempDir() + "/lost-" + plant;
  std::filesystem::remove_all(dir);
  auto c = run_uopc("fuzz --plant " + plant + " --seconds 60 --max-programs " +
                    std::to_string(programs) + " --seed 5 --minimize --corpus " + dir);
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    files.push_back(e.path().filename().string());
  ASSERT_EQ(files, std::vector<std::string>{file}) << c.out;
  std::string text = testing::read_file(dir + "/" + file);
  EXPECT_NE(text.find("# replay: uopc fuzz --replay "), std::string::npos) << text;
  EXPECT_EQ(replay_exit_code(text), 1) << text;
}

// A printer that loses a literal: the literal names the failure.
TEST(FuzzCli, ALostLiteralIsOneFileThatReplaysBySeed) {
  expect_one_file_replayed_by_seed("print_f32_short", 400, "roundtrip-const.uir");
}

// A printer that leaves out a bool pad's fill: the op whose node alone does not print back.
TEST(FuzzCli, ALostFieldIsOneFileThatReplaysBySeed) {
  expect_one_file_replayed_by_seed("print_bool_pad_fill", 2000, "roundtrip-pad.uir");
}

}  // namespace
}  // namespace uopc

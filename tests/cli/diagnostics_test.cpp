// What a user sees for a mistake: clang-style diagnostics for programs (the line, a caret under
// the offending token, notes at the definitions involved, "did you mean"), and the same care
// for the command line. Every user mistake exits 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/run.h"

namespace uopc {
namespace {

using testing::run_uopc;

struct Case {
  const char* what;
  const char* program;
  const char* err;  // the whole of stderr
};

TEST(Diagnostics, ProgramMistakes) {
  const Case cases[] = {
      {"a misspelt op", "%a = stack 1 2 3 4 5 6\n%b = reshap %a shape=[2 3]\n",
       "<stdin>:2:6: error: unknown op 'reshap'; did you mean 'reshape'?\n"
       " 2 | %b = reshap %a shape=[2 3]\n"
       "   |      ^~~~~~\n"},
      {"a bad operand is pointed at, with its definition",
       "%a = stack 1 2 3\n%b = stack 1.0 2 3\n%c = add %a %b\n",
       "<stdin>:3:13: error: add: operands have different dtypes: i32[3] and f32[3]\n"
       " 3 | %c = add %a %b\n"
       "   |             ^~\n"
       "<stdin>:2:1: note: %b is f32[3], defined here\n"
       " 2 | %b = stack 1.0 2 3\n"
       "   | ^~\n"},
      {"a shape rule points at the attribute and notes the operand's shape",
       "%a = stack 1 2 3 4 5 6\n%b = reshape %a shape=[2 4]\n",
       "<stdin>:2:17: error: reshape: cannot reshape i32[6] (6 elements) into [2 4] (8 "
       "elements)\n"
       " 2 | %b = reshape %a shape=[2 4]\n"
       "   |                 ^~~~~~~~~~~\n"
       "<stdin>:1:1: note: %a is i32[6], defined here\n"
       " 1 | %a = stack 1 2 3 4 5 6\n"
       "   | ^~\n"},
      {"the book form's tuple", "%a = stack 1 2 3 4\n%b = reshape %a, (3, 2)\n",
       "<stdin>:2:18: error: reshape: cannot reshape i32[4] (4 elements) into [3 2] (6 "
       "elements)\n"
       " 2 | %b = reshape %a, (3, 2)\n"
       "   |                  ^~~~~~\n"
       "<stdin>:1:1: note: %a is i32[4], defined here\n"
       " 1 | %a = stack 1 2 3 4\n"
       "   | ^~\n"},
      {"a misspelt attribute", "%a = stack 1 2 3 4 5 6\n%b = reshape %a shap=[2 3]\n",
       "<stdin>:2:17: error: reshape has no attribute 'shap'; did you mean 'shape'?\n"
       " 2 | %b = reshape %a shap=[2 3]\n"
       "   |                 ^~~~~~~~~~\n"},
      {"a dtype by another library's name", "%a = buffer 4 dtype=float32\n",
       "<stdin>:1:15: error: dtype must be bool, i32 or f32; did you mean 'f32'?\n"
       " 1 | %a = buffer 4 dtype=float32\n"
       "   |               ^~~~~~~~~~~~~\n"},
      {"a misspelt dtype", "%a = buffer 4 dtype=i23\n",
       "<stdin>:1:15: error: dtype must be bool, i32 or f32; did you mean 'i32'?\n"
       " 1 | %a = buffer 4 dtype=i23\n"
       "   |               ^~~~~~~~~\n"},
      {"a misspelt value name", "%total = stack 1 2\n%b = neg %totl\n",
       "<stdin>:2:10: error: %totl is not defined (names are defined before use); did you mean "
       "'%total'?\n"
       " 2 | %b = neg %totl\n"
       "   |          ^~~~~\n"},
      {"a reduce op by NumPy's name", "%a = stack 1 2\n%b = reduce %a op=sum\n",
       "<stdin>:2:16: error: reduce op must be add, mul, max or min, not 'sum'; did you mean "
       "'add'?\n"
       " 2 | %b = reduce %a op=sum\n"
       "   |                ^~~~~~\n"},
      {"a shrink offset, with the shape it shrinks",
       "%a = stack 1 2 3\n%b = shrink %a 2 shape=[2]\n",
       "<stdin>:2:16: error: shrink: axis 0 offset is 2, outside [0, 1]\n"
       " 2 | %b = shrink %a 2 shape=[2]\n"
       "   |                ^\n"
       "<stdin>:1:1: note: %a is i32[3], defined here\n"
       " 1 | %a = stack 1 2 3\n"
       "   | ^~\n"},
      {"a name defined twice", "%a = stack 1\n%a = stack 2\n",
       "<stdin>:2:1: error: %a is already defined on line 1\n"
       " 2 | %a = stack 2\n"
       "   | ^~\n"
       "<stdin>:1:1: note: the first definition\n"
       " 1 | %a = stack 1\n"
       "   | ^~\n"},
      {"tabs keep the caret in line", "%a = stack 1 2\n%b =\treshape\t%a shape=[3]\n",
       "<stdin>:2:17: error: reshape: cannot reshape i32[2] (2 elements) into [3] (3 elements)\n"
       " 2 | %b = reshape %a shape=[3]\n"
       "   |                 ^~~~~~~~~\n"
       "<stdin>:1:1: note: %a is i32[2], defined here\n"
       " 1 | %a = stack 1 2\n"
       "   | ^~\n"},
  };
  for (const Case& c : cases) {
    auto r = run_uopc("check -", c.program);
    EXPECT_EQ(r.exit_code, 2) << c.what;
    EXPECT_EQ(r.err, c.err) << c.what;
  }
}

// A binary file or a line of thousands of literals does not reach the terminal whole.
TEST(Diagnostics, SnippetsOfBinaryAndLongLines) {
  auto r = run_uopc("check -", std::string("%a = stack 1 \x8d\x01\n"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "<stdin>:1:14: error: unexpected byte 0x8d\n"
            " 1 | %a = stack 1 ??\n"
            "   |              ^\n");
  std::string line = "%a = stack";
  for (int i = 0; i < 3000; ++i) line += " " + std::to_string(i);
  r = run_uopc("check -", line + " x\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "<stdin>:1:13902: error: unexpected 'x'\n"
            " 1 | ...990 2991 2992 2993 2994 2995 2996 2997 2998 2999 x\n"
            "   |                                                     ^\n");
}

TEST(Diagnostics, NoSuggestionWhenNothingIsClose) {
  auto r = run_uopc("check -", "%a = frobnicate 1\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
}

TEST(Diagnostics, CommandLineMistakes) {
  const struct {
    const char* args;
    const char* first_line;
  } cases[] = {
      {"fuz x.uir",
       "uopc: error: unknown command 'fuz'; did you mean 'fuzz'? (uopc help lists "
       "the commands)"},
      {"help fuz", "uopc: error: uopc help: no command 'fuz'; did you mean 'fuzz'?"},
      {"fuzz --secnds 3",
       "uopc: error: The following arguments were not expected: 3 --secnds; did you mean "
       "'--seconds'?"},
      {"run --backnd cc x.uir",
       "uopc: error: The following arguments were not expected: x.uir --backnd; did you mean "
       "'--backend'?"},
      {"check /", "/: error: is a folder, not a program file"},
      {"interp --input 0=/ x.uir", "/: error: not a usable .npy file: it is a folder"},
      {"interp --out dir x.uir",
       "uopc: error: The following arguments were not expected: x.uir --out; did you mean "
       "'--out-dir'?"},
      {"fuzz --target-persistent", "uopc: error: --target-persistent requires --target"},
  };
  std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/x.uir") << "%a = buffer 3\n";
  for (const auto& c : cases) {
    // From the folder that holds x.uir, so that the messages name it as a user would.
    auto r =
        testing::run_shell("cd " + dir + " && " + UOPC_BINARY_PATH + std::string(" ") + c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args;
    EXPECT_EQ(r.err.substr(0, r.err.find('\n')), c.first_line) << c.args;
  }
  std::string file = ::testing::TempDir() + "/not-a-folder";
  std::ofstream(file) << "x";
  for (const char* flag : {"--corpus", "--artifacts"}) {
    auto r = run_uopc(std::string("fuzz --seconds 1 ") + flag + " " + file);
    EXPECT_EQ(r.exit_code, 2) << flag;
    EXPECT_EQ(r.err, file + ": error: " + flag + " takes a folder, and this is a file\n");
  }
}

// Arguments are checked: a value that cannot mean anything, or a flag that does nothing in that
// mode, is refused with the reason.
TEST(Diagnostics, ArgumentsAreChecked) {
  const struct {
    const char* args;
    const char* first_line;
  } cases[] = {
      {"fuzz --seconds 0", "uopc: error: --seconds: takes a number above 0, not 0"},
      {"fuzz --seconds -1", "uopc: error: --seconds: takes a number above 0, not -1"},
      {"fuzz --time-limit 0", "uopc: error: --time-limit: takes a number above 0, not 0"},
      {"fuzz --max-numel -5", "uopc: error: --max-elements: takes a number above 0, not -5"},
      {"fuzz --jobs 0", "uopc: error: --jobs: Value 0 not in range 1 to 64"},
      {"fuzz --opts auto", "uopc: error: --opts requires --check"},
      {"fuzz --threads 2", "uopc: error: --threads requires --check"},
      {"run --runs 3 -", "uopc: error: --runs requires --bench"},
      {"fuzz --replay -5", "uopc: error: --replay: takes a number of 0 or more, not -5"},
      {"interp --print-limit -1 -",
       "uopc: error: --print-limit: takes a number of 0 or more, not -1"},
      {"interp --max-elements 0 -", "uopc: error: --max-elements: takes a number above 0, not 0"},
      {"interp --input 7=a.npy -",
       "uopc: error: --input 7=a.npy: the program has no buffer of slot 7 (its slots: 0, 1)"},
      {"interp --input 0=a.npy --input 0=b.npy -",
       "uopc: error: --input 0=b.npy: slot 0 is already given a.npy"},
  };
  for (const auto& c : cases) {
    auto r = run_uopc(c.args, "%a = buffer 3\n%b = buffer 2 slot=1\n");
    EXPECT_EQ(r.exit_code, 2) << c.args;
    EXPECT_EQ(r.err.substr(0, r.err.find('\n')), c.first_line) << c.args;
  }
}

// --plant works on every command that reads a program, as UOPC_PLANT does.
TEST(Diagnostics, EveryCommandTakesPlant) {
  const char* wrong = "%a = stack 1 2 3\n%b = reshape %a shape=[2 2]\n";
  for (const char* cmd : {"check", "print", "dot", "interp", "lower", "render", "run", "diff"}) {
    EXPECT_EQ(run_uopc(std::string(cmd) + " -", wrong).exit_code, 2) << cmd;
    auto r = run_uopc(std::string(cmd) + " --plant skip_static_checks -", wrong);
    EXPECT_NE(r.err.find("cannot reshape"), 0u) << cmd;
    EXPECT_EQ(r.err.find("error: reshape"), std::string::npos) << cmd << ": " << r.err;
  }
  EXPECT_EQ(run_uopc("check --plant nonsense -", "%a = stack 1\n").exit_code, 2);
}

TEST(Diagnostics, HelpAndVersion) {
  auto r = run_uopc("help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Usage: uopc [OPTIONS] SUBCOMMAND"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reduce"), std::string::npos);
  r = run_uopc("help run");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Usage: uopc run [OPTIONS] FILE"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--max-elements"), std::string::npos);
  // Defaults that differ by command are shown by each.
  EXPECT_NE(r.out.find("--backend TEXT=cc"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--opts TEXT=auto"), std::string::npos) << r.out;
  r = run_uopc("help fuzz");
  EXPECT_NE(r.out.find("--backend TEXT=tcc"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--seconds FLOAT:POSITIVE=10"), std::string::npos) << r.out;
  r = run_uopc("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("uopc ", 0), 0u) << r.out;
}

}  // namespace
}  // namespace uopc

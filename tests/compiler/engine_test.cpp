// The compiled engine against the interpreter, and its failure modes.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>

#include "compiler/engine.h"
#include "compiler/render_c.h"
#include "fuzz/gen.h"
#include "ir/build.h"
#include "ir/loop.h"
#include "ir/print.h"
#include "tests/support/run.h"

namespace uopc {
namespace {

// Outputs and assert verdicts of both engines, or "" when they agree.
std::string disagreement(const Program& p, Backend& backend) {
  InterpResult want = interpret(p, {});
  InterpResult got = run_compiled(p, compile_program(p, {.check_bounds = true}), backend, {});
  for (size_t k = 0; k < want.outputs.size(); ++k) {
    std::string d = describe_difference(want.outputs[k].second, got.outputs[k].second);
    if (!d.empty()) return want.outputs[k].first->name + ": " + d;
  }
  if (want.failures.size() != got.failures.size()) return "the assert verdicts differ";
  return "";
}

RC_GTEST_PROP(Engine, CompiledAgreesWithInterpreter, ()) {
  static std::unique_ptr<Backend> tcc = make_tcc_backend();
  RapidCheckChoices choices;
  Program p = generate(choices);
  RC_LOG() << print_program(p);
  std::string d = disagreement(p, *tcc);
  RC_LOG() << d;
  RC_ASSERT(d.empty());
}

TEST(Engine, BothBackendsAgreeOnAProgramWithEveryOp) {
  Program p = testing::parse(
      "%x = buffer 24\n%i = buffer 24 dtype=i32\n%m = reshape %x shape=[2 3 4]\n"
      "%t = permute %m order=[2 0 1]\n%p = pad %t pads=[1 0 0 2 1 1] value=0.5\n"
      "%s = shrink %p 1 1 0 shape=[3 2 4]\n%f = flip %s axes=[0 2]\n%e = exp2 %f\n"
      "%r = reduce %e op=max pop=1\n%c = cast %r dtype=i32\n%im = reshape %i shape=[2 3 4]\n"
      "%q = idiv %im 3\n%w = mod %q -2\n%k = stack %w %w\n%l = reduce %k op=mul pop=2\n");
  for (const char* name : {"cc", "tcc"}) {
    std::unique_ptr<Backend> b = make_backend(name);
    EXPECT_EQ(disagreement(p, *b), "") << name;
  }
}

// What running `p` with its one kernel replaced by `bad` (rendered with bounds checks) throws.
std::string error_running(const Program& p, const UOpRef& bad) {
  CompiledProgram c = compile_program(p, {.check_bounds = true});
  c.schedule.kernels[0].sink = bad;
  std::string kernel = render_kernel("kernel0", bad, {.check_bounds = true});
  c.source = render_prelude(kernel) + kernel;
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  try {
    run_compiled(p, c, *tcc, {});
  } catch (const BoundsError& e) {
    return e.what();
  }
  return "";
}

// A kernel that reads one past the end of its input, or of a constant table: check-bounds mode
// must say so.
TEST(Engine, CheckBoundsCatchesABadAccess) {
  Program p = testing::parse("%x = buffer 4\n%y = neg %x\n");
  UOpRef r = range(4, 0, RangeKind::Loop);
  UOpRef past = alu(Op::Add, {r, literal(Scalar::of_i32(1))});
  UOpRef out = address(param(0, DType::F32, 4), r);
  UOpRef from_input = sink({end(store(out, load(address(param(1, DType::F32, 4), past))), {r})});
  EXPECT_EQ(error_running(p, from_input),
            "kernel0 accessed parameter 1 at offset 4, outside [0, 4)");
  std::vector<Scalar> values(4, Scalar::of_f32(2.5f));
  UOpRef from_table = sink({end(store(out, load(address(table(values), past))), {r})});
  EXPECT_EQ(error_running(p, from_table), "kernel0 accessed table 0 at offset 4, outside [0, 4)");
}

// A computed bool that no kernel writes is neither false nor true afterwards, and says so.
TEST(Engine, AnUnwrittenBoolIsCaught) {
  Program p = testing::parse("%x = buffer 4 dtype=bool\n%y = not %x\n");
  UOpRef r = range(3, 0, RangeKind::Loop);  // one short
  UOpRef short_loop = sink(
      {end(store(address(param(0, DType::Bool, 4), r), literal(Scalar::of_bool(false))), {r})});
  EXPECT_EQ(error_running(p, short_loop),
            "element 3 of buffer 0 (bool[4]) holds byte 165, not 0 or 1: no kernel wrote it");
}

TEST(Engine, CompilerFailureIsExitThreeWithItsMessage) {
  auto c = testing::run_uopc("run --backend cc -", "%x = buffer 4 slot=9\n%y = neg %x\n");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  std::string dir = ::testing::TempDir() + "/uopc-cc-fail";
  std::filesystem::remove_all(dir);
  c = testing::run_uopc("run --backend cc -", "%x = buffer 4 slot=9\n%y = sqrt %x\n");
  ASSERT_EQ(c.exit_code, 0);
  setenv("CC", "/bin/false", 1);
  setenv("UOPC_CACHE_DIR", dir.c_str(), 1);
  c = testing::run_uopc("run --backend cc -", "%x = buffer 4 slot=9\n%y = log2 %x\n");
  unsetenv("CC");
  unsetenv("UOPC_CACHE_DIR");
  EXPECT_EQ(c.exit_code, 3);
  EXPECT_EQ(c.err.rfind("uopc: toolchain error: /bin/false failed (exit 1)", 0), 0u) << c.err;
}

TEST(Engine, SharedCacheDirectoriesAreRefused) {
  std::string dir = ::testing::TempDir() + "/uopc-open-cache";
  std::filesystem::create_directories(dir);
  ::chmod(dir.c_str(), 0777);
  setenv("UOPC_CACHE_DIR", dir.c_str(), 1);
  auto c = testing::run_uopc("run --backend cc -", "%x = buffer 4\n%y = neg %x\n");
  unsetenv("UOPC_CACHE_DIR");
  EXPECT_EQ(c.exit_code, 3);
  EXPECT_NE(c.err.find("must belong to this user with mode 0700"), std::string::npos) << c.err;
}

TEST(Engine, UnknownBackendIsAUsageError) {
  auto c = testing::run_uopc("run --backend gcc -", "%x = buffer 4\n");
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_EQ(c.err, "uopc: error: --backend takes cc or tcc, not 'gcc'\n");
}

TEST(Engine, DiffReportsAgreement) {
  auto c =
      testing::run_uopc("diff --backend tcc -", "%x = buffer 4\n%y = neg %x\n%ok = assert %y %y\n");
  EXPECT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(c.out, "agree: 0 outputs and 1 assert, interp and tcc, bit for bit\n");
}

// A DAG whose tree would have 2^60 paths lowers in linear time thanks to the memo.
TEST(Engine, DoublingChainsLowerInLinearTime) {
  std::string text = "%x0 = buffer 4\n";
  for (int k = 1; k <= 60; ++k)
    text += "%x" + std::to_string(k) + " = add %x" + std::to_string(k - 1) + " %x" +
            std::to_string(k - 1) + "\n";
  auto c = testing::run_uopc("diff --backend tcc -", text);
  EXPECT_EQ(c.exit_code, 0) << c.err << c.out;
}

TEST(Engine, LongProgramsCompile) {
  std::string text = "%v0 = buffer 8\n";
  for (int k = 1; k < 20000; ++k)
    text += "%v" + std::to_string(k) + " = add %v" + std::to_string(k - 1) + " 0.5\n";
  auto c = testing::run_uopc("diff --backend tcc -", text);
  EXPECT_EQ(c.exit_code, 0) << c.err << c.out;
}

// The program compiles to one constant table, `declaration`, and no select chain, and both
// backends agree with the interpreter on it.
void expect_one_table(const std::string& text, const std::string& declaration) {
  std::string source = compile_program(testing::parse(text)).source;
  EXPECT_NE(source.find(declaration), std::string::npos);
  EXPECT_EQ(source.find("?"), std::string::npos) << "a select chain is left";
  for (const char* backend : {"tcc", "cc"}) {
    auto c = testing::run_uopc(std::string("diff --backend ") + backend + " -", text);
    EXPECT_EQ(c.exit_code, 0) << backend << c.err << c.out;
  }
}

// A stack of literals is a constant table in the kernel: one load an element, not a chain of
// selects as long as the stack, which no C compiler gets through at this size. The program is
// how the course checks a transpose: against a stack of its expected values.
TEST(Engine, LiteralStacksAreTables) {
  const int n = 100000;
  std::string values;
  for (int i = 0; i < n; ++i) values += " " + std::to_string(((37 * i) % 23) - 11);
  std::string text =
      "%x = buffer 100000 dtype=i32\n%m = reshape %x shape=[250 400]\n"
      "%t = permute %m order=[1 0]\n%e = stack" +
      values +
      "\n%em = reshape %e shape=[250 400]\n%et = permute %em order=[1 0]\n"
      "%ok = assert %t %et\n";
  expect_one_table(text, "static const int table0[100000]");
  // A matrix written as a stack of its rows is one table too, broadcast rows included.
  std::string rows = "%x = buffer 4096 dtype=i32\n%m = reshape %x shape=[64 64]\n";
  std::string stack = "%e = stack";
  for (int r = 0; r < 64; ++r) {
    std::string name = "%r" + std::to_string(r);
    stack += " " + name;
    if (r == 5) {
      rows += name + " = expand 7 shape=[64]\n";
      continue;
    }
    rows += name + " = stack";
    for (int c = 0; c < 64; ++c) rows += " " + std::to_string(((37 * (r * 64 + c)) % 23) - 11);
    rows += "\n";
  }
  rows += stack + "\n%d = sub %m %e\n";
  expect_one_table(rows, "static const int table0[4096]");
  // f32 tables keep every bit: NaN, -0, infinities, subnormals.
  std::string floats = "%a = stack nan -0.0 inf -inf 1e-45 1.5";
  for (int i = 0; i < 20; ++i) floats += " " + std::to_string(i) + ".25";
  auto c = testing::run_uopc("diff --backend cc -", floats + "\n%b = buffer 26\n%c = add %a %b\n");
  EXPECT_EQ(c.exit_code, 0) << c.err << c.out;
}

// table=N sets the least stack that is a table: at 1, a literal matrix of rows, one of them a
// broadcast literal, is one table however small, and it holds every broadcast element.
TEST(Engine, TheTableOptionSetsTheLeastTable) {
  std::string text =
      "%a = expand 5 shape=[2 3]\n%b = stack 1 2 3\n%c = stack %b %b\n%e = stack %a %c\n"
      "%x = buffer 12 dtype=i32\n%m = reshape %x shape=[2 2 3]\n%d = add %m %e\n";
  OptsChoice small{OptsChoice::Mode::Fixed, parse_opts("table=1", "--opts")};
  std::string source = compile_program(testing::parse(text), {}, small).source;
  EXPECT_NE(source.find("static const int table0[12]"), std::string::npos) << source;
  EXPECT_EQ(compile_program(testing::parse(text)).source.find("table0"), std::string::npos);
  auto c = testing::run_uopc("diff --backend tcc --check-bounds --opts table=1 -", text);
  EXPECT_EQ(c.exit_code, 0) << c.err << c.out;
}

// Programs of a size no hand-written test reaches, in shapes the course writes: each must lower
// in time linear in its size, render to C linear in its size, and run through both backends.
std::string pad_chain(int depth) {
  std::string text = "%x0 = buffer 4\n";
  for (int k = 1; k <= depth; ++k)
    text += "%x" + std::to_string(k) + " = pad %x" + std::to_string(k - 1) + " pads=[1 1]\n";
  return text;
}

std::string where_chain(int depth) {
  std::string text = "%x = buffer 64 dtype=i32\n%w0 = add %x 0\n";
  for (int k = 1; k <= depth; ++k) {
    std::string n = std::to_string(k), prev = std::to_string(k - 1);
    text += "%c" + n + " = cmplt %x " + std::to_string(k % 23 - 11) + "\n%w" + n + " = where %c" +
            n + " %w" + prev + " " + n + "\n";
  }
  return text;
}

// Each step reads the last both flipped and as it is, so an inlined kernel computes the first
// step at 2^depth indices: it must read it from a kernel of its own instead.
std::string mirror_chain(int depth) {
  std::string text = "%x0 = buffer 4 dtype=i32\n";
  for (int k = 1; k <= depth; ++k) {
    std::string n = std::to_string(k), prev = "%x" + std::to_string(k - 1);
    text += "%f" + n + " = flip " + prev + " axes=[0]\n%s" + n + " = stack %f" + n + " " + prev +
            "\n%r" + n + " = reshape %s" + n + " shape=[8]\n%x" + n + " = shrink %r" + n +
            " 2 shape=[4]\n";
  }
  return text;
}

TEST(Engine, DeepProgramsRenderToLinearSource) {
  for (auto shape : {pad_chain, where_chain, mirror_chain}) {
    size_t small = compile_program(testing::parse(shape(250))).source.size();
    size_t large = compile_program(testing::parse(shape(1000))).source.size();
    EXPECT_LT(large, 5 * small);
  }
}

TEST(Engine, PadOfPadThousandDeep) {
  // 1000 pads of one on each side are one pad of 1000.
  std::string text =
      pad_chain(1000) + "%want = pad %x0 pads=[1000 1000]\n%ok = assert %x1000 %want\n";
  for (const char* backend : {"tcc", "cc"}) {
    auto c = testing::run_uopc(std::string("diff --backend ") + backend + " -", text);
    EXPECT_EQ(c.exit_code, 0) << backend << c.err << c.out;
    c = testing::run_uopc(std::string("run --backend ") + backend + " -", text);
    EXPECT_EQ(c.exit_code, 0) << backend << c.err;
  }
}

TEST(Engine, MirrorChainRunsThroughBothBackends) {
  std::string text = mirror_chain(250);
  for (const char* backend : {"tcc", "cc"}) {
    auto c = testing::run_uopc(std::string("diff --backend ") + backend + " -", text);
    EXPECT_EQ(c.exit_code, 0) << backend << c.err << c.out;
  }
}

TEST(Engine, WhereChainTenThousandDeep) {
  std::string text = where_chain(10000);
  for (const char* backend : {"tcc", "cc"}) {
    auto c = testing::run_uopc(std::string("diff --backend ") + backend + " -", text);
    EXPECT_EQ(c.exit_code, 0) << backend << c.err << c.out;
  }
}

}  // namespace
}  // namespace uopc

// Generated code read the way the book reads it: where the loops are, where each accumulator
// is initialized, which operators appear.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "compiler/engine.h"
#include "tests/support/run.h"

namespace uopc {
namespace {

std::string kernel_c(const std::string& program, const std::string& kernel = "kernel0") {
  std::string src = compile_program(testing::parse(program)).source;
  size_t at = src.find("void " + kernel + "(");
  EXPECT_NE(at, std::string::npos) << src;
  size_t end = src.find("\n}\n", at);
  return src.substr(at, end - at + 3);
}

// The loop counters around the first line containing `needle`, outermost first.
std::vector<std::string> loops_around(const std::string& c, const std::string& needle) {
  std::vector<std::string> open;
  std::istringstream lines(c);
  std::string line;
  std::regex loop("for \\(int (ridx[0-9]+) ");
  while (std::getline(lines, line)) {
    if (line.find(needle) != std::string::npos) return open;
    std::smatch m;
    if (std::regex_search(line, m, loop))
      open.push_back(m[1]);
    else if (line.find('}') != std::string::npos && line.find('{') == std::string::npos &&
             !open.empty())
      open.pop_back();
  }
  ADD_FAILURE() << "no line contains " << needle << " in\n" << c;
  return {};
}

int count(const std::string& c, const std::string& needle) {
  int n = 0;
  for (size_t at = c.find(needle); at != std::string::npos; at = c.find(needle, at + 1)) ++n;
  return n;
}

using Loops = std::vector<std::string>;

const char* kGemm =
    "%0 = buffer 16 : dtype=f32 slot=0\n%1 = buffer 16 : dtype=f32 slot=1\n"
    "%2 = reshape %0, (4, 1, 4)\n%3 = reshape %1, (4, 4)\n%4 = permute %3, (1, 0)\n"
    "%5 = reshape %4, (1, 4, 4)\n%6 = mul %2, %5\n%7 = reduce %6 : op=add pop=1\n";

TEST(Render, GemmIsTheTextbookTripleLoop) {
  std::string c = kernel_c(kGemm);
  EXPECT_EQ(count(c, "for ("), 3) << c;
  EXPECT_EQ(loops_around(c, "acc0 = (-0.0f)"), (Loops{"ridx0", "ridx1"})) << c;
  EXPECT_EQ(loops_around(c, "acc0 = (val"), (Loops{"ridx0", "ridx1", "ridx2"})) << c;
  EXPECT_EQ(count(c, "/"), 0) << c;
  EXPECT_EQ(count(c, "%"), 0) << c;
}

// A register-tiled kernel keeps gcc's loop vectorizer away from its loops: left on, it
// vectorized across the tile at n = 256 and 512 and ran GEMM 20 to 40 times slower.
TEST(Render, RegisterTiledKernelsTurnOffTheLoopVectorizer) {
  std::string gemm =
      "%a = buffer 65536\n%b = buffer 65536 slot=1\n%am = reshape %a shape=[256 256 1]\n"
      "%ap = permute %am order=[1 0 2]\n%ae = expand %ap shape=[256 256 256]\n"
      "%bm = reshape %b shape=[256 1 256]\n%be = expand %bm shape=[256 256 256]\n"
      "%p = mul %ae %be\n%c = reduce %p op=add pop=1\n";
  const char* attribute = "__attribute__((optimize(\"no-tree-loop-vectorize\")))\nvoid kernel0(";
  CompiledProgram tiled =
      compile_program(testing::parse(gemm), {}, parse_opts_choice("auto", "--opts"));
  ASSERT_GE(tiled.schedule.kernels.at(0).opts.upcast.size(), 2u);
  EXPECT_NE(tiled.source.find(attribute), std::string::npos) << tiled.source.substr(0, 400);
  EXPECT_EQ(compile_program(testing::parse(gemm)).source.find("optimize("), std::string::npos);
  // The attribute is only a hint: tcc builds the kernel and it computes the same bits.
  auto c = testing::run_uopc("diff --opts auto --backend tcc -", gemm);
  EXPECT_EQ(c.exit_code, 0) << c.err << c.out;
}

// x - rowmax through a flatten/unflatten round trip: the max is computed once per row.
TEST(Render, RowMaxIsComputedOncePerRow) {
  std::string c = kernel_c(
      "%x0 = buffer 16\n%x = reshape %x0 shape=[4 4]\n%xt = permute %x order=[1 0]\n"
      "%m = reduce %xt op=max pop=1\n%m1 = reshape %m shape=[4 1]\n%me = expand %m1 shape=[4 4]\n"
      "%d = sub %x %me\n%f = reshape %d shape=[16]\n%y = reshape %f shape=[4 4]\n");
  EXPECT_EQ(loops_around(c, "acc0 = (-UOPC_INF)"), Loops{"ridx0"}) << c;
  EXPECT_EQ(count(c, "for ("), 3) << c;
  EXPECT_EQ(count(c, "/"), 0) << c;
}

TEST(Render, ReshapeRoundTripIsOneLoopWithoutDivision) {
  std::string c = kernel_c(
      "%v0 = buffer 12 dtype=i32\n%v1 = reshape %v0 shape=[3 4]\n%v2 = reshape %v1 shape=[12]\n");
  EXPECT_EQ(count(c, "for ("), 1) << c;
  EXPECT_NE(c.find("data1[ridx0]"), std::string::npos) << c;
  EXPECT_EQ(count(c, "/"), 0) << c;
  EXPECT_EQ(count(c, "%"), 0) << c;
}

// A column sum broadcast back over the rows gets its own kernel rather than being recomputed
// for every row.
TEST(Render, ColumnSumsAreNotRecomputedPerRow) {
  const char* program =
      "%v0 = buffer 12 dtype=i32\n%v1 = reshape %v0 shape=[3 4]\n%v2 = reduce %v1 op=add pop=1\n"
      "%v3 = reshape %v2 shape=[1 4]\n%v4 = expand %v3 shape=[3 4]\n%v5 = sub %v1 %v4\n";
  CompiledProgram p = compile_program(testing::parse(program));
  ASSERT_EQ(p.schedule.kernels.size(), 2u) << p.source;
  std::string sums = kernel_c(program);
  EXPECT_EQ(loops_around(sums, "acc0 = 0"), Loops{"ridx0"}) << sums;
}

TEST(Render, ConvolutionHoistsItsWindowLoads) {
  std::string c = kernel_c(
      "%x = buffer 8\n%w = buffer 3\n%a = shrink %x 0 shape=[6]\n%b = shrink %x 1 shape=[6]\n"
      "%c = shrink %x 2 shape=[6]\n%s = stack %a %b %c\n%w2 = reshape %w shape=[3 1]\n"
      "%m = mul %s %w2\n%r = reduce %m op=add pop=1\n");
  EXPECT_EQ(loops_around(c, "data1[(ridx0+2)]"), Loops{"ridx0"}) << c;
}

// Pad reads its source at an index clamped into the data and selects the fill with where().
TEST(Render, PadClampsItsIndexAndSelects) {
  std::string c = kernel_c("%x = buffer 3\n%p = pad %x pads=[1 2] value=-1.0\n");
  EXPECT_NE(c.find("?"), std::string::npos) << c;
  EXPECT_TRUE(c.find("uopc_max_i") != std::string::npos || c.find(">") != std::string::npos) << c;
}

TEST(Render, StageIsItsOwnKernel) {
  CompiledProgram p = compile_program(
      testing::parse("%x = buffer 6\n%y = exp2 %x\n%s = stage %y\n%z = add %s %s\n"));
  ASSERT_EQ(p.schedule.kernels.size(), 2u);
  EXPECT_EQ(
      count(kernel_c("%x = buffer 6\n%y = exp2 %x\n%s = stage %y\n%z = add %s %s\n", "kernel1"),
            "exp2f"),
      0);
}

TEST(Render, WrappingArithmeticGoesThroughUnsigned) {
  std::string c = kernel_c("%x = buffer 6 dtype=i32\n%y = mul %x %x\n%z = idiv %y 3\n");
  EXPECT_NE(c.find("uopc_mul("), std::string::npos) << c;
  EXPECT_NE(c.find("uopc_idiv("), std::string::npos) << c;
}

TEST(Render, LowerPrintsTheBookForm) {
  std::string text = lowered_text(compile_program(
      testing::parse("%x = buffer 12\n%m = reshape %x shape=[3 4]\n%r = reduce %m op=add\n")));
  EXPECT_NE(text.find("range 3 : idx=1 kind=reduce"), std::string::npos) << text;
  EXPECT_NE(text.find("alloc 1 : dtype=f32 slot=0"), std::string::npos) << text;
  EXPECT_NE(text.find("= end "), std::string::npos) << text;
  EXPECT_NE(text.find("= sink "), std::string::npos) << text;
}

// Under check_ub every i32 op that bounds let the renderer write as plain C (index arithmetic
// here, and a floor division of a non-negative index) goes through a checking helper instead,
// and nothing else changes.
TEST(Render, CheckUbChecksEveryPlainIntegerOp) {
  std::string program =
      "%x = buffer 12 dtype=i32\n%m = reshape %x shape=[3 4]\n%t = permute %m order=[1 0]\n"
      "%f = flip %t axes=[0]\n%r = reshape %f shape=[12]\n%q = idiv %r 5\n";
  Program p = testing::parse(program);
  std::string plain = compile_program(p, {false, false, false}, OptsChoice{}).source;
  std::string checked = compile_program(p, {false, false, true}, OptsChoice{}).source;
  EXPECT_EQ(plain.find("uopc_ck_"), std::string::npos) << plain;
  for (const char* helper : {"uopc_ck_add(uopc_status", "uopc_ck_mul(uopc_status"})
    EXPECT_NE(checked.find(helper), std::string::npos) << helper << " in\n" << checked;
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  CompiledProgram c = compile_program(p, {false, false, true}, OptsChoice{});
  InterpResult got = run_compiled(p, c, *tcc, {});
  InterpResult want = interpret(p, {});
  EXPECT_EQ(describe_difference(want.outputs[0].second, got.outputs[0].second), "");
}

}  // namespace
}  // namespace uopc

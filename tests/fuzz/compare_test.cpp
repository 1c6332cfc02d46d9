// Judging an external engine's printed outputs: exact by default, and in spec mode exactly
// the allowances of LANGUAGE.md §7, carried through later ops, and nothing else.
#include <gtest/gtest.h>

#include <cmath>

#include "fuzz/compare.h"
#include "ir/error.h"
#include "ir/print.h"
#include "tests/support/run.h"

namespace uopc {
namespace {

struct Judged {
  std::string exact, spec;  // the differences found ("" when accepted)
};

// `printed` judged against the interpreter's outputs of `program`, both ways.
Judged judge(const std::string& program, const std::string& printed, Comparison extra = {}) {
  Program p = testing::parse(program);
  InterpResult want = interpret(p, {});
  Comparison exact = extra, spec = extra;
  exact.spec = false;
  spec.spec = true;
  return {Judge(p, exact).compare(want, printed), Judge(p, spec).compare(want, printed)};
}

std::string next_up(float v, int ulps) {
  for (int k = 0; k < ulps; ++k) v = std::nextafter(v, INFINITY);
  return format_f32(v);
}

// What the interpreter prints for `program`, with its one output's element replaced.
std::string printed_with(const std::string& program, const std::string& element) {
  std::vector<std::string> lines = testing::interp_lines(program);
  std::string line = lines.at(0);
  return line.substr(0, line.find(" = ") + 3) + element + "\n";
}

TEST(Compare, ExactIsBitForBit) {
  const char* p = "%x = stack 1.5 -2.0\n%y = add %x 0.25\n";
  EXPECT_EQ(judge(p, "%y f32[2] = [1.75 -1.75]\n").exact, "");
  EXPECT_NE(judge(p, "%y f32[2] = [1.75 -1.7500001]\n").exact, "");
  EXPECT_NE(judge(p, "%y f32[2] = [1.75]\n").exact, "");
  EXPECT_NE(judge(p, "%z f32[2] = [1.75 -1.75]\n").exact, "");
  EXPECT_NE(judge(p, "%y i32[2] = [1 -1]\n").exact, "");
  EXPECT_NE(judge(p, "").exact, "");
  // Spec mode allows nothing here: no op of this program has an allowance.
  EXPECT_NE(judge(p, "%y f32[2] = [1.75 -1.7500001]\n").spec, "");
}

// A value printed NumPy's summarized way hides elements: it is refused, saying so, whatever
// the elements it shows.
TEST(Compare, ASummaryIsNotEveryElement) {
  const char* p = "%x = expand 0.0 shape=[9 60]\n";
  Program program = testing::parse(p);
  InterpResult r = interpret(program, {});
  std::string summary = format_output("%x", r.outputs.at(0).second, 500) + "\n";
  ASSERT_NE(summary.find("..."), std::string::npos) << summary;
  std::string said = judge(p, summary).exact;
  EXPECT_NE(said.find("printed a summary of its 540 elements"), std::string::npos) << said;
  EXPECT_EQ(judge(p, testing::interp_lines(p).at(0) + "\n").exact, "");
}

// The interpreter's output line of `program` with the first element moved up by `ulps`.
std::string first_moved(const std::string& program, int ulps) {
  std::string line = testing::interp_lines(program).at(0);
  size_t from = line.find(" = [") + 4, to = line.find_first_of(" ]", from);
  float v = std::stof(line.substr(from, to - from));
  return line.substr(0, from) + next_up(v, ulps) + line.substr(to) + "\n";
}

TEST(Compare, SpecAllowsOneUlpOfLibmAndNoMore) {
  for (const char* op : {"exp2", "log2", "sin"}) {
    std::string p = std::string("%x = stack 0.3 1.7\n%y = ") + op + " %x\n";
    EXPECT_NE(judge(p, first_moved(p, 1)).exact, "") << op;
    EXPECT_EQ(judge(p, first_moved(p, 1)).spec, "") << op;
    EXPECT_NE(judge(p, first_moved(p, 2)).spec, "") << op;
  }
}

TEST(Compare, SpecCarriesAnAllowanceThroughLaterOps) {
  // 1 ulp of exp2(0.3) ~ 1.2e-7, times 1000: the product may be off by about 1.2e-4.
  const char* p = "%x = stack 0.3\n%e = exp2 %x\n%y = mul %e 1000.0\n";
  float y = 1000.0f * std::exp2(0.3f);
  EXPECT_EQ(judge(p, printed_with(p, "[" + format_f32(y + 1e-4f) + "]")).spec, "");
  EXPECT_NE(judge(p, printed_with(p, "[" + format_f32(y + 1e-2f) + "]")).spec, "");
  // A comparison the allowance cannot flip stays exact; one it can flip is not checked.
  const char* far = "%x = stack 0.3\n%e = exp2 %x\n%y = cmplt %e 2.0\n";
  EXPECT_NE(judge(far, "%y bool[1] = [false]\n").spec, "");
  float e = std::exp2(0.3f);
  std::string near = "%x = stack 0.3\n%e = exp2 %x\n%y = cmplt %e " + format_f32(e) + "\n";
  EXPECT_EQ(judge(near, "%y bool[1] = [true]\n").spec, "");
  EXPECT_NE(judge(near, "%y bool[1] = [true]\n").exact, "");
}

TEST(Compare, SpecAllowsReassociatedReductionsWithinTheBound) {
  // Sum of 4 terms with sum|x| = 1e8 + 3: bound 4 * 2^-23 * sum|x|, about 48.
  const char* p = "%x = stack 1e8 1.0 1.0 1.0\n%s = reduce %x op=add pop=1\n";
  EXPECT_EQ(judge(p, "%s f32[] = 100000000\n").exact, "");  // the left fold drops the ones
  EXPECT_EQ(judge(p, "%s f32[] = 100000008\n").spec, "");   // pairwise keeps them
  EXPECT_NE(judge(p, "%s f32[] = 100000008\n").exact, "");
  EXPECT_NE(judge(p, "%s f32[] = 100000096\n").spec, "");
  // Integer reductions and max have no allowance.
  const char* ints = "%x = stack 1 2 3\n%s = reduce %x op=add pop=1\n";
  EXPECT_NE(judge(ints, "%s i32[] = 7\n").spec, "");
  const char* mx = "%x = stack 1.5 2.5\n%s = reduce %x op=max pop=1\n";
  EXPECT_NE(judge(mx, "%s f32[] = 2.5000002\n").spec, "");
}

TEST(Compare, NanAndSignedZeroOnlyWhenAsked) {
  const char* p = "%x = stack 0.0 -1.0\n%y = neg %x\n";  // [-0 1]
  EXPECT_NE(judge(p, "%y f32[2] = [0 1]\n").exact, "");
  EXPECT_NE(judge(p, "%y f32[2] = [0 1]\n").spec, "");
  Comparison zeros;
  zeros.signed_zero_equal = true;
  EXPECT_EQ(judge(p, "%y f32[2] = [0 1]\n", zeros).exact, "");
  EXPECT_NE(judge(p, "%y f32[2] = [0 2]\n", zeros).exact, "");
  const char* q = "%x = stack nan 1.0\n%y = max %x 0.5\n";  // [0.5 1] by the language's max
  EXPECT_NE(judge(q, "%y f32[2] = [nan 1]\n").exact, "");
  Comparison nans;
  nans.nan_equal = true;
  EXPECT_EQ(judge(q, "%y f32[2] = [nan 1]\n", nans).exact, "");
  EXPECT_NE(judge(q, "%y f32[2] = [nan 2]\n", nans).exact, "");
  EXPECT_EQ(judge("%x = stack nan\n", "%x f32[1] = [nan]\n").exact, "");
}

TEST(Compare, AssertVerdictsOnInexactValuesMayDiffer) {
  Comparison spec;
  spec.spec = true;
  Program inexact = testing::parse("%x = stack 0.3\n%e = exp2 %x\n%ok = assert %e %e\n");
  Program exact = testing::parse("%x = stack 0.3\n%e = add %x 1.0\n%ok = assert %e %e\n");
  EXPECT_TRUE(Judge(inexact, spec).verdict_may_differ());
  EXPECT_FALSE(Judge(exact, spec).verdict_may_differ());
  EXPECT_FALSE(Judge(inexact, Comparison{}).verdict_may_differ());
}

TEST(Compare, NamesAndFlags) {
  EXPECT_EQ(Comparison{}.name(), "exact");
  EXPECT_EQ(Comparison{}.flags(), "");
  Comparison all = parse_comparison("spec", true, true);
  EXPECT_EQ(all.name(), "spec, nan-equal, signed-zero-equal");
  EXPECT_EQ(all.flags(), "--compare spec --nan-equal --signed-zero-equal");
  EXPECT_THROW(parse_comparison("loose", false, false), UserError);
}

}  // namespace
}  // namespace uopc

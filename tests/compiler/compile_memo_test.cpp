// The compile memo (compiler/compile_memo.h): within one, the same compile or build again is
// the first one's, and anything that changes a compile makes another.
#include "compiler/compile_memo.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "compiler/recent.h"
#include "compiler/rewrite.h"
#include "compiler/symbolic.h"
#include "interp/interp.h"
#include "ir/parse.h"
#include "ir/plant.h"

namespace uopc {
namespace {

// tcc, counting its compiles.
class CountingBackend : public Backend {
 public:
  std::unique_ptr<Module> compile(const std::string& source) override {
    ++compiles;
    return tcc_->compile(source);
  }
  int compiles = 0;

 private:
  std::unique_ptr<Backend> tcc_ = make_tcc_backend();
};

// A permute, a pad and a reduce: their rules and a plant change the C.
Program program() {
  return parse_program(
      "%x = buffer 24 dtype=i32\n"
      "%a = reshape %x shape=[2 3 4]\n"
      "%t = permute %a order=[1 2 0]\n"
      "%p = pad %t pads=[1 0 0 2 0 0]\n"
      "%s = reduce %p op=add pop=1\n",
      "memo.uir");
}

std::string first_output_difference(const Program& p, Backend& backend) {
  InterpResult want = interpret(p, {});
  InterpResult got = run_compiled(p, compile_program(p), backend, {});
  return describe_difference(want.outputs.at(0).second, got.outputs.at(0).second);
}

TEST(CompileMemo, TheSameCompileAndBuildAgainAreTheFirstOnes) {
  Program p = program();
  CountingBackend backend;
  CompileMemo memo;
  std::string source = compile_program(p).source;
  EXPECT_EQ(memo.hits(), 0u);
  EXPECT_EQ(compile_program(program()).source, source);  // parsed again: the same nodes
  EXPECT_EQ(memo.hits(), 1u);
  EXPECT_EQ(first_output_difference(p, backend), "");
  EXPECT_EQ(first_output_difference(p, backend), "");
  EXPECT_EQ(backend.compiles, 1);
}

TEST(CompileMemo, OutsideOneNothingIsRemembered) {
  Program p = program();
  CountingBackend backend;
  EXPECT_EQ(first_output_difference(p, backend), "");
  EXPECT_EQ(first_output_difference(p, backend), "");
  EXPECT_EQ(backend.compiles, 2);
  {
    CompileMemo memo;
    compile_program(p);
  }
  CompileMemo later;
  compile_program(p);
  EXPECT_EQ(later.hits(), 0u) << "a memo outlived its scope";
}

TEST(CompileMemo, EverySettingTheOutputsAndThePlantMakeAnotherCompile) {
  Program p = program();
  CompileMemo memo;
  std::string plain = compile_program(p).source;
  std::vector<std::string> sources = {plain};
  for (const RenderOptions& o :
       {RenderOptions{.check_bounds = true}, RenderOptions{.count_iterations = true},
        RenderOptions{.check_ub = true}, RenderOptions{.by_helper = {Op::Add}},
        RenderOptions{.check_intervals = true}})
    sources.push_back(compile_program(p, o).source);
  sources.push_back(compile_program(p, {}, parse_opts_choice("auto", "opts")).source);
  sources.push_back(compile_program(p, {}, parse_opts_choice("upcast=1:2", "opts")).source);
  Program two = parse_program(
      "%x = buffer 12 dtype=i32\n%a = reshape %x shape=[3 4]\n%b = neg %a\n%c = add %a %a\n",
      "two.uir");
  Program swapped = parse_program(
      "%x = buffer 12 dtype=i32\n%a = reshape %x shape=[3 4]\n%c = add %a %a\n%b = neg %a\n",
      "swapped.uir");
  Program reshaped = parse_program(
      "%x = buffer 12 dtype=i32\n%a = reshape %x shape=[4 3]\n%b = neg %a\n%c = add %a %a\n",
      "reshaped.uir");
  sources.push_back(compile_program(two).source);
  sources.push_back(compile_program(swapped).source);
  sources.push_back(compile_program(reshaped).source);
  set_plant(Plant::PermuteInverse);
  sources.push_back(compile_program(p).source);
  set_plant(Plant::None);
  EXPECT_EQ(memo.hits(), 0u);
  for (size_t k = 0; k < sources.size(); ++k)
    for (size_t j = 0; j < k; ++j) EXPECT_NE(sources[j], sources[k]) << j << " and " << k;
  EXPECT_EQ(compile_program(p).source, plain);
  EXPECT_EQ(memo.hits(), 1u);
}

TEST(CompileMemo, ACompileWhoseStepsAreLoggedIsMadeAnew) {
  Program p = program();
  CompileMemo memo;
  compile_program(p);
  std::vector<RewriteStep> steps = steps_of([&] { compile_program(p); });
  EXPECT_FALSE(steps.empty()) << "a remembered compile hid its rewrites";
  EXPECT_EQ(memo.hits(), 0u);
}

// The rules left out are part of a compile: within a memo, a compile without a rule is what it
// is without one, and the same rules left out again give the same compile.
TEST(CompileMemo, RulesLeftOutAreAnotherCompile) {
  Program p = program();
  std::vector<std::string> rules;
  for (const RewriteStep& s : steps_of([&] { compile_program(p); }))
    if (std::find(rules.begin(), rules.end(), s.rule) == rules.end()) rules.push_back(s.rule);
  std::vector<std::string> without;  // outside any memo
  for (const std::string& rule : rules) {
    WithoutRule aside(rule);
    without.push_back(compile_program(p).source);
  }
  std::string all = compile_program(p).source;
  ASSERT_NE(std::count_if(without.begin(), without.end(), [&](auto& s) { return s != all; }), 0)
      << "no rule changes this program's C";
  CompileMemo memo;
  EXPECT_EQ(compile_program(p).source, all);
  for (int round = 0; round < 2; ++round)
    for (size_t k = 0; k < rules.size(); ++k) {
      WithoutRule aside(rules[k]);
      EXPECT_EQ(compile_program(p).source, without[k]) << "without " << rules[k];
    }
  EXPECT_EQ(memo.hits(), rules.size());
}

// A kernel is lowered and rendered once: a program whose first kernel another program had
// takes it, and compiles as it does outside a memo.
TEST(CompileMemo, AKernelMetBeforeIsNeitherLoweredNorRenderedAgain) {
  auto with = [](const std::string& second) {
    return parse_program(
        "%x = buffer 12 dtype=i32\n%a = reshape %x shape=[3 4]\n"
        "%s = reduce %a op=add pop=1\n" +
            second,
        "kernels.uir");
  };
  std::string fresh = compile_program(with("%m = mul %x %x\n")).source;
  CompileMemo memo;
  compile_program(with("%n = neg %x\n"));
  EXPECT_EQ(memo.kernel_hits(), 0u);
  EXPECT_EQ(compile_program(with("%m = mul %x %x\n")).source, fresh);
  EXPECT_EQ(memo.hits(), 0u);
  EXPECT_EQ(memo.kernel_hits(), 2u) << "the reduce's kernel: its lowering and its C";
}

// A reduce computed in two kernels folds as the first of them decided (with --opts auto, by
// that kernel's shape): a kernel lowered after another unroll of its reduce is another kernel.
TEST(CompileMemo, AKernelFoldsItsReduceAsItsProgramDecided) {
  std::string sum =
      "%x = buffer 32 dtype=i32\n%a = reshape %x shape=[16 2]\n"
      "%r = reduce %a op=add pop=1\n";
  Program whole = parse_program(sum + "%r2 = reduce %a op=add pop=1\n%n = neg %r\n", "whole.uir");
  Program spread = parse_program(
      sum + "%c = reshape %r shape=[2 1]\n%e = expand %c shape=[2 8]\n%n = neg %r\n", "spread.uir");
  OptsChoice opts = parse_opts_choice("auto", "opts");
  CompiledProgram fresh = compile_program(spread, {}, opts);
  const UOp* reduce = whole.statements[2].node.get();
  ASSERT_NE(compile_program(whole, {}, opts).schedule.unrolled.at(reduce),
            fresh.schedule.unrolled.at(reduce))
      << "both programs unroll the reduce alike";
  CompileMemo memo;
  compile_program(whole, {}, opts);
  EXPECT_EQ(compile_program(spread, {}, opts).source, fresh.source);
}

// The memo's bounds: the least recently used entries go first, by count and by size.
TEST(Recent, ForgetsTheLeastRecentlyUsedFirst) {
  Recent<int> r(3, 100);
  for (int k = 0; k < 3; ++k) r.add(std::to_string(k), std::make_shared<int>(k), 10);
  ASSERT_NE(r.find("0"), nullptr);  // now the most recent
  r.add("3", std::make_shared<int>(3), 10);
  EXPECT_EQ(r.find("1"), nullptr);
  for (const char* kept : {"0", "2", "3"}) EXPECT_NE(r.find(kept), nullptr) << kept;
  r.add("big", std::make_shared<int>(4), 85);  // 30 + 85 > 100: the two oldest go
  EXPECT_EQ(r.size(), 2u);
  EXPECT_EQ(*r.find("3"), 3);
  r.add("huge", std::make_shared<int>(5), 500);  // alone over the limit, and still kept
  EXPECT_EQ(r.size(), 1u);
  EXPECT_EQ(*r.find("huge"), 5);
}

TEST(CompileMemo, AMemoWithinAnotherUsesIt) {
  Program p = program();
  CompileMemo outer;
  compile_program(p);
  {
    CompileMemo inner;
    compile_program(p);
    EXPECT_EQ(inner.hits(), 1u);
  }
  compile_program(p);
  EXPECT_EQ(outer.hits(), 2u);
}

}  // namespace
}  // namespace uopc

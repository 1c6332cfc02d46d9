// The property suite: every oracle as a RapidCheck property over the one generator, driven by
// RapidCheck so that a failure shrinks to a small program, printed as .uir with the RC_PARAMS
// that replay it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <set>
#include <unordered_set>

#include "compiler/backend.h"
#include "compiler/engine.h"
#include "compiler/symbolic.h"
#include "fuzz/expr_gen.h"
#include "fuzz/expr_text.h"
#include "fuzz/gen.h"
#include "fuzz/oracles.h"
#include "fuzz/signature.h"
#include "fuzz/smt.h"
#include "interp/interp.h"
#include "ir/build.h"
#include "ir/error.h"
#include "ir/loop.h"
#include "ir/parse.h"
#include "ir/plant.h"
#include "ir/print.h"

namespace uopc {
namespace {

Backend& tcc() {
  static std::unique_ptr<Backend> b = make_tcc_backend();
  return *b;
}

void assert_no_failure(const std::optional<Failure>& f) {
  if (f) RC_LOG() << "the " << f->oracle << " oracle failed: " << f->detail << "\n" << f->program;
  RC_ASSERT(!f);
}

RC_GTEST_PROP(Oracles, EnginesAgreeWithBoundsChecksAndCost, ()) {
  RapidCheckChoices c;
  assert_no_failure(check_engines(generate(c), tcc()));
}

RC_GTEST_PROP(Oracles, CompositesEqualPrimitives, ()) {
  RapidCheckChoices c;
  assert_no_failure(check_composites(generate(c), tcc()));
}

RC_GTEST_PROP(Oracles, PrintThenParseIsIdentity, ()) {
  RapidCheckChoices c;
  assert_no_failure(check_roundtrip(generate(c)));
}

// A literal written as `expand 3 shape=[]` is a node of its own, which a printer may take for
// the bare literal: the generator writes it, and the round trip keeps it apart.
TEST(Oracles, LiteralsExpandedToScalarsAreGeneratedAndRoundTrip) {
  int found = 0;
  for (uint64_t seed = 0; seed < 2000 && found < 5; ++seed) {
    RandomChoices c(seed);
    Program p = generate(c);
    bool has = false;
    for (const UOp* n : topo_order(p.roots()))
      has |= n->op == Op::Expand && n->rank() == 0 && n->src[0]->op == Op::Const;
    if (!has) continue;
    ++found;
    std::optional<Failure> f = check_roundtrip(p);
    EXPECT_FALSE(f) << f->detail << "\n" << print_program(p);
  }
  EXPECT_EQ(found, 5) << "the generator hardly writes a literal expanded to a scalar";
}

RC_GTEST_PROP(Oracles, RuleBreakingProgramsAreRejected, ()) {
  RapidCheckChoices c;
  Program p = generate(c);
  Broken b = break_one_rule(c, p);
  assert_no_failure(check_rejected(b.text, b.rule));
}

RC_GTEST_PROP(Oracles, IntervalBreakersOfLiteralProgramsAreRejected, ()) {
  RapidCheckChoices c;
  if (std::optional<Broken> b = break_an_interval_rule(c, {}))
    assert_no_failure(check_rejected(b->text, b->rule));
}

// Interval rules need narrow i32 values, which programs over buffers seldom hold (a buffer's
// interval is all of i32): of 2000 rule-breaking variants of generated programs, a checker
// whose pad rule forgets the fill let 3 through, one whose max rule takes the lower high 1,
// one whose mul rule takes two corners none. An offset built from every narrow value of a
// program of literals tests the interval rules of all their subgraphs at once: of as many
// draws, 90, 31 and 24 (of the 1227 that hold a narrow value); this test draws 500. A sound
// checker lets none through.
TEST(Oracles, EveryWrongIntervalRuleLetsLiteralBreakersThrough) {
  for (Plant plant : {Plant::None, Plant::PadBoundsIgnoreFill, Plant::MaxIntervalLowerHigh,
                      Plant::MulIntervalTwoCorners}) {
    int drawn = 0, let_through = 0;
    for (uint64_t seed = 0; seed < 500; ++seed) {
      RandomChoices c(seed);
      std::optional<Broken> b = break_an_interval_rule(c, {});  // by the sound rules
      if (!b) continue;
      ++drawn;
      set_plant(plant);  // checked by the wrong one
      if (check_rejected(b->text, b->rule)) ++let_through;
      set_plant(Plant::None);
    }
    EXPECT_GE(drawn, 250) << plant_name(plant);
    if (plant == Plant::None)
      EXPECT_EQ(let_through, 0);
    else
      EXPECT_GE(let_through, 3) << plant_name(plant);
  }
}

// Each rule breaker is refused for the rule it is named by, not for some other mistake in the
// statement (which would leave its rule unexercised), on values of every rank and dtype.
TEST(Oracles, EachRuleBreakerIsRefusedByItsOwnRule) {
  const std::map<std::string, std::vector<std::string>> says = {
      {"reshape element count", {"cannot reshape"}},
      {"reduce pop", {"is out of range for"}},
      {"pad length", {"pads has"}},
      {"dtype", {"where i32 is expected", "where bool is expected", "needs i32 operands"}},
      {"permutation", {"is not a permutation"}},
      {"permutation length", {"is not a permutation"}},
      {"permutation range", {"is not a permutation"}},
      {"flip axes", {"appears twice"}},
      {"flip axis range", {"is out of range for rank"}},
      {"flip axis sign", {"axis -1 is out of range"}},
      {"shrink bounds", {"offset is"}},
      {"shrink provability", {"unprovable"}},
      {"interval high end", {"bounds it to [0, "}},
      {"interval low end", {"bounds it to [-1, "}},
      {"shrink size", {"exceeds the axis size"}},
      {"shrink offset sign", {"offset is -1"}},
      {"shrink arity", {"offsets and"}},
      {"expand", {"only size-1 axes grow"}},
      {"expand to smaller", {"only size-1 axes grow"}},
      {"expand rank", {"the rank must stay"}},
      {"index range", {"outside"}},
      {"index sign", {"is -1, outside"}},
      {"index count", {"indices into a rank-"}},
      {"index dtype", {"must be a rank-0 i32 value"}},
      {"stack shapes", {"one dtype and one shape"}},
      {"stack dtypes", {"one dtype and one shape"}},
      {"pad value dtype", {"literal 1.5 where", "literal true where"}},
      {"pad left sign", {"negative padding in [-1"}},
      {"pad right sign", {"negative padding in [0"}},
      {"reshape inference", {"more than one -1"}},
      {"rank limit", {"exceeds the maximum of 8"}},
      {"reduce op", {"reduce op must be"}},
      {"reduce pop sign", {"pop=-1 is out of range"}},
      {"reduce dtype", {"needs i32 or f32"}},
      {"where condition", {"the condition must be bool"}},
      {"assert dtypes", {"operands need one dtype and one shape"}},
      {"buffer size", {"is negative"}},
      {"broadcast", {"cannot broadcast"}},
  };
  std::set<std::string> used;
  for (const char* text :
       {"%x = buffer 24 dtype=i32\n%m = reshape %x shape=[2 3 4]\n",
        "%x = buffer 6 dtype=f32\n%m = reshape %x shape=[1 6]\n", "%m = stack true false\n",
        "%m = add 1 2\n", "%x = buffer 0 dtype=f32\n%m = reshape %x shape=[0 3]\n",
        "%x = stack 4 -1 2\n%m = pad %x pads=[1 0] value=-3\n", "%m = max -3 7\n"}) {
    Program p = parse_program(text, "valid.uir");
    std::set<std::string> rules;
    for (const Broken& b : rule_breakers(p, p.statements.back(), 0)) {
      EXPECT_TRUE(rules.insert(b.rule).second) << b.rule << " twice";
      used.insert(b.rule);
      ASSERT_TRUE(says.count(b.rule)) << "no expected message for " << b.rule;
      try {
        parse_program(b.text, "broken.uir");
        ADD_FAILURE() << b.rule << " accepted:\n" << b.text;
      } catch (const UserError& e) {
        bool named = false;
        for (const std::string& phrase : says.at(b.rule))
          named |= std::string(e.what()).find(phrase) != std::string::npos;
        EXPECT_TRUE(named) << b.rule << " refused for another reason: " << e.what() << "\n"
                           << b.text;
      }
    }
  }
  EXPECT_EQ(used.size(), says.size()) << "a rule no sample value can break";
}

RC_GTEST_PROP(Oracles, SimplificationIsSound, ()) {
  RapidCheckChoices c;
  assert_no_failure(check_symbolic(c));
}

// The byte driver: any bytes make a valid program, and the same bytes the same program.
RC_GTEST_PROP(Oracles, BytesMakeValidPrograms, (const std::vector<uint8_t>& bytes)) {
  BytesChoices a(bytes.data(), bytes.size()), b(bytes.data(), bytes.size());
  Program p = generate(a), q = generate(b);
  RC_ASSERT(print_program(p) == print_program(q));
  assert_no_failure(check_roundtrip(p));
}

// Triage's budget holds for its scope, nested, and the oracle's comes back after it.
TEST(Oracles, ASymbolicBudgetHoldsForItsScope) {
  Smt* oracle = &thread_smt();
  {
    SymbolicBudget triage(kTriageTimeoutMs);
    Smt* in_triage = &thread_smt();
    EXPECT_NE(in_triage, oracle);
    {
      SymbolicBudget again(kTriageTimeoutMs);
      EXPECT_EQ(&thread_smt(), in_triage);
      SymbolicBudget tight(1);
      EXPECT_NE(&thread_smt(), in_triage);
    }
    EXPECT_EQ(&thread_smt(), in_triage);
  }
  EXPECT_EQ(&thread_smt(), oracle);
}

TEST(Oracles, EmptyBytesMakeAProgram) {
  BytesChoices none(nullptr, 0);
  EXPECT_FALSE(generate(none).statements.empty());
}

// The composites alone, on pads and flips the generator may rarely combine.
TEST(Oracles, CompositesOfEveryDtypeAndLongPadding) {
  Backend& b = tcc();
  const char* programs[] = {
      "%x = buffer 12 dtype=i32\n%m = reshape %x shape=[3 4]\n%f = flip %m axes=[0 1]\n",
      "%x = buffer 12\n%m = reshape %x shape=[3 4]\n%f = flip %m axes=[1]\n%p = pad %f pads=[5 1 0 "
      "9] value=-0.0\n",
      "%x = buffer 6 dtype=bool\n%f = flip %x axes=[0]\n%p = pad %f pads=[13 2] value=true\n",
      "%x = buffer 0\n%p = pad %x pads=[2 3]\n",
      // At the largest rank: a composite must not need a rank above it for its stacks.
      "%x = buffer 256 dtype=i32\n%m = reshape %x shape=[2 2 2 2 2 2 2 2]\n"
      "%f = flip %m axes=[0 3 7]\n%p = pad %f pads=[1 0 0 0 0 2 0 0 0 0 0 0 0 0 1 1]\n",
      "%x = buffer 256\n%m = reshape %x shape=[2 2 2 2 2 2 2 2]\n%f = flip %m axes=[1 7]\n"
      "%p = pad %f pads=[0 0 0 0 0 0 0 0 0 0 0 0 0 0 3 0] value=2.5\n",
      "%x = buffer 0\n%m = reshape %x shape=[4 4 4 0 1 1 1 1]\n%f = flip %m axes=[0 1 2 4]\n",
  };
  for (const char* text : programs) {
    Program p = parse_program(text, "t.uir");
    std::optional<Failure> f = check_composites(p, b);
    EXPECT_FALSE(f) << text << (f ? f->detail : "");
  }
}

// A 24-wide matrix of the default data is constant along its anti-diagonals (24 = 1 mod 23),
// so a square one is its own transpose and a reshape read column-major agrees with the
// interpreter on it. The engines oracle runs such programs on scrambled inputs too.
// The generator writes the symbolic oracle's expressions as programs too, each variable a stack
// of values across its bounds: a rewrite whose side condition was dropped (the remainder's sum
// may wrap) then gives wrong values in a kernel, which the engines oracle sees without z3, and
// so does any engine run as a target.
TEST(Oracles, GeneratedExpressionsShowAnUncheckedRewriteByValue) {
  std::unique_ptr<Backend> backend = make_backend("tcc");
  set_plant(Plant::DivmodSplitUnchecked);
  int64_t found_at = -1;
  for (uint64_t seed = 1; seed <= 3000 && found_at < 0; ++seed) {
    RandomChoices choices(seed);
    Program p = generate(choices, {});
    if (check_engines(p, *backend)) found_at = static_cast<int64_t>(seed);
  }
  set_plant(Plant::None);
  EXPECT_GT(found_at, 0) << "no program of the first 3000 seeds showed divmod_split_unchecked";
}

// A campaign through an external engine has no symbolic oracle to read the engine's rules:
// every eighth program it checks is expressions only, each side condition's bug shown by
// values. Such programs show each unchecked side condition at least ten times as often as
// generated ones (measured over 2,000 seeds: 92 and 69 of them, against 4 of 8,000 each).
TEST(Oracles, ExpressionProgramsShowUncheckedRewritesByValue) {
  std::unique_ptr<Backend> backend = make_backend("tcc");
  for (Plant plant : {Plant::DivmodSplitUnchecked, Plant::DivDivUnchecked}) {
    int shown = 0;
    for (uint64_t seed = 1; seed <= 300; ++seed) {
      RandomChoices choices(seed);
      Program p = expressions_program(choices, {});
      EXPECT_EQ(p.roots().size(), static_cast<size_t>(kExpressionsPerProgram)) << seed;
      set_plant(plant);
      shown += check_engines(p, *backend).has_value();
      set_plant(Plant::None);
      EXPECT_FALSE(check_engines(p, *backend)) << print_program(p);
    }
    EXPECT_GE(shown, 3) << plant_name(plant);
  }
}

// intervals_left finds for the nodes of an expression together what interval_holds finds for
// each node alone, whether the points are few enough to enumerate or sampled; with an interval
// rule planted wrong, some nodes leave their interval.
TEST(Oracles, IntervalsLeftAgreesWithEachNodeAlone) {
  size_t refuted = 0;
  for (Plant plant : {Plant::None, Plant::MulIntervalTwoCorners, Plant::MaxIntervalLowerHigh}) {
    set_plant(plant);
    for (int64_t max_points : {64, 4096}) {
      for (uint64_t seed = 1; seed <= 200; ++seed) {
        RandomChoices choices(seed);
        RandomExpr e = random_expr(choices);
        std::unordered_set<const UOp*> alone, checked;
        for (const UOp* n : topo_order({e.expr}))
          if (is_alu(n->op) && n->dtype == DType::I32 &&
              interval_holds(shared_from(n), max_points).refuted())
            alone.insert(n);
        EXPECT_EQ(intervals_left(e.expr, max_points, &checked), alone) << expression_text(e);
        refuted += alone.size();
      }
    }
  }
  set_plant(Plant::None);
  EXPECT_GT(refuted, 20u);
}

// The symbolic oracle names the rule of the first rewrite step that is wrong on its own, not
// the normalizing rules that fired before or after it.
TEST(Oracles, ARefutedSimplificationNamesItsRule) {
  // 4x + y + z cannot wrap, y + z alone can: the split's check refuses it
  std::vector<UOpRef> v = {var(0, {-536870912, -1}), var(1, {0, 1073741824}),
                           var(2, {0, 1073741824})};
  UOpRef sum =
      alu(Op::Add, {alu(Op::Add, {alu(Op::Mul, {v[0], literal(Scalar::of_i32(4))}), v[1]}), v[2]});
  RandomExpr e{v, alu(Op::Idiv, {sum, literal(Scalar::of_i32(2))})};
  EXPECT_FALSE(check_expression(e));
  set_plant(Plant::DivmodSplitUnchecked);
  std::optional<Failure> f = check_expression(e);
  set_plant(Plant::None);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->detail.rfind("divmod_split: ", 0), 0u) << f->detail;
  std::unique_ptr<Backend> backend = make_backend("tcc");
  EXPECT_EQ(failure_signature(*f, Program{}, *backend), "symbolic-divmod_split");
}

TEST(Oracles, ScrambledInputsShowWhatTheDefaultDataHides) {
  Program p = parse_program("%a = buffer 576 dtype=f32 slot=0\n%m = reshape %a shape=[24 24]\n",
                            "square.uir");
  set_plant(Plant::ReshapeColumnMajor);
  InterpResult plain = run_compiled(p, compile_program(p, {}), tcc(), {});
  std::optional<Failure> f = check_engines(p, tcc(), {});
  set_plant(Plant::None);
  InterpResult want = interpret(p, {});
  EXPECT_EQ(first_difference(want.outputs[0].second, plain.outputs[0].second), -1)
      << "the default data no longer hides a transpose of this shape";
  ASSERT_TRUE(f) << "the column-major reshape went unseen";
  EXPECT_EQ(f->oracle, "engines");
  EXPECT_NE(f->detail.find("with scrambled inputs"), std::string::npos) << f->detail;
}

// Up to 23 elements the default data holds distinct values: no second run.
TEST(Oracles, ShortBuffersKeepTheDefaultDataOnly) {
  Program small =
      parse_program("%a = buffer 23 dtype=i32 slot=0\n%b = buffer 5 slot=1\n", "small.uir");
  EXPECT_FALSE(scrambled_options(small));
  Program large =
      parse_program("%a = buffer 24 dtype=i32 slot=0\n%b = buffer 5 slot=1\n", "large.uir");
  std::optional<InterpOptions> o = scrambled_options(large);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->inputs.size(), 2u);
}

UOpRef i32_literal(int32_t v) {
  return literal(Scalar::of_i32(v));
}

// (x // 4) * 4 + (x % 4) * -1 taken for x * -1, as a rule that folds a quotient and remainder
// without checking their coefficients would: wrong at x = 4.
RewriteStep folded_with_the_wrong_coefficient(const UOpRef& x) {
  UOpRef q = alu(Op::Mul, {alu(Op::Idiv, {x, i32_literal(4)}), i32_literal(4)});
  UOpRef r = alu(Op::Mul, {alu(Op::Mod, {x, i32_literal(4)}), i32_literal(-1)});
  return {"combine_terms", alu(Op::Add, {q, r}), alu(Op::Mul, {x, i32_literal(-1)})};
}

UOpRef expression(const std::string& text) {
  return read_expression("# expression: " + text + "  ->  _  x0 in [0, 7]  x1 in [0, 4]\n", "t")
      ->expr;
}

// `text` read over the variables of `like`.
UOpRef expression(const std::string& text, const RandomExpr& like) {
  std::string line = "# expression: " + text + "  ->  _";
  for (const UOpRef& v : like.vars) line += "  " + expr_str(v) + " in " + interval_str(v->bounds);
  return read_expression(line + "\n", "t")->expr;
}

// A symbolic failure's file is its expression line, which `uopc fuzz --check` reads back: every
// expression the generator makes, and its simplification, read back as the same nodes.
TEST(Oracles, EveryGeneratedExpressionReadsBack) {
  for (uint64_t seed = 1; seed <= 2000; ++seed) {
    RandomChoices choices(seed);
    RandomExpr e = random_expr(choices);
    UOpRef s = simplify(e.expr);
    std::string line = expression_line(e, expr_str(s));
    std::optional<RandomExpr> back;
    ASSERT_NO_THROW(back = read_expression(line, "t")) << line;
    ASSERT_TRUE(back) << line;
    EXPECT_EQ(back->expr, e.expr) << line;
    std::string simplified = line.substr(line.find("  ->  ") + 6);
    EXPECT_EQ(expression(simplified.substr(0, simplified.find("  ")), e), s) << line;
  }
}

// A kernel's rewrite step over loop counters of 8 and 5 values is decided by evaluating those
// 40 points. z3 gave up on this one, from a campaign, within its time limit, and the rule went
// unnamed.
TEST(RewriteCause, ASmallLoopDomainIsEnumerated) {
  UOpRef before =
      expression("(((((x1//4)*4)+((((x0*20)+x1)//40)*40))+((x0%2)*20))+(((x1%4)*-1)+3))");
  UOpRef after = expression("(((((((x0*20)+x1)//40)*40)+((x0%2)*20))-x1)+3)");
  EXPECT_EQ(rewrite_cause({"combine_terms", before, after}), "combine_terms");
  EXPECT_EQ(rewrite_cause({"combine_terms", before, before}), "");
  RewriteStep small = folded_with_the_wrong_coefficient(range(5, 0, RangeKind::Loop));
  EXPECT_EQ(rewrite_cause(small), "combine_terms");
}

// An f32 where rewritten to one of its branches is judged by the choice it made, which z3 can
// decide though it models no f32: a pad's mask decided the wrong way picked its fill value.
TEST(RewriteCause, AnF32WhereIsJudgedByItsChoice) {
  UOpRef data = load(address(param(1, DType::F32, 4), i32_literal(0)));
  UOpRef fill = literal(Scalar::of_f32(0.0f));
  UOpRef i = range(5, 0, RangeKind::Loop);
  UOpRef inside = alu(Op::Cmplt, {i, i32_literal(9)});  // true at every i in [0, 4]
  UOpRef w = alu(Op::Where, {inside, data, fill});
  EXPECT_EQ(rewrite_cause({"where_decided", w, fill}), "where_decided");
  EXPECT_EQ(rewrite_cause({"where_decided", w, data}), "");
  UOpRef same = alu(Op::Where, {inside, fill, fill});
  EXPECT_EQ(rewrite_cause({"where_decided", same, fill}), "");
}

// exp2, log2 and sin have no exact scalar semantics (their last bit is the platform's libm):
// no point decides a step through them, and z3 knows of them only what every libm gives (NaN
// exactly from a NaN, exp2 never negative). x == x decided true for an f32 is wrong on exp2 of
// a NaN and right on exp2 of 2; judged by a value read from nowhere, it was an interval of cmpeq.
TEST(RewriteCause, AnOpWithoutExactSemanticsIsJudgedByWhatIsKnownOfIt) {
  for (float v : {std::nanf(""), 2.0f}) {
    UOpRef x = alu(Op::Exp2, {literal(Scalar::of_f32(v))});
    UOpRef same = alu(Op::Cmpeq, {x, x});
    EXPECT_EQ(rewrite_cause({"compare_by_bounds", same, literal(Scalar::of_bool(true))}),
              std::isnan(v) ? "compare_by_bounds" : "")
        << v;
    EXPECT_FALSE(interval_holds(same, 64).refuted());
  }
  // exp2 is never negative: deciding exp2(y) < 0 false is sound
  UOpRef y = load(address(param(1, DType::F32, 4), i32_literal(0)));
  UOpRef below = alu(Op::Cmplt, {alu(Op::Exp2, {y}), literal(Scalar::of_f32(0.0f))});
  EXPECT_EQ(rewrite_cause({"compare_by_bounds", below, literal(Scalar::of_bool(false))}), "");
  EXPECT_EQ(rewrite_cause({"compare_by_bounds", below, literal(Scalar::of_bool(true))}),
            "compare_by_bounds");
}

// A loaded value, which may be anything in its bounds, is a leaf whose address is not part of
// the claim: sampled values refute the step, with the loop counter enumerated beside them.
TEST(RewriteCause, ALoadedValueIsSampled) {
  UOpRef x = load(address(param(1, DType::I32, 4), i32_literal(0)));
  EXPECT_EQ(rewrite_cause(folded_with_the_wrong_coefficient(x)), "combine_terms");
  UOpRef before = read_expression(
                      "# expression: (((((x1//4)*4)+((((x0*20)+x1)//40)*40))+((x0%2)*20))"
                      "+(((x1%4)*-1)+3))  ->  _  x0 in [0, 7]  x1 in [-2147483648, "
                      "2147483647]\n",
                      "t")
                      ->expr;
  UOpRef after = read_expression(
                     "# expression: (((((((x0*20)+x1)//40)*40)+((x0%2)*20))-x1)+3)  "
                     "->  _  x0 in [0, 7]  x1 in [-2147483648, 2147483647]\n",
                     "t")
                     ->expr;
  EXPECT_EQ(rewrite_cause({"combine_terms", before, after}), "combine_terms");
}

// Bool and f32 leaves take their values too (both bools; f32 values that bite, as bits): a bool
// min decided from overlapping bounds, over a cast of an f32 product, went to z3 and was not
// refuted within its time limit.
TEST(RewriteCause, BoolAndF32LeavesAreEvaluated) {
  UOpRef a = load(address(param(1, DType::Bool, 4), i32_literal(0)));
  UOpRef f = load(address(param(2, DType::F32, 4), i32_literal(0)));
  UOpRef before = alu(Op::Min, {a, cast(alu(Op::Mul, {f, f}), DType::Bool)});
  EXPECT_EQ(rewrite_cause({"minmax_by_bounds", before, a}), "minmax_by_bounds");
}

// A fold of literals refuted is the op's scalar semantics (which the interpreter shares), not
// the rule's: "semantics of mod", the signature engines-mod.
TEST(RewriteCause, AWrongFoldIsTheOpsSemantics) {
  UOpRef before = alu(Op::Mod, {i32_literal(-7), i32_literal(2)});  // floor mod: 1
  EXPECT_EQ(rewrite_cause({"fold_constants", before, i32_literal(-1)}), "semantics of mod");
  EXPECT_EQ(rewrite_cause({"fold_constants", before, i32_literal(1)}), "");
}

// A node whose bounds are narrower than its values is refuted under either time limit, as the
// reader of such a node whose own step is right. Under a long limit (triage's) the bounds are
// first shown one op at a time; the wrong step stops that, and the whole query decides.
TEST(Smt, AValueOutsideItsBoundsIsRefutedUnderEveryTimeLimit) {
  UOpRef x = var(9001, {0, 10}), y = var(9002, {0, 10});
  // x + y reaches 20; its interval says 15
  UOpRef narrow = make_uop(Op::Add, DType::I32, {}, {x, y}, {}, {}, Interval{0, 15});
  UOpRef reader = alu(Op::Mul, {narrow, i32_literal(2)});  // [0, 30] from [0, 15]: right
  UOpRef right = alu(Op::Sub, {x, y});
  for (unsigned ms : {kSymbolicTimeoutMs, kTriageTimeoutMs}) {
    Smt smt(ms);
    EXPECT_TRUE(smt.equal_and_bounded(narrow, narrow).refuted()) << ms << " ms";
    EXPECT_TRUE(smt.equal_and_bounded(reader, reader).refuted()) << ms << " ms";
    EXPECT_TRUE(smt.equal_and_bounded(right, right).proved()) << ms << " ms";
    EXPECT_TRUE(smt.equal_and_bounded(alu(Op::Add, {right, x}), alu(Op::Sub, {x, y})).refuted())
        << ms << " ms";
  }
}

}  // namespace
}  // namespace uopc

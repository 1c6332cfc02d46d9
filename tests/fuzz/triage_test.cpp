// One bug, one signature: how failures are named and grouped, and how the engine settings a
// failure needs are reduced. (That reduced programs are 1-minimal: tests/fuzz/reduce_test.cpp.)
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <tuple>

#include "fuzz/campaign.h"
#include "fuzz/gen.h"
#include "fuzz/reduce.h"
#include "fuzz/signature.h"
#include "fuzz/triage.h"
#include "ir/parse.h"
#include "ir/plant.h"
#include "ir/print.h"
#include "tests/fuzz/found_programs.h"
#include "tests/support/run.h"

namespace uopc {
namespace {

// uopc run with a planted bug, as an external engine.
Target planted_engine(const std::string& plant) {
  return Target(std::string(UOPC_BINARY_PATH) + " run --backend tcc --plant " + plant, false, 10);
}

// The signature of the failure `text` shows through `target`; "" when it passes.
std::string signature_through(Target& target, const std::string& text) {
  Program p = parse_program(text, "t.uir");
  std::optional<Failure> f = check_target(p, target);
  return f ? target_signature(*f, p, target) : "";
}

std::string target_signature_of(const std::string& plant, const std::string& text) {
  Target target = planted_engine(plant);
  return signature_through(target, text);
}

// A program, the plant of the engine it goes through, and the signature its failure has there.
struct ThroughPlanted {
  const char* plant;
  const char* text;
  const char* signature;
};

void expect_target_signatures(std::initializer_list<ThroughPlanted> cases) {
  for (const ThroughPlanted& c : cases) {
    Target target = planted_engine(c.plant);
    Program p = parse_program(c.text, "t.uir");
    std::optional<Failure> f = check_target(p, target);
    ASSERT_TRUE(f) << c.plant << "\n" << c.text;
    EXPECT_EQ(target_signature(*f, p, target), c.signature) << c.plant << "\n" << c.text;
  }
}

class Planted : public ::testing::Test {
 protected:
  void TearDown() override { set_plant(Plant::None); }
};

TEST(Triage, FailuresWithTheSameProgramAreOneGroup) {
  Triage t;
  EXPECT_EQ(t.group_of("engines-cast", "%v = stack 1 2\n"), "engines-cast");
  EXPECT_EQ(t.group_of("engines-stack", "# another header\n%v = stack 1 2\n"), "engines-cast");
  EXPECT_EQ(t.group_of("engines-stack", "%v = stack 1 3\n"), "engines-stack");
  EXPECT_EQ(t.group_of("engines-add", "%v = stack 1 3\n"), "engines-stack");
}

EngineConfig fixed(const std::string& opts, int threads) {
  return {parse_opts_choice(opts, "test"), threads};
}

// The signature of the engines failure of `text` run under `config`, or "no failure".
std::string signature_of(const std::string& text, Backend& backend, const EngineConfig& config) {
  Program p = parse_program(text, "t.uir");
  std::optional<Failure> f = check_engines(p, backend, config);
  return f ? failure_signature(*f, p, backend, config) : "no failure";
}

using Named = std::tuple<Plant, std::string, const char*>;

// Each program's engines failure under its plant, on the plain lowering, has its signature.
void expect_signatures(std::initializer_list<Named> cases) {
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  for (const auto& [plant, text, signature] : cases) {
    set_plant(plant);
    EXPECT_EQ(signature_of(text, *tcc, {}), signature) << text;
  }
}

using WithOpts = std::pair<const char*, const char*>;  // a program and its --opts

// Each program's engines failure under `plant` and its options, on one thread, has `signature`.
void expect_signature_under(Plant plant, std::initializer_list<WithOpts> cases,
                            const std::string& signature) {
  set_plant(plant);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  for (const auto& [text, opts] : cases)
    EXPECT_EQ(signature_of(text, *tcc, fixed(opts, 1)), signature) << text;
}

// Each option the failure shows without goes, one axis at a time, and factors shrink.
TEST_F(Planted, EngineSettingsReduceToWhatTheFailureNeeds) {
  set_plant(Plant::UpcastWrongOffset);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program p = parse_program("%x = buffer 48\n%m = reshape %x shape=[8 6]\n%y = add %m 1.0\n", "t");
  auto fails = [&](const EngineConfig& c) { return check_engines(p, *tcc, c).has_value(); };
  EngineConfig drawn = fixed("upcast=0:4,1:2 tile=1:3 thread=0", 3);
  ASSERT_TRUE(fails(drawn));
  EngineConfig small = reduce_config(p, drawn, fails);
  EXPECT_EQ(small.flags(), "--opts 'upcast=1:2' --threads 1");
}

// A planted bug in the index of an upcast copy is one bug whichever option shows it: an
// upcast, an unroll folded in order or as a tree, or the options --opts auto chose.
TEST_F(Planted, AnUpcastBugIsNamedUpcastUnderEveryOptionThatShowsIt) {
  set_plant(Plant::UpcastWrongOffset);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program rows = parse_program(
      "%x = buffer 64\n%m = reshape %x shape=[16 4]\n%s = reduce %m op=add pop=1\n", "rows");
  Program gemm = parse_program(
      "%a = buffer 1024\n%b = buffer 1024\n%ai = reshape %a shape=[32 32]\n"
      "%ak = permute %ai order=[1 0]\n%ma = reshape %ak shape=[32 32 1]\n"
      "%mb = reshape %b shape=[32 1 32]\n%ea = expand %ma shape=[32 32 32]\n"
      "%eb = expand %mb shape=[32 32 32]\n%p = mul %ea %eb\n%c = reduce %p op=add pop=1\n",
      "gemm");
  for (const auto& [p, config] :
       {std::pair{rows, fixed("unroll=4", 1)}, std::pair{rows, fixed("unroll=4:ordered", 2)},
        std::pair{gemm, EngineConfig{parse_opts_choice("auto", "t"), 1}},
        std::pair{gemm, fixed("upcast=1:4", 1)}}) {
    std::optional<Failure> f = check_engines(p, *tcc, config);
    ASSERT_TRUE(f) << config.flags();
    EXPECT_EQ(failure_signature(*f, p, *tcc, config), "engines-upcast") << config.flags();
  }
}

// A reduce that folds the wrong axes is the reduce's bug even in a program where only an option
// shows it (a whole reduction has no other axes to confuse): computed alone on inputs with one
// more axis, without options, the reduce fails.
TEST_F(Planted, AnOpThatFailsWithoutOptionsIsNamedByTheOp) {
  set_plant(Plant::ReduceTrailingAxes);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program p = parse_program("%x = buffer 100\n%r = reduce %x op=add pop=1\n", "t.uir");
  EXPECT_FALSE(check_engines(p, *tcc, {}));
  for (const char* opts : {"unroll=2:ordered", "block=4"}) {
    EngineConfig config = fixed(opts, 1);
    std::optional<Failure> f = check_engines(p, *tcc, config);
    ASSERT_TRUE(f) << opts;
    EXPECT_EQ(failure_signature(*f, p, *tcc, config), "engines-reduce") << opts;
  }
  // Reproducers campaigns left as engines-upcast and engines-block: computed alone with one
  // more axis these reduces happen to fold the right values, and the probes of many shapes
  // show the reduce wrong without options.
  expect_signature_under(
      Plant::ReduceTrailingAxes,
      {{"%t0 = buffer 96 slot=0\n%t1 = reshape %t0 shape=[2 4 3 4]\n%v3 = reduce %t1 op=max "
        "pop=4\n",
        "unroll=2:ordered"},
       {"%t0 = buffer 150 dtype=i32 slot=1\n%v4 = reduce %t0 op=min pop=1\n", "block=3"}},
      "engines-reduce");
}

// The options a failure needs are those of the op where it shows, computed alone: here a thread
// loop only gives the reduce a kernel of its own, where the block option then applies.
TEST_F(Planted, TheOptionsNamedAreThoseTheOpNeedsAlone) {
  set_plant(Plant::ReduceBlockRestarts);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program p = parse_program(
      "%x = buffer 45 dtype=i32\n%m = reshape %x shape=[15 3]\n%r = reduce %m op=max pop=1\n"
      "%c = reshape %r shape=[3 1]\n%e = expand %c shape=[3 2]\n",
      "t.uir");
  EngineConfig config = fixed("thread=1 block=3", 1);
  std::optional<Failure> f = check_engines(p, *tcc, config);
  ASSERT_TRUE(f);
  EXPECT_FALSE(check_engines(p, *tcc, fixed("block=3", 1)));
  EXPECT_EQ(failure_signature(*f, p, *tcc, config), "engines-block");
}

// A bug in the unrolled tree itself keeps the name unroll: folded in order it does not show.
TEST_F(Planted, ATreeBugIsNamedUnroll) {
  set_plant(Plant::UnrollTreeDropsLast);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  EXPECT_EQ(
      signature_of("%x = buffer 48\n%m = reshape %x shape=[12 4]\n%s = reduce %m op=add pop=1\n",
                   *tcc, fixed("unroll=3 thread=0", 3)),
      "engines-unroll");
}

// A wrong index of the copies, which an unrolled tree shares with an upcast of the reduce's axis,
// is the upcast's even where the program's data shows it only through the tree: a min over
// NaNs, which an in-order fold of the wrong elements happens to get right. It was unroll.
TEST_F(Planted, ACopysIndexShownOnlyByATreeIsTheUpcasts) {
  set_plant(Plant::UpcastWrongOffset);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  const std::string text =
      "%t0 = stack "
      "0.0 -1e-45 -1e-45 0.0 0.0 nan 0.0 -1e-45 0.0 "
      "0.0 0.0 0.0 0.0 0.0 nan 0.0 0.0 0.0 "
      "0.0 0.0 0.0 0.0 0.0 nan 0.0 0.0 0.0 "
      "0.0 0.0 0.0 0.0 0.0 nan 0.0 0.0 0.0 "
      "0.0 0.0 0.0 0.0 0.0 nan 0.0 0.0 0.0 "
      "0.0 0.0 0.0 0.0 0.0 nan 0.0 0.0 0.0 "
      "0.0 0.0 0.0 0.0 0.0 nan 0.0 0.0 0.0 "
      "0.0 0.0 0.0 0.0 0.0 nan 0.0 0.0 0.0 "
      "0.0 0.0 0.0 0.0 0.0 nan 0.0 0.0 0.0 "
      "\n%t1 = reshape %t0 shape=[9 9]\n%v3 = reduce %t1 op=min pop=2\n";
  EXPECT_FALSE(check_engines(parse_program(text, "t.uir"), *tcc, fixed("unroll=3:ordered", 1)));
  EXPECT_EQ(signature_of(text, *tcc, fixed("unroll=3", 1)), "engines-upcast");
}

// A failure that goes away once the renderer writes max and min through their functions is the
// renderer's decision for them, wherever they sat: a user's max, a reduce's fold, an index.
TEST_F(Planted, ARendererDecisionIsNamedByTheDecision) {
  set_plant(Plant::MinmaxReversed);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  for (const auto& [text, opts] : {
           std::pair{"%t = expand nan shape=[2]\n%r = reduce %t op=add pop=1\n%v = max %r 3.0\n",
                     "none"},
           std::pair{"%t = expand nan shape=[4]\n%m = reshape %t shape=[2 2]\n"
                     "%r = reduce %m op=add pop=1\n%v = min %r 0.0\n",
                     "none"},
           // the thread option only makes the operands plain loads, which max writes inline
           std::pair{"%x = buffer 6\n%m = reshape %x shape=[2 3]\n%s = stack 0.0 nan 0.0\n"
                     "%v = max %m %s\n",
                     "thread=1"},
       }) {
    Program p = parse_program(text, "t.uir");
    EngineConfig config{parse_opts_choice(opts, "test"), 1};
    std::optional<Failure> f = check_engines(p, *tcc, config);
    ASSERT_TRUE(f) << text;
    EXPECT_EQ(failure_signature(*f, p, *tcc, config), "engines-render_minmax") << text;
  }
}

// A helper that is wrong itself is no decision of the renderer's, even where writing every max
// through it makes the failure go away: max(max(a, b), a) with a helper that keeps its first
// operand on a tie is right once both maxes take it. It was "engines-render_minmax".
TEST_F(Planted, AWrongHelperThatCancelsItselfIsNoRenderDecision) {
  expect_signatures({
      Named{Plant::MaxHelperTies,
            "%t0 = buffer 32 dtype=f32 slot=0\n%t1 = reshape %t0 shape=[2 1 4 4]\n"
            "%t2 = reduce %t1 op=mul pop=3\n%t3 = max %t1 %t2\n%v3 = max %t3 %t1\n",
            "engines-max"},
  });
}

// A wrong permute whose operand has size-1 axes reads the right elements when computed alone
// (a size-1 axis's index is always 0); computed alone on inputs whose size-1 axes are longer,
// it fails, so a flip's composite, which permutes such values, names the permute.
TEST_F(Planted, AMistakeASizeOneAxisHidesIsStillNamedByItsOp) {
  set_plant(Plant::PermuteInverse);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program p = parse_program("%x = buffer 50\n%f = flip %x axes=[0]\n", "t.uir");
  std::optional<Failure> f = check_program(p, *tcc, true);
  ASSERT_TRUE(f);
  // The composite's wrong permute reads past its buffer, which the memory oracle reports.
  EXPECT_EQ(f->oracle, "memory");
  EXPECT_EQ(f->detail.rfind("in the compiled composites: ", 0), 0u) << f->detail;
  EXPECT_EQ(failure_signature(*f, p, *tcc), "engines-permute");
}

// The default data repeats within [-11, 11]: a max over the wrong elements still finds 11, and a
// product of many wraps to 0 either way. The op is still named, as fresh inputs of varied
// values show the mistake computed alone.
TEST_F(Planted, AMistakeTheDefaultDataHidesIsStillNamedByItsOp) {
  set_plant(Plant::ReduceTrailingAxes);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  const char* programs[] = {
      "%x = buffer 32 dtype=i32\n%r = reduce %x op=max pop=1\n",
      "%x = buffer 36 dtype=i32\n%r = reduce %x op=mul pop=1\n",
      "%x = stack false false true true\n%r = reduce %x op=max pop=1\n",
      "%x = buffer 75 dtype=bool\n%y = reshape %x shape=[5 1 3 5 1]\n%r = reduce %y op=min pop=3\n",
  };
  for (const char* text : programs) {
    Program p = parse_program(text, "t.uir");
    for (const char* opts :
         {"unroll=2:ordered", "unroll=3:ordered", "unroll=4:ordered", "block=2"}) {
      EngineConfig config = fixed(opts, 1);
      std::optional<Failure> f = check_engines(p, *tcc, config);
      if (!f) continue;
      EXPECT_EQ(failure_signature(*f, p, *tcc, config), "engines-reduce") << opts << "\n" << text;
    }
  }
}

// Copies of a reduce that share one accumulator are the reduce's bug, whether the copies come
// from an upcast or from a cmpeq or a flip's composite reading the reduce at two indices (no
// node fails alone there: the node whose value, as literals, makes the failure go away is named).
TEST_F(Planted, ABugThatNeedsOpsTogetherIsNamedByTheOpItNeeds) {
  set_plant(Plant::UnrollSharedAccumulator);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  for (const auto& [text, opts] : {
           std::pair{"%x = buffer 81\n%m = reshape %x shape=[9 9]\n%r = reduce %m op=max pop=1\n"
                     "%f = flip %r axes=[0]\n%v = cmpeq %r %f\n",
                     "none"},
           std::pair{"%x = stack true true false false true false true true\n"
                     "%m = reshape %x shape=[2 2 2]\n%r = reduce %m op=min pop=1\n"
                     "%v = flip %r axes=[1]\n",
                     "none"},
           std::pair{"%x = stack false true\n%m = stack %x %x\n%v = reduce %m op=max pop=1\n",
                     "upcast=0:2"},
           // no value fails as the only output: --opts auto decides on both outputs at once
           std::pair{"%x = buffer 25 dtype=i32\n%m = reshape %x shape=[5 5]\n"
                     "%r = reduce %m op=max pop=1\n%f = flip %r axes=[0]\n"
                     "%p = reduce %f op=mul pop=1\n%v = idiv %r %f\n",
                     "auto"},
           // the upcast does not fit the reduce computed alone, only the stack that reads it
           std::pair{"%x = buffer 16\n%m = reshape %x shape=[2 4 2]\n%r = reduce %m op=max pop=1\n"
                     "%v = stack %r\n",
                     "upcast=1:4"},
       }) {
    Program p = parse_program(text, "t.uir");
    EngineConfig config = fixed(opts, 1);
    std::optional<Failure> f = check_program(p, *tcc, true, config);
    ASSERT_TRUE(f) << text;
    EXPECT_EQ(failure_signature(*f, p, *tcc, config), "engines-reduce") << text;
  }
}

// An index that strays is named by the op whose rule sends it astray, even where that op computed
// alone on a reshaped input reads in range (a size-1 axis's index is always 0, a reshape keeping
// the rank merely reads the same flat element), and where giving the op before it as literals
// hides the stray read (a stack of literals answers any index).
TEST_F(Planted, AStrayIndexIsNamedByTheOpThatSendsIt) {
  expect_signatures({
      Named{Plant::PadUnguardedLoad, "%x = buffer 1\n%c = cmpne %x %x\n%v = pad %c pads=[0 1]\n",
            "engines-pad"},
      Named{Plant::ReshapeSameRankNoop,
            "%x = buffer 2\n%m = reshape %x shape=[2 1]\n%f = flip %m axes=[1]\n"
            "%v = reshape %f shape=[1 2]\n",
            "engines-reshape"},
  });
}

// A node computed alone keeps the buffers it reads directly; its fresh inputs take other
// slots, or the probe is a program whose two buffers of one slot disagree, and "fails".
TEST_F(Planted, AProbeNeverSharesASlotWithABufferItKeeps) {
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  set_plant(Plant::ShrinkOffsetSign);
  EXPECT_EQ(signature_of("%c = expand false shape=[24]\n%x = buffer 24 slot=0\n"
                         "%y = buffer 2 dtype=i32 slot=6\n%w = where %c %x %x\n"
                         "%s = shrink %y 1 shape=[1]\n",
                         *tcc, {}),
            "engines-shrink");
}

// An offset computed from a buffer's element holds one value on the default data, perhaps
// one that hides the mistake; alone, the shrink is also tried at each end of its bounds.
TEST_F(Planted, AComputedOffsetIsTriedAtTheEndsOfItsBounds) {
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  set_plant(Plant::ShrinkOffsetSign);
  // a minimized campaign reproducer: only the scrambled data %big brings gives the offset 1
  EXPECT_EQ(signature_of("%t0 = buffer 2 dtype=bool slot=525\n%t1 = reshape %t0 shape=[2 1]\n"
                         "%t2 = buffer 3 dtype=i32 slot=1000\n%t3 = index %t2 2\n"
                         "%t4 = mod %t3 2\n%v = shrink %t1 %t4 0 shape=[1 1]\n"
                         "%big = buffer 24 dtype=i32 slot=502\n",
                         *tcc, {}),
            "engines-shrink");
}

// A ub failure is named by the C operator whose decision broke, whichever kernel and data
// showed it.
TEST(Signature, AnOverflowIsNamedByItsOperatorOnAnyData) {
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program p = parse_program("%x = buffer 30 dtype=i32\n%y = idiv %x 2\n", "t.uir");
  for (const char* detail :
       {"kernel0: idiv of -7 by 2 was written as C's truncating /, which does not floor it",
        "with scrambled inputs: kernel6: mod of -7 by 2 was written as C's truncating %, which "
        "does not floor it",
        "with scrambled inputs: kernel1: sub of -2147483648 and 1 overflows i32, but was "
        "written as plain C"}) {
    std::string want =
        std::string(detail).find("sub of") == std::string::npos ? "ub-division" : "ub-sub";
    EXPECT_EQ(failure_signature({"ub", detail, print_program(p)}, p, *tcc), want) << detail;
  }
}

// A rewrite whose side condition was dropped is named by its rule, whichever op it rewrote:
// the kernel's values differ only while the rule is in use.
TEST_F(Planted, AWrongRewriteIsNamedByItsRule) {
  expect_signatures({
      Named{Plant::DivmodSplitUnchecked,
            "%a = stack 0 2147483647 0 0 0 0 0 0\n%b = expand -16384 shape=[8]\n"
            "%s = add %a %b\n%c = expand 46341 shape=[8]\n%q = idiv %s %c\n",
            "symbolic-divmod_split"},
      Named{Plant::DivDivUnchecked,
            "%x = stack -5 7 -2147483648 2147483647\n%a = idiv %x 65536\n%b = idiv %a 65536\n",
            "symbolic-div_div"},
  });
}

// Two rules wrong through the helper they share: with the linear form that both combine_terms
// and divmod_split build on collecting a - b as a + b, setting either aside leaves the other
// wrong, and divmod_split's wrong steps only come once combine_terms is set aside. The rules z3
// refutes are set aside together, round by round, and the first refuted names the failure:
// these were `engines-flip`, `engines-pad` and `engines-sub`. (Programs from campaigns.)
TEST_F(Planted, RulesWrongThroughAHelperTheyShareAreNamedByTheFirst) {
  expect_signatures({
      Named{Plant::LinearSubAsAdd,
            "%t0 = buffer 9 dtype=i32 slot=0\n%t1 = reshape %t0 shape=[3 3]\n"
            "%t2 = reshape %t1 shape=[9]\n%v8 = flip %t2 axes=[0]\n",
            "symbolic-combine_terms"},
      Named{Plant::LinearSubAsAdd,
            "%t0 = expand 0 shape=[9 9]\n%t1 = pad %t0 pads=[1 0 0 1] value=-1\n"
            "%t2 = reshape %t1 shape=[100]\n%v7 = flip %t2 axes=[0]\n",
            "symbolic-combine_terms"},
      Named{Plant::LinearSubAsAdd,
            "%t0 = buffer 4 dtype=i32 slot=0\n%t1 = sub %t0 0\n%t2 = reshape %t1 shape=[2 2]\n"
            "%t3 = reshape %t2 shape=[2 2]\n%v9 = flip %t3 axes=[1]\n",
            "symbolic-combine_terms"},
  });
}

// A rule whose setting aside fixes a failure without any step of it refuted (a distribute that
// shaped the sum) only fed the one z3 refutes: with the linear form written t - rest for a term
// of coefficient -1, setting distribute aside fixed this flip and setting combine_terms aside did
// not (other rules write the same form), and the failure was `engines-flip`.
TEST_F(Planted, ARuleThatOnlyShapedARefutedOnesInputIsNoCause) {
  expect_signatures({
      Named{Plant::LinearSubReversed,
            "%t0 = buffer 81 dtype=f32 slot=0\n%t1 = reshape %t0 shape=[9 9]\n"
            "%t2 = reshape %t1 shape=[3 9 3]\n%v11 = flip %t2 axes=[2]\n",
            "symbolic-combine_terms"},
  });
}

// One wrong helper, two rules: with the linear form written t - rest for a term of coefficient
// -1, a program whose only wrong step is divmod_split's was "symbolic-divmod_split" beside the
// "symbolic-combine_terms" of the rest, and one whose failure stayed with every rule that had
// fired set aside (divmod_split fired only then) was "engines-sub". (Programs from campaigns.)
TEST_F(Planted, RulesWrongThroughAHelperTheyShareAreOneSignature) {
  expect_signatures({
      Named{Plant::LinearSubReversed,
            "%t0 = stack -33554437 0 -33554437 0 0\n%t1 = mul %t0 -4\n"
            "%t2 = stack 134217726 0 0 0 0\n%t3 = mul %t2 8\n%t4 = add %t1 %t3\n"
            "%v10 = idiv %t4 4\n",
            "symbolic-combine_terms"},
      Named{Plant::LinearSubReversed,
            "%t0 = stack 0 3 0 0 3 3 0\n%t1 = stack -56 0 0 0 0 0 0\n%t2 = mul %t1 -1\n"
            "%t3 = add %t0 %t2\n%t4 = add %t3 -2147483648\n%t5 = mod %t4 12\n"
            "%t6 = sub %t1 %t1\n%v11 = add %t5 %t6\n",
            "symbolic-combine_terms"},
  });
}

// A reduce folded in the wrong order gives wrong values in one program and wasted loops in
// another: one rule, one signature, not an engines one and a cost one.
TEST_F(Planted, WrongValuesAndWastedLoopsOfOneRuleAreOneSignature) {
  set_plant(Plant::ReduceColumnMajor);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program loops = parse_program(
      "%t = expand 0.0 shape=[8 2]\n%r = reduce %t op=add pop=1\n%m = reshape %r shape=[2 1]\n"
      "%e = expand %m shape=[2 9]\n%v = reduce %e op=min pop=2\n",
      "loops.uir");
  Program values = parse_program(
      "%t = stack 1e-40 -2.25 -1.5 -1e+08\n%m = reshape %t shape=[2 2]\n%v = reduce %m op=mul "
      "pop=2\n",
      "values.uir");
  std::optional<Failure> cost = check_engines(loops, *tcc, {});
  std::optional<Failure> wrong = check_engines(values, *tcc, {});
  ASSERT_TRUE(cost && wrong);
  EXPECT_EQ(cost->oracle, "cost");
  EXPECT_EQ(wrong->oracle, "engines");
  EXPECT_EQ(failure_signature(*cost, loops, *tcc), "engines-reduce");
  EXPECT_EQ(failure_signature(*wrong, values, *tcc), "engines-reduce");
  // two reduces recomputed in the loops of a third, one of them read through the other: not
  // the sub where their paths join (it was engines-sub)
  EXPECT_EQ(signature_of("%t0 = expand 0 shape=[4 2]\n%t1 = reduce %t0 op=add pop=1\n"
                         "%t2 = reshape %t1 shape=[2 1]\n%t3 = expand %t2 shape=[2 5]\n"
                         "%t4 = permute %t3 order=[1 0]\n%t5 = reduce %t4 op=add pop=1\n"
                         "%t6 = reshape %t5 shape=[2 1]\n%t7 = sub %t3 %t6\n"
                         "%v6 = reduce %t7 op=mul pop=2\n",
                         *tcc, {}),
            "engines-reduce");
  // two reduces each recomputed in the loop that reads them: not the cmplt where they join
  EXPECT_EQ(signature_of("%t0 = expand 0 shape=[9 2]\n%t1 = reduce %t0 op=max pop=1\n"
                         "%t2 = reshape %t1 shape=[2 1]\n%t4 = expand 0 shape=[8 2]\n"
                         "%t5 = reduce %t4 op=max pop=1\n%t6 = reshape %t5 shape=[2 1]\n"
                         "%t7 = expand %t6 shape=[2 9]\n%t8 = cmplt %t2 %t7\n"
                         "%v6 = reduce %t8 op=max pop=2\n",
                         *tcc, {}),
            "engines-reduce");
  // a program that wastes loops only under a thread option, whose reduce's value wastes them
  // without it: the reduce's, not the option's
  const char* threaded =
      "%t0 = expand 0.0 shape=[19 2]\n%t1 = reduce %t0 op=max pop=1\n"
      "%t2 = reshape %t1 shape=[2 1]\n%t3 = expand %t2 shape=[2 19]\n"
      "%t4 = reduce %t3 op=max pop=2\n%v5 = sub %t3 %t4\n";
  EXPECT_EQ(signature_of(threaded, *tcc, {}), "no failure");
  EXPECT_EQ(signature_of(threaded, *tcc, fixed("thread=1", 1)), "engines-reduce");
  // the same join, found under a thread option: not the sub (it was engines-sub)
  EXPECT_EQ(signature_of("%t0 = expand 0.0 shape=[4 2]\n%t1 = reduce %t0 op=max pop=1\n"
                         "%t2 = reshape %t1 shape=[2 1]\n%t3 = expand %t2 shape=[2 5]\n"
                         "%t4 = permute %t3 order=[1 0]\n%t5 = reduce %t4 op=max pop=1\n"
                         "%t6 = reshape %t5 shape=[2 1]\n%t7 = sub %t3 %t6\n"
                         "%t8 = reduce %t7 op=min pop=2\n%v9 = max %t7 %t8\n",
                         *tcc, fixed("thread=1", 1)),
            "engines-reduce");
}

// A thread range that stops short leaves an element unwritten, which no data can hide (its
// buffer does not start as 0): the thread option is named whichever option also ran.
TEST_F(Planted, AnElementLeftUnwrittenIsAFailureWhateverItsValue) {
  set_plant(Plant::ThreadRangeGap);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  for (const char* text : {"%v = stack false false\n", "%v = stack 0 0\n", "%v = stack 0.0 0.0\n"})
    EXPECT_EQ(signature_of(text, *tcc, fixed("thread=0", 2)), "engines-thread+threads") << text;
  EXPECT_EQ(signature_of("%v = stack false false true false true true true false true false true "
                         "false true false true false false false true true true false false "
                         "false\n",
                         *tcc, fixed("upcast=0:2 thread=0", 2)),
            "engines-thread+threads");
  // a bool stage whose unwritten byte a later kernel casts to i32: the cast's value leaves
  // [0, 1], but the byte was never written, which no interval rule causes
  EXPECT_EQ(signature_of("%x0 = buffer 32 dtype=i32\n%x = reshape %x0 shape=[8 4]\n"
                         "%m = cmplt %x 3\n%rb = reduce %m op=max\n%st = stage %rb\n"
                         "%fl = flip %st axes=[0]\n%rr = reshape %fl shape=[1 4]\n"
                         "%e = expand %rr shape=[8 4]\n%c = cast %e dtype=i32\n"
                         "%y = add %c %x\n%s = reduce %y op=add\n",
                         *tcc, fixed("thread=0", 3)),
            "engines-thread+threads");
}

// An offset with the wrong sign leaves the buffer even through a reshape (whose outermost axis
// does not wrap an index back into range), so the shrink computed alone fails whatever its data;
// a shrink of a stack or of a pad, which a small program reads as selects, is named shrink too.
TEST_F(Planted, AnIndexOutOfRangeIsCaughtThroughAReshape) {
  set_plant(Plant::ShrinkOffsetSign);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program alone = parse_program(
      "%x = buffer 4 dtype=bool\n%m = reshape %x shape=[4]\n%v = shrink %m 2 shape=[2]\n", "t.uir");
  std::optional<Failure> f = check_engines(alone, *tcc, {});
  ASSERT_TRUE(f);
  EXPECT_EQ(f->oracle, "memory");
  for (const char* text : {"%x = stack true true true false\n%v = shrink %x 2 shape=[2]\n",
                           "%x = expand 0 shape=[9 1]\n%p = pad %x pads=[1 0 0 1] value=1\n"
                           "%v = shrink %p 5 0 shape=[1 1]\n"})
    EXPECT_EQ(signature_of(text, *tcc, {}), "engines-shrink") << text;
}

// A setting the failure does not need is not used to localize it, and an op read at two
// indices is read along any axis that has two: each program is named by the op whose rule is
// wrong.
TEST_F(Planted, ASettingTheFailureDoesNotNeedHidesNothing) {
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  set_plant(Plant::ReshapeSameRankNoop);
  // table=4 would make the probes' literal stacks tables, read by the flat index the no-op keeps
  EXPECT_EQ(signature_of("%x = buffer 2\n%m = reshape %x shape=[2 1]\n%e = expand %m shape=[2 2]\n"
                         "%v = reshape %e shape=[1 4]\n",
                         *tcc, fixed("table=4", 1)),
            "engines-reshape");
  set_plant(Plant::UnrollSharedAccumulator);
  // the reduce's output axis 0 has size 1: it is read twice along axis 1
  EXPECT_EQ(signature_of("%x = buffer 45 dtype=bool\n%m = reshape %x shape=[3 1 3 5]\n"
                         "%v = reduce %m op=max pop=1\n",
                         *tcc, fixed("upcast=1:3", 1)),
            "engines-reduce");
}

// The node a fused failure needs is where its wrong values' paths join, not always the op whose
// rule is wrong: a flip carries a same-rank reshape's stray index to another table element, and
// the failure goes when the flip is given as literals. The reshape fails its own probes on a
// computed value, the flip does not. (From a campaign; it was `engines-flip`.)
TEST_F(Planted, AFusedFailureIsTheOpThatFailsItsOwnProbes) {
  expect_signature_under(Plant::ReshapeSameRankNoop,
                         {{"%t0 = expand -3.0 shape=[4]\n%t1 = expand 0.0 shape=[4]\n"
                           "%t2 = stack %t0 %t1\n%t3 = flip %t2 axes=[0]\n%t4 = cmplt %t3 0.0\n"
                           "%t5 = where %t4 %t3 %t2\n%v = reshape %t5 shape=[1 8]\n",
                           "table=7"}},
                         "engines-reshape");
}

// Each movement op's planted bug fails that op's own probes and no other op's: a wrong reshape
// breaks the reshapes that compute a probe's operand, which is then no probe of the op it
// feeds, and the composites, flip and pad rebuilt from reshapes, are left out.
TEST_F(Planted, EachMovementBugFailsItsOwnOpsProbesOnly) {
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  const std::vector<std::pair<Plant, Op>> bugs = {{Plant::None, Op::Const},
                                                  {Plant::ReshapeColumnMajor, Op::Reshape},
                                                  {Plant::ReshapeSameRankNoop, Op::Reshape},
                                                  {Plant::PermuteInverse, Op::Permute},
                                                  {Plant::PadSwapSides, Op::Pad},
                                                  {Plant::PadFillNonzero, Op::Pad},
                                                  {Plant::PadMaskOffByOne, Op::Pad},
                                                  {Plant::ShrinkOffsetSign, Op::Shrink},
                                                  {Plant::ExpandReadsIndex, Op::Expand},
                                                  {Plant::FlipOffByOne, Op::Flip}};
  for (const auto& [plant, wrong] : bugs) {
    set_plant(plant);
    for (Op op : {Op::Reshape, Op::Permute, Op::Pad, Op::Shrink, Op::Expand, Op::Flip})
      EXPECT_EQ(fails_own_probes(op, *tcc), op == wrong) << plant_name(plant) << " " << op_name(op);
  }
}

// Two nodes that each show the bug (two broadcast literals in one table): neither is needed,
// and the first that fails without the other names it, as a program with only one would be.
TEST_F(Planted, OfTwoCausesEachEnoughTheFirstNamesTheBug) {
  set_plant(Plant::TableBroadcastFirstAxis);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  for (const char* text :
       {"%a = expand 0 shape=[1 2]\n%v = stack %a\n",
        "%a = expand 0 shape=[1 2]\n%b = expand 22 shape=[1 2]\n%v = stack %a %b\n",
        "%a = expand 1 shape=[2 2]\n%b = expand 2 shape=[2 2]\n%v = stack %a %b %a\n"})
    EXPECT_EQ(signature_of(text, *tcc, fixed("table=2", 1)), "engines-expand") << text;
}

// An empty value computes nothing, but its subgraph's kernels still run: a node computed alone
// gets an empty literal for it, or the failure of a table staged before it would be its own.
TEST_F(Planted, AnEmptyOperandBringsNoKernelsAlong) {
  expect_signature_under(Plant::TableBroadcastFirstAxis,
                         {{"%a = expand 0 shape=[1 1 1 2]\n%s = stack %a %a %a\n%st = stage %s\n"
                           "%r = reduce %st op=mul pop=3\n%e = shrink %r 0 0 shape=[0 1]\n"
                           "%v = pad %e pads=[1 1 1 1]\n",
                           "table=5"},
                          {"%a = expand false shape=[1 1 2]\n%s = stack %a %a %a\n%st = stage %s\n"
                           "%e = expand %st shape=[3 0 3 2]\n%v = stage %e\n",
                           "table=6"}},
                         "engines-expand");
}

// A reduce that folds its axes in the wrong order gives the right min on this data (NaNs and
// ties decide it) until an unroll reorders the fold: the reduce's rule is wrong all the same,
// as f32 sums that round by their order show without options. (From a campaign; it was
// `engines-unroll`.)
TEST_F(Planted, AFoldOrderOnlyAnUnrollShowsIsTheReduces) {
  std::string values;
  for (int k = 0; k < 100; ++k)
    values += k < 20 || k % 10 == 9 ? " 2147483648.0" : k >= 90 ? " nan" : " 0.0";
  std::string text =
      "%t0 = stack" + values + "\n%t1 = reshape %t0 shape=[10 10]\n%v6 = reduce %t1 op=min pop=2\n";
  expect_signature_under(Plant::ReduceColumnMajor, {{text.c_str(), "unroll=2"}}, "engines-reduce");
}

// A reduce whose copies share an accumulator shows it only on some data (the scrambled inputs,
// chosen by a buffer's slot and size): the reshape that is the buffer's only reader is not
// needed, since a fresh input in the buffer's slot holds the same data.
TEST_F(Planted, TheOnlyReaderOfABufferIsNotNeededForItsData) {
  expect_signature_under(Plant::UnrollSharedAccumulator,
                         {{"%x = buffer 80 dtype=bool\n%m = reshape %x shape=[2 1 4 2 5]\n"
                           "%r = reduce %m op=min pop=3\n%v = pad %r pads=[0 0 1 0]\n",
                           "upcast=1:3"},
                          {"%x = buffer 225 dtype=bool\n%m = reshape %x shape=[3 1 5 3 5]\n"
                           "%r = reduce %m op=min pop=2\n%v = reduce %r op=min pop=1\n",
                           "unroll=5:ordered"}},
                         "engines-reduce");
}

// A failure only the program's own data shows. The scrambled data (the default data gives every
// column of 23 the same max): the permute before the reduce is not needed, though its value as
// the default data's literals makes the failure go away; as the scrambled data's it does not.
TEST_F(Planted, AFailureOnlyItsOwnDataShowsIsNamedByTheOp) {
  expect_signature_under(
      Plant::UnrollSharedAccumulator,
      {{"%x = buffer 69 dtype=i32\n%m = reshape %x shape=[3 23]\n"
        "%p = permute %m order=[1 0]\n%r = reduce %p op=max pop=1\n"
        "%c = reshape %r shape=[3 1]\n%d = sub %m %c\n"
        "%v = shrink %d 0 0 shape=[2 1]\n",
        "upcast=0:2"},
       {"%x = buffer 69 dtype=f32\n%m = reshape %x shape=[3 23]\n"
        "%p = permute %m order=[1 0]\n%r = reduce %p op=max pop=1\n"
        "%c = reshape %r shape=[3 1]\n%e = expand %c shape=[3 23]\n"
        "%v = stack %m %e\n",
        "upcast=1:3"},
       // no probe data tells a bool min over 27 elements apart: only its own
       // values read at two indices show it fails without options
       {"%x = buffer 24 dtype=bool\n%m = reshape %x shape=[3 2 4]\n"
        "%s = stack %m %m %m\n%t = stack %s %s %s\n%v = reduce %t op=min pop=3\n",
        "upcast=1:2"}},
      "engines-reduce");
}

// A reduce read back through reshapes whose indices were left unsimplified is redone in a loop
// it does not depend on. Without options the stack below gets the reduce a kernel of its own;
// upcast, the stack is no loop and the reduce is computed in the stack's kernel, where it is
// redone. The value under the stack fails without options too, so the reduce is the name. A
// thread loop puts its axis outermost, where the reduce it alone depends on is computed in the
// kernel; without options the same value permuted to put that axis first shows it. And a
// permute between two such reduces is not needed once the first one's value is loaded.
TEST_F(Planted, ACostFailureIsTheReduceRedoneWhicheverValueShowsIt) {
  expect_signature_under(Plant::NoSimplifyAtReshape,
                         {{"%t0 = expand 0.0 shape=[2 2]\n%t1 = reduce %t0 op=add pop=1\n"
                           "%t2 = reshape %t1 shape=[2 1]\n%t3 = expand %t2 shape=[2 4]\n"
                           "%t5 = reshape %t3 shape=[2 4]\n%v5 = stack %t5 %t5\n",
                           "upcast=0:2"},
                          {"%t0 = expand 0 shape=[1 2 2]\n%t1 = reduce %t0 op=add pop=2\n"
                           "%t2 = reshape %t1 shape=[1 1 2]\n%t3 = expand %t2 shape=[4 4 2]\n"
                           "%v6 = reshape %t3 shape=[16 2]\n",
                           "thread=1"},
                          {"%t0 = expand 0.0 shape=[2 3]\n%t1 = reduce %t0 op=max pop=1\n"
                           "%t2 = reshape %t1 shape=[1 3]\n%t3 = permute %t2 order=[1 0]\n"
                           "%t4 = reduce %t3 op=max pop=1\n%t7 = sub %t2 %t4\n"
                           "%t8 = reshape %t7 shape=[3]\n%v8 = stack %t8 %t8\n",
                           "none"}},
                         "engines-reduce");
}

// A reshape's outermost axis of size 1 is its flat index divided, not a 0: a pad's stray read
// past a [1 n] value stays out of range, so the pad alone fails, and the pad is the name of
// every program that shows it.
TEST_F(Planted, AStrayIndexThroughASizeOneAxisIsCaught) {
  set_plant(Plant::PadUnguardedLoad);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program alone = parse_program(
      "%x = buffer 1 dtype=f32\n%m = reshape %x shape=[1 1]\n%v = pad %m pads=[0 1 0 0]\n",
      "t.uir");
  std::optional<Failure> f = check_engines(alone, *tcc, {});
  ASSERT_TRUE(f);
  EXPECT_EQ(f->oracle, "memory");
  for (const char* text :
       {"%x = expand 0 shape=[1 1]\n%r = reduce %x op=min pop=0\n%v = pad %r pads=[1 0 0 0]\n",
        "%x = buffer 5 dtype=f32\n%m = reshape %x shape=[5 1]\n%s = shrink %m 4 0 shape=[1 1]\n"
        "%v = pad %s pads=[0 1 0 0] value=71.25\n"})
    EXPECT_EQ(signature_of(text, *tcc, {}), "engines-pad") << text;
}

// A failure of an external engine is named by the op that fails when the engine computes it
// alone, not by the ops of the output where it showed.
TEST(TargetSignature, LocalizesThroughTheTarget) {
  expect_target_signatures({
      ThroughPlanted{"stack_order_reversed",
                     "%s = stack 1 2 3\n%c = cast %s dtype=f32\n%d = add %c 1.5\n", "target-stack"},
      // a reshape keeping the rank read as a no-op: alone on a reshaped buffer it reads the
      // right flat elements, on varied literals in nested stacks it does not
      ThroughPlanted{"reshape_same_rank_noop",
                     "%x = buffer 1 dtype=i32\n%s = stack %x %x %x\n%v = reshape %s shape=[1 3]\n",
                     "target-reshape"},
      // a truncating idiv and a truncating mod are one way of dividing
      ThroughPlanted{"floordiv_truncates", "%x = stack -5 3\n%y = idiv %x 2\n", "target-division"},
      ThroughPlanted{"floordiv_truncates", "%x = stack -5 3\n%y = mod %x 7\n", "target-division"},
      // no node fails alone: the engine's fused index arithmetic divides a negative
      // number, and its division fails alone on such numbers
      ThroughPlanted{
          "floordiv_truncates",
          "%x = buffer 4 dtype=i32\n%m = reshape %x shape=[2 2]\n"
          "%t = permute %m order=[1 0]\n%f = reshape %t shape=[4]\n%v = flip %f axes=[0]\n",
          "target-division"},
      // an == decided by touching intervals, and the != that negates it, are one test
      ThroughPlanted{"equal_bounds_touching", "%a = stack 0 1\n%c = cmpeq %a 1\n",
                     "target-equality"},
      ThroughPlanted{"equal_bounds_touching", "%a = stack 0 1\n%c = cmpne %a 1\n",
                     "target-equality"},
      // a max or min wrong only on a NaN or a -0, which fresh and varied inputs never hold:
      // found alone on its operands' own values; in a reduce, by its fold's steps
      ThroughPlanted{"minmax_reversed",
                     "%x = stack 0.0 nan 1.5\n%y = expand 0.0 shape=[3]\n%s = stage %x\n"
                     "%m = max %s %y\n",
                     "target-minmax"},
      ThroughPlanted{"minmax_reversed",
                     "%x = buffer 12\n%m = reshape %x shape=[6 2]\n%y = expand -0.0 shape=[6 2]\n"
                     "%z = stage %y\n%n = min %m %z\n%r = mul %n 2.0\n",
                     "target-minmax"},
      ThroughPlanted{"minmax_reversed",
                     "%x = stack 0.0 0.0 1.0 -1.0 nan nan\n%m = reshape %x shape=[3 2]\n"
                     "%s = stage %m\n%r = reduce %s op=max\n",
                     "target-minmax"},
      // a wrong interval of mul, which a flip's index and a sub's overflow decision trust:
      // the flip fails alone only on literals, whose select its index decides (in memory
      // it reads right), the sub only on values the engine knows; both are the interval's
      ThroughPlanted{"mul_interval_two_corners", "%t0 = stack 7 0\n%v6 = flip %t0 axes=[0]\n",
                     "target-interval_mul"},
      ThroughPlanted{"mul_interval_two_corners", "%t0 = stack 3 0\n%v = sub -2147483648 %t0\n",
                     "target-interval_mul"},
      // an assert that fails only in the target is a value that differs
      ThroughPlanted{"pad_swap_sides",
                     "%x = stack 1.0 2.0 3.0\n%p = pad %x pads=[1 0]\n%w = stack 0.0 1.0 2.0 3.0\n"
                     "%ok = assert %p %w\n",
                     "target-pad"},
      ThroughPlanted{"pad_swap_sides",
                     "%x = buffer 6\n%m = reshape %x shape=[2 3]\n%p = pad %m pads=[0 0 1 2]\n"
                     "%t = permute %p order=[1 0]\n%y = mul %t 2.0\n",
                     "target-pad"},
      // an engine that prints an f32 with six digits gets every op's value wrong; it
      // cannot echo the values as literals either (each op was named: sqrt, recip, ...)
      ThroughPlanted{"print_f32_short", "%x = stack 2.0 3.0\n%s = sqrt %x\n", "target-const"},
      ThroughPlanted{"print_f32_short", "%x = stack 3.0 7.0\n%r = recip %x\n", "target-const"},
  });
}

// A failure at one output of several is looked for under that output: the right outputs cost
// the engine one run each, not a run for each way each of their nodes is tried alone.
TEST(TargetSignature, OnlyTheFailingOutputsAreSearched) {
  std::string counter = ::testing::TempDir() + "/engine-runs";
  Target target("sh -c 'echo >> " + counter + " && exec " + std::string(UOPC_BINARY_PATH) +
                    " run --backend tcc --plant div_div_unchecked \"$0\"'",
                false, 10);
  const std::string failing =
      "%t0 = stack -2147483648 0\n%t1 = idiv %t0 3\n%v = idiv %t1 1073741824\n";
  auto runs_to_name = [&](const std::string& text) {
    std::filesystem::remove(counter);
    EXPECT_EQ(signature_through(target, text), "target-division") << text;
    std::ifstream in(counter);
    return std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
  };
  runs_to_name(failing);  // the engine's probes, asked once
  std::string right;
  for (const char* op : {"add", "mul", "max"})
    right += "%" + std::string(op) + " = " + op + " %a %b\n";
  auto alone = runs_to_name(failing);
  auto beside = runs_to_name("%a = stack 1 2 3\n%b = stack 4 -5 6\n" + right + failing);
  EXPECT_LE(beside, alone + 4) << alone;
}

// An engine that hands its kernels the wrong data (here every buffer of slot 0 reads slot 7's)
// fails at every node that reads them, each alone, and each was named by its op; the input
// read by no op fails too, and names the failure whichever op read it.
TEST(TargetSignature, AnEngineThatReadsItsInputsWrongIsTargetBuffer) {
  Target target("sh -c 'sed s/slot=0/slot=7/ \"$0\" > \"$0.moved.uir\" && exec " +
                    std::string(UOPC_BINARY_PATH) + " run --backend tcc \"$0.moved.uir\"'",
                false, 10);
  for (const char* text : {
           "%x = buffer 6\n%y = neg %x\n",
           "%x = buffer 6\n%m = reshape %x shape=[2 3]\n%t = permute %m order=[1 0]\n",
           "%x = buffer 6 dtype=i32\n%c = cast %x dtype=f32\n%d = mul %c 2.0\n",
       })
    EXPECT_EQ(signature_through(target, text), "target-buffer") << text;
}

// A kernel whose input parameters are numbered one below their buffers reads its own output
// for its first input: every op that reads memory fails alone (a value, a byte no kernel
// wrote, C that redeclares a parameter), in a program that reads a buffer, a staged value or a
// value options give a kernel of its own, and each was named by its op (22 signatures in 30 s).
// A copy of an input buffer in a kernel of its own fails too: the engine hands its kernels the
// wrong data, one name in uopc's engine and through a target, as when a bare input fails.
// (Programs from campaigns.)
TEST_F(Planted, AnEngineThatHandsItsKernelsTheWrongDataIsBuffer) {
  const std::initializer_list<WithOpts> programs = {
      {"%t0 = buffer 1 dtype=f32 slot=0\n%v3 = reshape %t0 shape=[]\n", "none"},
      {"%t0 = buffer 1 dtype=i32 slot=0\n%v2 = neg %t0\n", "none"},
      {"%t0 = buffer 1 dtype=bool slot=0\n%t1 = pad %t0 pads=[0 0] value=true\n", "none"},
      {"%t0 = stack false\n%t1 = stage %t0\n%v3 = index %t1\n", "none"},
      {"%t0 = stack 0.0\n%t1 = reduce %t0 op=mul pop=0\n%v3 = stack %t1 %t0\n", "thread=0"},
      {"%t0 = stack 0 0 0 0\n%t1 = reshape %t0 shape=[2 2]\n%t2 = reduce %t1 op=add pop=1\n"
       "%t3 = reshape %t2 shape=[2 1 1 1]\n%t4 = expand %t3 shape=[2 1 1 2]\n"
       "%v = reduce %t4 op=add pop=1\n",
       "none"},
  };
  expect_signature_under(Plant::ParamNumberedBelow, programs, "engines-buffer");
  set_plant(Plant::None);
  Target target = planted_engine("param_numbered_below");
  for (const auto& [text, opts] : programs) {
    if (std::string(opts) == "none") {
      EXPECT_EQ(signature_through(target, text), "target-buffer") << text;
    }
  }
}

// A stage that another kernel reads but no kernel writes hands its readers whatever its buffer
// held: every op read from a stage fails alone, as a wrong value, a byte that is no bool or an
// overflow, and each was named by its op (13 signatures in 8 s). Two kernels that copy a
// buffer through a stage fail too, while a stage nothing reads is written: one name, in uopc's
// engine and through a target.
TEST_F(Planted, AStageNoKernelWritesIsStageWhicheverOpReadsIt) {
  const std::initializer_list<WithOpts> programs = {
      {"%x = buffer 6\n%s = stage %x\n%v = neg %s\n", "none"},
      {"%x = buffer 6\n%m = reshape %x shape=[2 3]\n%s = stage %m\n%t = permute %s "
       "order=[1 0]\n",
       "none"},
      {"%x = buffer 6 dtype=i32\n%s = stage %x\n%r = reduce %s op=mul\n", "none"},
      {"%x = buffer 4 dtype=bool\n%s = stage %x\n%v = not %s\n", "none"},
      {"%t0 = stage 0.0\n%v7 = div %t0 0.0\n", "none"},
  };
  expect_signature_under(Plant::StageNeverWritten, programs, "engines-stage");
  set_plant(Plant::None);
  Target target = planted_engine("stage_never_written");
  for (const char* text : {"%x = buffer 6\n%s = stage %x\n%v = neg %s\n",
                           "%x = buffer 6\n%m = reshape %x shape=[2 3]\n%s = stage %m\n"
                           "%t = permute %s order=[1 0]\n"})
    EXPECT_EQ(signature_through(target, text), "target-stage") << text;
}

// A constant table read wrong (an i32 element taken for an f32's bits) gives every op that
// reads a stack of literals wrong values, and each was named by the interval of the op whose
// value first left it (`bounds-mul`, `bounds-where`, ...: ten signatures in 10 s). A table's
// element lies in the hull of its literals, so the read itself is checked: the stack's.
TEST_F(Planted, ATableReadWrongIsTheStacksWhicheverOpReadsIt) {
  const std::initializer_list<WithOpts> programs = {
      {"%t = stack 1000 1001 1002 1003\n%v = mul %t 3\n", "table=2"},
      {"%t = stack -7 -9 -8 -6\n%c = cmplt %t -8\n%v = where %c %t 4\n", "table=2"},
      {"%t = stack 70 90 80 60\n%v = cast %t dtype=f32\n", "table=2"},
      {"%t = stack 70 90 80 60\n%m = reshape %t shape=[2 2]\n%r = reduce %m op=max\n", "table=2"},
      {"%t = stack -5 0 5 7\n%v = idiv %t 2\n", "table=2"},
      {"%t = stack 3 9 4\n%x = buffer 3 dtype=i32\n%v = sub %x %t\n", "table=2"},
  };
  expect_signature_under(Plant::TableElementMisread, programs, "engines-stack");
  set_plant(Plant::None);
  Target target = planted_engine("table_element_misread");
  Program p = parse_program("%t = stack 1000 1001 1002 1003\n%v = mul %t 3\n", "t.uir");
  std::optional<Failure> f = check_target(p, target, nullptr, fixed("table=2", 1));
  ASSERT_TRUE(f);
  EXPECT_EQ(target_signature(*f, p, target), "target-stack");
}

// An identity of the wrong dtype (min's f32 +inf for i32 and bool folds) is a literal used as
// another dtype. Where a pass or the interpreter reads its bits as an i32 or a bool, or makes a
// node of another dtype hold it, it is named by that invariant; where the lowering builds a
// node of the wrong dtype with it (a blocked reduce's where), which some op's type rule refuses,
// by the lowering's; never by the op whose rule or value showed it first (the same bug left 130
// signatures in 20 s).
TEST_F(Planted, ALiteralOfTheWrongDtypeIsNamedByTheInvariantItBreaks) {
  expect_signature_under(
      Plant::MinIdentityF32,
      {{"%x = buffer 6 dtype=i32\n%m = reshape %x shape=[2 3]\n%r = reduce %m op=min\n", "none"},
       {"%x = buffer 8 dtype=bool\n%m = reshape %x shape=[2 4]\n%r = reduce %m op=min pop=2\n",
        "upcast=0:2"},
       {"%t = stack -20\n%r = reduce %t op=min pop=0\n", "none"}},
      "engines-threw-literal");
  expect_signature_under(
      Plant::MinIdentityF32,
      {{"%x = buffer 8 dtype=bool\n%m = reshape %x shape=[4 2]\n%r = reduce %m op=min\n",
        "block=2"},
       {"%x = buffer 240 dtype=bool\n%m = reshape %x shape=[4 4 5 3]\n%n = not %m\n"
        "%r = reduce %n op=min pop=4\n",
        "block=2"}},
      "engines-threw-lowering");
}

// Each value the interpreter computes is held to its node's dtype and shape. A permute evaluated
// by the inverse order gets another shape, which its readers would show each in their own way
// (a broadcast xtensor refuses, a flip's composite, outputs compared as flat lists): it is the
// interpreter's permute, whichever oracle ran it.
TEST_F(Planted, AnInterpretedValueOfAnotherShapeIsNamedByItsOp) {
  expect_signature_under(
      Plant::InterpPermuteInverse,
      {{"%x = buffer 24 dtype=i32\n%m = reshape %x shape=[2 3 4]\n%p = permute %m order=[1 2 0]\n",
        "none"},
       {"%x = buffer 24\n%m = reshape %x shape=[2 3 4]\n%p = permute %m order=[2 0 1]\n"
        "%r = reduce %p op=add\n%s = add %r 1.0\n",
        "none"}},
      "interp-permute");
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program p = parse_program("%t = expand true shape=[2]\n%s = stack %t\n%f = flip %s axes=[0 1]\n",
                            "t.uir");
  std::optional<Failure> f = check_composites(p, *tcc);
  ASSERT_TRUE(f);
  EXPECT_EQ(failure_signature(*f, p, *tcc), "interp-permute") << f->detail;
}

// An engine whose asserts all hold fails every program with a failing assert, whichever ops
// compute its operands (176 signatures in a 15 s campaign): named by the plainest asserts it
// gets wrong, in-process and through --target. The generator makes one assert in five fail.
TEST_F(Planted, AnEngineThatCannotFailAnAssertIsNamedOnce) {
  expect_signature_under(
      Plant::AssertReadsOneOperand,
      {{"%x = buffer 20 dtype=i32\n%m = reshape %x shape=[2 5 2]\n%y = add %m 1\n"
        "%ok = assert %m %y\n",
        "none"},
       {"%x = buffer 6\n%p = pad %x pads=[1 1]\n%f = flip %p axes=[0]\n%ok = assert %p %f\n",
        "upcast=0:2"},
       {"%x = buffer 4 dtype=bool\n%n = not %x\n%ok = assert %x %n\n", "none"}},
      "engines-assert");
  set_plant(Plant::None);
  Target target = planted_engine("assert_reads_one_operand");
  EXPECT_EQ(signature_through(target, "%x = buffer 4 dtype=i32\n%y = neg %x\n%ok = assert %x %y\n"),
            "target-assert");
}

// A generator that cannot build its program (a builder throws on it) is the generator oracle's
// failure, with no program and a signature named by the throw, not an exception that kills
// the campaign's worker and leaves a reproducer with neither.
TEST_F(Planted, AProgramTheBuildersRefuseIsTheGeneratorsFailure) {
  set_plant(Plant::MinIdentityF32);  // the interval of a min over no elements reads it as i32
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  std::optional<Failure> found;
  for (uint64_t seed = 1; seed <= 4000 && !found; ++seed) {
    std::optional<Failure> f = check_seed(seed, *tcc, {});
    if (f && f->oracle == "generator") found = f;
  }
  ASSERT_TRUE(found);
  EXPECT_EQ(found->program, "");
  EXPECT_EQ(found->detail, "threw: literal: f32 bits 0x7f800000 read as i32");
  EXPECT_EQ(failure_signature(*found, Program{}, *tcc), "generator-threw-literal");
}

// Buffers one element short fail every program, a one-literal stack's too, each where a
// kernel first stores out of bounds: named by localizing, each program got the op of its own
// first failing probe (engines-add, engines-neg, ...). An engine that cannot return literals
// is the engine's, whatever the program computes: engines-echo (target-const through --target,
// as an engine that prints literals wrong is).
TEST_F(Planted, AnEngineThatCannotReturnLiteralsIsNamedOnce) {
  const std::initializer_list<WithOpts> programs = {
      {"%x = buffer 4 dtype=i32\n%v = neg %x\n", "none"},
      {"%t = stack 1 2 3\n%v = add %t 1\n", "none"},
      {"%x = buffer 6 dtype=f32\n%m = reshape %x shape=[2 3]\n%r = reduce %m op=max\n", "none"},
      {"%x = buffer 4 dtype=bool\n%v = not %x\n", "upcast=0:2"},
      {"%x = buffer 3 dtype=i32\n%p = pad %x pads=[1 1]\n%f = flip %p axes=[0]\n", "none"},
  };
  expect_signature_under(Plant::BufferOneShort, programs, "engines-echo");
  set_plant(Plant::None);
  Target target = planted_engine("buffer_one_short");
  for (const char* text :
       {"%x = buffer 4 dtype=i32\n%v = neg %x\n", "%t = stack 1 2 3\n%v = add %t 1\n"})
    EXPECT_EQ(signature_through(target, text), "target-const") << text;
}

// A composite form that cannot be built (a reshape to the wrong size inside an i32 flip's
// anti-identity) throws for every program with such a flip, and each was named by the ops of
// its outputs (hundreds of signatures in a few seconds): it is the op's composite.
TEST_F(Planted, ACompositeThatCannotBeBuiltIsTheOpsComposite) {
  set_plant(Plant::CompositeFlipMisshaped);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  for (const char* text : {"%x = buffer 6 dtype=i32\n%f = flip %x axes=[0]\n",
                           "%x = buffer 6 dtype=i32\n%m = reshape %x shape=[2 3]\n"
                           "%f = flip %m axes=[1]\n%y = add %f 1\n%r = reduce %y op=max\n"}) {
    Program p = parse_program(text, "t.uir");
    std::optional<Failure> f = check_composites(p, *tcc, false);
    ASSERT_TRUE(f) << text;
    EXPECT_EQ(failure_signature(*f, p, *tcc), "composites-flip") << f->detail << "\n" << text;
  }
}

// A failure nothing else names (naming it broke the harness too) is named by the site of the
// exception it reports, which every program that takes that step throws, and else by the ops
// of its outputs.
TEST(Triage, AFailureNothingNamesIsNamedByWhereItThrew) {
  Program p = parse_program("%x = buffer 6\n%f = flip %x axes=[0]\n%y = add %f 1.0\n", "t.uir");
  Failure thrown{"composites",
                 "threw: permute: order [0 2 1] is not a permutation of the 3 axes of f32[1 3 2]",
                 ""};
  EXPECT_EQ(by_outputs(thrown, p), "composites-threw-permute");
  EXPECT_EQ(by_outputs(Failure{"engines", "%y: first difference at [0]: 1 vs 2", ""}, p),
            "engines-add");
  EXPECT_EQ(by_outputs(Failure{"engines", "threw: ", ""}, p), "engines-threw-exception");
}

// An engine that says where it crashed ("crash site: SYMBOL" on stderr, docs/ENGINES.md) is
// named by that function, whichever op led there: a broken helper that every op's lowering
// calls is one bug. Without the line, the crash is named by the op that dies alone.
TEST(TargetSignature, ACrashSiteNamesTheCrashWhicheverOpLedThere) {
  std::string site = "_ZN6engine12_GLOBAL__N_19bounds_ofERKSt6vectorIiSaIiEE.isra.0";
  Target with_site(
      "sh -c 'if grep -qE \"(reshape|expand) \" \"$0\"; then echo \"engine: fatal; "
      "crash site: " +
          site + "\" >&2; kill -SEGV $$; fi; exec " + std::string(UOPC_BINARY_PATH) +
          " run --backend tcc \"$0\"'",
      false, 10);
  for (const char* text : {"%x = buffer 6\n%m = reshape %x shape=[2 3]\n",
                           "%x = stack 1 2\n%y = add %x 1\n%e = expand 1.5 shape=[3]\n"})
    EXPECT_EQ(signature_through(with_site, text), "target-SIGSEGV-in-bounds_of") << text;
  Target without("sh -c 'if grep -q \"reshape \" \"$0\"; then kill -SEGV $$; fi; exec " +
                     std::string(UOPC_BINARY_PATH) + " run --backend tcc \"$0\"'",
                 false, 10);
  EXPECT_EQ(signature_through(without, "%x = buffer 6\n%y = neg %x\n%m = reshape %y shape=[2 3]\n"),
            "target-SIGSEGV-reshape");
}

// A crash site is told by its function's plain name, mangled by any compiler or not.
TEST(TargetSignature, ACrashSiteIsAFunctionsPlainName) {
  struct Case {
    const char* log;
    const char* site;
  };
  for (const Case& c : {
           Case{"uopc: fatal signal 11 in uopc's own code; crash site: "
                "_ZN4uopc12_GLOBAL__N_19bounds_ofENS_2OpENS_5DTypeERKSt6vectorISt10shared_ptrIKNS_"
                "3UOpEESaIS7_EERKS3_IlSaIlEENS_6ScalarE.isra.0\n",
                "bounds_of"},
           // a lambda is named by the function it is in (clang's and gcc's manglings)
           Case{"crash site: _ZZN4uopc7linkingEiENK3$_0clEv", "linking"},
           Case{"crash site: _ZZN4uopc7linkingEiENKUlvE_clEv\n", "linking"},
           Case{"crash site: _ZNK4uopc8Rewriter5visitERKSt10shared_ptrIKNS_3UOpEEi", "visit"},
           Case{"last words\ncrash site: lower_kernel\n", "lower_kernel"},
           Case{"Segmentation fault\n", ""},
       })
    EXPECT_EQ(crash_site(c.log), c.site) << c.log;
}

// A fused failure named by an arithmetic op the program does not hold comes with a witness:
// the op alone, failing, which the campaign writes as the reproducer instead.
TEST(TargetSignature, AnArithmeticNameComesWithAProgramThatHoldsTheOp) {
  Target target = planted_engine("floordiv_truncates");
  Program p = parse_program(
      "%x = buffer 4 dtype=i32\n%m = reshape %x shape=[2 2]\n%t = permute %m order=[1 0]\n"
      "%f = reshape %t shape=[4]\n%v = flip %f axes=[0]\n",
      "t.uir");
  std::optional<Failure> f = check_target(p, target);
  ASSERT_TRUE(f);
  Failure witness;
  EXPECT_EQ(target_signature(*f, p, target, &witness), "target-division");
  ASSERT_EQ(witness.oracle, "target");
  ASSERT_TRUE(check_target(parse_program(witness.program, "w.uir"), target));
  const std::string& text = witness.program;
  EXPECT_NE(text.find(" = idiv "), std::string::npos) << text;
}

// A rewrite of two ops that wraps, (x - 3) // 64 taken apart as -1 + (x + 61) // 64, fails in
// no op alone: every program it shows in (a sum by a mul or an add, a // or a %) is named by
// the first pair of ops that fails on the probe values, and comes with that pair as witness.
TEST(TargetSignature, AFusedPairIsNamedByThePairThatFails) {
  Target target = planted_engine("divmod_split_unchecked");
  for (const char* text :
       {"%t0 = stack 0 2147483647 0 0 0\n%t1 = expand -2 shape=[5]\n%t2 = add %t0 %t1\n"
        "%t3 = expand 3 shape=[5]\n%v2 = idiv %t2 %t3\n",
        "%t0 = stack 0 2147483647 0 0 0\n%t1 = expand -3 shape=[5]\n%t2 = mul %t0 %t1\n"
        "%t3 = add %t2 %t0\n%t4 = expand 2147483647 shape=[5]\n%t5 = add %t3 %t4\n"
        "%t6 = expand 6 shape=[5]\n%v5 = mod %t5 %t6\n"}) {
    Program p = parse_program(text, "t.uir");
    std::optional<Failure> f = check_target(p, target);
    ASSERT_TRUE(f) << text;
    Failure witness;
    EXPECT_EQ(target_signature(*f, p, target, &witness), "target-add-division") << text;
    ASSERT_TRUE(check_target(parse_program(witness.program, "w.uir"), target));
    const std::string& shown = witness.program;
    EXPECT_NE(shown.find(" = add "), std::string::npos) << shown;
    EXPECT_NE(shown.find(" = idiv "), std::string::npos) << shown;
  }
}

// An engine that writes a binary op's value into its reader without parentheses fails in no
// op alone, and showed as whichever reader a program held (a cmpne, a not, a mul of a stack of
// literals): each program is named by the first op in the language's order whose fused probes
// fail where the staged and lone forms do not. One that writes a select so showed as cmplt:
// the engine's arithmetic probes read stacks of literals, which it writes as selects.
TEST(TargetSignature, AnOpWrittenWrongIntoItsReadersIsNamedByThatOp) {
  expect_target_signatures({
      ThroughPlanted{"binary_unparenthesized",
                     "%t0 = buffer 1 dtype=bool slot=0\n%t1 = and %t0 %t0\n%v = cmpne true %t1\n",
                     "target-render_add"},
      ThroughPlanted{"binary_unparenthesized",
                     "%t0 = buffer 1 dtype=f32 slot=0\n%t1 = cmplt %t0 %t0\n%v = not %t1\n",
                     "target-render_add"},
      ThroughPlanted{"binary_unparenthesized",
                     "%t0 = stack -3.0 0.0\n%t1 = sub %t0 0.0\n%v = mul %t1 0.0\n",
                     "target-render_add"},
      ThroughPlanted{"where_unparenthesized", "%t0 = stack -2147483648 0\n%v = cmplt %t0 0\n",
                     "target-render_where"},
  });
}

// An engine that remembers a lowered value by its node alone fails at whichever op reads a
// value twice in one kernel; its buffer compared with its flip fails where the flip alone and a
// compare of two buffers pass, which names every such failure.
TEST(TargetSignature, AnEngineThatCannotReadAValueTwiceIsReadTwice) {
  Target target = planted_engine("memo_ignores_index");
  for (const char* text : {"%t0 = buffer 2 dtype=i32 slot=0\n%t1 = index %t0\n"
                           "%t2 = reshape %t1 shape=[2 1]\n%v = cmpne %t1 %t2\n",
                           "%x = buffer 4 dtype=f32 slot=0\n%p = pad %x pads=[2 0]\n"
                           "%s = shrink %p 0 shape=[4]\n%v = add %s %x\n"})
    EXPECT_EQ(signature_through(target, text), "target-read_twice") << text;
}

// A failure through a target that needed options shrinks to one that does not, when a smaller
// program fails without them: then the op is wrong, not the options. A wrong simplifier rule
// decides a stack's select under an upcast of nine literals here; neither half of the nine
// fails, eight do, and fewer fail without options. Stacks of distinct literals fail without
// options too, so the stack is named before the shrink as after it.
TEST(TargetSignature, AFailureThatShrinksToOneWithoutOptionsIsTheOps) {
  Target target = planted_engine("compare_bounds_touching");
  Program p = parse_program("%v = stack 0.0 0.0 0.0 0.0 0.0 0.0 inf 0.0 0.0\n", "t.uir");
  EngineConfig upcast{parse_opts_choice("upcast=0:3", "opts"), 1};
  ASSERT_FALSE(check_target(p, target));
  std::optional<Failure> f = check_target(p, target, nullptr, upcast);
  ASSERT_TRUE(f);
  EXPECT_EQ(target_signature(*f, p, target), "target-stack");
  Minimized m =
      minimize(p, upcast, [&](const EngineConfig& c) { return fails_target(target, *f, c); });
  EXPECT_EQ(m.config.flags(), EngineConfig{}.flags()) << m.reduced.text;
  Program small = parse_program(m.reduced.text, "small.uir");
  std::optional<Failure> g = check_target(small, target, nullptr, m.config);
  ASSERT_TRUE(g) << m.reduced.text;
  EXPECT_EQ(target_signature(*g, small, target), "target-stack") << m.reduced.text;
}

// A checker whose interval rule for one op is too narrow accepts an offset that the rules of
// LANGUAGE.md §5 leave out of range by one; the breaker is built on a value that holds the op
// somewhere in its subgraph, and the signature names the op, at whichever end it showed.
TEST(TargetSignature, AnIntervalTheCheckerNarrowsIsNamedByItsOp) {
  struct Case {
    const char* plant;
    const char* text;  // the op at fault is not the last
    const char* signature;
    int accepted = 1;  // of the two offsets, one past each end of the interval
  };
  Target correct(std::string(UOPC_BINARY_PATH) + " run --backend tcc", false, 10);
  for (const Case& c : {
           Case{"pad_bounds_ignore_fill",
                "%x = stack 1 2 3\n%p = pad %x pads=[1 1] value=-5\n%q = add %p 1\n",
                "target-interval_pad"},
           Case{"max_interval_lower_high",
                "%x = stack 1 5\n%y = stack 4 2\n%m = max %x %y\n%q = mul %m 2\n",
                "target-interval_max"},
           // a reduce's interval folds mul's rule: the mul's, as its steps written out show
           Case{"mul_interval_two_corners",
                "%a = stack -20 -13\n%b = stack -6 1\n%v = stack %a %b\n"
                "%r = reduce %v op=mul pop=1\n%s = sub %v %r\n",
                "target-interval_mul", 2},
           // max's interval is empty here ([197, 85]), which the checker refuses: the stack
           // lets the breaker through only because it holds the max
           Case{"max_interval_lower_high",
                "%x = stack -20 85\n%m = max %x 197\n%v = stack %m %x\n%q = add %v 1\n",
                "target-interval_max"},
       }) {
    Target target = planted_engine(c.plant);
    Program valid = parse_program(c.text, "t.uir");
    std::vector<Broken> broken = interval_rule_breakers(valid, valid.statements.back());
    ASSERT_EQ(broken.size(), 2u) << c.text;
    int accepted = 0;
    for (const Broken& b : broken) {
      std::string why = "breaks the " + b.rule + " rule";
      EXPECT_FALSE(check_target_rejects(b.text, why, correct)) << b.text;
      std::optional<Failure> f = check_target_rejects(b.text, why, target);
      if (!f) continue;
      ++accepted;
      EXPECT_EQ(target_rejection_signature(*f, target), c.signature) << b.text;
      // as `uopc fuzz --check` names the reproducer, from uopc's refusal of it
      std::string refusal;
      try {
        parse_program(b.text, "b.uir");
      } catch (const std::exception& e) {
        refusal = e.what();
      }
      std::optional<Failure> g =
          check_target_rejects(b.text, "uopc refuses (" + refusal + ")", target);
      ASSERT_TRUE(g) << b.text;
      EXPECT_EQ(target_rejection_signature(*g, target), c.signature) << refusal;
    }
    EXPECT_EQ(accepted, c.accepted) << c.text;
  }
}

// A failure in an engine whose checker narrows the interval of an op is that interval's bug:
// the engine's rewrites trust the interval as its checker does. Here max's wrong high end lets
// an idiv by 64 be written as C's division, and decides a pad's clamp, so that the pad alone
// reads past its buffer, which the engine's own bounds check reports.
TEST(TargetSignature, AFusedFailureOfANarrowedIntervalIsNamedByIt) {
  EXPECT_EQ(target_signature_of("max_interval_lower_high",
                                "%t0 = stack -2147483648 0 0 0 0 0 0 -3 0 0 0\n"
                                "%t1 = expand -3 shape=[11]\n%t2 = max %t0 %t1\n"
                                "%t3 = expand 64 shape=[11]\n%v = idiv %t2 %t3\n"),
            "target-interval_max");
  EXPECT_EQ(target_signature_of("max_interval_lower_high",
                                "%x = buffer 3 dtype=i32\n%v = pad %x pads=[1 2]\n"),
            "target-interval_max");
  // an engine whose intervals are right names it by the arithmetic it gets wrong, as before
  EXPECT_EQ(target_signature_of("floordiv_truncates", "%x = stack -1 -3 5\n%v = idiv %x 2\n"),
            "target-division");
}

// An op whose rule is index arithmetic that fails alone, in an engine that gets one of its i32
// arithmetic ops wrong alone, fails through that arithmetic: an engine whose sub collects
// a - b as a + b failed flips, pads and stacks alone, each its own name (four files in 60 s).
// An engine that gets the probes' literals wrong alone keeps its op's name.
TEST(TargetSignature, AnIndexingOpWrongThroughTheEnginesArithmeticIsNamedByIt) {
  EXPECT_EQ(target_signature_of("linear_sub_as_add",
                                "%x = buffer 9 dtype=i32\n"
                                "%v = flip %x axes=[0]\n"),
            "target-sub");
  EXPECT_EQ(
      target_signature_of("linear_sub_as_add",
                          "%t0 = expand 0 shape=[9 9]\n%t1 = pad %t0 pads=[1 0 0 1] "
                          "value=-1\n%t2 = reshape %t1 shape=[100]\n%v = flip %t2 axes=[0]\n"),
      "target-sub");
  EXPECT_EQ(target_signature_of("stack_order_reversed", "%v = stack 1 2 3\n"), "target-stack");
  EXPECT_EQ(target_signature_of("flip_off_by_one",
                                "%x = buffer 9 dtype=i32\n"
                                "%v = flip %x axes=[0]\n"),
            "target-flip");
}

// A failure of a narrowed interval in a program without the op comes with a witness that has
// it: the offset the engine's checker lets through, which the campaign writes instead.
TEST(TargetSignature, AnIntervalNameComesWithAProgramThatHoldsTheOp) {
  Target target = planted_engine("mul_interval_two_corners");
  Program p = parse_program("%t0 = stack 7 0\n%v6 = flip %t0 axes=[0]\n", "t.uir");
  std::optional<Failure> f = check_target(p, target);
  ASSERT_TRUE(f);
  Failure witness;
  EXPECT_EQ(target_signature(*f, p, target, &witness), "target-interval_mul");
  EXPECT_EQ(witness.oracle, "target-rejection");
  EXPECT_NE(witness.program.find(" = mul "), std::string::npos) << witness.program;
  EXPECT_EQ(target_rejection_signature(witness, target), "target-interval_mul");
  // so is one found under options, whose op fails without them on literals only
  Program q = parse_program(
      "%t0 = stack -2147483648 0 0 0 0 0 0 0\n%t1 = reshape %t0 shape=[4 2]\n"
      "%v14 = flip %t1 axes=[1]\n",
      "t.uir");
  EngineConfig thread{parse_opts_choice("thread=1", "opts"), 1};
  std::optional<Failure> g = check_target(q, target, nullptr, thread);
  ASSERT_TRUE(g);
  EXPECT_EQ(target_signature(*g, q, target), "target-interval_mul");
}

// A breaker's offset sums every element of the value it is built on, so the lines of a found
// one cannot be dropped one at a time; the program it was built on shrinks instead, and the
// breaker is built anew on what is left. (A breaker found by a campaign.)
TEST(TargetSignature, ANarrowedIntervalsBreakerShrinksToItsOp) {
  Target target = planted_engine("max_interval_lower_high");
  const char* text = found::kIntervalStackBreaker;
  std::optional<Failure> f =
      check_target_rejects(text, "breaks the interval high end rule", target);
  ASSERT_TRUE(f);
  EXPECT_EQ(target_rejection_signature(*f, target), "target-interval_max");
  Bounded as_is = [](Interesting i) { return i; };
  std::optional<Failure> small = smaller_interval_breaker(*f, target, as_is);
  ASSERT_TRUE(small);
  EXPECT_EQ(small->oracle, "target-rejection");
  // from 10 statements of its own (and 15 of the breaker's) to at most 4 (and the breaker's 4)
  EXPECT_LE(count_statements(small->program), 8) << small->program;
  EXPECT_NE(small->program.find(" = max "), std::string::npos) << small->program;
  EXPECT_EQ(target_rejection_signature(*small, target), "target-interval_max");
  // an engine whose intervals are right has no narrowed interval to shrink
  Target correct(std::string(UOPC_BINARY_PATH) + " run --backend tcc", false, 10);
  EXPECT_FALSE(smaller_interval_breaker(*f, correct, as_is));
}

// An engine that checks no type rule lets every interval through: that says nothing of its
// intervals, and a fused failure of it is named by its arithmetic as before.
TEST(TargetSignature, AnEngineThatChecksNothingHasNoNarrowedInterval) {
  std::string engine = ::testing::TempDir() + "/runs-everything.sh";
  std::ofstream(engine) << "#!/bin/sh\n"
                        << UOPC_BINARY_PATH
                        << " run --backend tcc --plant divmod_split_unchecked \"$1\"\n"
                           "status=$?\n[ $status = 2 ] && exit 0\nexit $status\n";
  ::chmod(engine.c_str(), 0755);
  Target target(engine, false, 10);
  EXPECT_EQ(signature_through(target,
                              "%t0 = stack 0 2147483647 0 0 0\n%t1 = expand -2 shape=[5]\n"
                              "%t2 = add %t0 %t1\n%t3 = expand 3 shape=[5]\n%v = idiv %t2 %t3\n"),
            "target-add-division");
}

// An engine that folds literals before it checks knows an offset computed from them exactly,
// and accepts one LANGUAGE.md's intervals cannot prove but that is in range: its intervals are
// tighter, not wrong. Its flip bug is the flip's, not a narrowed interval's. (Modelled: what
// uopc refuses as unprovable without a buffer of its own, it runs when the offsets stay in
// range.)
TEST(TargetSignature, AnEngineThatFoldsLiteralsHasNoNarrowedInterval) {
  std::string engine = ::testing::TempDir() + "/folds-literals.sh";
  std::string uopc = UOPC_BINARY_PATH;
  std::ofstream(engine) << "#!/bin/sh\nwhy=$(" << uopc << " check \"$1\" 2>&1 >/dev/null) && exec "
                        << uopc
                        << " run --backend tcc --plant flip_off_by_one \"$1\"\n"
                           "echo \"$why\" | grep -q unprovable || exit 2\n"
                           "grep -v 'slot=998' \"$1\" | grep -q ' = buffer ' && exit 2\n"
                        << uopc
                        << " run --backend tcc --check-bounds --plant skip_static_checks \"$1\"\n"
                        << "[ $? = 3 ] && exit 2\nexit 0\n";
  ::chmod(engine.c_str(), 0755);
  Target target(engine, false, 10);
  // it accepts what it can fold
  Program mul = parse_program("%a = stack -3 2 0\n%b = stack -4 5 1\n%v = mul %a %b\n", "t.uir");
  int accepted = 0;
  for (const Broken& b : interval_rule_breakers(mul, mul.statements.back()))
    accepted += check_target_rejects(b.text, breaks_rule(b), target).has_value();
  EXPECT_GT(accepted, 0);
  EXPECT_EQ(signature_through(target, "%x = stack 1 2 3\n%v = flip %x axes=[0]\n"), "target-flip");
}

// The engine is asked for the campaign's settings in its environment; a failure that needs
// them is named by the options' kinds when no node fails alone without them, and by the op
// when one does.
// A bug of the thread split alone (it drops an odd range's last iteration) needs a tile too
// in a program whose thread range the tile made odd; probes of odd shapes show it under the
// thread option alone, so it is named by that, as in every other program.
TEST(OptionKinds, AreTheFewestThatAProbeFailsUnder) {
  FailsWith odd_split = [](const Program& p, const EngineConfig& c) {
    int64_t n = p.statements.back().node->numel();
    return c.opts.fixed.thread && c.threads > 1 && n % 2 == 1;
  };
  EngineConfig least{parse_opts_choice("tile=0:2 thread=0", "t"), 2};
  EXPECT_EQ(fewest_option_kinds(least, odd_split), "thread+threads");
  // a bug that needs both kinds in every program keeps both
  FailsWith both = [](const Program&, const EngineConfig& c) {
    return c.opts.fixed.thread && !c.opts.fixed.tile.empty();
  };
  EXPECT_EQ(fewest_option_kinds(least, both), "tile+thread+threads");
  // a probe that fails without options too shows no option's bug
  FailsWith always = [](const Program&, const EngineConfig&) { return true; };
  EXPECT_EQ(fewest_option_kinds(least, always), "tile+thread+threads");
}

TEST(TargetSignature, AFailureThatNeedsSettingsIsNamedByThem) {
  struct Case {
    const char* plant;
    const char* text;
    const char* opts;
    const char* signature;
  };
  for (const Case& c : {
           Case{"tile_remainder_dropped", "%v = expand 1.5 shape=[9]\n", "tile=0:2 unroll=2",
                "target-tile"},
           Case{"unroll_tree_drops_last", "%x = buffer 3\n%r = reduce %x op=add\n", "unroll=3",
                "target-unroll"},
           // the options the reduce needs alone, whatever else the program's kernels needed
           Case{"reduce_block_restarts",
                "%x = expand 2147483647 shape=[6]\n%r = reduce %x op=add\n", "block=2",
                "target-block"},
           Case{"reduce_block_restarts",
                "%x = buffer 12 slot=5\n%m = reshape %x shape=[6 2]\n%r = reduce %m op=max pop=1\n"
                "%s = reshape %r shape=[2 1]\n%e = expand %s shape=[2 6]\n"
                "%v = reshape %e shape=[1 2 6]\n",
                "thread=2 block=2", "target-block"},
           Case{"reduce_block_restarts",
                "%x = buffer 20 slot=5\n%m = reshape %x shape=[10 2]\n%r = reduce %m op=max "
                "pop=1\n%s = reshape %r shape=[2 1]\n%v = expand %s shape=[2 10]\n",
                "tile=1:2 block=2", "target-block"},
           // a wrong rule that options only exposed is the op's
           Case{"flip_off_by_one", "%x = buffer 6\n%f = flip %x axes=[0]\n", "upcast=0:2",
                "target-flip"},
           // a stack whose last two elements are equal hides a select that reads the last
           // element as the one before it; an upcast split its index, and distinct literals
           // show it without options
           Case{"compare_bounds_touching",
                "%v = stack false true true true true false false false\n", "upcast=0:4",
                "target-stack"},
           Case{"compare_bounds_touching",
                "%t = stack true true true false false true true true true true true true\n"
                "%v = reshape %t shape=[3 2 2]\n",
                "upcast=0:3", "target-stack"},
           // a whole reduce is right under this plant, the same reduce over one more axis is not
           Case{"reduce_trailing_axes", "%x = buffer 150 dtype=i32 slot=1\n%r = reduce %x op=min\n",
                "block=3", "target-reduce"},
           // an engine whose linear forms write -i + 8 as i - 8 fails a flip only once a tile
           // splits its index, and fails a plain sub: the options are index arithmetic, and
           // the arithmetic is wrong (it was `target-tile`, then `target-flip`)
           Case{"linear_sub_reversed",
                "%v2 = stack -3.0 -16777215.0 -1.5 -0.75 0.0 0.75 nan 2.25 3.0\n"
                "%v4 = flip %v2 axes=[0]\n",
                "tile=0:3", "target-sub"},
           // a max wrong on a NaN, which fresh and varied inputs never hold: on the operands'
           // own values (a reduce's: its fold's steps) it fails without the options too
           Case{"minmax_reversed", "%t0 = stack nan nan\n%v5 = reduce %t0 op=max pop=1\n",
                "table=2", "target-minmax"},
       }) {
    Target target = planted_engine(c.plant);
    Program p = parse_program(c.text, "t.uir");
    EngineConfig config{parse_opts_choice(c.opts, "opts"), 1};
    std::optional<Failure> f = check_target(p, target, nullptr, config);
    ASSERT_TRUE(f) << c.text;
    EXPECT_EQ(f->config.flags(), config.flags());
    EXPECT_EQ(target_signature(*f, p, target), c.signature) << c.text;
  }
}

// A min wrong on a NaN, inside a reduce that fails only under an unroll: the min fails alone,
// on its operands' own values, without options, so it is named, not the unroll.
TEST(TargetSignature, AnOpThatFailsOnItsOwnValuesWithoutOptionsIsNamed) {
  std::string values;
  for (int i = 0; i < 81; ++i) values += i >= 9 && i < 18 ? " nan" : " 0.0";
  Program p =
      parse_program("%t0 = stack" + values +
                        "\n%t1 = buffer 81 dtype=f32 slot=515\n%t2 = min %t0 %t1\n"
                        "%t3 = reshape %t2 shape=[1 1 27 3]\n%v7 = reduce %t3 op=max pop=3\n",
                    "t.uir");
  Target target = planted_engine("minmax_reversed");
  EngineConfig unroll{parse_opts_choice("unroll=3:ordered", "opts"), 1};
  std::optional<Failure> f = check_target(p, target, nullptr, unroll);
  ASSERT_TRUE(f);
  EXPECT_EQ(target_signature(*f, p, target), "target-minmax");
  // a min whose operands already are its own values, one staged and one a literal: the min,
  // not the stage the failure needs (as a literal operand, the engine folds the min right)
  Program q = parse_program("%t0 = stage -0.0\n%v7 = min %t0 0.0\n", "t.uir");
  std::optional<Failure> g = check_target(q, target);
  ASSERT_TRUE(g);
  EXPECT_EQ(target_signature(*g, q, target), "target-minmax");
}

// An engine asked to fold a reduce as a tree may do so, or ignore the request and fold in
// order: either is the language's answer.
TEST(TargetOracle, AReduceFoldedAsTheSettingsAskIsNoFailure) {
  Program p =
      parse_program("%x = stack 1e8 1.0 -1e8 1.0 1.0 1.0\n%r = reduce %x op=add\n", "t.uir");
  EngineConfig tree{parse_opts_choice("unroll=2", "opts"), 1};
  // the tree's sum is 2, the in-order one 3
  Target run(std::string(UOPC_BINARY_PATH) + " run --backend tcc", false, 10);
  EXPECT_FALSE(check_target(p, run, nullptr, tree));
  Target in_order(std::string(UOPC_BINARY_PATH) + " run --backend tcc --opts none", false, 10);
  EXPECT_FALSE(check_target(p, in_order, nullptr, tree));
  // a tree of three partial sums that drops the third is neither
  Target wrong = planted_engine("unroll_tree_drops_last");
  Program three = parse_program("%x = buffer 3\n%r = reduce %x op=add\n", "t.uir");
  EXPECT_TRUE(check_target(three, wrong, nullptr, {parse_opts_choice("unroll=3", "opts"), 1}));
}

// A wrong simplifier rule is named by the rule wherever its wrong decision lands: a pad's mask,
// a stack's select, a value's own comparison. Each was named by the op it reached
// ("engines-pad", "engines-stack"), one bug in as many files.
TEST_F(Planted, AWrongRuleIsNamedByTheRuleWhereverItShows) {
  const char* rule = "symbolic-compare_by_bounds";
  expect_signatures({
      Named{Plant::CompareBoundsTouching, "%x = buffer 3\n%v = pad %x pads=[1 1]\n", rule},
      Named{Plant::CompareBoundsTouching, "%a = buffer 2\n%b = buffer 2\n%v = stack %a %b\n", rule},
      Named{Plant::CompareBoundsTouching,
            "%x = buffer 4 dtype=i32\n%m = min %x 3\n%v = cmplt %m 3\n", rule},
  });
}

// A bool that C computes as neither 0 nor 1 is its op's failure wherever it goes: output as it
// is, read by a cast (whose value then left the cast's interval: "bounds-cast"), or by a where.
TEST_F(Planted, ABoolComputedAsNeitherZeroNorOneIsItsOpsFailure) {
  expect_signatures({
      Named{Plant::NotBitwise, "%t = stack true false\n%v = not %t\n", "engines-not"},
      Named{Plant::NotBitwise, "%t = stack true false\n%n = not %t\n%v = cast %n dtype=i32\n",
            "engines-not"},
      Named{Plant::NotBitwise,
            "%x = buffer 4 dtype=bool\n%n = not %x\n%c = cast %n dtype=f32\n%v = add %c 1.0\n",
            "engines-not"},
  });
  // stored, it is a byte a kernel wrote, not one no kernel wrote
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program p = parse_program("%t = stack true false\n%v = not %t\n", "t.uir");
  std::optional<Failure> f = check_engines(p, *tcc, {});
  ASSERT_TRUE(f);
  EXPECT_NE(f->detail.find("holds byte 254, not 0 or 1: a kernel computed it so"),
            std::string::npos)
      << f->detail;
}

// An op whose C is right stored and wrong inside its reader's expression (a where written
// without parentheses, so the reader's operator takes its condition or a branch as its own
// operand) is the renderer's way of writing that op, whichever reader showed it (the f32 mul,
// the compare whose bool came out as neither 0 nor 1, the reduce's fold) and whether the
// program wrote the op or the lowering did (a pad's mask, a stack's select). Each was named by
// its reader, or by the pad or stack. A wrong op that reads a where is still its own failure:
// the where's fused probes pass under it.
TEST_F(Planted, AnOpWrittenWrongIntoItsReadersIsNamedByThatOp) {
  expect_signatures({
      Named{Plant::WhereUnparenthesized,
            "%x = buffer 6 dtype=f32\n%b = cmplt %x 2.0\n%w = where %b %x 5.0\n%v = mul %w 3.0\n",
            "engines-render_where"},
      Named{Plant::WhereUnparenthesized,
            "%x = buffer 6 dtype=i32\n%b = cmplt %x 2\n%w = where %b %x 5\n%v = cmplt %w 3\n",
            "engines-render_where"},
      Named{Plant::WhereUnparenthesized,
            "%x = buffer 6 dtype=f32\n%b = cmplt %x 0.0\n%w = where %b %x 1.0\n"
            "%m = reshape %w shape=[2 3]\n%v = reduce %m op=add pop=1\n",
            "engines-render_where"},
      Named{Plant::WhereUnparenthesized,
            "%x = buffer 5 dtype=f32\n%p = pad %x pads=[1 2]\n%v = cmpne %p 0.0\n",
            "engines-render_where"},
      Named{Plant::WhereUnparenthesized,
            "%x = buffer 9 dtype=f32\n%m = reshape %x shape=[3 3]\n%z = expand 0.0 shape=[3 3]\n"
            "%s = stack %z %m %m\n%v = reduce %s op=add pop=1\n",
            "engines-render_where"},
      Named{Plant::NotBitwise, "%x = buffer 4 dtype=bool\n%n = not %x\n%v = where %n 1 2\n",
            "engines-not"},
  });
  // A where only the composite of an f32 flip has (its stack's select), compiled; it was
  // "engines-add", named by the program's other output.
  set_plant(Plant::WhereUnparenthesized);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program p = parse_program(
      "%x = buffer 25 dtype=f32\n%m = reshape %x shape=[5 5]\n%f = flip %m axes=[0]\n"
      "%v = cmpeq %f %m\n%s = reduce %m op=add pop=1\n",
      "t.uir");
  ASSERT_FALSE(check_engines(p, *tcc, {}));
  std::optional<Failure> f = check_composites(p, *tcc, true);
  ASSERT_TRUE(f);
  EXPECT_EQ(failure_signature(*f, p, *tcc), "engines-render_where") << f->detail;
}

// A pad or flip whose composite the interpreter computes otherwise than the op itself is named
// by that composite, whichever op of the program the difference reached: each was named by
// the ops of its outputs ("composites-reduce", "composites-where"), one bug in as many files.
TEST_F(Planted, ACompositeThatDiffersIsNamedByItsOp) {
  set_plant(Plant::CompositeFlipUnreversed);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  for (const char* text :
       {"%x = buffer 6\n%m = reshape %x shape=[2 3]\n%v = flip %m axes=[1]\n",
        "%x = buffer 8\n%m = reshape %x shape=[2 4]\n%f = flip %m axes=[1]\n"
        "%r = reduce %f op=add pop=1\n%v = add %r 1.0\n",
        "%x = buffer 6 dtype=bool\n%f = flip %x axes=[0]\n%v = where %f 1 2\n"}) {
    Program p = parse_program(text, "t.uir");
    ASSERT_FALSE(check_engines(p, *tcc, {})) << text;
    std::optional<Failure> f = check_composites(p, *tcc, false);
    ASSERT_TRUE(f) << text;
    EXPECT_EQ(failure_signature(*f, p, *tcc), "composites-flip") << text;
  }
}

// Ops written wrong into their readers through what their C shares (every plain binary
// operator without parentheses) are one bug, named by the first of them in the language's
// order whichever the program has (a C compile error too: a float cast of an xor): each was
// "engines-render_OP" for its own op, and a quotient read by a recip "engines-div" (no
// reader of the probes divided by it).
TEST_F(Planted, OpsWrittenWrongThroughSharedCAreNamedByTheFirst) {
  expect_signatures({
      Named{Plant::BinaryUnparenthesized,
            "%x = buffer 6 dtype=f32\n%s = sub %x 1.5\n%v = mul %s 2.0\n", "engines-render_add"},
      Named{Plant::BinaryUnparenthesized,
            "%x = buffer 6 dtype=bool\n%y = buffer 6 dtype=bool slot=1\n%a = xor %x %y\n"
            "%v = cast %a dtype=f32\n",
            "engines-render_add"},
      Named{Plant::BinaryUnparenthesized, "%x = buffer 6 dtype=f32\n%a = add %x 1.0\n%v = neg %a\n",
            "engines-render_add"},
      Named{Plant::BinaryUnparenthesized,
            "%x = buffer 1 dtype=f32 slot=1\n%d = div 0.0 %x\n%v = recip %d\n",
            "engines-render_add"},
  });
}

// A lowering that remembers a value by its node alone gets a value wrong wherever one kernel
// reads it at a second index, so each op that does named it: a pad or a neg under an upcast,
// whose lanes read at several indices, a compare of an index with its reshape, a sum beside
// its own operand, an unrolled reduce. The engine's buffer compared with its flip fails too,
// where the flip and the compare pass alone: one name for all.
TEST_F(Planted, AValueReadWrongAtASecondIndexIsReadTwice) {
  expect_signature_under(
      Plant::MemoIgnoresIndex,
      {{"%t0 = expand 0 shape=[1]\n%v = pad %t0 pads=[1 0] value=673\n", "upcast=0:2"},
       {"%t0 = buffer 30 dtype=i32 slot=0\n%v = neg %t0\n", "upcast=0:2"},
       {"%t0 = buffer 2 dtype=i32 slot=0\n%t1 = index %t0\n%t2 = reshape %t1 shape=[2 1]\n"
        "%v = cmpne %t1 %t2\n",
        "none"},
       {"%t0 = buffer 10 dtype=f32 slot=0\n%t1 = div %t0 %t0\n%t2 = reshape %t1 shape=[1 10]\n"
        "%t3 = permute %t2 order=[1 0]\n%t4 = reduce %t3 op=add pop=1\n%t5 = sub %t2 %t4\n"
        "%v = reshape %t5 shape=[10]\n",
        "none"},
       {"%t0 = buffer 3 dtype=f32 slot=0\n%v = reduce %t0 op=add pop=1\n", "unroll=3:ordered"}},
      "engines-read_twice");
}

// A wrong fold op is named by the op, not by the reduce whose fold met it: a reduce's element
// is an expression where C writes max through its helper, as it does for an elementwise max of
// a literal stack. The reduce was "engines-reduce" while the max was "engines-max".
TEST_F(Planted, AReduceWhoseFoldOpIsWrongIsTheOps) {
  expect_signatures({
      Named{Plant::MaxHelperTies, "%t = stack 0.0 -0.0\n%v = max %t 0.0\n", "engines-max"},
      Named{Plant::MaxHelperTies,
            "%t = stack 0.0 -0.0\n%r = reshape %t shape=[2 1]\n%v = reduce %r op=max pop=1\n",
            "engines-max"},
      Named{Plant::MaxHelperTies,
            "%t = stack 0.0 1.0 -0.0 2.0\n%r = reshape %t shape=[2 2]\n"
            "%v = reduce %r op=max pop=1\n",
            "engines-max"},
      // written out on staged values, loads the renderer names, the max is C's inline one; on
      // literals, the simplifier left this stack's halves as names too: "engines-reduce" before
      // the steps were also written out on computed values
      Named{Plant::MaxHelperTies,
            "%t0 = stack "
            "inf 0.0 inf inf 0.0 0.0 0.0 0.0 0.0 "
            "0.0 inf 0.0 0.0 inf inf 0.0 0.0 0.0 "
            "0.0 -0.0 0.0 0.0 0.0 0.0 -0.0 0.0 0.0 "
            "-0.0 0.0 0.0 0.0 0.0 0.0 0.0 -0.0 0.0 "
            "0.0 0.0 0.0 0.0 0.0 0.0 -0.0 0.0 0.0 "
            "0.0 0.0 0.0 0.0 0.0 0.0 -0.0 0.0 0.0 "
            "0.0 0.0 0.0 0.0 0.0 0.0 0.0 -0.0 0.0 "
            "0.0 0.0 0.0 0.0 0.0 0.0 0.0 -0.0 0.0 "
            "-0.0 0.0 -0.0 -0.0 0.0 0.0 0.0 -0.0 0.0 "
            "\n%t1 = reshape %t0 shape=[9 9]\n%v4 = reduce %t1 op=max pop=1\n",
            "engines-max"},
  });
}

// A constant folder that casts wrong is the cast's semantics wherever the folded value went:
// folded in the program itself, in an index an upcast made constant, or after other rules made
// the cast's operand a literal. These were "symbolic-fold_constants", "engines-upcast" and
// "symbolic-combine_terms", three files for one bug.
TEST_F(Planted, AWrongFoldIsTheOpsSemanticsWhereverItShows) {
  expect_signature_under(Plant::FoldCastLowBit,
                         {{"%v = cast 2 dtype=bool\n", "none"},
                          {"%t = stack -2 0\n%v = cast %t dtype=bool\n", "upcast=0:2"},
                          {"%t = stack 0 2147483647\n%m = mul %t 0\n%x = xor 134 %m\n"
                           "%v = cast %x dtype=bool\n",
                           "none"}},
                         "engines-cast");
}

// A wrong interval rule is named by the op whose interval it is, "bounds-max" as the bounds
// oracle names it, wherever something trusted it: rules that rewrote a pad's clamp away (no
// kernel computes the max), an index whose offset only scrambled data takes past the wrong
// interval. Named by the ops they reached, they were "engines-pad" and "engines-index".
TEST_F(Planted, AWrongIntervalIsNamedByItsOpWhereverItShows) {
  expect_signatures({
      Named{Plant::MaxIntervalLowerHigh,
            "%x = buffer 2 dtype=bool\n%p = pad %x pads=[1 0]\n%v = pad %p pads=[1 0]\n",
            "bounds-max"},
      Named{Plant::MaxIntervalLowerHigh,
            "%a = buffer 81 dtype=i32 slot=520\n%m = reshape %a shape=[1 9 9]\n"
            "%b = buffer 3 dtype=i32 slot=1002\n%i = index %b 2\n%c = max %i 0\n"
            "%v = index %m 0 %c\n",
            "bounds-max"},
  });
}

// A reduce's interval folds its op's interval rule over the steps, so a wrong mul rule shows
// in a product's reduce too: the bounds oracle's failure there is the rule's, as the steps
// written out as one mul show ("bounds-reduce" and "bounds-mul" were two files for one bug),
// their operands spanning the interval the reduce's rule starts from.
TEST_F(Planted, AReduceOutsideItsIntervalIsNamedByItsOpsRule) {
  set_plant(Plant::MulIntervalTwoCorners);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  for (const char* text : {"%x = stack -3 2\n%y = stack 5 -4\n%v = mul %x %y\n",
                           "%x = stack -20 0\n%v = reduce %x op=mul pop=1\n",
                           "%x = stack -2 3 5 -1\n%m = reshape %x shape=[2 2]\n"
                           "%v = reduce %m op=mul pop=1\n",
                           // The values (0 and 0) are narrower than their interval ([-1, 1]),
                           // which is what the reduce's rule multiplies.
                           "%x = stack 0 1\n%d = sub %x %x\n%v = reduce %d op=mul pop=1\n"}) {
    Program p = parse_program(text, "t.uir");
    std::optional<Failure> f = check_bounds(p);
    ASSERT_TRUE(f) << text;
    EXPECT_EQ(failure_signature(*f, p, *tcc), "bounds-mul") << text;
  }
}

// An internal error is named by the pass that raised it, whichever op reached it: a rewrite
// that leaves a loop unclosed broke the linearizer's invariant for a reduce and a stack alike,
// which were engines-reduce and engines-stack.
TEST(FailureSignature, AnInternalErrorIsNamedByThePassThatRaisedIt) {
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  for (const char* text : {"%t = stack 0 0\n%v = reduce %t op=mul pop=1\n",
                           "%x = buffer 2 dtype=i32\n%v = stack %x %x\n"}) {
    Program p = parse_program(text, "t.uir");
    Failure f{"engines", "threw: linearize: range 0 is never closed by an end", text};
    EXPECT_EQ(failure_signature(f, p, *tcc), "engines-threw-linearize") << text;
    f.detail = "threw: vector::_M_range_check: __n (which is 1) >= this->size() (which is 1)";
    EXPECT_EQ(failure_signature(f, p, *tcc), "engines-threw-vector") << text;
    // the interpreter refusing an index is the reference refusing its input, which a wrong
    // interval let through (Planted.AWrongIntervalIsNamedByItsOpWhereverItShows)
    f.detail = "threw: interp: index reads [9, 10) of an axis of 9";
    EXPECT_NE(failure_signature(f, p, *tcc), "engines-threw-interp") << text;
  }
}

// What the compiled composites' checks find is the ub oracle's finding, named by the operator
// ("ub-division"), not a composites failure that "threw" (named by the render decision).
TEST_F(Planted, AnOverflowInTheCompiledCompositesIsTheUbOracles) {
  set_plant(Plant::FloordivTruncates);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program p = parse_program(
      "%x = buffer 4 dtype=i32\n%a = sub %x 3\n%q = idiv %a 2\n%v = flip %q axes=[0]\n", "t.uir");
  std::optional<Failure> f = check_composites(p, *tcc, true);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->oracle, "ub") << f->detail;
  EXPECT_EQ(failure_signature(*f, p, *tcc), "ub-division") << f->detail;
}

// An op that goes wrong only on values no probe holds (a cast of a NaN, or past i32) is named
// by the op, tried alone on the values its source had, with the default inputs or the
// scrambled ones: it was named by whatever made those values, "engines-add" or
// "engines-reduce".
std::string repeated(const std::string& s, int times) {
  std::string out;
  for (int k = 0; k < times; ++k) out += s;
  return out;
}

TEST_F(Planted, AnOpWrongOnlyOnItsOwnValuesIsNamedByIt) {
  expect_signatures({
      Named{Plant::CastF32Unsaturated,
            "%x = buffer 1 dtype=f32\n%a = add %x 3e9\n%v = cast %a dtype=i32\n", "engines-cast"},
      Named{Plant::CastF32Unsaturated,
            "%x = expand inf shape=[2 1 1]\n%r = reduce %x op=min pop=3\n%v = cast %r dtype=i32\n",
            "engines-cast"},
      // a max folded in another order, which only NaNs show: the sqrt's of the scrambled
      // inputs, which the default data (positive) never makes; it was engines-sqrt
      Named{Plant::ReduceColumnMajor,
            "%t0 = buffer 30 dtype=f32 slot=0\n%t1 = reshape %t0 shape=[3 2 5]\n"
            "%t2 = sqrt %t1\n%v4 = reduce %t2 op=max pop=2\n",
            "engines-reduce"},
      // a reduce read at two indices, whose two copies share one accumulator, on scrambled
      // inputs: the reduce alone on its own values, read twice; it was engines-permute
      Named{Plant::UnrollSharedAccumulator,
            "%t0 = buffer 144 dtype=i32 slot=0\n%t1 = reshape %t0 shape=[3 48]\n"
            "%t2 = permute %t1 order=[1 0]\n%t3 = reduce %t2 op=max pop=1\n"
            "%t4 = flip %t3 axes=[0]\n%v8 = or %t4 %t3\n",
            "engines-reduce"},
      // a max whose C helper keeps its first operand on a tie, which C uses only on an
      // operand it computes (on a load it writes the max inline): the max alone on its
      // operand's own values, loaded, does not fail; they were engines-neg, -pad and -min
      Named{Plant::MaxHelperTies,
            "%t0 = buffer 100 dtype=f32 slot=0\n%t1 = reshape %t0 shape=[10 5 2]\n"
            "%t2 = neg %t1\n%v5 = max %t2 0.0\n",
            "engines-max"},
      Named{Plant::MaxHelperTies,
            "%t0 = stack " + repeated("0.0 ", 18) + repeated("-1.5 ", 9) + repeated("0.0 ", 54) +
                "\n%t1 = reshape %t0 shape=[9 9]\n%t2 = pad %t1 pads=[1 0 0 1] value=-0.0\n"
                "%v7 = max %t2 0.0\n",
            "engines-max"},
      Named{Plant::MaxHelperTies,
            "%t0 = stack " +
                [] {
                  std::string s;
                  for (const char* v : {"1e-40", "-1e-45", "1.0", "2147483648.0", "-2147483648.0",
                                        "-1.5", "-0.0", "0.0", "nan"})
                    s += repeated(std::string(v) + " ", 9);
                  return s;
                }() +
                "\n%t1 = reshape %t0 shape=[9 9]\n%t2 = stack " +
                repeated("0.0 1e-40 -1e-45 1.0 2147483648.0 -2147483648.0 -1.5 -0.0 0.0 ", 9) +
                "\n%t3 = reshape %t2 shape=[9 9]\n%t4 = min %t1 %t3\n%v12 = max %t4 0.0\n",
            "engines-max"},
  });
}

// Under `plant`, each program fails the round trip with a detail that begins `detail` and is
// named `signature`.
void expect_roundtrip_named(Plant plant, std::initializer_list<const char*> texts,
                            const std::string& detail, const std::string& signature) {
  set_plant(plant);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  for (const char* text : texts) {
    Program p = parse_program(text, "t.uir");
    std::optional<Failure> f = check_roundtrip(p);
    ASSERT_TRUE(f) << text;
    EXPECT_EQ(f->detail.rfind(detail, 0), 0u) << f->detail;
    EXPECT_EQ(failure_signature(*f, p, *tcc), signature) << text;
  }
}

// A literal the printer loses is named at once, on the program itself, by the literal:
// "roundtrip-const", whichever op holds it (a pad's fill included).
TEST_F(Planted, ALiteralThePrinterLosesIsNamedByIt) {
  expect_roundtrip_named(Plant::PrintF32Short,
                         {"%v = stack 0.33333334 1.5\n",
                          "%x = buffer 2\n%v = pad %x pads=[1 0] value=3.4028235e+38\n"},
                         "literal: the f32 literal (bits 0x", "roundtrip-const");
}

// A field the printer leaves out (a bool pad's fill) is named at once, on the program itself, by
// the op whose node alone does not print back to itself: "roundtrip-pad", whatever reads the pad
// and however large the program. Each was named by the ops of the outputs, as many files as
// programs (527 in a 20 s campaign).
TEST_F(Planted, AFieldThePrinterLosesIsNamedByItsOp) {
  expect_roundtrip_named(
      Plant::PrintBoolPadFill,
      {"%x = buffer 4 dtype=bool\n%v = pad %x pads=[1 2] value=true\n",
       "%x = buffer 6 dtype=bool\n%m = reshape %x shape=[2 3]\n"
       "%p = pad %m pads=[0 1 1 0] value=true\n%r = reduce %p op=max pop=1\n%v = not %r\n",
       "%x = buffer 3 dtype=i32\n%b = cmplt %x 1\n%p = pad %b pads=[2 0] value=true\n"
       "%s = shrink %p 1 shape=[3]\n%v = where %s %x 7\n"},
      "node: pad bool[", "roundtrip-pad");
}

// A printer that inlines a broadcast literal where the parser does not broadcast it back (an
// operand of a stack, beside a value of its shape) changes whichever program has such a stack:
// each was named by the op whose node alone failed, or where localizing stopped (27 signatures
// in a 20 s campaign). The program prints back with every literal as a statement of its own,
// so it is the printer's choice of literal operands, once.
TEST_F(Planted, LiteralsThePrinterShouldNotInlineAreNamedOnce) {
  expect_roundtrip_named(
      Plant::LiteralOperandAnyOp,
      {"%x = buffer 4\n%a = expand 1.5 shape=[4]\n%s = stack %x %a\n",
       "%x = buffer 6 dtype=i32\n%m = reshape %x shape=[2 3]\n%a = expand 3 shape=[2 3]\n"
       "%s = stack %a %m\n%r = reduce %s op=add\n",
       "%x = buffer 3 dtype=bool\n%t = expand true shape=[3]\n%s = stack %x %t %x\n"
       "%r = reduce %s op=max\n%n = not %r\n"},
      "literal operands: ", "roundtrip-literal_operands");
  set_plant(Plant::None);
  Program p = parse_program("%x = buffer 4\n%y = max %x 0.0\n", "t.uir");
  EXPECT_NE(print_program(p).find("max %x 0.0"), std::string::npos) << print_program(p);
  std::string plain = print_program(p, {.literal_operands = false});
  EXPECT_EQ(plain.find("max %x 0.0"), std::string::npos) << plain;
  EXPECT_TRUE(same_graph(p, parse_program(plain, "plain.uir"))) << plain;
}

}  // namespace
}  // namespace uopc

// The minimizer brings a large program that trips a planted bug down to at most six statements
// that still trip it, for every planted bug.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include "fuzz/campaign.h"
#include "fuzz/reduce.h"
#include "fuzz/signature.h"
#include "ir/parse.h"
#include "ir/plant.h"
#include "ir/print.h"
#include "tests/support/run.h"

namespace uopc {

void PrintTo(const PlantInfo& p, std::ostream* os);

namespace {

class ReduceBug : public ::testing::TestWithParam<PlantInfo> {
 protected:
  void TearDown() override { set_plant(Plant::None); }
};

struct Large {
  std::string text, oracle;
  EngineConfig config;
};

// The first program of at least 12 statements that the planted bug makes fail, run as a
// campaign would run it.
std::optional<Large> large_failure(Backend& backend) {
  GenOptions gen;
  gen.max_statements = 30;
  for (uint64_t seed = 1; seed < 20000; ++seed) {
    RandomChoices c(seed);
    Program p = generate(c, gen);
    if (count_statements(print_program(p)) < 12) continue;
    if (planted(Plant::SkipStaticChecks)) {
      Broken b = break_one_rule(c, p);
      if (auto f = check_rejected(b.text, b.rule)) return Large{b.text, f->oracle, {}};
      continue;
    }
    EngineConfig config = draw_engine_config(c, p);
    if (auto f = check_program(p, backend, true, config))
      return Large{f->program, f->oracle, config};
  }
  return std::nullopt;
}

// The reducer's candidates are printed programs, so a printer that loses a literal loses the
// failure in every one of them, the program it started from included.
constexpr const char* kPrinterBug =
    "a printer that loses a literal or a field loses the failure in every printed candidate; "
    "the roundtrip oracle names the literal or the node and its reproducer replays by seed "
    "(FuzzCli.ALostLiteralIsOneFileThatReplaysBySeed, "
    "FuzzCli.ALostFieldIsOneFileThatReplaysBySeed)";

// The plants under which the printer loses what it prints.
bool loses_text(Plant plant) {
  return plant == Plant::PrintF32Short || plant == Plant::PrintBoolPadFill;
}

constexpr const char* kKillsProcess =
    "a kernel that kills its process kills this one too; uopc reduce shrinks such a program "
    "through uopc run, each candidate in a process of its own "
    "(ReduceCli.ACrashingCaseReducesThroughUopcRun)";

TEST_P(ReduceBug, ToAtMostSixStatements) {
  if (GetParam().plant == Plant::DivDivUnchecked || GetParam().plant == Plant::DivmodSplitUnchecked)
    GTEST_SKIP() << "a wrong side condition of the simplifier shows on indices with extreme "
                    "bounds or divisors, which generated programs do not build; the symbolic "
                    "oracle finds it and prints the expression with a counterexample instead "
                    "(tests/fuzz/drivers_test.cpp)";
  if (loses_text(GetParam().plant)) GTEST_SKIP() << kPrinterBug;
  if (kills_process(GetParam().plant)) GTEST_SKIP() << kKillsProcess;
  set_plant(GetParam().plant);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  auto found = large_failure(*tcc);
  ASSERT_TRUE(found) << "no large failing program";
  const auto& [text, oracle, config] = *found;
  std::string signature;
  if (oracle != "rejection") {
    Program large = parse_program(text, "large.uir");
    std::optional<Failure> f = failure_in_family(oracle_family(oracle), large, *tcc, config);
    ASSERT_TRUE(f) << oracle << " does not fail again:\n" << text;
    signature = failure_signature(*f, large, *tcc, config);
  }
  Interesting still_fails = fails_oracle(oracle, *tcc, signature, config);
  ASSERT_TRUE(still_fails(text)) << oracle << "\n" << text;
  Reduced r = oracle == "rejection" ? reduce_lines(text, still_fails)
                                    : reduce_program(parse_program(text, "large.uir"), still_fails);
  EXPECT_LE(r.statements, 6) << "from " << count_statements(text) << " statements:\n" << r.text;
  EXPECT_TRUE(still_fails(r.text)) << r.text;
  std::printf("%s: %s %s %s, %d statements reduced to %d (%d candidates)\n%s",
              std::string(GetParam().name).c_str(), oracle.c_str(), signature.c_str(),
              config.flags().c_str(), count_statements(text), r.statements, r.candidates_tried,
              r.text.c_str());
}

struct ReducedUnder {
  std::string signature;
  Reduced reduced;
};

// `text`, which `plant` makes fail, reduced keeping its signature; with `keep_ops`, also the
// ops the signature names, as `uopc reduce` and campaigns do.
ReducedUnder reduce_under(Plant plant, const std::string& text, bool keep_ops = false,
                          Probes probes = Probes::No) {
  set_plant(plant);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program p = parse_program(text, "t.uir");
  std::optional<Failure> f = check_program(p, *tcc, true);
  if (!f) {
    set_plant(Plant::None);
    ADD_FAILURE() << "does not fail:\n" << text;
    return {};
  }
  std::string signature = failure_signature(*f, p, *tcc);
  Reduced r = reduce_program(
      p, fails_oracle(f->oracle, *tcc, signature, {}, keep_ops ? &p : nullptr), {}, probes);
  set_plant(Plant::None);
  return {signature, r};
}

// Large shapes come down too: every size shrinks wherever the graph stays well typed.
// The reducer asks about each text once: most candidates come again after each step it takes,
// and against an external engine each question is a run of it. Its answer is as before.
TEST(Reduce, EachCandidateIsJudgedOnce) {
  const std::string text =
      "%x = buffer 12 dtype=i32 slot=0\n%r = reshape %x shape=[3 4]\n%p = permute %r order=[1 0]\n"
      "%f = flip %p axes=[0]\n%n = neg %f\n%m = max %n 2\n%v = reshape %m shape=[12]\n";
  std::map<std::string, int> asked;
  Interesting has_flip = [&](const std::string& candidate) {
    ++asked[candidate];
    return candidate.find(" flip ") != std::string::npos;
  };
  Reduced r = reduce_program(parse_program(text, "t.uir"), has_flip);
  EXPECT_LE(r.statements, 2) << r.text;
  for (const auto& [candidate, times] : asked) EXPECT_EQ(times, 1) << candidate;
  asked.clear();
  Reduced lines = reduce_lines(text, has_flip);
  EXPECT_EQ(lines.statements, 1) << lines.text;
  for (const auto& [candidate, times] : asked) EXPECT_EQ(times, 1) << candidate;
}

TEST(Reduce, ShrinksShapes) {
  auto [signature, r] = reduce_under(Plant::PermuteInverse,
                                     "%x = buffer 240 dtype=i32\n%r = reshape %x shape=[4 5 12]\n"
                                     "%p = permute %r order=[1 2 0]\n%y = add %p 1\n");
  EXPECT_EQ(signature, "engines-permute");
  int64_t elements = 0;
  Program small = parse_program(r.text, "small.uir");
  for (const UOp* n : topo_order(small.roots())) elements += n->numel();
  EXPECT_LE(r.statements, 3) << r.text;
  EXPECT_LE(elements, 3 * 12) << r.text;
}

// Two operands reshaped alike and combined elementwise are computed in their own shape and
// reshaped once, and a reduce over a size-1 axis reads through the reshape: the extra axis a
// hand-written test adds for a broadcast goes, with the statements that made it.
TEST(Reduce, ReshapesOfOperandsGoTogether) {
  // As `uopc reduce` and campaigns shrink it: the mul the signature names stays.
  auto [signature, r] = reduce_under(
      Plant::MulIntervalTwoCorners,
      "%t0 = stack 0 0 0 -6 0 0 0 0 0 -6 0 0 0 0 0 0\n%t1 = reshape %t0 shape=[1 4 4]\n"
      "%t2 = buffer 16 dtype=i32 slot=0\n%t3 = reshape %t2 shape=[1 4 4]\n%t4 = mul %t1 %t3\n"
      "%t5 = reduce %t4 op=max pop=1\n%t6 = flip %t5 axes=[0]\n",
      true);
  EXPECT_EQ(signature, "bounds-mul");
  EXPECT_LE(r.statements, 4) << r.text;
}

// A wrong interval rule or division decision that a program meets only in the index arithmetic
// of its movement ops (no statement of it can go) shows on literal operands of the op itself, in
// a probe of two or three statements with the same signature; the probe is what is kept.
TEST(Reduce, ACauseMetInIndexArithmeticIsShownOnLiterals) {
  auto [division, d] = reduce_under(Plant::FloordivTruncates,
                                    "%t0 = buffer 4 dtype=i32 slot=513\n"
                                    "%t1 = reshape %t0 shape=[2 2 1 1]\n"
                                    "%t2 = permute %t1 order=[1 2 0 3]\n"
                                    "%t3 = reshape %t2 shape=[4]\n%v = flip %t3 axes=[0]\n",
                                    true, Probes::Yes);
  EXPECT_EQ(division, "ub-division");
  EXPECT_LE(d.statements, 3) << d.text;
  std::string chain = "%t0 = buffer 8 dtype=i32 slot=3\n%t1 = mul %t0 1000\n";
  std::string at = "%t1";
  for (int k = 0; k < 3; ++k) {  // the shrink, stack and reshape steps of a sorting network
    std::string v = "%v" + std::to_string(k);
    chain += v + "r = reshape " + at + " shape=[4 2 1]\n" + v + "a = shrink " + v +
             "r 0 0 0 shape=[4 1 1]\n" + v + "s = stack " + v + "a " + v + "a\n" + v +
             " = reshape " + v + "s shape=[8]\n";
    at = v;
  }
  chain += "%out = flip " + at + " axes=[0]\n";
  auto [interval, m] = reduce_under(Plant::MulIntervalTwoCorners, chain, true, Probes::Yes);
  EXPECT_EQ(interval, "bounds-mul");
  EXPECT_LE(m.statements, 3) << m.text;
  EXPECT_NE(m.text.find("mul"), std::string::npos) << m.text;
}

// A reduce read at two places through a pad and a shrink is read at one of them directly: a
// statement is bypassed by a source of its source of the same type. (Not down to four: without
// kernel options, copies of a reduce that share an accumulator need one kernel that reads the
// reduce at two indices, which takes five statements at least: a rank-2 source in two, the
// reduce, a flip or shift of it, and an op that reads both. The reducer drops options and
// never adds them; under upcast three statements show it, and campaigns find those.)
const char* const kReduceReadAtTwoPlaces =
    "%t0 = buffer 512 dtype=i32 slot=544\n%t1 = reshape %t0 shape=[8 8 8]\n"
    "%t2 = reduce %t1 op=add pop=1\n%t3 = pad %t2 pads=[1 1 1 1]\n"
    "%t4 = shrink %t3 0 0 shape=[8 8]\n%t5 = shrink %t3 0 1 shape=[8 8]\n"
    "%t6 = stack %t4 %t5\n%v = reduce %t6 op=add pop=1\n";

TEST(Reduce, AStatementIsBypassedByTheSourceOfItsSource) {
  auto [signature, r] = reduce_under(Plant::UnrollSharedAccumulator, kReduceReadAtTwoPlaces);
  EXPECT_EQ(signature, "engines-reduce");
  EXPECT_LE(r.statements, 7) << r.text;
}

// Where no statement can go, the value the failure needs may still be read at two indices by
// a flip (fuzz/probes.h) in fewer statements than the pad, shrinks and stack that read it at
// two places: the five the bug needs without options.
TEST(Reduce, AValueReadAtTwoPlacesIsReadByAFlip) {
  auto [signature, r] =
      reduce_under(Plant::UnrollSharedAccumulator, kReduceReadAtTwoPlaces, false, Probes::Yes);
  EXPECT_EQ(signature, "engines-reduce");
  EXPECT_LE(r.statements, 5) << r.text;
  EXPECT_NE(r.text.find("flip"), std::string::npos) << r.text;
}

// An offset read from a buffer fails only on the scrambled data a large, unrelated buffer
// brings (interp/tensor.h); as a literal it fails alone, and the large buffer goes.
TEST(Reduce, AScalarReadFromABufferBecomesALiteral) {
  Reduced r = reduce_under(Plant::ShrinkOffsetSign,
                           "%t0 = buffer 2 dtype=bool slot=5\n%t1 = reshape %t0 shape=[2 1]\n"
                           "%t2 = buffer 3 dtype=i32 slot=7\n%t3 = index %t2 2\n%t4 = mod %t3 2\n"
                           "%v = shrink %t1 %t4 0 shape=[1 1]\n%big = buffer 24 dtype=i32 slot=2\n")
                  .reduced;
  EXPECT_LE(r.statements, 3) << r.text;
  EXPECT_EQ(r.text.find("buffer 24"), std::string::npos) << r.text;
}

// A reproducer reads as a person would write it: an assert that became its operand is named
// as that operand, not as an assert, the fresh names count up from %t0, and the buffers the
// reducer brought in take the smallest free slots.
TEST(Reduce, AReproducerHasPlainNamesAndSlots) {
  std::string pool =
      "%img = buffer 24 dtype=f32 slot=0\n%x = reshape %img shape=[4 6]\n"
      "%b = reshape %x shape=[2 2 3 2]\n%p = permute %b order=[1 3 0 2]\n"
      "%q = reshape %p shape=[4 2 3]\n%m = reduce %q op=max pop=1\n"
      "%want = stack 1.0 2.25 1.25 2.75 1.75 1.5\n%want2 = reshape %want shape=[2 3]\n"
      "%ok = assert %m %want2\n";
  for (Plant plant : {Plant::PermuteInverse, Plant::ReshapeColumnMajor}) {
    Reduced r = reduce_under(plant, pool, false, Probes::Yes).reduced;
    EXPECT_LE(r.statements, 3) << r.text;
    Program small = parse_program(r.text, "small.uir");
    std::vector<std::string> fresh;
    for (const Statement& s : small.statements) {
      EXPECT_TRUE(s.node->op == Op::Assert || s.name.rfind("%ok", 0) != 0) << r.text;
      if (s.name.rfind("%t", 0) == 0) fresh.push_back(s.name);
      if (s.node->op == Op::Buffer) {
        EXPECT_LT(s.node->slot(), 8) << r.text;
      }
    }
    for (size_t k = 0; k < fresh.size(); ++k) EXPECT_EQ(fresh[k], "%t" + std::to_string(k));
  }
}

// Hand-written programs, as the course writes them (values checked by asserts against
// literals): every acceptance case that a planted bug makes fail reduces, under that bug, to
// at most four statements that still fail the same way, whose signature names only ops they
// contain.
class ReduceCases : public ::testing::TestWithParam<PlantInfo> {
 protected:
  void TearDown() override { set_plant(Plant::None); }
};

TEST_P(ReduceCases, EveryFailingCaseToAtMostFourStatements) {
  if (loses_text(GetParam().plant)) GTEST_SKIP() << kPrinterBug;
  if (kills_process(GetParam().plant)) GTEST_SKIP() << kKillsProcess;
  set_plant(GetParam().plant);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  int failing = 0, unread = 0;
  for (const auto& e : std::filesystem::directory_iterator(UOPC_CASES_DIR)) {
    std::string name = e.path().filename().string();
    if (e.path().extension() != ".uir" || name.rfind("err_", 0) == 0) continue;
    std::string text = testing::read_file(e.path().string());
    Program p;
    try {
      p = parse_program(text, name);
    } catch (const std::logic_error&) {
      // A plant in what the type rules compute (the interval of a reduce over nothing reads
      // the identity) stops the file being read: uopc exits 3 naming the internal error, and
      // there is no program to reduce.
      ++unread;
      continue;
    }
    std::optional<Failure> f = check_program(p, *tcc, true);
    if (!f) continue;
    ++failing;
    std::string signature = failure_signature(*f, p, *tcc);
    Interesting still_fails = fails_oracle(f->oracle, *tcc, signature);
    Reduced r = reduce_program(p, still_fails, {}, Probes::Yes);  // as uopc reduce does
    EXPECT_LE(r.statements, 4) << name << " (" << signature << ") reduced to:\n" << r.text;
    EXPECT_TRUE(still_fails(r.text)) << name << ":\n" << r.text;
    Program small = parse_program(r.text, "small.uir");
    std::set<Op> has;
    for (const UOp* n : topo_order(small.roots())) has.insert(n->op);
    // An interval signature names the op whose interval rule is wrong, which the lowering may
    // make itself (a pad's clamp is a max), so its reproducer need not have it.
    bool interval = signature.rfind("bounds-", 0) == 0;
    for (Op op : signature_ops(signature))
      EXPECT_TRUE(interval || has.count(op)) << name << ": " << signature << " names "
                                             << op_name(op) << ", which its reproducer lacks:\n"
                                             << r.text;
    for (const std::string& fewer : single_removals(r.text))
      EXPECT_FALSE(still_fails(fewer)) << name << " is not 1-minimal:\n" << r.text;
  }
  std::printf("%s: %d failing cases reduced, %d not read\n", std::string(GetParam().name).c_str(),
              failing, unread);
}

INSTANTIATE_TEST_SUITE_P(All, ReduceCases, ::testing::ValuesIn(plant_list()),
                         [](const auto& info) { return std::string(info.param.name); });

INSTANTIATE_TEST_SUITE_P(All, ReduceBug, ::testing::ValuesIn(plant_list()),
                         [](const auto& info) { return std::string(info.param.name); });

// A wrong interval lets through programs the harness's own probes cannot compute (a node's
// value as literals, when the interpreter cannot give it); shrinking goes on past them.
TEST(Reduce, ProbesTheInterpreterCannotComputeAreSkipped) {
  set_plant(Plant::MaxIntervalLowerHigh);
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  Program p = parse_program(
      "%x = buffer 16 dtype=bool slot=0\n%r = reshape %x shape=[2 2 4]\n"
      "%p = pad %r pads=[0 0 0 2 0 0]\n%f = reshape %p shape=[32]\n%g = reshape %f shape=[2 4 4]\n"
      "%b = buffer 4 dtype=i32 slot=3\n%i = index %b 2\n%m = max %i 0\n%o = min %m 1\n"
      "%s = shrink %r 0 %o 0 shape=[2 1 4]\n%a = assert %p %g\n%v = flip %s axes=[0 1]\n",
      "t.uir");
  EngineConfig config{parse_opts_choice("upcast=1:2,3:3 block=4", "t"), 3};
  std::optional<Failure> f = check_program(p, *tcc, true, config);
  ASSERT_TRUE(f);
  std::string signature = failure_signature(*f, p, *tcc, config);
  Minimized m = minimize(p, config, [&](const EngineConfig& c) {
    return fails_oracle(f->oracle, *tcc, signature, c, &p);
  });
  set_plant(Plant::None);
  EXPECT_EQ(signature, "bounds-max");
  EXPECT_LE(m.reduced.statements, 4) << m.reduced.text;
}

}  // namespace
}  // namespace uopc

// Proofs, by z3 (fuzz/smt.h), that the compiler's integer reasoning is sound:
//
//   rules      every rewrite of every rule in symbolic_rules() keeps the value of its input as
//              a 32-bit value, for all values of the variables within their bounds (the bounds
//              are the only assumption, and the ones the rule itself saw);
//   intervals  every interval transfer function (ir/interval.h, through the node builder that
//              uses them) contains the true result of its op on any values in its inputs;
//   renderer   every "plain C is fine" decision of compiler/c_arith.h is right: no overflow,
//              and C's / and % equal the floor division and modulo.
//
// Instances come from catalogues of bounds and constants that straddle each side condition:
// constants around 0, ±1 and powers of two, intervals across zero, touching each other and
// near INT32_MIN and INT32_MAX. The rule table is keyed by rule name, and the test walks the
// rule set itself, so a rule added to compiler/symbolic.cpp without an entry here fails.
#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "compiler/c_arith.h"
#include "compiler/symbolic.h"
#include "fuzz/smt.h"
#include "ir/build.h"
#include "ir/error.h"
#include "ir/loop.h"
#include "ir/plant.h"

namespace uopc {

// Test names and messages show the op's name.
void PrintTo(const Op& o, std::ostream* os) {
  *os << op_name(o);
}

namespace {

constexpr int64_t kMin = INT32_MIN, kMax = INT32_MAX;

UOpRef c(int64_t v) {
  return literal(Scalar::of_i32(static_cast<int32_t>(v)));
}
UOpRef op(Op o, const UOpRef& a, const UOpRef& b) {
  return alu(o, {a, b});
}

// Intervals that straddle the boundaries the rules and decisions test.
const std::vector<Interval>& intervals() {
  static const std::vector<Interval> v = {{0, 0},
                                          {0, 1},
                                          {0, 3},
                                          {1, 4},
                                          {0, 15},
                                          {4, 7},
                                          {-1, 0},
                                          {-1, 1},
                                          {-4, 3},
                                          {-8, -1},
                                          {-16, -9},
                                          {-100, 100},
                                          {0, 255},
                                          {kMin, kMin + 3},
                                          {kMax - 3, kMax},
                                          {kMin, -1},
                                          {0, kMax},
                                          {kMin, kMax},
                                          {-(1 << 30), 1 << 30},
                                          {1 << 30, (1 << 30) + 7},
                                          {kMin + 1, 0},
                                          {46340, 46341},
                                          {65535, 65537}};
  return v;
}

// Constants around 0, ±1, powers of two and the extremes.
const std::vector<int64_t>& constants() {
  static const std::vector<int64_t> v = {0,  1,  -1, 2,    -2,   3,        4,
                                         -3, 7,  8,  12,   16,   1 << 16,  1 << 30,
                                         -4, 24, 6,  kMax, kMin, kMax - 1, kMin + 1};
  return v;
}

// Divisors for the div/mod rules: the side conditions test c > 0, c == 1, c >= 2, a*b in
// range and divisibility.
const std::vector<int64_t>& divisors() {
  static const std::vector<int64_t> v = {1, 2, 3, 4, 6, 8, 12, 0, -1, -2, 1 << 16, 1 << 30, kMax};
  return v;
}

struct Pool {
  std::vector<UOpRef> vars, consts, sums, divmods, bools;
};

// The operands instances are built from; ids keep variables of equal bounds apart.
const Pool& pool() {
  static const Pool p = [] {
    Pool p;
    int64_t id = 0;
    for (const Interval& b : intervals()) p.vars.push_back(var(id++, b));
    for (int64_t k : constants()) p.consts.push_back(c(k));
    // By their place in intervals(): [0, 3], [-8, -1], [-100, 100], all of i32, [-4, 3],
    // [INT32_MIN, INT32_MIN + 3] and [INT32_MAX - 3, INT32_MAX].
    const UOpRef &small = p.vars[2], &neg = p.vars[9], &wide = p.vars[11], &any = p.vars[17];
    const UOpRef &across = p.vars[8], &low = p.vars[13], &high = p.vars[14];
    UOpRef other = var(id++, {0, 3}), other_neg = var(id++, {-3, 2});
    // a*c + b + k with multiples and non-multiples of small divisors, of both signs
    for (int64_t k : {4, -4, 6, 3, -8, 1 << 29}) {
      for (const UOpRef& a : {small, neg, across, wide, low, high}) {
        p.sums.push_back(op(Op::Add, op(Op::Mul, a, c(k)), other));
        p.sums.push_back(op(Op::Add, op(Op::Mul, a, c(k)), c(k / 2 + 1)));
        p.sums.push_back(op(Op::Sub, op(Op::Mul, a, c(k)), other_neg));
      }
    }
    p.sums.push_back(op(Op::Add, op(Op::Add, op(Op::Mul, small, c(16)), op(Op::Mul, other, c(4))),
                        var(id++, {0, 3})));
    // Sums that fit although the part left after taking out a divisor's multiples does not:
    // 4a + b + d with 4a cancelling most of b + d, and the same mirrored.
    for (int64_t sign : {1, -1}) {
      UOpRef a =
          var(id++, sign > 0 ? Interval{-(1 << 30), -(1 << 29)} : Interval{1 << 29, (1 << 30) - 1});
      Interval big = sign > 0 ? Interval{1 << 30, kMax} : Interval{kMin, -(1 << 30)};
      UOpRef b = var(id++, big), d = var(id++, big);
      p.sums.push_back(op(Op::Add, op(Op::Add, op(Op::Mul, a, c(4)), b), d));
      p.sums.push_back(
          op(Op::Add, op(Op::Add, op(Op::Mul, a, c(4)), op(Op::Mul, b, c(3))), c(sign)));
    }
    p.sums.push_back(op(Op::Sub, any, any));
    p.sums.push_back(op(Op::Add, any, c(1)));
    p.sums.push_back(alu(Op::Neg, {across}));
    p.sums.push_back(op(Op::Mul, op(Op::Add, small, other), c(3)));
    p.sums.push_back(op(Op::Mul, across, other_neg));
    for (const UOpRef& a : {small, neg, wide, across, any}) {
      for (int64_t d : {2, 3, 4}) {
        p.divmods.push_back(op(Op::Idiv, a, c(d)));
        p.divmods.push_back(op(Op::Mod, a, c(d)));
      }
    }
    for (const UOpRef& a : {small, across, low})
      for (const UOpRef& b : {other, other_neg, high}) p.bools.push_back(op(Op::Cmplt, a, b));
    p.bools.push_back(literal(Scalar::of_bool(true)));
    p.bools.push_back(literal(Scalar::of_bool(false)));
    return p;
  }();
  return p;
}

std::vector<UOpRef> cat(std::initializer_list<std::vector<UOpRef>> parts) {
  std::vector<UOpRef> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// Every pair op(a, b) that the builder accepts.
std::vector<UOpRef> pairs(Op o, const std::vector<UOpRef>& as, const std::vector<UOpRef>& bs) {
  std::vector<UOpRef> out;
  for (const UOpRef& a : as)
    for (const UOpRef& b : bs) out.push_back(op(o, a, b));
  return out;
}

const std::vector<float>& floats() {
  static const std::vector<float> v = {0.0f,  -0.0f,    1.0f,      -1.0f, 0.1f,        3.0f,
                                       1e30f, -1e-40f,  1e-45f,    2.5f,  16777217.0f, 3e9f,
                                       -3e9f, INFINITY, -INFINITY, NAN};
  return v;
}

std::vector<UOpRef> constants_of(DType d) {
  std::vector<UOpRef> out;
  if (d == DType::Bool) return {literal(Scalar::of_bool(false)), literal(Scalar::of_bool(true))};
  if (d == DType::F32) {
    for (float f : floats()) out.push_back(literal(Scalar::of_f32(f)));
    return out;
  }
  for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{3}, int64_t{-7}, int64_t{8}, kMax,
                    kMin, int64_t{1 << 30}})
    out.push_back(c(k));
  return out;
}

// op on constants of every dtype it takes: what fold_constants may fold.
std::vector<UOpRef> constant_instances(Op o) {
  std::vector<UOpRef> out;
  for (DType d : {DType::Bool, DType::I32, DType::F32}) {
    std::vector<UOpRef> k = constants_of(d);
    auto keep = [&](const std::function<UOpRef()>& make) {
      try {
        out.push_back(make());
      } catch (const TypeError&) {
        // an op that does not take this dtype
      }
    };
    for (const UOpRef& a : k) {
      if (o == Op::Cast) {
        for (DType to : {DType::Bool, DType::I32, DType::F32}) keep([&] { return cast(a, to); });
        continue;
      }
      if (op_arity(o) == 1) keep([&] { return alu(o, {a}); });
      if (op_arity(o) == 2)
        for (const UOpRef& b : k) keep([&] { return alu(o, {a, b}); });
      if (op_arity(o) == 3)
        for (const UOpRef& b : k)
          for (bool cond : {false, true})
            keep([&] { return alu(o, {literal(Scalar::of_bool(cond)), a, b}); });
    }
  }
  return out;
}

using Instances = std::function<std::vector<UOpRef>(Op)>;

// op on every pair of variables and constants, and of booleans: the rules decided by bounds.
std::vector<UOpRef> every_pair(Op o) {
  const Pool& p = pool();
  std::vector<UOpRef> out = pairs(o, cat({p.vars, p.consts}), cat({p.vars, p.consts}));
  for (const UOpRef& m : pairs(o, p.bools, p.bools)) out.push_back(m);
  return out;
}

// (x o a) o b over the divisor catalogue, for div_div and mod_mod.
std::vector<UOpRef> nested(Op o) {
  std::vector<UOpRef> out;
  for (const UOpRef& x : {pool().vars[8], pool().vars[13], pool().vars[17]})
    for (int64_t a : divisors())
      for (int64_t b : divisors()) out.push_back(op(o, op(o, x, c(a)), c(b)));
  return out;
}

// For each rule, by name: the nodes (rooted at the rule's op) to prove it on.
const std::map<std::string, Instances>& rule_instances() {
  static const std::map<std::string, Instances> table = {
      {"fold_constants", constant_instances},
      {"combine_terms",
       [](Op o) {
         const Pool& p = pool();
         std::vector<UOpRef> terms = cat({p.vars, p.sums, p.divmods});
         terms.resize(std::min<size_t>(terms.size(), 60));
         if (o == Op::Neg) {
           std::vector<UOpRef> out;
           for (const UOpRef& t : cat({p.vars, p.sums})) out.push_back(alu(Op::Neg, {t}));
           return out;
         }
         // (x // c) * (k*c) + (x % c) * k is x * k: the div/mod pairs it merges
         std::vector<UOpRef> out = pairs(o, terms, cat({p.vars, p.consts}));
         for (const UOpRef& x : {p.vars[8], p.vars[11], p.vars[17], p.sums[0]})
           for (int64_t d : {2, 3, 4})
             for (int64_t k : {1, -1, 3}) {
               UOpRef q = op(Op::Mul, op(Op::Idiv, x, c(d)), c(k * d));
               UOpRef r = op(Op::Mul, op(Op::Mod, x, c(d)), c(k));
               if (o == Op::Add) out.push_back(op(Op::Add, q, r));
               if (o == Op::Sub) out.push_back(op(Op::Sub, q, op(Op::Mul, r, c(-1))));
             }
         return out;
       }},
      {"distribute",
       [](Op) {
         const Pool& p = pool();
         std::vector<UOpRef> sums;
         for (const UOpRef& a : {p.vars[2], p.vars[8], p.vars[17]})
           for (const UOpRef& b : {p.vars[9], p.vars[14], p.consts[5]}) {
             sums.push_back(op(Op::Add, a, b));
             sums.push_back(op(Op::Sub, a, b));
           }
         std::vector<UOpRef> out = pairs(Op::Mul, sums, p.consts);
         for (const UOpRef& m : pairs(Op::Mul, p.consts, sums)) out.push_back(m);
         return out;
       }},
      {"divmod_by_one",
       [](Op o) {
         return pairs(o, cat({pool().vars, pool().sums}), {c(1)});
       }},
      {"divmod_by_bounds",
       [](Op o) {
         std::vector<UOpRef> ds;
         for (int64_t d : divisors()) ds.push_back(c(d));
         return pairs(o, pool().vars, ds);
       }},
      {"divmod_split",
       [](Op o) {
         std::vector<UOpRef> ds;
         for (int64_t d : {2, 3, 4, 8, 1 << 29}) ds.push_back(c(d));
         return pairs(o, pool().sums, ds);
       }},
      {"div_div", nested},
      {"mod_mod", nested},
      {"minmax_by_bounds", every_pair},
      {"compare_by_bounds", every_pair},
      {"where_decided",
       [](Op) {
         const Pool& p = pool();
         std::vector<UOpRef> out;
         for (const UOpRef& cond : p.bools)
           for (const UOpRef& a : {p.vars[0], p.vars[17], p.consts[2]})
             for (const UOpRef& b : {p.vars[0], p.vars[12]})
               out.push_back(alu(Op::Where, {cond, a, b}));
         return out;
       }},
      {"constant_right",
       [](Op o) {
         const Pool& p = pool();
         std::vector<UOpRef> out = pairs(o, p.consts, cat({p.vars, p.consts}));
         for (const UOpRef& m : pairs(o, p.bools, p.bools)) out.push_back(m);
         return out;
       }},
      {"logic_identity", [](Op o) { return pairs(o, pool().bools, pool().bools); }},
      {"not_not",
       [](Op) {
         std::vector<UOpRef> out;
         for (const UOpRef& b : pool().bools) out.push_back(alu(Op::Not, {alu(Op::Not, {b})}));
         for (const UOpRef& b : pool().bools) out.push_back(alu(Op::Not, {b}));
         return out;
       }},
  };
  return table;
}

struct Tally {
  int fired = 0;
  std::vector<std::string> failures;
};

// Proves `rule` on every instance it fires on.
Tally prove_rule(const Rule& rule, Smt& smt) {
  Tally t;
  auto it = rule_instances().find(rule.name);
  if (it == rule_instances().end()) {
    t.failures.push_back("rule " + std::string(rule.name) + " has no proofs: add its instances");
    return t;
  }
  for (const UOpRef& n : it->second(rule.op)) {
    // Every rule application must prove; the engine composes them (compiler/rewrite.h).
    if (n->op != rule.op) continue;
    UOpRef r = rule.fn(n);
    if (!r) continue;
    ++t.fired;
    Verdict v = smt.equal(n, r);
    if (!v.proved())
      t.failures.push_back(std::string(rule.name) + ": " + expr_str(n) + " -> " + expr_str(r) +
                           " is " + verdict_str(v));
  }
  return t;
}

std::string rule_label(const Rule& r) {
  return std::string(r.name) + "/" + std::string(op_name(r.op));
}

class RuleProofs : public ::testing::TestWithParam<std::string> {};

// One test per rule name, each over every op it is registered for.
TEST_P(RuleProofs, EveryRewriteKeepsTheValue) {
  Smt smt;
  int rules = 0;
  for (const Rule& rule : symbolic_rules().all()) {
    if (rule.name != GetParam()) continue;
    ++rules;
    Tally t = prove_rule(rule, smt);
    for (const std::string& f : t.failures) ADD_FAILURE() << f;
    // A rule never exercised is a rule never proved; folds of libm ops must never fire
    // (LibmOpsAreNeverFolded).
    bool libm = rule.op == Op::Exp2 || rule.op == Op::Log2 || rule.op == Op::Sin;
    if (!libm) {
      EXPECT_GT(t.fired, 0) << rule_label(rule) << " fired on none of its instances";
    }
    std::printf("%s: %d rewrites proved\n", rule_label(rule).c_str(), t.fired);
  }
  EXPECT_GT(rules, 0);
}

std::vector<std::string> rule_names() {
  std::vector<std::string> names;
  for (const Rule& r : symbolic_rules().all())
    if (std::find(names.begin(), names.end(), r.name) == names.end()) names.push_back(r.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Symbolic, RuleProofs, ::testing::ValuesIn(rule_names()),
                         [](const auto& info) { return info.param; });

// Every rule in the set has a table entry (a rule added without proofs fails here too).
TEST(RuleProofsTable, CoversEveryRule) {
  for (const Rule& r : symbolic_rules().all())
    EXPECT_TRUE(rule_instances().count(r.name)) << r.name << " has no proofs";
}

// f32 folds only of ops with exact IEEE meaning: a fold of exp2, log2 or sin would depend on
// the libm the compiler was built with.
TEST(RuleProofsTable, LibmOpsAreNeverFolded) {
  for (Op o : {Op::Exp2, Op::Log2, Op::Sin})
    for (const UOpRef& n : constant_instances(o))
      for (const Rule& r : symbolic_rules().for_op(o))
        EXPECT_FALSE(r.fn(n)) << r.name << " folded " << expr_str(n);
}

// ---- interval transfer functions --------------------------------------------------------

// Variables over the interval catalogue, from `id` on.
std::vector<UOpRef> interval_vars(int64_t id) {
  std::vector<UOpRef> vs;
  for (const Interval& b : intervals()) vs.push_back(var(id++, b));
  return vs;
}

// The i32 (or bool) op on variables of every pair of catalogue intervals, built by the node
// builder, which computes the bounds with the transfer functions.
std::vector<UOpRef> transfer_instances(Op o) {
  std::vector<UOpRef> vs = interval_vars(1000), ws = interval_vars(2000), out;
  std::vector<UOpRef> ds;
  for (int64_t d : divisors()) ds.push_back(c(d));
  auto keep = [&](const std::function<UOpRef()>& make) {
    try {
      out.push_back(make());
    } catch (const TypeError&) {
      // an op that takes no i32 operands
    }
  };
  for (size_t i = 0; i < vs.size(); ++i) {
    const UOpRef& v = vs[i];
    if (o == Op::Cast) {
      keep([&] { return cast(op(Op::Cmplt, v, c(1)), DType::I32); });
      keep([&] { return cast(v, DType::Bool); });
    } else if (op_arity(o) == 1) {
      keep([&] { return alu(o, {v}); });
    } else if (op_arity(o) == 2) {
      for (const UOpRef& w : cat({ws, ds})) keep([&] { return alu(o, {v, w}); });
    } else {
      UOpRef cond = op(Op::Cmplt, var(3000, {0, 1}), c(1));
      for (const UOpRef& w : ws) keep([&] { return alu(o, {cond, v, w}); });
    }
  }
  return out;
}

// The nodes' claimed bounds that z3 cannot prove; a full i32 claim needs no proof.
std::vector<std::string> unsound_bounds(Smt& smt, const std::vector<UOpRef>& nodes) {
  std::vector<std::string> failures;
  for (const UOpRef& n : nodes) {
    if (n->dtype != DType::I32 && n->dtype != DType::Bool) continue;
    if (n->bounds == Interval::full()) continue;
    Verdict v = smt.within(n, n->bounds);
    if (!v.proved())
      failures.push_back(expr_str(n) + " claims " + interval_str(n->bounds) + ": " +
                         verdict_str(v));
  }
  return failures;
}

class TransferProofs : public ::testing::TestWithParam<Op> {};

TEST_P(TransferProofs, ContainTheTrueResult) {
  Smt smt;
  std::vector<UOpRef> nodes = transfer_instances(GetParam());
  EXPECT_FALSE(nodes.empty());
  for (const std::string& f : unsound_bounds(smt, nodes))
    ADD_FAILURE() << op_name(GetParam()) << ": " << f;
}

// Every ALU op that takes i32 or bool operands; the others (f32 only) have no bounds.
std::vector<Op> alu_ops() {
  std::vector<Op> ops;
  for (int i = 0; i < kOpCount; ++i)
    if (is_alu(static_cast<Op>(i)) && !transfer_instances(static_cast<Op>(i)).empty())
      ops.push_back(static_cast<Op>(i));
  return ops;
}

INSTANTIATE_TEST_SUITE_P(Interval, TransferProofs, ::testing::ValuesIn(alu_ops()),
                         [](const auto& info) { return std::string(op_name(info.param)); });

// A reduce's bounds from its input's: folds of 1 to 4 values, each anywhere in its interval.
TEST(TransferProofs, ReduceContainsTheTrueFold) {
  Smt smt;
  std::vector<UOpRef> nodes;
  int64_t id = 4000;
  for (const Interval& b : intervals())
    for (int n = 1; n <= 4; ++n) {
      std::vector<UOpRef> parts;
      for (int k = 0; k < n; ++k) parts.push_back(var(id++, b));
      for (Op fold : {Op::Add, Op::Mul, Op::Max, Op::Min})
        nodes.push_back(reduce(stack(parts), fold, 1));
    }
  for (const std::string& f : unsound_bounds(smt, nodes)) ADD_FAILURE() << f;
}

// ---- the renderer's decisions ------------------------------------------------------------

// The plain C decisions z3 refutes; `plain` counts the decisions made.
std::vector<std::string> unsound_overflow_decisions(Smt& smt, int& plain) {
  std::vector<UOpRef> vs = interval_vars(5000), ws = interval_vars(6000);
  std::vector<std::string> failures;
  for (Op o : {Op::Add, Op::Sub, Op::Mul, Op::Neg})
    for (const UOpRef& v : vs)
      for (size_t j = 0; j < (o == Op::Neg ? 1 : ws.size()); ++j) {
        if (!plain_c_cannot_overflow(o, v->bounds, ws[j]->bounds)) continue;
        ++plain;
        Verdict verdict = smt.exact_fits_i32(o, v, o == Op::Neg ? nullptr : ws[j]);
        if (!verdict.proved())
          failures.push_back(std::string(op_name(o)) + " of " + interval_str(v->bounds) +
                             (o == Op::Neg ? "" : " and " + interval_str(ws[j]->bounds)) +
                             " was decided plain C, but its exact result leaving i32 is " +
                             verdict_str(verdict));
      }
  return failures;
}

std::vector<std::string> unsound_division_decisions(Smt& smt, int& plain) {
  std::vector<std::string> failures;
  for (Op o : {Op::Idiv, Op::Mod})
    for (const UOpRef& v : interval_vars(7000))
      for (int64_t d : divisors()) {
        if (!plain_c_division_is_floor(v->bounds, d)) continue;
        ++plain;
        Verdict verdict = smt.c_division_agrees(o, v, c(d));
        if (!verdict.proved())
          failures.push_back(std::string(op_name(o)) + " of " + interval_str(v->bounds) + " by " +
                             std::to_string(d) + " was decided C's operator, but agreeing is " +
                             verdict_str(verdict));
      }
  return failures;
}

TEST(RendererProofs, PlainArithmeticNeverOverflows) {
  Smt smt;
  int plain = 0;
  for (const std::string& f : unsound_overflow_decisions(smt, plain)) ADD_FAILURE() << f;
  EXPECT_GT(plain, 0);
}

TEST(RendererProofs, PlainDivisionFloors) {
  Smt smt;
  int plain = 0;
  for (const std::string& f : unsound_division_decisions(smt, plain)) ADD_FAILURE() << f;
  EXPECT_GT(plain, 0);
}

// ---- the proofs fail on the planted mistakes of their classes ------------------------------

struct PlantGuard {
  explicit PlantGuard(Plant p) { set_plant(p); }
  ~PlantGuard() { set_plant(Plant::None); }
};

std::vector<std::string> rule_failures(const std::string& name) {
  Smt smt;
  std::vector<std::string> failures;
  for (const Rule& rule : symbolic_rules().all())
    if (rule.name == name)
      for (const std::string& f : prove_rule(rule, smt).failures) failures.push_back(f);
  return failures;
}

void expect_refuted(const std::vector<std::string>& failures, const char* plant) {
  ASSERT_FALSE(failures.empty()) << "the proofs missed " << plant;
  EXPECT_NE(failures[0].find("refuted at"), std::string::npos) << failures[0];
  std::printf("%s: %s\n", plant, failures[0].c_str());
}

TEST(ProofsFindPlants, RuleSideCondition) {
  PlantGuard g(Plant::DivDivUnchecked);
  expect_refuted(rule_failures("div_div"), "div_div_unchecked");
}

TEST(ProofsFindPlants, RemainderRangeCheck) {
  PlantGuard g(Plant::DivmodSplitUnchecked);
  expect_refuted(rule_failures("divmod_split"), "divmod_split_unchecked");
}

TEST(ProofsFindPlants, OverflowDecision) {
  PlantGuard g(Plant::OverflowDecisionSub);
  Smt smt;
  int plain = 0;
  expect_refuted(unsound_overflow_decisions(smt, plain), "overflow_decision_sub");
}

TEST(ProofsFindPlants, DivisionDecision) {
  PlantGuard g(Plant::FloordivTruncates);
  Smt smt;
  int plain = 0;
  expect_refuted(unsound_division_decisions(smt, plain), "floordiv_truncates");
}

}  // namespace
}  // namespace uopc

// The symbolic rules, as check(before, after) rows, and their soundness on random expressions.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <functional>
#include <optional>

#include "compiler/symbolic.h"
#include "ir/build.h"
#include "ir/eval_scalar.h"
#include "ir/loop.h"
#include "ir/plant.h"

namespace uopc {
namespace {

UOpRef c(int v) {
  return literal(Scalar::of_i32(v));
}
UOpRef f(float v) {
  return literal(Scalar::of_f32(v));
}
UOpRef op(Op o, UOpRef a, UOpRef b) {
  return alu(o, {a, b});
}
UOpRef add(UOpRef a, UOpRef b) {
  return op(Op::Add, a, b);
}
UOpRef mul(UOpRef a, UOpRef b) {
  return op(Op::Mul, a, b);
}
UOpRef idiv(UOpRef a, UOpRef b) {
  return op(Op::Idiv, a, b);
}
UOpRef mod(UOpRef a, UOpRef b) {
  return op(Op::Mod, a, b);
}

const UOpRef i = range(4, 0, RangeKind::Loop);
const UOpRef j = range(4, 1, RangeKind::Loop);
const UOpRef k = range(4, 2, RangeKind::Loop);
const UOpRef j6 = range(6, 3, RangeKind::Loop);
const UOpRef r = range(12, 4, RangeKind::Loop);
const UOpRef x = load(address(param(1, DType::I32, 100), i));  // any i32

struct Row {
  const char* what;
  UOpRef before;
  std::string after;  // expr_str of the simplified expression
};

TEST(Symbolic, Rules) {
  const Row rows[] = {
      {"constant folding", add(c(3), mul(c(4), c(5))), "23"},
      {"f32 constant folding", op(Op::Add, f(1.5f), f(2.0f)), "3.5"},
      {"exp2 is never folded", alu(Op::Exp2, {f(1.0f)}), "exp2(1)"},
      {"x + 0", add(x, c(0)), "load(data1[r0])"},
      {"x * 1", mul(x, c(1)), "load(data1[r0])"},
      {"x * 0", mul(x, c(0)), "0"},
      {"constants move right and merge", add(c(3), add(x, c(4))), "(load(data1[r0])+7)"},
      {"like terms merge", op(Op::Sub, add(x, x), x), "load(data1[r0])"},
      {"canonical order", add(j, mul(i, c(4))), "((r0*4)+r1)"},
      {"distribution", mul(add(i, c(2)), c(3)), "((r0*3)+6)"},
      {"i*4 + j, // 4", idiv(add(mul(i, c(4)), j), c(4)), "r0"},
      {"i*4 + j, % 4", mod(add(mul(i, c(4)), j), c(4)), "r1"},
      {"((i*6 + j) // 6) % 4 is i", mod(idiv(add(mul(i, c(6)), j6), c(6)), c(4)), "r0"},
      {"(((i*4 + j)*4 + k) // 16) % 4 is i",
       mod(idiv(add(mul(add(mul(i, c(4)), j), c(4)), k), c(16)), c(4)), "r0"},
      {"the reshape round trip", add(mul(idiv(r, c(4)), c(4)), mod(r, c(4))), "r4"},
      {"// by one", idiv(x, c(1)), "load(data1[r0])"},
      {"% by one", mod(x, c(1)), "0"},
      {"// of a small value", idiv(j, c(4)), "0"},
      {"% of a small value", mod(j, c(4)), "r1"},
      {"% of a shifted value", mod(add(j, c(8)), c(4)), "r1"},
      {"// of a shifted value", idiv(add(j, c(8)), c(4)), "2"},
      {"nested //", idiv(idiv(x, c(2)), c(3)), "(load(data1[r0])//6)"},
      {"nested %", mod(mod(x, c(12)), c(4)), "(load(data1[r0])%4)"},
      {"a wrapping sum is not split", idiv(add(mul(x, c(4)), c(1)), c(4)),
       "(((load(data1[r0])*4)+1)//4)"},
      {"max decided by bounds", op(Op::Max, i, c(0)), "r0"},
      {"min decided by bounds", op(Op::Min, i, c(7)), "r0"},
      {"max decided the other way", op(Op::Max, i, c(9)), "9"},
      {"max of unknowns stays", op(Op::Max, x, c(0)), "max(load(data1[r0]), 0)"},
      {"f32 max is never decided", op(Op::Max, f(1.0f), load(address(param(2, DType::F32, 4), i))),
       "max(1, load(data2[r0]))"},
      {"cmplt true", op(Op::Cmplt, i, c(4)), "true"},
      {"cmplt false", op(Op::Cmplt, i, c(0)), "false"},
      {"cmplt undecided", op(Op::Cmplt, i, c(2)), "(r0<2)"},
      {"cmpeq of disjoint ranges", op(Op::Cmpeq, i, c(10)), "false"},
      {"where with a decided condition", alu(Op::Where, {op(Op::Cmplt, i, c(4)), x, c(5)}),
       "load(data1[r0])"},
      {"and with true", op(Op::And, op(Op::Cmplt, i, c(2)), op(Op::Cmplt, j, c(9))), "(r0<2)"},
  };
  for (const Row& row : rows) EXPECT_EQ(expr_str(simplify(row.before)), row.after) << row.what;
}

// Pitfall 4 of the book: without distribution the div rule cannot see i*16.
TEST(Symbolic, DistributionIsWhatSplitsTheDivision) {
  UOpRef e = mod(idiv(add(mul(add(mul(i, c(4)), j), c(4)), k), c(16)), c(4));
  EXPECT_EQ(expr_str(rewrite(e, symbolic_rules()).root), "r0");
  EXPECT_NE(expr_str(rewrite(e, symbolic_rules().without("distribute")).root), "r0");
}

// Lowering a pad of a pad of ... simplifies every level over the levels below it. A Rewriter
// that keeps its memo between calls looks at each node once in all, not once per level.
int rule_calls = 0;
UOpRef count_call(const UOpRef&) {
  ++rule_calls;
  return nullptr;
}

TEST(Rewrite, LaterCallsDoNotRevisitWhatEarlierCallsRewrote) {
  RuleSet counting({{"count", Op::Add, count_call}});
  Rewriter r(counting);
  rule_calls = 0;
  UOpRef e = i;
  const int levels = 500;
  for (int k = 0; k < levels; ++k) {
    e = add(e, c(k + 1));
    EXPECT_EQ(r.run(e), e);
  }
  EXPECT_EQ(rule_calls, levels);
}

std::vector<UOpRef> max_chain(int length) {
  std::vector<UOpRef> chain{i};
  for (int k = 0; k < length; ++k) chain.push_back(op(Op::Max, add(chain.back(), c(-1)), c(0)));
  return chain;
}

// The same through simplify(): within a SimplifyMemo, the same results as without one.
TEST(Rewrite, SimplifyMemoKeepsTheResults) {
  std::vector<UOpRef> chain = max_chain(50);
  std::vector<std::string> plain;
  for (const UOpRef& e : chain) plain.push_back(expr_str(simplify(e)));
  SimplifyMemo memo;
  for (size_t k = 0; k < chain.size(); ++k) EXPECT_EQ(expr_str(simplify(chain[k])), plain[k]);
}

// Kept results outlive the SimplifyMemo (a kernel's lowering) that made them: the same
// expressions simplified again, in a memo or outside one, give the same results and keep no
// more.
TEST(Rewrite, KeptSimplificationsOutliveEachMemo) {
  std::vector<UOpRef> chain = max_chain(50);
  std::vector<std::string> plain;
  for (const UOpRef& e : chain) plain.push_back(expr_str(simplify(e)));
  KeptSimplifications kept;
  {
    SimplifyMemo memo;
    for (size_t k = 0; k < chain.size(); ++k) EXPECT_EQ(expr_str(simplify(chain[k])), plain[k]);
  }
  size_t size = kept.size();
  EXPECT_GE(size, chain.size());
  {
    SimplifyMemo memo;
    for (size_t k = 0; k < chain.size(); ++k) EXPECT_EQ(expr_str(simplify(chain[k])), plain[k]);
  }
  for (size_t k = 0; k < chain.size(); ++k) EXPECT_EQ(expr_str(simplify(chain[k])), plain[k]);
  EXPECT_EQ(kept.size(), size);
}

struct PlantGuard {
  explicit PlantGuard(Plant p) { set_plant(p); }
  ~PlantGuard() { set_plant(Plant::None); }
};

// What the rules make of a node also depends on the rules left out and the active plant: what
// was kept under one of them is never taken under another.
TEST(Rewrite, KeptSimplificationsAreKeptApartByRulesAndPlant) {
  UOpRef e = op(Op::Sub, add(x, mul(j, c(3))), j);
  // A memo made within the scope, as a kernel lowered without a rule or under a plant has.
  auto simplified = [&](bool in_memo) {
    std::optional<SimplifyMemo> memo;
    if (in_memo) memo.emplace();
    return expr_str(simplify(e));
  };
  auto without_rule = [&](bool in_memo) {
    WithoutRule aside("combine_terms");
    return simplified(in_memo);
  };
  auto planted = [&](bool in_memo) {
    PlantGuard plant(Plant::LinearSubAsAdd);
    return simplified(in_memo);
  };
  std::string all = simplified(false), without = without_rule(false), with_plant = planted(false);
  ASSERT_NE(all, without);
  ASSERT_NE(all, with_plant);
  ASSERT_NE(without, with_plant);
  KeptSimplifications kept;
  for (bool in_memo : {true, false, true}) {
    EXPECT_EQ(simplified(in_memo), all);
    EXPECT_EQ(without_rule(in_memo), without);
    EXPECT_EQ(planted(in_memo), with_plant);
    EXPECT_EQ(simplified(in_memo), all);
  }
}

TEST(Rewrite, ALoggedSimplificationTakesItsStepsThoughItsResultIsKept) {
  UOpRef e = op(Op::Sub, add(x, mul(j, c(3))), j);
  KeptSimplifications kept;
  simplify(e);
  EXPECT_FALSE(steps_of([&] { simplify(e); }).empty());
  EXPECT_FALSE(steps_of([&] {
                 SimplifyMemo memo;
                 simplify(e);
               }).empty());
}

// Past its bound, everything kept is dropped, but never while a memo is using it.
TEST(Rewrite, KeptSimplificationsAreDroppedPastTheirBoundWhenUnused) {
  std::vector<UOpRef> chain = max_chain(50);
  std::vector<std::string> plain;
  for (const UOpRef& e : chain) plain.push_back(expr_str(simplify(e)));
  KeptSimplifications kept(20);
  {
    SimplifyMemo outer;
    for (size_t k = 0; k < 30; ++k) simplify(chain[k]);
    size_t size = kept.size();
    ASSERT_GT(size, 20u);
    {
      SimplifyMemo inner;  // a kernel lowered within another's lowering
      EXPECT_EQ(kept.size(), size);
    }
    for (size_t k = 0; k < chain.size(); ++k) EXPECT_EQ(expr_str(simplify(chain[k])), plain[k]);
  }
  EXPECT_GT(kept.size(), 20u);
  SimplifyMemo next;
  EXPECT_EQ(kept.size(), 0u);
  EXPECT_EQ(expr_str(simplify(chain[3])), plain[3]);
  EXPECT_LE(kept.size(), 20u);
}

// ---- soundness: simplify(e) equals e at every point of its variables' domains ----

Scalar eval(const UOpRef& e, const std::function<int32_t(const UOp*)>& var) {
  if (e->op == Op::Const) return e->value;
  if (e->op == Op::Range) return Scalar::of_i32(var(e.get()));
  std::vector<Scalar> args;
  for (const UOpRef& s : e->src) args.push_back(eval(s, var));
  return *eval_scalar(e->op, e->dtype, args);
}

UOpRef random_expr(const std::vector<UOpRef>& vars, int depth) {
  int choice = *rc::gen::inRange(0, depth <= 0 ? 2 : 11);
  if (choice == 0) return vars[*rc::gen::inRange<size_t>(0, vars.size())];
  if (choice == 1) return c(*rc::gen::inRange(-20, 21));
  if (choice == 2) return c(*rc::gen::element(INT32_MIN, INT32_MAX, 0, 1, -1, 1 << 30));
  UOpRef a = random_expr(vars, depth - 1), b = random_expr(vars, depth - 1);
  switch (choice) {
    case 3:
      return add(a, b);
    case 4:
      return op(Op::Sub, a, b);
    case 5:
      return mul(a, *rc::gen::arbitrary<bool>() ? b : c(*rc::gen::inRange(-5, 17)));
    case 6:
      return idiv(a, *rc::gen::arbitrary<bool>() ? b : c(*rc::gen::inRange(-3, 17)));
    case 7:
      return mod(a, *rc::gen::arbitrary<bool>() ? b : c(*rc::gen::inRange(-3, 17)));
    case 8:
      return op(*rc::gen::element(Op::Max, Op::Min), a, b);
    case 9:
      return alu(Op::Where, {op(*rc::gen::element(Op::Cmplt, Op::Cmpeq, Op::Cmpne), a, b), a, b});
    case 10:
      return alu(Op::Neg, {a});
    default:
      return mul(add(a, b), c(*rc::gen::inRange(-4, 9)));
  }
}

RC_GTEST_PROP(Symbolic, SimplifyKeepsTheValueEverywhere, ()) {
  std::vector<UOpRef> vars;
  int nvars = *rc::gen::inRange(1, 4);
  for (int v = 0; v < nvars; ++v)
    vars.push_back(range(*rc::gen::inRange(1, 7), 100 + v, RangeKind::Loop));
  UOpRef e = random_expr(vars, *rc::gen::inRange(1, 5));
  UOpRef s = simplify(e);
  RC_LOG() << expr_str(e) << "  ->  " << expr_str(s);
  std::vector<int32_t> at(vars.size(), 0);
  auto var = [&](const UOp* r) {
    for (size_t v = 0; v < vars.size(); ++v)
      if (vars[v].get() == r) return at[v];
    return 0;
  };
  // Every point of the (small) domain, in odometer order.
  for (;;) {
    int32_t want = eval(e, var).as_i32(), got = eval(s, var).as_i32();
    RC_ASSERT(want == got);
    RC_ASSERT(e->bounds.lo <= want && want <= e->bounds.hi);
    RC_ASSERT(s->bounds.lo <= got && got <= s->bounds.hi);
    size_t v = 0;
    while (v < vars.size() && ++at[v] == range_size(*vars[v])) at[v++] = 0;
    if (v == vars.size()) break;
  }
}

}  // namespace
}  // namespace uopc

// Symbolic simplification of scalar expressions: the rules of the book's Chapter 3 as a
// RuleSet (compiler/rewrite.h), over the interval bounds every node carries.
//
// Integer (i32) arithmetic is normalized as a linear form, sum of coef * term + constant, with
// like terms merged and terms in a fixed order; this is exact in wrap-around arithmetic, since
// i32 is the ring of integers modulo 2^32. Floor division and modulo by a positive constant are
// split over a sum ((a*c + b) // c -> a + b // c) only when bounds prove the sum does not wrap,
// and removed when bounds make them trivial. max, min, where and comparisons are decided by
// bounds when the intervals do not overlap. f32 expressions are only constant-folded, and only
// with ops IEEE rounds exactly (never exp2, log2, sin), so no result changes by a bit.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/rewrite.h"

namespace uopc {

// Every rule; named so that a test can drop one (e.g. "distribute").
const RuleSet& symbolic_rules();

// The expression (or whole loop program) with symbolic_rules applied to a fixpoint.
UOpRef simplify(const UOpRef& node);

// While one is alive, simplify() and the SimplifyMemos made on this thread share what they
// simplify, across kernels and programs: a fuzz target's inputs and a reducer's candidates are
// mutations of one another, and most index expressions of a program's new kernels were
// simplified for an earlier one. What the rules make of a node depends only on the node, the
// rules left out and the active plant, so results are kept apart by the last two. Past a
// bound (results of max_nodes nodes), they are all dropped at once. While a RewriteLog is alive,
// nothing kept is used: it must see the rules fire. A CompileMemo keeps one
// (compiler/compile_memo.h).
class KeptSimplifications {
 public:
  // Each kept result keeps its node alive: a few hundred bytes each under the fuzz preset.
  static constexpr size_t kMaxNodes = size_t{1} << 17;

  explicit KeptSimplifications(size_t max_nodes = kMaxNodes);
  ~KeptSimplifications();
  KeptSimplifications(const KeptSimplifications&) = delete;
  KeptSimplifications& operator=(const KeptSimplifications&) = delete;

  // How many nodes' results are kept now.
  size_t size() const;

  struct State;

 private:
  std::unique_ptr<State> state_;
  State* outer_;
};

// While one is alive, simplify() on this thread remembers what it has simplified, so lowering
// a deep graph, which simplifies each level's expression over the levels below it, does not
// simplify those again: linear in the graph, not quadratic. The results are the same, as the
// rules are functions of the node alone. Within a KeptSimplifications it adds to the kept
// results instead of starting empty.
class SimplifyMemo {
 public:
  SimplifyMemo();
  ~SimplifyMemo();
  SimplifyMemo(const SimplifyMemo&) = delete;
  SimplifyMemo& operator=(const SimplifyMemo&) = delete;

 private:
  std::unique_ptr<Rewriter> rewriter_;  // null when it uses one of kept_'s
  KeptSimplifications::State* kept_ = nullptr;
  Rewriter* outer_;  // the enclosing memo's, restored when this one ends
};

// While one is alive, simplify() on this thread leaves out the rules named `name`: a compiled
// program that fails only with a rule is that rule's failure (fuzz/signature.h). SimplifyMemos
// made while it lives use the same rules.
class WithoutRule {
 public:
  explicit WithoutRule(const std::string& name);
  ~WithoutRule();
  WithoutRule(const WithoutRule&) = delete;
  WithoutRule& operator=(const WithoutRule&) = delete;

 private:
  RuleSet rules_;
  const RuleSet* outer_;
  std::string outer_names_;
};

// The names of the rules the WithoutRules alive on this thread leave out, outermost first, each
// followed by a space; "" when none is.
std::string rules_left_out();

// Each rule's name, once, in the order of symbolic_rules().
std::vector<std::string> symbolic_rule_names();

// A total order on nodes that depends only on their structure, used to sort terms (ranges by
// their id first, so indices read ridx0*4 + ridx1).
bool structurally_less(const UOp* a, const UOp* b);

// A short infix rendering of an expression, for tests and messages: ((r0*4)+r1)//3.
std::string expr_str(const UOpRef& node);

}  // namespace uopc

// Random integer expressions for the symbolic oracle, from a choice source (fuzz/choices.h).
//
// Uniformly random trees rarely take the shapes the rewrite rules match, and almost never
// meet a rule's side condition at its boundary. So besides random trees of every i32 op, the
// generator builds the rules' own shapes from random parts: sums of scaled terms divided by
// a constant (the divisor dividing some coefficients and not others), nested divisions and
// remainders whose divisors divide each other or not, a quotient and remainder recombined,
// comparisons, max and min against the ends of an operand's bounds. Subterms repeat, as
// a kernel's index reuses its ranges: the generator reuses parts it built, and where a rule
// needs one subterm twice it draws the second as the same one or a near miss. Constants are drawn
// around 0, ±1, powers of two and the extremes, and an "edge" shift moves an operand's
// bounds to touch or cross INT32_MIN or INT32_MAX, where sums begin to wrap. Variables get
// bounds of every kind: loop-like [0, n), across zero, negative, near either extreme, near
// ±2^30, and the whole i32 range.
#pragma once

#include <vector>

#include "fuzz/choices.h"
#include "ir/uop.h"

namespace uopc {

struct RandomExpr {
  std::vector<UOpRef> vars;  // var nodes (ir/loop.h), ids 0, 1, ...
  UOpRef expr;
};

RandomExpr random_expr(Choices& choices);

}  // namespace uopc

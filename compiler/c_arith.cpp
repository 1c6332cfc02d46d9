#include "compiler/c_arith.h"

#include <algorithm>

#include "ir/plant.h"

namespace uopc {
namespace {

bool fits(int64_t lo, int64_t hi) {
  return lo >= INT32_MIN && hi <= INT32_MAX;
}

}  // namespace

// Operands lie in i32, so each extreme below is exact in int64. The exact result of a
// monotone op over a box takes its extremes at corners: a + b at (lo, lo) and (hi, hi);
// a - b at (lo, hi) and (hi, lo); a * b at one of the four corners; -a at hi and lo.
bool plain_c_cannot_overflow(Op op, const Interval& a, const Interval& b) {
  switch (op) {
    case Op::Add:
      return fits(a.lo + b.lo, a.hi + b.hi);
    case Op::Sub:
      if (planted(Plant::OverflowDecisionSub)) return fits(a.lo - b.lo, a.hi - b.hi);
      return fits(a.lo - b.hi, a.hi - b.lo);
    case Op::Mul: {
      int64_t p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
      return fits(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
    }
    case Op::Neg:
      return a.lo > INT32_MIN;
    default:
      return true;
  }
}

// C truncates toward zero; for a >= 0 and c > 0 that is the floor, and the remainder is
// non-negative like the floor modulo's.
bool plain_c_division_is_floor(const Interval& a, int64_t divisor) {
  if (divisor <= 0) return false;
  return a.lo >= 0 || planted(Plant::FloordivTruncates);
}

}  // namespace uopc

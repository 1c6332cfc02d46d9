#include "ir/interval.h"

#include <algorithm>

#include "ir/plant.h"

namespace uopc {
namespace {

// Floor division of int64 by a positive divisor.
int64_t floor_div(int64_t a, int64_t c) {
  return a >= 0 ? a / c : -((-a + c - 1) / c);
}

bool fits_i32(int64_t v) {
  return v >= INT32_MIN && v <= INT32_MAX;
}

}  // namespace

std::string interval_str(const Interval& i) {
  return "[" + std::to_string(i.lo) + ", " + std::to_string(i.hi) + "]";
}

Interval hull(Interval a, Interval b) {
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}

Interval wrap_i32(Interval exact) {
  return fits_i32(exact.lo) && fits_i32(exact.hi) ? exact : Interval::full();
}

// Operands are within i32, so sums, differences and products of two bounds fit in int64.
Interval interval_add(Interval a, Interval b) {
  return wrap_i32({a.lo + b.lo, a.hi + b.hi});
}
Interval interval_sub(Interval a, Interval b) {
  return wrap_i32({a.lo - b.hi, a.hi - b.lo});
}
Interval interval_neg(Interval a) {
  return wrap_i32({-a.hi, -a.lo});
}

// The extremes of a product over a box are at its corners.
Interval interval_mul(Interval a, Interval b) {
  int64_t p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  if (planted(Plant::MulIntervalTwoCorners)) return wrap_i32({p[0], p[3]});
  return wrap_i32({*std::min_element(p, p + 4), *std::max_element(p, p + 4)});
}

Interval interval_max(Interval a, Interval b) {
  if (planted(Plant::MaxIntervalLowerHigh)) return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)};
  return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
}
Interval interval_min(Interval a, Interval b) {
  return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
}

// floor(x / c) is monotone in x for c > 0, so the endpoints map to the endpoints.
Interval interval_idiv(Interval a, int64_t c) {
  return {floor_div(a.lo, c), floor_div(a.hi, c)};
}

// x mod c lies in [0, c); when all of a lies in one period [k*c, k*c + c) the map is
// x - k*c, a shift, so the interval shifts with it.
Interval interval_mod(Interval a, int64_t c) {
  int64_t k = floor_div(a.lo, c);
  if (floor_div(a.hi, c) == k) return {a.lo - k * c, a.hi - k * c};
  return {0, c - 1};
}

}  // namespace uopc

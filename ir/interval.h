// Closed integer intervals [lo, hi], the lattice of LANGUAGE.md §5's bounds analysis.
//
// Bounds are kept in int64 while i32 values are only 32 bits wide, so a transfer function can
// compute the exact range of the mathematical result and then ask whether it fits: if it does
// not, the i32 operation wraps and the only sound answer is the full i32 range.
#pragma once

#include <cstdint>
#include <string>

namespace uopc {

struct Interval {
  int64_t lo = INT32_MIN;
  int64_t hi = INT32_MAX;

  static Interval full() { return {}; }
  static Interval point(int64_t v) { return {v, v}; }
  bool is_point() const { return lo == hi; }
  bool operator==(const Interval&) const = default;
};

std::string interval_str(const Interval& i);

Interval hull(Interval a, Interval b);
// The i32 result of an op whose exact result lies in `exact`: exact if it fits, else full.
Interval wrap_i32(Interval exact);

Interval interval_add(Interval a, Interval b);
Interval interval_sub(Interval a, Interval b);
Interval interval_mul(Interval a, Interval b);
Interval interval_neg(Interval a);
Interval interval_max(Interval a, Interval b);
Interval interval_min(Interval a, Interval b);
// Floor division and modulo by the constant c > 0.
Interval interval_idiv(Interval a, int64_t c);
Interval interval_mod(Interval a, int64_t c);

}  // namespace uopc

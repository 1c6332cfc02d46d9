// How an external engine's printed outputs are judged against the interpreter's.
//
// Exact (the default): every element bit for bit, all NaNs equal (LANGUAGE.md §6).
//
// Spec (`--compare spec`): what LANGUAGE.md §7 permits between engines, and nothing else.
// exp2, log2 and sin may be 1 ulp off, and an f32 add or mul reduce of n terms may be
// reassociated: off by n * 2^-23 * sum|x| (add) or n * 2^-23 * prod|x| (mul). Those
// allowances are carried through every later op as a bound on each element's absolute error,
// so an output depending on no such op is still compared bit for bit. An op whose result a
// permitted difference can change arbitrarily (a comparison whose operands are within their
// bounds of each other, a cast that may truncate either way, an index computed from an
// inexact value) makes its elements unchecked (an infinite bound), as does an assert's verdict
// on inexact operands.
//
// Either mode may add, as separately named options: --nan-equal (an element where either side
// is NaN is not compared) and --signed-zero-equal (-0 equals 0).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "interp/interp.h"

namespace uopc {

struct Comparison {
  bool spec = false;
  bool nan_equal = false;
  bool signed_zero_equal = false;

  // "exact", "spec", "spec, nan-equal, signed-zero-equal"
  std::string name() const;
  // The flags that ask for it: "--compare spec --nan-equal"; "" for exact.
  std::string flags() const;
};

// "exact" or "spec"; anything else is a UserError.
Comparison parse_comparison(const std::string& mode, bool nan_equal, bool signed_zero_equal);

// The absolute error each element of each value of p may have in spec mode (+inf: any value).
using Bounds = std::unordered_map<const UOp*, std::vector<double>>;
Bounds spec_bounds(const Program& p);

// Judges an engine's answers for one program under one comparison; the spec bounds, when
// needed, are computed once.
class Judge {
 public:
  Judge(const Program& p, const Comparison& c);

  // Why `printed`, the engine's output, is not what the interpreter computed (`want`)
  // ("%y: element [1 2]: printed 1.5, interp 1.25, allowed 0"); "" when it is.
  std::string compare(const InterpResult& want, const std::string& printed) const;

  // Whether the engine may give another assert verdict than the interpreter: in spec mode,
  // when some assert's operands are inexact.
  bool verdict_may_differ() const;

 private:
  const Program& p_;
  Comparison c_;
  Bounds bounds_;  // empty unless c_.spec
};

}  // namespace uopc

// One ALU op on scalars, by LANGUAGE.md §4 (ir/semantics.h): what constant folding computes.
#pragma once

#include <optional>
#include <vector>

#include "ir/ops.h"
#include "ir/scalar.h"

namespace uopc {

// The result of `op` (an ALU op or cast to `result`) on `args`; nullopt for exp2, log2 and sin,
// whose last bit belongs to the platform's libm at run time, and for non-ALU ops.
std::optional<Scalar> eval_scalar(Op op, DType result, const std::vector<Scalar>& args);

}  // namespace uopc

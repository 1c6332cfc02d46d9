// Whole-tensor ALU ops: the scalar semantics of ir/semantics.h applied to every element.
// Operands arrive with one shape (the parser made broadcasting explicit).
#pragma once

#include <vector>

#include "interp/tensor.h"
#include "ir/ops.h"

namespace uopc::interp {

Tensor eval_unary(Op op, const Tensor& x);
Tensor eval_binary(Op op, const Tensor& a, const Tensor& b);
Tensor eval_where(const Tensor& c, const Tensor& a, const Tensor& b);
Tensor eval_cast(const Tensor& x, DType to);

}  // namespace uopc::interp

// Whole-tensor evaluation of the structural ops (LANGUAGE.md §3) with xtensor's own machinery:
// reshape, transpose, broadcast, strided views, pad, flip. The compiler maps indices through
// rangeify instead; the two share no index arithmetic, so agreement between them means
// something.
#pragma once

#include <vector>

#include "interp/tensor.h"
#include "ir/uop.h"

namespace uopc::interp {

Tensor eval_reshape(const Tensor& x, const Shape& shape);
Tensor eval_permute(const Tensor& x, const std::vector<int64_t>& order);
Tensor eval_expand(const Tensor& x, const Shape& shape);
Tensor eval_shrink(const Tensor& x, const std::vector<int64_t>& offsets, const Shape& shape);
Tensor eval_index(const Tensor& x, const std::vector<int64_t>& indices);
Tensor eval_pad(const Tensor& x, const std::vector<int64_t>& pads, Scalar value);
Tensor eval_flip(const Tensor& x, const std::vector<int64_t>& axes);
Tensor eval_stack(const std::vector<const Tensor*>& parts);
// The left fold of LANGUAGE.md §3 over the `pop` leading axes, in row-major order. With
// `unroll` f > 1, each f consecutive elements of the innermost popped axis are combined as a
// balanced tree first ((x0 x1) (x2 x3) ..., an odd one carried up), then folded in.
Tensor eval_reduce(const Tensor& x, Op fold, int pop, int64_t unroll = 1);

}  // namespace uopc::interp

// PAD and FLIP rebuilt from the other primitives (the book's section 6.12), as an independent
// second opinion on the primitive ops: concatenation is a stack, a permute and a reshape;
// padding concatenates a block of the fill value and shrinks the excess away, doubling when
// the padding is longer than the axis; flipping an i32 axis multiplies by the anti-identity
// built with the "diagonal trick", other dtypes stack one-element windows in reverse.
#pragma once

#include <vector>

#include "ir/uop.h"

namespace uopc {

UOpRef move_axis(const UOpRef& x, int from, int to);
UOpRef concat2(const UOpRef& a, const UOpRef& b, int axis);
// x's shape, every element `value`.
UOpRef full_like(const Shape& shape, Scalar value);
UOpRef pad_axis(const UOpRef& x, int axis, int64_t before, int64_t after, Scalar value);
UOpRef composite_pad(const UOpRef& x, const std::vector<int64_t>& pads, Scalar value);
// M[i, j] = (i + j == n - 1), i32.
UOpRef anti_eye(int64_t n);
UOpRef flip_axis(const UOpRef& x, int axis);
UOpRef composite_flip(const UOpRef& x, const std::vector<int64_t>& axes);

}  // namespace uopc

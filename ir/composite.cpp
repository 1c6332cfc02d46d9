#include "ir/composite.h"

#include <algorithm>

#include "ir/build.h"
#include "ir/plant.h"

namespace uopc {
namespace {

UOpRef i32(int64_t v) {
  return literal(Scalar::of_i32(static_cast<int32_t>(v)));
}

UOpRef shrink_axis(const UOpRef& x, int axis, int64_t begin, int64_t end) {
  std::vector<UOpRef> offsets;
  Shape shape = x->shape;
  for (int k = 0; k < x->rank(); ++k) offsets.push_back(i32(k == axis ? begin : 0));
  shape[axis] = end - begin;
  return shrink(x, offsets, shape);
}

// x viewed as [before, n, after] around `axis`, so a composite works at rank 3 whatever x's
// rank (its stacks add an axis, which a value of the largest rank does not have to spare).
UOpRef around(const UOpRef& x, int axis) {
  const Shape& s = x->shape;
  int64_t before = 1, after = 1;
  for (int k = 0; k < axis; ++k) before *= s[static_cast<size_t>(k)];
  for (int k = axis + 1; k < x->rank(); ++k) after *= s[static_cast<size_t>(k)];
  return reshape(x, {before, s[static_cast<size_t>(axis)], after});
}

// A rank-3 value from around() back in x's shape, its axis now `n` long.
UOpRef back(const UOpRef& y, const UOpRef& x, int axis, int64_t n) {
  Shape shape = x->shape;
  shape[static_cast<size_t>(axis)] = n;
  return reshape(y, shape);
}

}  // namespace

UOpRef move_axis(const UOpRef& x, int from, int to) {
  std::vector<int64_t> order;
  for (int k = 0; k < x->rank(); ++k)
    if (k != from) order.push_back(k);
  order.insert(order.begin() + to, from);
  return permute(x, order);
}

// stack(a, b)[t, ...] moved next to `axis` and merged with it: element p of the axis is
// a[p] for p < n and b[p - n] after.
UOpRef concat2(const UOpRef& a, const UOpRef& b, int axis) {
  UOpRef s = move_axis(stack({around(a, axis), around(b, axis)}), 0, 1);
  Shape shape = s->shape;  // [before, 2, n, after]
  UOpRef merged = reshape(s, {shape[0], 2 * shape[2], shape[3]});
  return back(merged, a, axis, 2 * a->shape[static_cast<size_t>(axis)]);
}

UOpRef full_like(const Shape& shape, Scalar value) {
  return expand(literal(value), shape);
}

UOpRef pad_axis(const UOpRef& x0, int axis, int64_t before, int64_t after, Scalar value) {
  UOpRef x = x0;
  if (x->shape[axis] == 0 || element_count(x->shape) == 0) {
    Shape shape = x->shape;
    shape[axis] += before + after;
    return full_like(shape, value);
  }
  while (after > 0) {
    int64_t n = x->shape[axis], take = std::min(after, n);
    x = shrink_axis(concat2(x, full_like(x->shape, value), axis), axis, 0, n + take);
    after -= take;
  }
  while (before > 0) {
    int64_t n = x->shape[axis], take = std::min(before, n);
    x = shrink_axis(concat2(full_like(x->shape, value), x, axis), axis, n - take, 2 * n);
    before -= take;
  }
  return x;
}

UOpRef composite_pad(const UOpRef& x0, const std::vector<int64_t>& pads, Scalar value) {
  UOpRef x = x0;
  for (int k = 0; k < x0->rank(); ++k) x = pad_axis(x, k, pads[2 * k], pads[2 * k + 1], value);
  return x;
}

// u is one-hot at n - 1, of length 2n - 1. Repeated over n + 1 rows, flattened and viewed
// as (n, 2n), element (i, j) is u[(2n*i + j) mod (2n - 1)] = u[i + j], since 2n = 1 modulo
// 2n - 1 and i + j <= 2n - 2 for j < n; the first n columns are M.
UOpRef anti_eye(int64_t n) {
  if (n == 1) return reshape(literal(Scalar::of_i32(1)), {1, 1});
  UOpRef one = reshape(literal(Scalar::of_i32(1)), {1});
  UOpRef u = pad_axis(one, 0, n - 1, n - 1, Scalar::of_i32(0));
  UOpRef m = expand(reshape(u, {1, 2 * n - 1}), {n + 1, 2 * n - 1});
  m = reshape(m, {(n + 1) * (2 * n - (planted(Plant::CompositeFlipMisshaped) ? -1 : 1))});
  m = reshape(shrink(m, {i32(0)}, {n * 2 * n}), {n, 2 * n});
  return shrink(m, {i32(0), i32(0)}, {n, n});
}

// y[..., i] = sum_j x[..., j] * M[j, i] with the anti-identity M (i32, so the sum is exact);
// other dtypes stack the one-element windows x[n-1], ..., x[0].
UOpRef flip_axis(const UOpRef& x0, int axis0) {
  int64_t n = x0->shape[static_cast<size_t>(axis0)];
  if (n <= 1) return x0;
  UOpRef x = around(x0, axis0);
  int axis = 1, last = 2;
  UOpRef xl = move_axis(x, axis, last);
  UOpRef y;
  if (x->dtype == DType::I32) {
    UOpRef xt = move_axis(xl, last, 0);  // [n] + lead, indexed by j first
    Shape with_i = xt->shape;
    with_i.push_back(1);
    Shape full = xt->shape;
    full.push_back(n);
    UOpRef xe = expand(reshape(xt, with_i), full);
    Shape m_shape(static_cast<size_t>(x->rank() + 1), 1);
    m_shape.front() = n;
    m_shape.back() = n;
    UOpRef me = expand(reshape(anti_eye(n), m_shape), full);
    y = reduce(alu(Op::Mul, {xe, me}), Op::Add, 1);
  } else {
    std::vector<UOpRef> parts;
    for (int64_t j = 0; j < n; ++j) {
      int64_t k = planted(Plant::CompositeFlipUnreversed) ? j : n - 1 - j;
      std::vector<UOpRef> offsets;
      Shape one = xl->shape;
      for (int a = 0; a < xl->rank(); ++a) offsets.push_back(i32(a == last ? k : 0));
      one[static_cast<size_t>(last)] = 1;
      parts.push_back(shrink(xl, offsets, one));
    }
    UOpRef s = move_axis(stack(parts), 0, last);  // lead + [n, 1]
    y = reshape(s, xl->shape);
  }
  return back(move_axis(y, last, axis), x0, axis0, n);
}

UOpRef composite_flip(const UOpRef& x0, const std::vector<int64_t>& axes) {
  UOpRef x = x0;
  for (int64_t a : axes) x = flip_axis(x, static_cast<int>(a));
  return x;
}

}  // namespace uopc

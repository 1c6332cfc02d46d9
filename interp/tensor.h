// A whole value of the interpreter: an xtensor array of one of the three dtypes.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <xtensor/xarray.hpp>

#include "ir/dtype.h"
#include "ir/scalar.h"
#include "ir/shape.h"

namespace uopc {

template <class T>
using Array = xt::xarray<T>;

// The variant's alternatives follow DType's order: Bool, I32, F32.
struct Tensor {
  std::variant<Array<bool>, Array<int32_t>, Array<float>> data;

  DType dtype() const { return static_cast<DType>(data.index()); }
  Shape shape() const;
  // shape() == s, without building shape(): the interpreter asks it of every value.
  bool has_shape(const Shape& s) const;
  int64_t size() const;
  // Element `flat` in row-major order.
  Scalar at(int64_t flat) const;
};

template <class T>
Tensor make_tensor(Array<T> a) {
  return Tensor{std::move(a)};
}

// A tensor with no elements (some axis is 0).
Tensor empty_tensor(DType dtype, const Shape& shape);

// LANGUAGE.md §6's default input: element i of slot K is v = ((37*i + 11*K) mod 23) - 11, as
// i32, v / 4 as f32, v > 0 as bool.
Tensor default_input(DType dtype, int64_t n, int64_t slot);

// The default data repeats every kDefaultPeriod elements and is affine in i, so past that
// length a wrong index can read the same value: a 24-wide matrix of it is constant along its
// anti-diagonals, and so equals its own transpose when square. The scrambled input has the
// same values in a pseudo-random order (v = (hash(i, K) mod 23) - 11), which no index map
// mirrors by chance.
inline constexpr int64_t kDefaultPeriod = 23;
Tensor scrambled_input(DType dtype, int64_t n, int64_t slot);

// Nested brackets, space separated: "[[1 2 3] [4 5 6]]"; a scalar is its element. A value of
// more than `limit` elements (0: no limit) is summarized as NumPy does: each axis longer than
// six shows its first and last three entries around "...".
std::string format_value(const Tensor& t, int64_t limit = 0);

// "f32[2 3]"
std::string type_string(const Tensor& t);

// Bitwise equality with all NaNs equal (LANGUAGE.md §6). Returns the first differing flat
// index, or -1 when equal. Shapes and dtypes must match.
int64_t first_difference(const Tensor& a, const Tensor& b);

// "" when equal (as first_difference), else "first difference at [1 2]: 1.5 vs 2".
std::string describe_difference(const Tensor& a, const Tensor& b);

// How two values of one type differ, for people: how many elements differ, the largest
// absolute difference and (f32) the largest difference in units in the last place, each with
// its index, then the first `shown` differing elements with both values side by side under
// the names `a_name` and `b_name`. "" when they are equal.
std::string difference_summary(const Tensor& a, const Tensor& b, const std::string& a_name,
                               const std::string& b_name, int shown = 5);

// "[1 2]": the multi-index of a flat position.
std::string index_string(const Shape& shape, int64_t flat);

}  // namespace uopc

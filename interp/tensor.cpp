#include "interp/tensor.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace uopc {

Shape Tensor::shape() const {
  return std::visit([](const auto& a) { return Shape(a.shape().begin(), a.shape().end()); }, data);
}

bool Tensor::has_shape(const Shape& s) const {
  return std::visit(
      [&](const auto& a) {
        return std::equal(s.begin(), s.end(), a.shape().begin(), a.shape().end(),
                          [](int64_t x, size_t y) { return x == static_cast<int64_t>(y); });
      },
      data);
}

int64_t Tensor::size() const {
  return std::visit([](const auto& a) { return static_cast<int64_t>(a.size()); }, data);
}

Scalar Tensor::at(int64_t flat) const {
  switch (dtype()) {
    case DType::Bool:
      return Scalar::of_bool(std::get<Array<bool>>(data).data()[flat]);
    case DType::I32:
      return Scalar::of_i32(std::get<Array<int32_t>>(data).data()[flat]);
    case DType::F32:
      return Scalar::of_f32(std::get<Array<float>>(data).data()[flat]);
  }
  return {};
}

Tensor empty_tensor(DType dtype, const Shape& shape) {
  std::vector<size_t> dims(shape.begin(), shape.end());
  switch (dtype) {
    case DType::Bool:
      return make_tensor(Array<bool>::from_shape(dims));
    case DType::I32:
      return make_tensor(Array<int32_t>::from_shape(dims));
    case DType::F32:
      return make_tensor(Array<float>::from_shape(dims));
  }
  return {};
}

namespace {

// Element i of a slot's input from the value v(i) in [-11, 11], as LANGUAGE.md §6 maps it.
template <class V>
Tensor input_from(DType dtype, int64_t n, const V& v) {
  std::vector<size_t> shape{static_cast<size_t>(n)};
  switch (dtype) {
    case DType::Bool: {
      Array<bool> a = Array<bool>::from_shape(shape);
      for (int64_t i = 0; i < n; ++i) a.data()[i] = v(i) > 0;
      return make_tensor(std::move(a));
    }
    case DType::I32: {
      Array<int32_t> a = Array<int32_t>::from_shape(shape);
      for (int64_t i = 0; i < n; ++i) a.data()[i] = v(i);
      return make_tensor(std::move(a));
    }
    case DType::F32: {
      Array<float> a = Array<float>::from_shape(shape);
      for (int64_t i = 0; i < n; ++i) a.data()[i] = static_cast<float>(v(i)) / 4.0f;
      return make_tensor(std::move(a));
    }
  }
  return {};
}

// splitmix64's finalizer: every input bit moves every output bit.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

Tensor default_input(DType dtype, int64_t n, int64_t slot) {
  return input_from(dtype, n, [slot](int64_t i) {
    return static_cast<int32_t>((37 * i + 11 * slot) % kDefaultPeriod - 11);
  });
}

Tensor scrambled_input(DType dtype, int64_t n, int64_t slot) {
  return input_from(dtype, n, [slot](int64_t i) {
    uint64_t h = mix(static_cast<uint64_t>(i) ^ mix(static_cast<uint64_t>(slot)));
    return static_cast<int32_t>(h % kDefaultPeriod) - 11;
  });
}

namespace {

// Elements shown at each end of a summarized axis.
constexpr int64_t kEdgeItems = 3;

void format_axis(const Tensor& t, const Shape& shape, size_t axis, int64_t base, bool summarize,
                 std::string& out) {
  if (axis == shape.size()) {
    out += format_element(t.at(base));
    return;
  }
  int64_t stride =
      element_count(Shape(shape.begin() + static_cast<ptrdiff_t>(axis) + 1, shape.end()));
  int64_t n = shape[axis];
  bool cut = summarize && n > 2 * kEdgeItems;
  out += '[';
  for (int64_t i = 0; i < n; ++i) {
    if (cut && i == kEdgeItems) {
      out += " ...";
      i = n - kEdgeItems;
    }
    if (i) out += ' ';
    format_axis(t, shape, axis + 1, base + i * stride, summarize, out);
  }
  out += ']';
}

bool same_element(const Scalar& a, const Scalar& b) {
  if (a.bits == b.bits) return true;
  return a.dtype == DType::F32 && std::isnan(a.as_f32()) && std::isnan(b.as_f32());
}

}  // namespace

std::string format_value(const Tensor& t, int64_t limit) {
  std::string out;
  bool summarize = limit > 0 && t.size() > limit;
  format_axis(t, t.shape(), 0, 0, summarize, out);  // recursion depth is the rank, at most 8
  return out;
}

std::string type_string(const Tensor& t) {
  return std::string(dtype_name(t.dtype())) + shape_str(t.shape());
}

int64_t first_difference(const Tensor& a, const Tensor& b) {
  for (int64_t i = 0; i < a.size(); ++i)
    if (!same_element(a.at(i), b.at(i))) return i;
  return -1;
}

std::string describe_difference(const Tensor& a, const Tensor& b) {
  int64_t at = first_difference(a, b);
  if (at < 0) return {};
  return "first difference at " + index_string(a.shape(), at) + ": " + format_element(a.at(at)) +
         " vs " + format_element(b.at(at));
}

namespace {

// f32 bits as integers that count representable values in order, so that their difference is
// the distance in ulps (-0 and +0 are 0 apart).
int64_t ordered(float f) {
  int32_t bits = std::bit_cast<int32_t>(f);
  return bits < 0 ? int64_t{INT32_MIN} - bits : bits;
}

struct Worst {
  double value = -1;
  int64_t at = -1;
  void offer(double v, int64_t i) {
    if (v > value) value = v, at = i;
  }
};

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

std::string difference_summary(const Tensor& a, const Tensor& b, const std::string& a_name,
                               const std::string& b_name, int shown) {
  std::vector<int64_t> differ;
  Worst absolute, ulps;
  int64_t nan_mismatches = 0;
  for (int64_t i = 0; i < a.size(); ++i) {
    Scalar x = a.at(i), y = b.at(i);
    if (same_element(x, y)) continue;
    differ.push_back(i);
    if (x.dtype == DType::F32) {
      float fx = x.as_f32(), fy = y.as_f32();
      if (std::isnan(fx) != std::isnan(fy)) {
        ++nan_mismatches;
        continue;
      }
      absolute.offer(std::fabs(static_cast<double>(fx) - fy), i);
      ulps.offer(static_cast<double>(std::llabs(ordered(fx) - ordered(fy))), i);
    } else if (x.dtype == DType::I32) {
      absolute.offer(std::fabs(static_cast<double>(x.as_i32()) - y.as_i32()), i);
    }
  }
  if (differ.empty()) return {};
  const Shape& shape = a.shape();
  std::string out =
      std::to_string(differ.size()) + " of " + std::to_string(a.size()) + " elements differ";
  if (absolute.at >= 0)
    out += "; largest difference " + number(absolute.value) + " at " +
           index_string(shape, absolute.at);
  if (ulps.at >= 0)
    out += ", largest in ulps " + std::to_string(static_cast<int64_t>(ulps.value)) + " at " +
           index_string(shape, ulps.at);
  if (nan_mismatches) out += "; " + std::to_string(nan_mismatches) + " NaN where the other is not";
  std::vector<std::vector<std::string>> rows{{"index", a_name, b_name}};
  for (size_t k = 0; k < differ.size() && k < static_cast<size_t>(shown); ++k)
    rows.push_back({index_string(shape, differ[k]), format_element(a.at(differ[k])),
                    format_element(b.at(differ[k]))});
  std::vector<size_t> width(3, 0);
  for (const auto& r : rows)
    for (size_t c = 0; c < 3; ++c) width[c] = std::max(width[c], r[c].size());
  for (const auto& r : rows) {
    out += "\n ";
    for (size_t c = 0; c < 3; ++c) out += " " + r[c] + std::string(width[c] - r[c].size(), ' ');
    while (out.back() == ' ') out.pop_back();
  }
  if (differ.size() > static_cast<size_t>(shown))
    out += "\n  ... and " + std::to_string(differ.size() - shown) + " more";
  return out;
}

std::string index_string(const Shape& shape, int64_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    idx[k] = shape[k] ? flat % shape[k] : 0;
    flat = shape[k] ? flat / shape[k] : 0;
  }
  return shape_str(idx);
}

}  // namespace uopc

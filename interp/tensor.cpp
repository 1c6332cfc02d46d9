#include "interp/tensor.h"

#include <bit>
#include <cmath>

namespace uopc {

Shape Tensor::shape() const {
  return std::visit([](const auto& a) { return Shape(a.shape().begin(), a.shape().end()); }, data);
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

Tensor default_input(DType dtype, int64_t n, int64_t slot) {
  auto v = [slot](int64_t i) { return static_cast<int32_t>((37 * i + 11 * slot) % 23 - 11); };
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

namespace {

void format_axis(const Tensor& t, const Shape& shape, size_t axis, int64_t& flat,
                 std::string& out) {
  if (axis == shape.size()) {
    out += format_element(t.at(flat++));
    return;
  }
  out += '[';
  for (int64_t i = 0; i < shape[axis]; ++i) {
    if (i) out += ' ';
    format_axis(t, shape, axis + 1, flat, out);
  }
  out += ']';
}

bool same_element(const Scalar& a, const Scalar& b) {
  if (a.bits == b.bits) return true;
  return a.dtype == DType::F32 && std::isnan(a.as_f32()) && std::isnan(b.as_f32());
}

}  // namespace

std::string format_value(const Tensor& t) {
  std::string out;
  int64_t flat = 0;
  format_axis(t, t.shape(), 0, flat, out);  // recursion depth is the rank, at most 8
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

std::string index_string(const Shape& shape, int64_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    idx[k] = shape[k] ? flat % shape[k] : 0;
    flat = shape[k] ? flat / shape[k] : 0;
  }
  return shape_str(idx);
}

}  // namespace uopc

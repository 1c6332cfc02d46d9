#include "ir/scalar.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <limits>

#include "ir/ops.h"
#include "ir/plant.h"

namespace uopc {

Scalar Scalar::of_f32(float v) {
  return {DType::F32, std::bit_cast<uint32_t>(v)};
}
float Scalar::as_f32() const {
  expect(DType::F32);
  return std::bit_cast<float>(bits);
}

std::string format_f32(float v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = planted(Plant::PrintF32Short)
                 ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 6)
                 : std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

std::string format_element(const Scalar& s) {
  switch (s.dtype) {
    case DType::Bool:
      return s.as_bool() ? "true" : "false";
    case DType::I32:
      return std::to_string(s.as_i32());
    case DType::F32:
      return format_f32(s.as_f32());
  }
  return "?";
}

std::string format_literal(const Scalar& s) {
  std::string text = format_element(s);
  if (s.dtype != DType::F32) return text;
  if (text.find_first_of(".ein") == std::string::npos) text += ".0";
  return text;
}

Scalar reduce_identity(Op op, DType dtype) {
  const float inf = std::numeric_limits<float>::infinity();
  switch (op) {
    case Op::Add:
      return dtype == DType::F32 ? Scalar::of_f32(-0.0f) : Scalar::zero(dtype);
    case Op::Mul:
      return dtype == DType::F32 ? Scalar::of_f32(1.0f) : Scalar::of_i32(1);
    case Op::Max:
      if (dtype == DType::F32) return Scalar::of_f32(-inf);
      if (dtype == DType::I32) return Scalar::of_i32(std::numeric_limits<int32_t>::min());
      return Scalar::of_bool(false);
    case Op::Min:
      if (dtype == DType::F32 || planted(Plant::MinIdentityF32)) return Scalar::of_f32(inf);
      if (dtype == DType::I32) return Scalar::of_i32(std::numeric_limits<int32_t>::max());
      return Scalar::of_bool(true);
    default:
      return Scalar::zero(dtype);
  }
}

}  // namespace uopc

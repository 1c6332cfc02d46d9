#include "ir/eval_scalar.h"

#include "ir/plant.h"
#include "ir/semantics.h"

namespace uopc {
namespace {

Scalar put(bool v) {
  return Scalar::of_bool(v);
}
Scalar put(int32_t v) {
  return Scalar::of_i32(v);
}
Scalar put(float v) {
  return Scalar::of_f32(v);
}

template <class T>
std::optional<Scalar> binary(Op op, T a, T b) {
  switch (op) {
    case Op::Max:
      return put(sem::max(a, b));
    case Op::Min:
      return put(sem::min(a, b));
    case Op::Cmplt:
      return put(sem::cmplt(a, b));
    case Op::Cmpeq:
      return put(sem::cmpeq(a, b));
    case Op::Cmpne:
      return put(sem::cmpne(a, b));
    default:
      break;
  }
  if constexpr (!std::is_same_v<T, bool>) {
    if (op == Op::Add) return put(sem::add(a, b));
    if (op == Op::Sub) return put(sem::sub(a, b));
    if (op == Op::Mul) return put(sem::mul(a, b));
  }
  if constexpr (std::is_same_v<T, float>) {
    if (op == Op::Div) return put(sem::div(a, b));
  } else {
    if (op == Op::And) return put(sem::logic_and(a, b));
    if (op == Op::Or) return put(sem::logic_or(a, b));
    if (op == Op::Xor) return put(sem::logic_xor(a, b));
  }
  if constexpr (std::is_same_v<T, int32_t>) {
    if (op == Op::Idiv) return put(sem::idiv(a, b));
    if (op == Op::Mod) return put(sem::mod(a, b));
  }
  return std::nullopt;
}

std::optional<Scalar> unary(Op op, const Scalar& x) {
  switch (x.dtype) {
    case DType::Bool:
      if (op == Op::Not) return put(sem::logic_not(x.as_bool()));
      break;
    case DType::I32:
      if (op == Op::Neg) return put(sem::neg(x.as_i32()));
      break;
    case DType::F32:
      if (op == Op::Neg) return put(sem::neg(x.as_f32()));
      if (op == Op::Recip) return put(sem::recip(x.as_f32()));
      if (op == Op::Sqrt) return put(sem::sqrt(x.as_f32()));
      break;
  }
  return std::nullopt;
}

Scalar cast(const Scalar& x, DType to) {
  if (x.dtype == to) return x;
  switch (to) {
    case DType::Bool:
      if (planted(Plant::FoldCastLowBit) && x.dtype == DType::I32)
        return put((x.as_i32() & 1) != 0);
      return put(x.dtype == DType::F32 ? sem::f32_to_bool(x.as_f32()) : x.as_i32() != 0);
    case DType::I32:
      return put(x.dtype == DType::F32 ? sem::f32_to_i32(x.as_f32()) : int32_t{x.as_bool()});
    case DType::F32:
      return put(x.dtype == DType::I32 ? sem::i32_to_f32(x.as_i32())
                                       : float{x.as_bool() ? 1.0f : 0.0f});
  }
  return x;
}

}  // namespace

std::optional<Scalar> eval_scalar(Op op, DType result, const std::vector<Scalar>& a) {
  if (op == Op::Cast) return cast(a.at(0), result);
  if (op == Op::Where) return a.at(0).as_bool() ? a.at(1) : a.at(2);
  if (op_kind(op) == OpKind::Unary) return unary(op, a.at(0));
  if (op_kind(op) != OpKind::Binary) return std::nullopt;
  switch (a.at(0).dtype) {
    case DType::Bool:
      return binary(op, a[0].as_bool(), a[1].as_bool());
    case DType::I32:
      return binary(op, a[0].as_i32(), a[1].as_i32());
    case DType::F32:
      return binary(op, a[0].as_f32(), a[1].as_f32());
  }
  return std::nullopt;
}

}  // namespace uopc

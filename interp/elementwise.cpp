#include "interp/elementwise.h"

#include <stdexcept>
#include <string>

#include "ir/semantics.h"

namespace uopc::interp {
namespace {

template <class R, class T, class F>
Array<R> map1(const Array<T>& a, F f) {
  Array<R> out = Array<R>::from_shape(a.shape());
  const T* x = a.data();
  R* o = out.data();
  for (size_t i = 0; i < a.size(); ++i) o[i] = f(x[i]);
  return out;
}

template <class R, class T, class F>
Array<R> map2(const Array<T>& a, const Array<T>& b, F f) {
  Array<R> out = Array<R>::from_shape(a.shape());
  const T* x = a.data();
  const T* y = b.data();
  R* o = out.data();
  for (size_t i = 0; i < a.size(); ++i) o[i] = f(x[i], y[i]);
  return out;
}

[[noreturn]] void bad(Op op, const char* dtype) {
  throw std::logic_error("interp: " + std::string(op_name(op)) + " on " + dtype +
                         " passed the type checker");
}

template <class T>
Tensor binary_typed(Op op, const Array<T>& a, const Array<T>& b) {
  constexpr bool is_bool = std::is_same_v<T, bool>;
  constexpr bool is_float = std::is_same_v<T, float>;
  switch (op) {
    case Op::Max:
      return make_tensor(map2<T>(a, b, [](T x, T y) { return sem::max(x, y); }));
    case Op::Min:
      return make_tensor(map2<T>(a, b, [](T x, T y) { return sem::min(x, y); }));
    case Op::Cmplt:
      return make_tensor(map2<bool>(a, b, [](T x, T y) { return sem::cmplt(x, y); }));
    case Op::Cmpeq:
      return make_tensor(map2<bool>(a, b, [](T x, T y) { return sem::cmpeq(x, y); }));
    case Op::Cmpne:
      return make_tensor(map2<bool>(a, b, [](T x, T y) { return sem::cmpne(x, y); }));
    default:
      break;
  }
  if constexpr (!is_bool) {
    switch (op) {
      case Op::Add:
        return make_tensor(map2<T>(a, b, [](T x, T y) { return sem::add(x, y); }));
      case Op::Sub:
        return make_tensor(map2<T>(a, b, [](T x, T y) { return sem::sub(x, y); }));
      case Op::Mul:
        return make_tensor(map2<T>(a, b, [](T x, T y) { return sem::mul(x, y); }));
      default:
        break;
    }
  }
  if constexpr (is_float) {
    if (op == Op::Div) return make_tensor(map2<T>(a, b, [](T x, T y) { return sem::div(x, y); }));
  } else {
    switch (op) {
      case Op::And:
        return make_tensor(map2<T>(a, b, [](T x, T y) { return sem::logic_and(x, y); }));
      case Op::Or:
        return make_tensor(map2<T>(a, b, [](T x, T y) { return sem::logic_or(x, y); }));
      case Op::Xor:
        return make_tensor(map2<T>(a, b, [](T x, T y) { return sem::logic_xor(x, y); }));
      default:
        break;
    }
    if constexpr (!is_bool) {
      if (op == Op::Idiv)
        return make_tensor(map2<T>(a, b, [](T x, T y) { return sem::idiv(x, y); }));
      if (op == Op::Mod) return make_tensor(map2<T>(a, b, [](T x, T y) { return sem::mod(x, y); }));
    }
  }
  bad(op, is_bool ? "bool" : is_float ? "f32" : "i32");
}

Tensor unary_float(Op op, const Array<float>& a) {
  switch (op) {
    case Op::Neg:
      return make_tensor(map1<float>(a, [](float x) { return sem::neg(x); }));
    case Op::Recip:
      return make_tensor(map1<float>(a, [](float x) { return sem::recip(x); }));
    case Op::Sqrt:
      return make_tensor(map1<float>(a, [](float x) { return sem::sqrt(x); }));
    case Op::Exp2:
      return make_tensor(map1<float>(a, [](float x) { return sem::exp2(x); }));
    case Op::Log2:
      return make_tensor(map1<float>(a, [](float x) { return sem::log2(x); }));
    case Op::Sin:
      return make_tensor(map1<float>(a, [](float x) { return sem::sin(x); }));
    default:
      bad(op, "f32");
  }
}

template <class To, class From>
To convert(From v) {
  if constexpr (std::is_same_v<To, From>)
    return v;
  else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (std::is_same_v<From, float>)
      return sem::f32_to_bool(v);
    else
      return v != 0;
  } else if constexpr (std::is_same_v<From, bool>) {
    return v ? To(1) : To(0);
  } else if constexpr (std::is_same_v<To, float>) {
    return sem::i32_to_f32(v);
  } else {
    return sem::f32_to_i32(v);
  }
}

template <class To>
Tensor cast_to(const Tensor& x) {
  return std::visit(
      [](const auto& a) {
        using From = typename std::decay_t<decltype(a)>::value_type;
        return make_tensor(map1<To>(a, [](From v) { return convert<To, From>(v); }));
      },
      x.data);
}

}  // namespace

Tensor eval_unary(Op op, const Tensor& x) {
  switch (x.dtype()) {
    case DType::Bool:
      if (op != Op::Not) bad(op, "bool");
      return make_tensor(map1<bool>(std::get<Array<bool>>(x.data), sem::logic_not));
    case DType::I32:
      if (op != Op::Neg) bad(op, "i32");
      return make_tensor(
          map1<int32_t>(std::get<Array<int32_t>>(x.data), [](int32_t v) { return sem::neg(v); }));
    case DType::F32:
      return unary_float(op, std::get<Array<float>>(x.data));
  }
  bad(op, "?");
}

Tensor eval_binary(Op op, const Tensor& a, const Tensor& b) {
  return std::visit(
      [&](const auto& x) {
        using A = std::decay_t<decltype(x)>;
        return binary_typed(op, x, std::get<A>(b.data));
      },
      a.data);
}

Tensor eval_where(const Tensor& c, const Tensor& a, const Tensor& b) {
  const Array<bool>& cond = std::get<Array<bool>>(c.data);
  return std::visit(
      [&](const auto& x) {
        using A = std::decay_t<decltype(x)>;
        using T = typename A::value_type;
        const A& y = std::get<A>(b.data);
        A out = A::from_shape(x.shape());
        for (size_t i = 0; i < x.size(); ++i)
          out.data()[i] = cond.data()[i] ? x.data()[i] : y.data()[i];
        return make_tensor<T>(std::move(out));
      },
      a.data);
}

Tensor eval_cast(const Tensor& x, DType to) {
  switch (to) {
    case DType::Bool:
      return cast_to<bool>(x);
    case DType::I32:
      return cast_to<int32_t>(x);
    case DType::F32:
      return cast_to<float>(x);
  }
  throw std::logic_error("interp: cast to an unknown dtype");
}

}  // namespace uopc::interp

#include "interp/movement.h"

#include <stdexcept>
#include <string>
#include <xtensor/xbroadcast.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xpad.hpp>
#include <xtensor/xstrided_view.hpp>
#include <xtensor/xview.hpp>

#include "ir/plant.h"
#include "ir/semantics.h"

namespace uopc::interp {
namespace {

using Dims = std::vector<size_t>;

Dims dims(const std::vector<int64_t>& v) {
  return Dims(v.begin(), v.end());
}

// Applies `f` to the typed array inside `x` and wraps the result back into a Tensor.
template <class F>
Tensor visit_typed(const Tensor& x, F&& f) {
  return std::visit([&](const auto& a) { return make_tensor(f(a)); }, x.data);
}

template <class T>
T fold_step(Op fold, T acc, T v) {
  switch (fold) {
    case Op::Max:
      return sem::max(acc, v);
    case Op::Min:
      return sem::min(acc, v);
    default:
      break;
  }
  if constexpr (std::is_same_v<T, bool>) {
    return acc;  // add and mul on bool are type errors
  } else {
    return fold == Op::Add ? sem::add(acc, v) : sem::mul(acc, v);
  }
}

// Pairs combined level by level, an odd one carried up; `values` is used up.
template <class T>
T tree(Op fold, std::vector<T>& values) {
  for (size_t n = values.size(); n > 1; n = (n + 1) / 2)
    for (size_t i = 0; i < n; i += 2)
      values[i / 2] = i + 1 < n ? fold_step<T>(fold, values[i], values[i + 1]) : values[i];
  return values[0];
}

template <class T>
T identity_of(Op fold) {
  Scalar s = reduce_identity(fold, std::is_same_v<T, bool>    ? DType::Bool
                                   : std::is_same_v<T, float> ? DType::F32
                                                              : DType::I32);
  if constexpr (std::is_same_v<T, bool>)
    return s.as_bool();
  else if constexpr (std::is_same_v<T, float>)
    return s.as_f32();
  else
    return s.as_i32();
}

}  // namespace

Tensor eval_reshape(const Tensor& x, const Shape& shape) {
  return visit_typed(x, [&](const auto& a) {
    auto out = a;
    out.reshape(dims(shape));
    return out;
  });
}

Tensor eval_permute(const Tensor& x, const std::vector<int64_t>& order) {
  std::vector<int64_t> axes = order;
  if (planted(Plant::InterpPermuteInverse))
    for (size_t k = 0; k < order.size(); ++k) axes[static_cast<size_t>(order[k])] = int64_t(k);
  return visit_typed(x, [&](const auto& a) {
    using A = std::decay_t<decltype(a)>;
    return A(xt::transpose(a, dims(axes)));
  });
}

Tensor eval_expand(const Tensor& x, const Shape& shape) {
  return visit_typed(x, [&](const auto& a) {
    using A = std::decay_t<decltype(a)>;
    return A(xt::broadcast(a, dims(shape)));
  });
}

namespace {

// The type rules prove every offset and index in range (LANGUAGE.md §5); one outside it was
// computed wrong by the interpreter itself, and reading there would be undefined behaviour, not
// a value to compare.
void check_in_range(const char* op, const Tensor& x, size_t axis, int64_t begin, int64_t end) {
  int64_t size = x.shape().at(axis);
  if (begin >= 0 && end <= size && begin <= end) return;
  throw std::logic_error("interp: " + std::string(op) + " reads [" + std::to_string(begin) + ", " +
                         std::to_string(end) + ") of axis " + std::to_string(axis) + " (size " +
                         std::to_string(size) +
                         "), which the type rules proved in range: a value it was computed from "
                         "is wrong");
}

}  // namespace

Tensor eval_shrink(const Tensor& x, const std::vector<int64_t>& offsets, const Shape& shape) {
  xt::xstrided_slice_vector window;
  for (size_t k = 0; k < shape.size(); ++k) {
    check_in_range("shrink", x, k, offsets[k], offsets[k] + shape[k]);
    window.push_back(xt::range(offsets[k], offsets[k] + shape[k]));
  }
  return visit_typed(x, [&](const auto& a) {
    using A = std::decay_t<decltype(a)>;
    return A(xt::strided_view(a, window));
  });
}

Tensor eval_index(const Tensor& x, const std::vector<int64_t>& indices) {
  xt::xstrided_slice_vector at;
  for (size_t k = 0; k < indices.size(); ++k) {
    check_in_range("index", x, k, indices[k], indices[k] + 1);
    at.push_back(indices[k]);
  }
  at.push_back(xt::ellipsis());
  return visit_typed(x, [&](const auto& a) {
    using A = std::decay_t<decltype(a)>;
    return A(xt::strided_view(a, at));
  });
}

Tensor eval_pad(const Tensor& x, const std::vector<int64_t>& pads, Scalar value) {
  std::vector<std::vector<size_t>> widths;
  for (size_t k = 0; k + 1 < pads.size(); k += 2)
    widths.push_back({static_cast<size_t>(pads[k]), static_cast<size_t>(pads[k + 1])});
  return visit_typed(x, [&](const auto& a) {
    using A = std::decay_t<decltype(a)>;
    using T = typename A::value_type;
    T fill;
    if constexpr (std::is_same_v<T, bool>)
      fill = value.as_bool();
    else if constexpr (std::is_same_v<T, float>)
      fill = value.as_f32();
    else
      fill = value.as_i32();
    if (a.dimension() == 0) return A(a);  // nothing to pad; xt::pad wants an axis
    return A(xt::pad(a, widths, xt::pad_mode::constant, fill));
  });
}

// xt::flip with no axis argument overwrites its input under clang; one axis at a time is safe.
Tensor eval_flip(const Tensor& x, const std::vector<int64_t>& axes) {
  return visit_typed(x, [&](const auto& a) {
    using A = std::decay_t<decltype(a)>;
    A out = a;
    for (int64_t axis : axes) out = A(xt::flip(out, static_cast<size_t>(axis)));
    return out;
  });
}

Tensor eval_stack(const std::vector<const Tensor*>& parts) {
  return std::visit(
      [&](const auto& first) {
        using A = std::decay_t<decltype(first)>;
        Dims shape{parts.size()};
        shape.insert(shape.end(), first.shape().begin(), first.shape().end());
        A out = A::from_shape(shape);
        for (size_t k = 0; k < parts.size(); ++k) {
          xt::xstrided_slice_vector at{static_cast<int64_t>(k), xt::ellipsis()};
          xt::strided_view(out, at) = std::get<A>(parts[k]->data);
        }
        return make_tensor(std::move(out));
      },
      parts[0]->data);
}

// Folding one whole row of the flattened leading axes at a time keeps the order of LANGUAGE.md
// §3: for each output element, acc = op(acc, x[p, ...]) for p = 0, 1, ... in row-major
// order of the popped axes. xt::sum would pair terms in its own order.
Tensor eval_reduce(const Tensor& x, Op fold, int pop, int64_t unroll) {
  Shape in = x.shape();
  Shape rest(in.begin() + pop, in.end());
  int64_t outer = 1, inner = 1;
  for (int k = 0; k < pop; ++k) outer *= in[k];
  for (int64_t d : rest) inner *= d;
  int64_t f = unroll > 1 && pop > 0 && in[pop - 1] % unroll == 0 ? unroll : 1;
  return visit_typed(x, [&](const auto& a) {
    using A = std::decay_t<decltype(a)>;
    using T = typename A::value_type;
    A rows = a;
    rows.reshape({static_cast<size_t>(outer), static_cast<size_t>(inner)});
    A acc = A::from_shape({static_cast<size_t>(inner)});
    acc.fill(identity_of<T>(fold));
    if (f == 1) {
      for (int64_t p = 0; p < outer; ++p) {
        auto row = xt::view(rows, p, xt::all());
        for (int64_t i = 0; i < inner; ++i) acc(i) = fold_step<T>(fold, acc(i), row(i));
      }
    }
    std::vector<T> level(static_cast<size_t>(f));
    for (int64_t p = 0; f > 1 && p < outer; p += f) {
      for (int64_t i = 0; i < inner; ++i) {
        for (int64_t c = 0; c < f; ++c) level[static_cast<size_t>(c)] = rows(p + c, i);
        acc(i) = fold_step<T>(fold, acc(i), tree<T>(fold, level));
      }
    }
    acc.reshape(dims(rest));
    return acc;
  });
}

}  // namespace uopc::interp

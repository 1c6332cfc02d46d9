#include "tests/support/random_program.h"

#include <rapidcheck.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "ir/build.h"

namespace uopc::testing {
namespace {

int pick(int lo, int hi) {
  return *rc::gen::inRange(lo, hi + 1);
}

DType pick_dtype() {
  return static_cast<DType>(pick(0, 2));
}

// Distinct values, so a test cannot mistake one element for another.
Scalar value_for(DType d, int k) {
  static const float specials[] = {-0.0f, 0.5f, -1.25f, INFINITY, -INFINITY, NAN, 3.0e9f, 1e-40f};
  switch (d) {
    case DType::Bool:
      return Scalar::of_bool(pick(0, 1));
    case DType::I32:
      return Scalar::of_i32(pick(0, 9) == 0 ? INT32_MIN + k : k * 7 - 20);
    case DType::F32:
      return Scalar::of_f32(pick(0, 4) == 0 ? specials[pick(0, 7)]
                                            : static_cast<float>(k) * 0.75f - 3.0f);
  }
  return {};
}

// A random shape with `numel` elements and rank at most 4.
Shape factor_shape(int64_t numel) {
  int rank = pick(0, 4);
  if (numel == 0) {
    Shape s(std::max(rank, 1), 0);
    for (int64_t& d : s) d = pick(0, 2);
    s[pick(0, static_cast<int>(s.size()) - 1)] = 0;
    return s;
  }
  Shape s;
  int64_t left = numel;
  for (int k = 0; k + 1 < rank; ++k) {
    std::vector<int64_t> divisors;
    for (int64_t d = 1; d <= left; ++d)
      if (left % d == 0) divisors.push_back(d);
    int64_t d = divisors[pick(0, static_cast<int>(divisors.size()) - 1)];
    s.push_back(d);
    left /= d;
  }
  if (rank > 0 || left != 1) s.push_back(left);
  return s;
}

class Generator {
 public:
  Program run(int max_statements) {
    p_.file = "random.uir";
    add(source());
    int n = pick(1, max_statements);
    for (int i = 0; i < n; ++i) step();
    return std::move(p_);
  }

 private:
  UOpRef source() {
    if (pick(0, 1) == 0) return buffer(pick(0, 12), pick_dtype(), buffers_++);
    DType d = pick_dtype();
    std::vector<UOpRef> parts;
    int count = pick(1, 6);
    for (int k = 0; k < count; ++k) parts.push_back(literal(value_for(d, k)));
    return stack(parts);
  }

  void add(UOpRef node) {
    for (size_t i : uses_) p_.statements[i].used = true;
    uses_.clear();
    p_.statements.push_back({"%g" + std::to_string(p_.statements.size()), std::move(node),
                             static_cast<int>(p_.statements.size()) + 1, false});
  }

  UOpRef operand() {
    std::vector<size_t> values;
    for (size_t i = 0; i < p_.statements.size(); ++i)
      if (!p_.statements[i].is_assert()) values.push_back(i);
    size_t i = values[pick(0, static_cast<int>(values.size()) - 1)];
    uses_.push_back(i);
    return p_.statements[i].node;
  }

  void step() {
    if (pick(0, 7) == 0) return add(source());
    UOpRef x = operand();
    UOpRef y = transform(x);
    if (y)
      add(y);
    else
      uses_.clear();
  }

  UOpRef transform(const UOpRef& x) {
    int r = x->rank();
    switch (pick(0, 14)) {
      case 0:
        return reshape(x, factor_shape(x->numel()));
      case 1: {
        std::vector<int64_t> order(r);
        std::iota(order.begin(), order.end(), 0);
        for (int k = r - 1; k > 0; --k) std::swap(order[k], order[pick(0, k)]);
        return permute(x, order);
      }
      case 2: {
        Shape s = x->shape;
        for (int64_t& d : s)
          if (d == 1) d = pick(0, 3);
        if (r == 0) s = Shape(pick(0, 2), 2);
        return element_count(s) <= kMaxNumel ? expand(x, s) : nullptr;
      }
      case 3: {
        std::vector<UOpRef> offsets;
        Shape s;
        for (int64_t d : x->shape) {
          int64_t size = pick(0, static_cast<int>(d));
          offsets.push_back(literal(Scalar::of_i32(pick(0, static_cast<int>(d - size)))));
          s.push_back(size);
        }
        return shrink(x, offsets, s);
      }
      case 4: {
        std::vector<int64_t> pads;
        for (int k = 0; k < 2 * r; ++k) pads.push_back(pick(0, 2));
        UOpRef y = pick(0, 1) ? pad(x, pads) : pad(x, pads, value_for(x->dtype, 99));
        return y->numel() <= kMaxNumel ? y : nullptr;
      }
      case 5: {
        std::vector<int64_t> axes;
        for (int k = 0; k < r; ++k)
          if (pick(0, 1)) axes.push_back(k);
        return flip(x, axes);
      }
      case 6: {
        Op fold = std::vector<Op>{Op::Add, Op::Mul, Op::Max, Op::Min}[pick(0, 3)];
        if (x->dtype == DType::Bool && (fold == Op::Add || fold == Op::Mul)) fold = Op::Max;
        return reduce(x, fold, pick(0, r));
      }
      case 7:
        return cast(x, pick_dtype());
      case 8:
        return unary(x);
      case 9:
        return binary(x);
      case 10: {
        UOpRef c = alu(Op::Cmplt, broadcast({x, literal(value_for(x->dtype, 3))}));
        return alu(Op::Where, broadcast({c, x, literal(value_for(x->dtype, 5))}));
      }
      case 11:
        return stage(x);
      case 12: {
        std::vector<UOpRef> idx;
        for (int k = 0; k < r && pick(0, 1); ++k) {
          if (x->shape[k] == 0) break;
          idx.push_back(literal(Scalar::of_i32(pick(0, static_cast<int>(x->shape[k]) - 1))));
        }
        return index(x, idx);
      }
      case 13:
        return assert_equal(x, x);
      default:
        return stack({x, x});
    }
  }

  UOpRef unary(const UOpRef& x) {
    switch (x->dtype) {
      case DType::Bool:
        return alu(Op::Not, {x});
      case DType::I32:
        return alu(Op::Neg, {x});
      case DType::F32: {
        Op op =
            std::vector<Op>{Op::Neg, Op::Recip, Op::Sqrt, Op::Exp2, Op::Log2, Op::Sin}[pick(0, 5)];
        return alu(op, {x});
      }
    }
    return nullptr;
  }

  UOpRef binary(const UOpRef& x) {
    std::vector<Op> ops{Op::Max, Op::Min, Op::Cmplt, Op::Cmpeq, Op::Cmpne};
    if (x->dtype != DType::Bool) ops.insert(ops.end(), {Op::Add, Op::Sub, Op::Mul});
    if (x->dtype == DType::F32) ops.push_back(Op::Div);
    if (x->dtype == DType::I32) ops.insert(ops.end(), {Op::Idiv, Op::Mod});
    if (x->dtype != DType::F32) ops.insert(ops.end(), {Op::And, Op::Or, Op::Xor});
    Op op = ops[pick(0, static_cast<int>(ops.size()) - 1)];
    UOpRef other = pick(0, 1) ? x : literal(value_for(x->dtype, 11));
    return pick(0, 1) ? alu(op, broadcast({x, other})) : alu(op, broadcast({other, x}));
  }

  Program p_;
  std::vector<size_t> uses_;
  int64_t buffers_ = 0;
};

}  // namespace

Program random_program(int max_statements) {
  return Generator().run(max_statements);
}

}  // namespace uopc::testing

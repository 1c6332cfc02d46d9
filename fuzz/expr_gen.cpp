#include "fuzz/expr_gen.h"

#include <algorithm>

#include "ir/build.h"
#include "ir/loop.h"

namespace uopc {
namespace {

UOpRef lit(int64_t v) {
  return literal(
      Scalar::of_i32(static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX))));
}

const std::vector<int64_t> kDivisors = {1,  2,  3,  4,       6,     8,       12,        16, 64,
                                        -1, -2, -3, 1 << 16, 46341, 1 << 30, INT32_MAX, 0};

Interval random_bounds(Choices& c) {
  switch (c.range(0, 8)) {
    case 0:
    case 1:
      return {0, c.range(0, 15)};
    case 2: {
      int64_t lo = c.range(-20, 0);
      return {lo, lo + c.range(0, 30)};
    }
    case 3: {
      int64_t hi = c.range(-40, -1);
      return {hi - c.range(0, 20), hi};
    }
    case 4:
      return {INT32_MIN, INT32_MIN + c.range(0, 40)};
    case 5:
      return {INT32_MAX - c.range(0, 40), INT32_MAX};
    case 6: {
      int64_t k = int64_t{1} << c.range(8, 30), w = c.range(0, 8);
      if (c.coin()) return {-k, k};
      return c.coin() ? Interval{k - w, k + w} : Interval{-k - w, -k + w};
    }
    case 7:
      return {0, INT32_MAX};
    default:
      return Interval::full();
  }
}

class ExprGen {
 public:
  explicit ExprGen(Choices& c) : c_(c) {
    int n = static_cast<int>(c.range(1, 3));
    for (int v = 0; v < n; ++v) vars_.push_back(var(v, random_bounds(c)));
  }

  RandomExpr run() { return {vars_, any(static_cast<int>(c_.range(1, 4)))}; }

 private:
  int64_t constant() {
    switch (c_.range(0, 3)) {
      case 0:
        return c_.range(-20, 20);
      case 1:
        return c_.pick(std::vector<int64_t>{INT32_MIN, INT32_MAX, 0, 1, -1, 1 << 30, -(1 << 30)});
      case 2: {
        int64_t p = int64_t{1} << c_.range(0, 30);
        return c_.coin() ? p + c_.range(-1, 1) : -p;
      }
      default:
        return c_.pick(kDivisors);
    }
  }

  int64_t divisor() { return c_.pick(kDivisors); }

  UOpRef leaf() { return c_.one_in(3) ? lit(constant()) : c_.pick(vars_); }

  // A subterm built earlier in this expression, so that parts repeat as a kernel's index
  // reuses its ranges, and the rules that need two equal parts see them, or nearly.
  UOpRef shared(int depth) {
    if (pool_.empty()) return any(depth);
    return c_.pick(pool_);
  }

  // An operand that is x half the time and otherwise a near miss: another subterm, x moved
  // by a little, or another variable. A rule whose side condition asks for the same x twice
  // is then tried where the condition holds and where it narrowly does not.
  UOpRef same_or_near(const UOpRef& x, int depth) {
    if (c_.coin()) return x;
    switch (c_.range(0, 2)) {
      case 0:
        return shared(depth);
      case 1:
        return alu(Op::Add, {x, lit(c_.coin() ? 1 : -1)});
      default:
        return c_.pick(vars_);
    }
  }

  // e shifted so that its bounds touch (or just cross) an end of i32.
  UOpRef edge(const UOpRef& e) {
    const Interval& b = e->bounds;
    if (b == Interval::full()) return e;
    int64_t k = c_.coin() ? INT32_MAX - b.hi : INT32_MIN - b.lo;
    return alu(Op::Add, {e, lit(k + c_.range(-2, 2))});
  }

  UOpRef any(int depth) {
    UOpRef e = fresh(depth);
    if (depth > 0 && pool_.size() < 8) pool_.push_back(e);
    return e;
  }

  UOpRef fresh(int depth) {
    if (depth <= 0) return leaf();
    switch (c_.range(0, 20)) {
      case 0:
        return leaf();
      case 1:
        return alu(Op::Add, {any(depth - 1), any(depth - 1)});
      case 2:
        return alu(Op::Sub, {any(depth - 1), any(depth - 1)});
      case 3:
        return alu(Op::Mul, {any(depth - 1), c_.coin() ? any(depth - 1) : lit(constant())});
      case 4: {
        Op op = c_.coin() ? Op::Idiv : Op::Mod;
        return alu(op, {any(depth - 1), c_.coin() ? any(depth - 1) : lit(divisor())});
      }
      case 5: {
        Op op = c_.coin() ? Op::Max : Op::Min;
        return alu(op, {any(depth - 1), any(depth - 1)});
      }
      case 6: {
        UOpRef a = any(depth - 1), b = any(depth - 1);
        Op cmp = c_.pick(std::vector<Op>{Op::Cmplt, Op::Cmpeq, Op::Cmpne});
        return alu(Op::Where, {alu(cmp, {a, b}), a, b});
      }
      case 7:
        return alu(Op::Neg, {any(depth - 1)});
      case 8:
        return alu(Op::Mul, {alu(Op::Add, {any(depth - 1), any(depth - 1)}), lit(constant())});
      case 9:
      case 10:
        return divided_sum(depth);
      case 11:
      case 16:
      case 17:
        return nested_divmod(depth);
      case 12:
        return divmod_pair(depth);
      case 13:
        return against_bounds(depth);
      case 14:
        return edge(any(depth - 1));
      case 18:
        return divided_sum(depth);
      case 15:
        return cast(alu(Op::Cmplt, {any(depth - 1), any(depth - 1)}), DType::I32);
      case 19:
        return shared(depth - 1);
      default:
        return scaled_sum(depth, divisor());
    }
  }

  // t0*k0 + t1*k1 + ... + k, some coefficients multiples of d and some not.
  UOpRef scaled_sum(int depth, int64_t d) {
    UOpRef sum;
    int terms = static_cast<int>(c_.range(1, 3));
    for (int t = 0; t < terms; ++t) {
      int64_t k = c_.coin() ? d * c_.range(-3, 4) : constant();
      UOpRef term = c_.one_in(3) ? any(depth - 1) : c_.pick(vars_);
      if (c_.one_in(3)) term = edge(term);
      UOpRef scaled = k == 1 ? term : alu(Op::Mul, {term, lit(k)});
      sum = sum ? alu(c_.coin() ? Op::Add : Op::Sub, {sum, scaled}) : scaled;
    }
    return c_.coin() ? alu(Op::Add, {sum, lit(constant())}) : sum;
  }

  // (sum) // d or (sum) % d: the div/mod split and its bounds checks. Half the time the sum
  // is of variables with a constant that puts its exact range at an end of i32, so that the
  // whole sum fits while the part left after taking out d's multiples may not.
  UOpRef divided_sum(int depth) {
    int64_t d = divisor();
    Op op = c_.coin() ? Op::Idiv : Op::Mod;
    if (d <= 0 || c_.coin()) return alu(op, {scaled_sum(depth, d), lit(d)});
    UOpRef sum;
    // The exact range of the sum so far, in 128 bits: three products of i32 values overflow 64.
    __int128 lo = 0, hi = 0;
    for (int t = 0, n = static_cast<int>(c_.range(2, 3)); t < n; ++t) {
      const UOpRef& v = c_.pick(vars_);
      int64_t k = c_.coin() ? 1 : c_.coin() ? d * c_.range(-2, 2) : c_.range(-3, 3);
      k = std::clamp<int64_t>(k, INT32_MIN, INT32_MAX);  // as the literal holds it
      __int128 a = static_cast<__int128>(k) * v->bounds.lo,
               b = static_cast<__int128>(k) * v->bounds.hi;
      lo += std::min(a, b);
      hi += std::max(a, b);
      UOpRef term = k == 1 ? v : alu(Op::Mul, {v, lit(k)});
      sum = sum ? alu(Op::Add, {sum, term}) : term;
    }
    __int128 want = c_.coin() ? INT32_MAX - hi : INT32_MIN - lo;
    constexpr __int128 kFar = int64_t{1} << 40;  // past either end of i32 by far; lit clamps
    int64_t shift = static_cast<int64_t>(std::clamp(want, -kFar, kFar));
    shift = shift / d * d + d * c_.range(-1, 1);
    return alu(op, {alu(Op::Add, {sum, lit(shift)}), lit(d)});
  }

  // (x op a) op b with a dividing b, b dividing a, or neither.
  UOpRef nested_divmod(int depth) {
    int64_t a = divisor(), b = divisor();
    if (c_.coin() && a != 0) b = a * c_.range(-2, 4);
    if (c_.coin() && b != 0) a = b * c_.range(-2, 4);
    Op inner_op = c_.coin() ? Op::Idiv : Op::Mod;
    UOpRef inner = alu(inner_op, {any(depth - 1), lit(a)});
    return alu(c_.coin() ? Op::Idiv : Op::Mod, {inner, lit(b)});
  }

  // (x // d) * (d*k) + (y % d) * k, which is x * k exactly when the divisors match and y is x.
  UOpRef divmod_pair(int depth) {
    UOpRef x = any(depth - 1);
    UOpRef y = c_.one_in(4) ? same_or_near(x, depth - 1) : x;
    int64_t d = divisor(), k = c_.coin() ? 1 : constant();
    int64_t d2 = c_.one_in(4) ? divisor() : d;
    UOpRef q = alu(Op::Mul, {alu(Op::Idiv, {x, lit(d)}), lit(d2 * k)});
    UOpRef r = alu(Op::Mul, {alu(Op::Mod, {y, lit(d2)}), lit(k)});
    return c_.coin() ? alu(Op::Add, {q, r}) : alu(Op::Add, {r, q});
  }

  // x compared with, or clamped at, a constant next to an end of x's bounds. A comparison
  // picks x or a constant that is not k: where(x == k, x, k) would be k either way, and hide a
  // wrong decision.
  UOpRef against_bounds(int depth) {
    UOpRef x = any(depth - 1);
    int64_t end = c_.coin() ? x->bounds.lo : x->bounds.hi;
    int64_t at = std::clamp<int64_t>(end + c_.range(-1, 1), INT32_MIN, INT32_MAX);
    UOpRef k = lit(at);
    std::vector<UOpRef> ops = c_.coin() ? std::vector<UOpRef>{x, k} : std::vector<UOpRef>{k, x};
    Op op = c_.pick(std::vector<Op>{Op::Max, Op::Min, Op::Cmplt, Op::Cmpeq, Op::Cmpne});
    UOpRef r = alu(op, ops);
    if (r->dtype != DType::Bool) return r;
    return alu(Op::Where, {r, x, lit(at == INT32_MAX ? at - 1 : at + 1)});
  }

  Choices& c_;
  std::vector<UOpRef> vars_;
  std::vector<UOpRef> pool_;
};

}  // namespace

RandomExpr random_expr(Choices& choices) {
  return ExprGen(choices).run();
}

}  // namespace uopc

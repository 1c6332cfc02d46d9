#include "fuzz/gen.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include "fuzz/expr_gen.h"
#include "ir/build.h"
#include "ir/error.h"
#include "ir/parse.h"
#include "ir/print.h"

namespace uopc {
namespace {

UOpRef i32(int64_t v) {
  return literal(Scalar::of_i32(static_cast<int32_t>(v)));
}

UOpRef one(DType d) {
  return literal(d == DType::F32 ? Scalar::of_f32(1.0f) : Scalar::of_i32(1));
}

const std::vector<Op> kUnaryF32 = {Op::Neg, Op::Recip, Op::Sqrt, Op::Exp2, Op::Log2, Op::Sin};
// The last three need eight significant digits to print back to the same float: a printer
// that rounds shorter is then a roundtrip failure.
const std::vector<float> kSpecials = {-0.0f, NAN,    INFINITY,    -INFINITY, 1e8f,        -1e8f,
                                      3e9f,  1e-40f, 1.0f / 3.0f, FLT_MAX,   -16777215.0f};

// The values where the language's semantics differ from the obvious (fuzz/edge_stats.h), with a few
// ordinary neighbours to meet them. 2^31 is the first f32 a cast to i32 saturates; -2^31 is
// INT32_MIN exactly, the last it does not.
const std::vector<float> kEdgeF32 = {-0.0f,         0.0f,           NAN,     INFINITY,
                                     -INFINITY,     1e-40f,         -1e-45f, 1.0f,
                                     2147483648.0f, -2147483648.0f, -1.5f};
const std::vector<int64_t> kEdgeI32 = {INT32_MIN, INT32_MAX, -1, 0, 1, INT32_MIN + 1, 7};

// How many times a step is drawn again when the steering refuses what it built.
constexpr int kMaxTries = 8;

class Generator {
 public:
  Generator(Choices& c, const GenOptions& o) : c_(c), o_(o) {}

  Program run() {
    p_.file = "generated.uir";
    for (int tries = 0; p_.statements.empty(); ++tries) {
      UOpRef first = source();
      if (kept(first) || tries >= kMaxTries) add(first);
    }
    int n = static_cast<int>(c_.range(1, o_.max_statements));
    for (int i = 0; i < n; ++i) step();
    return std::move(p_);
  }

  // `count` expression values (expression_value), each an output.
  Program expressions(int count) {
    p_.file = "expressions.uir";
    int outputs = 0;
    for (int tries = 0; outputs < count && tries < kMaxTries * count; ++tries) {
      UOpRef e = expression_value();
      if (e->src.empty() || e->numel() > o_.max_numel || !kept(e)) continue;
      add(e);
      ++outputs;
    }
    return std::move(p_);
  }

 private:
  // ---- bookkeeping
  void add(const UOpRef& node) {
    if (!node) return;
    for (size_t i : uses_) p_.statements[i].used = true;
    uses_.clear();
    int line = static_cast<int>(p_.statements.size()) + 1;
    p_.statements.push_back({"%v" + std::to_string(p_.statements.size()), node, line, false});
  }

  // A value built so far (not an assert), marked as used by the next statement.
  UOpRef operand() {
    std::vector<size_t> values;
    for (size_t i = 0; i < p_.statements.size(); ++i)
      if (!p_.statements[i].is_assert()) values.push_back(i);
    // Recent values more often: chains get long.
    size_t k = c_.coin() ? values.back() : c_.pick(values);
    uses_.push_back(k);
    return p_.statements[k].node;
  }

  // Another value of this dtype and shape, if there is one.
  UOpRef partner(const UOpRef& x) {
    std::vector<size_t> same;
    for (size_t i = 0; i < p_.statements.size(); ++i) {
      const UOpRef& n = p_.statements[i].node;
      if (!p_.statements[i].is_assert() && n->dtype == x->dtype && n->shape == x->shape)
        same.push_back(i);
    }
    if (same.empty()) return nullptr;
    size_t k = c_.pick(same);
    uses_.push_back(k);
    return p_.statements[k].node;
  }

  // ---- values and shapes
  DType dtype() {
    if (o_.steering.dtypes.empty()) return static_cast<DType>(c_.range(0, 2));
    return c_.pick(std::vector<DType>(o_.steering.dtypes.begin(), o_.steering.dtypes.end()));
  }

  // Literals the steering refuses become ordinary ones.
  Scalar steered(Scalar v, int64_t k) {
    if (o_.steering.allows(v)) return v;
    if (v.dtype == DType::F32) return Scalar::of_f32(static_cast<float>(k % 8) * 0.75f + 0.5f);
    return Scalar::of_i32(static_cast<int32_t>(k % 64) * 7 - 20);
  }

  int max_rank() const { return std::min(5, o_.steering.max_rank); }

  Scalar value(DType d, int64_t k) { return steered(any_value(d, k), k); }

  Scalar any_value(DType d, int64_t k) {
    switch (d) {
      case DType::Bool:
        return Scalar::of_bool(c_.coin());
      case DType::I32:
        if (c_.one_in(8))  // near the extremes; k may be negative, so computed in 64 bits
          return Scalar::of_i32(static_cast<int32_t>(c_.coin() ? int64_t{INT32_MIN} + std::abs(k)
                                                               : int64_t{INT32_MAX} - std::abs(k)));
        return Scalar::of_i32(static_cast<int32_t>(k * 7 - 20));
      case DType::F32:
        if (c_.one_in(5)) return Scalar::of_f32(c_.pick(kSpecials));
        return Scalar::of_f32(static_cast<float>(k) * 0.75f - 3.0f);
    }
    return {};
  }

  Shape shape_of(int64_t budget) {
    int rank = static_cast<int>(c_.range(0, max_rank()));
    Shape s;
    int64_t n = 1;
    for (int k = 0; k < rank; ++k) {
      int64_t d = c_.one_in(20) ? 0 : c_.range(1, 5);
      if (d > 0 && n * d > budget) d = 1;
      s.push_back(d);
      n *= std::max<int64_t>(d, 1);
    }
    return s;
  }

  // A shape with `numel` elements and rank 0 to 5, splitting and merging factors.
  Shape factor(int64_t numel) {
    int rank = static_cast<int>(c_.range(0, max_rank()));
    if (numel == 0) {
      Shape s(static_cast<size_t>(std::max(rank, 1)), 0);
      for (int64_t& d : s) d = c_.range(0, 3);
      s[static_cast<size_t>(c_.range(0, static_cast<int64_t>(s.size()) - 1))] = 0;
      return s;
    }
    Shape s;
    int64_t left = numel;
    for (int k = 0; k + 1 < rank; ++k) {
      std::vector<int64_t> divisors;
      for (int64_t d = 1; d <= left && d <= 64; ++d)
        if (left % d == 0) divisors.push_back(d);
      int64_t d = c_.pick(divisors);
      s.push_back(d);
      left /= d;
    }
    if (rank > 0 || left != 1) s.push_back(left);
    return s;
  }

  // ---- sources
  UOpRef source() {
    const Steering& st = o_.steering;
    // One source in 16; the top of the range, which RapidCheck's small sizes rarely draw, so
    // that its early inputs are not all expressions.
    if (st.allows(DType::I32) && st.allows(Op::Stack) && c_.range(0, 15) == 15)
      if (UOpRef e = expression_value(); !e->src.empty()) return e;
    Shape s = shape_of(st.allows(Op::Buffer) ? o_.max_numel : 24);
    if (!st.allows(Op::Reshape)) s = {element_count(s)};
    int64_t n = element_count(s);
    UOpRef flat;
    if (!st.allows(Op::Stack) || (st.allows(Op::Buffer) && (c_.coin() || n > 24))) {
      flat = buffer(n, dtype(), buffers_++);
    } else if (s.size() >= 2 && n > 0 && c_.coin()) {
      int64_t k = 0;
      return literal_rows(dtype(), s, k);
    } else {
      DType d = dtype();
      std::vector<UOpRef> parts;
      for (int64_t k = 0; k < std::max<int64_t>(n, 1); ++k) parts.push_back(literal(value(d, k)));
      flat = stack(parts);
    }
    if (flat->numel() != n) return flat;
    add(flat);
    uses_.push_back(p_.statements.size() - 1);
    return reshape(flat, s);
  }

  // An integer expression of the symbolic oracle's kind (fuzz/expr_gen.h) computed
  // elementwise, each variable a stack of values across its bounds, both ends among them: the
  // kernel's simplifier and renderer see the bounds the rules' side conditions are about, and
  // the values where they bite (an i32 product of divisors that wraps, a sum that overflows).
  UOpRef expression_value() {
    RandomExpr e = random_expr(c_);
    int64_t n = c_.range(2, 8);
    std::map<const UOp*, UOpRef> done;
    for (const UOpRef& v : e.vars) {
      std::vector<UOpRef> parts;
      for (int64_t k = 0; k < n; ++k) {
        int64_t at = k == 0   ? v->bounds.lo
                     : k == 1 ? v->bounds.hi
                              : c_.range(v->bounds.lo, v->bounds.hi);
        parts.push_back(literal(Scalar::of_i32(static_cast<int32_t>(at))));
      }
      done[v.get()] = stack(parts);
    }
    return elementwise(e.expr, done);
  }

  UOpRef elementwise(const UOpRef& n, std::map<const UOp*, UOpRef>& done) {
    if (auto it = done.find(n.get()); it != done.end()) return it->second;
    if (n->src.empty()) return n;  // a literal
    std::vector<UOpRef> src;
    for (const UOpRef& s : n->src) src.push_back(elementwise(s, done));
    if (n->op == Op::Cast) return done[n.get()] = cast(src[0], n->dtype);
    return done[n.get()] = alu(n->op, broadcast(src));
  }

  // A literal value of shape s (no empty axis) written as the course writes a matrix: a stack
  // of its rows, a row being a stack of literals, one literal broadcast by expand, or rows
  // again. Elements get values k, k + 1, ...
  UOpRef literal_rows(DType d, const Shape& s, int64_t& k) {
    Shape rest(s.begin() + 1, s.end());
    std::vector<UOpRef> rows;
    for (int64_t i = 0; i < s[0]; ++i) {
      if (o_.steering.allows(Op::Expand) && c_.one_in(4)) {
        rows.push_back(expand(literal(value(d, k++)), rest));
      } else if (rest.size() > 1) {
        rows.push_back(literal_rows(d, rest, k));
      } else {
        std::vector<UOpRef> parts;
        for (int64_t j = 0; j < rest[0]; ++j) parts.push_back(literal(value(d, k++)));
        rows.push_back(stack(parts));
      }
    }
    return stack(rows);
  }

  // A rank-0 i32 value in [0, c - 1] that only interval analysis knows is in range.
  UOpRef computed_offset(int64_t c) {
    if (c <= 1 || c_.coin()) return i32(c <= 1 ? 0 : c_.range(0, c - 1));
    UOpRef table = buffer(4, DType::I32, 1000 + c_.range(0, 3));
    UOpRef data = index(table, {i32(c_.range(0, 3))});
    switch (c_.range(0, 2)) {
      case 0:
        return alu(Op::Mod, {data, i32(c)});
      case 1:
        return alu(Op::Min, {alu(Op::Max, {data, i32(0)}), i32(c - 1)});
      default: {
        UOpRef flag = cast(alu(Op::Cmplt, {data, i32(0)}), DType::I32);
        return alu(Op::Mul, {flag, i32(c - 1)});
      }
    }
  }

  void step() {
    for (int tries = 0; tries < (steered_ ? kMaxTries : 1); ++tries) {
      UOpRef y = draw();
      if (y && y->numel() <= o_.max_numel && kept(y)) return add(y);
      uses_.clear();
    }
  }

  UOpRef draw() {
    if (c_.one_in(8)) return source();
    UOpRef x = operand();
    try {
      return transform(x);
    } catch (const TypeError&) {
      // A draw the type rules refuse (say, a stack past rank 8) is skipped, not kept.
      return nullptr;
    }
  }

  bool kept(const UOpRef& y) { return !steered_ || steering_violation(y, o_.steering).empty(); }

  // The op each draw of transform builds first (Const: an op chosen among those allowed).
  static Op primary(int64_t draw) {
    static const Op ops[] = {
        Op::Reshape, Op::Reshape, Op::Permute, Op::Expand, Op::Shrink, Op::Shrink, Op::Pad,
        Op::Flip,    Op::Stack,   Op::Index,   Op::Reduce, Op::Reduce, Op::Reduce, Op::Const,
        Op::Const,   Op::Const,   Op::Where,   Op::Const,  Op::Assert, Op::Expand, Op::Expand};
    return ops[draw];
  }

  // A draw of transform whose first op the steering allows (the first draw, unsteered).
  int64_t transform_draw() {
    int64_t draw = c_.range(0, 20);
    for (int tries = 0; steered_ && tries < kMaxTries; ++tries) {
      if (primary(draw) == Op::Const || o_.steering.allows(primary(draw))) break;
      draw = c_.range(0, 20);
    }
    return draw;
  }

  UOpRef transform(const UOpRef& x) {
    switch (transform_draw()) {
      case 19:
      case 20:
        return edge_meeting();
      case 0:
      case 1:
        return reshape(x, factor(x->numel()));
      case 2:
        return permute_random(x);
      case 3:
        return expand_random(x);
      case 4:
      case 5:
        return shrink_random(x);
      case 6:
        return pad_random(x);
      case 7:
        return flip_random(x);
      case 8:
        return stack_random(x);
      case 9:
        return index_random(x);
      case 10:
      case 11:
        return reduce_random(x);
      case 12:
        return softmax_like(x);
      case 13:
        return unary(x);
      case 14:
      case 15:
        return binary(x);
      case 16:
        return where_random(x);
      case 17:
        return c_.coin() ? cast(x, dtype()) : stage(x);
      default:
        return assert_random(x);
    }
  }

  UOpRef permute_random(const UOpRef& x) {
    std::vector<int64_t> order(static_cast<size_t>(x->rank()));
    std::iota(order.begin(), order.end(), 0);
    for (size_t k = order.size(); k > 1; --k)
      std::swap(order[k - 1], order[static_cast<size_t>(c_.range(0, static_cast<int64_t>(k) - 1))]);
    return permute(x, order);
  }

  UOpRef expand_random(const UOpRef& x) {
    if (x->rank() == 0) return expand(x, factor(c_.range(1, 6)));
    Shape s = x->shape;
    if (std::find(s.begin(), s.end(), 1) == s.end()) {
      if (x->rank() >= 5) return nullptr;
      s.insert(s.begin() + c_.range(0, x->rank()), 1);
      return expand(reshape(x, s), grow(s));
    }
    return expand(x, grow(s));
  }

  Shape grow(Shape s) {
    for (int64_t& d : s)
      if (d == 1 && c_.coin()) d = c_.range(0, 4);
    return s;
  }

  UOpRef shrink_random(const UOpRef& x) {
    std::vector<UOpRef> offsets;
    Shape s;
    for (int64_t d : x->shape) {
      int64_t size = c_.range(0, d);
      offsets.push_back(computed_offset(d - size + 1));
      s.push_back(size);
    }
    return shrink(x, offsets, s);
  }

  UOpRef pad_random(const UOpRef& x) {
    std::vector<int64_t> pads;
    for (int k = 0; k < 2 * x->rank(); ++k) pads.push_back(c_.one_in(3) ? c_.range(0, 3) : 0);
    if (c_.one_in(3)) return pad(x, pads, edge_value(x->dtype, c_.range(0, 8)));
    return c_.coin() ? pad(x, pads) : pad(x, pads, value(x->dtype, 99));
  }

  Scalar edge_value(DType d, int64_t k) { return steered(any_edge_value(d, k), k); }

  Scalar any_edge_value(DType d, int64_t k) {
    switch (d) {
      case DType::Bool:
        return Scalar::of_bool(k % 2);
      case DType::I32:
        return Scalar::of_i32(
            static_cast<int32_t>(kEdgeI32[static_cast<size_t>(k) % kEdgeI32.size()]));
      case DType::F32:
        break;
    }
    return Scalar::of_f32(kEdgeF32[static_cast<size_t>(k) % kEdgeF32.size()]);
  }

  // n edge values of dtype d from a random place in their list: a literal stack.
  UOpRef edge_vector(DType d, int64_t n) {
    int64_t start = c_.range(0, 8), step = c_.coin() ? 1 : 2;
    std::vector<UOpRef> parts;
    for (int64_t i = 0; i < n; ++i) parts.push_back(literal(edge_value(d, start + i * step)));
    return stack(parts);
  }

  // Every edge value of one list against every one of another: a column and a row expanded to
  // a square, combined by an op (or a where, a cast, a pad or a reduce of the square). The
  // operands are staged at random, so the compiled op reads loads as well as expressions.
  UOpRef edge_meeting() {
    uses_.clear();  // a new value, from nothing built so far
    DType d = dtype();
    int64_t k = std::clamp<int64_t>(
        static_cast<int64_t>(std::sqrt(static_cast<double>(o_.max_numel))), 1, 9);
    UOpRef a = expand(reshape(edge_vector(d, k), {k, 1}), {k, k});
    UOpRef b = expand(reshape(edge_vector(d, k), {1, k}), {k, k});
    if (c_.one_in(3)) a = stage(a);
    if (c_.one_in(3)) b = stage(b);
    switch (c_.range(0, 5)) {
      case 0:
        return alu(Op::Where, {alu(Op::Cmplt, {a, b}), a, b});
      case 1:
        return cast(a, dtype());
      case 2:
        return pad(a, {1, 0, 0, 1}, edge_value(d, c_.range(0, 8)));
      case 3: {
        UOpRef both = alu(c_.coin() ? Op::Max : Op::Min, {a, b});
        Op fold = fold_for(d);
        return reduce(both, fold, c_.range(1, 2));
      }
      default:
        break;
    }
    std::vector<Op> ops{Op::Max, Op::Min, Op::Cmplt, Op::Cmpeq, Op::Cmpne};
    if (d != DType::Bool) ops.insert(ops.end(), {Op::Add, Op::Sub, Op::Mul});
    if (d == DType::F32) ops.push_back(Op::Div);
    if (d == DType::I32) ops.insert(ops.end(), {Op::Idiv, Op::Mod});
    if (d != DType::F32) ops.insert(ops.end(), {Op::And, Op::Or, Op::Xor});
    ops = allowed(ops);
    return ops.empty() ? nullptr : alu(c_.pick(ops), {a, b});
  }

  UOpRef flip_random(const UOpRef& x) {
    std::vector<int64_t> axes;
    for (int k = 0; k < x->rank(); ++k)
      if (c_.coin()) axes.push_back(k);
    return flip(x, axes);
  }

  UOpRef stack_random(const UOpRef& x) {
    if (x->rank() >= kMaxRank) return nullptr;
    std::vector<UOpRef> parts{x};
    int n = static_cast<int>(c_.range(1, 3));
    for (int k = 0; k < n; ++k) {
      UOpRef other = partner(x);
      parts.push_back(other ? other : x);
    }
    return stack(parts);
  }

  UOpRef index_random(const UOpRef& x) {
    std::vector<UOpRef> idx;
    for (int k = 0; k < x->rank() && c_.coin(); ++k) {
      if (x->shape[static_cast<size_t>(k)] == 0) break;
      idx.push_back(computed_offset(x->shape[static_cast<size_t>(k)]));
    }
    return index(x, idx);
  }

  Op fold_for(DType d) {
    Op f = c_.pick(std::vector<Op>{Op::Add, Op::Mul, Op::Max, Op::Min});
    if (d == DType::Bool && (f == Op::Add || f == Op::Mul)) f = c_.coin() ? Op::Max : Op::Min;
    return f;
  }

  UOpRef reduce_random(const UOpRef& x) {
    int pop = static_cast<int>(c_.range(0, x->rank()));
    UOpRef r = reduce(x, fold_for(x->dtype), pop);
    if (pop == 0 || !c_.coin() || x->dtype == DType::Bool) return r;
    // Broadcast back over the popped axes and combine with x.
    Shape ones = x->shape;
    for (int k = 0; k < pop; ++k) ones[static_cast<size_t>(k)] = 1;
    UOpRef back = expand(reshape(r, ones), x->shape);
    return alu(c_.coin() ? Op::Sub : Op::Max, {x, back});
  }

  // Rows reduced over their trailing axis, broadcast back, through a flatten/unflatten: rows
  // of 8 or more, so a reduce recomputed per element shows in the loop count.
  UOpRef softmax_like(const UOpRef& x0) {
    if (x0->dtype == DType::Bool || x0->numel() < 8) return reduce_random(x0);
    int64_t n = x0->numel(), b = 1;
    for (int64_t d = 8; d <= 64 && d <= n; ++d)
      if (n % d == 0) b = d;
    if (b == 1) return reduce_random(x0);
    int64_t a = n / b;
    UOpRef x = x0->shape == Shape{a, b} ? x0 : reshape(x0, {a, b});
    UOpRef m = reduce(permute(x, {1, 0}), c_.coin() ? Op::Max : Op::Add, 1);
    UOpRef d = alu(Op::Sub, {x, expand(reshape(m, {a, 1}), {a, b})});
    if (x->dtype == DType::F32 && c_.coin()) d = alu(Op::Exp2, {d});
    return reshape(reshape(d, {a * b}), {a, b});
  }

  UOpRef unary(const UOpRef& x) {
    switch (x->dtype) {
      case DType::Bool:
        return alu(Op::Not, {x});
      case DType::I32:
        return alu(Op::Neg, {x});
      case DType::F32: {
        std::vector<Op> ops = allowed(kUnaryF32);
        return ops.empty() ? nullptr : alu(c_.pick(ops), {x});
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
    ops = allowed(ops);
    if (ops.empty()) return nullptr;
    Op op = c_.pick(ops);
    UOpRef other = c_.coin() ? partner(x) : nullptr;
    if (!other) other = literal(value(x->dtype, c_.range(-3, 40)));
    // A literal written as `expand 3 shape=[]` is a node of its own, not the bare literal: the
    // printer and the lowering must keep the two apart.
    if (x->rank() == 0 && other->op == Op::Const && c_.one_in(4)) other = expand(other, {});
    std::vector<UOpRef> v =
        c_.coin() ? std::vector<UOpRef>{x, other} : std::vector<UOpRef>{other, x};
    return alu(op, broadcast(v));
  }

  UOpRef where_random(const UOpRef& x) {
    UOpRef cond =
        x->dtype == DType::Bool ? x : alu(Op::Cmplt, broadcast({x, literal(value(x->dtype, 3))}));
    UOpRef other = partner(x);
    if (!other) other = literal(value(x->dtype, 5));
    return alu(Op::Where, broadcast({cond, x, other}));
  }

  // x against a rewrite of x that must be equal: a check inside the program. One in five is
  // against x changed (x + 1, not x), which fails wherever x is not a fixed point of the change:
  // an engine must report a failing assert as the interpreter does (where, with which values,
  // its exit status), which asserts that always hold never ask of it.
  UOpRef assert_random(const UOpRef& x) {
    UOpRef y = x;
    switch (c_.range(0, 4)) {
      case 0: {
        std::vector<int64_t> axes;
        for (int k = 0; k < x->rank(); ++k)
          if (c_.coin()) axes.push_back(k);
        y = flip(flip(x, axes), axes);
        break;
      }
      case 1:
        y = reshape(reshape(x, factor(x->numel())), x->shape);
        break;
      case 2: {
        std::vector<int64_t> pads(static_cast<size_t>(2 * x->rank()), 1);
        std::vector<UOpRef> offsets(static_cast<size_t>(x->rank()), i32(1));
        y = shrink(pad(x, pads), offsets, x->shape);
        break;
      }
      case 3:
        y = x->dtype == DType::Bool ? alu(Op::Not, {x})
                                    : alu(Op::Add, broadcast({x, one(x->dtype)}));
        break;
      default:
        break;
    }
    return assert_equal(x, y);
  }

  // The ops of `ops` the steering allows (all of them, unsteered, in the same order).
  std::vector<Op> allowed(std::vector<Op> ops) const {
    if (!steered_) return ops;
    std::erase_if(ops, [&](Op op) { return !o_.steering.allows(op); });
    return ops;
  }

  Choices& c_;
  GenOptions o_;
  bool steered_ = !o_.steering.is_default();
  Program p_;
  std::vector<size_t> uses_;
  int64_t buffers_ = 0;
};

std::string dims(const Shape& s) {
  return shape_str(s);
}

DType other_dtype(DType d) {
  return d == DType::F32 ? DType::I32 : DType::F32;
}

// A shape that does not broadcast with s: one axis of size other than 1 made one longer (0
// becomes 2); s itself when every axis has size 1.
Shape not_broadcastable(Shape s) {
  for (int64_t& d : s)
    if (d != 1) {
      d = d == 0 ? 2 : d + 1;
      break;
    }
  return s;
}

// A rule, the statement that breaks it (as %broken), and statements it needs before it.
struct Breaker {
  std::string rule;
  std::string statement;
  std::string helpers = {};
};

// A value's breakers in a fixed order, each made only when kept: a program is broken by one of
// about forty, drawn after they are counted, and each text costs a few allocations.
class BreakerList {
 public:
  // Every breaker, none (only counted), or the one at position `at`.
  enum class Keep { All, None, One };
  explicit BreakerList(Keep keep = Keep::All, size_t at = 0) : keep_(keep), at_(at) {}

  template <class Statement>
  void add(const char* rule, const Statement& statement) {
    add(rule, statement, [] { return std::string(); });
  }
  template <class Statement, class Helpers>
  void add(const char* rule, const Statement& statement, const Helpers& helpers) {
    if (keep_ == Keep::All || (keep_ == Keep::One && at_ == count_))
      kept_.push_back({rule, statement(), helpers()});
    ++count_;
  }
  size_t size() const { return count_; }
  const std::vector<Breaker>& kept() const { return kept_; }

 private:
  Keep keep_;
  size_t at_;
  size_t count_ = 0;
  std::vector<Breaker> kept_;
};

// `r` offsets: the first one `first`, the others 0.
std::string offsets(int r, const char* first) {
  std::string out;
  for (int k = 0; k < r; ++k) out += k == 0 ? first : " 0";
  return out;
}

// Breakers for the rest of ir/build.h's checks (signs, dtypes, arities, limits), each broken on
// its own: every check the type rules make has a program that only it refuses.
void more_rule_breakers(const UOp& x, const std::string& name, BreakerList& options) {
  int r = x.rank();
  const Shape& s = x.shape;
  auto pads = [&](int64_t first, int64_t last) {
    Shape p(static_cast<size_t>(2 * r), 0);
    p.front() = first;
    p.back() = last;
    return dims(p);
  };
  auto with_axis = [&](size_t k, int64_t add) {
    Shape out = s;
    out[k] += add;
    return dims(out);
  };
  options.add("pad value dtype", [&] {
    return "pad " + name + " pads=" + dims(Shape(static_cast<size_t>(2 * r), 0)) +
           " value=" + (x.dtype == DType::F32 ? "true" : "1.5");
  });
  options.add("reshape inference", [&] { return "reshape " + name + " shape=[-1 -1]"; });
  options.add("rank limit", [&] {
    return "reshape " + name + " shape=[1 1 1 1 1 1 1 1 " + std::to_string(x.numel()) + "]";
  });
  options.add("index count", [&] { return "index " + name + offsets(r, " 0") + " 0"; });
  options.add("reduce op", [&] { return "reduce " + name + " op=sub pop=0"; });
  options.add("reduce pop sign", [&] { return "reduce " + name + " op=max pop=-1"; });
  options.add("where condition", [&] { return "where %broken_cast " + name + " " + name; });
  options.add("assert dtypes", [&] { return "assert " + name + " %broken_cast"; });
  options.add("stack dtypes", [&] { return "stack " + name + " %broken_cast"; });
  options.add("buffer size", [&] { return "buffer -1 dtype=" + std::string(dtype_name(x.dtype)); });
  options.add("flip axis sign", [&] { return "flip " + name + " axes=[-1]"; });
  if (std::any_of(s.begin(), s.end(), [](int64_t d) { return d != 1; }))
    options.add("broadcast", [&] { return "max " + name + " %broken_wide"; });
  if (x.dtype == DType::Bool)
    options.add("reduce dtype", [&] { return "reduce " + name + " op=add pop=0"; });
  if (r == 0) return;
  options.add("pad left sign", [&] { return "pad " + name + " pads=" + pads(-1, 0); });
  options.add("pad right sign", [&] { return "pad " + name + " pads=" + pads(0, -1); });
  options.add("expand rank", [&] {
    Shape more = s;
    more.push_back(1);
    return "expand " + name + " shape=" + dims(more);
  });
  options.add("shrink size",
              [&] { return "shrink " + name + offsets(r, " 0") + " shape=" + with_axis(0, 1); });
  options.add("shrink offset sign",
              [&] { return "shrink " + name + offsets(r, " -1") + " shape=" + dims(s); });
  options.add("shrink arity",
              [&] { return "shrink " + name + offsets(r, " 0") + " 0 shape=" + dims(s); });
  options.add("index sign", [&] { return "index " + name + " -1"; });
  options.add("index dtype", [&] { return "index " + name + " %broken_real"; });
  options.add("permutation range", [&] {
    Shape shifted(static_cast<size_t>(r));
    std::iota(shifted.begin(), shifted.end(), 1);
    return "permute " + name + " order=" + dims(shifted);
  });
  for (size_t k = 0; k < s.size(); ++k)
    if (s[k] >= 2) {
      options.add("expand to smaller",
                  [&] { return "expand " + name + " shape=" + with_axis(k, -1); });
      break;
    }
}

}  // namespace

Program generate(Choices& choices, const GenOptions& options) {
  return Generator(choices, options).run();
}

namespace {

// The widest interval an interval breaker tests: the room it shrinks is that many elements.
constexpr int64_t kWidest = 1 << 16;

// Whether x is an i32 value whose interval is neither a point nor wide (a buffer's: any i32),
// so that an offset one past either end of it fits in a small buffer.
bool narrow_interval(const UOp& x) {
  const Interval& b = x.bounds;
  return x.dtype == DType::I32 && x.numel() > 0 && b.hi > b.lo && b.hi - b.lo <= kWidest;
}

// An element of x as an offset that its interval, by the rules of LANGUAGE.md §5, leaves
// outside its range by one at the high end, and one that it leaves outside at the low end:
// a checker whose rule for an op in x's subgraph gives too narrow an interval (a pad's that
// forgets the fill, a max's that takes the lower high) accepts one of them. None unless
// narrow_interval(x). With `reach`, the offsets are out of range by one at the values x
// takes, each read from an element that holds it (ValueReach).
void interval_breakers(const UOp& x, const std::string& name, BreakerList& options,
                       const ValueReach* reach = nullptr) {
  if (!narrow_interval(x)) return;
  Interval b = reach ? reach->values : x.bounds;
  if (b.hi <= b.lo) return;
  // Offsets of a shrink to one element of the room may be 0 ... hi - lo - 1.
  auto shifted = [&](int64_t by, const Shape* at) {
    std::string helpers, element = name;
    if (x.rank() > 0) {
      element = "%broken_element";
      helpers = element + " = index " + name;
      for (int k = 0; k < x.rank(); ++k)
        helpers += " " + std::to_string(at ? (*at)[static_cast<size_t>(k)] : 0);
      helpers += "\n";
    }
    return helpers + "%broken_shift = sub " + element + " " + std::to_string(by) + "\n" +
           "%broken_room = buffer " + std::to_string(b.hi - b.lo) + " dtype=i32 slot=998\n";
  };
  auto shrink = [] { return std::string("shrink %broken_room %broken_shift shape=[1]"); };
  options.add("interval high end", shrink,  // 0 ... hi - lo
              [&] { return shifted(b.lo, reach ? &reach->highest_at : nullptr); });
  options.add("interval low end", shrink,  // -1 ... hi - lo - 1
              [&] { return shifted(b.lo + 1, reach ? &reach->lowest_at : nullptr); });
}

void breakers(const Statement& v, size_t expand_axis, BreakerList& options) {
  const UOp& x = *v.node;
  const std::string& name = v.name;
  int r = x.rank();
  options.add("reshape element count",
              [&] { return "reshape " + name + " shape=[" + std::to_string(x.numel() + 1) + "]"; });
  options.add("reduce pop",
              [&] { return "reduce " + name + " op=max pop=" + std::to_string(r + 1); });
  options.add("pad length", [&] {
    return "pad " + name + " pads=" + dims(Shape(static_cast<size_t>(2 * r + 1), 1));
  });
  options.add("dtype", [&] {
    return std::string(x.dtype == DType::I32 ? "add " : "idiv ") + name + " 1.5";
  });
  if (r >= 2)
    options.add("permutation", [&] {
      return "permute " + name + " order=" + dims(Shape(static_cast<size_t>(r), 0));
    });
  options.add("permutation length", [&] {
    Shape o(static_cast<size_t>(r + 1));
    std::iota(o.begin(), o.end(), 0);
    return "permute " + name + " order=" + dims(o);
  });
  if (r >= 1) options.add("flip axes", [&] { return "flip " + name + " axes=[0 0]"; });
  options.add("flip axis range",
              [&] { return "flip " + name + " axes=[" + std::to_string(r) + "]"; });
  if (r >= 1) {
    // The whole of x from offset 1: past the end by one element, the least a checker can
    // miss by (a bound written with <= for <), as well as by more.
    options.add("shrink bounds",
                [&] { return "shrink " + name + offsets(r, " 1") + " shape=" + dims(x.shape); });
    if (x.shape[expand_axis] != 1)
      options.add("expand", [&] {
        Shape big = x.shape;
        big[expand_axis] += 1;
        return "expand " + name + " shape=" + dims(big);
      });
    options.add("index range", [&] { return "index " + name + " " + std::to_string(x.shape[0]); });
    options.add("shrink provability", [&] {
      return "shrink " + name + " %broken_offset" + offsets(r - 1, " 0") +
             " shape=" + dims(x.shape);
    });
  }
  options.add("stack shapes", [&] { return "stack " + name + " %broken_other"; });
  interval_breakers(x, name, options);
  more_rule_breakers(x, name, options);
}

// The valid program's text, the helpers `statement` names, then `statement` as %broken.
Broken with_breaker(const std::string& text, const UOp& x, const Breaker& breaker) {
  const std::string& statement = breaker.statement;
  auto zeros = [](const std::string& helper, DType d, const Shape& shape) {
    return helper + " = expand " + format_literal(Scalar::zero(d)) + " shape=" + dims(shape) + "\n";
  };
  auto names = [&](const char* helper) { return statement.find(helper) != std::string::npos; };
  Shape longer_rank = x.shape;
  longer_rank.push_back(2);
  std::string helpers = breaker.helpers;
  if (names("%broken_offset"))
    helpers +=
        "%broken_data = buffer 4 dtype=i32 slot=999\n%broken_offset = index %broken_data 0\n";
  if (names("%broken_wide")) helpers += zeros("%broken_wide", x.dtype, not_broadcastable(x.shape));
  if (names("%broken_real")) helpers += "%broken_real = add 0.5 0.5\n";
  if (names("%broken_cast")) helpers += zeros("%broken_cast", other_dtype(x.dtype), x.shape);
  if (names("%broken_other")) helpers += zeros("%broken_other", x.dtype, longer_rank);
  return {text + helpers + "%broken = " + statement + "\n", breaker.rule};
}

// One of the breakers `list` adds, drawn as Choices::pick draws from a list: only its text is
// made.
template <class List>
Breaker drawn(Choices& c, const List& list) {
  BreakerList counted(BreakerList::Keep::None);
  list(counted);
  BreakerList one(BreakerList::Keep::One,
                  static_cast<size_t>(c.range(0, static_cast<int64_t>(counted.size()) - 1)));
  list(one);
  return one.kept().front();
}

}  // namespace

std::vector<Broken> rule_breakers(const Program& valid, const Statement& v, size_t expand_axis) {
  std::string text = print_program(valid);
  BreakerList all;
  breakers(v, expand_axis, all);
  std::vector<Broken> out;
  for (const Breaker& b : all.kept()) out.push_back(with_breaker(text, *v.node, b));
  return out;
}

std::vector<Broken> interval_rule_breakers(const Program& valid, const Statement& v,
                                           const ValueReach* reach) {
  BreakerList b;
  interval_breakers(*v.node, v.name, b, reach);
  std::string text = print_program(valid);
  std::vector<Broken> out;
  for (const Breaker& one : b.kept()) out.push_back(with_breaker(text, *v.node, one));
  return out;
}

Broken break_one_rule(Choices& c, const Program& valid, const std::string& printed) {
  std::vector<const Statement*> values, narrow;
  for (const Statement& s : valid.statements)
    if (!s.is_assert()) values.push_back(&s);
  for (const Statement* s : values)
    if (narrow_interval(*s->node)) narrow.push_back(s);
  // The interval breakers test every interval rule of a value's subgraph, where each other
  // breaker tests one rule; as two of forty breakers of one value in several they would be
  // drawn once in a hundred programs.
  if (!narrow.empty() && c.range(0, 3) == 0) {
    const Statement& v = *c.pick(narrow);
    auto list = [&](BreakerList& b) { interval_breakers(*v.node, v.name, b); };
    return with_breaker(printed, *v.node, drawn(c, list));
  }
  const Statement& v = *c.pick(values);
  size_t expand_axis =
      v.node->rank() >= 1 ? static_cast<size_t>(c.range(0, v.node->rank() - 1)) : 0;
  auto list = [&](BreakerList& b) { breakers(v, expand_axis, b); };
  return with_breaker(printed, *v.node, drawn(c, list));
}

namespace {

// One element of each narrow value of p (while the sum's interval stays narrow), added up, as
// text after p's: the interval of the sum is too narrow at an end when any interval rule of
// those values' subgraphs is.
std::string sum_of_narrow_values(const Program& p) {
  std::string text, sum;
  int64_t width = 0;
  int terms = 0;
  for (const Statement& s : p.statements) {
    const UOp& x = *s.node;
    if (s.is_assert() || !narrow_interval(x) || width + x.bounds.hi - x.bounds.lo > kWidest)
      continue;
    width += x.bounds.hi - x.bounds.lo;
    std::string term = "%broken_term" + std::to_string(terms);
    text += term + " = index " + s.name;
    for (int k = 0; k < x.rank(); ++k) text += " 0";
    text += "\n";
    if (terms++ == 0) {
      sum = term;
      continue;
    }
    std::string next = "%broken_sum" + std::to_string(terms);
    text += next + " = add " + sum + " " + term + "\n";
    sum = next;
  }
  return text;
}

}  // namespace

Program expressions_program(Choices& choices, const GenOptions& gen) {
  if (!gen.steering.allows(DType::I32) || !gen.steering.allows(Op::Stack))
    return generate(choices, gen);
  Program p = Generator(choices, gen).expressions(kExpressionsPerProgram);
  return p.statements.empty() ? generate(choices, gen) : p;
}

std::optional<Broken> break_an_interval_rule(Choices& c, const GenOptions& gen) {
  if (!gen.steering.allows(DType::I32)) return std::nullopt;
  GenOptions literal = gen;
  literal.steering.excluded.insert(Op::Buffer);
  literal.steering.int_extremes = false;  // an extreme makes an interval too wide to test
  literal.steering.dtypes = {DType::I32};
  if (gen.steering.allows(DType::Bool)) literal.steering.dtypes.insert(DType::Bool);
  Program p = generate(c, literal);
  // The names a program prints are those its reparsed statements have.
  std::string printed = print_program(p);
  std::string sum = sum_of_narrow_values(parse_program(printed, "interval.uir"));
  if (sum.empty()) return std::nullopt;
  Program summed = parse_program(printed + sum, "interval.uir");
  std::vector<Broken> b = interval_rule_breakers(summed, summed.statements.back());
  if (b.empty()) return std::nullopt;
  return c.pick(b);
}

std::string breaks_rule(const Broken& b) {
  return "breaks the " + b.rule + " rule";
}

Broken break_one_rule(Choices& c, const Program& valid) {
  return break_one_rule(c, valid, print_program(valid));
}

}  // namespace uopc

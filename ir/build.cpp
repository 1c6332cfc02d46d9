#include "ir/build.h"

#include <algorithm>
#include <stdexcept>

#include "ir/error.h"
#include "ir/plant.h"

#include <string>

namespace uopc {
namespace {

[[noreturn]] void fail(Op op, const std::string& message, Blame blame = {}) {
  throw TypeError(std::string(op_name(op)) + ": " + message, blame);
}

std::string type_str(const UOpRef& x) {
  return std::string(dtype_name(x->dtype)) + shape_str(x->shape);
}

std::string list_str(const std::vector<int64_t>& v) {
  return shape_str(v);
}

void check_shape(Op op, const Shape& shape) {
  if (shape.size() > static_cast<size_t>(kMaxRank))
    fail(op, "result rank " + std::to_string(shape.size()) + " exceeds the maximum of 8");
  for (int64_t d : shape)
    if (d < 0) fail(op, "negative size " + std::to_string(d) + " in shape " + shape_str(shape));
  if (element_count(shape) < 0)
    fail(op, "result shape " + shape_str(shape) + " has more than 2^31 - 1 elements");
}

void check_axis(Op op, int64_t axis, int rank, const char* what) {
  if (axis < 0 || axis >= rank)
    fail(op, std::string(what) + " " + std::to_string(axis) + " is out of range for rank " +
                 std::to_string(rank));
}

// The literal a node stands for, seeing through the reshape/expand that broadcasting adds.
const UOp* literal_of(const UOp* x) {
  while (x->op == Op::Expand || x->op == Op::Reshape) x = x->src[0].get();
  return x->op == Op::Const ? x : nullptr;
}

// Bounds of a reduce of `popped` elements each in `b` (LANGUAGE.md §5: reduce of known values).
Interval reduce_bounds(Op fold, Interval b, int64_t popped) {
  if (popped == 0) return Interval::point(reduce_identity(fold, DType::I32).as_i32());
  switch (fold) {
    case Op::Add:
      return wrap_i32({b.lo * popped, b.hi * popped});
    case Op::Max:
    case Op::Min:
      return b;
    default:
      break;
  }
  Interval acc = b;  // mul: widen one factor at a time until it stops changing
  for (int64_t k = 1; k < popped && k < 64; ++k) {
    Interval next = interval_mul(acc, b);
    if (next == acc) return acc;
    acc = next;
  }
  return popped <= 64 ? acc : Interval::full();
}

Interval alu_bounds(Op op, std::span<const UOpRef> s) {
  auto b = [&](size_t i) { return s[i]->bounds; };
  switch (op) {
    case Op::Neg:
      return interval_neg(b(0));
    case Op::Add:
      return interval_add(b(0), b(1));
    case Op::Sub:
      return interval_sub(b(0), b(1));
    case Op::Mul:
      return interval_mul(b(0), b(1));
    case Op::Max:
      return interval_max(b(0), b(1));
    case Op::Min:
      return interval_min(b(0), b(1));
    case Op::Where:
      return hull(b(1), b(2));
    case Op::Idiv:
    case Op::Mod: {
      const UOp* c = literal_of(s[1].get());
      if (!c || c->value.as_i32() <= 0) return Interval::full();
      return op == Op::Idiv ? interval_idiv(b(0), c->value.as_i32())
                            : interval_mod(b(0), c->value.as_i32());
    }
    default:
      return Interval::full();
  }
}

// Intervals only mean something for i32 values; bool is [0, 1] so that a cast can use it.
Interval bounds_of(Op op, DType dtype, std::span<const UOpRef> src, std::span<const int64_t> arg,
                   Scalar value) {
  if (dtype == DType::Bool) return {0, 1};
  if (dtype != DType::I32) return Interval::full();
  switch (op) {
    case Op::Const:
      return Interval::point(value.as_i32());
    case Op::Buffer:
      return Interval::full();
    case Op::Stack: {
      Interval h = src[0]->bounds;
      for (const UOpRef& s : src) h = hull(h, s->bounds);
      return h;
    }
    case Op::Pad:
      if (planted(Plant::PadBoundsIgnoreFill)) return src[0]->bounds;
      return hull(src[0]->bounds, Interval::point(value.as_i32()));
    case Op::Reduce: {
      int64_t popped = 1;
      for (int k = 0; k < arg[1]; ++k) popped *= src[0]->shape[k];
      return reduce_bounds(static_cast<Op>(arg[0]), src[0]->bounds, popped);
    }
    case Op::Cast:
      return src[0]->dtype == DType::F32 ? Interval::full() : src[0]->bounds;
    case Op::Range:
      return {0, std::max<int64_t>(arg[0] - 1, 0)};
    case Op::Var:
      return {arg[1], arg[2]};
    case Op::Table: {  // the hull of its elements
      if (arg.empty()) throw std::logic_error("a table without elements");
      Interval h = Interval::point(static_cast<int32_t>(arg[0]));
      for (int64_t bits : arg) h = hull(h, Interval::point(static_cast<int32_t>(bits)));
      return h;
    }
    case Op::Load:  // a table's element is one of its elements; other memory, anything
      return src[0]->op == Op::Index && src[0]->src[0]->op == Op::Table ? src[0]->src[0]->bounds
                                                                        : Interval::full();
    case Op::Param:
    case Op::Alloc:
      return Interval::full();
    default:
      break;
  }
  if (is_alu(op)) return alu_bounds(op, src);
  return src.empty() ? Interval::full() : src[0]->bounds;  // movement, index, stage
}

UOpRef make(Op op, DType dtype, Shape shape, std::vector<UOpRef> src, std::vector<int64_t> arg = {},
            Scalar value = {}) {
  check_shape(op, shape);
  Interval b = bounds_of(op, dtype, src, arg, value);
  return make_uop(op, dtype, std::move(shape), std::move(src), std::move(arg), value, b);
}

// A rank-0 i32 operand (shrink offset, index) that the bounds prove to lie in [lo, hi].
// `operand`: its position among the op's operands, for the error to point at.
void check_proved(Op op, const UOpRef& v, const std::string& what, int64_t lo, int64_t hi,
                  int operand) {
  Blame blame{operand};
  if (v->dtype != DType::I32 || v->rank() != 0)
    fail(op, what + " must be a rank-0 i32 value, not " + type_str(v), blame);
  Interval b = v->bounds;
  if (b.lo >= lo && b.hi <= hi) return;
  if (b.is_point())
    fail(op,
         what + " is " + std::to_string(b.lo) + ", outside [" + std::to_string(lo) + ", " +
             std::to_string(hi) + "]",
         blame);
  fail(op,
       what + " is unprovable: interval analysis bounds it to " + interval_str(b) +
           ", which is not inside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
       blame);
}

}  // namespace

UOpRef with_sources(const UOp& n, std::span<const UOpRef> src) {
  Interval b = bounds_of(n.op, n.dtype, src, n.arg, n.value);
  return make_uop({n.op, n.dtype, n.shape, src, n.arg, n.value}, b);
}

UOpRef loop_node(Op op, DType dtype, Shape shape, std::vector<UOpRef> src,
                 std::vector<int64_t> arg) {
  Interval b = bounds_of(op, dtype, src, arg, {});
  return make_uop(op, dtype, std::move(shape), std::move(src), std::move(arg), {}, b);
}

UOpRef buffer(int64_t n, DType dtype, int64_t slot) {
  if (n < 0) fail(Op::Buffer, "size " + std::to_string(n) + " is negative");
  if (n > kMaxElements) fail(Op::Buffer, "size " + std::to_string(n) + " exceeds 2^31 - 1");
  if (slot < 0 || slot > INT32_MAX)
    fail(Op::Buffer, "slot " + std::to_string(slot) + " is out of range");
  return make(Op::Buffer, dtype, {n}, {}, {slot});
}

UOpRef literal(Scalar value) {
  return make(Op::Const, value.dtype, {}, {}, {}, value);
}

UOpRef stack(const std::vector<UOpRef>& parts) {
  if (parts.empty()) fail(Op::Stack, "needs at least one operand");
  for (size_t i = 1; i < parts.size(); ++i) {
    bool checked = !planted(Plant::SkipStaticChecks);
    if (parts[i]->dtype != parts[0]->dtype || (checked && parts[i]->shape != parts[0]->shape))
      fail(Op::Stack,
           "operand " + std::to_string(i) + " is " + type_str(parts[i]) + " but operand 0 is " +
               type_str(parts[0]) + " (all operands need one dtype and one shape)",
           {static_cast<int>(i)});
  }
  if (parts.size() > static_cast<size_t>(kMaxElements)) fail(Op::Stack, "too many operands");
  Shape shape{static_cast<int64_t>(parts.size())};
  shape.insert(shape.end(), parts[0]->shape.begin(), parts[0]->shape.end());
  return make(Op::Stack, parts[0]->dtype, shape, parts);
}

UOpRef index(const UOpRef& x, const std::vector<UOpRef>& indices) {
  if (indices.size() > x->shape.size())
    fail(Op::Index, std::to_string(indices.size()) + " indices into a rank-" +
                        std::to_string(x->rank()) + " value");
  for (size_t k = 0; k < indices.size(); ++k)
    check_proved(Op::Index, indices[k], "index " + std::to_string(k), 0, x->shape[k] - 1,
                 static_cast<int>(k) + 1);
  Shape shape(x->shape.begin() + static_cast<ptrdiff_t>(indices.size()), x->shape.end());
  std::vector<UOpRef> src{x};
  src.insert(src.end(), indices.begin(), indices.end());
  return make(Op::Index, x->dtype, shape, src);
}

UOpRef reshape(const UOpRef& x, const Shape& requested) {
  Shape shape = requested;
  auto infer = std::find(shape.begin(), shape.end(), -1);
  if (infer != shape.end()) {
    if (std::count(shape.begin(), shape.end(), -1) > 1)
      fail(Op::Reshape, "more than one -1 in " + shape_str(requested));
    *infer = 1;
    int64_t rest = element_count(shape);
    if (rest <= 0)
      fail(Op::Reshape, "cannot infer the -1 in " + shape_str(requested) +
                            ": the other sizes multiply to " + (rest == 0 ? "0" : "too much"));
    if (x->numel() % rest != 0)
      fail(Op::Reshape, "cannot reshape " + type_str(x) + " into " + shape_str(requested) + ": " +
                            std::to_string(x->numel()) + " is not a multiple of " +
                            std::to_string(rest));
    *infer = x->numel() / rest;
  }
  check_shape(Op::Reshape, shape);
  if (element_count(shape) != x->numel() && !planted(Plant::SkipStaticChecks))
    fail(Op::Reshape, "cannot reshape " + type_str(x) + " (" + std::to_string(x->numel()) +
                          " elements) into " + shape_str(shape) + " (" +
                          std::to_string(element_count(shape)) + " elements)");
  return make(Op::Reshape, x->dtype, shape, {x});
}

UOpRef permute(const UOpRef& x, const std::vector<int64_t>& order) {
  std::vector<int64_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  bool ok = order.size() == x->shape.size();
  for (size_t k = 0; ok && k < sorted.size(); ++k) ok = sorted[k] == static_cast<int64_t>(k);
  if (planted(Plant::SkipStaticChecks))  // only what the shape computation needs
    ok = order.size() == x->shape.size() && std::all_of(order.begin(), order.end(), [&](int64_t p) {
           return p >= 0 && p < x->rank();
         });
  if (!ok)
    fail(Op::Permute, "order " + list_str(order) + " is not a permutation of the " +
                          std::to_string(x->rank()) + " axes of " + type_str(x));
  Shape shape;
  for (int64_t p : order) shape.push_back(x->shape[p]);
  return make(Op::Permute, x->dtype, shape, {x}, order);
}

UOpRef expand(const UOpRef& x, const Shape& shape) {
  check_shape(Op::Expand, shape);
  if (x->rank() != 0) {
    if (shape.size() != x->shape.size())
      fail(Op::Expand, "cannot expand " + type_str(x) + " to " + shape_str(shape) +
                           ": the rank must stay " + std::to_string(x->rank()) +
                           " (reshape first to add axes)");
    for (size_t k = 0; k < shape.size(); ++k) {
      if (x->shape[k] != shape[k] && x->shape[k] != 1 && !planted(Plant::SkipStaticChecks))
        fail(Op::Expand, "cannot expand " + type_str(x) + " to " + shape_str(shape) + ": axis " +
                             std::to_string(k) + " has size " + std::to_string(x->shape[k]) +
                             " (only size-1 axes grow)");
    }
  }
  return make(Op::Expand, x->dtype, shape, {x});
}

UOpRef shrink(const UOpRef& x, const std::vector<UOpRef>& offsets, const Shape& shape) {
  if (offsets.size() != x->shape.size() || shape.size() != x->shape.size())
    fail(Op::Shrink, "a rank-" + std::to_string(x->rank()) + " value needs " +
                         std::to_string(x->rank()) + " offsets and " + std::to_string(x->rank()) +
                         " sizes, got " + std::to_string(offsets.size()) + " offsets and shape " +
                         shape_str(shape));
  check_shape(Op::Shrink, shape);
  for (size_t k = 0; k < shape.size(); ++k) {
    std::string axis = "axis " + std::to_string(k);
    if (planted(Plant::SkipStaticChecks)) continue;
    if (shape[k] > x->shape[k])
      fail(Op::Shrink, axis + ": size " + std::to_string(shape[k]) + " exceeds the axis size " +
                           std::to_string(x->shape[k]));
    check_proved(Op::Shrink, offsets[k], axis + " offset", 0, x->shape[k] - shape[k],
                 static_cast<int>(k) + 1);
  }
  std::vector<UOpRef> src{x};
  src.insert(src.end(), offsets.begin(), offsets.end());
  return make(Op::Shrink, x->dtype, shape, src);
}

UOpRef pad(const UOpRef& x, const std::vector<int64_t>& given, Scalar value) {
  std::vector<int64_t> pads = given;
  if (planted(Plant::SkipStaticChecks)) pads.resize(2 * x->shape.size(), 0);
  if (pads.size() != 2 * x->shape.size())
    fail(Op::Pad, "pads has " + std::to_string(pads.size()) + " entries; a rank-" +
                      std::to_string(x->rank()) + " value needs " + std::to_string(2 * x->rank()) +
                      " (left and right of each axis)");
  if (value.dtype != x->dtype)
    fail(Op::Pad, "value is " + std::string(dtype_name(value.dtype)) + " but x is " + type_str(x),
         {-1, "value"});
  Shape shape = x->shape;
  for (size_t k = 0; k < shape.size(); ++k) {
    int64_t l = pads[2 * k], r = pads[2 * k + 1];
    if (l < 0 || r < 0) fail(Op::Pad, "negative padding in " + list_str(pads));
    if (l > kMaxElements || r > kMaxElements || shape[k] + l + r > kMaxElements)
      fail(Op::Pad,
           "padding " + list_str(pads) + " makes axis " + std::to_string(k) + " too large");
    shape[k] += l + r;
  }
  return make(Op::Pad, x->dtype, shape, {x}, pads, value);
}

UOpRef pad(const UOpRef& x, const std::vector<int64_t>& pads) {
  return pad(x, pads, Scalar::zero(x->dtype));
}

UOpRef flip(const UOpRef& x, const std::vector<int64_t>& axes) {
  std::vector<int64_t> seen;
  for (int64_t a : axes) {
    check_axis(Op::Flip, a, x->rank(), "axis");
    if (std::find(seen.begin(), seen.end(), a) != seen.end())
      fail(Op::Flip, "axis " + std::to_string(a) + " appears twice in " + list_str(axes));
    seen.push_back(a);
  }
  return make(Op::Flip, x->dtype, x->shape, {x}, axes);
}

UOpRef reduce(const UOpRef& x, Op fold, int64_t pop) {
  if (!is_reduce_op(fold))
    fail(Op::Reduce, "op=" + std::string(op_name(fold)) + " is not one of add, mul, max, min",
         {-1, "op"});
  if ((fold == Op::Add || fold == Op::Mul) && x->dtype == DType::Bool)
    fail(Op::Reduce, "op=" + std::string(op_name(fold)) + " needs i32 or f32, not bool", {0, "op"});
  if (pop < 0 || pop > x->rank())
    fail(Op::Reduce,
         "pop=" + std::to_string(pop) + " is out of range for " + type_str(x) + " (0 to " +
             std::to_string(x->rank()) + ")",
         {0, "pop"});
  Shape shape(x->shape.begin() + pop, x->shape.end());
  return make(Op::Reduce, x->dtype, shape, {x}, {static_cast<int64_t>(fold), pop});
}

UOpRef stage(const UOpRef& x) {
  return make(Op::Stage, x->dtype, x->shape, {x});
}

UOpRef assert_equal(const UOpRef& x, const UOpRef& y) {
  if (x->dtype != y->dtype || x->shape != y->shape)
    fail(Op::Assert,
         "compares " + type_str(x) + " with " + type_str(y) +
             " (operands need one dtype and one shape)",
         {1});
  return make(Op::Assert, DType::Bool, {}, {x, y});
}

UOpRef cast(const UOpRef& x, DType dtype) {
  return make(Op::Cast, dtype, x->shape, {x});
}

DType alu_result_dtype(Op op, DType operand) {
  return is_comparison(op) ? DType::Bool : operand;
}

UOpRef alu(Op op, std::span<const UOpRef> s) {
  if (!is_alu(op) || op == Op::Cast) fail(op, "is not an elementwise op");
  if (static_cast<int>(s.size()) != op_arity(op))
    fail(op,
         "takes " + std::to_string(op_arity(op)) + " operands, got " + std::to_string(s.size()));
  size_t first = op == Op::Where ? 1 : 0;
  if (op == Op::Where && s[0]->dtype != DType::Bool)
    fail(op, "the condition must be bool, not " + type_str(s[0]), {0});
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i]->shape != s[0]->shape)
      fail(op,
           "operand " + std::to_string(i) + " is " + type_str(s[i]) + " but operand 0 is " +
               type_str(s[0]) + " (broadcast them first)",
           {static_cast<int>(i)});
    if (i < first) continue;
    if (s[i]->dtype != s[first]->dtype)
      fail(op, "operands have different dtypes: " + type_str(s[first]) + " and " + type_str(s[i]),
           {static_cast<int>(i)});
  }
  DType d = s[first]->dtype;
  if (!contains(op_dtypes(op), d))
    fail(op,
         "needs " + set_description(op_dtypes(op)) + " operands, not " + std::string(dtype_name(d)),
         {static_cast<int>(first)});
  DType result = alu_result_dtype(op, d);
  return make_uop({op, result, s[0]->shape, s}, bounds_of(op, result, s, {}, {}));
}

UOpRef alu(Op op, std::initializer_list<UOpRef> operands) {
  return alu(op, std::span<const UOpRef>(operands.begin(), operands.size()));
}

std::vector<UOpRef> broadcast(const std::vector<UOpRef>& operands) {
  size_t rank = 0;
  for (const UOpRef& x : operands) rank = std::max(rank, x->shape.size());
  Shape out(rank, 1);
  for (size_t at = 0; at < operands.size(); ++at) {
    const UOpRef& x = operands[at];
    size_t skip = rank - x->shape.size();
    for (size_t k = 0; k < x->shape.size(); ++k) {
      int64_t d = x->shape[k], &o = out[skip + k];
      if (d == o || d == 1) continue;
      if (o != 1) {
        std::string shapes;
        for (const UOpRef& y : operands)
          shapes += (shapes.empty() ? "" : " and ") + shape_str(y->shape);
        throw TypeError("cannot broadcast shapes " + shapes, {static_cast<int>(at)});
      }
      o = d;
    }
  }
  std::vector<UOpRef> result;
  for (const UOpRef& x : operands) {
    if (x->shape == out) {
      result.push_back(x);
      continue;
    }
    UOpRef y = x;
    if (y->rank() != 0 && y->shape.size() < rank) {
      Shape lifted(rank - y->shape.size(), 1);
      lifted.insert(lifted.end(), y->shape.begin(), y->shape.end());
      y = reshape(y, lifted);
    }
    result.push_back(y->shape == out ? y : expand(y, out));
  }
  return result;
}

}  // namespace uopc

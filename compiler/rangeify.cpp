#include "compiler/rangeify.h"

#include <algorithm>
#include <memory_resource>
#include <set>
#include <unordered_map>

#include "compiler/symbolic.h"
#include "ir/arena.h"
#include "ir/build.h"
#include "ir/loop.h"
#include "ir/plant.h"
#include "ir/program.h"

namespace uopc {
namespace {

UOpRef i32(int64_t v) {
  return literal(Scalar::of_i32(static_cast<int32_t>(v)));
}
UOpRef zero() {
  return i32(0);
}

// A different value of the same dtype (pad_fill_nonzero).
Scalar other_value(Scalar v) {
  if (v.dtype == DType::Bool) return Scalar::of_bool(!v.as_bool());
  if (v.dtype == DType::I32) return Scalar::of_i32(v.as_i32() == 0 ? 1 : 0);
  return Scalar::of_f32(v.as_f32() == 0 ? 1.0f : 0.0f);
}

std::vector<UOpRef> simplified(std::vector<UOpRef> idx) {
  for (UOpRef& i : idx) i = simplify(i);
  return idx;
}

std::vector<UOpRef> sources_at(const UOp& u, const std::vector<UOpRef>& idx, LowerContext& ctx) {
  std::vector<UOpRef> out;
  for (const UOpRef& s : u.src) out.push_back(rangeify(s, idx, ctx));
  return out;
}

// Index of x for reshape: ravel in the output shape, unravel in the source shape.
std::vector<UOpRef> reshape_index(const UOp& u, const std::vector<UOpRef>& idx) {
  const Shape& in = u.src[0]->shape;
  if (planted(Plant::ReshapeSameRankNoop) && in.size() == u.shape.size()) return idx;
  if (planted(Plant::ReshapeColumnMajor)) {
    std::vector<UOpRef> r(idx.rbegin(), idx.rend());
    std::vector<UOpRef> out =
        unravel(ravel(r, Shape(u.shape.rbegin(), u.shape.rend())), Shape(in.rbegin(), in.rend()));
    return simplified(std::vector<UOpRef>(out.rbegin(), out.rend()));
  }
  std::vector<UOpRef> out = unravel(ravel(idx, u.shape), in);
  // Simplified now: an index that mentions a loop counter it does not depend on would put a
  // reduce's accumulator inside that loop (the book's pitfall 2).
  if (planted(Plant::NoSimplifyAtReshape)) return out;
  return simplified(out);
}

std::vector<UOpRef> expand_index(const UOp& u, const std::vector<UOpRef>& idx) {
  const Shape& in = u.src[0]->shape;
  std::vector<UOpRef> out;
  bool keep = planted(Plant::ExpandReadsIndex);
  for (size_t k = 0; k < in.size(); ++k)
    out.push_back(in[k] == 1 && u.shape[k] != 1 && !keep ? zero() : idx[k]);
  return out;
}

// Output axis k is input axis order[k], so input index order[k] is idx[k].
std::vector<UOpRef> permute_index(const UOp& u, const std::vector<UOpRef>& idx) {
  std::vector<UOpRef> inv(idx.size());
  for (size_t k = 0; k < idx.size(); ++k) inv[u.arg[k]] = idx[k];
  if (planted(Plant::PermuteInverse))
    for (size_t k = 0; k < idx.size(); ++k) inv[k] = idx[u.arg[k]];
  return inv;
}

std::vector<UOpRef> flip_index(const UOp& u, const std::vector<UOpRef>& idx) {
  std::vector<UOpRef> out = idx;
  int64_t last = planted(Plant::FlipOffByOne) ? 0 : 1;
  for (int64_t a : u.arg) out[a] = simplify(alu(Op::Sub, {i32(u.shape[a] - last), idx[a]}));
  return out;
}

UOpRef rangeify_shrink(const UOp& u, const std::vector<UOpRef>& idx, LowerContext& ctx) {
  std::vector<UOpRef> in = idx;
  for (size_t k = 0; k < idx.size(); ++k) {
    UOpRef offset = rangeify(u.src[k + 1], {}, ctx);
    if (offset->op == Op::Const && offset->value.as_i32() == 0) continue;
    in[k] = simplify(alu(planted(Plant::ShrinkOffsetSign) ? Op::Sub : Op::Add, {idx[k], offset}));
  }
  return rangeify(u.src[0], in, ctx);
}

// Inside the data the value is x[i - l]; outside, the fill. The source index is clamped into
// [0, d) so that even the value where() discards is read inside the buffer.
UOpRef rangeify_pad(const UOp& u, const std::vector<UOpRef>& idx, LowerContext& ctx) {
  const Shape& in = u.src[0]->shape;
  UOpRef fill = literal(planted(Plant::PadFillNonzero) ? other_value(u.value) : u.value);
  if (element_count(in) == 0) return fill;
  std::vector<UOpRef> src_idx = idx;
  UOpRef valid;
  for (size_t k = 0; k < in.size(); ++k) {
    int64_t l = u.arg[2 * k], r = u.arg[2 * k + 1];
    if (l == 0 && r == 0) continue;
    if (planted(Plant::PadSwapSides)) std::swap(l, r);
    UOpRef shifted = simplify(alu(Op::Sub, {idx[k], i32(l)}));
    int64_t end = planted(Plant::PadMaskOffByOne) ? in[k] + 1 : in[k];
    UOpRef inside =
        alu(Op::And, {alu(Op::Cmplt, {i32(-1), shifted}), alu(Op::Cmplt, {shifted, i32(end)})});
    valid = valid ? alu(Op::And, {valid, inside}) : inside;
    src_idx[k] = planted(Plant::PadUnguardedLoad)
                     ? shifted
                     : simplify(alu(Op::Min, {alu(Op::Max, {shifted, zero()}), i32(in[k] - 1)}));
  }
  UOpRef value = rangeify(u.src[0], src_idx, ctx);
  if (!valid) return value;
  return simplify(alu(Op::Where, {valid, value, fill}));
}

// Appends the elements of `n`, row major, when they are all literals however they are
// arranged: a literal, one broadcast by expand, a reshape of such, or a stack of such (a
// matrix written as a stack of its rows).
bool literal_elements(const UOp& n, std::vector<Scalar>& out) {
  switch (n.op) {
    case Op::Const:
      out.push_back(n.value);
      return true;
    case Op::Reshape:
      return literal_elements(*n.src[0], out);
    case Op::Expand: {
      std::vector<Scalar> one;
      if (n.src[0]->numel() != 1 || !literal_elements(*n.src[0], one)) return false;
      int64_t first = n.shape.empty() ? 1 : n.shape[0];
      int64_t copies = planted(Plant::TableBroadcastFirstAxis) ? first : n.numel();
      out.insert(out.end(), static_cast<size_t>(copies), one[0]);
      return true;
    }
    case Op::Stack:
      for (const UOpRef& s : n.src)
        if (!literal_elements(*s, out)) return false;
      return true;
    default:
      return false;
  }
}

// stack(l0, ..., ln)[i, rest] = table[ravel(i, rest)] for operands made of literals, the index
// clamped into the table (a discarded lane, as in a pad, may compute any index; in range,
// simplify drops the clamp). Stacks shorter than Opts::table stay selects, which the simplifier
// folds and sees through.
std::optional<UOpRef> rangeify_literal_stack(const UOp& u, const std::vector<UOpRef>& idx,
                                             const LowerContext& ctx) {
  if (u.numel() < ctx.opts.table) return std::nullopt;
  std::vector<std::vector<Scalar>> operands(u.src.size());
  for (size_t k = 0; k < u.src.size(); ++k)
    if (!literal_elements(*u.src[k], operands[k])) return std::nullopt;
  if (planted(Plant::StackOrderReversed)) std::reverse(operands.begin(), operands.end());
  std::vector<Scalar> values;
  for (const std::vector<Scalar>& o : operands) values.insert(values.end(), o.begin(), o.end());
  UOpRef at = simplify(ravel(idx, u.shape));
  at = simplify(alu(Op::Min, {alu(Op::Max, {at, zero()}), i32(u.numel() - 1)}));
  return load(address(table(values), at));
}

// stack(a0, ..., an)[i, rest] = i < 1 ? a0[rest] : i < 2 ? a1[rest] : ... : an[rest]
UOpRef rangeify_stack(const UOp& u, const std::vector<UOpRef>& idx, LowerContext& ctx) {
  if (std::optional<UOpRef> t = rangeify_literal_stack(u, idx, ctx)) return *t;
  std::vector<UOpRef> rest(idx.begin() + 1, idx.end());
  bool reversed = planted(Plant::StackOrderReversed);
  UOpRef out = rangeify(reversed ? u.src.front() : u.src.back(), rest, ctx);
  for (size_t k = u.src.size() - 1; k-- > 0;) {
    UOpRef take = simplify(alu(Op::Cmplt, {idx[0], i32(static_cast<int64_t>(k) + 1)}));
    size_t pick = reversed ? u.src.size() - 1 - k : k;
    out = alu(Op::Where, {take, rangeify(u.src[pick], rest, ctx), out});
  }
  return simplify(out);
}

UOpRef rangeify_index(const UOp& u, const std::vector<UOpRef>& idx, LowerContext& ctx) {
  std::vector<UOpRef> in;
  for (size_t k = 1; k < u.src.size(); ++k) in.push_back(rangeify(u.src[k], {}, ctx));
  in.insert(in.end(), idx.begin(), idx.end());
  return rangeify(u.src[0], in, ctx);
}

// The ranges and every loop around them: the loops a value inside them runs in.
std::vector<UOpRef> with_enclosing(const std::vector<UOpRef>& ranges, const LowerContext& ctx) {
  std::vector<UOpRef> out = ranges;
  for (const UOpRef& r : ranges)
    if (auto it = ctx.enclosing.find(r.get()); it != ctx.enclosing.end())
      for (const UOpRef& e : it->second)
        if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
  return out;
}

// Whether the output loops among `open` are the outermost k output loops, for some k.
bool outer_loops_only(const std::vector<UOpRef>& open, const std::vector<UOpRef>& output_loops) {
  size_t k = 0;
  while (k < output_loops.size() &&
         std::find(open.begin(), open.end(), output_loops[k]) != open.end())
    ++k;
  for (size_t j = k; j < output_loops.size(); ++j)
    if (std::find(open.begin(), open.end(), output_loops[j]) != open.end()) return false;
  return true;
}

// Index `c` of the `f` copies of an axis split as base * f + c (a base of 0 is no loop).
UOpRef split_index(const UOpRef& base, int64_t f, int64_t c) {
  if (f == 1) return base;
  int64_t stride = planted(Plant::UpcastWrongOffset) ? f - 1 : f;
  if (base->op == Op::Const) return i32(c);
  return simplify(alu(Op::Add, {alu(Op::Mul, {base, i32(stride)}), i32(c)}));
}

// Values combined pairwise, level by level: ((v0 v1) (v2 v3)) ..., an odd one carried up.
UOpRef balanced_tree(Op fold, std::vector<UOpRef> values) {
  while (values.size() > 1) {
    std::vector<UOpRef> next;
    for (size_t i = 0; i < values.size(); i += 2) {
      if (i + 1 < values.size())
        next.push_back(alu(fold, {values[i], values[i + 1]}));
      else if (!planted(Plant::UnrollTreeDropsLast))
        next.push_back(values[i]);
    }
    values = std::move(next);
  }
  return values.front();
}

// How many elements of its innermost popped axis a reduce folds per iteration, and how:
// decided once per reduce for the whole program.
Unroll unroll_of(const UOp& u, LowerContext& ctx) {
  if (ctx.unrolled)
    if (auto it = ctx.unrolled->find(&u); it != ctx.unrolled->end()) return it->second;
  Unroll out{ctx.opts.unroll, ctx.opts.unroll_in_order};
  int64_t f = out.factor;
  if (f < 2 || u.pop() == 0 || u.src[0]->shape[static_cast<size_t>(u.pop() - 1)] % f != 0)
    out = Unroll{};
  if (ctx.unrolled) ctx.unrolled->emplace(&u, out);
  return out;
}

// `acc` folded with every value: as one balanced tree, or one by one in order.
UOpRef fold_values(Op fold, const UOpRef& acc, const std::vector<UOpRef>& values, bool in_order) {
  if (!in_order)
    return acc ? alu(fold, {acc, balanced_tree(fold, values)}) : balanced_tree(fold, values);
  UOpRef out = acc ? acc : values.front();
  for (size_t k = acc ? 0 : 1; k < values.size(); ++k) out = alu(fold, {out, values[k]});
  return out;
}

// A fresh accumulator for each copy of a reduce, even copies that share loops.
UOpRef accumulator(const std::vector<const UOp*>& key, const UOp& u, LowerContext& ctx) {
  std::vector<UOpRef> open;
  for (size_t k = 1; k < key.size(); ++k) open.push_back(shared_from(key[k]));
  if (!planted(Plant::UnrollSharedAccumulator))
    return after(alloc(ctx.next_alloc++, u.dtype), open);
  auto [it, fresh] = ctx.shared_acc.try_emplace(key);
  if (fresh) it->second = after(alloc(ctx.next_alloc++, u.dtype), open);
  return it->second;
}

// The fold over the popped leading axes: an accumulator inside the loops `idx` is in,
// initialized to the identity, updated acc = op(acc, x) in fresh loops, read after them.
UOpRef rangeify_reduce(const UOpRef& u, const std::vector<UOpRef>& idx, LowerContext& ctx) {
  const UOpRef& x = u->src[0];
  Op fold = u->reduce_op();
  // Nothing to fold: the identity, without loops that would find no work.
  for (int k = 0; k < u->pop(); ++k)
    if (x->shape[static_cast<size_t>(k)] == 0) return literal(reduce_identity(fold, u->dtype));
  std::vector<UOpRef> open = open_ranges(idx, ctx);
  // An accumulator sits in the loops its index is in. If those output loops are not the
  // outermost ones, each loop outside them would compute the whole reduce again (a column sum
  // broadcast back over the rows); if they run more often than the reduce has elements, some
  // element is recomputed (a reduce broadcast back through a reshape that merges axes).
  // The same holds when it is asked for in several loop nests whose trips add up past its
  // elements. Either way, computing it once, in a kernel of its own, avoids the waste.
  // Decided on the simplified index, whatever the index is: the placement below follows the
  // index as given, so an index left unsimplified shows as wasted work, not as a new kernel.
  std::vector<UOpRef> around = with_enclosing(open_ranges(simplified(idx), ctx), ctx);
  int64_t trips = 1;
  for (const UOpRef& r : around)
    trips = std::min<int64_t>(trips * range_size(*r), int64_t{1} << 40);
  // Copies of one reduce at indices inside the same loops share its loops; in other loops
  // they are computed again, so the elements asked for add up across those.
  std::vector<const UOp*> key{u.get()};
  for (const UOpRef& r : open) key.push_back(r.get());
  bool fresh = !ctx.reduce_loops.contains(key);
  int64_t demanded = fresh ? ctx.reduce_demand[u.get()] + trips : 0;
  bool blocked = ctx.blocked == u.get();
  // A kernel split across threads would compute what is outside its thread loop once per part.
  bool outside_threads =
      ctx.thread_loop && std::find(around.begin(), around.end(), ctx.thread_loop) == around.end();
  if (ctx.materialize && !blocked &&
      (demanded > u->numel() || outside_threads || !outer_loops_only(around, ctx.output_loops)))
    return load(address(ctx.materialize(*u), simplify(ravel(idx, u->shape))));
  auto it = ctx.reduce_loops.try_emplace(key).first;
  Unroll unroll = unroll_of(*u, ctx);
  int64_t f = unroll.factor;
  if (fresh) {
    ctx.reduce_demand[u.get()] = demanded;
    // Row-major: the first popped axis gets the lowest id, which the linearizer puts outside.
    it->second.resize(static_cast<size_t>(u->pop()));
    for (int j = 0; j < u->pop(); ++j) {
      int k = planted(Plant::ReduceColumnMajor) ? u->pop() - 1 - j : j;
      int64_t size = x->shape[k] / (k == u->pop() - 1 ? f : 1);
      if (blocked && k == 0) size = ctx.block_size;
      it->second[k] = size == 1 ? zero() : range(size, ctx.next_range++, RangeKind::Reduce);
    }
    // A blocked reduce's loops sit in the block loop, even when its output has no loops to put
    // that loop around them: what it reads is computed once per block, not once per kernel.
    std::vector<UOpRef> outside = around;
    if (blocked && std::find(outside.begin(), outside.end(), ctx.block_loop) == outside.end())
      outside.insert(outside.begin(), ctx.block_loop);
    for (const UOpRef& r : it->second) {
      if (r->op != Op::Range) continue;
      ctx.enclosing[r.get()] = outside;
      outside.push_back(r);
    }
  }
  std::vector<UOpRef> values;
  for (int64_t c = 0; c < f; ++c) {
    std::vector<UOpRef> full = it->second;
    if (f > 1) full.back() = split_index(full.back(), f, c);
    if (blocked)
      full[0] =
          simplify(alu(Op::Add, {alu(Op::Mul, {ctx.block_loop, i32(ctx.block_size)}), full[0]}));
    full.insert(full.end(), idx.begin(), idx.end());
    if (planted(Plant::ReduceTrailingAxes)) {
      full = idx;
      full.insert(full.end(), it->second.begin(), it->second.end());
    }
    values.push_back(rangeify(x, full, ctx));
  }
  std::vector<UOpRef> loops;
  for (const UOpRef& r : it->second)
    if (r->op == Op::Range) loops.push_back(r);
  // One element folded from the identity is that element, bit for bit, for every op.
  if (loops.empty()) return fold_values(fold, nullptr, values, unroll.in_order);
  UOpRef acc = accumulator(key, *u, ctx);
  UOpRef start = literal(reduce_identity(fold, u->dtype));
  // A blocked reduce goes on from where the previous block left its output (read inside the
  // block loop, even for an output without loops of its own).
  if (blocked && !planted(Plant::ReduceBlockRestarts))
    start = alu(
        Op::Where,
        {alu(Op::Cmpeq, {ctx.block_loop, zero()}), start,
         load(address(after(ctx.block_out, {ctx.block_loop}), simplify(ravel(idx, u->shape))))});
  UOpRef init = store(address(acc, zero()), start);
  UOpRef inside = after(acc, [&] {
    std::vector<UOpRef> deps{init};
    deps.insert(deps.end(), loops.begin(), loops.end());
    return deps;
  }());
  UOpRef update = store(address(inside, zero()),
                        fold_values(fold, load(address(inside, zero())), values, unroll.in_order));
  return load(address(after(acc, {end(update, loops)}), zero()));
}

}  // namespace

UOpRef ravel(const std::vector<UOpRef>& idx, const Shape& shape) {
  UOpRef flat = zero();
  for (size_t k = 0; k < shape.size(); ++k)
    flat = alu(Op::Add, {alu(Op::Mul, {flat, i32(shape[k])}), idx[k]});
  return flat;
}

// The outermost axis takes no mod, and is not taken as 0 when its size is 1: a flat index in
// range needs neither (the simplifier folds the quotient to 0 from the bounds), and one out of
// range (a wrong offset upstream) then stays out of range, where a bounds check catches it,
// instead of landing on another element.
std::vector<UOpRef> unravel(const UOpRef& flat, const Shape& shape) {
  std::vector<UOpRef> out(shape.size());
  int64_t stride = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    int64_t divisor = planted(Plant::UnravelWrongStride) ? stride * shape[k] : stride;
    UOpRef quotient = alu(Op::Idiv, {flat, i32(divisor)});
    out[k] = k == 0 ? quotient : shape[k] == 1 ? zero() : alu(Op::Mod, {quotient, i32(shape[k])});
    stride *= shape[k];
  }
  return out;
}

std::vector<UOpRef> open_ranges(const std::vector<UOpRef>& exprs, LowerContext& ctx) {
  std::vector<UOpRef> out;
  for (const UOpRef& e : exprs) {
    auto it = ctx.open.find(e.get());
    if (it == ctx.open.end()) {
      std::vector<UOpRef> mine;
      if (e->op == Op::Range) {
        mine.push_back(e);
      } else {
        std::vector<UOpRef> srcs = e->src;
        std::vector<UOpRef> closed;
        if (e->op == Op::End) {
          closed.assign(srcs.begin() + 1, srcs.end());
          srcs.resize(1);
        }
        for (const UOpRef& r : open_ranges(srcs, ctx))
          if (std::find(closed.begin(), closed.end(), r) == closed.end()) mine.push_back(r);
      }
      ctx.keep.push_back(e);
      it = ctx.open.emplace(e.get(), std::move(mine)).first;
    }
    for (const UOpRef& r : it->second)
      if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  }
  std::sort(out.begin(), out.end(),
            [](const UOpRef& a, const UOpRef& b) { return range_id(*a) < range_id(*b); });
  return out;
}

UOpRef rangeify(const UOpRef& u, const std::vector<UOpRef>& idx, LowerContext& ctx) {
  std::vector<const UOp*> key{u.get()};
  if (!planted(Plant::MemoIgnoresIndex))
    for (const UOpRef& i : idx) key.push_back(i.get());
  if (auto it = ctx.memo.find(key); it != ctx.memo.end()) return it->second;
  if (ctx.materialize && ctx.staged.count(u.get()))
    return load(address(ctx.materialize(*u), simplify(ravel(idx, u->shape))));
  UOpRef r;
  switch (u->op) {
    case Op::Const:
      r = u;
      break;
    case Op::Buffer:
      r = load(address(ctx.param_for(*u), idx[0]));
      break;
    case Op::Stage:
      r = load(address(ctx.param_for(*u), simplify(ravel(idx, u->shape))));
      break;
    case Op::Index:
      r = rangeify_index(*u, idx, ctx);
      break;
    case Op::Stack:
      r = rangeify_stack(*u, idx, ctx);
      break;
    case Op::Reshape:
      r = rangeify(u->src[0], reshape_index(*u, idx), ctx);
      break;
    case Op::Expand:
      r = rangeify(u->src[0], expand_index(*u, idx), ctx);
      break;
    case Op::Permute:
      r = rangeify(u->src[0], permute_index(*u, idx), ctx);
      break;
    case Op::Flip:
      r = rangeify(u->src[0], flip_index(*u, idx), ctx);
      break;
    case Op::Shrink:
      r = rangeify_shrink(*u, idx, ctx);
      break;
    case Op::Pad:
      r = rangeify_pad(*u, idx, ctx);
      break;
    case Op::Reduce:
      r = rangeify_reduce(u, idx, ctx);
      break;
    case Op::Cast:
      r = cast(rangeify(u->src[0], idx, ctx), u->dtype);
      break;
    default:
      if (!is_alu(u->op))
        throw std::logic_error("rangeify: unexpected " + std::string(op_name(u->op)));
      r = alu(u->op, sources_at(*u, idx, ctx));
  }
  ctx.keep.push_back(u);
  ctx.keep.insert(ctx.keep.end(), idx.begin(), idx.end());
  ctx.memo.emplace(std::move(key), r);
  return r;
}

namespace {

// An output axis as loops: index base * factor + c for each copy c < factor.
struct AxisParts {
  UOpRef base;
  int64_t factor = 1;
};

class KernelLoops {
 public:
  KernelLoops(const Shape& shape, LowerContext& ctx) : shape_(shape), ctx_(ctx) {}

  // The thread axis is outermost (inside a blocked reduce's block loop, which comes first),
  // then every tile's block loop, then the rest in axis order.
  std::vector<AxisParts> make() {
    const Opts& o = ctx_.opts;
    std::vector<AxisParts> parts(shape_.size());
    if (o.thread) {
      if (o.tile.count(*o.thread))
        blocks_[*o.thread] = loop(shape_[*o.thread] / o.tile.at(*o.thread), RangeKind::Thread);
      else
        parts[*o.thread] = axis(*o.thread, RangeKind::Thread);
      ctx_.thread_loop = loops_.empty() ? nullptr : loops_.front();
    }
    for (const auto& [k, t] : o.tile)
      if (k != o.thread) blocks_[k] = loop(shape_[k] / t, RangeKind::Loop);
    for (int k = 0; k < static_cast<int>(shape_.size()); ++k)
      if (k != o.thread || o.tile.count(k)) parts[k] = axis(k, RangeKind::Loop);
    return parts;
  }

  const std::vector<UOpRef>& loops() const { return loops_; }

 private:
  UOpRef loop(int64_t size, RangeKind kind) {
    if (size <= 1) return zero();
    loops_.push_back(range(size, ctx_.next_range++, kind));
    return loops_.back();
  }

  AxisParts axis(int k, RangeKind kind) {
    const Opts& o = ctx_.opts;
    int64_t f = o.upcast.count(k) ? o.upcast.at(k) : 1;
    auto block = blocks_.find(k);
    if (block == blocks_.end()) return {loop(shape_[k] / f, kind), f};
    int64_t inner = o.tile.at(k) / f;
    UOpRef in = loop(inner, RangeKind::Loop);
    if (block->second->op == Op::Const) return {in, f};
    if (in->op == Op::Const) return {block->second, f};
    return {simplify(alu(Op::Add, {alu(Op::Mul, {block->second, i32(inner)}), in})), f};
  }

  const Shape& shape_;
  LowerContext& ctx_;
  std::vector<UOpRef> loops_;
  std::map<int, UOpRef> blocks_;
};

// The loop over the blocks of the kernel's own reduce, outermost, when Opts::block applies.
// A reduce whose only popped axis is unrolled is not blocked: the unroll, decided once for the
// program, would split the same axis.
UOpRef block_loop(const UOp& value, const UOpRef& out, LowerContext& ctx) {
  int64_t b = ctx.opts.block;
  if (b <= 1 || value.op != Op::Reduce || value.pop() < 1) return nullptr;
  int64_t first = value.src[0]->shape[0];
  if (b >= first || first % b != 0) return nullptr;
  if (value.pop() == 1 && unroll_of(value, ctx).factor > 1) return nullptr;
  ctx.blocked = &value;
  ctx.block_size = b;
  ctx.block_out = out;
  ctx.block_loop = range(first / b, ctx.next_range++, RangeKind::Loop);
  return ctx.block_loop;
}

// Every index tuple of the register tile: each upcast axis at each of its copies.
std::vector<std::vector<UOpRef>> tile_indices(const std::vector<AxisParts>& parts) {
  std::vector<std::vector<UOpRef>> out{{}};
  for (const AxisParts& p : parts) {
    std::vector<std::vector<UOpRef>> next;
    for (const std::vector<UOpRef>& idx : out)
      for (int64_t c = 0; c < p.factor; ++c) {
        next.push_back(idx);
        next.back().push_back(split_index(p.base, p.factor, c));
      }
    out = std::move(next);
  }
  return out;
}

// Copies made by upcast each END the loops they share; merging those ENDs into one, over a SINK
// of their bodies, closes each loop once (the book's merge_ends). A group whose bodies read one
// of its own ENDs stays as it is.
class EndMerger {
 public:
  UOpRef run(const UOpRef& root) {
    for (const UOp* n : topo_order({root}))
      if (n->op == Op::End) groups_[ranges_of(*n)].push_back(n);
    return rewrite(root);
  }

 private:
  static std::vector<const UOp*> ranges_of(const UOp& end) {
    std::vector<const UOp*> out;
    for (size_t k = 1; k < end.src.size(); ++k) out.push_back(end.src[k].get());
    return out;
  }

  UOpRef rewrite(const UOpRef& n) {
    if (auto it = done_.find(n.get()); it != done_.end()) return it->second;
    UOpRef out;
    const std::vector<const UOp*>* group = nullptr;
    if (n->op == Op::End) group = &groups_[ranges_of(*n)];
    if (group && group->size() > 1 && !busy_.count(group)) {
      busy_.insert(group);
      std::vector<UOpRef> bodies;
      for (const UOp* e : *group) bodies.push_back(rewrite(e->src[0]));
      busy_.erase(group);
      if (!done_.count(n.get())) {
        std::vector<UOpRef> src{sink(bodies)};
        src.insert(src.end(), n->src.begin() + 1, n->src.end());
        out = with_sources(*n, src);
        for (const UOp* e : *group) done_.emplace(e, out);
      }
      return done_.at(n.get());
    }
    // From the arena: one list per node of the kernel, dropped together.
    std::pmr::vector<UOpRef> src(&arena_);
    src.reserve(n->src.size());
    for (const UOpRef& s : n->src) {
      UOpRef r = rewrite(s);
      // A SINK names each merged END once.
      if (n->op != Op::Sink || std::find(src.begin(), src.end(), r) == src.end()) src.push_back(r);
    }
    bool same = std::equal(src.begin(), src.end(), n->src.begin(), n->src.end());
    out = same                ? n
          : n->op == Op::Sink ? sink(std::vector<UOpRef>(src.begin(), src.end()))
                              : with_sources(*n, src);
    done_.emplace(n.get(), out);
    return out;
  }

  std::map<std::vector<const UOp*>, std::vector<const UOp*>> groups_;
  std::set<const std::vector<const UOp*>*> busy_;
  Arena arena_;
  std::pmr::unordered_map<const UOp*, UOpRef> done_{&arena_};
};

}  // namespace

UOpRef lower_kernel(const UOpRef& root, const UOpRef& out, LowerContext& ctx) {
  // An empty value stores nothing: no loops at all, not even outer ones that find no work.
  if (element_count(root->shape) == 0) return sink({});
  SimplifyMemo memo;
  const UOpRef& value_of = root->op == Op::Stage ? root->src[0] : root;
  UOpRef block = block_loop(*value_of, out, ctx);
  KernelLoops loops(root->shape, ctx);
  std::vector<AxisParts> parts = loops.make();
  ctx.output_loops = loops.loops();
  if (block) ctx.output_loops.insert(ctx.output_loops.begin(), block);
  for (size_t k = 0; k < ctx.output_loops.size(); ++k)
    ctx.enclosing[ctx.output_loops[k].get()].assign(
        ctx.output_loops.begin(), ctx.output_loops.begin() + static_cast<ptrdiff_t>(k));
  std::vector<UOpRef> stores;
  for (const std::vector<UOpRef>& idx : tile_indices(parts)) {
    UOpRef st =
        store(address(out, simplify(ravel(idx, root->shape))), rangeify(value_of, idx, ctx));
    stores.push_back(end(st, ctx.output_loops));
  }
  return EndMerger().run(simplify(sink(stores)));
}

}  // namespace uopc

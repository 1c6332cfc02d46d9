// z3's encoding of uopc's scalar semantics (fuzz/smt.h), behind fuzz/smt_solver.h.
#include <z3++.h>

#include <algorithm>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>

#include "fuzz/smt_solver.h"

namespace uopc {
namespace {

const SmtHost* g_host = nullptr;

const SmtHost& host() {
  return *g_host;
}

struct Unsupported {
  Op op;
};

// The time limit from which equal_and_bounded first shows the bounds one op at a time.
constexpr unsigned kStepwiseFromMs = 100;

struct Impl {
  z3::context ctx;
  unsigned timeout_ms;
  std::unordered_map<const UOp*, z3::expr> memo;
  std::vector<std::pair<const UOp*, z3::expr>> leaves;
  std::vector<z3::expr> assumptions;
  int fresh_count = 0;

  // A tactic pipeline, not the default incremental solver: each query is one-shot, and this
  // is tens of times faster on them.
  z3::tactic pipeline;

  explicit Impl(unsigned t)
      : timeout_ms(t),
        pipeline(z3::try_for(
            z3::tactic(ctx, "simplify") & z3::tactic(ctx, "solve-eqs") & z3::tactic(ctx, "smt"),
            t)) {}

  void reset() {
    memo.clear();
    leaves.clear();
    assumptions.clear();
  }

  // i32 values as integers (the default) or, when `bv`, as 32-bit vectors: z3 decides
  // division by constants quickly over the integers and wrap-heavy sums of large multiples
  // quickly over bit-vectors, so a query undecided one way is tried the other.
  bool bv = false;

  z3::expr i32(int64_t v) { return bv ? ctx.bv_val(static_cast<int>(v), 32) : ctx.int_val(v); }
  z3::expr lt(const z3::expr& a, const z3::expr& b) { return bv ? z3::slt(a, b) : a < b; }
  z3::expr le(const z3::expr& a, const z3::expr& b) { return bv ? z3::sle(a, b) : a <= b; }
  z3::expr between(const z3::expr& v, int64_t lo, int64_t hi) {
    return le(i32(lo), v) && le(v, i32(hi));
  }
  z3::expr fresh() { return ctx.int_const(("t" + std::to_string(fresh_count++)).c_str()); }
  z3::expr in_i32(const z3::expr& v) {
    return v >= ctx.int_val(INT32_MIN) && v <= ctx.int_val(INT32_MAX);
  }

  // The i32 that the exact integer v wraps to: v - k * 2^32 for the one k that lands in i32.
  // |k| <= k_max keeps z3's integer search small: 1 for a sum of two i32 values, 2^30 for a
  // product.
  z3::expr wrap(const z3::expr& v, int64_t k_max) {
    if (bv) return v;  // bit-vector arithmetic wraps by itself
    int64_t exact = 0;
    if (v.is_numeral_i64(exact)) return i32(static_cast<int32_t>(static_cast<uint32_t>(exact)));
    z3::expr r = fresh(), k = fresh();
    assumptions.push_back(r == v - ctx.int_val(int64_t{1} << 32) * k && in_i32(r) &&
                          k >= ctx.int_val(-k_max) && k <= ctx.int_val(k_max));
    return r;
  }

  // i32 values as 32-bit vectors, for the bitwise ops and conversions to f32.
  z3::expr to_bv(const z3::expr& v) { return bv ? v : z3::int2bv(32, v); }
  z3::expr from_bv(const z3::expr& b) { return bv ? b : z3::bv2int(b, true); }

  z3::expr f32_bits(uint32_t bits) {
    // From the exact bits: every NaN payload and -0 stay what they are.
    return z3::expr(ctx, Z3_mk_fpa_to_fp_bv(ctx, ctx.bv_val(bits, 32), ctx.fpa_sort<32>()));
  }
  z3::expr rne() { return z3::expr(ctx, Z3_mk_fpa_rne(ctx)); }
  z3::expr rtz() { return z3::expr(ctx, Z3_mk_fpa_rtz(ctx)); }

  z3::expr leaf(const UOp* n) {
    std::string name = "n" + std::to_string(leaves.size());
    switch (n->dtype) {
      case DType::Bool: {
        z3::expr v = ctx.bool_const(name.c_str());
        leaves.emplace_back(n, v);
        return v;
      }
      case DType::I32: {
        z3::expr v = bv ? ctx.bv_const(name.c_str(), 32) : ctx.int_const(name.c_str());
        assumptions.push_back(between(v, n->bounds.lo, n->bounds.hi));
        leaves.emplace_back(n, v);
        return v;
      }
      case DType::F32:
        break;
    }
    z3::expr v = ctx.fpa_const<32>(name.c_str());
    leaves.emplace_back(n, v);
    return v;
  }

  z3::expr constant(const Scalar& s) {
    switch (s.dtype) {
      case DType::Bool:
        return ctx.bool_val(s.as_bool());
      case DType::I32:
        return i32(s.as_i32());
      case DType::F32:
        break;
    }
    return f32_bits(s.bits);
  }

  // The language's floor division over the integers: q with b*q <= a < b*q + b for b > 0, and
  // b*q >= a > b*q + b for b < 0; b == 0 gives 0, and b == -1 gives -a, wrapped (INT32_MIN
  // idiv -1 = INT32_MIN). With a constant b the constraints are linear.
  z3::expr floor_div(const z3::expr& a, const z3::expr& b) {
    if (bv) {
      // C-like truncation (bvsdiv, which wraps INT32_MIN / -1), one down when the remainder's
      // sign differs from the divisor's.
      z3::expr q = a / b, r = z3::srem(a, b);
      z3::expr adjust = r != i32(0) && (lt(r, i32(0)) != lt(b, i32(0)));
      return z3::ite(b == i32(0), i32(0), z3::ite(adjust, q - i32(1), q));
    }
    z3::expr q = fresh();
    assumptions.push_back(z3::implies(b > 0, b * q <= a && a < b * q + b));
    assumptions.push_back(z3::implies(b < 0, b * q >= a && a > b * q + b));
    return z3::ite(b == 0, i32(0), z3::ite(b == -1, wrap(-a, 1), q));
  }
  // a - b * floor(a / b): the sign of the divisor, and never out of i32; a for b == 0.
  z3::expr floor_mod(const z3::expr& a, const z3::expr& b) {
    if (bv) return z3::ite(b == i32(0), a, z3::smod(a, b));  // the divisor's sign
    return z3::ite(b == 0, a, z3::ite(b == -1, i32(0), a - b * floor_div(a, b)));
  }
  // C's a / b for a constant b != 0: toward zero.
  z3::expr trunc_div(const z3::expr& a, int64_t b) {
    z3::expr m = i32(b < 0 ? -b : b);
    z3::expr q = z3::ite(a >= 0, floor_div(a, m), -floor_div(-a, m));
    return b < 0 ? -q : q;
  }

  z3::expr f32_to_i32(const z3::expr& x) {
    z3::expr big = f32_bits(0x4f000000u), small = f32_bits(0xcf000000u);  // 2^31, -2^31
    z3::expr t = from_bv(z3::expr(ctx, Z3_mk_fpa_to_sbv(ctx, rtz(), x, 32)));
    return z3::ite(
        x.mk_is_nan(), i32(0),
        z3::ite(z3::expr(ctx, Z3_mk_fpa_geq(ctx, x, big)), i32(INT32_MAX),
                z3::ite(z3::expr(ctx, Z3_mk_fpa_leq(ctx, x, small)), i32(INT32_MIN), t)));
  }

  z3::expr cast(const UOp& n, const z3::expr& x) {
    DType from = n.src[0]->dtype, to = n.dtype;
    if (from == to) return x;
    z3::expr one = to == DType::F32 ? f32_bits(0x3f800000u) : i32(1);
    z3::expr zero = to == DType::F32 ? f32_bits(0) : i32(0);
    if (from == DType::Bool) return z3::ite(x, one, zero);
    if (to == DType::Bool)
      return from == DType::I32 ? x != i32(0) : !z3::expr(ctx, Z3_mk_fpa_eq(ctx, x, f32_bits(0)));
    if (to == DType::F32)
      return z3::expr(ctx, Z3_mk_fpa_to_fp_signed(ctx, rne(), to_bv(x), ctx.fpa_sort<32>()));
    return f32_to_i32(x);
  }

  z3::expr alu_bool(Op op, const std::vector<z3::expr>& s) {
    switch (op) {
      case Op::Not:
        return !s[0];
      case Op::And:
      case Op::Min:
        return s[0] && s[1];
      case Op::Or:
      case Op::Max:
        return s[0] || s[1];
      case Op::Xor:
      case Op::Cmpne:
        return s[0] != s[1];
      case Op::Cmpeq:
        return s[0] == s[1];
      case Op::Cmplt:
        return !s[0] && s[1];
      default:
        throw Unsupported{op};
    }
  }

  z3::expr alu_i32(Op op, const std::vector<z3::expr>& s) {
    switch (op) {
      case Op::Neg:
        return wrap(-s[0], 1);
      case Op::Add:
        return wrap(s[0] + s[1], 1);
      case Op::Sub:
        return wrap(s[0] - s[1], 1);
      case Op::Mul: {
        // |a * c| <= 2^31 |c|, so the wrap count is at most |c| / 2 + 1 for a constant c.
        int64_t c = 0, k_max = int64_t{1} << 30;
        for (const z3::expr& x : s)
          if (!bv && x.is_numeral_i64(c)) k_max = std::min(k_max, std::abs(c) / 2 + 1);
        return wrap(s[0] * s[1], k_max);
      }
      case Op::Idiv:
        return floor_div(s[0], s[1]);
      case Op::Mod:
        return floor_mod(s[0], s[1]);
      case Op::Max:
        return z3::ite(lt(s[1], s[0]), s[0], s[1]);
      case Op::Min:
        return z3::ite(lt(s[0], s[1]), s[0], s[1]);
      case Op::Cmplt:
        return lt(s[0], s[1]);
      case Op::Cmpeq:
        return s[0] == s[1];
      case Op::Cmpne:
        return s[0] != s[1];
      case Op::And:
        return from_bv(to_bv(s[0]) & to_bv(s[1]));
      case Op::Or:
        return from_bv(to_bv(s[0]) | to_bv(s[1]));
      case Op::Xor:
        return from_bv(to_bv(s[0]) ^ to_bv(s[1]));
      default:
        throw Unsupported{op};
    }
  }

  z3::expr alu_f32(Op op, const std::vector<z3::expr>& s) {
    auto gt = [&](const z3::expr& a, const z3::expr& b) {
      return z3::expr(ctx, Z3_mk_fpa_gt(ctx, a, b));
    };
    auto eq = [&](const z3::expr& a, const z3::expr& b) {
      return z3::expr(ctx, Z3_mk_fpa_eq(ctx, a, b));
    };
    switch (op) {
      case Op::Neg:
        return z3::expr(ctx, Z3_mk_fpa_neg(ctx, s[0]));
      case Op::Add:
        return z3::expr(ctx, Z3_mk_fpa_add(ctx, rne(), s[0], s[1]));
      case Op::Sub:
        return z3::expr(ctx, Z3_mk_fpa_sub(ctx, rne(), s[0], s[1]));
      case Op::Mul:
        return z3::expr(ctx, Z3_mk_fpa_mul(ctx, rne(), s[0], s[1]));
      case Op::Div:
        return z3::expr(ctx, Z3_mk_fpa_div(ctx, rne(), s[0], s[1]));
      case Op::Recip:
        return z3::expr(ctx, Z3_mk_fpa_div(ctx, rne(), f32_bits(0x3f800000u), s[0]));
      case Op::Sqrt:
        return z3::expr(ctx, Z3_mk_fpa_sqrt(ctx, rne(), s[0]));
      case Op::Max:
        return z3::ite(gt(s[0], s[1]), s[0], s[1]);
      case Op::Min:
        return z3::ite(gt(s[1], s[0]), s[0], s[1]);
      case Op::Cmplt:
        return gt(s[1], s[0]);
      case Op::Cmpeq:
        return eq(s[0], s[1]);
      case Op::Cmpne:
        return !eq(s[0], s[1]);
      default:
        throw Unsupported{op};
    }
  }

  // exp2, log2 and sin, whose last bit is the platform's libm (no exact semantics): a fresh
  // value with what every libm gives them, so that a claim about them is refuted only by a
  // value they can take. NaN exactly where the operand makes it; exp2 never negative, sin
  // within [-1, 1].
  z3::expr inexact(const UOp& n, const z3::expr& x) {
    z3::expr y = leaf(&n);
    auto lt = [&](const z3::expr& a, const z3::expr& b) {
      return z3::expr(ctx, Z3_mk_fpa_lt(ctx, a, b));
    };
    z3::expr zero = f32_bits(0), one = f32_bits(0x3f800000u), minus_one = f32_bits(0xbf800000u);
    z3::expr nan_in = x.mk_is_nan();
    if (n.op == Op::Log2) nan_in = nan_in || lt(x, zero);
    if (n.op == Op::Sin) nan_in = nan_in || z3::expr(ctx, Z3_mk_fpa_is_infinite(ctx, x));
    assumptions.push_back(y.mk_is_nan() == nan_in);
    if (n.op == Op::Exp2) assumptions.push_back(y.mk_is_nan() || !lt(y, zero));
    if (n.op == Op::Sin) assumptions.push_back(y.mk_is_nan() || (!lt(y, minus_one) && !lt(one, y)));
    return y;
  }

  // A reduce of a stack of scalars: the language's left fold from the identity.
  z3::expr fold(const UOp& n) {
    const UOp& stack = *n.src[0];
    if (stack.op != Op::Stack || n.pop() != 1 || stack.rank() != 1) throw Unsupported{n.op};
    z3::expr acc = constant(host().reduce_identity(n.reduce_op(), n.dtype));
    for (const UOpRef& s : stack.src) {
      std::vector<z3::expr> args{acc, memo.at(s.get())};
      acc = n.dtype == DType::I32    ? alu_i32(n.reduce_op(), args)
            : n.dtype == DType::Bool ? alu_bool(n.reduce_op(), args)
                                     : alu_f32(n.reduce_op(), args);
    }
    return acc;
  }

  z3::expr node(const UOp& n) {
    if (n.op == Op::Const) return constant(n.value);
    if (n.op == Op::Reduce) return fold(n);
    if (n.op == Op::Stack) return ctx.bool_val(true);  // only read through its reduce
    if (!host().is_alu(n.op)) return leaf(&n);
    std::vector<z3::expr> s;
    for (const UOpRef& src : n.src) s.push_back(memo.at(src.get()));
    if (n.op == Op::Exp2 || n.op == Op::Log2 || n.op == Op::Sin) return inexact(n, s[0]);
    if (n.op == Op::Where) return z3::ite(s[0], s[1], s[2]);
    if (n.op == Op::Cast) return cast(n, s[0]);
    switch (n.src[0]->dtype) {
      case DType::Bool:
        return alu_bool(n.op, s);
      case DType::I32:
        return alu_i32(n.op, s);
      case DType::F32:
        break;
    }
    return alu_f32(n.op, s);
  }

  static bool is_leaf(const UOp& n) {
    return !host().is_alu(n.op) && n.op != Op::Const && n.op != Op::Reduce && n.op != Op::Stack;
  }

  // Sources first, without walking into leaves: a load's address is not part of its value.
  z3::expr encode(const UOpRef& root) {
    std::vector<std::pair<const UOp*, bool>> pending{{root.get(), false}};
    while (!pending.empty()) {
      auto [n, expanded] = pending.back();
      pending.pop_back();
      if (memo.count(n)) continue;
      if (expanded || is_leaf(*n)) {
        memo.emplace(n, is_leaf(*n) ? leaf(n) : node(*n));
        continue;
      }
      pending.emplace_back(n, true);
      for (const UOpRef& s : n->src) pending.emplace_back(s.get(), false);
    }
    return memo.at(root.get());
  }

  std::string value_str(const z3::model& m, const z3::expr& e, DType d) {
    z3::expr v = m.eval(e, true);
    if (d == DType::Bool) return v.is_true() ? "true" : "false";
    if (d == DType::I32 && bv) {
      uint64_t u = 0;
      if (v.is_numeral_u64(u))
        return std::to_string(static_cast<int32_t>(static_cast<uint32_t>(u)));
    }
    if (d == DType::I32) {
      int64_t i = 0;
      return v.is_numeral_i64(i) ? std::to_string(i) : v.to_string();
    }
    v = m.eval(z3::expr(ctx, Z3_mk_fpa_to_ieee_bv(ctx, e)), true);
    uint64_t bits = 0;
    if (!v.is_numeral_u64(bits)) return v.to_string();
    return host().format_element(Scalar{d, static_cast<uint32_t>(bits)});
  }

  // Whether `claim` holds under the assumptions; a counterexample names every leaf and the
  // values `shown` take.
  Verdict prove(const z3::expr& claim, const std::vector<std::pair<z3::expr, DType>>& shown) {
    z3::solver solver = pipeline.mk_solver();
    for (const z3::expr& a : assumptions) solver.add(a);
    solver.add(!claim);
    Verdict v;
    switch (solver.check()) {
      case z3::unsat:
        v.kind = Verdict::Kind::Proved;
        return v;
      case z3::unknown:
        v.kind = Verdict::Kind::Unknown;
        return v;
      case z3::sat:
        break;
    }
    v.kind = Verdict::Kind::Refuted;
    z3::model m = solver.get_model();
    for (const auto& [n, e] : leaves)
      v.counterexample += std::string(host().leaf_name(n)) + "=" + value_str(m, e, n->dtype) + " ";
    v.counterexample += ":";
    for (size_t k = 0; k < shown.size(); ++k)
      v.counterexample += (k ? " vs " : " ") + value_str(m, shown[k].first, shown[k].second);
    return v;
  }

  // The i32 value x of node n lies in n's bounds (anything else has none to break).
  z3::expr inside(const z3::expr& x, const UOpRef& n) {
    if (n->dtype != DType::I32) return ctx.bool_val(true);
    return between(x, n->bounds.lo, n->bounds.hi);
  }

  z3::expr same(const z3::expr& a, const z3::expr& b, DType d) {
    if (d != DType::F32) return a == b;
    z3::expr bits_a(ctx, Z3_mk_fpa_to_ieee_bv(ctx, a)), bits_b(ctx, Z3_mk_fpa_to_ieee_bv(ctx, b));
    return (a.mk_is_nan() && b.mk_is_nan()) ||
           (!a.mk_is_nan() && !b.mk_is_nan() && bits_a == bits_b);
  }

  // Whether every value of root lies in its bounds, shown one op at a time: each i32 node's
  // value lies in its bounds whenever its sources' values lie in theirs, and the encoding takes
  // every leaf within its bounds, so by induction every node's value does. Each such proof is
  // one op over free sources, tiny, and remembered by all it depends on (step_key), where the
  // whole expression at once may run into the time limit (a division of a sum of loads by one).
  // False when a node's bounds need more than its sources' (or are wrong), or there is a
  // reduce: the whole query decides then. True for a bool or f32 root, which has no bounds.
  bool bounded_by_steps(const UOpRef& root) {
    if (root->dtype != DType::I32) return true;  // only an i32 has bounds to leave
    std::vector<const UOp*> work{root.get()};
    std::unordered_set<const UOp*> seen;
    while (!work.empty()) {
      const UOp* n = work.back();
      work.pop_back();
      if (!seen.insert(n).second || is_leaf(*n) || n->op == Op::Const) continue;
      if (!host().is_alu(n->op)) return false;
      if (n->dtype == DType::I32 && !step_bounded(*n)) return false;
      for (const UOpRef& src : n->src) work.push_back(src.get());
    }
    return true;
  }

  // What the proof of n's step reads: its op, dtypes and bounds, each source's dtype and bounds
  // (or value, for a literal), and which sources are one node.
  static std::string step_key(const UOp& n) {
    std::string key = std::to_string(static_cast<int>(n.op)) + "," + std::to_string(n.bounds.lo) +
                      "," + std::to_string(n.bounds.hi);
    for (size_t k = 0; k < n.src.size(); ++k) {
      const UOp& src = *n.src[k];
      size_t first = 0;
      while (n.src[first] != n.src[k]) ++first;
      key += ";" + std::to_string(static_cast<int>(src.dtype)) + "," + std::to_string(first) + ",";
      key += src.op == Op::Const
                 ? "=" + std::to_string(src.value.bits)
                 : std::to_string(src.bounds.lo) + "," + std::to_string(src.bounds.hi);
    }
    return key;
  }

  std::unordered_map<std::string, bool> steps_bounded;

  bool step_bounded(const UOp& n) {
    std::string key = step_key(n);
    if (auto at = steps_bounded.find(key); at != steps_bounded.end()) return at->second;
    if (steps_bounded.size() >= 65536) steps_bounded.clear();
    Verdict v = guarded([&] {
      for (const UOpRef& src : n.src)
        if (!memo.count(src.get()))
          memo.emplace(src.get(), src->op == Op::Const ? constant(src->value) : leaf(src.get()));
      z3::expr x = node(n);
      return prove(between(x, n.bounds.lo, n.bounds.hi), {});
    });
    return steps_bounded.emplace(key, v.proved()).first->second;
  }

  // f over the integers, then over bit-vectors if z3 could not decide it.
  template <class F>
  Verdict guarded(F f) {
    Verdict v;
    for (bool as_bv : {false, true}) {
      reset();
      fresh_count = 0;
      bv = as_bv;
      try {
        v = f();
      } catch (const Unsupported&) {
        v = {Verdict::Kind::Unsupported, ""};
      }
      if (v.kind != Verdict::Kind::Unknown) break;
    }
    // Nothing of a query outlives it: its terms would keep z3's memory, and a libFuzzer
    // target whose input leaves allocations behind is run twice and leak-checked.
    reset();
    bv = false;
    return v;
  }
};

class Z3Solver : public SmtSolver {
 public:
  explicit Z3Solver(unsigned timeout_ms) : m_(timeout_ms) {}

  SmtAnswer equal(const UOpRef& a, const UOpRef& b) override {
    return answer([&] { return m_.guarded([&] { return equal_claim(a, b); }); });
  }

  SmtAnswer equal_and_bounded(const UOpRef& a, const UOpRef& b) override {
    return answer([&] {
      // Under a long time limit (triage's), a whole query that runs into it costs what
      // hundreds of one-op proofs do; under the oracle's short one, most whole queries take
      // less.
      if (m_.timeout_ms >= kStepwiseFromMs && m_.bounded_by_steps(a) && m_.bounded_by_steps(b))
        return m_.guarded([&] { return equal_claim(a, b); });
      return m_.guarded([&] {
        z3::expr x = m_.encode(a), y = m_.encode(b);
        return m_.prove(m_.same(x, y, a->dtype) && m_.inside(x, a) && m_.inside(y, b),
                        {{x, a->dtype}, {y, b->dtype}});
      });
    });
  }

  SmtAnswer within(const UOpRef& e, const Interval& claimed) override {
    return answer([&] {
      return m_.guarded([&] {
        z3::expr x = m_.encode(e);
        if (e->dtype == DType::Bool) x = z3::ite(x, m_.i32(1), m_.i32(0));
        return m_.prove(m_.between(x, claimed.lo, claimed.hi), {{x, DType::I32}});
      });
    });
  }

  SmtAnswer exact_fits_i32(Op op, const UOpRef& a, const UOpRef& b) override {
    return answer([&] {
      return m_.guarded([&] {
        if (m_.bv) return Verdict{};  // exact results are integers
        z3::expr x = m_.encode(a);
        z3::expr y = b ? m_.encode(b) : m_.i32(0);
        z3::expr exact = op == Op::Add   ? x + y
                         : op == Op::Sub ? x - y
                         : op == Op::Mul ? x * y
                         : op == Op::Neg ? -x
                                         : throw Unsupported{op};
        return m_.prove(m_.in_i32(exact), {{x, DType::I32}, {y, DType::I32}});
      });
    });
  }

  SmtAnswer c_division_agrees(Op op, const UOpRef& a, const UOpRef& b) override {
    return answer([&] { return m_.guarded([&] { return division_claim(op, a, b); }); });
  }

 private:
  Verdict equal_claim(const UOpRef& a, const UOpRef& b) {
    z3::expr x = m_.encode(a), y = m_.encode(b);
    return m_.prove(m_.same(x, y, a->dtype), {{x, a->dtype}, {y, b->dtype}});
  }

  Verdict division_claim(Op op, const UOpRef& a, const UOpRef& b) {
    if (m_.bv) return Verdict{};  // C's truncation is written over the integers
    if (b->op != Op::Const) throw Unsupported{op};
    int64_t d = b->value.as_i32();
    z3::expr x = m_.encode(a), y = m_.i32(d);
    if (d == 0) return m_.prove(m_.ctx.bool_val(false), {{x, DType::I32}});
    // C99 6.5.5: / truncates toward zero, and (a/b)*b + a%b == a. INT32_MIN / -1 overflows.
    z3::expr defined = !(x == m_.i32(INT32_MIN) && y == -1);
    z3::expr q = m_.trunc_div(x, d);
    z3::expr c = op == Op::Idiv ? q : x - y * q;
    z3::expr spec = op == Op::Idiv ? m_.floor_div(x, y) : m_.floor_mod(x, y);
    return m_.prove(defined && c == spec, {{x, DType::I32}, {c, DType::I32}, {spec, DType::I32}});
  }

  // f's verdict as the boundary carries it; an exception stops here, since the host may
  // unwind with another C++ runtime than this one.
  template <class F>
  SmtAnswer answer(F f) {
    try {
      last_ = f();
      return {last_.kind, last_.counterexample.c_str(), nullptr};
    } catch (const z3::exception& e) {
      error_ = e.msg();
    } catch (const std::exception& e) {
      error_ = e.what();
    } catch (...) {
      error_ = "an unknown exception";
    }
    m_.reset();
    m_.bv = false;
    return {Verdict::Kind::Unknown, "", error_.c_str()};
  }

  Impl m_;
  Verdict last_;
  std::string error_;
};

}  // namespace
}  // namespace uopc

extern "C" uopc::SmtSolver* uopc_make_z3_solver(unsigned timeout_ms, const uopc::SmtHost* host) {
  uopc::g_host = host;
  return new uopc::Z3Solver(timeout_ms);
}

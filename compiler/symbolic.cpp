#include "compiler/symbolic.h"

#include <algorithm>
#include <map>
#include <utility>

#include "ir/build.h"
#include "ir/eval_scalar.h"
#include "ir/loop.h"
#include "ir/plant.h"

namespace uopc {
namespace {

// ---- helpers -----------------------------------------------------------------------------

bool is_const(const UOpRef& n) {
  return n->op == Op::Const;
}
bool is_i32(const UOpRef& n) {
  return n->dtype == DType::I32;
}

UOpRef i32(int64_t v) {
  return literal(Scalar::of_i32(static_cast<int32_t>(v)));
}

// The positive constant divisor of x // c or x % c, or 0.
int64_t positive_divisor(const UOpRef& n) {
  if (!is_const(n->src[1])) return 0;
  int32_t c = n->src[1]->value.as_i32();
  return c > 0 ? c : 0;
}

int64_t floor_div(int64_t a, int64_t c) {
  return a >= 0 ? a / c : -((-a + c - 1) / c);
}

UOpRef add(const UOpRef& a, const UOpRef& b) {
  return alu(Op::Add, {a, b});
}
UOpRef mul(const UOpRef& a, const UOpRef& b) {
  return alu(Op::Mul, {a, b});
}

// ---- linear forms ------------------------------------------------------------------------

// sum of coef * term + constant, with coefficients modulo 2^32.
struct Linear {
  std::vector<std::pair<UOpRef, uint32_t>> terms;
  uint32_t constant = 0;
};

bool is_sum(const UOpRef& n) {
  return n->op == Op::Add || n->op == Op::Sub || n->op == Op::Neg ||
         (n->op == Op::Mul && (is_const(n->src[0]) || is_const(n->src[1])));
}

// Adds k * n to `out`. A product of a sum and a constant stays one term here: spreading it is
// the job of the "distribute" rule.
void collect(const UOpRef& n, uint32_t k, Linear& out) {
  switch (n->op) {
    case Op::Const:
      out.constant += k * n->value.bits;
      return;
    case Op::Add:
      collect(n->src[0], k, out);
      collect(n->src[1], k, out);
      return;
    case Op::Sub:
      collect(n->src[0], k, out);
      collect(n->src[1], planted(Plant::LinearSubAsAdd) ? k : 0u - k, out);
      return;
    case Op::Neg:
      collect(n->src[0], 0u - k, out);
      return;
    case Op::Mul: {
      int c = is_const(n->src[1]) ? 1 : is_const(n->src[0]) ? 0 : -1;
      if (c < 0) break;
      Op inner = n->src[1 - c]->op;
      if (inner != Op::Add && inner != Op::Sub && inner != Op::Neg) {
        collect(n->src[1 - c], k * n->src[c]->value.bits, out);
        return;
      }
      break;
    }
    default:
      break;
  }
  out.terms.emplace_back(n, k);
}

Linear linear_form(const UOpRef& n) {
  Linear l;
  l.terms.reserve(4);  // one allocation for the few terms of most sums, not one per doubling
  collect(n, 1, l);
  auto less = [](const auto& a, const auto& b) {
    return structurally_less(a.first.get(), b.first.get());
  };
  // Stable, so that terms the order does not tell apart keep their places. A sum has a few
  // terms, and std::stable_sort allocates a buffer even for two.
  if (l.terms.size() <= 16) {
    for (size_t k = 1; k < l.terms.size(); ++k)
      for (size_t j = k; j > 0 && less(l.terms[j], l.terms[j - 1]); --j)
        std::swap(l.terms[j], l.terms[j - 1]);
  } else {
    std::stable_sort(l.terms.begin(), l.terms.end(), less);
  }
  size_t kept = 0;
  for (size_t k = 0; k < l.terms.size(); ++k) {
    if (kept > 0 && l.terms[kept - 1].first == l.terms[k].first)
      l.terms[kept - 1].second += l.terms[k].second;
    else
      l.terms[kept++] = std::move(l.terms[k]);
  }
  l.terms.resize(kept);
  std::erase_if(l.terms, [](const auto& tk) { return tk.second == 0; });
  return l;
}

// (x // c) * (k*c) + (x % c) * k -> x * k: the terms of a floor division and its remainder.
void fold_div_mod_pairs(Linear& l) {
  std::vector<std::pair<UOpRef, uint32_t>> whole;
  for (auto& [q, kq] : l.terms) {
    if (q->op != Op::Idiv || kq == 0) continue;
    int64_t c = positive_divisor(q);
    if (c == 0) continue;
    for (auto& [r, kr] : l.terms) {
      if (r->op != Op::Mod || kr == 0 || positive_divisor(r) != c) continue;
      if (r->src[0] != q->src[0] && !planted(Plant::DivmodPairAnyDividend)) continue;
      if (kq != kr * static_cast<uint32_t>(c)) continue;
      whole.emplace_back(q->src[0], kr);
      kq = 0;
      kr = 0;
      break;
    }
  }
  std::erase_if(l.terms, [](const auto& tk) { return tk.second == 0; });
  l.terms.insert(l.terms.end(), whole.begin(), whole.end());
}

UOpRef term_times(const UOpRef& t, uint32_t k) {
  return k == 1 ? t : mul(t, i32(static_cast<int32_t>(k)));
}

UOpRef build_linear(const Linear& l) {
  UOpRef out;
  for (const auto& [t, k] : l.terms) {
    if (!out)
      out = term_times(t, k);
    else if (k == 0xffffffffu)
      out = planted(Plant::LinearSubReversed) ? alu(Op::Sub, {t, out}) : alu(Op::Sub, {out, t});
    else
      out = add(out, term_times(t, k));
  }
  if (!out) return i32(static_cast<int32_t>(l.constant));
  return l.constant ? add(out, i32(static_cast<int32_t>(l.constant))) : out;
}

// The exact interval of the linear form, as mathematical integers, or nullopt if it leaves
// i32: then the i32 value wrapped somewhere and floor division does not split over it.
std::optional<Interval> exact_bounds(const Linear& l) {
  __int128 lo = static_cast<int32_t>(l.constant), hi = lo;
  for (const auto& [t, k] : l.terms) {
    __int128 c = static_cast<int32_t>(k);
    __int128 a = c * t->bounds.lo, b = c * t->bounds.hi;
    lo += std::min(a, b);
    hi += std::max(a, b);
  }
  if (lo < INT32_MIN || hi > INT32_MAX) return std::nullopt;
  return Interval{static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
}

// ---- rules -------------------------------------------------------------------------------

// op(c1, c2, ...) -> the constant, computed by the language's scalar semantics.
UOpRef fold_constants(const UOpRef& n) {
  std::vector<Scalar> args;
  for (const UOpRef& s : n->src) {
    if (!is_const(s)) return nullptr;
    args.push_back(s->value);
  }
  std::optional<Scalar> v = eval_scalar(n->op, n->dtype, args);
  return v ? literal(*v) : nullptr;
}

// a + b, a - b, -a, a * c: merge like terms, constants last, terms in structural order.
UOpRef combine_terms(const UOpRef& n) {
  if (!is_i32(n)) return nullptr;
  if (n->op == Op::Mul && !is_const(n->src[0]) && !is_const(n->src[1])) {
    // a * b of two non-constants: only put the operands in order
    if (structurally_less(n->src[1].get(), n->src[0].get())) return mul(n->src[1], n->src[0]);
    return nullptr;
  }
  Linear l = linear_form(n);
  fold_div_mod_pairs(l);
  return build_linear(l);
}

// (a + b) * c -> a*c + b*c, for a constant c.
UOpRef distribute(const UOpRef& n) {
  if (!is_i32(n)) return nullptr;
  int c = is_const(n->src[1]) ? 1 : is_const(n->src[0]) ? 0 : -1;
  if (c < 0) return nullptr;
  const UOpRef& x = n->src[1 - c];
  if (x->op != Op::Add && x->op != Op::Sub) return nullptr;
  UOpRef k = n->src[c];
  return alu(x->op, {mul(x->src[0], k), mul(x->src[1], k)});
}

// x // c -> k and x % c -> x - k*c when all of x lies in one period [k*c, k*c + c).
UOpRef divmod_by_bounds(const UOpRef& n) {
  int64_t c = positive_divisor(n);
  if (c == 0) return nullptr;
  const Interval& b = n->src[0]->bounds;
  int64_t k = floor_div(b.lo, c);
  if (floor_div(b.hi, c) != k) return nullptr;
  if (n->op == Op::Idiv) return i32(k);
  return k == 0 ? n->src[0] : add(n->src[0], i32(-k * c));
}

// x // 1 -> x;  x % 1 -> 0
UOpRef divmod_by_one(const UOpRef& n) {
  if (positive_divisor(n) != 1) return nullptr;
  return n->op == Op::Idiv ? n->src[0] : i32(0);
}

// (a*c + b) // c -> a + b // c and (a*c + b) % c -> b % c, when the sum does not wrap.
UOpRef divmod_split(const UOpRef& n) {
  int64_t c = positive_divisor(n);
  if (c < 2 || !is_sum(n->src[0])) return nullptr;
  Linear l = linear_form(n->src[0]);
  if (!exact_bounds(l)) return nullptr;
  Linear whole, rest;
  for (const auto& [t, k] : l.terms) {
    int64_t coef = static_cast<int32_t>(k);
    if (coef % c == 0)
      whole.terms.emplace_back(t, static_cast<uint32_t>(coef / c));
    else
      rest.terms.emplace_back(t, k);
  }
  int64_t constant = static_cast<int32_t>(l.constant);
  int64_t q = floor_div(constant, c);
  whole.constant = static_cast<uint32_t>(q);
  rest.constant = static_cast<uint32_t>(constant - q * c);
  if (whole.terms.empty() && q == 0) return nullptr;  // nothing to take out
  // the remainder would wrap on its own
  if (!exact_bounds(rest) && !planted(Plant::DivmodSplitUnchecked)) return nullptr;
  UOpRef r = build_linear(rest);
  if (n->op == Op::Mod) return alu(Op::Mod, {r, n->src[1]});
  return add(build_linear(whole), alu(Op::Idiv, {r, n->src[1]}));
}

// (x // a) // b -> x // (a*b)
UOpRef div_div(const UOpRef& n) {
  int64_t b = positive_divisor(n);
  const UOpRef& inner = n->src[0];
  if (b == 0 || inner->op != Op::Idiv) return nullptr;
  int64_t a = positive_divisor(inner);
  if (a == 0 || (a * b > INT32_MAX && !planted(Plant::DivDivUnchecked))) return nullptr;
  return alu(Op::Idiv, {inner->src[0], i32(a * b)});
}

// (x % a) % b -> x % b when b divides a
UOpRef mod_mod(const UOpRef& n) {
  int64_t b = positive_divisor(n);
  const UOpRef& inner = n->src[0];
  if (b == 0 || inner->op != Op::Mod) return nullptr;
  int64_t a = positive_divisor(inner);
  if (a == 0 || a % b != 0) return nullptr;
  return alu(Op::Mod, {inner->src[0], n->src[1]});
}

// max(a, b) -> a when a >= b everywhere (and likewise for min); i32 and bool only, since
// f32 max depends on operand order for NaN and signed zeros.
UOpRef minmax_by_bounds(const UOpRef& n) {
  if (n->dtype == DType::F32) return nullptr;
  const UOpRef &a = n->src[0], &b = n->src[1];
  if (a == b) return a;
  bool max = n->op == Op::Max;
  if (a->bounds.lo >= b->bounds.hi) return max ? a : b;
  if (b->bounds.lo >= a->bounds.hi) return max ? b : a;
  return nullptr;
}

// a < b, a == b, a != b decided when the intervals of a and b do not overlap.
UOpRef compare_by_bounds(const UOpRef& n) {
  const UOpRef &a = n->src[0], &b = n->src[1];
  if (a->dtype == DType::F32) return nullptr;
  const Interval &x = a->bounds, &y = b->bounds;
  std::optional<bool> r;
  switch (n->op) {
    case Op::Cmplt:
      if (x.hi < y.lo || (planted(Plant::CompareBoundsTouching) && x.hi == y.lo)) r = true;
      if (x.lo >= y.hi) r = false;
      break;
    case Op::Cmpeq:
    case Op::Cmpne:
      if (x.hi < y.lo || y.hi < x.lo || (planted(Plant::EqualBoundsTouching) && x.hi == y.lo))
        r = n->op == Op::Cmpne;
      if (a == b) r = n->op == Op::Cmpeq;
      break;
    default:
      break;
  }
  return r ? literal(Scalar::of_bool(*r)) : nullptr;
}

// where(true, a, b) -> a;  where(false, a, b) -> b;  where(c, a, a) -> a
UOpRef where_decided(const UOpRef& n) {
  if (n->src[1] == n->src[2]) return n->src[1];
  if (!is_const(n->src[0])) return nullptr;
  return n->src[0]->value.as_bool() ? n->src[1] : n->src[2];
}

// Commutative ops with one constant operand: the constant goes right. (add and mul are
// ordered by combine_terms.)
UOpRef constant_right(const UOpRef& n) {
  if (!is_commutative(n->op, n->src[0]->dtype)) return nullptr;
  if (!is_const(n->src[0]) || is_const(n->src[1])) return nullptr;
  return alu(n->op, {n->src[1], n->src[0]});
}

// x and true -> x; x and false -> false; x or false -> x; x or true -> true (bool)
UOpRef logic_identity(const UOpRef& n) {
  if (n->dtype != DType::Bool || !is_const(n->src[1])) return nullptr;
  bool c = n->src[1]->value.as_bool();
  if (n->op == Op::And) return c ? n->src[0] : n->src[1];
  return c ? n->src[1] : n->src[0];
}

// not not x -> x
UOpRef not_not(const UOpRef& n) {
  return n->src[0]->op == Op::Not ? n->src[0]->src[0] : nullptr;
}

std::vector<Rule> all_rules() {
  std::vector<Rule> rules;
  for (int i = 0; i < kOpCount; ++i) {
    Op op = static_cast<Op>(i);
    if (is_alu(op)) rules.push_back({"fold_constants", op, fold_constants});
  }
  std::vector<Rule> more = {
      {"combine_terms", Op::Add, combine_terms},
      {"combine_terms", Op::Sub, combine_terms},
      {"combine_terms", Op::Neg, combine_terms},
      {"combine_terms", Op::Mul, combine_terms},
      {"distribute", Op::Mul, distribute},
      {"divmod_by_one", Op::Idiv, divmod_by_one},
      {"divmod_by_one", Op::Mod, divmod_by_one},
      {"divmod_by_bounds", Op::Idiv, divmod_by_bounds},
      {"divmod_by_bounds", Op::Mod, divmod_by_bounds},
      {"divmod_split", Op::Idiv, divmod_split},
      {"divmod_split", Op::Mod, divmod_split},
      {"div_div", Op::Idiv, div_div},
      {"mod_mod", Op::Mod, mod_mod},
      {"minmax_by_bounds", Op::Max, minmax_by_bounds},
      {"minmax_by_bounds", Op::Min, minmax_by_bounds},
      {"compare_by_bounds", Op::Cmplt, compare_by_bounds},
      {"compare_by_bounds", Op::Cmpeq, compare_by_bounds},
      {"compare_by_bounds", Op::Cmpne, compare_by_bounds},
      {"where_decided", Op::Where, where_decided},
      {"constant_right", Op::Max, constant_right},
      {"constant_right", Op::Min, constant_right},
      {"constant_right", Op::Cmpeq, constant_right},
      {"constant_right", Op::Cmpne, constant_right},
      {"constant_right", Op::And, constant_right},
      {"constant_right", Op::Or, constant_right},
      {"constant_right", Op::Xor, constant_right},
      {"logic_identity", Op::And, logic_identity},
      {"logic_identity", Op::Or, logic_identity},
      {"not_not", Op::Not, not_not},
  };
  rules.insert(rules.end(), more.begin(), more.end());
  return rules;
}

int compare(const UOp* a, const UOp* b) {
  if (a == b) return 0;
  if (a->op == Op::Range && b->op == Op::Range) return range_id(*a) < range_id(*b) ? -1 : 1;
  // Ranges first, constants last: indices read ridx0*4 + ridx1 + 5.
  auto rank = [](const UOp* n) { return n->op == Op::Range ? 0 : n->op == Op::Const ? 2 : 1; };
  if (rank(a) != rank(b)) return rank(a) < rank(b) ? -1 : 1;
  if (a->op != b->op) return a->op < b->op ? -1 : 1;
  if (a->dtype != b->dtype) return a->dtype < b->dtype ? -1 : 1;
  if (a->arg != b->arg) return a->arg < b->arg ? -1 : 1;
  if (a->value.bits != b->value.bits) return a->value.bits < b->value.bits ? -1 : 1;
  if (a->src.size() != b->src.size()) return a->src.size() < b->src.size() ? -1 : 1;
  for (size_t i = 0; i < a->src.size(); ++i)
    if (int c = compare(a->src[i].get(), b->src[i].get())) return c;
  return a->shape < b->shape ? -1 : a->shape == b->shape ? 0 : 1;
}

}  // namespace

bool structurally_less(const UOp* a, const UOp* b) {
  return compare(a, b) < 0;
}

const RuleSet& symbolic_rules() {
  static const RuleSet rules(all_rules());
  return rules;
}

namespace {
thread_local Rewriter* memo_rewriter = nullptr;      // the innermost SimplifyMemo's
thread_local const RuleSet* active_rules = nullptr;  // the innermost WithoutRule's
thread_local std::string left_out_names;
const RuleSet& rules_in_use() {
  return active_rules ? *active_rules : symbolic_rules();
}
}  // namespace

WithoutRule::WithoutRule(const std::string& name)
    : rules_(rules_in_use().without(name)), outer_(active_rules), outer_names_(left_out_names) {
  active_rules = &rules_;
  left_out_names += name + " ";
}

WithoutRule::~WithoutRule() {
  active_rules = outer_;
  left_out_names = outer_names_;
}

std::string rules_left_out() {
  return left_out_names;
}

std::vector<std::string> symbolic_rule_names() {
  std::vector<std::string> names;
  for (const Rule& r : symbolic_rules().all())
    if (std::find(names.begin(), names.end(), r.name) == names.end()) names.push_back(r.name);
  return names;
}

// A rewriter per rule set and plant. Results are dropped only while no SimplifyMemo or
// simplify() call is using one of them.
struct KeptSimplifications::State {
  struct Kept {
    explicit Kept(const RuleSet& r) : rules(r), rewriter(rules) {}
    RuleSet rules;  // a WithoutRule's rules die with it
    Rewriter rewriter;
  };
  std::map<std::pair<Plant, std::string>, std::unique_ptr<Kept>> by_rules;
  Kept* last = nullptr;  // the one asked for last, found without building a key
  std::pair<Plant, std::string> last_key;
  int users = 0;
  size_t max_nodes = 0;

  size_t size() const {
    size_t n = 0;
    for (const auto& [key, kept] : by_rules) n += kept->rewriter.size();
    return n;
  }
};

namespace {

thread_local KeptSimplifications::State* t_kept = nullptr;

// Drops every kept result when there are too many and none is in use.
void bound_kept(KeptSimplifications::State& k) {
  if (k.users > 0 || k.size() <= k.max_nodes) return;
  k.by_rules.clear();
  k.last = nullptr;
}

// The kept rewriter for the rules in use, or null.
Rewriter* kept_rewriter() {
  KeptSimplifications::State* k = t_kept;
  if (!k || rewrites_logged()) return nullptr;
  bound_kept(*k);
  if (k->last && k->last_key.first == active_plant() && k->last_key.second == left_out_names)
    return &k->last->rewriter;
  k->last_key = {active_plant(), left_out_names};
  std::unique_ptr<KeptSimplifications::State::Kept>& kept = k->by_rules[k->last_key];
  if (!kept) kept = std::make_unique<KeptSimplifications::State::Kept>(rules_in_use());
  k->last = kept.get();
  return &kept->rewriter;
}

}  // namespace

KeptSimplifications::KeptSimplifications(size_t max_nodes)
    : state_(std::make_unique<State>()), outer_(t_kept) {
  state_->max_nodes = max_nodes;
  t_kept = state_.get();
}

KeptSimplifications::~KeptSimplifications() {
  t_kept = outer_;
}

size_t KeptSimplifications::size() const {
  return state_->size();
}

SimplifyMemo::SimplifyMemo() : outer_(memo_rewriter) {
  memo_rewriter = kept_rewriter();
  if (memo_rewriter) {
    kept_ = t_kept;
    ++kept_->users;
    return;
  }
  rewriter_ = std::make_unique<Rewriter>(rules_in_use());
  memo_rewriter = rewriter_.get();
}

SimplifyMemo::~SimplifyMemo() {
  if (kept_) --kept_->users;
  memo_rewriter = outer_;
}

UOpRef simplify(const UOpRef& node) {
  // Loop counters and constants are already as simple as they get; they are most indices.
  if (node->op == Op::Range || node->op == Op::Const) return node;
  if (memo_rewriter) return memo_rewriter->run(node);
  if (t_kept && !rewrites_logged()) {
    SimplifyMemo memo;  // takes the kept results, and holds them while they are in use
    return memo_rewriter->run(node);
  }
  return rewrite(node, rules_in_use()).root;
}

std::string expr_str(const UOpRef& n) {
  switch (n->op) {
    case Op::Const:
      return format_element(n->value);
    case Op::Range:
      return "r" + std::to_string(range_id(*n));
    case Op::Load:
      return "load(" + expr_str(n->src[0]) + ")";
    case Op::Index:
      return expr_str(n->src[0]) + "[" + expr_str(n->src[1]) + "]";
    case Op::Param:
      return "data" + std::to_string(n->arg[0]);
    case Op::Table:
      return "table";
    case Op::Var:
      return "x" + std::to_string(n->arg[0]);
    case Op::Cast:  // the source's dtype does not say which one it becomes
      return "cast(" + expr_str(n->src[0]) + ", " + std::string(dtype_name(n->dtype)) + ")";
    default:
      break;
  }
  static const std::pair<Op, const char*> infix[] = {
      {Op::Add, "+"},   {Op::Sub, "-"},    {Op::Mul, "*"},    {Op::Idiv, "//"}, {Op::Mod, "%"},
      {Op::Cmplt, "<"}, {Op::Cmpeq, "=="}, {Op::Cmpne, "!="}, {Op::And, "&"},   {Op::Or, "|"}};
  for (const auto& [op, text] : infix)
    if (n->op == op) return "(" + expr_str(n->src[0]) + text + expr_str(n->src[1]) + ")";
  std::string out = std::string(op_name(n->op)) + "(";
  for (size_t i = 0; i < n->src.size(); ++i) out += (i ? ", " : "") + expr_str(n->src[i]);
  return out + ")";
}

}  // namespace uopc

#include "fuzz/oracles.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "compiler/engine.h"
#include "compiler/symbolic.h"
#include "fuzz/expr_gen.h"
#include "fuzz/expr_text.h"
#include "fuzz/smt.h"
#include "interp/interp.h"
#include "ir/build.h"
#include "ir/composite.h"
#include "ir/error.h"
#include "ir/eval_scalar.h"
#include "ir/loop.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/program.h"

namespace uopc {
namespace {

// The first way two results differ, or "".
std::string compare(const InterpResult& want, const InterpResult& got, const std::string& what) {
  for (size_t k = 0; k < want.outputs.size() && k < got.outputs.size(); ++k) {
    std::string d = describe_difference(want.outputs[k].second, got.outputs[k].second);
    if (!d.empty()) return want.outputs[k].first->name + ": " + d + " (interp vs " + what + ")";
  }
  // An assert that fails in either engine fails alike in both: where and with which values
  // show its operands, which must agree too.
  for (const InterpResult* r : {&want, &got})
    for (const AssertFailure& f : r->failures) {
      const std::string& name = f.statement->name;
      std::string w = assert_verdict(want, name), g = assert_verdict(got, name);
      if (w != g) return name + " " + w + " in interp; " + g + " in " + what;
    }
  return "";
}

// Runs `check`, turning any exception into a failure of `oracle`: an engine that throws on a
// well-typed program is as wrong as one that computes the wrong numbers.
std::optional<Failure> guarded(const std::string& oracle, const Program& p,
                               const std::function<std::optional<Failure>()>& check) {
  try {
    return check();
  } catch (const std::exception& e) {
    return Failure{oracle, std::string("threw: ") + e.what(), print_program(p)};
  }
}

}  // namespace

Program with_composites(const Program& p) {
  std::unordered_map<const UOp*, UOpRef> memo;
  std::vector<UOpRef> roots;
  for (const Statement& s : p.statements) roots.push_back(s.node);
  for (const UOp* n : topo_order(roots)) {
    std::vector<UOpRef> src;
    for (const UOpRef& s : n->src) src.push_back(memo.at(s.get()));
    UOpRef out;
    if (n->op == Op::Pad)
      out = composite_pad(src[0], n->arg, n->value);
    else if (n->op == Op::Flip)
      out = composite_flip(src[0], n->arg);
    else
      out = with_sources(*n, src);
    memo.emplace(n, out);
  }
  Program q = p;
  for (Statement& s : q.statements) s.node = memo.at(s.node.get());
  return q;
}

namespace {

bool has_pad_or_flip(const Program& p) {
  for (const UOp* n : topo_order(p.roots()))
    if (n->op == Op::Pad || (n->op == Op::Flip && !n->arg.empty())) return true;
  return false;
}

}  // namespace

int64_t interpreter_work(const Program& p) {
  int64_t work = 0;
  for (const UOp* n : topo_order(p.roots())) {
    work += n->numel();
    if (n->op == Op::Reduce) work += n->src[0]->numel();
  }
  return work;
}

std::string EngineConfig::flags() const {
  return "--opts '" + format_opts_choice(opts) + "' --threads " + std::to_string(threads);
}

std::optional<Failure> check_engines(const Program& p, Backend& backend,
                                     const EngineConfig& config) {
  std::optional<Failure> f = guarded("engines", p, [&]() -> std::optional<Failure> {
    CompiledProgram c = compile_program(p, {true, true, true, config.by_helper}, config.opts);
    Executable e(p, c, backend, {}, config.threads);
    // `with` names the data when it is not the default.
    auto agree = [&](const InterpOptions& o, const std::string& with) -> std::optional<Failure> {
      InterpResult want = interpret(p, matching(c, o));
      try {
        e.run();
      } catch (const BoundsError& error) {
        return Failure{"memory", with + error.what(), print_program(p)};
      } catch (const UndefinedBehaviorError& error) {
        return Failure{"ub", with + error.what(), print_program(p)};
      }
      std::string d = compare(want, e.results(), "compiled");
      if (!d.empty()) return Failure{"engines", with + d, print_program(p)};
      return std::nullopt;
    };
    if (auto f = agree({}, "")) return f;
    std::string excess = excess_iterations(p, c, e.iterations());
    if (!excess.empty()) return Failure{"cost", excess, print_program(p)};
    // Past 23 elements the default data repeats: the same kernels on scrambled inputs show a
    // wrong index the repetition hides.
    std::optional<InterpOptions> scrambled = scrambled_options(p);
    if (!scrambled) return std::nullopt;
    e.refill(*scrambled);
    return agree(*scrambled, "with scrambled inputs: ");
  });
  if (f) f->config = config;
  return f;
}

std::optional<Failure> check_composites(const Program& p, Backend& backend, bool compiled,
                                        const std::vector<Op>& by_helper) {
  if (!has_pad_or_flip(p)) return std::nullopt;
  return guarded("composites", p, [&]() -> std::optional<Failure> {
    Program q = with_composites(p);
    InterpResult want = interpret(p, {});
    std::string d = compare(want, interpret(q, {}), "interp of the composites");
    if (d.empty() && compiled) {
      // Bounds and overflow checks here too: a wrong composite must not read past a buffer.
      // What they find is the memory and ub oracles' finding, wherever it showed.
      const char* where = "in the compiled composites: ";
      try {
        d = compare(
            want, run_compiled(q, compile_program(q, {true, false, true, by_helper}), backend, {}),
            "compiled composites");
      } catch (const BoundsError& error) {
        return Failure{"memory", where + std::string(error.what()), print_program(p)};
      } catch (const UndefinedBehaviorError& error) {
        return Failure{"ub", where + std::string(error.what()), print_program(p)};
      }
    }
    if (!d.empty()) return Failure{"composites", d, print_program(p)};
    return std::nullopt;
  });
}

namespace {

// How literal n fails to print back to itself, told without the printer (its bits, and C's
// nine digits), or "" when it prints back.
std::string literal_roundtrip(Scalar value) {
  Program alone;
  UOpRef n = literal(value);
  alone.statements.push_back({"%v", stack({n}), 1, false});
  std::string text = print_program(alone);
  try {
    Program back = parse_program(text, "literal.uir");
    const UOp& read = *back.statements.at(0).node->src.at(0);
    if (read.op == Op::Const && read.value == value) return "";
  } catch (const std::exception&) {
  }
  char bits[64];
  std::snprintf(bits, sizeof bits, "bits 0x%08x, %.9g", static_cast<unsigned>(value.bits),
                static_cast<double>(value.dtype == DType::F32 ? value.as_f32() : 0.0f));
  std::string printed = text.substr(text.find("stack ") + 6);
  while (!printed.empty() && printed.back() == '\n') printed.pop_back();
  return std::string(kLiteralRoundtrip) + "the " + std::string(dtype_name(value.dtype)) +
         " literal (" + bits + ") prints as '" + printed + "', which does not read back to it";
}

// Why parse(print(p)) is not p, or "": `text` is p printed with `options`.
std::string roundtrip_difference(const Program& p, const std::string& text,
                                 const PrintOptions& options = {}) {
  try {
    Program q = parse_program(text, "printed.uir");
    if (!same_graph(p, q)) return "parse(print(p)) is another graph";
    if (print_program(q, options) != text) return "printing is not a fixpoint";
  } catch (const std::exception& e) {
    return std::string("the printed program does not parse: ") + e.what();
  }
  return "";
}

// n alone, its value operands fresh buffers of their shapes (literals, a shrink's offsets and an
// index's indices kept: those must be proved in range), or nullopt when that cannot be built.
std::optional<Program> alone_on_buffers(const UOp* n) {
  try {
    std::vector<UOpRef> src;
    int64_t slot = 0;
    bool offsets = n->op == Op::Shrink || n->op == Op::Index;
    for (size_t k = 0; k < n->src.size(); ++k) {
      const UOpRef& s = n->src[k];
      bool keep = s->op == Op::Const || (offsets && k > 0) || s->numel() == 0;
      src.push_back(keep ? s : reshape(buffer(s->numel(), s->dtype, slot++), s->shape));
    }
    Program alone;
    alone.statements.push_back({"%v", with_sources(*n, std::move(src)), 1, false});
    return alone;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// How node n, alone on buffers, fails to print back to itself, told without the printer (its
// fields), or "".
std::string node_roundtrip(const UOp* n) {
  if (n->op == Op::Buffer || n->op == Op::Const || n->op == Op::Assert) return "";
  std::optional<Program> alone = alone_on_buffers(n);
  if (!alone) return "";
  std::string text = print_program(*alone);
  std::string why = roundtrip_difference(*alone, text);
  if (why.empty()) return "";
  size_t at = text.rfind("%v = ");
  std::string line = at == std::string::npos ? text : text.substr(at);
  while (!line.empty() && line.back() == '\n') line.pop_back();
  std::string arg;
  for (int64_t a : n->arg) arg += (arg.empty() ? "" : " ") + std::to_string(a);
  char bits[16];
  std::snprintf(bits, sizeof bits, "0x%08x", static_cast<unsigned>(n->value.bits));
  return std::string(kNodeRoundtrip) + std::string(op_name(n->op)) + " " +
         std::string(dtype_name(n->dtype)) + shape_str(n->shape) + " (arg [" + arg +
         "], value bits " + bits + ") alone prints as '" + line + "': " + why;
}

}  // namespace

std::optional<Failure> check_roundtrip(const Program& p) {
  return check_roundtrip(p, print_program(p));
}

std::optional<Failure> check_roundtrip(const Program& p, const std::string& text) {
  std::string why = roundtrip_difference(p, text);
  if (why.empty()) return std::nullopt;
  // A literal that does not print back to itself is the cause, whichever op holds it, and
  // else the first node that does not alone. Found here, on the program itself: its printed
  // text, the reproducer's, may no longer hold it.
  for (const UOp* n : topo_order(p.roots()))
    if (n->op == Op::Const || n->op == Op::Pad)  // a pad's fill is a literal too
      if (std::string lost = literal_roundtrip(n->value); !lost.empty())
        return Failure{"roundtrip", lost, text};
  // If the program prints back with no literal written as a bare operand, every node's own
  // printing is right, and the literals the printer chose to inline are the cause, whichever
  // ops read them. (A node alone keeps its empty operands, which may hold such a literal.) That
  // text is the reproducer: it reads back to the program, which fails again.
  PrintOptions statements{.literal_operands = false};
  std::string plain = print_program(p, statements);
  if (roundtrip_difference(p, plain, statements).empty())
    return Failure{"roundtrip",
                   std::string(kLiteralOperands) + why +
                       "; with every broadcast literal as a statement of its own it reads back",
                   plain};
  for (const UOp* n : topo_order(p.roots()))
    if (std::string lost = node_roundtrip(n); !lost.empty())
      return Failure{"roundtrip", lost, text};
  return Failure{"roundtrip", why, text};
}

namespace {

// The first value of p's nodes, on `data`, outside its node's interval. Sources come before
// their users, so it is that of the op whose interval rule is wrong: its sources' values were
// inside theirs.
std::optional<Failure> bounds_on(const Program& p, const InterpOptions& data, const char* which) {
  std::vector<UOpRef> roots = p.roots();
  std::unordered_map<const UOp*, Tensor> values;
  try {
    values = node_values(roots, data);
  } catch (const std::exception&) {  // no values to compare; the engines oracle reports a throw
    return std::nullopt;
  }
  for (const UOp* n : topo_order(roots)) {
    auto it = values.find(n);
    if (n->dtype != DType::I32 || it == values.end()) continue;
    for (int64_t i = 0; i < it->second.size(); ++i) {
      int32_t v = it->second.at(i).as_i32();
      if (v >= n->bounds.lo && v <= n->bounds.hi) continue;
      return Failure{"bounds",
                     std::string(op_name(n->op)) + " i32" + shape_str(n->shape) + ": element " +
                         std::to_string(i) + " is " + std::to_string(v) +
                         ", outside its interval " + interval_str(n->bounds) + which,
                     print_program(p)};
    }
  }
  return std::nullopt;
}

}  // namespace

// On the default data and, as the engines oracle runs kernels, on scrambled inputs too: a
// value read from a buffer may reach past a wrong interval only on other data.
std::optional<Failure> check_bounds(const Program& p) {
  if (auto f = bounds_on(p, {}, "")) return f;
  if (std::optional<InterpOptions> scrambled = scrambled_options(p))
    return bounds_on(p, *scrambled, " (with scrambled inputs)");
  return std::nullopt;
}

std::optional<Failure> check_rejected(const std::string& text, const std::string& rule) {
  try {
    parse_program(text, "broken.uir");
  } catch (const UserError& e) {
    if (std::string(e.what()).rfind("broken.uir:", 0) == 0) return std::nullopt;
    return Failure{"rejection", std::string("the error is not located: ") + e.what(), text};
  } catch (const std::exception& e) {
    return Failure{"rejection", std::string("crashed instead of refusing: ") + e.what(), text};
  }
  return Failure{"rejection", "accepted a program that breaks the " + rule + " rule", text};
}

namespace {

// The nodes of scalar expressions, sources first, without walking into leaves (anything but
// literals and elementwise ops: loop counters, variables, loads, whose address is not part of
// their value).
std::vector<const UOp*> expression_order(const std::vector<UOpRef>& roots) {
  std::vector<const UOp*> order;
  std::unordered_set<const UOp*> seen;
  std::vector<std::pair<const UOp*, bool>> pending;
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) pending.emplace_back(it->get(), false);
  while (!pending.empty()) {
    auto [n, expanded] = pending.back();
    pending.pop_back();
    if (seen.count(n)) continue;
    bool leaf = !is_alu(n->op);
    if (expanded || leaf) {
      seen.insert(n);
      order.push_back(n);
      continue;
    }
    pending.emplace_back(n, true);
    for (auto it = n->src.rbegin(); it != n->src.rend(); ++it)
      pending.emplace_back(it->get(), false);
  }
  return order;
}

// Two expressions as one list of steps in topological order, so that evaluating a point
// visits each shared node once and allocates nothing.
class PointEvaluator {
 public:
  PointEvaluator(const UOpRef& e, const UOpRef& s, const std::vector<UOpRef>& vars)
      : PointEvaluator(std::vector<UOpRef>{e, s}, vars) {
    e_ = index_.at(e.get());
    s_ = index_.at(s.get());
  }
  PointEvaluator(const std::vector<UOpRef>& roots, const std::vector<UOpRef>& vars) {
    for (const UOp* n : expression_order(roots)) {
      index_.emplace(n, steps_.size());
      Step step{n, {}, -1};
      if (is_alu(n->op))  // a leaf's sources are not part of its value
        for (const UOpRef& src : n->src) step.srcs.push_back(index_.at(src.get()));
      for (size_t k = 0; k < vars.size(); ++k)
        if (vars[k].get() == n) step.var = static_cast<int>(k);
      steps_.push_back(std::move(step));
    }
    values_.resize(steps_.size());
  }

  // The values of the two expressions with variable k at at[k], as their bits: the two are
  // compared, and they may be bool or f32 as well as i32.
  std::pair<int32_t, int32_t> at(const std::vector<int32_t>& point) {
    exact_ = true;
    for (size_t i = 0; i < steps_.size(); ++i) values_[i] = value_of(steps_[i], point);
    return {static_cast<int32_t>(values_[e_].bits), static_cast<int32_t>(values_[s_].bits)};
  }
  // Where a node's value is, and the value there at the last point.
  size_t step_of(const UOp* n) const { return index_.at(n); }
  const Scalar& value(size_t step) const { return values_[step]; }
  // Whether every value at the last point is the language's: false when an op on the way has
  // no exact scalar semantics (exp2, log2, sin: eval_scalar), whose values then say nothing.
  bool exact() const { return exact_; }

 private:
  struct Step {
    const UOp* node;
    std::vector<size_t> srcs;
    int var;
  };

  Scalar value_of(const Step& step, const std::vector<int32_t>& point) {
    if (step.node->op == Op::Const) return step.node->value;
    // A leaf's value as its bits: an i32, a bool's 0 or 1, an f32's pattern.
    if (step.var >= 0) return Scalar{step.node->dtype, static_cast<uint32_t>(point[step.var])};
    args_.clear();
    for (size_t k : step.srcs) args_.push_back(values_[k]);
    std::optional<Scalar> v = eval_scalar(step.node->op, step.node->dtype, args_);
    if (!v) exact_ = false;
    return v.value_or(Scalar{step.node->dtype, 0});
  }

  std::vector<Step> steps_;
  std::unordered_map<const UOp*, size_t> index_;
  std::vector<Scalar> values_, args_;
  size_t e_ = 0, s_ = 0;
  bool exact_ = true;
};

// Calls visit at every combination of one value from each list (values[k] for variable k),
// until it returns false; whether it did.
template <class Visit>
bool each_point(const std::vector<std::vector<int32_t>>& values, Visit visit) {
  std::vector<size_t> at(values.size(), 0);
  std::vector<int32_t> point(values.size());
  for (;;) {
    for (size_t k = 0; k < values.size(); ++k) point[k] = values[k][at[k]];
    if (!visit(point)) return true;
    size_t k = 0;
    for (; k < at.size(); ++k) {
      if (++at[k] < values[k].size()) break;
      at[k] = 0;
    }
    if (k == at.size()) return false;
  }
}

// The claim at every combination of one value from each list (values[k] for vars[k]): Refuted
// at the first that breaks it, Unsupported at the first an op without exact semantics decides,
// else Proved when the lists are their vars' whole domains (`whole`), else Unknown.
Verdict check_points(const UOpRef& e, const UOpRef& s, const std::vector<UOpRef>& vars,
                     const std::vector<std::vector<int32_t>>& values, bool whole) {
  PointEvaluator evaluator(e, s, vars);
  auto inside = [](int32_t x, const Interval& b) { return x >= b.lo && x <= b.hi; };
  Verdict stopped;
  auto holds = [&](const std::vector<int32_t>& point) {
    auto [want, got] = evaluator.at(point);
    if (!evaluator.exact()) {
      stopped = {Verdict::Kind::Unsupported, ""};
      return false;
    }
    if (want == got && inside(want, e->bounds) && inside(got, s->bounds)) return true;
    std::string where;
    for (size_t k = 0; k < vars.size(); ++k)
      where += expr_str(vars[k]) + "=" + std::to_string(point[k]) + " ";
    stopped = {Verdict::Kind::Refuted,
               where + ": " + std::to_string(want) + " vs " + std::to_string(got)};
    return false;
  };
  if (each_point(values, holds)) return stopped;
  return {whole ? Verdict::Kind::Proved : Verdict::Kind::Unknown, ""};
}

// Every value of [lo, hi].
std::vector<int32_t> every_value(const Interval& b) {
  std::vector<int32_t> out;
  for (int64_t v = b.lo; v <= b.hi; ++v) out.push_back(static_cast<int32_t>(v));
  return out;
}

// The vars that e or s reads. Simplifying may drop one (x * 0), so both sides count; one
// that neither reads cannot change either value, and counting its domain would make a claim
// about a single small var too large to enumerate.
std::vector<UOpRef> vars_read(const UOpRef& e, const UOpRef& s, const std::vector<UOpRef>& vars) {
  std::unordered_set<const UOp*> nodes;
  for (const UOp* n : expression_order({e, s})) nodes.insert(n);
  std::vector<UOpRef> read;
  for (const UOpRef& v : vars)
    if (nodes.count(v.get())) read.push_back(v);
  return read;
}

// The claim decided by evaluating every point of the domain of the vars it reads, when it has
// at most `limit` points (else Unknown).
Verdict enumerate(const UOpRef& e, const UOpRef& s, const std::vector<UOpRef>& all_vars,
                  int64_t limit) {
  std::vector<UOpRef> vars = vars_read(e, s, all_vars);
  int64_t points = 1;
  for (const UOpRef& v : vars) {
    points *= v->bounds.hi - v->bounds.lo + 1;
    if (points > limit) return {Verdict::Kind::Unknown, ""};
  }
  std::vector<std::vector<int32_t>> values;
  for (const UOpRef& v : vars) values.push_back(every_value(v->bounds));
  return check_points(e, s, vars, values, true);
}

}  // namespace

namespace {
thread_local Smt* g_budget_smt = nullptr;
}  // namespace

Smt& thread_smt() {
  thread_local Smt smt(kSymbolicTimeoutMs);
  return g_budget_smt ? *g_budget_smt : smt;
}

SymbolicBudget::SymbolicBudget(unsigned ms) : previous_(g_budget_smt) {
  thread_local std::map<unsigned, std::unique_ptr<Smt>> by_budget;
  std::unique_ptr<Smt>& smt = by_budget[ms];
  if (!smt) smt = std::make_unique<Smt>(ms);
  g_budget_smt = smt.get();
}

SymbolicBudget::~SymbolicBudget() {
  g_budget_smt = previous_;
}

namespace {

std::string bounds_text(const std::vector<UOpRef>& vars) {
  std::string text;
  for (const UOpRef& v : vars) text += "  " + expr_str(v) + " in " + interval_str(v->bounds);
  return text;
}

}  // namespace

std::string expression_text(const RandomExpr& r) {
  return expr_str(r.expr) + bounds_text(r.vars);
}

std::optional<Failure> check_symbolic(Choices& c, SymbolicStats* stats) {
  return check_expression(random_expr(c), stats);
}

namespace {

// Values of an i32 leaf with bounds b that a rewrite's side condition is about, the likeliest
// first: each end, 0 and 1, just inside the ends, small values, powers of two.
std::vector<int32_t> sample_values(const Interval& b) {
  std::vector<int64_t> picks{b.lo, b.hi, 0, 1, -1, b.lo + 1, b.hi - 1, 2, 3, -2, 4, 5, 7, 8};
  for (int64_t v : {16, 31, 32, 64, 255, 256, 1 << 16, 1 << 30}) picks.insert(picks.end(), {v, -v});
  std::vector<int32_t> out;
  for (int64_t v : picks)
    if (v >= b.lo && v <= b.hi && std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(static_cast<int32_t>(v));
  return out;
}

// f32 values where comparisons, casts and folds differ from the obvious, as bit patterns.
std::vector<int32_t> f32_samples() {
  std::vector<int32_t> out;
  for (float v : {0.0f, 1.0f, -0.0f, NAN, -1.0f, 0.5f, INFINITY, -INFINITY, 3e9f, -3e9f, 1e-40f})
    out.push_back(static_cast<int32_t>(std::bit_cast<uint32_t>(v)));
  return out;
}

// The points over_counters evaluates a and b at: loop counters and variables take every
// value, other i32 leaves (loads) the first of sample_values that keep the points within
// max_points; none when the counters alone have more.
struct Grid {
  std::vector<UOpRef> leaves;
  std::vector<std::vector<int32_t>> values;
  bool whole = true;  // every list is its leaf's whole domain
};

std::optional<Grid> counter_grid(const std::vector<UOpRef>& roots, int64_t max_points) {
  Grid grid;
  int64_t points = 1;
  std::vector<size_t> sampled;
  for (const UOp* leaf : expression_order(roots)) {
    if (is_alu(leaf->op) || leaf->op == Op::Const) continue;
    grid.leaves.push_back(shared_from(leaf));
    if (leaf->dtype != DType::I32) {  // a bool takes both values, an f32 the ones that bite
      bool f32 = leaf->dtype == DType::F32;
      grid.values.push_back(f32 ? f32_samples() : std::vector<int32_t>{0, 1});
      if (f32)
        sampled.push_back(grid.values.size() - 1);
      else
        points *= 2;
      continue;
    }
    bool counter = leaf->op == Op::Range || leaf->op == Op::Var;
    int64_t size = leaf->bounds.hi - leaf->bounds.lo + 1;
    if (counter && size <= max_points) {
      grid.values.push_back(every_value(leaf->bounds));
      points *= size;
    } else {
      grid.values.push_back(sample_values(leaf->bounds));
      sampled.push_back(grid.values.size() - 1);
    }
    if (points > max_points) return std::nullopt;
  }
  if (sampled.empty()) return grid;
  // k values for each sampled leaf, k^n within what the counters leave.
  int64_t k = static_cast<int64_t>(std::pow(static_cast<double>(max_points / points),
                                            1.0 / static_cast<double>(sampled.size())));
  if (k < 2) return std::nullopt;
  for (size_t at : sampled) {
    std::vector<int32_t>& v = grid.values[at];
    const Interval& b = grid.leaves[at]->bounds;
    grid.whole = grid.whole && static_cast<int64_t>(v.size()) <= k &&
                 static_cast<int64_t>(v.size()) == b.hi - b.lo + 1;
    if (static_cast<int64_t>(v.size()) > k) v.resize(static_cast<size_t>(k));
  }
  return grid;
}

// The claim simplification_verdict decides, for a and b over counter_grid's points. Proved
// only when every leaf took its whole domain; a refutation is always real, since a leaf may
// hold any value inside its bounds.
Verdict over_counters(const UOpRef& a, const UOpRef& b, int64_t max_points) {
  std::optional<Grid> grid = counter_grid({a, b}, max_points);
  if (!grid) return {};
  return check_points(a, b, grid->leaves, grid->values, grid->whole);
}

// Whether `s`, the simplified `e`, equals it and keeps to its bounds for every value of `vars`.
// A small domain is cheaper to evaluate point by point than to hand to z3; both decide the
// claim for every value. When z3 gives up within its time limit (which a loaded machine
// reaches sooner), the ends of each variable's interval and the values near them are tried
// before the domain is enumerated: a wrapping sum is usually wrong there, and a refutation
// found that way is as real as z3's.
Verdict simplification_verdict(const UOpRef& e, const UOpRef& s, const std::vector<UOpRef>& vars) {
  Verdict verdict = enumerate(e, s, vars, kSymbolicEnumerationFirst);
  if (!verdict.decided()) verdict = thread_smt().equal_and_bounded(e, s);
  if (verdict.kind == Verdict::Kind::Unknown)
    verdict = over_counters(e, s, kSymbolicEnumerationFirst * 8);
  if (verdict.kind == Verdict::Kind::Unknown)
    verdict = enumerate(e, s, vars, kSymbolicEnumerationLimit);
  return verdict;
}

// A kernel's steps have no variables list: small domains of loop counters are enumerated
// (z3 gives up on some divisions over a few dozen points), the rest go to z3.
Verdict kernel_step_verdict(const UOpRef& a, const UOpRef& b) {
  Verdict v = over_counters(a, b, kSymbolicEnumerationFirst * 8);
  return v.decided() ? v : thread_smt().equal_and_bounded(a, b);
}

}  // namespace

std::string interval_outside(const std::vector<UOpRef>& roots,
                             const std::function<bool(const UOpRef&)>& leaves_interval) {
  for (const UOp* n : expression_order(roots))
    if (is_alu(n->op) && n->dtype != DType::F32 && leaves_interval(shared_from(n)))
      return std::string(kIntervalOf) + std::string(op_name(n->op));
  return "";
}

// An f32 where rewritten to one of its two different branches, as the same choice between 0
// and 1: z3 does not model f32, but the choice is all the rule decided. Null for other steps.
std::optional<RewriteStep> as_choice(const RewriteStep& step) {
  const UOp& w = *step.before;
  if (w.op != Op::Where || w.dtype != DType::F32 || w.src[1] == w.src[2]) return std::nullopt;
  if (step.after != w.src[1] && step.after != w.src[2]) return std::nullopt;
  UOpRef choice =
      alu(Op::Where, {w.src[0], literal(Scalar::of_i32(0)), literal(Scalar::of_i32(1))});
  return RewriteStep{step.rule, choice, literal(Scalar::of_i32(step.after == w.src[1] ? 0 : 1))};
}

std::string rewrite_cause(const RewriteStep& step, const std::vector<UOpRef>& vars) {
  auto refuted = [&](const UOpRef& a, const UOpRef& b) {
    Verdict v = vars.empty() ? kernel_step_verdict(a, b) : simplification_verdict(a, b, vars);
    return v.refuted();
  };
  if (std::optional<RewriteStep> choice = as_choice(step)) return rewrite_cause(*choice, vars);
  if (step.before->dtype == DType::F32 || !refuted(step.before, step.after)) return "";
  // A rule whose side condition read a wrong interval was misled, not wrong.
  std::string outside = interval_outside({step.before, step.after},
                                         [&](const UOpRef& node) { return refuted(node, node); });
  if (!outside.empty()) return outside;
  // Folding literals is evaluating the op by its scalar semantics (ir/semantics.h), which the
  // interpreter shares: a refuted fold is the op's semantics, as the engines oracle, which
  // compares the interpreter with C, names it.
  if (step.rule == "fold_constants")
    return std::string(kSemanticsOf) + std::string(op_name(step.before->op));
  return step.rule;
}

Verdict interval_holds(const UOpRef& n, int64_t max_points) {
  return over_counters(n, n, max_points);
}

// Nodes over the same leaves have the same grid (counter_grid's lists depend only on which
// leaves there are), so each group's points are visited once, evaluating the group together.
std::unordered_set<const UOp*> intervals_left(const UOpRef& root, int64_t max_points,
                                              std::unordered_set<const UOp*>* checked) {
  std::unordered_map<const UOp*, std::vector<const UOp*>> leaves_of;
  std::map<std::vector<const UOp*>, std::vector<UOpRef>> groups;
  for (const UOp* n : expression_order({root})) {
    std::vector<const UOp*>& leaves = leaves_of[n];
    if (!is_alu(n->op)) {
      if (n->op != Op::Const) leaves.push_back(n);
      continue;
    }
    for (const UOpRef& src : n->src) {
      const std::vector<const UOp*>& more = leaves_of.at(src.get());
      std::vector<const UOp*> both;
      std::set_union(leaves.begin(), leaves.end(), more.begin(), more.end(),
                     std::back_inserter(both));
      leaves = std::move(both);
    }
    if (n->dtype == DType::I32 && checked->insert(n).second)
      groups[leaves].push_back(shared_from(n));
  }
  std::unordered_set<const UOp*> left;
  for (const auto& group : groups) {
    const std::vector<UOpRef>& nodes = group.second;  // a lambda cannot capture a binding
    std::optional<Grid> grid = counter_grid(nodes, max_points);
    if (!grid) continue;
    PointEvaluator evaluator(nodes, grid->leaves);
    std::vector<size_t> steps;  // looked up once, not at every point
    for (const UOpRef& n : nodes) steps.push_back(evaluator.step_of(n.get()));
    each_point(grid->values, [&](const std::vector<int32_t>& point) {
      evaluator.at(point);
      if (!evaluator.exact()) return false;  // nothing to say about this group
      for (size_t k = 0; k < nodes.size(); ++k) {
        const UOp* n = nodes[k].get();
        if (int32_t v = evaluator.value(steps[k]).as_i32(); v < n->bounds.lo || v > n->bounds.hi)
          left.insert(n);
      }
      return true;
    });
  }
  return left;
}

namespace {

// The cause of the first unsound step of the simplification (rewrite_cause) and ": ", or ""
// when every step is sound on its own.
std::string cause_of_failure(const UOpRef& e, const UOpRef& s, const std::vector<UOpRef>& vars) {
  // A node of e, or of the s the rules made of it, outside its own interval, whatever the
  // rules did with it.
  std::string outside = interval_outside({e, s}, [&](const UOpRef& node) {
    return simplification_verdict(node, node, vars).refuted();
  });
  if (!outside.empty()) return outside + ": ";
  for (const RewriteStep& step : steps_of([&] { simplify(e); }))
    if (std::string cause = rewrite_cause(step, vars); !cause.empty()) return cause + ": ";
  return "";
}

}  // namespace

std::optional<Failure> check_expression(const RandomExpr& r, SymbolicStats* stats) {
  const auto& [vars, e] = r;
  UOpRef s = simplify(e);
  Verdict verdict = simplification_verdict(e, s, vars);
  if (stats) stats->count(verdict);
  // The failure's program is a comment line (fuzz/expr_text.h) that `uopc fuzz --check` reads.
  if (verdict.refuted())
    return Failure{"symbolic",
                   cause_of_failure(e, s, vars) +
                       "the simplified expression differs, or a value leaves its bounds, at " +
                       verdict.counterexample,
                   expression_line(r, expr_str(s))};
  return std::nullopt;
}

namespace {

// An external engine's failure on `text`, with its last lines on stderr.
Failure target_failure(const char* oracle, std::string detail, const std::string& text,
                       const TargetAnswer& answer) {
  Failure f{oracle, std::move(detail), text};
  f.log = answer.err_tail;
  while (!f.log.empty() && f.log.back() == '\n') f.log.pop_back();
  return f;
}

bool unsupported(const TargetAnswer& answer, bool* skipped) {
  bool is = answer.kind == TargetAnswer::Kind::Exited && answer.code == kUnsupported;
  if (is && skipped) *skipped = true;
  return is;
}

}  // namespace

Environment target_environment(const EngineConfig& config) {
  return engine_environment(format_opts_choice(config.opts), config.threads);
}

namespace {

// Why the engine's answer is not the interpreter's `want` ("" when it is).
std::string target_difference(const Judge& judge, const InterpResult& want,
                              const TargetAnswer& answer, double time_limit) {
  int expected_code = want.failures.empty() ? 0 : 1;
  // An assert on values the language lets engines compute differently may go either way.
  bool either_verdict = (answer.code == 0 || answer.code == 1) && judge.verdict_may_differ();
  if (answer.kind != TargetAnswer::Kind::Exited ||
      (answer.code != expected_code && !either_verdict))
    return describe(answer, time_limit) + ", expected " + std::to_string(expected_code);
  return judge.compare(want, answer.out);
}

// Whether `config` asks for a reduce folded as a tree, which the interpreter mirrors only when
// told which reduces the kernels unroll (matching).
bool folds_as_tree(const EngineConfig& config) {
  const Opts& o = config.opts.fixed;
  return config.opts.mode == OptsChoice::Mode::Fixed && o.unroll > 1 && !o.unroll_in_order;
}

}  // namespace

std::optional<Failure> check_target(const Program& p, Target& target, bool* skipped,
                                    const EngineConfig& config) {
  std::string text = print_program(p);
  TargetAnswer answer = target.run(text, target_environment(config));
  if (unsupported(answer, skipped)) return std::nullopt;
  Judge judge(p, target.comparison());
  std::string difference = target_difference(judge, interpret(p, {}), answer, target.time_limit());
  // An engine that folds as asked (a tree) is as right as one that ignores the request and
  // folds in order. Only values can be; an engine that died is not compiled here as well, where
  // the same bug (uopc's own, through `uopc run`) would kill this process too.
  bool answered = answer.kind == TargetAnswer::Kind::Exited;
  if (!difference.empty() && answered && folds_as_tree(config)) {
    InterpResult tree = interpret(p, matching(compile_program(p, {}, config.opts)));
    if (target_difference(judge, tree, answer, target.time_limit()).empty()) difference.clear();
  }
  if (difference.empty()) return std::nullopt;
  Failure f = target_failure("target", std::move(difference), text, answer);
  f.config = config;
  return f;
}

namespace {
constexpr const char* kOnAProgramThat = " on a program that ";
constexpr const char* kExpectedRefusal = ", expected 2";
}  // namespace

std::optional<Failure> check_target_rejects(const std::string& text, const std::string& why,
                                            Target& target, bool* skipped) {
  TargetAnswer answer = target.run(text);
  if (unsupported(answer, skipped)) return std::nullopt;
  if (answer.kind == TargetAnswer::Kind::Exited && answer.code == kRefused) return std::nullopt;
  return target_failure(
      "target-rejection",
      describe(answer, target.time_limit()) + kOnAProgramThat + why + kExpectedRefusal, text,
      answer);
}

std::string rejection_reason(const Failure& f) {
  size_t from = f.detail.find(kOnAProgramThat), to = f.detail.rfind(kExpectedRefusal);
  if (from == std::string::npos || to == std::string::npos) return "";
  from += std::string(kOnAProgramThat).size();
  return to > from ? f.detail.substr(from, to - from) : "";
}

std::optional<Failure> check_program(const Program& p, Backend& backend, bool compiled_composites,
                                     const EngineConfig& config, const std::string* printed) {
  if (auto f = check_engines(p, backend, config)) return f;
  return check_independent_of_settings(p, backend, compiled_composites, printed);
}

std::optional<Failure> check_independent_of_settings(const Program& p, Backend& backend,
                                                     bool compiled_composites,
                                                     const std::string* printed) {
  if (auto f = printed ? check_roundtrip(p, *printed) : check_roundtrip(p)) return f;
  if (auto f = check_bounds(p)) return f;
  return check_composites(p, backend, compiled_composites);
}

}  // namespace uopc

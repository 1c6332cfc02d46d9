#include "fuzz/signature.h"

#include <cxxabi.h>
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "compiler/compile_memo.h"
#include "compiler/engine.h"
#include "compiler/symbolic.h"
#include "fuzz/choices.h"
#include "fuzz/expr_gen.h"
#include "fuzz/gen.h"
#include "fuzz/probes.h"
#include "fuzz/reduce.h"
#include "interp/interp.h"
#include "ir/build.h"
#include "ir/error.h"
#include "ir/eval_scalar.h"
#include "ir/parse.h"
#include "ir/plant.h"
#include "ir/print.h"

namespace uopc {

std::optional<std::string> throw_site(const Failure& f) {
  static const std::string kThrew = "threw: ";
  if (f.detail.rfind(kThrew, 0) != 0) return std::nullopt;
  size_t start = kThrew.size(), end = start;
  while (end < f.detail.size() &&
         (std::isalnum(static_cast<unsigned char>(f.detail[end])) || f.detail[end] == '_'))
    ++end;
  if (end == start) return "exception";
  return f.detail.substr(start, end - start);
}

// A value the interpreter computed of another type than its node's ("threw: interp_permute:
// computed ...") is the interpreter's own bug in that op, whichever oracle's run met it:
// "interp-permute" for the engines and the composites oracle alike.
std::optional<std::string> interpreter_invariant(const Failure& f) {
  std::optional<std::string> where = throw_site(f);
  static const std::string kPrefix = "interp_";
  if (!where || where->rfind(kPrefix, 0) != 0) return std::nullopt;
  return "interp-" + where->substr(kPrefix.size());
}

// The oracle and the ops of the output a failure names, or of every output.
std::string by_outputs(const Failure& f, const Program& p) {
  if (std::optional<std::string> own = interpreter_invariant(f)) return *own;
  if (std::optional<std::string> where = throw_site(f)) return f.oracle + "-threw-" + *where;
  std::set<std::string> ops;
  if (!f.detail.empty() && f.detail[0] == '%') {
    std::string name = f.detail.substr(0, f.detail.find(':'));
    for (const Statement& s : p.statements)
      if (s.name == name) ops.insert(std::string(op_name(s.node->op)));
  }
  if (ops.empty())
    for (const Statement* s : p.outputs()) ops.insert(std::string(op_name(s->node->op)));
  std::string out = f.oracle;
  for (const std::string& op : ops) out += "-" + op;
  return out;
}

namespace {

// A rewrite's cause (rewrite_cause) as a signature: "symbolic-div_div"; "bounds-max" as the
// bounds oracle names a wrong interval; "engines-mod" for an op's scalar semantics, as the
// engines oracle names the interpreter's wrong mod; "symbolic" for anything else.
std::string cause_signature(const std::string& cause) {
  if (cause.rfind(kIntervalOf, 0) == 0) return "bounds-" + cause.substr(strlen(kIntervalOf));
  if (cause.rfind(kSemanticsOf, 0) == 0) return "engines-" + cause.substr(strlen(kSemanticsOf));
  std::vector<std::string> names = symbolic_rule_names();
  bool known = std::find(names.begin(), names.end(), cause) != names.end();
  return known ? "symbolic-" + cause : "symbolic";
}

// A bounds oracle's failure as a signature: "bounds-" and the op its detail begins with.
std::string bounds_signature(const Failure& f) {
  return "bounds-" + f.detail.substr(0, f.detail.find(' '));
}

using Test = std::function<bool(const Program&)>;

Program single_output(const Program& p, const UOpRef& node) {
  Program alone;
  alone.file = p.file;
  alone.statements.push_back({"%out", node, 1, false});
  return alone;
}

struct Isolated {
  UOpRef node;
};

// n reading fresh inputs (new buffers, or literals that tell more elements apart) instead of its
// data sources, so that its own rule alone decides its value; offsets and indices stay, as they
// must stay provable. How the fresh inputs of an isolated node are shaped. Widened: every size-1
// axis 2 long, since an index mistake on a size-1 axis reads the same element (its index is always
// 0). Extended: one more trailing axis, 2 long, since a mistake that swaps axes is no mistake when
// there is one. Both only for ops whose attributes do not depend on their operands' sizes
// (extended: nor on their rank).
enum class Inputs { Same, Widened, Extended };

// Fresh input data that tells more elements apart than the default data does, as a literal
// stack reshaped to `shape`, in kVariedPatterns variants. i32 and f32 (variant 0 only): values
// that all differ, odd so that a product of many does not wrap to 0; the f32 ones near 1 with
// every bit of the fraction used, so that a sum or product of them rounds, and rounds
// differently when folded in another order. bool, which cannot differ
// everywhere: a rare true, a rare false (so that a max or min over the wrong elements differs),
// and trues on every second and every third element (so that axes differ).
constexpr int kVariedPatterns = 4;

// A value of `shape` (no empty axis) as nested stacks of literals, element i (row-major) being
// element(i): no reshape, whose rule may be the one that fails, and whose index arithmetic
// would bring a stray index back in range.
UOpRef nested_stack(const Shape& shape, const std::function<Scalar(int64_t)>& element) {
  std::function<UOpRef(size_t, int64_t)> part = [&](size_t axis, int64_t flat) -> UOpRef {
    if (axis == shape.size()) return literal(element(flat));
    std::vector<UOpRef> parts;
    for (int64_t i = 0; i < shape[axis]; ++i)
      parts.push_back(part(axis + 1, flat * shape[axis] + i));
    return stack(parts);
  };
  return part(0, 0);
}

std::optional<UOpRef> varied_values(DType dtype, const Shape& shape, int variant) {
  int64_t count = element_count(shape);
  if (count == 0 || count > 5000 || (variant > 0 && dtype != DType::Bool)) return std::nullopt;
  return nested_stack(shape, [&](int64_t i) {
    int64_t h = (i * 7919 + 13) % 10007;  // 10007 is prime, so h differs for every i
    int32_t odd = static_cast<int32_t>(2 * (h - 5003) + 1);
    bool pattern[kVariedPatterns] = {h % 13 == 0, h % 13 != 0, i % 2 == 1, i % 3 == 0};
    return dtype == DType::Bool  ? Scalar::of_bool(pattern[variant])
           : dtype == DType::F32 ? Scalar::of_f32(1.0f + static_cast<float>(odd) / 98304)
                                 : Scalar::of_i32(odd);
  });
}

// A new input buffer of `shape`: the buffer itself for one axis, as a reshape would put an index
// that strays (a pad's unclamped load) back in range: onto element 0 of a size-1 axis.
UOpRef fresh_input(DType dtype, const Shape& shape, int64_t slot) {
  UOpRef b = buffer(element_count(shape), dtype, slot);
  return shape.size() == 1 ? b : reshape(b, shape);
}

// An empty value of `shape` that computes nothing, for an empty source: kept, the source would
// bring its subgraph along, whose kernels run though nothing reads their values, and a failure
// there would be blamed on its reader.
UOpRef empty_value(DType dtype, const Shape& shape) {
  return expand(literal(Scalar::zero(dtype)), shape);
}

// `varied` >= 0: the fresh inputs hold varied_values of that variant, since the default data
// hides some mistakes (it repeats every 23 elements within [-11, 11], so a max over the wrong
// elements finds the same 11, and a product of many wraps to the same 0).
// `staged`: the varied values staged, as an engine holds computed values (literals alone it may
// fold or select between, and a failure that needs that is the literals' fusion with n).
std::optional<Isolated> isolated(const UOp& n, Inputs mode = Inputs::Same, int varied = -1,
                                 bool staged = true) {
  bool agnostic = is_alu(n.op) || n.op == Op::Cast || n.op == Op::Flip || n.op == Op::Reduce ||
                  n.op == Op::Stack || (n.op == Op::Permute && mode == Inputs::Widened);
  if (mode != Inputs::Same && !agnostic) return std::nullopt;
  std::vector<UOpRef> src;
  // Fresh slots past the buffers n keeps: a fresh input in a kept buffer's slot would be a
  // program whose two buffers of one slot disagree, failing for no fault of n.
  int64_t slot = 0;
  for (const UOpRef& s : n.src)
    if (s->op == Op::Buffer) slot = std::max(slot, s->slot() + 1);
  bool changed = false;
  for (size_t k = 0; k < n.src.size(); ++k) {
    const UOpRef& s = n.src[k];
    bool data = k == 0 || (n.op != Op::Shrink && n.op != Op::Index);
    bool keep = s->op == Op::Const || (s->op == Op::Buffer && mode == Inputs::Same && varied < 0);
    if (!data || keep) {
      if (mode != Inputs::Same && s->rank() > 0) return std::nullopt;  // it would not fit
      // A computed offset or index (an element read from a buffer) takes one value of its
      // bounds on the default data; with varied data it is each end of them in turn.
      if (!data && varied >= 0 && s->op != Op::Const && s->rank() == 0) {
        src.push_back(literal(
            Scalar::of_i32(static_cast<int32_t>(varied % 2 == 0 ? s->bounds.hi : s->bounds.lo))));
        changed = true;
        continue;
      }
      src.push_back(s);
      continue;
    }
    Shape shape = s->shape;
    if (mode == Inputs::Widened)
      for (int64_t& d : shape) changed |= d == 1, d = d == 1 ? 2 : d;
    if (mode == Inputs::Extended && shape.size() < 8) shape.push_back(2), changed = true;
    if (element_count(shape) == 0) {
      src.push_back(empty_value(s->dtype, shape));
      continue;
    }
    std::optional<UOpRef> values =
        varied >= 0 ? varied_values(s->dtype, shape, varied) : std::nullopt;
    changed |= values.has_value();
    if (values && staged) values = stage(*values);
    src.push_back(values ? *values : fresh_input(s->dtype, shape, slot++));
  }
  if ((mode != Inputs::Same || varied >= 0) && !changed) return std::nullopt;
  try {
    UOpRef node = with_sources(n, src);
    if (mode == Inputs::Same) return Isolated{node};
    // with_sources keeps n's shape; printed and parsed again, the node gets its own.
    Program typed = parse_program(print_program(single_output(Program{}, node)), "probe.uir");
    return Isolated{typed.statements.back().node};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Where a failure first shows: an op, and whether that op also fails computed alone without
// kernel options (`plain`), when asked. (An op, not a node: the program may be a temporary that
// takes its nodes with it.)
struct Located {
  Op op;
  bool fails_plain = false;
  std::string kinds = {};    // the options the node computed alone needs, when asked
  bool fused = false;        // no node failed alone: op is the one the failure needs
  std::vector<Op> ops = {};  // when fused: the ops of the failing value, sources first
};

// The distinct ops of the values at roots, sources first.
std::vector<Op> ops_under(const std::vector<UOpRef>& roots) {
  std::vector<Op> ops;
  for (const UOp* n : topo_order(roots))
    if (std::find(ops.begin(), ops.end(), n->op) == ops.end()) ops.push_back(n->op);
  return ops;
}

using KindsOf = std::function<std::string(const Program& alone)>;

// n's value as literals in nested stacks (no reshape, whose rule may be the one that fails); null
// for a value with an empty axis or more than 4096 elements.
UOpRef nested_literals(const UOp& n, const InterpOptions& data = {}) {
  if (n.numel() == 0 || n.numel() > 4096) return nullptr;
  Tensor t = interpret(single_output(Program{}, shared_from(&n)), data).outputs.at(0).second;
  return nested_stack(n.shape, [&](int64_t i) { return t.at(i); });
}

// The lowest input slot no buffer of p takes. A fresh input there that replaces the only reader
// of a buffer (its reshape) gets that buffer's data, default or scrambled, as both are chosen by
// slot and size: a failure that needs that data does not then make the reader look needed.
int64_t free_slot(const Program& p) {
  std::set<int64_t> taken;
  for (const UOp* n : topo_order(p.roots()))
    if (n->op == Op::Buffer) taken.insert(n->slot());
  int64_t slot = 0;
  while (taken.count(slot)) ++slot;
  return slot;
}

// n, then n with each of its axes but the first moved to the front.
std::vector<UOpRef> with_each_axis_first(const UOpRef& n) {
  std::vector<UOpRef> out{n};
  for (int64_t k = 1; k < static_cast<int64_t>(n->shape.size()); ++k) {
    std::vector<int64_t> order{k};
    for (int64_t j = 0; j < static_cast<int64_t>(n->shape.size()); ++j)
      if (j != k) order.push_back(j);
    out.push_back(permute(n, order));
  }
  return out;
}

// In a failing subgraph that no node fails alone, the node furthest back without which the
// failure goes away: given as literals instead of computed, and given as a fresh input buffer
// (literals read by a stray index give some literal, where a buffer fails its bounds check), the
// failure is gone both ways, and with the literals of either input data. What comes before it
// computes what it should, and the failure needs its computed value (a reduce whose copies share an
// accumulator, read at two indices by a cmpeq). The root, when given, when no other is; else null.
const UOp* needed_node(const Program& whole, const Test& fails, const UOp* root = nullptr) {
  std::vector<const UOp*> nodes = topo_order(whole.roots());
  auto probed = [&](const UOp* m) {
    return m != root && m->op != Op::Const && m->op != Op::Buffer && m->op != Op::Assert;
  };
  // Each node's value as literals (null where there is none), interpreted when first asked for:
  // the first pass usually stops early.
  std::unordered_map<const UOp*, UOpRef> literals;
  auto literals_of = [&](const UOp* m) -> const UOpRef& {
    auto [it, added] = literals.try_emplace(m);
    if (added && probed(m))
      if (UOpRef l = nested_literals(*m); l && l.get() != m) it->second = l;
    return it->second;
  };
  // The literals of the scrambled data too: a failure that shows only on that data (a max over
  // columns that the default data makes all equal) would be gone with the default data's
  // literals whichever node they replace.
  std::optional<InterpOptions> scrambled = scrambled_options(whole);
  std::unordered_map<const UOp*, UOpRef> scrambled_literals;
  auto scrambled_literals_of = [&](const UOp* m) -> const UOpRef& {
    auto [it, added] = scrambled_literals.try_emplace(m);
    if (added && scrambled && probed(m))
      if (UOpRef l = nested_literals(*m, *scrambled); l && l.get() != m) it->second = l;
    return it->second;
  };
  auto gone_without = [&](const UOp* m, std::unordered_map<const UOp*, UOpRef> given) {
    given[m] = literals_of(m);
    Program without = replace_nodes(whole, given);
    if (fails(without)) return false;
    if (const UOpRef& l = scrambled_literals_of(m)) {
      given[m] = l;
      if (fails(replace_nodes(whole, given))) return false;
    }
    if (m->numel() == 0) return true;
    given[m] = fresh_input(m->dtype, m->shape, free_slot(without));
    return !fails(replace_nodes(whole, given));
  };
  const UOp* join = root;
  for (const UOp* m : nodes)
    if (literals_of(m) && gone_without(m, {})) {
      join = m;
      break;
    }
  // Several nodes that each suffice (a stack of two operands that each go wrong, two reduces
  // each recomputed in a loop that a third reads them in): the first before the node found
  // above that still fails with every node unrelated to it given as literals, and not without
  // it. The node found above is only where their paths join.
  for (const UOp* m : nodes) {
    if (m == join) break;
    if (!literals_of(m)) continue;
    std::unordered_set<const UOp*> after{m}, related;  // m, what it reads, what reads it
    for (const UOp* n : nodes)
      for (const UOpRef& s : n->src)
        if (after.count(s.get())) after.insert(n);
    for (const UOp* a : topo_order({shared_from(m)})) related.insert(a);
    related.insert(after.begin(), after.end());
    std::unordered_map<const UOp*, UOpRef> others;
    for (const UOp* n : nodes)
      if (!related.count(n) && literals_of(n)) others[n] = literals_of(n);
    if (!others.empty() && fails(replace_nodes(whole, others)) && gone_without(m, others)) return m;
  }
  return join;
}

// n reading its data sources' own values, as staged literals (an empty one as empty_value): the
// data the failure met (a NaN, a -0 that the fresh and varied inputs never hold), with n the only
// op computed, on values an engine holds in memory as it holds computed ones (literals alone it
// may fold or select between), from the program's inputs as `inputs` gives them. n itself when its
// sources already are such values (a min of a staged -0 and a literal); null when one is too
// Staged f32 values through an add of -0, which changes no bit of them: the engine then computes
// them, as it does a fused operand, where it loads staged ones (C may write an op differently on
// the two: a max inline on loads, through a helper on an expression, which must not be evaluated
// twice).
UOpRef as_computed(const UOpRef& values) {
  if (values->dtype != DType::F32) return values;
  return alu(Op::Add, {values, expand(literal(Scalar::of_f32(-0.0f)), values->shape)});
}

// large to write out. With `computed`, each f32 value comes through as_computed.
UOpRef with_own_values(const UOp& n, const InterpOptions& inputs, bool computed = false) {
  std::vector<UOpRef> src;
  for (size_t k = 0; k < n.src.size(); ++k) {
    const UOpRef& s = n.src[k];
    bool data = k == 0 || (n.op != Op::Shrink && n.op != Op::Index);
    if (!data || s->op == Op::Const) {
      src.push_back(s);
    } else if (s->numel() == 0) {
      src.push_back(empty_value(s->dtype, s->shape));
    } else {
      UOpRef values = nested_literals(*s, inputs);
      if (!values) return nullptr;
      values = stage(values);
      src.push_back(computed ? as_computed(values) : values);
    }
  }
  return with_sources(n, src);
}

// Every step of a reduce's fold at once, as one elementwise op: op(acc, x) for the accumulator
// and the element each step of the left fold meets, on the reduce's operand's own values, and
// (for i32) its interval's ends, as `values` gives them: staged, staged then computed
// (as_computed), or literal stacks. A reduce's accumulator and element are expressions to the
// renderer, where staged values are named loads (C may write an op differently for the two); a
// literal stack is an expression too, unless the simplifier leaves only a name of it, as it may
// for a long one. Null for a reduce of nothing or of more than 4096 elements.
enum class FoldValues { Staged, Computed, Literal };
UOpRef fold_steps(const UOp& n, FoldValues values = FoldValues::Staged) {
  const UOp& x = *n.src[0];
  if (x.numel() == 0 || x.numel() > 4096) return nullptr;
  Tensor t = interpret(single_output(Program{}, shared_from(&x)), {}).outputs.at(0).second;
  int64_t inner = std::max<int64_t>(n.numel(), 1), steps = x.numel();
  std::vector<Scalar> acc(static_cast<size_t>(inner), reduce_identity(n.reduce_op(), n.dtype));
  std::vector<Scalar> before, element;
  for (int64_t k = 0; k < steps; ++k) {
    Scalar& a = acc[static_cast<size_t>(k % inner)];
    before.push_back(a);
    element.push_back(t.at(k));
    a = *eval_scalar(n.reduce_op(), n.dtype, {a, t.at(k)});
  }
  // The rule starts from the operand's interval, which may be wider than its values (x - x is
  // 0 in [-1, 1]): both operands of the written-out op also take its ends, so their intervals
  // are at least that wide.
  if (n.dtype == DType::I32)
    for (std::vector<Scalar>* v : {&before, &element})
      for (int64_t end : {x.bounds.lo, x.bounds.hi})
        v->push_back(Scalar::of_i32(static_cast<int32_t>(end)));
  auto operand = [&](const std::vector<Scalar>& v) {
    UOpRef stack = nested_stack({static_cast<int64_t>(v.size())},
                                [&](int64_t i) { return v[static_cast<size_t>(i)]; });
    if (values == FoldValues::Literal) return stack;
    return values == FoldValues::Computed ? as_computed(stage(stack)) : stage(stack);
  };
  return alu(n.reduce_op(), {operand(before), operand(element)});
}

// The first elementwise op whose value in the interpreter, at some element, is not what the op's
// scalar semantics (eval_scalar, the constant folder's) give on the interpreter's own operand
// values there: an interpreter that computes the op wrong.
std::optional<Op> misinterpreted_op(const Program& p, const InterpOptions& data) {
  std::unordered_map<const UOp*, Tensor> values;
  try {
    values = node_values(p.roots(), data);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  for (const UOp* n : topo_order(p.roots())) {
    if (!is_alu(n->op) || !values.count(n)) continue;
    const Tensor& t = values.at(n);
    for (int64_t i = 0; i < t.size(); ++i) {
      std::vector<Scalar> operands;
      for (const UOpRef& s : n->src) operands.push_back(values.at(s.get()).at(i));
      std::optional<Scalar> want = eval_scalar(n->op, n->dtype, operands);
      Scalar got = t.at(i);
      bool both_nan = got.dtype == DType::F32 && std::isnan(got.as_f32()) &&
                      std::isnan(want ? want->as_f32() : 0.0f);
      if (want && want->bits != got.bits && !both_nan) return n->op;
    }
  }
  return std::nullopt;
}

// misinterpreted_op on the default data, then on scrambled data (the data that shows more
// failures).
std::optional<Op> misfolded_op(const Program& p) {
  if (std::optional<Op> op = misinterpreted_op(p, {})) return op;
  std::optional<InterpOptions> scrambled = scrambled_options(p);
  return scrambled ? misinterpreted_op(p, *scrambled) : std::nullopt;
}

// The bounds oracle's failure `f` of p as a signature (bounds_signature). A value outside its
// interval that the interpreter computed wrong is the interpreter's failure (the engines
// oracle's), not the interval's: "engines-cast". A reduce's interval folds its op's interval
// rule over the steps (reduce_bounds): when the steps written out as that op (fold_steps)
// leave the op's interval too, the op's rule is wrong, not the reduce's.
std::string bounds_cause(const Failure& f, const Program& p) {
  bool scrambled = f.detail.find("(with scrambled inputs)") != std::string::npos;
  std::optional<InterpOptions> data = scrambled ? scrambled_options(p) : InterpOptions{};
  if (std::optional<Op> op = data ? misinterpreted_op(p, *data) : std::nullopt)
    return "engines-" + std::string(op_name(*op));
  std::string signature = bounds_signature(f);
  if (signature != "bounds-reduce") return signature;
  for (const UOp* n : topo_order(p.roots())) {
    if (n->op != Op::Reduce || n->dtype != DType::I32) continue;
    std::string by_op = "bounds-" + std::string(op_name(n->reduce_op()));
    UOpRef steps = fold_steps(*n);
    std::optional<Failure> g = steps ? check_bounds(single_output(p, steps)) : std::nullopt;
    if (g && bounds_signature(*g) == by_op) return by_op;
  }
  return signature;
}

// The data a node is tried alone on: fresh input buffers, varied values staged, varied values as
// bare literals (which an engine may fold into the node's own arithmetic).
enum class Data { Fresh, Staged, Literal };

// The first node, sources before users, that fails on fresh inputs by itself (shaped as given,
// widened or extended), then on varied values staged; with `own_values`, then the first that
// fails by itself on its sources' own values; then on varied values as bare literals; failing
// that, the needed_node of the first whose value (with its whole subgraph) fails, or of the
// whole program.
// The nodes a failure of p is looked for at, sources before users: those under the outputs
// that fail alone, when p has several and some do. Each node is tried in many ways, each a run
// of the engine, so the outputs that do not fail (the seven right expressions of eight) are
// left out for one run each.
std::vector<const UOp*> suspects(const Program& p, const Test& fails) {
  std::vector<UOpRef> roots = p.roots(), failing;
  if (roots.size() > 1)
    for (const UOpRef& root : roots)
      if (fails(single_output(p, root))) failing.push_back(root);
  std::vector<const UOp*> order;
  for (const UOp* n : topo_order(failing.empty() ? roots : failing))
    if (n->op != Op::Const && n->op != Op::Buffer && n->op != Op::Assert) order.push_back(n);
  return order;
}

std::optional<Located> localize(const Program& p, const Test& fails, const Test* plain = nullptr,
                                const KindsOf* kinds_of = nullptr, bool own_values = false) {
  std::vector<const UOp*> order = suspects(p, fails);
  // The default data first; varied data only when that finds nothing, as each probe costs a
  // run (a process, for an external engine).
  // `twice`: the node read at two indices (read_twice), not once.
  auto alone_fails = [&](const UOp& n, const Test& test, Data inputs,
                         bool twice = false) -> std::optional<Isolated> {
    bool varied = inputs != Data::Fresh;
    for (int data = varied ? 0 : -1; data < (varied ? kVariedPatterns : 0); ++data)
      for (Inputs mode : {Inputs::Same, Inputs::Widened, Inputs::Extended}) {
        if (varied && mode == Inputs::Widened) continue;  // size-1 axes hide nothing new
        std::optional<Isolated> alone = isolated(n, mode, data, inputs == Data::Staged);
        UOpRef root = !alone ? nullptr : twice ? read_twice(alone->node) : alone->node;
        if (root && test(single_output(p, root))) return alone;
      }
    return std::nullopt;
  };
  // The values a failure with scrambled inputs met are those inputs' (a sqrt's NaN where the
  // default data is positive).
  std::vector<InterpOptions> datas{{}};
  if (std::optional<InterpOptions> scrambled = scrambled_options(p)) datas.push_back(*scrambled);
  // Whether n fails alone without options, on any of the data, or on its own values (which may
  // be the only data that tells its elements apart: a bool min over 27 elements of any probe
  // pattern is false everywhere).
  auto fails_plain = [&](const UOp& n) {
    for (Data inputs : {Data::Fresh, Data::Staged, Data::Literal})
      for (bool twice : {false, true})
        if (alone_fails(n, *plain, inputs, twice)) return true;
    for (const InterpOptions& data : datas)
      if (UOpRef alone = with_own_values(n, data))
        for (const UOpRef& root : {alone, read_twice(alone)})
          if (root && (*plain)(single_output(p, root))) return true;
    return false;
  };
  // What the data a node computed alone reads fails of itself, if anything, rather than the
  // node: a buffer read by no op (an engine that hands its kernels wrong data fails at every
  // node that reads it, each alone), or the reshape or literal stack the data comes through
  // (the fresh inputs go through reshape's rule, varied values through a stack's, which may
  // be a constant table read wrong).
  auto failing_data = [&](const UOp& node) -> std::optional<Located> {
    for (UOpRef s : node.src) {
      if (s->op == Op::Stage) s = s->src[0];
      UOpRef buffer = s->op == Op::Reshape ? s->src[0] : s;
      if (buffer->op == Op::Buffer && fails(single_output(p, buffer))) return Located{Op::Buffer};
      if ((s->op == Op::Reshape || s->op == Op::Stack) && fails(single_output(p, s)))
        return Located{s->op};
    }
    return std::nullopt;
  };
  // A reduce whose fold fails written out (fold_steps) has a wrong op, not a wrong reduce:
  // the op's name, whichever data showed it.
  auto wrong_fold = [&](const UOp& reduce) -> std::optional<Located> {
    if (reduce.op != Op::Reduce) return std::nullopt;
    for (FoldValues values : {FoldValues::Staged, FoldValues::Computed, FoldValues::Literal}) {
      UOpRef fold = fold_steps(reduce, values);
      if (!fold || !fails(single_output(p, fold))) continue;
      if (std::optional<Located> at = failing_data(*fold)) return at;
      Located at{reduce.reduce_op()};
      if (plain) at.fails_plain = (*plain)(single_output(p, fold));
      if (kinds_of) at.kinds = (*kinds_of)(single_output(p, fold));
      return at;
    }
    return std::nullopt;
  };
  auto first_alone = [&](Data inputs) -> std::optional<Located> {
    for (const UOp* n : order) {
      std::optional<Isolated> alone = alone_fails(*n, fails, inputs);
      if (!alone) continue;
      if (std::optional<Located> at = wrong_fold(*alone->node)) return at;
      if (std::optional<Located> at = failing_data(*alone->node)) return at;
      Located at{n->op, plain && fails_plain(*n)};
      if (kinds_of) at.kinds = (*kinds_of)(single_output(p, alone->node));
      return at;
    }
    return std::optional<Located>();
  };
  for (Data inputs : {Data::Fresh, Data::Staged})
    if (std::optional<Located> at = first_alone(inputs)) return at;
  // Loaded, computed, then loaded and read at two indices (read_twice: the copies of a reduce
  // that share an accumulator, which the fresh and varied data may not tell apart).
  // Each gives n alone and the value that failed (n, or n read twice).
  auto fails_on_own_values = [&](const UOp& n) -> std::pair<UOpRef, UOpRef> {
    for (int way : {0, 1, 2})
      for (const InterpOptions& data : datas) {
        UOpRef alone = with_own_values(n, data, way == 1);
        UOpRef root = alone && way == 2 ? read_twice(alone) : alone;
        if (root && fails(single_output(p, root))) return {alone, root};
      }
    return {};
  };
  for (const UOp* n : own_values ? order : std::vector<const UOp*>{}) {
    auto [alone, failed] = fails_on_own_values(*n);
    if (!alone) continue;
    if (std::optional<Located> at = wrong_fold(*n)) return at;
    if (std::optional<Located> at = failing_data(*alone)) return at;
    Located at{n->op};
    if (plain) at.fails_plain = (*plain)(single_output(p, failed));
    return at;
  }
  if (std::optional<Located> at = first_alone(Data::Literal)) return at;
  // Whether a value up to n fails without options: the options change which values a kernel
  // computes and which it loads, so the value that shows the failure under them may be another
  // than the one that shows it without (a reduce that becomes part of a kernel only once its
  // stack is upcast or threaded). A thread loop is the outermost loop, whichever axis it runs
  // over, so each value is also tried with each axis moved outermost by a permute.
  auto some_value_fails_plain = [&](const UOp* n) {
    for (const UOp* m : topo_order({shared_from(n)})) {
      if (std::find(order.begin(), order.end(), m) == order.end()) continue;
      for (const UOpRef& v : with_each_axis_first(shared_from(m)))
        if ((*plain)(single_output(p, v))) return true;
    }
    return false;
  };
  for (const UOp* n : order) {
    Program whole = single_output(p, shared_from(n));
    if (!fails(whole)) continue;
    const UOp* needed = needed_node(whole, fails, n);
    if (std::optional<Located> at = wrong_fold(*needed)) return at;
    // A value that fails without options too is the op's failure, not the options'.
    bool without = plain && (some_value_fails_plain(n) || fails_plain(*needed));
    return Located{needed->op, without, "", true, ops_under({shared_from(n)})};
  }
  // No value fails as the only output: the failure needs the program's outputs together (a
  // kernel's options decided by all it computes).
  if (const UOp* needed = fails(p) ? needed_node(p, fails) : nullptr)
    return Located{needed->op, plain && fails_plain(*needed), "", true, ops_under(p.roots())};
  return std::nullopt;
}

// `plain`: also say whether the op found fails without kernel options, on one thread, and
// which options it needs computed alone (`kinds_of`).
std::optional<Located> culprit(const std::string& family, const Program& p, Backend& backend,
                               const EngineConfig& config, bool plain = false,
                               const KindsOf* kinds_of = nullptr) {
  if (family == "roundtrip")
    return localize(p, [](const Program& q) { return check_roundtrip(q).has_value(); });
  auto in_family = [&](const EngineConfig& c) -> Test {
    return [&, c](const Program& q) {
      std::optional<Failure> f = check_engines(q, backend, c);
      return f && oracle_family(f->oracle) == family;
    };
  };
  Test wrong = in_family(config), wrong_plain = in_family(EngineConfig{});
  const Test* probe = plain ? &wrong_plain : nullptr;
  // Its own values too: a cast that goes wrong only on a NaN or past i32 fails on no probe data.
  if (std::optional<Located> at = localize(p, wrong, probe, kinds_of, true)) return at;
  if (family != "engines") return std::nullopt;
  std::optional<Program> composites;
  try {
    composites = with_composites(p);
  } catch (const std::exception&) {  // what cannot be built, the composites oracle names
    return std::nullopt;
  }
  return localize(*composites, wrong, probe, kinds_of);
}

}  // namespace

std::string oracle_family(const std::string& oracle) {
  return oracle == "memory" || oracle == "composites" || oracle == "cost" ? "engines" : oracle;
}

// "reshape element count" as a signature word: "reshape_element_count".
std::string rule_word(std::string rule) {
  std::replace(rule.begin(), rule.end(), ' ', '_');
  return rule;
}

// The type rules a checker lets through: each variant break_one_rule makes of two small
// programs (i32 and f32, rank 3) that `lets_through` says it does not refuse. (Sorted names,
// spaces as '_'.) With `first_only`, the first such rule, if any.
std::set<std::string> rules_let_through(const std::function<bool(const std::string&)>& lets_through,
                                        bool first_only = false) {
  std::set<std::string> rules;
  for (const char* dtype : {"i32", "f32"}) {
    Program valid = parse_program(
        "%x = buffer 24 dtype=" + std::string(dtype) + " slot=0\n%m = reshape %x shape=[2 3 4]\n",
        "probe.uir");
    for (const Broken& b : rule_breakers(valid, valid.statements.back(), 0)) {
      if (!lets_through(b.text)) continue;
      rules.insert(rule_word(b.rule));
      if (first_only) return rules;
    }
  }
  return rules;
}

// The type rules the parser does not check.
std::set<std::string> rules_not_checked() {
  return rules_let_through([](const std::string& text) {
    try {
      parse_program(text, "probe.uir");
    } catch (const std::exception&) {
      return false;
    }
    return true;
  });
}

// A wrongly accepted program is named by the type rules the checker lets through: one rule
// ("rejection-pad_length"), or every one a checker that skips several lets through, so that one
// skipped check is one signature whichever rule a program happens to break. The rule the
// program breaks, when the small programs break none.
std::string by_rule(const std::string& prefix, const Failure& f, std::set<std::string> rules) {
  const std::string from = "breaks the ", to = " rule";
  size_t a = f.detail.find(from), b = f.detail.rfind(to);
  if (rules.empty() && a != std::string::npos && b != std::string::npos && b > a)
    rules.insert(rule_word(f.detail.substr(a + from.size(), b - a - from.size())));
  // A program of one's own that uopc refuses ("uopc refuses (f.uir:5:16: error: shrink: ...)")
  // breaks a rule of the op its message names.
  size_t e = f.detail.find("error: ");
  size_t colon = e == std::string::npos ? e : f.detail.find(':', e + 7);
  if (rules.empty() && colon != std::string::npos)
    if (std::optional<Op> op = parse_op(f.detail.substr(e + 7, colon - e - 7)))
      rules.insert(std::string(op_name(*op)));
  std::string out = prefix;
  for (const std::string& rule : rules) out += (out == prefix ? "-" : "+") + rule;
  // A file name stays short: a checker that lets many rules through is named by how many.
  static const size_t every = rules_let_through([](const std::string&) { return true; }).size();
  if (rules.size() == every) return prefix + "-every_rule";
  if (out.size() > 200) return prefix + "-" + std::to_string(rules.size()) + "_rules";
  return out;
}

// The least engine settings under which p still fails in `family`.
EngineConfig least_config(const std::string& family, const Program& p, Backend& backend,
                          const EngineConfig& config) {
  return reduce_config(p, config, [&](const EngineConfig& t) {
    return failure_in_family(family, p, backend, t).has_value();
  });
}

// The kernel options a failure needs, by kind ("upcast+thread+threads"), from the least
// settings it fails under (least_config has taken away every option the failure also shows
// without; "" when it shows without options on one thread: then an op's rule is wrong). An
// unroll folded in order is an upcast of the reduce's axis, its copies indexed the same way, so
// only a failure that needs the unrolled tree is named unroll.
std::string option_kinds(const EngineConfig& least) {
  if (least.opts.mode == OptsChoice::Mode::Auto) return "auto";
  const Opts& o = least.opts.fixed;
  std::vector<std::string> kinds;
  if (!o.upcast.empty() || (o.unroll > 1 && o.unroll_in_order)) kinds.push_back("upcast");
  if (o.unroll > 1 && !o.unroll_in_order) kinds.push_back("unroll");
  if (!o.tile.empty()) kinds.push_back("tile");
  if (o.thread) kinds.push_back("thread");
  if (o.block > 1) kinds.push_back("block");
  if (least.threads > 1) kinds.push_back("threads");
  std::string out;
  for (const std::string& k : kinds) out += (out.empty() ? "" : "+") + k;
  return out;
}

// `least` with only the option kinds in `keep` (option_kinds' names) set; threads stay.
EngineConfig with_kinds(const EngineConfig& least, const std::set<std::string>& keep) {
  EngineConfig c = least;
  Opts& o = c.opts.fixed;
  bool upcast_unroll = o.unroll > 1 && o.unroll_in_order;
  if (!keep.count("upcast")) o.upcast.clear();
  if (o.unroll > 1 && !keep.count(upcast_unroll ? "upcast" : "unroll"))
    o.unroll = 1, o.unroll_in_order = false;
  if (!keep.count("tile")) o.tile.clear();
  if (!keep.count("thread")) o.thread.reset();
  if (!keep.count("block")) o.block = 1;
  return c;
}

// Programs of odd and uneven shapes, elementwise and reduced, on which an option's bug shows
// without the other options a program needed to show it (a thread split that drops the last
// iterations, shown in one program only once a tile made its range odd).
const std::vector<Program>& option_probes() {
  static const std::vector<Program> probes = [] {
    std::vector<Program> out;
    for (const char* shape : {"3", "5", "7", "9", "13", "3 5", "5 7", "7 3", "9 11"}) {
      std::string head = std::string("%x = buffer 99 dtype=i32\n%s = shrink %x 0 shape=[") +
                         std::to_string([&] {
                           int64_t n = 1;
                           std::istringstream in(shape);
                           for (int64_t d; in >> d;) n *= d;
                           return n;
                         }()) +
                         "]\n%m = reshape %s shape=[" + shape + "]\n";
      out.push_back(parse_program(head + "%v = add %m 1\n", "probe.uir"));
      out.push_back(parse_program(head + "%v = reduce %m op=add pop=1\n", "probe.uir"));
    }
    return out;
  }();
  return probes;
}

// Programs whose value is right only where an op's rule is: stacks of distinct literals, of
// each dtype and of lengths around the small powers of two (a stack selects its element by
// comparing the index with each position, so a wrong select or compare shows on one of them,
// where the stack a program held had equal neighbours and showed only once an option split
// its index), and f32 sums over two axes whose rounding depends on the order they are folded
// in (a reduce that folds its axes the wrong way round is right on data that sums exactly,
// and a program's data may show it only once an unroll reorders the fold).
const std::vector<Program>& plain_probes() {
  static const std::vector<Program> probes = [] {
    std::vector<Program> out;
    for (int n : {2, 3, 4, 5, 8, 9, 16})
      for (std::string dtype : {"i32", "f32", "bool"}) {
        std::string text = "%v = stack";
        for (int k = 0; k < n; ++k) {
          std::string v = std::to_string(n - 1 - 2 * k);  // distinct, either sign
          text += " " + (dtype == "bool"  ? std::string(k % 2 ? "true" : "false")
                         : dtype == "f32" ? v + ".5"
                                          : v);
        }
        out.push_back(parse_program(text + "\n", "probe.uir"));
      }
    for (const char* shape : {"2 3", "3 2"})
      out.push_back(
          parse_program(std::string("%x = stack 100000000.0 1.0 1.0 -100000000.0 1.0 1.0\n"
                                    "%m = reshape %x shape=[") +
                            shape + "]\n%v = reduce %m op=add pop=2\n",
                        "probe.uir"));
    return out;
  }();
  return probes;
}

// Programs that end in each movement op on a value computed in the kernel (an add of loaded
// or stacked elements), over shapes that exercise each rule's cases (a reshape that keeps the rank,
// one that changes it, a flip or pad of an inner axis): an op whose rule is wrong only where a
// value is computed or only on some shapes shows on one of them, where a program showed it only
// with other ops fused around it (a same-rank reshape read through a flip).
const std::vector<Program>& movement_probes() {
  static const std::vector<Program> probes = [] {
    struct Probe {
      const char* shape;  // of the computed value %c
      const char* last;
    };
    std::vector<Program> out;
    for (const Probe& probe :
         {Probe{"2 3 4", "reshape %c shape=[4 3 2]"}, Probe{"4 6", "reshape %c shape=[6 4]"},
          Probe{"4 6", "reshape %c shape=[3 8]"}, Probe{"2 3 4", "reshape %c shape=[6 4]"},
          Probe{"4 6", "reshape %c shape=[2 3 4]"}, Probe{"2 3 4", "permute %c order=[2 0 1]"},
          Probe{"2 3 4", "permute %c order=[1 0 2]"}, Probe{"2 3 4", "flip %c axes=[0]"},
          Probe{"2 3 4", "flip %c axes=[1 2]"},
          Probe{"2 3 4", "pad %c pads=[1 0 0 2 1 1] value=-7"},
          Probe{"2 3 4", "shrink %c 1 1 1 shape=[1 2 3]"},
          Probe{"2 1 12", "expand %c shape=[2 3 12]"}, Probe{"1 24", "expand %c shape=[3 24]"}}) {
      std::string text = std::string("%x = buffer 99 dtype=i32\n%s = shrink %x 0 shape=[24]\n") +
                         "%m = reshape %s shape=[" + probe.shape +
                         "]\n%c = add %m 1\n%v = " + probe.last + "\n";
      out.push_back(parse_program(text, "probe.uir"));
    }
    // A reshape's own probes read no reshape: a value built by stacks.
    for (const char* shape : {"3 2", "6", "1 6"})
      out.push_back(parse_program(std::string("%a = stack 1 -2 3\n%b = stack -4 5 -6\n") +
                                      "%m = stack %a %b\n%c = add %m 1\n%v = reshape %c shape=[" +
                                      shape + "]\n",
                                  "probe.uir"));
    return out;
  }();
  return probes;
}

// Whether a probe that ends in `op` fails on the plain lowering where the values its last
// statement reads do not: then the op's rule is wrong, even where a failure of it showed only
// under options (a reduce that indexes its popped axes last is right on a whole-tensor reduce,
// which an unroll or a block then breaks), and not the rule of what computes its operands.
bool fails_plain_on_probes(Op op, const FailsWith& fails) {
  auto operands_fail = [&](const Program& probe) {
    for (const UOpRef& s : probe.statements.back().node->src)
      if (s->op != Op::Const && fails(single_output(probe, s), {})) return true;
    return false;
  };
  for (const auto* probes : {&option_probes(), &plain_probes(), &movement_probes()})
    for (const Program& probe : *probes)
      if (probe.statements.back().node->op == op && fails(probe, {}) && !operands_fail(probe))
        return true;
  return false;
}

// fails_plain_on_probes for uopc's compiled engine, the composites left out (a flip rebuilt
// from reshapes fails with a wrong reshape), remembered per planted bug and family: each probe is
// a compile, and a shrink names every candidate.
bool own_engine_fails_on_probes(const std::string& family, Op op, Backend& backend) {
  static std::map<std::tuple<Plant, std::string, Op>, bool> known;
  auto [at, fresh] = known.try_emplace({active_plant(), family, op}, false);
  if (fresh)
    at->second = fails_plain_on_probes(op, [&](const Program& q, const EngineConfig& c) {
      std::optional<Failure> f = check_engines(q, backend, c);
      return f && oracle_family(f->oracle) == family;
    });
  return at->second;
}

void with_rules_aside(const std::vector<std::string>& rules, size_t k,
                      const std::function<void()>& then);

// `fails` on a probe written as text.
bool fails_on_text(const Test& fails, const std::string& text) {
  return fails(parse_program(text, "probe.uir"));
}

// Whether `fails` (an engine under the failure's kind) holds for a fused probe of op that it
// does not hold for in the probe's staged and lone forms; `passes` says the engine computes a
// program right.
bool misfuses(Op op, const Test& fails, const Test& passes) {
  auto fails_text = [&](const std::string& text) { return fails_on_text(fails, text); };
  // Most ops are written right: all their fused forms at once cost an engine one run.
  std::vector<FusedProbe> probes = fused_probes(op);
  if (probes.empty() || passes(fused_together(probes))) return false;
  for (const FusedProbe& probe : probes)
    if (fails_text(probe.fused) && !fails_text(probe.staged) && !fails_text(probe.alone))
      return true;
  return false;
}

// Whether uopc's compiled engine writes `op` wrong into the expressions of the ops that read it:
// a fused probe of it fails where its staged and lone forms do not. With every simplifier rule
// set aside, so that a rule wrong only on what a reader makes of an op (a linear form of a
// sum that a mul distributes) is not taken for the op's C. Remembered per planted bug.
bool own_engine_misfuses(Op op, Backend& backend) {
  static std::map<std::pair<Plant, Op>, bool> known;
  auto remembered = known.find({active_plant(), op});
  if (remembered != known.end()) return remembered->second;
  bool wrong = false;
  with_rules_aside(symbolic_rule_names(), 0, [&] {
    auto fails = [&](const Program& q) { return check_engines(q, backend, {}).has_value(); };
    wrong = misfuses(op, fails, [&](const Program& q) { return !fails(q); });
  });
  known.emplace(std::pair{active_plant(), op}, wrong);
  return wrong;
}

// Programs that end in a pad or a flip of each dtype, on shapes and pads that exercise the
// composites' cases (a pad wider than its axis, on either side; a flip of an inner and of an
// outer axis; the i32 flip's anti-identity and the other dtypes' stacks).
const std::vector<Program>& composite_probes() {
  static const std::vector<Program> probes = [] {
    std::vector<Program> out;
    for (const char* dtype : {"i32", "f32", "bool"})
      for (const char* last : {"pad %m pads=[1 0 0 2]", "pad %m pads=[3 1 2 4]", "flip %m axes=[0]",
                               "flip %m axes=[1]", "flip %m axes=[0 1]"})
        out.push_back(parse_program(std::string("%x = buffer 6 dtype=") + dtype +
                                        "\n%m = reshape %x shape=[2 3]\n%v = " + last + "\n",
                                    "probe.uir"));
    return out;
  }();
  return probes;
}

// Whether the interpreter computes `op` (a pad or a flip) otherwise than its composite on the
// probes, and whether uopc's compiled engine disagrees with the interpreter there too.
struct CompositeProbes {
  bool composite_differs = false;
  bool engines_differ = false;
};

CompositeProbes composite_probes_of(Op op, Backend& backend) {
  static std::map<std::pair<Plant, Op>, CompositeProbes> known;
  auto [at, fresh] = known.try_emplace({active_plant(), op});
  if (!fresh) return at->second;
  for (const Program& probe : composite_probes()) {
    if (probe.statements.back().node->op != op || !check_composites(probe, backend, false))
      continue;
    at->second.composite_differs = true;
    if (check_engines(probe, backend, {})) at->second.engines_differ = true;
  }
  return at->second;
}

// A pad or a flip the interpreter computes otherwise than its composite (the composites oracle,
// on the interpreter alone) is named by the op, pad before flip (a flip's i32 composite is built
// from pads), whichever op of the program the difference reached: "composites-pad" when the
// composite is wrong, "engines-pad" when the compiled engine disagrees with the interpreter on
// the probes too (the interpreter's own pad is wrong, as the engines oracle names it). So is a
// composite that cannot be built or interpreted on the probes (a type rule of an op it uses
// refuses it), whichever op the exception names.
std::optional<std::string> composite_cause(const Failure& f, Backend& backend) {
  bool interpreted = f.detail.find("interp of the composites") != std::string::npos;
  if (f.oracle != "composites" || !(interpreted || throw_site(f))) return std::nullopt;
  for (Op op : {Op::Pad, Op::Flip}) {
    CompositeProbes c = composite_probes_of(op, backend);
    if (c.composite_differs)
      return (c.engines_differ ? "engines-" : "composites-") + std::string(op_name(op));
  }
  return std::nullopt;
}

// When one of `ops` misfuses, the first elementwise op in the language's order that does: of
// several ops written wrong through what their code shares, one names them all.
std::optional<Op> first_misfused(const std::vector<Op>& ops,
                                 const std::function<bool(Op)>& misfused) {
  if (std::none_of(ops.begin(), ops.end(), misfused)) return std::nullopt;
  for (int k = 0; k < kOpCount; ++k)
    if (is_alu(static_cast<Op>(k)) && misfused(static_cast<Op>(k))) return static_cast<Op>(k);
  return std::nullopt;
}

// The signature of an op an engine writes wrong into its readers: "engines-render_where",
// "target-render_add".
std::string render_name(const std::string& prefix, Op op) {
  return prefix + "render_" + std::string(op_name(op));
}

// The first elementwise op of p or of its kernels that uopc's engine writes wrong into its
// readers' expressions (own_engine_misfuses): that op's C is the cause, whichever reader showed
// it (a cast, an add that overflows, C that does not compile) and whether the program wrote the
// op or the lowering did (a pad's mask is a where). Of several ops written wrong through what
// their C shares (every binary operator left without parentheses), the first in the language's
// order names them all, whichever a program has.
std::optional<Op> misfused_op(const Program& p, Backend& backend, const EngineConfig& config) {
  return first_misfused(elementwise_ops(p, config.opts),
                        [&](Op op) { return own_engine_misfuses(op, backend); });
}

// misfused_op for an external engine, asked of the ops where the failure was localized (its
// kernels are not known): the first elementwise op in the language's order that it writes
// wrong into its readers, if one of `ops` is such an op. Remembered per engine and failure
// kind, as each probe is a run of the engine.
std::optional<Op> target_misfused_op(const std::vector<Op>& ops, Target& target,
                                     const std::string& kind, const Test& fails) {
  static std::map<std::tuple<std::string, std::string, Op>, bool> known;
  Test passes = [&](const Program& q) { return !check_target(q, target, nullptr, {}); };
  return first_misfused(ops, [&](Op op) {
    if (!is_alu(op)) return false;
    auto [it, fresh] = known.try_emplace({target.command(), kind, op}, false);
    if (fresh) it->second = misfuses(op, fails, passes);
    return it->second;
  });
}

// A fused failure's op, or the first op of the failing value whose own probes fail where the
// op found does not: the node a failure needs is where the paths of its wrong values join (a
// flip that carries a same-rank reshape's stray index to another element), which need not be
// the op whose rule is wrong.
Op own_rule_op(const Located& at, const std::function<bool(Op)>& fails_on_probes) {
  if (!at.fused || fails_on_probes(at.op)) return at.op;
  for (Op op : at.ops)
    if (op != at.op && fails_on_probes(op)) return op;
  return at.op;
}

// An unrolled tree whose copies the option probes show wrong folded in order too: the copies'
// index, which the unroll shares with an upcast of the reduce's axis, is wrong, not the tree
// (a program whose data hides the wrong index from an in-order fold, a min over NaNs, shows
// it only through the tree). Otherwise `least` as it is.
EngineConfig tree_as_upcast(const EngineConfig& least, const FailsWith& fails) {
  const Opts& o = least.opts.fixed;
  if (least.opts.mode == OptsChoice::Mode::Auto || o.unroll <= 1 || o.unroll_in_order) return least;
  EngineConfig in_order = least;
  in_order.opts.fixed.unroll_in_order = true;
  for (const Program& probe : option_probes())
    if (fails(probe, in_order) && !fails(probe, {})) return in_order;
  return least;
}

std::string fewest_option_kinds(const EngineConfig& given, const FailsWith& fails) {
  EngineConfig least = tree_as_upcast(given, fails);
  std::string all = option_kinds(least);
  std::vector<std::string> kinds;
  for (size_t at = 0; at < all.size();) {
    size_t end = std::min(all.find('+', at), all.size());
    if (std::string k = all.substr(at, end - at); k != "threads" && k != "auto") kinds.push_back(k);
    at = end + 1;
  }
  if (kinds.size() < 2) return all;
  size_t n = kinds.size();
  for (size_t size = 1; size < n; ++size)
    for (uint32_t mask = 1; mask < (1u << n); ++mask) {
      if (static_cast<size_t>(__builtin_popcount(mask)) != size) continue;
      std::set<std::string> keep;
      for (size_t k = 0; k < n; ++k)
        if (mask & (1u << k)) keep.insert(kinds[k]);
      EngineConfig c = with_kinds(least, keep);
      for (const Program& probe : option_probes())
        if (fails(probe, c) && !fails(probe, {})) return option_kinds(c);
    }
  return all;
}

// Whether the helper C writes `op` through is itself wrong: `op` through it on every pair of a
// few values that tell its forms apart (signed zeros, NaN, infinities, the ends of i32, zero
// and -1 divisors; not INT32_MIN by -1, which C may trap on, a crash named as such). Remembered
// per planted bug and op.
bool helper_fails(Op op, Backend& backend) {
  const Op helped[] = {Op::Add, Op::Sub, Op::Mul, Op::Neg, Op::Idiv, Op::Mod, Op::Max, Op::Min};
  if (std::find(std::begin(helped), std::end(helped), op) == std::end(helped)) return false;
  static std::map<std::pair<Plant, Op>, bool> known;
  auto [at, fresh] = known.try_emplace({active_plant(), op}, false);
  if (!fresh) return at->second;
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<Scalar> f32 = {
      Scalar::of_f32(0.0f), Scalar::of_f32(-0.0f), Scalar::of_f32(1.0f), Scalar::of_f32(-1.5f),
      Scalar::of_f32(inf),  Scalar::of_f32(-inf),  Scalar::of_f32(NAN)};
  const std::vector<Scalar> i32 = {Scalar::of_i32(0),
                                   Scalar::of_i32(1),
                                   Scalar::of_i32(-1),
                                   Scalar::of_i32(7),
                                   Scalar::of_i32(-3),
                                   Scalar::of_i32(std::numeric_limits<int32_t>::min()),
                                   Scalar::of_i32(std::numeric_limits<int32_t>::max())};
  bool division = op == Op::Idiv || op == Op::Mod;
  EngineConfig helper;
  helper.by_helper = {op};
  for (const std::vector<Scalar>* values : {&f32, &i32}) {
    if (division && values == &f32) continue;
    std::vector<std::pair<Scalar, Scalar>> pairs;
    for (const Scalar& a : *values)
      for (const Scalar& b : *values)
        if (!division || a.as_i32() != std::numeric_limits<int32_t>::min() || b.as_i32() != -1)
          pairs.emplace_back(a, b);
    auto operand = [&](bool second) {
      return stage(nested_stack({static_cast<int64_t>(pairs.size())}, [&](int64_t k) {
        return second ? pairs[static_cast<size_t>(k)].second : pairs[static_cast<size_t>(k)].first;
      }));
    };
    UOpRef value =
        op == Op::Neg ? alu(op, {operand(false)}) : alu(op, {operand(false), operand(true)});
    if (failure_in_family("engines", single_output(Program{}, value), backend, helper))
      return at->second = true;
  }
  return false;
}

// The renderer decision a compiled-engine failure comes from, if it goes away once that
// decision is set aside (RenderOptions::by_helper), and the helper it then takes is right on
// its own (a wrong helper, set aside with the rest, may cancel itself: max(max(a, b), a) with
// a helper that keeps its first operand on a tie): one name per decision the renderer makes, so
// idiv and mod share one, as do max and min.
std::optional<std::string> render_decision(const Program& p, Backend& backend,
                                           const EngineConfig& config) {
  const std::pair<const char*, std::vector<Op>> decisions[] = {
      {"add", {Op::Add}},
      {"sub", {Op::Sub}},
      {"mul", {Op::Mul}},
      {"neg", {Op::Neg}},
      {"division", {Op::Idiv, Op::Mod}},
      {"minmax", {Op::Max, Op::Min}},
  };
  auto fails = [&](std::vector<Op> ops) {
    EngineConfig c = config;
    c.by_helper = std::move(ops);
    return failure_in_family("engines", p, backend, c).has_value();
  };
  std::vector<Op> all;
  for (const auto& [name, ops] : decisions) all.insert(all.end(), ops.begin(), ops.end());
  if (fails(all)) return std::nullopt;
  for (const auto& [name, ops] : decisions) {
    if (fails(ops)) continue;
    for (Op op : ops)
      if (helper_fails(op, backend)) return std::nullopt;
    return std::string(name);
  }
  return std::nullopt;
}

// The rewrite steps of the lowering under which p fails.
std::vector<RewriteStep> failing_steps(const std::string& family, const Program& p,
                                       Backend& backend, const EngineConfig& config) {
  return steps_of([&] { failure_in_family(family, p, backend, config); });
}

// The simplifier rules, of those that fired (`steps`), whose setting aside (WithoutRule) makes
// a compiled-engine failure go away. A right rule keeps every value, so only a wrong one can,
// or one that shaped the expression a wrong one rewrote (a distribute before a divmod_split).
// Runs `then` with rules[k..] set aside together.
void with_rules_aside(const std::vector<std::string>& rules, size_t k,
                      const std::function<void()>& then) {
  if (k == rules.size()) return then();
  WithoutRule aside(rules[k]);
  with_rules_aside(rules, k + 1, then);
}

// The rules z3 refutes on a fixed sequence of drawn expressions (random_expr from seeds 0, 1,
// ...) under the active planted bug, each probe drawn again with the rules refuted on it set
// aside until none is: how many of the first kCounted probes refute each, and which rules any
// probe drawn so far refutes. Remembered per plant.
struct ProbeRefutations {
  static constexpr uint64_t kCounted = 200;
  uint64_t drawn = 0;
  std::map<std::string, int> counted;
  std::set<std::string> seen;
};

void draw_probe(ProbeRefutations& r) {
  RandomChoices choices(r.drawn);
  RandomExpr probe = random_expr(choices);
  static const std::vector<std::string> rules = symbolic_rule_names();
  std::vector<std::string> aside;
  for (;;) {
    std::optional<Failure> f;
    with_rules_aside(aside, 0, [&] { f = check_expression(probe); });
    std::string rule = f ? f->detail.substr(0, f->detail.find(':')) : "";
    if (std::find(rules.begin(), rules.end(), rule) == rules.end() ||
        std::find(aside.begin(), aside.end(), rule) != aside.end())
      break;
    if (r.drawn < ProbeRefutations::kCounted) r.counted[rule]++;
    r.seen.insert(rule);
    aside.push_back(rule);
  }
  ++r.drawn;
}

// The refutations, drawn until `rule` is among them, or none is, or kMaxProbes are drawn: a
// rule wrong through a shared helper may be refuted on one probe in a thousand where the other
// rules are on one in thirty (divmod_split and combine_terms with a linear form whose terms of
// coefficient -1 are written the wrong way round).
const ProbeRefutations& probe_refutations(const std::string& rule) {
  constexpr uint64_t kMaxProbes = 4000;
  static std::map<Plant, ProbeRefutations> known;
  ProbeRefutations& r = known[active_plant()];
  SymbolicBudget budget(kSymbolicTimeoutMs);  // as the oracle that drew them
  while (r.drawn < ProbeRefutations::kCounted) draw_probe(r);
  while (!r.seen.empty() && !r.seen.count(rule) && r.drawn < kMaxProbes) draw_probe(r);
  return r;
}

// rewrite_cause, remembered: a shrink names every candidate, and most of their steps are the
// same (nodes are hash-consed, so a step is its rule and two nodes, kept alive here).
const std::string& remembered_cause(const RewriteStep& s) {
  using Key = std::tuple<std::string, const UOp*, const UOp*>;
  static std::map<Key, std::pair<std::string, RewriteStep>> causes;
  Key key{s.rule, s.before.get(), s.after.get()};
  if (auto at = causes.find(key); at != causes.end()) return at->second.first;
  if (causes.size() >= 4096) causes.clear();
  return causes.emplace(key, std::make_pair(rewrite_cause(s), s)).first->second.first;
}

// The rules, of those that fired, with a step z3 refutes on its own (rewrite_cause).
std::vector<std::string> refuted_rules(const std::vector<RewriteStep>& steps) {
  std::vector<std::string> refuted;
  for (const RewriteStep& s : steps)
    if (std::find(refuted.begin(), refuted.end(), s.rule) == refuted.end() &&
        !remembered_cause(s).empty())
      refuted.push_back(s.rule);
  return refuted;
}

// Rules wrong through a helper they share (a linear form that collects a - b as a + b, which
// combine_terms and divmod_split both build on) each fail the program where the other is set
// aside, and a rule's wrong steps may only come once another's are gone: the rules z3 refutes
// are set aside together, then those it refutes in what the lowering does without them, until
// the failure goes away (those rules) or no rule is left to refute (none).
std::vector<std::string> refuted_together(const std::vector<RewriteStep>& steps,
                                          const std::string& family, const Program& p,
                                          Backend& backend, const EngineConfig& config) {
  std::vector<std::string> aside;
  std::vector<RewriteStep> now = steps;
  for (;;) {
    size_t before = aside.size();
    for (const std::string& rule : refuted_rules(now))
      if (std::find(aside.begin(), aside.end(), rule) == aside.end()) aside.push_back(rule);
    if (aside.size() == before) return {};
    bool fails = true;
    with_rules_aside(aside, 0, [&] {
      fails = failure_in_family(family, p, backend, config).has_value();
      if (fails) now = failing_steps(family, p, backend, config);
    });
    if (!fails) return aside;
  }
}

std::vector<std::string> rules_fixing(const std::vector<RewriteStep>& steps,
                                      const std::string& family, const Program& p, Backend& backend,
                                      const EngineConfig& config) {
  std::set<std::string> fired;
  for (const RewriteStep& s : steps) fired.insert(s.rule);
  std::vector<std::string> fixing;
  for (const std::string& name : symbolic_rule_names()) {
    if (!fired.count(name)) continue;
    WithoutRule aside(name);
    if (!failure_in_family(family, p, backend, config)) fixing.push_back(name);
  }
  if (!fixing.empty()) return fixing;
  // A failure that stays with every rule that fires set aside is no rule's (a movement op's):
  // a few runs of the engine, where refuted_together would ask z3 about every step. Rules that
  // fire only once others are aside (a divmod_split on what combine_terms no longer folds) are
  // set aside in turn, since they may build on the same wrong helper.
  std::vector<std::string> all(fired.begin(), fired.end());
  for (;;) {
    bool stays = true;
    std::vector<RewriteStep> now;
    with_rules_aside(all, 0, [&] {
      now = steps_of([&] { stays = failure_in_family(family, p, backend, config).has_value(); });
    });
    if (!stays) break;
    size_t before = all.size();
    for (const RewriteStep& s : now)
      if (std::find(all.begin(), all.end(), s.rule) == all.end()) all.push_back(s.rule);
    if (all.size() == before) return {};
  }
  return refuted_together(steps, family, p, backend, config);
}

// The cause of the first unsound step (rewrite_cause, z3 over the steps' leaves' bounds: loads
// and loop counters stay symbolic) of a rule in `fixing`: "symbolic-RULE" for a rule shown
// wrong on its own, whichever op the wrong index or value reached, or "bounds-OP" for an
// interval it trusted.
std::optional<std::string> refuted_cause(const std::vector<RewriteStep>& steps,
                                         const std::vector<std::string>& fixing) {
  for (const RewriteStep& s : steps) {
    if (std::find(fixing.begin(), fixing.end(), s.rule) == fixing.end()) continue;
    const std::string& cause = remembered_cause(s);
    if (!cause.empty()) return cause_signature(cause);
  }
  return std::nullopt;
}

// "bounds-OP" when p's kernels, each i32 value checked against its node's interval
// (RenderOptions::check_intervals), compute one outside it: the first such value's op, whose
// sources were inside theirs. Several rules may trust one wrong interval (a pad's clamp read
// by a mask's compare and by the next clamp), so no rule set aside alone makes the failure go
// away, and the interval may be of a node the lowering made (the clamp), not one of p's.
// "engines-OP" when the first such value is a bool neither 0 nor 1.
std::optional<std::string> kernel_interval_cause(const Program& p, Backend& backend,
                                                 const EngineConfig& config) {
  try {
    RenderOptions checked{true, false, true, config.by_helper, true};
    CompiledProgram c = compile_program(p, checked, config.opts);  // e keeps a reference
    Executable e(p, c, backend, {}, config.threads);
    e.run();
    if (std::optional<InterpOptions> scrambled = scrambled_options(p)) {
      e.refill(*scrambled);
      e.run();
    }
  } catch (const IntervalError& error) {
    // A bool read back as neither 0 nor 1 is an element no kernel wrote: a bug in what wrote
    // the buffer, not in an interval rule.
    if (error.op() == Op::Load) return std::nullopt;
    // A table holds a stack of literals: an element read back outside their hull is the
    // stack's compiled form read wrong, which every op reading it would otherwise be named by.
    if (error.op() == Op::Table) return "engines-stack";
    // A bool computed as neither is the op's C, whatever the intervals: the op's failure, named
    // as when the wrong value reaches an output, not as the interval of a cast that reads it.
    if (error.is_bool()) return "engines-" + std::string(op_name(error.op()));
    return "bounds-" + std::string(op_name(error.op()));
  } catch (const std::exception&) {  // another check stopped the kernels first
  }
  return std::nullopt;
}

// "bounds-OP" for the innermost node, among those the simplifier's rules looked at (`steps`),
// whose values over its loop counters leave its interval (interval_holds; a node whose domain
// is too large to enumerate cheaply is passed over). The rules may have rewritten such a node
// away, so that no kernel computes it for check_intervals to see.
std::optional<std::string> rewritten_interval_cause(const std::vector<RewriteStep>& steps) {
  constexpr int64_t kMaxPoints = 4096;
  std::unordered_set<const UOp*> checked;  // steps share subexpressions
  for (const RewriteStep& s : steps) {
    std::unordered_set<const UOp*> left = intervals_left(s.before, kMaxPoints, &checked);
    auto leaves_interval = [&](const UOpRef& n) { return left.count(n.get()) > 0; };
    if (std::string cause = interval_outside({s.before}, leaves_interval); !cause.empty())
      return cause_signature(cause);
  }
  return std::nullopt;
}

// The simplifier rule a wrong value at an arithmetic op comes from: one whose setting aside
// makes it go away; of several, the one that fired last.
std::optional<std::string> rule_at_fault(const std::string& family, const Program& p,
                                         Backend& backend, const EngineConfig& config) {
  std::vector<RewriteStep> steps = failing_steps(family, p, backend, config);
  std::vector<std::string> fixing = rules_fixing(steps, family, p, backend, config);
  for (auto it = steps.rbegin(); it != steps.rend(); ++it)
    if (std::find(fixing.begin(), fixing.end(), it->rule) != fixing.end()) return it->rule;
  return std::nullopt;
}

std::string target_kind(const Failure& f) {
  const std::string& d = f.detail;
  // An assert that fails in one engine and holds in the other is a value that differs.
  if (d.rfind("exited 1, expected 0", 0) == 0 || d.rfind("exited 0, expected 1", 0) == 0)
    return "value";
  // An error status where values were due is what the engine's own checks made of a wrong
  // value (a bounds check where a stray index would have read garbage): the same bug. A
  // refusal (2) of a valid program is not.
  if (d.rfind("exited 2,", 0) == 0) return "exit2";
  if (d.rfind("killed by signal ", 0) == 0) {
    size_t open = d.find("(SIG"), close = d.find(')', open);
    std::string signal = open == std::string::npos
                             ? "signal" + d.substr(17, d.find_first_of(" ,", 17) - 17)
                             : d.substr(open + 1, close - open - 1);
    std::string site = crash_site(f.log);
    return site.empty() ? signal : signal + "-in-" + site;
  }
  if (d.rfind("ran past the ", 0) == 0) return "timeout";
  return "value";
}

namespace {

// The last identifier of a demangled name outside brackets, but an operator's (a lambda's
// call operator is named by the function the lambda is in):
// "uopc::(anonymous namespace)::f(int)::{lambda()#1}::operator()() const" is "f".
std::string plain_name(const std::string& demangled) {
  std::string flat;
  int depth = 0;
  for (char c : demangled) {
    if (c == '(' || c == '<' || c == '{' || c == '[') ++depth;
    if (depth == 0) flat += c;
    if (c == ')' || c == '>' || c == '}' || c == ']') depth = std::max(depth - 1, 0);
  }
  std::string name;
  for (size_t at = 0; at <= flat.size();) {
    size_t end = std::min(flat.find("::", at), flat.size());
    std::string part = flat.substr(at, end - at);
    part = part.substr(0, part.find(' '));  // " const", " [clone .isra.0]"
    bool identifier = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
    if (identifier && part.rfind("operator", 0) != 0 && !std::isdigit(part[0])) name = part;
    at = end + 2;
  }
  return name;
}

}  // namespace

std::string crash_site(const std::string& log) {
  static const std::string kSite = "crash site: ";
  size_t at = log.rfind(kSite);
  if (at == std::string::npos) return "";
  std::string symbol = log.substr(at + kSite.size());
  return function_name(symbol.substr(0, symbol.find_first_of("\r\n")));
}

std::string function_name(std::string symbol) {
  while (!symbol.empty() && symbol.back() == ' ') symbol.pop_back();
  if (symbol.rfind("_Z", 0) == 0) {
    symbol = symbol.substr(0, symbol.find('.'));  // a compiler's clone: ".isra.0", ".cold"
    int status = 0;
    char* demangled = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
    if (demangled) {
      symbol = demangled;
      std::free(demangled);
    }
  }
  return plain_name(symbol);
}

// Whether a program of p's output values, up to 16 distinct ones each alone in a one-literal
// stack, fails. A program with no output element (only asserts, or empty values) echoes a 0
// of each of its dtypes instead.
bool echo_fails(const Program& p, const Test& fails) {
  InterpResult r;
  try {
    r = interpret(p, {});
  } catch (const std::exception&) {
    return false;
  }
  Program echo;
  auto add = [&](Scalar v) {
    echo.statements.push_back(
        {"%e" + std::to_string(echo.statements.size()), stack({literal(v)}), 1, false});
  };
  std::set<uint32_t> seen;
  for (const auto& [statement, value] : r.outputs)
    for (int64_t i = 0; i < value.size() && echo.statements.size() < 16; ++i)
      if (Scalar v = value.at(i); seen.insert(v.bits).second) add(v);
  if (echo.statements.empty()) {
    std::set<DType> dtypes;
    for (const UOp* n : topo_order(p.roots())) dtypes.insert(n->dtype);
    for (DType t : dtypes) add(Scalar::zero(t));
  }
  return !echo.statements.empty() && fails(echo);
}

// Whether p has an assert and an engine gets the plainest asserts of its dtypes wrong: a
// one-literal stack of 1 against one of 0 (the interpreter: fails, first difference at [0]:
// 1 vs 0) and against itself (holds). Such an engine reports every program's asserts wrong,
// whatever their operands compute (its verdict, where, with which values, its status). The
// operands are what echo_fails asks for, so a wrong stack (one that reverses its operands)
// or a wrong op cannot show here.
bool assert_fails(const Program& p, const Test& fails) {
  std::set<DType> dtypes;
  for (const Statement* s : p.asserts()) dtypes.insert(s->node->src[0]->dtype);
  if (dtypes.empty()) return false;
  Program probe;
  auto add = [&](const std::string& name, const UOpRef& node) {
    probe.statements.push_back({name + std::to_string(probe.statements.size()), node, 1, false});
  };
  for (DType d : dtypes) {
    Scalar zero = Scalar::zero(d);
    Scalar one = d == DType::F32    ? Scalar::of_f32(1.0f)
                 : d == DType::Bool ? Scalar::of_bool(true)
                                    : Scalar::of_i32(1);
    UOpRef a = stack({literal(one)});
    add("%fails", assert_equal(a, stack({literal(zero)})));
    add("%holds", assert_equal(a, a));
  }
  return fails(probe);
}

// Whether an engine fails `probe`, statements after `%b = buffer 4` of one of p's dtypes, and
// not because it cannot write the values out (echo_fails: a format that rounds). Asked once per
// engine (`engine` names it), probe and dtype: a shrink names every candidate.
bool buffer_probe_fails(const Program& p, const Test& fails, const std::string& engine,
                        const std::string& probe) {
  static std::map<std::tuple<std::string, std::string, DType>, bool> asked;
  std::set<DType> dtypes;
  for (const UOp* n : topo_order(p.roots())) dtypes.insert(n->dtype);
  for (DType t : dtypes) {
    auto [at, fresh] = asked.try_emplace({engine, probe, t}, false);
    if (!fresh) {
      if (at->second) return true;
      continue;
    }
    std::string text = "%b = buffer 4 dtype=" + std::string(dtype_name(t)) + " slot=0\n";
    Program q = parse_program(text + probe, "probe.uir");
    if ((at->second = fails(q) && !echo_fails(q, fails))) return true;
  }
  return false;
}

// Whether an engine fails to copy an input buffer of one of p's dtypes in a kernel of its own:
// each element loaded and stored, nothing computed. Such an engine hands its kernels the wrong
// data (a parameter numbered wrong, read from the kernel's own output), and every op that
// reads memory fails alone, as a value, a byte no kernel wrote, or C that does not compile:
// in p, or in what options or an oracle's composites make of it (a value given a kernel of
// its own), so p need not read memory itself.
bool copy_fails(const Program& p, const Test& fails, const std::string& engine) {
  return buffer_probe_fails(p, fails, engine, "%c = stage %b\n");
}

// Whether p stages a value and the engine fails to hand a staged copy to another kernel: the
// copy copied again, nothing computed. Such an engine gives every reader of a stage the wrong
// data (a stage it never writes, or writes after its readers run), so every op read from one
// fails alone, whichever op the program read it with.
bool stage_read_fails(const Program& p, const Test& fails, const std::string& engine) {
  std::vector<const UOp*> nodes = topo_order(p.roots());
  if (std::none_of(nodes.begin(), nodes.end(), [](const UOp* n) { return n->op == Op::Stage; }))
    return false;
  return buffer_probe_fails(p, fails, engine, "%s = stage %b\n%c = stage %s\n");
}

// Whether an engine fails read_twice_probe as one that remembers a value by its node does. It
// fails at whichever op of a program reads a value twice (a pad of a flip, a stack of a value
// and its shrink, an add of a reshape and its permute), so each op would name it otherwise.
// Asked once per engine (`engine` names it).
bool read_twice_fails(const Test& fails, const std::string& engine) {
  static std::map<std::string, bool> asked;
  auto [at, fresh] = asked.try_emplace(engine, false);
  if (!fresh) return at->second;
  auto fails_text = [&](const std::string& text) { return fails_on_text(fails, text); };
  const ReadTwiceProbe& probe = read_twice_probe();
  return at->second = fails_text(probe.twice) && !fails_text(probe.flip_alone) &&
                      !fails_text(probe.compare_alone);
}

// The name of op in a target signature: an engine's mod is its floor division's remainder,
// its min a max the other way round, and its != the negation of its ==, as in uopc's own
// renderer (ub-division, engines-render_minmax): one way of dividing, one of choosing, one of
// testing equality, one name each.
std::string op_family(Op op) {
  if (op == Op::Idiv || op == Op::Mod) return "division";
  if (op == Op::Max || op == Op::Min) return "minmax";
  if (op == Op::Cmpeq || op == Op::Cmpne) return "equality";
  return std::string(op_name(op));
}

// An i32 arithmetic op an engine gets wrong, alone (`first` only) or applied to another's
// result (`first` then `second`: a rewrite of the pair, as of (a + b) // c), and a program
// that shows it.
struct WrongArithmetic {
  Op first;
  std::optional<Op> second;
  Program witness;
};

// Values where ways of computing an op part: around 0 and the ends of i32, over the whole range
// and over each half (an engine may rewrite a sum by its interval, which the whole range
// leaves unknown). The divisors hold no 0, and the one -1 divides 3.
constexpr std::array<const char*, 3> kProbeValues = {
    "-2147483648 -7 -3 -2 -1 0 1 2 3 7 2147483647",
    "0 1 2 3 7 64 1000 2147483644 3 2147483646 2147483647",
    "-2147483648 -2147483647 -2147483646 -2147483645 -1000 -64 -7 -3 3 -1 0"};
constexpr const char* kProbeOperand = "3 2 -7 -3 5 -2 64 7 -1 3 -2";
constexpr std::array<int, 4> kProbeLiterals = {2, 3, 64, -3};

// Statements applying op to x and each of `operands`; returns their names.
std::vector<std::string> probe_uses(std::string& text, Op op, const std::string& x,
                                    const std::vector<std::string>& operands) {
  std::vector<std::string> names;
  for (const std::string& y : operands) {
    names.push_back(x + "_" + std::to_string(names.size()));
    text += names.back() + " = " + std::string(op_name(op)) + " " + x + " " + y + "\n";
  }
  return names;
}

// A probe of `first` (then `second` on each of its results): on each probe value, by values
// and by literals, which an engine may specialise, as C divides by a constant.
Program arithmetic_probe(Op first, std::optional<Op> second) {
  std::string text = std::string("%b = stack ") + kProbeOperand + "\n";
  std::vector<std::string> operands = {"%b"};
  for (int k : kProbeLiterals) {
    operands.push_back("%k" + std::to_string(operands.size()));
    text += operands.back() + " = expand " + std::to_string(k) + " shape=[11]\n";
  }
  for (size_t i = 0; i < kProbeValues.size(); ++i) {
    std::string a = "%a" + std::to_string(i);
    text += a + " = stack " + kProbeValues[i] + "\n";
    if (first == Op::Const) continue;
    for (const std::string& x : probe_uses(text, first, a, operands))
      if (second) probe_uses(text, *second, x, operands);
  }
  return parse_program(text, "probe.uir");
}

// The probes' operands alone (arithmetic_probe with no op), each an output as none is used.
Program probe_operands() {
  return arithmetic_probe(Op::Const, std::nullopt);
}

// The first i32 arithmetic op that fails alone on the probe values, or else the first pair of
// them, and the program that shows it; or none. An engine's index arithmetic is made of these
// ops, so a failure no node shows alone is theirs when one of them, or a rewrite of two, is
// wrong. Asked once per engine: its answers do not change during a campaign.
std::optional<WrongArithmetic> wrong_arithmetic(const std::string& engine, const Test& fails) {
  static std::map<std::string, std::optional<WrongArithmetic>> probed;
  auto [at, fresh] = probed.try_emplace(engine);
  if (!fresh) return at->second;
  // An engine that gets the operands wrong alone (a stack's select reversed) reads or writes
  // literals wrong: its arithmetic is not what the probes would show.
  if (fails(probe_operands())) return std::nullopt;
  const std::array<Op, 8> ops = {Op::Idiv, Op::Mod, Op::Max, Op::Min,
                                 Op::Add,  Op::Sub, Op::Mul, Op::Cmplt};
  for (Op op : ops)
    if (Program probe = arithmetic_probe(op, std::nullopt); fails(probe))
      return at->second = WrongArithmetic{op, std::nullopt, probe};
  for (Op first : ops) {
    if (first == Op::Cmplt) continue;  // a bool is no operand of arithmetic
    for (Op second : ops)
      if (Program probe = arithmetic_probe(first, second); fails(probe))
        return at->second = WrongArithmetic{first, second, probe};
  }
  return std::nullopt;
}

// The type rules an engine lets through (rules_let_through). Its answers do not change during
// a campaign: each worker probes it once.
bool engine_lets_through(Target& target, const std::string& text) {
  return check_target_rejects(text, "breaks a rule", target).has_value();
}

std::map<std::string, std::set<std::string>>& probed_rules() {
  static std::map<std::string, std::set<std::string>> probed;
  return probed;
}

const std::set<std::string>& rules_engine_lets_through(Target& target) {
  auto [at, fresh] = probed_rules().try_emplace(target.command());
  if (fresh)
    at->second = rules_let_through(
        [&](const std::string& text) { return engine_lets_through(target, text); });
  return at->second;
}

// Whether the engine lets any type rule through: rules_engine_lets_through(target) is not
// empty, found with the probes up to the first rule let through.
bool engine_lets_a_rule_through(Target& target) {
  if (auto at = probed_rules().find(target.command()); at != probed_rules().end())
    return !at->second.empty();
  static std::map<std::string, bool> probed;
  auto [at, fresh] = probed.try_emplace(target.command());
  if (fresh)
    at->second =
        !rules_let_through(
             [&](const std::string& text) { return engine_lets_through(target, text); }, true)
             .empty();
  return at->second;
}

// The first of the interval breakers of `alone`'s last value that the engine's checker lets
// through, as the failure that makes.
std::optional<Failure> interval_let_through(const Program& alone, Target& target,
                                            const ValueReach* reach = nullptr) {
  for (const Broken& b : interval_rule_breakers(alone, alone.statements.back(), reach))
    if (std::optional<Failure> f = check_target_rejects(b.text, breaks_rule(b), target)) return f;
  return std::nullopt;
}

// The lowest and highest value of p's last output (i32, rank 1), and where each is.
ValueReach values_reach(const Program& p) {
  Tensor t = interpret(p, {}).outputs.back().second;
  ValueReach r{{INT32_MAX, INT32_MIN}, {0}, {0}};
  for (int64_t i = 0; i < t.size(); ++i) {
    int64_t v = t.at(i).as_i32();
    if (v < r.values.lo) r.values.lo = v, r.lowest_at = {i};
    if (v > r.values.hi) r.values.hi = v, r.highest_at = {i};
  }
  return r;
}

// The ops whose interval rule an engine's checker makes too narrow, each with the first of its
// interval breakers the checker let through: each op alone on small literal operands of mixed
// signs (a pad with a fill outside them), its value's interval breakers handed to the engine,
// out of range at the values the op takes there. A checker that lets one through leaves out a
// value the op takes: its interval is wrong, not just tighter than LANGUAGE.md §5's (an
// engine that folds literals before checking knows the exact values).
// Asked once per engine: its answers do not change during a campaign. None for an engine that
// does not check the type rules at all (an adapter that trusts uopc's checks): it would let
// every interval through. That is asked only of an engine that lets an interval through, so
// that an engine that checks them all is not handed every rule's breakers too.
const std::map<Op, Failure>& narrowed_interval_ops(Target& target) {
  static std::map<std::string, std::map<Op, Failure>> probed;
  auto [at, fresh] = probed.try_emplace(target.command());
  if (!fresh) return at->second;
  const std::string operands = "%a = stack -3 2 0\n%b = stack -4 5 1\n%c = stack true false true\n";
  for (const char* value :
       {"add %a %b", "sub %a %b", "mul %a %b", "max %a %b", "min %a %b", "neg %a", "idiv %a 2",
        "mod %a 2", "where %c %a %b", "pad %a pads=[1 1] value=-9", "reduce %a op=add",
        "cast %c dtype=i32"}) {
    Program p = parse_program(operands + "%v = " + value + "\n", "probe.uir");
    ValueReach reach = values_reach(p);
    if (std::optional<Failure> f = interval_let_through(p, target, &reach))
      at->second.emplace(p.statements.back().node->op, *f);
  }
  if (!at->second.empty() && engine_lets_a_rule_through(target)) at->second.clear();
  return at->second;
}

// A failure in an engine whose checker narrows an op's interval is that interval's: the
// engine's rewrites trust it as its checker does, so whichever op shows the failure (a fused
// index, a flip of literals whose select the flipped index decides, a pad whose clamp a max
// decides and that then reads past its buffer), the offset the checker lets through is the
// same bug ("target-interval_max" for all). The op is one the program holds, if any; else the
// program holds none of the ops the name speaks of, and `witness` becomes the offset the
// checker lets through.
std::optional<std::string> narrowed_interval_cause(const Program& p, Target& target,
                                                   Failure* witness) {
  const std::map<Op, Failure>& narrowed = narrowed_interval_ops(target);
  if (narrowed.empty()) return std::nullopt;
  for (const UOp* n : topo_order(p.roots()))
    if (narrowed.count(n->op)) return "target-interval_" + std::string(op_name(n->op));
  const auto& [op, let_through] = *narrowed.begin();
  if (witness) *witness = let_through;
  return "target-interval_" + std::string(op_name(op));
}

// The first op under n, sources before users, whose interval rule the engine's checker narrows
// on the small programs (narrowed_interval_ops).
std::optional<Op> first_narrowed_op(const UOp* n, Target& target) {
  const std::map<Op, Failure>& narrowed = narrowed_interval_ops(target);
  for (const UOp* m : topo_order({shared_from(n)}))
    if (narrowed.count(m->op)) return m->op;
  return std::nullopt;
}

std::string target_signature(const Failure& f, const Program& p, Target& target, Failure* witness) {
  Target::Recall recall(target);  // the probes and nodes are asked about more than once
  std::string kind = target_kind(f);
  // Where the engine crashed is the bug, whichever op of the program led there.
  if (kind.rfind("SIG", 0) == 0 && kind.find("-in-") != std::string::npos) return "target-" + kind;
  auto fails_under = [&](const EngineConfig& c) -> Test {
    return [&, c](const Program& q) {
      std::optional<Failure> g = check_target(q, target, nullptr, c);
      return g && target_kind(*g) == kind;
    };
  };
  std::string prefix = kind == "value" ? "target-" : "target-" + kind + "-";
  // An engine that cannot echo the right values, each a one-literal stack (no op of its own
  // to get wrong), reads or prints values wrong (a format that rounds an f32): whichever op
  // made them is not the cause.
  if (kind == "value" && echo_fails(p, fails_under({}))) return prefix + "const";
  // So does one that cannot tell a failing assert from a holding one.
  if (kind == "value" && assert_fails(p, fails_under({}))) return prefix + "assert";
  // So does one that cannot copy an input buffer: it hands its kernels the wrong data.
  if (kind == "value" && copy_fails(p, fails_under({}), target.command())) return prefix + "buffer";
  if (kind == "value" && stage_read_fails(p, fails_under({}), target.command()))
    return prefix + "stage";
  // So does one that cannot read a value at two indices in one expression: every op that does
  // fails.
  if (kind == "value" && read_twice_fails(fails_under({}), target.command()))
    return prefix + "read_twice";
  // A narrower interval only lets more programs through; refusing a valid one is another bug.
  if (kind != "exit2")
    if (std::optional<std::string> cause = narrowed_interval_cause(p, target, witness))
      return *cause;
  // As for uopc's own engine (failure_signature): a failure that needs settings is the
  // settings' bug, unless a node fails alone without them.
  auto least_for = [&](const Program& q) {
    return reduce_config(q, f.config, [&](const EngineConfig& c) { return fails_under(c)(q); });
  };
  EngineConfig least = least_for(p);
  FailsWith fails_with = [&](const Program& q, const EngineConfig& c) { return fails_under(c)(q); };
  // Remembered per engine: each probe is a run of it, and a shrink names every candidate.
  static std::map<std::tuple<std::string, std::string, Op>, bool> plain_on_probes;
  auto on_probes = [&](Op op) {
    auto [it, fresh] = plain_on_probes.try_emplace({target.command(), kind, op}, false);
    if (fresh) it->second = fails_plain_on_probes(op, fails_with);
    return it->second;
  };
  std::string kinds = fewest_option_kinds(least, fails_with);
  // The engine's own i32 arithmetic, when the failure is index arithmetic and that arithmetic
  // is wrong on its probes: an engine whose sub collects a - b as a + b fails every flip and
  // pad through it, and the indices the options build (a tile's, a block's) too.
  auto arithmetic = [&]() -> std::optional<std::string> {
    if (kind != "value") return std::nullopt;
    std::optional<WrongArithmetic> wrong = wrong_arithmetic(target.command(), fails_under({}));
    if (!wrong) return std::nullopt;
    // The probes read stacks of literals, which an engine may write as selects: a select it
    // writes wrong into its readers fails them all, and is what every program shows.
    if (std::optional<Op> op = target_misfused_op({Op::Where}, target, kind, fails_under({})))
      return render_name(prefix, *op);
    if (witness)
      if (std::optional<Failure> shown = check_target(wrong->witness, target)) *witness = *shown;
    std::string name = prefix + op_family(wrong->first);
    return wrong->second ? name + "-" + op_family(*wrong->second) : name;
  };
  // An op whose rule is index arithmetic: a movement op, a stack's select, a reduce's walk.
  auto indexes = [](Op op) { return is_movement(op) || op == Op::Stack || op == Op::Reduce; };
  // A black box may go wrong only on some values (a NaN, a -0): a node is also tried alone on
  // the values its sources had in the failing program.
  if (!kinds.empty()) {
    // The options are those the op where the failure shows needs computed alone: what else the
    // program holds (a thread loop that gives a reduce a kernel of its own) is not the bug.
    Test plain = fails_under({});
    KindsOf kinds_of = [&](const Program& alone) {
      return fewest_option_kinds(least_for(alone), fails_with);
    };
    std::optional<Located> at = localize(p, fails_under(f.config), &plain, &kinds_of, true);
    if (!at || at->fused || indexes(at->op))
      if (std::optional<std::string> name = arithmetic()) return *name;
    if (at && (at->fails_plain || on_probes(at->op))) return prefix + op_family(at->op);
    return prefix + (at && !at->kinds.empty() ? at->kinds : kinds);
  }
  std::optional<Located> at = localize(p, fails_under(least), nullptr, nullptr, true);
  if (!at) return by_outputs(f, p);
  if (at->fused || indexes(at->op))
    if (std::optional<std::string> name = arithmetic()) return *name;
  // As misfused_op for uopc's own engine: an op the engine writes wrong into its readers is
  // the cause, whichever reader showed it, and whether the failure needed the ops fused or
  // showed at an op that reads a value the engine wrote as an expression (a stack of literals).
  // A stack's and a pad's select is a where in any lowering, read by the op that showed it (a
  // reduce's fold of a stack).
  if (at->fused || is_alu(at->op)) {
    std::vector<Op> ops = at->fused ? at->ops : std::vector{at->op};
    std::vector<const UOp*> nodes = topo_order(p.roots());
    if (std::any_of(nodes.begin(), nodes.end(),
                    [](const UOp* n) { return n->op == Op::Stack || n->op == Op::Pad; }))
      ops.push_back(Op::Where);
    if (std::optional<Op> op = target_misfused_op(ops, target, kind, fails_under({})))
      return render_name(prefix, *op);
  }
  if (kind == "value") at->op = own_rule_op(*at, on_probes);
  return prefix + op_family(at->op);
}

// Whether a wrongly accepted program breaks an interval rule: as the generator says when it
// broke one, or as uopc's refusal of a reproducer says (`uopc fuzz --check`, where the
// generator's words are gone), so that both name it alike.
bool breaks_an_interval(const Failure& f) {
  for (const char* words : {" interval high end rule", " interval low end rule",
                            " is unprovable: interval analysis bounds it to "})
    if (f.detail.find(words) != std::string::npos) return true;
  return false;
}

namespace {

// The program a breaker was built on: the text without the breaker's lines (`%broken...`).
std::optional<Program> valid_part(const std::string& text) {
  std::istringstream lines(text);
  std::string valid_text;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("%broken", 0) != 0) valid_text += line + "\n";
  try {
    return parse_program(valid_text, "valid.uir");
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool lets_through(const Program& p, const UOpRef& n, Target& target) {
  return interval_let_through(single_output(p, n), target).has_value();
}

// The op whose rule narrows n's interval, given that n's breakers are let through. A reduce's
// interval folds its op's rule over the steps (as bounds_cause): when the steps written out as
// that op are let through too, the op's rule is the narrow one. A node whose breakers are no
// longer let through once it reads its operands' own values (whose intervals are exact) only
// inherits a narrowing (a stack of a max whose own interval the checker makes empty, and so
// refuses alone): its subgraph's first op whose rule the checker narrows on the small programs.
Op narrowing_op(const Program& p, const UOp* n, Target& target) {
  UOpRef steps = n->op == Op::Reduce && n->dtype == DType::I32 ? fold_steps(*n) : nullptr;
  Op op = steps && lets_through(p, steps, target) ? n->reduce_op() : n->op;
  UOpRef own = with_own_values(*n, {});
  if (own && own != shared_from(n) && !lets_through(p, own, target))
    if (std::optional<Op> narrowed = first_narrowed_op(n, target)) return *narrowed;
  return op;
}

struct Narrowed {
  const UOp* node;  // the first whose breakers are let through
  Op op;            // the op whose rule it is
};

std::optional<Narrowed> first_narrowed(const Program& valid, Target& target) {
  for (const UOp* n : topo_order(valid.roots()))
    if (n->op != Op::Const && n->op != Op::Buffer && lets_through(valid, shared_from(n), target))
      return Narrowed{n, narrowing_op(valid, n, target)};
  return std::nullopt;
}

// The program f's breaker was built on, and where its narrowing is, when f breaks an interval.
std::optional<std::pair<Program, Narrowed>> narrowed_in(const Failure& f, Target& target) {
  std::optional<Program> valid = breaks_an_interval(f) ? valid_part(f.program) : std::nullopt;
  std::optional<Narrowed> at = valid ? first_narrowed(*valid, target) : std::nullopt;
  if (!at) return std::nullopt;
  return std::make_pair(std::move(*valid), *at);
}

}  // namespace

// A value's interval that the engine's checker makes too narrow (an interval breaker it lets
// through) is the interval rule's of one op in the value's subgraph: the first node, sources
// before users, whose own interval breakers it lets through ("interval_pad"), unless that node
// only inherits it (narrowing_op). The value's other ops only inherit the narrowing, and
// whether it showed at the high end or the low end is the program's chance, not another bug.
std::optional<std::string> narrowed_interval(const Failure& f, Target& target) {
  std::optional<std::pair<Program, Narrowed>> at = narrowed_in(f, target);
  if (!at) return std::nullopt;
  return "interval_" + std::string(op_name(at->second.op));
}

std::optional<Failure> smaller_interval_breaker(const Failure& f, Target& target,
                                                const Bounded& bounded) {
  // named by the rules it lets through, as target_rejection_signature names it
  if (!rules_engine_lets_through(target).empty()) return std::nullopt;
  std::optional<std::pair<Program, Narrowed>> found = narrowed_in(f, target);
  if (!found) return std::nullopt;
  const Program& valid = found->first;  // (not a structured binding: the lambda captures it)
  const Narrowed& at = found->second;
  // A candidate keeps the failure when its last value's breakers are let through, narrowed by
  // the same op; which node is the first to be so is asked of the result alone (each node asked
  // is a run of the engine per breaker).
  Interesting same = [&](const std::string& text) {
    Program q;
    try {
      q = parse_program(text, "candidate.uir");
    } catch (const std::exception&) {
      return false;
    }
    if (q.statements.empty()) return false;
    const UOpRef& last = q.statements.back().node;
    return lets_through(q, last, target) && narrowing_op(q, last.get(), target) == at.op;
  };
  Reduced small = reduce_program(single_output(valid, shared_from(at.node)), bounded(same));
  Program q = parse_program(small.text, "reduced.uir");
  std::optional<Narrowed> again = first_narrowed(q, target);
  if (!again || again->op != at.op) return std::nullopt;
  return interval_let_through(single_output(q, shared_from(again->node)), target);
}

std::string target_rejection_signature(const Failure& f, Target& target) {
  const std::set<std::string>& let_through = rules_engine_lets_through(target);
  // A checker that lets rules through on the probes is named by them; one that checks them
  // all there and still lets a value's interval through has an interval rule wrong.
  if (let_through.empty())
    if (std::optional<std::string> op = narrowed_interval(f, target)) return "target-" + *op;
  return by_rule("target-rejection", f, let_through);
}

namespace {

std::string signature_by_cause(const Failure& f, const Program& p, Backend& backend,
                               const EngineConfig& config, const EngineConfig& least) {
  if (f.oracle == "rejection") return by_rule("rejection", f, rules_not_checked());
  // The bounds oracle names the op whose interval rule is wrong: "bounds-pad".
  if (f.oracle == "bounds") return bounds_cause(f, p);
  // The symbolic oracle's detail begins with the cause, when one is found: "div_div: ...",
  // "interval of max: ...".
  if (f.oracle == "symbolic") return cause_signature(f.detail.substr(0, f.detail.find(':')));
  std::string family = oracle_family(f.oracle);
  // A literal that does not print back to itself, whichever op holds it (check_roundtrip).
  if (family == "roundtrip" && f.detail.rfind(kLiteralRoundtrip, 0) == 0) return "roundtrip-const";
  // Literals the printer should not have inlined, whichever ops read them.
  if (family == "roundtrip" && f.detail.rfind(kLiteralOperands, 0) == 0)
    return "roundtrip-literal_operands";
  // A node that does not print back to itself alone, whichever program holds it: "roundtrip-pad".
  if (family == "roundtrip" && f.detail.rfind(kNodeRoundtrip, 0) == 0) {
    size_t start = std::string(kNodeRoundtrip).size();
    return "roundtrip-" + f.detail.substr(start, f.detail.find(' ', start) - start);
  }
  // The ub oracle names the C operator whose decision broke, which is the cause wherever the
  // operator sat (an index of a flip, a user's mod): "ub-sub"; idiv and mod share one decision.
  // The detail is "[with scrambled inputs: |in the compiled composites: ]kernelK: OP of A ...".
  if (family == "ub") {
    size_t of = f.detail.find(" of ");
    size_t at = of == std::string::npos ? of : f.detail.rfind(' ', of - 1);
    std::string op = of == std::string::npos   ? ""
                     : at == std::string::npos ? f.detail.substr(0, of)
                                               : f.detail.substr(at + 1, of - at - 1);
    if (op == "idiv" || op == "mod") op = "division";
    if (!op.empty()) return "ub-" + op;
  }
  // A failure the renderer's way of writing an op causes is that decision's, wherever the op
  // sat (an index clamp, a user's max, a reduce's fold): "engines-render_minmax".
  if (family == "engines")
    if (std::optional<std::string> d = render_decision(p, backend, config))
      return "engines-render_" + *d;

  if (family != "engines" && family != "ub" && family != "roundtrip") return by_outputs(f, p);
  // A failure that needs kernel options is the options' bug, whichever op shows it, unless the
  // op where it shows fails without them too once computed alone: then the op's rule is wrong,
  // and the options only exposed it in this program.
  // The options are those the op needs computed alone, when it fails alone: what else the
  // program does (a thread loop that gives a reduce a kernel of its own, say) is not the bug.
  // Localized under the least settings the failure needs: a setting it does not need may hide
  // what a probe would show (a table=N that turns the probes' literal stacks into tables, whose
  // flat index puts a stray index back in range).
  // The cost oracle counts reduce loops, and only a reduce's lowering makes one: a cost
  // failure no node shows alone, found where the paths into a reduce's loops join (a sub of
  // two reduces recomputed in the loop that reads it), is that reduce's.
  auto op_at = [&](const Located& at) {
    bool reduce_loops = f.oracle == "cost" && at.fused && at.op != Op::Reduce;
    return family + "-" + std::string(op_name(reduce_loops ? Op::Reduce : at.op));
  };
  if (family != "roundtrip") {
    FailsWith fails_with = [&](const Program& q, const EngineConfig& c) {
      return failure_in_family(family, q, backend, c).has_value();
    };
    KindsOf kinds_of = [&](const Program& q) {
      return fewest_option_kinds(least_config(family, q, backend, config), fails_with);
    };
    std::string kinds = fewest_option_kinds(least, fails_with);
    if (!kinds.empty()) {
      std::optional<Located> at = culprit(family, p, backend, config, true, &kinds_of);
      if (at && (at->fails_plain || own_engine_fails_on_probes(family, at->op, backend)))
        return op_at(*at);
      return family + "-" + (at && !at->kinds.empty() ? at->kinds : kinds);
    }
  }
  std::optional<Located> at = culprit(family, p, backend, least);
  if (!at) return by_outputs(f, p);
  if (family != "roundtrip")
    at->op =
        own_rule_op(*at, [&](Op op) { return own_engine_fails_on_probes(family, op, backend); });
  return op_at(*at);
}

}  // namespace

namespace {

// The op whose interval rule is wrong, when a value of p leaves its node's interval ("bounds-
// max"). The simplifier's side conditions, the renderer's overflow decisions and the checker's
// shrink rule all trust intervals, so one wrong rule shows as wrong values, overflows and
// stray reads at whatever op relied on it; the interval is the cause.
std::optional<std::string> interval_cause(const Program& p) {
  if (std::optional<Failure> b = check_bounds(p)) return bounds_cause(*b, p);
  return std::nullopt;
}

}  // namespace

namespace {

// Where an exception the engines oracle caught was raised, as its message says first: the
// pass whose own check fired ("threw: linearize: range 0 is never closed by an end" is
// "linearize"), or the library function that refused ("vector"). nullopt for other failures,
// and for the interpreter's refusals.
std::optional<std::string> thrown_by(const Failure& f) {
  if (f.oracle != "engines") return std::nullopt;
  std::optional<std::string> where = throw_site(f);
  // The interpreter refusing an index the type rules let through is the reference refusing its
  // input, which the analyses of a wrong interval explain, not a pass's invariant.
  if (where == "interp") return std::nullopt;
  return where;
}

}  // namespace

namespace {

std::string signature_named(const Failure& f, const Program& p, Backend& backend,
                            const EngineConfig& config) {
  if (std::optional<std::string> own = interpreter_invariant(f)) return *own;
  std::string family = oracle_family(f.oracle);
  bool own_engine =
      family == "engines" || family == "ub" || family == "crash" || family == "timeout";
  // An interval the program's values, its kernels' values or the values its rewrites looked at
  // leave is the cause of whatever trusted it.
  if (own_engine && !p.statements.empty())
    if (std::optional<std::string> cause = interval_cause(p)) return *cause;
  // An op the interpreter and the constant folder (eval_scalar) compute differently on the
  // program's own values is the op's semantics, wrong in one of them: every rule, option and op
  // that passed the folded value on would otherwise name it ("symbolic-fold_constants",
  // "engines-upcast", "symbolic-combine_terms" for one wrong cast).
  if (family == "engines" && !p.statements.empty())
    if (std::optional<Op> op = misfolded_op(p)) return "engines-" + std::string(op_name(*op));
  // An engine that cannot copy an input buffer in a kernel hands every kernel the wrong data,
  // whichever op reads it: "engines-buffer", as when a bare input fails (localize).
  auto copy_fails_here = [&](const Program& q) {
    std::optional<Failure> g = check_engines(q, backend);
    return g && oracle_family(g->oracle) == family;
  };
  // One that cannot even return literals, each in a one-literal stack (nothing computed, no
  // input read), fails whatever the program's ops: "engines-echo", named by that probe, not by
  // an op (its smallest reproducer may hold no literal: a bare buffer fails too). Its copy
  // fails too, so it is asked first.
  if (family == "engines" && echo_fails(p, copy_fails_here)) return "engines-echo";
  // One that cannot tell a failing assert from a holding one reports every program's asserts
  // wrong, whichever ops compute their operands.
  if (family == "engines" && assert_fails(p, copy_fails_here)) return "engines-assert";
  // (uopc's engine is the same one whichever backend compiles it; the plant changes it)
  std::string this_engine = "uopc " + std::string(plant_name(active_plant()));
  if (family == "engines" && copy_fails(p, copy_fails_here, this_engine)) return "engines-buffer";
  // A stage never written shows as whatever its garbage does to its readers: a wrong value, or
  // an overflow.
  auto any_failure = [&](const Program& q) { return check_engines(q, backend).has_value(); };
  if ((family == "engines" || family == "ub") && stage_read_fails(p, any_failure, this_engine))
    return "engines-stage";
  if (family == "engines" && read_twice_fails(copy_fails_here, this_engine))
    return "engines-read_twice";
  if (std::optional<std::string> cause = composite_cause(f, backend)) return *cause;
  // An internal error is named by where it was raised, as a crash is by its site: a pass whose
  // invariant a broken rewrite breaks throws for whichever op reaches it first.
  // An exception a pass raised is named by the pass. C the compiler refuses is the C some op
  // is written as, found below as a wrong value's op is: one written wrong into its reader ("a
  // - -b" as "a--b"), or the op localized (a table whose initializer is not constant: stack).
  if (std::optional<std::string> where = thrown_by(f))
    if (f.detail.rfind("threw: " + *where + " failed", 0) != 0) return "engines-threw-" + *where;
  bool localized = family == "engines" || family == "ub";
  EngineConfig least = localized ? least_config(family, p, backend, config) : config;
  if (localized) {
    // An op written wrong into its readers' expressions is the renderer's way of writing it,
    // whichever reader showed the wrong C: a compare whose bool is neither 0 nor 1, an i32
    // outside its reader's interval, an overflow, a rule that rewrote the reader.
    if (std::optional<Op> op = misfused_op(p, backend, least)) return render_name("engines-", *op);
    if (auto cause = kernel_interval_cause(p, backend, least)) return *cause;
    std::vector<RewriteStep> steps = failing_steps(family, p, backend, least);
    if (auto cause = rewritten_interval_cause(steps)) return *cause;
    // A failure that goes away once a simplifier rule is set aside, where that rule made a
    // step z3 refutes, is the rule's, whichever op the wrong value reached:
    // "symbolic-compare_by_bounds" for a pad's mask, a stack's select or an upcast's index.
    std::vector<std::string> fixing = rules_fixing(steps, family, p, backend, least);
    if (auto cause = refuted_cause(steps, fixing)) return *cause;
    // A rule that fixes the failure only by not shaping what a refuted one then rewrote (a
    // distribute before a combine_terms that collects a - b the wrong way round, which other
    // rules share) is no cause: the refuted rules, set aside together, are.
    if (!fixing.empty())
      if (auto cause = refuted_cause(steps, refuted_together(steps, family, p, backend, least)))
        return *cause;
  }
  std::string signature = signature_by_cause(f, p, backend, config, least);
  // A wrong value an arithmetic op shows, on the plain lowering, that goes away once one
  // simplifier rule is set aside is that rule's even when no step of it is refuted on its own
  // (its leaves' bounds too loose for z3): "symbolic-divmod_split". Not for other ops, nor
  // memory or cost failures: setting a rule aside also changes which indices wrap and which
  // loops an option can split, and can hide a movement op's or an option's bug.
  std::optional<Op> op =
      signature.rfind("engines-", 0) == 0 ? parse_op(signature.substr(8)) : std::nullopt;
  if (f.oracle != "engines" || !op || !(is_alu(*op) || *op == Op::Cast)) return signature;
  if (!failure_in_family("engines", p, backend, {})) return signature;
  // An op whose helper is wrong is wrong whatever the rules made of its operands (one that
  // names an operand, where C writes the op inline, hides it).
  if (helper_fails(*op, backend)) return signature;
  std::optional<std::string> rule = rule_at_fault("engines", p, backend, {});
  return rule ? "symbolic-" + *rule : signature;
}

// A rule refuted in a failure may be wrong through a helper another rule shares (a linear form
// both combine_terms and divmod_split build on): which of them a program shows depends on the
// program. The rules refuted on the same drawn expressions are taken as one bug, named by the
// rule most of the first probes refute (of equals, the first by name); a rule no probe refutes,
// or refuted alone, keeps its name.
std::string shared_helper_rule(const std::string& signature) {
  static const std::string kSymbolic = "symbolic-";
  if (signature.rfind(kSymbolic, 0) != 0) return signature;
  std::string rule = signature.substr(kSymbolic.size());
  const ProbeRefutations& r = probe_refutations(rule);
  if (!r.seen.count(rule)) return signature;
  auto count = [&](const std::string& name) {
    auto at = r.counted.find(name);
    return at == r.counted.end() ? 0 : at->second;
  };
  std::string most = rule;
  for (const std::string& name : r.seen)  // by name
    if (count(name) > count(most) || (count(name) == count(most) && name < most)) most = name;
  return kSymbolic + most;
}

}  // namespace

std::string failure_signature(const Failure& f, const Program& p, Backend& backend,
                              const EngineConfig& config) {
  SymbolicBudget budget(kTriageTimeoutMs);
  CompileMemo memo;  // the probes compile the same programs under several settings
  return shared_helper_rule(signature_named(f, p, backend, config));
}

bool fails_own_probes(Op op, Backend& backend) {
  return own_engine_fails_on_probes("engines", op, backend);
}

std::vector<Op> signature_ops(const std::string& signature) {
  std::vector<Op> ops;
  for (size_t at = 0; at <= signature.size();) {
    size_t end = signature.find_first_of("-+", at);
    if (end == std::string::npos) end = signature.size();
    std::optional<Op> op = parse_op(signature.substr(at, end - at));
    if (op) ops.push_back(*op);
    at = end + 1;
  }
  return ops;
}

}  // namespace uopc

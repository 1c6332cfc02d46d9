#include "interp/interp.h"

#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "interp/elementwise.h"
#include "interp/movement.h"
#include "ir/arena.h"
#include "ir/error.h"

namespace uopc {
namespace {

using Values = std::unordered_map<const UOp*, Tensor>;

int64_t scalar_i32(const Values& v, const UOpRef& node) {
  return v.at(node.get()).at(0).as_i32();
}

std::vector<int64_t> scalars(const Values& v, const std::vector<UOpRef>& src, size_t from) {
  std::vector<int64_t> out;
  for (size_t i = from; i < src.size(); ++i) out.push_back(scalar_i32(v, src[i]));
  return out;
}

Tensor literal_tensor(Scalar s) {
  switch (s.dtype) {
    case DType::Bool:
      return make_tensor(Array<bool>(s.as_bool()));
    case DType::I32:
      return make_tensor(Array<int32_t>(s.as_i32()));
    case DType::F32:
      return make_tensor(Array<float>(s.as_f32()));
  }
  return {};
}

class Evaluator {
 public:
  explicit Evaluator(const InterpOptions& o) : o_(o) {}

  Tensor buffer(const UOp& n) {
    auto it = o_.inputs.find(n.slot());
    if (it == o_.inputs.end()) return default_input(n.dtype, n.shape[0], n.slot());
    const Tensor& in = it->second.value;
    if (in.dtype() != n.dtype || in.size() != n.shape[0])
      throw UserError(Location{it->second.source},
                      "input for slot " + std::to_string(n.slot()) + " holds " + type_string(in) +
                          ", but the program reads it as buffer " +
                          std::string(dtype_name(n.dtype)) + shape_str(n.shape));
    return interp::eval_reshape(in, n.shape);
  }

  Tensor eval(const UOp& n, const Values& v) {
    // xtensor's views compute offsets from the null data pointer of an empty array, which is
    // undefined behaviour; an empty result needs no computing anyway.
    if (n.numel() == 0 && n.op != Op::Buffer) return empty_tensor(n.dtype, n.shape);
    auto arg = [&](size_t i) -> const Tensor& { return v.at(n.src[i].get()); };
    switch (n.op) {
      case Op::Buffer:
        return buffer(n);
      case Op::Const:
        return literal_tensor(n.value);
      case Op::Stack: {
        std::vector<const Tensor*> parts;
        for (const UOpRef& s : n.src) parts.push_back(&v.at(s.get()));
        return interp::eval_stack(parts);
      }
      case Op::Index:
        return interp::eval_index(arg(0), scalars(v, n.src, 1));
      case Op::Stage:
        return arg(0);
      case Op::Reshape:
        return interp::eval_reshape(arg(0), n.shape);
      case Op::Permute:
        return interp::eval_permute(arg(0), n.arg);
      case Op::Expand:
        return interp::eval_expand(arg(0), n.shape);
      case Op::Shrink:
        return interp::eval_shrink(arg(0), scalars(v, n.src, 1), n.shape);
      case Op::Pad:
        return interp::eval_pad(arg(0), n.arg, n.value);
      case Op::Flip:
        return interp::eval_flip(arg(0), n.arg);
      case Op::Reduce:
        return interp::eval_reduce(arg(0), n.reduce_op(), n.pop(), unroll_of(n));
      case Op::Cast:
        return interp::eval_cast(arg(0), n.dtype);
      case Op::Where:
        return interp::eval_where(arg(0), arg(1), arg(2));
      case Op::Assert:
        throw std::logic_error("interp: assert evaluated as a value");
      default:
        break;
    }
    if (op_kind(n.op) == OpKind::Unary) return interp::eval_unary(n.op, arg(0));
    return interp::eval_binary(n.op, arg(0), arg(1));
  }

  // eval, held to the node's type: an evaluation that returns another dtype or shape is a bug
  // of the interpreter's own, named by the op it evaluated, where every reader of the value
  // would otherwise show it differently.
  Tensor value(const UOp& n, const Values& v) {
    Tensor t = eval(n, v);
    if (t.dtype() == n.dtype && t.has_shape(n.shape)) return t;
    throw std::logic_error("interp_" + std::string(op_name(n.op)) + ": computed " + type_string(t) +
                           " for a value of type " + std::string(dtype_name(n.dtype)) +
                           shape_str(n.shape));
  }

  std::string check(const UOp& n, const Values& v) {
    const Tensor& a = v.at(n.src[0].get());
    const Tensor& b = v.at(n.src[1].get());
    int64_t at = first_difference(a, b);
    if (at < 0) return {};
    return "first difference at " + index_string(a.shape(), at) + ": " + format_element(a.at(at)) +
           " vs " + format_element(b.at(at));
  }

 private:
  int64_t unroll_of(const UOp& n) const {
    auto it = o_.unrolled.find(&n);
    return it == o_.unrolled.end() ? 1 : it->second;
  }

  const InterpOptions& o_;
};

}  // namespace

InterpResult interpret(const Program& p, const InterpOptions& options) {
  check_value_sizes(p, options.max_elements);
  std::vector<UOpRef> roots = p.roots();
  std::vector<const UOp*> order = topo_order(roots);
  Arena arena;
  std::pmr::unordered_map<const UOp*, int64_t> users(&arena);
  for (const UOp* n : order)
    for (const UOpRef& s : n->src) ++users[s.get()];
  std::pmr::unordered_set<const UOp*> keep(&arena);
  for (const UOpRef& r : roots) keep.insert(r.get());

  Evaluator ev(options);
  Values values;
  std::pmr::unordered_map<const UOp*, std::string> checks(&arena);
  for (const UOp* n : order) {
    if (n->op == Op::Assert)
      checks.emplace(n, ev.check(*n, values));
    else
      values.emplace(n, ev.value(*n, values));
    for (const UOpRef& s : n->src)
      if (--users[s.get()] == 0 && !keep.count(s.get())) values.erase(s.get());
  }

  InterpResult result;
  for (const Statement* s : p.outputs()) result.outputs.emplace_back(s, values.at(s->node.get()));
  for (const Statement* s : p.asserts()) {
    const std::string& detail = checks.at(s->node.get());
    if (!detail.empty()) result.failures.push_back({s, detail});
  }
  return result;
}

std::unordered_map<const UOp*, Tensor> node_values(const std::vector<UOpRef>& roots,
                                                   const InterpOptions& options) {
  std::vector<const UOp*> order = topo_order(roots);
  int64_t largest = 0;
  for (const UOp* n : order) largest = std::max(largest, n->numel());
  if (largest > options.max_elements)
    throw UserError("a value has " + std::to_string(largest) + " elements, above the limit of " +
                    std::to_string(options.max_elements));
  Evaluator ev(options);
  Values values;
  for (const UOp* n : order)
    if (n->op != Op::Assert) values.emplace(n, ev.value(*n, values));
  return values;
}

std::string format_output(const std::string& name, const Tensor& t, int64_t limit) {
  return name + " " + type_string(t) + " = " + format_value(t, limit);
}

std::string assert_verdict(const InterpResult& r, const std::string& name) {
  for (const AssertFailure& f : r.failures)
    if (f.statement->name == name) return "fails, " + f.detail;
  return "holds";
}

std::optional<InterpOptions> scrambled_options(const Program& p, InterpOptions options) {
  bool repeats = false;
  for (const UOp* n : topo_order(p.roots())) {
    if (n->op != Op::Buffer || options.inputs.count(n->slot())) continue;
    repeats = repeats || n->shape[0] > kDefaultPeriod;
    options.inputs[n->slot()] =
        Input{"scrambled", scrambled_input(n->dtype, n->shape[0], n->slot())};
  }
  if (!repeats) return std::nullopt;
  return options;
}

}  // namespace uopc

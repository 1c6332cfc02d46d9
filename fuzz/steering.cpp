#include "fuzz/steering.h"

#include <cmath>
#include <cstdlib>

#include "interp/interp.h"
#include "ir/error.h"

namespace uopc {
namespace {

constexpr int64_t kIntLimit = int64_t{1} << 15;

struct ValueClass {
  bool Steering::*allowed;
  const char* flag;
  const char* what;
};

const ValueClass kClasses[] = {
    {&Steering::nan, "--no-nan", "is NaN"},
    {&Steering::inf, "--no-inf", "is infinite"},
    {&Steering::signed_zero, "--no-signed-zero", "is -0"},
    {&Steering::int_extremes, "--no-int-extremes", "is beyond 2^15 in magnitude"},
    {&Steering::zero_divisor, "--no-zero-divisor", "divides by 0"},
};

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  for (size_t at = 0; at <= text.size();) {
    size_t end = std::min(text.find(',', at), text.size());
    if (end > at) out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

std::set<Op> parse_ops(const std::string& flag, const std::string& text) {
  std::set<Op> out;
  for (const std::string& name : split_list(text)) {
    std::optional<Op> op = parse_op(name);
    if (!op || *op == Op::Const)
      throw UserError(flag + ": no op named '" + name + "' (ops are named as in .uir files)");
    out.insert(*op);
  }
  return out;
}

std::set<DType> parse_dtypes(const std::string& text) {
  std::set<DType> out;
  for (const std::string& name : split_list(text)) {
    std::optional<DType> d = parse_dtype(name);
    if (!d) throw UserError("--dtypes: no dtype named '" + name + "' (bool, i32, f32)");
    out.insert(*d);
  }
  if (out.empty()) throw UserError("--dtypes: name at least one dtype");
  return out;
}

std::string join(const std::set<Op>& ops) {
  std::string out;
  for (Op op : ops) out += (out.empty() ? "" : ",") + std::string(op_name(op));
  return out;
}

// Which class an element breaks, if any.
const ValueClass* element_class(const Scalar& v, const Steering& s) {
  if (v.dtype == DType::F32) {
    float f = v.as_f32();
    if (!s.nan && std::isnan(f)) return &kClasses[0];
    if (!s.inf && std::isinf(f)) return &kClasses[1];
    if (!s.signed_zero && f == 0 && std::signbit(f)) return &kClasses[2];
  }
  if (v.dtype == DType::I32 && !s.int_extremes && std::llabs(v.as_i32()) > kIntLimit)
    return &kClasses[3];
  return nullptr;
}

// An i32 add or mul reduce whose running result leaves 2^15 may wrap before it comes back.
bool partial_results_in_range(const UOp& n, const Tensor& x) {
  if (n.dtype != DType::I32 || (n.reduce_op() != Op::Add && n.reduce_op() != Op::Mul)) return true;
  int64_t outer = 1, inner = 1;
  Shape shape = x.shape();
  for (size_t k = 0; k < shape.size(); ++k)
    (static_cast<int>(k) < n.pop() ? outer : inner) *= shape[k];
  for (int64_t j = 0; j < inner; ++j) {
    int64_t acc = n.reduce_op() == Op::Add ? 0 : 1;
    for (int64_t q = 0; q < outer; ++q) {
      int64_t v = x.at(q * inner + j).as_i32();
      acc = n.reduce_op() == Op::Add ? acc + v : acc * v;
      if (std::llabs(acc) > kIntLimit) return false;
    }
  }
  return true;
}

std::string structural_violation(const UOp& n, const Steering& s) {
  if (n.op != Op::Const && !s.allows(n.op)) {
    bool excluded = s.excluded.count(n.op) > 0;
    return std::string(op_name(n.op)) +
           (excluded ? " is excluded by --exclude-ops" : " is not among --ops " + join(s.ops));
  }
  if (n.op != Op::Assert && !s.allows(n.dtype))
    return "a " + std::string(op_name(n.op)) + " of dtype " + std::string(dtype_name(n.dtype)) +
           " is not among --dtypes";
  if (n.op != Op::Assert && n.rank() > s.max_rank)
    return "a " + std::string(op_name(n.op)) + " of rank " + std::to_string(n.rank()) +
           " is above --max-rank " + std::to_string(s.max_rank);
  return "";
}

std::string value_violation(const UOpRef& root, const std::vector<const UOp*>& order,
                            const Steering& s) {
  for (const UOp* n : order)
    if (const ValueClass* c = n->op == Op::Const ? element_class(n->value, s) : nullptr)
      return std::string("a literal ") + c->what + " (" + c->flag + ")";
  std::unordered_map<const UOp*, Tensor> value = node_values({root});
  for (const UOp* node : order) {
    if (node->op == Op::Assert || node->op == Op::Const) continue;
    const UOp& n = *node;
    const Tensor& t = value.at(node);
    std::string op(op_name(n.op));
    for (int64_t k = 0; k < t.size(); ++k)
      if (const ValueClass* c = element_class(t.at(k), s))
        return "a value of " + op + " " + c->what + " (" + c->flag + ")";
    if (!s.int_extremes && n.op == Op::Reduce &&
        !partial_results_in_range(n, value.at(n.src[0].get())))
      return "a partial result of " + op + " is beyond 2^15 in magnitude (--no-int-extremes)";
    if (!s.zero_divisor && (n.op == Op::Idiv || n.op == Op::Mod)) {
      const UOp& divisor = *n.src[1];
      bool zero = false;
      for (int64_t k = 0; k < value.at(&divisor).size(); ++k)
        zero |= value.at(&divisor).at(k).as_i32() == 0;
      if (zero) return op + " divides by 0 (--no-zero-divisor)";
    }
  }
  return "";
}

}  // namespace

bool Steering::allows(Op op) const {
  return !excluded.count(op) && (ops.empty() || ops.count(op));
}

bool Steering::allows(const Scalar& v) const {
  return element_class(v, *this) == nullptr;
}

bool Steering::allows(DType d) const {
  return dtypes.empty() || dtypes.count(d);
}

bool Steering::is_default() const {
  return ops.empty() && excluded.empty() && dtypes.empty() && max_rank == kMaxRank &&
         !limits_values();
}

std::string Steering::flags() const {
  std::string out;
  auto add = [&](const std::string& flag) { out += (out.empty() ? "" : " ") + flag; };
  if (!ops.empty()) add("--ops " + join(ops));
  if (!excluded.empty()) add("--exclude-ops " + join(excluded));
  if (!dtypes.empty()) {
    std::string names;
    for (DType d : dtypes) names += (names.empty() ? "" : ",") + std::string(dtype_name(d));
    add("--dtypes " + names);
  }
  if (max_rank != kMaxRank) add("--max-rank " + std::to_string(max_rank));
  for (const ValueClass& c : kClasses)
    if (!(this->*c.allowed)) add(c.flag);
  return out;
}

Steering parse_steering(const std::vector<std::string>& words, std::vector<std::string>* rest) {
  Steering s;
  for (size_t k = 0; k < words.size(); ++k) {
    std::string flag = words[k], value;
    size_t eq = flag.find('=');
    bool takes_value = false;
    for (const char* f : {"--ops", "--exclude-ops", "--dtypes", "--max-rank"})
      if (flag.substr(0, eq) == f) takes_value = true;
    if (takes_value) {
      if (eq != std::string::npos) {
        value = flag.substr(eq + 1);
        flag = flag.substr(0, eq);
      } else if (k + 1 < words.size()) {
        value = words[++k];
      } else {
        throw UserError(flag + " needs a value");
      }
    }
    bool known = true;
    if (flag == "--ops") {
      s.ops = parse_ops(flag, value);
    } else if (flag == "--exclude-ops") {
      s.excluded = parse_ops(flag, value);
    } else if (flag == "--dtypes") {
      s.dtypes = parse_dtypes(value);
    } else if (flag == "--max-rank") {
      char* end = nullptr;
      long r = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end || r < 1 || r > kMaxRank)
        throw UserError("--max-rank takes 1 to 8 (buffers and stacks have rank 1), not '" + value +
                        "'");
      s.max_rank = static_cast<int>(r);
    } else {
      known = false;
      for (const ValueClass& c : kClasses)
        if (flag == c.flag) s.*c.allowed = false, known = true;
    }
    if (!known && rest) rest->push_back(words[k]);
    if (!known && !rest) throw UserError("unknown steering flag '" + flag + "'");
  }
  if (!s.allows(Op::Buffer) && !s.allows(Op::Stack))
    throw UserError("--ops/--exclude-ops: programs need buffer or stack to start from");
  return s;
}

std::string steering_violation(const UOpRef& node, const Steering& s) {
  std::vector<const UOp*> order = topo_order({node});
  for (const UOp* n : order)
    if (std::string why = structural_violation(*n, s); !why.empty()) return why;
  if (!s.limits_values()) return "";
  return value_violation(node, order, s);
}

std::string steering_violation(const Program& p, const Steering& s) {
  for (const UOpRef& root : p.roots())
    if (std::string why = steering_violation(root, s); !why.empty()) return why;
  return "";
}

}  // namespace uopc

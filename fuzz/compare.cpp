#include "fuzz/compare.h"

#include <algorithm>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <sstream>

#include "ir/build.h"
#include "ir/error.h"

namespace uopc {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kEps = 1.0 / (1 << 23);          // 2^-23, LANGUAGE.md §7's unit for reductions
constexpr double kTiny = 1.4012984643248171e-45;  // 2^-149: a rounding among subnormals

using Errors = std::vector<double>;

// The gap to the next float away from zero: one ulp of r.
double ulp(double r) {
  float a = static_cast<float>(std::fabs(r));
  if (!std::isfinite(a)) return kInf;
  return static_cast<double>(std::nextafter(a, std::numeric_limits<float>::infinity())) - a;
}

// A computed f32 result whose operands were off by `propagated`: that, plus one rounding.
double rounded(double propagated, double r) {
  if (propagated == 0) return 0;
  if (!std::isfinite(propagated) || !std::isfinite(r)) return kInf;
  return propagated + ulp(std::fabs(r) + propagated);
}

bool any_error(const Errors& e) {
  for (double v : e)
    if (v != 0) return true;
  return false;
}

Tensor errors_tensor(const Errors& e) {
  Array<float> a = xt::zeros<float>({e.size()});
  for (size_t k = 0; k < e.size(); ++k) {
    float f = static_cast<float>(e[k]);
    a(k) = f < e[k] ? std::nextafter(f, std::numeric_limits<float>::infinity()) : f;
  }
  return make_tensor(std::move(a));
}

class Propagation {
 public:
  explicit Propagation(const Program& p) : values_(node_values(p.roots())) {
    std::vector<const UOp*> order = topo_order(p.roots());
    std::set<int64_t> used;
    for (const UOp* n : order)
      if (n->op == Op::Buffer) used.insert(n->slot());
    // Slots for the error tensors moved through the interpreter: ones the program leaves free,
    // so that the buffers an offset reads keep their data.
    for (int64_t slot = 0; free_slots_.size() < kMaxSources; ++slot)
      if (!used.count(slot)) free_slots_.push_back(slot);
    for (const UOp* n : order)
      if (n->op != Op::Assert) bounds_[n] = of(*n);
  }
  Bounds take() { return std::move(bounds_); }

 private:
  const Errors& e(const UOpRef& s) const { return bounds_.at(s.get()); }
  double f(const UOpRef& s, int64_t k) const {
    Scalar v = values_.at(s.get()).at(k);
    return v.dtype == DType::F32 ? v.as_f32() : v.dtype == DType::I32 ? v.as_i32() : v.bits;
  }
  double r(const UOp& n, int64_t k) const { return f(shared_from(&n), k); }

  Errors of(const UOp& n) {
    size_t size = static_cast<size_t>(n.numel());
    switch (n.op) {
      case Op::Buffer:
      case Op::Const:
        return Errors(size, 0);
      case Op::Stage:
        return e(n.src[0]);
      case Op::Reduce:
        return reduced(n);
      case Op::Stack: {  // row-major: the operands one after another
        Errors out;
        for (const UOpRef& part : n.src) out.insert(out.end(), e(part).begin(), e(part).end());
        return out;
      }
      default:
        break;
    }
    if (is_movement(n.op) || n.op == Op::Index) return moved(n);
    bool exact = true;
    for (const UOpRef& s : n.src) exact &= !any_error(e(s));
    bool libm = n.op == Op::Exp2 || n.op == Op::Log2 || n.op == Op::Sin;
    if (exact && !libm) return Errors(size, 0);
    Errors out(size);
    for (size_t k = 0; k < size; ++k) out[k] = elementwise(n, static_cast<int64_t>(k));
    return out;
  }

  // The error tensors of the data operands go through the same movement op, by the
  // interpreter; an offset or index that may be off makes the whole value unknown.
  Errors moved(const UOp& n) {
    bool offsets = n.op == Op::Shrink || n.op == Op::Index;
    std::vector<UOpRef> src;
    InterpOptions o;
    for (size_t k = 0; k < n.src.size(); ++k) {
      const UOpRef& s = n.src[k];
      if (offsets && k > 0) {
        if (any_error(e(s))) return Errors(static_cast<size_t>(n.numel()), kInf);
        src.push_back(s);
        continue;
      }
      int64_t slot = free_slots_.at(k);
      src.push_back(reshape(buffer(s->numel(), DType::F32, slot), s->shape));
      o.inputs[slot] = {"errors", errors_tensor(e(s))};
    }
    UOpRef moved_errors = rebuilt(n, src);
    Tensor t = node_values({moved_errors}, o).at(moved_errors.get());
    Errors out(static_cast<size_t>(t.size()));
    for (int64_t k = 0; k < t.size(); ++k) out[static_cast<size_t>(k)] = t.at(k).as_f32();
    return out;
  }

  static UOpRef rebuilt(const UOp& n, const std::vector<UOpRef>& src) {
    std::vector<UOpRef> rest(src.begin() + 1, src.end());
    switch (n.op) {
      case Op::Reshape:
        return reshape(src[0], n.shape);
      case Op::Permute:
        return permute(src[0], n.arg);
      case Op::Expand:
        return expand(src[0], n.shape);
      case Op::Shrink:
        return shrink(src[0], rest, n.shape);
      case Op::Pad:
        return pad(src[0], n.arg, Scalar::of_f32(0));
      case Op::Flip:
        return flip(src[0], n.arg);
      case Op::Index:
        return index(src[0], rest);
      default:
        throw std::logic_error("spec_bounds: not a movement op");
    }
  }

  // LANGUAGE.md §7's reassociation allowance, plus what the terms carry; max and min are
  // 1-Lipschitz, so they carry the largest error of the terms they fold.
  Errors reduced(const UOp& n) {
    const UOpRef& x = n.src[0];
    int64_t inner = n.numel(), outer = inner == 0 ? 0 : x->numel() / std::max<int64_t>(inner, 1);
    Errors out(static_cast<size_t>(inner), 0);
    bool f32 = n.dtype == DType::F32;
    for (int64_t j = 0; j < inner; ++j) {
      double sum = 0, err = 0, product = 1, product_hi = 1;
      bool finite = true;
      for (int64_t q = 0; q < outer; ++q) {
        double v = std::fabs(f(x, q * inner + j)), ev = e(x)[static_cast<size_t>(q * inner + j)];
        finite &= std::isfinite(v);
        sum += v;
        err = n.reduce_op() == Op::Max || n.reduce_op() == Op::Min ? std::max(err, ev) : err + ev;
        product *= v;
        product_hi *= v + ev;
      }
      double& b = out[static_cast<size_t>(j)];
      // Infinite or NaN terms give the same result in every order; a sum or product that may
      // overflow in some order may give anything.
      double terms = static_cast<double>(outer), largest = std::numeric_limits<float>::max();
      if (!f32 || !finite) {
        b = err == 0 ? 0 : kInf;
      } else if (n.reduce_op() == Op::Add) {
        b = sum > largest ? kInf : err + terms * (kEps * sum + kTiny);
      } else if (n.reduce_op() == Op::Mul) {
        b = product_hi > largest ? kInf
                                 : product_hi - product + terms * (kEps * product_hi + kTiny);
      } else {
        b = err;
      }
      if (b != 0 && (!std::isfinite(b) || !std::isfinite(r(n, j)))) b = kInf;
    }
    return out;
  }

  double elementwise(const UOp& n, int64_t k) const {
    auto err = [&](size_t i) { return e(n.src[i])[static_cast<size_t>(k)]; };
    auto val = [&](size_t i) { return f(n.src[i], k); };
    double out = r(n, k);
    bool inexact = false;
    for (size_t i = 0; i < n.src.size(); ++i) inexact |= err(i) != 0;
    if (inexact && n.dtype != DType::F32 && !is_comparison(n.op) && n.op != Op::Cast &&
        n.op != Op::Where)
      return kInf;  // integer and logic ops: any change may change the result
    switch (n.op) {
      case Op::Add:
      case Op::Sub:
        return rounded(err(0) + err(1), out);
      case Op::Mul:
        return rounded(std::fabs(val(0)) * err(1) + std::fabs(val(1)) * err(0) + err(0) * err(1),
                       out);
      case Op::Div: {
        double b = std::fabs(val(1)), eb = err(1);
        if (b <= eb) return kInf;
        return rounded((std::fabs(val(0)) * eb + b * err(0)) / (b * (b - eb)), out);
      }
      case Op::Recip: {
        double b = std::fabs(val(0)), eb = err(0);
        return b <= eb ? kInf : rounded(eb / (b * (b - eb)), out);
      }
      case Op::Neg:
        return err(0);
      case Op::Sqrt: {
        double x = val(0), ex = err(0);
        return rounded(std::sqrt(x + ex) - std::sqrt(std::max(x - ex, 0.0)), out);
      }
      case Op::Exp2:
      case Op::Log2:
      case Op::Sin:
        return libm(n.op, val(0), err(0), out);
      case Op::Max:
      case Op::Min:
        return std::max(err(0), err(1));
      case Op::Where:
        if (err(0) != 0) return kInf;
        return val(0) != 0 ? err(1) : err(2);
      case Op::Cast:
        return cast(n, val(0), err(0));
      default:
        break;
    }
    if (is_comparison(n.op)) return decided(val(0), err(0), val(1), err(1)) ? 0 : kInf;
    return kInf;
  }

  // The 1 ulp the language allows the function itself, on top of the spread of its input's
  // interval.
  static double libm(Op op, double x, double ex, double out) {
    if (!std::isfinite(out)) return ex == 0 ? 0 : kInf;
    auto fn = [op](double v) {
      return op == Op::Exp2 ? std::exp2(v) : op == Op::Log2 ? std::log2(v) : std::sin(v);
    };
    if (ex == 0) return ulp(out);  // LANGUAGE.md §7: 1 ulp between libm builds
    double spread = 0;
    {
      if (op == Op::Log2 && x - ex <= 0) return kInf;
      spread = op == Op::Sin ? std::min(ex, 2.0)
                             : std::max(std::fabs(fn(x + ex) - out), std::fabs(out - fn(x - ex)));
    }
    double b = spread + 2 * ulp(std::fabs(out) + spread);  // its ulp, and a rounding
    return std::isfinite(b) ? b : kInf;
  }

  // A comparison (cmplt, cmpeq, cmpne) both engines must decide the same way: its operands'
  // intervals do not touch.
  static bool decided(double a, double ea, double b, double eb) {
    if (ea == 0 && eb == 0) return true;
    if (std::isnan(a) || std::isnan(b)) return false;
    return std::fabs(a - b) > ea + eb;
  }

  static double cast(const UOp& n, double x, double ex) {
    if (ex == 0) return 0;
    if (!std::isfinite(ex)) return kInf;
    switch (n.dtype) {
      case DType::F32:
        return ex;  // from f32 itself; bool and i32 sources are exact or unknown
      case DType::Bool:
        return x - ex > 0 || x + ex < 0 ? 0 : kInf;
      case DType::I32:
        return std::trunc(x - ex) == std::trunc(x + ex) && std::fabs(x) + ex < 2147483647.0 ? 0
                                                                                            : kInf;
    }
    return kInf;
  }

  // Operands of a movement op or index at most: x and one offset per axis.
  static constexpr size_t kMaxSources = kMaxRank + 1;

  std::unordered_map<const UOp*, Tensor> values_;
  Bounds bounds_;
  std::vector<int64_t> free_slots_;
};

// ---- printed outputs

struct Printed {
  std::string line, name, type;
  std::vector<std::string> elements;
};

std::vector<Printed> parse_printed(const std::string& text) {
  std::vector<Printed> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    size_t space = line.find(' '), eq = line.find(" = ");
    if (space == std::string::npos || eq == std::string::npos || eq < space) {
      out.push_back({line, line, "", {}});
      continue;
    }
    Printed p{line, line.substr(0, space), line.substr(space + 1, eq - space - 1), {}};
    std::string values = line.substr(eq + 3);
    for (char& c : values)
      if (c == '[' || c == ']') c = ' ';
    std::istringstream words(values);
    for (std::string w; words >> w;) p.elements.push_back(w);
    out.push_back(std::move(p));
  }
  return out;
}

// `text` as an element of dtype d, if it is one.
std::optional<Scalar> read_element(const std::string& text, DType d) {
  if (d == DType::Bool) {
    if (text != "true" && text != "false") return std::nullopt;
    return Scalar::of_bool(text == "true");
  }
  char* end = nullptr;
  if (d == DType::I32) {
    long long v = std::strtoll(text.c_str(), &end, 10);
    if (*end || text.empty() || v < INT32_MIN || v > INT32_MAX) return std::nullopt;
    return Scalar::of_i32(static_cast<int32_t>(v));
  }
  float v = std::strtof(text.c_str(), &end);
  if (*end || text.empty()) return std::nullopt;
  return Scalar::of_f32(v);
}

bool matches(const Scalar& want, const Scalar& got, double bound, const Comparison& c) {
  if (want == got) return true;
  if (want.dtype != DType::F32) return std::isinf(bound);
  float w = want.as_f32(), g = got.as_f32();
  if (std::isnan(w) && std::isnan(g)) return true;
  if (c.nan_equal && (std::isnan(w) || std::isnan(g))) return true;
  if (c.signed_zero_equal && w == 0 && g == 0) return true;
  if (std::isinf(bound)) return true;
  if (bound == 0 || std::isnan(w) || std::isnan(g)) return false;
  return std::fabs(static_cast<double>(g) - static_cast<double>(w)) <= bound;
}

std::string cut(const std::string& s) {
  return s.size() > 160 ? s.substr(0, 160) + " ..." : s;
}

}  // namespace

std::string Comparison::name() const {
  std::string out = spec ? "spec" : "exact";
  if (nan_equal) out += ", nan-equal";
  if (signed_zero_equal) out += ", signed-zero-equal";
  return out;
}

std::string Comparison::flags() const {
  std::string out = spec ? "--compare spec" : "";
  if (nan_equal) out += std::string(out.empty() ? "" : " ") + "--nan-equal";
  if (signed_zero_equal) out += std::string(out.empty() ? "" : " ") + "--signed-zero-equal";
  return out;
}

Comparison parse_comparison(const std::string& mode, bool nan_equal, bool signed_zero_equal) {
  if (mode != "exact" && mode != "spec")
    throw UserError("--compare takes exact or spec, not '" + mode + "'");
  return {mode == "spec", nan_equal, signed_zero_equal};
}

Bounds spec_bounds(const Program& p) {
  return Propagation(p).take();
}

Judge::Judge(const Program& p, const Comparison& c)
    : p_(p), c_(c), bounds_(c.spec ? spec_bounds(p) : Bounds{}) {}

std::string Judge::compare(const InterpResult& want, const std::string& printed) const {
  const Comparison& c = c_;
  std::vector<Printed> got = parse_printed(printed);
  for (size_t k = 0; k < want.outputs.size(); ++k) {
    const auto& [statement, t] = want.outputs[k];
    std::string expected = format_output(statement->name, t);
    if (k >= got.size()) return statement->name + ": not printed; interp printed " + cut(expected);
    const Printed& g = got[k];
    std::string type = type_string(t);
    bool summary = std::find(g.elements.begin(), g.elements.end(), "...") != g.elements.end();
    if (g.name == statement->name && g.type == type && summary)
      return statement->name + ": printed a summary of its " + std::to_string(t.size()) +
             " elements ('...'), not every element (UOPC_PRINT_LIMIT=0 asks uopc run for all)";
    if (g.name != statement->name || g.type != type ||
        g.elements.size() != static_cast<size_t>(t.size()))
      return statement->name + ": printed " + cut(g.line) + "; interp printed " + cut(expected);
    const std::vector<double>* b = c.spec ? &bounds_.at(statement->node.get()) : nullptr;
    for (int64_t i = 0; i < t.size(); ++i) {
      std::optional<Scalar> e = read_element(g.elements[static_cast<size_t>(i)], t.dtype());
      double bound = b ? (*b)[static_cast<size_t>(i)] : 0;
      if (e && matches(t.at(i), *e, bound, c)) continue;
      return statement->name + ": element " + index_string(t.shape(), i) + ": printed " +
             g.elements[static_cast<size_t>(i)] + ", interp " + format_element(t.at(i)) +
             (c.spec ? ", allowed " + format_f32(static_cast<float>(bound)) : "") + " (" +
             c.name() + ")";
    }
  }
  if (got.size() > want.outputs.size())
    return "printed " + std::to_string(got.size()) + " outputs, interp " +
           std::to_string(want.outputs.size());
  return "";
}

bool Judge::verdict_may_differ() const {
  if (!c_.spec) return false;
  for (const Statement* s : p_.asserts())
    for (const UOpRef& operand : s->node->src)
      if (any_error(bounds_.at(operand.get()))) return true;
  return false;
}

}  // namespace uopc

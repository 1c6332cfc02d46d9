#include "compiler/render_c.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "compiler/c_arith.h"
#include "compiler/linearize.h"
#include "ir/arena.h"
#include "ir/loop.h"
#include "ir/plant.h"
#include "ir/program.h"

namespace uopc {
namespace {

std::string c_type(DType d) {
  switch (d) {
    case DType::Bool:
      return "unsigned char";
    case DType::I32:
      return "int";
    case DType::F32:
      return "float";
  }
  return "?";
}

std::string c_literal_text(const Scalar& s);

// Negative literals get parentheses: `a - -1` must not read as `a-- 1`.
std::string c_literal(const Scalar& s) {
  std::string t = c_literal_text(s);
  return t[0] == '-' ? "(" + t + ")" : t;
}

std::string c_literal_text(const Scalar& s) {
  switch (s.dtype) {
    case DType::Bool:
      return s.as_bool() ? "1" : "0";
    case DType::I32:
      return s.as_i32() == INT32_MIN ? "-2147483647-1" : std::to_string(s.as_i32());
    case DType::F32:
      break;
  }
  float f = s.as_f32();
  if (std::isinf(f)) return f > 0 ? "UOPC_INF" : "-UOPC_INF";
  if (f == 0 && std::signbit(f)) return "-0.0f";
  if (f == std::trunc(f) && std::fabs(f) < 16777216.0f && !(f == 0 && std::signbit(f)))
    return std::to_string(static_cast<int64_t>(f)) + ".0f";
  if (std::isnan(f)) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "uopc_f32(0x%08xu)", s.bits);
    return buf;
  }
  // A hexadecimal literal is exact in every C compiler: no decimal rounding is involved.
  char buf[40];
  std::snprintf(buf, sizeof buf, "%af", static_cast<double>(f));
  return buf;
}

bool cannot_overflow(const UOp& n) {
  if (n.dtype != DType::I32) return true;
  Interval b = n.src.size() > 1 ? n.src[1]->bounds : Interval::point(0);
  return plain_c_cannot_overflow(n.op, n.src[0]->bounds, b);
}

int64_t positive_constant(const UOpRef& n) {
  return n->op == Op::Const && n->value.as_i32() > 0 ? n->value.as_i32() : 0;
}

class KernelRenderer {
 public:
  KernelRenderer(const UOpRef& sink, const RenderOptions& options)
      : sink_(sink), top_(linearize(sink)), options_(options) {}

  std::string run(const std::string& name) {
    std::vector<const UOp*> order = topo_order({sink_});
    for (const UOp* n : order)
      for (const UOpRef& s : n->src) users_[s.get()].push_back(n);
    note_blocks(top_);
    std::string out =
        "void " + name + "(void** args, long long* uopc_status, int uopc_lo, int uopc_hi) {\n";
    std::vector<const UOp*> params;
    for (const UOp* n : order) {
      if (n->op == Op::Param) params.push_back(n);
    }
    std::sort(params.begin(), params.end(), [](auto a, auto b) { return a->arg[0] < b->arg[0]; });
    for (const UOp* p : params) {
      std::string k = std::to_string(p->arg[0]), t = c_type(p->dtype);
      out += "  " + t + "* restrict data" + k + " = (" + t + "*)args[" + k + "];\n";
    }
    for (const UOp* n : order)
      if (n->op == Op::Table) out += declare_table(*n);
    place_accumulators(order);
    declare_accumulators(top_, 1, out);
    render_block(top_, 1, out);
    return out + "}\n";
  }

 private:
  void note_blocks(const LoopBlock& b) {
    for (const BlockItem& item : b.items) {
      if (item.loop) {
        parent_[item.loop.get()] = &b;
        note_blocks(*item.loop);
      } else {
        block_of_[item.node] = &b;
      }
    }
  }

  // Each accumulator is declared in the innermost block around all its loads and stores, so
  // the C compiler sees a value local to one loop nest, which it keeps in a register (and
  // vectorizes, for the copies of a register tile), rather than a variable of the whole function.
  void place_accumulators(const std::vector<const UOp*>& order) {
    for (const UOp* n : order) {
      if (n->op != Op::Load && n->op != Op::Store) continue;
      const UOp* base = n->src[0]->src[0].get();
      while (base->op == Op::After) base = base->src[0].get();
      if (base->op != Op::Alloc) continue;
      auto [it, fresh] = acc_block_.try_emplace(base, block_of_[n]);
      if (!fresh) it->second = common_block(it->second, block_of_[n]);
    }
  }

  const LoopBlock* common_block(const LoopBlock* a, const LoopBlock* b) const {
    std::vector<const LoopBlock*> above;
    for (const LoopBlock* x = a; x; x = parent_of(x)) above.push_back(x);
    for (const LoopBlock* y = b; y; y = parent_of(y))
      if (std::find(above.begin(), above.end(), y) != above.end()) return y;
    return &top_;
  }

  const LoopBlock* parent_of(const LoopBlock* b) const {
    auto it = parent_.find(b);
    return it == parent_.end() ? nullptr : it->second;
  }

  void declare_accumulators(const LoopBlock& b, int depth, std::string& out) {
    std::vector<const UOp*> mine;
    for (const auto& [alloc, block] : acc_block_)
      if (block == &b) mine.push_back(alloc);
    std::sort(mine.begin(), mine.end(), [](auto x, auto y) { return x->arg[0] < y->arg[0]; });
    for (const UOp* a : mine)
      out += pad(depth) + c_type(a->dtype) + " acc" + std::to_string(a->arg[0]) + ";\n";
  }

  static std::string pad(int depth) { return std::string(2 * static_cast<size_t>(depth), ' '); }

  // Every loop's iterations in status[4], a reduce loop's also in status[12] (Iterations).
  static std::string count_iteration(const UOp& range) {
    bool reduce = range_kind(range) == RangeKind::Reduce;
    return reduce ? "uopc_status[4]++; uopc_status[12]++;\n" : "uopc_status[4]++;\n";
  }

  void render_block(const LoopBlock& b, int depth, std::string& out) {
    for (const BlockItem& item : b.items) {
      if (item.loop) {
        std::string r = "ridx" + std::to_string(range_id(*item.loop->range));
        bool threads = range_kind(*item.loop->range) == RangeKind::Thread;
        out += pad(depth) + "for (int " + r + " = " + (threads ? "uopc_lo" : "0") + "; " + r +
               " < " + (threads ? "uopc_hi" : std::to_string(range_size(*item.loop->range))) +
               "; " + r + "++) {\n";
        if (options_.count_iterations) out += pad(depth + 1) + count_iteration(*item.loop->range);
        declare_accumulators(*item.loop, depth + 1, out);
        render_block(*item.loop, depth + 1, out);
        out += pad(depth) + "}\n";
        continue;
      }
      statement(*item.node, depth, out);
    }
  }

  // ALU values get a name when they are used twice, used in another loop, or nested deep.
  bool wants_name(const UOp& n) {
    if (!is_alu(n.op)) return false;
    const auto& users = users_[&n];
    if (users.size() > 1) return true;
    for (const UOp* u : users) {
      const UOp* user = u;
      // an address is written inside its load or store
      if (user->op == Op::Index && !users_[user].empty()) user = users_[user].front();
      if (block_of_[user] != block_of_[&n]) return true;
    }
    return inline_height(n) > kMaxInlineHeight;
  }

  static constexpr int kMaxInlineHeight = 12;

  // The depth of the expression n would be if written inline: sources are decided first, so
  // a named source counts as a leaf.
  int inline_height(const UOp& n) {
    int h = 0;
    for (const UOpRef& s : n.src) {
      auto it = height_.find(s.get());
      if (it != height_.end() && !names_.count(s.get())) h = std::max(h, it->second);
    }
    return h + 1;
  }

  void statement(const UOp& n, int depth, std::string& out) {
    switch (n.op) {
      case Op::Load: {
        check(*n.src[0], depth, out);
        std::string name = "val" + std::to_string(counter_++);
        out += pad(depth) + c_type(n.dtype) + " " + name + " = " + loaded(n) + ";\n";
        names_[&n] = name;
        return;
      }
      case Op::Store:
        check(*n.src[0], depth, out);
        out += pad(depth) + addr(*n.src[0]) + " = " + expr(n.src[1]) + ";\n";
        return;
      default:
        break;
    }
    if (is_alu(n.op)) height_[&n] = inline_height(n);
    if (!wants_name(n)) return;
    std::string name = "alu" + std::to_string(counter_++);
    out += pad(depth) + c_type(n.dtype) + " " + name + " = " + value(n) + ";\n";
    names_[&n] = name;
  }

  // In check-bounds mode, an offset outside its buffer or constant table is reported and the
  // kernel stops before the access: uopc_status = {1, param, offset, size}, table K as param
  // -1 - K. (A table read out of range reads whatever lies beside it, a value that changes
  // from build to build.)
  void check(const UOp& a, int depth, std::string& out) {
    const UOp* base = a.src[0].get();
    while (base->op == Op::After) base = base->src[0].get();
    if (!options_.check_bounds || (base->op != Op::Param && base->op != Op::Table)) return;
    bool table = base->op == Op::Table;
    std::string p = table ? std::to_string(-1 - std::stoll(tables_.at(base).substr(5)))
                          : std::to_string(base->arg[0]);
    std::string i = "chk" + std::to_string(counter_++),
                n = std::to_string(table ? base->arg.size() : base->shape[0]);
    out += pad(depth) + "int " + i + " = " + expr(a.src[1]) + ";\n";
    out += pad(depth) + "if (" + i + " < 0 || " + i + " >= " + n + ") { uopc_oob(uopc_status, " +
           p + ", " + i + ", " + n + "); return; }\n";
    names_[a.src[1].get()] = i;
  }

  // `static const T tableK[n] = {...};`, K in order of appearance. f32 elements are kept as
  // their bits, so that NaN payloads and -0 are exact and every initializer is a constant.
  std::string declare_table(const UOp& t) {
    std::string name = "table" + std::to_string(tables_.size()), values;
    tables_[&t] = name;
    bool f32 = t.dtype == DType::F32;
    for (size_t k = 0; k < t.arg.size(); ++k) {
      Scalar v{t.dtype, static_cast<uint32_t>(t.arg[k])};
      values += (k ? (k % 16 ? ", " : ",\n    ") : "") +
                (f32 ? std::to_string(v.bits) + "u" : c_literal_text(v));
    }
    return "  static const " + (f32 ? std::string("unsigned") : c_type(t.dtype)) + " " + name +
           "[" + std::to_string(t.arg.size()) + "] = {" + values + "};\n";
  }

  // The storage an address names: dataK[offset], tableK[offset] or an accumulator.
  std::string addr(const UOp& a) {
    const UOp* base = a.src[0].get();
    while (base->op == Op::After) base = base->src[0].get();
    if (base->op == Op::Alloc) return "acc" + std::to_string(base->arg[0]);
    if (base->op == Op::Table) {
      std::string element = tables_.at(base) + "[" + expr(a.src[1]) + "]";
      bool as_f32 = base->dtype == DType::F32 ||
                    (planted(Plant::TableElementMisread) && base->dtype == DType::I32);
      return as_f32 ? "uopc_f32(" + element + ")" : element;
    }
    return "data" + std::to_string(base->arg[0]) + "[" + expr(a.src[1]) + "]";
  }

  std::string expr(const UOpRef& n) { return value(*n); }

  // The C expression of a value: its name if it has one, else its text.
  std::string value(const UOp& n) {
    if (auto it = names_.find(&n); it != names_.end()) return it->second;
    switch (n.op) {
      case Op::Const:
        return c_literal(n.value);
      case Op::Range:
        return "ridx" + std::to_string(range_id(n));
      default:
        break;
    }
    if (n.op == Op::Cast) return in_interval(n, cast(n));
    std::vector<std::string> s;
    for (const UOpRef& src : n.src) s.push_back(expr(src));
    return in_interval(n, alu(n, s));
  }

  // `text`, the C of n, checked against n's interval in check-intervals mode. A node's sources
  // are checked as their arguments are evaluated, before it: the first value reported is one
  // whose sources were inside their intervals. A computed bool is checked against [0, 1]: C's
  // int arithmetic can make it anything.
  std::string in_interval(const UOp& n, const std::string& text) {
    if (!options_.check_intervals) return text;
    if (n.dtype == DType::Bool) return reported_outside(n.op, text, {0, 1}, true);
    if (n.dtype != DType::I32 || n.bounds == Interval::full()) return text;
    return reported_outside(n.op, text, n.bounds);
  }

  static std::string reported_outside(Op op, const std::string& text, const Interval& b,
                                      bool is_bool = false) {
    return "uopc_in(uopc_status, " + std::to_string(static_cast<int>(op)) + ", " +
           (is_bool ? "1" : "0") + ", " + text + ", " + std::to_string(b.lo) + ", " +
           std::to_string(b.hi) + ")";
  }

  // A load, in check-intervals mode a bool checked against [0, 1]: a byte that is neither was
  // never written (kUnwritten), and a cast or compare reading it would otherwise be reported
  // as that op's interval. An i32 table's element is one of its literals, whose hull is the
  // load's interval: a value outside it was read wrong, reported as the table's, not as the
  // interval of the op that reads it.
  std::string loaded(const UOp& n) {
    std::string text = addr(*n.src[0]);
    if (!options_.check_intervals) return text;
    if (n.dtype == DType::Bool) return reported_outside(n.op, text, {0, 1}, true);
    if (n.dtype == DType::I32 && n.bounds != Interval::full())
      return reported_outside(Op::Table, text, n.bounds);
    return text;
  }

  static bool is_atom(const std::string& e) {
    return std::all_of(e.begin(), e.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    });
  }

  bool by_helper(Op op) const {
    const std::vector<Op>& ops = options_.by_helper;
    return std::find(ops.begin(), ops.end(), op) != ops.end();
  }

  std::string alu(const UOp& n, const std::vector<std::string>& s) {
    bool is_int = n.src[0]->dtype == DType::I32;
    bool helper = by_helper(n.op);
    bool plain = !helper && cannot_overflow(n);
    bool checked = is_int && plain && options_.check_ub;
    auto bin = [&](const char* op) {
      if (planted(Plant::BinaryUnparenthesized)) return s[0] + op + s[1];
      return "(" + s[0] + op + s[1] + ")";
    };
    // An op the bounds decided cannot overflow: plain C, or under check_ub a helper that
    // reports it if it does.
    auto arith = [&](const char* op, const char* name) {
      if (checked)
        return std::string("uopc_ck_") + name + "(uopc_status, " + s[0] + ", " + s[1] + ")";
      return is_int && !plain ? std::string("uopc_") + name + "(" + s[0] + ", " + s[1] + ")"
                              : bin(op);
    };
    switch (n.op) {
      case Op::Add:
        return arith("+", "add");
      case Op::Sub:
        return arith("-", "sub");
      case Op::Mul:
        return arith("*", "mul");
      case Op::Neg:
        if (checked) return "uopc_ck_neg(uopc_status, " + s[0] + ")";
        return is_int && !plain ? "uopc_neg(" + s[0] + ")" : "(-" + s[0] + ")";
      case Op::Div:
        return bin("/");
      case Op::Idiv:
      case Op::Mod: {
        const char* name = n.op == Op::Idiv ? "idiv" : "mod";
        if (!helper && plain_c_division_is_floor(n.src[0]->bounds, positive_constant(n.src[1]))) {
          if (options_.check_ub)
            return std::string("uopc_ck_") + name + "(uopc_status, " + s[0] + ", " + s[1] + ")";
          return bin(n.op == Op::Idiv ? "/" : "%");
        }
        return std::string("uopc_") + name + "(" + s[0] + ", " + s[1] + ")";
      }
      case Op::Max:
      case Op::Min: {
        const char* cmp = n.op == Op::Max ? ">" : "<";
        if (!helper && is_atom(s[0]) && is_atom(s[1])) {
          if (planted(Plant::MinmaxReversed))
            return "((" + s[1] + cmp + s[0] + ")?" + s[1] + ":" + s[0] + ")";
          return "((" + s[0] + cmp + s[1] + ")?" + s[0] + ":" + s[1] + ")";
        }
        std::string f = std::string(n.op == Op::Max ? "uopc_max_" : "uopc_min_") +
                        (n.dtype == DType::F32 ? "f" : "i");
        return f + "(" + s[0] + ", " + s[1] + ")";
      }
      case Op::Cmplt:
        return bin("<");
      case Op::Cmpeq:
        return bin("==");
      case Op::Cmpne:
        return bin("!=");
      case Op::And:
        return bin("&");
      case Op::Or:
        return bin("|");
      case Op::Xor:
        return bin("^");
      case Op::Not:
        return (planted(Plant::NotBitwise) ? "(~" : "(!") + s[0] + ")";
      case Op::Where:
        if (planted(Plant::WhereUnparenthesized)) return s[0] + "?" + s[1] + ":" + s[2];
        return "(" + s[0] + "?" + s[1] + ":" + s[2] + ")";
      case Op::Recip:
        return "(1.0f/" + s[0] + ")";
      case Op::Sqrt:
        return "sqrtf(" + s[0] + ")";
      case Op::Exp2:
        return "exp2f(" + s[0] + ")";
      case Op::Log2:
        return "log2f(" + s[0] + ")";
      case Op::Sin:
        return "sinf(" + s[0] + ")";
      default:
        throw std::logic_error("render_c: cannot render " + std::string(op_name(n.op)));
    }
  }

  std::string cast(const UOp& n) {
    std::string x = expr(n.src[0]);
    DType from = n.src[0]->dtype, to = n.dtype;
    if (from == to) return x;
    if (to == DType::Bool) return from == DType::F32 ? "(" + x + "!=0.0f)" : "(" + x + "!=0)";
    if (to == DType::F32) return "((float)" + x + ")";
    bool saturate = from == DType::F32 && !planted(Plant::CastF32Unsaturated);
    return saturate ? "uopc_f2i(" + x + ")" : "((int)" + x + ")";
  }

  UOpRef sink_;
  LoopBlock top_;
  RenderOptions options_;
  Arena arena_;  // the tables' entries
  // pmr lists too, so that the map hands them the arena: a heap list per node was a tenth of
  // a compile's allocations.
  std::pmr::unordered_map<const UOp*, std::pmr::vector<const UOp*>> users_{&arena_};
  std::pmr::unordered_map<const UOp*, const LoopBlock*> block_of_{&arena_};
  std::pmr::unordered_map<const LoopBlock*, const LoopBlock*> parent_{&arena_};
  std::pmr::unordered_map<const UOp*, const LoopBlock*> acc_block_{&arena_};
  std::pmr::unordered_map<const UOp*, std::string> names_{&arena_};
  std::pmr::unordered_map<const UOp*, std::string> tables_{&arena_};
  std::pmr::unordered_map<const UOp*, int> height_{&arena_};
  int counter_ = 1;
};

}  // namespace

namespace {

// Each helper with the names it needs; only those the kernels use are emitted, which keeps
// the translation unit small for libtcc.
struct Helper {
  const char* name;
  const char* needs;  // the helpers it calls, separated by spaces
  const char* text;
};

const Helper kHelpers[] = {
    {"exp2f", "", "float exp2f(float);\n"},
    {"log2f", "", "float log2f(float);\n"},
    {"sinf", "", "float sinf(float);\n"},
    {"sqrtf", "", "float sqrtf(float);\n"},
    {"uopc_f32", "",
     "static inline float uopc_f32(unsigned u) { union { unsigned u; float f; } v; v.u = u; return "
     "v.f; }\n"},
    {"UOPC_INF", "uopc_f32", "#define UOPC_INF uopc_f32(0x7f800000u)\n"},
    {"uopc_add", "",
     "static inline int uopc_add(int a, int b) { return (int)((unsigned)a + (unsigned)b); }\n"},
    {"uopc_sub", "",
     "static inline int uopc_sub(int a, int b) { return (int)((unsigned)a - (unsigned)b); }\n"},
    {"uopc_mul", "",
     "static inline int uopc_mul(int a, int b) { return (int)((unsigned)a * (unsigned)b); }\n"},
    {"uopc_neg", "", "static inline int uopc_neg(int a) { return (int)(0u - (unsigned)a); }\n"},
    {"uopc_idiv", "uopc_neg",
     "/* floor division: x idiv 0 = 0, INT32_MIN idiv -1 = INT32_MIN */\n"
     "static inline int uopc_idiv(int a, int b) {\n"
     "  if (b == 0) return 0;\n"
     "  if (b == -1) return uopc_neg(a);\n"
     "  int q = a / b;\n"
     "  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n"
     "}\n"},
    {"uopc_mod", "",
     "/* floor modulo: x mod 0 = x */\n"
     "static inline int uopc_mod(int a, int b) {\n"
     "  if (b == 0) return a;\n"
     "  if (b == -1) return 0;\n"
     "  int r = a % b;\n"
     "  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n"
     "}\n"},
    {"uopc_f2i", "",
     "/* f32 to i32: toward zero, saturating, NaN to 0 */\n"
     "static inline int uopc_f2i(float x) {\n"
     "  if (x != x) return 0;\n"
     "  if (x >= 2147483648.0f) return 2147483647;\n"
     "  if (x <= -2147483648.0f) return (-2147483647-1);\n"
     "  return (int)x;\n"
     "}\n"},
    {"uopc_max_f", "",
     "static inline float uopc_max_f(float a, float b) { return a > b ? a : b; }\n"},
    {"uopc_min_f", "",
     "static inline float uopc_min_f(float a, float b) { return a < b ? a : b; }\n"},
    {"uopc_max_i", "", "static inline int uopc_max_i(int a, int b) { return a > b ? a : b; }\n"},
    {"uopc_min_i", "", "static inline int uopc_min_i(int a, int b) { return a < b ? a : b; }\n"},
    {"uopc_ub", "",
     "/* an i32 op the renderer wrote as plain C whose operands break its decision */\n"
     "static inline void uopc_ub(long long* s, int op, int a, int b) {\n"
     "  if (!s[5]) { s[5] = op; s[6] = a; s[7] = b; }\n"
     "}\n"},
    {"uopc_in", "",
     "/* an i32 value outside the interval its node was given, or a bool neither 0 nor 1 */\n"
     "static inline int uopc_in(long long* s, int op, int b, int v, long long lo, long long hi) {\n"
     "  if ((v < lo || v > hi) && !s[8]) {\n"
     "    s[8] = op + 1; s[9] = v; s[10] = lo; s[11] = hi; s[13] = b;\n"
     "  }\n"
     "  return v;\n"
     "}\n"},
    {"uopc_ck_add", "uopc_ub",
     "static inline int uopc_ck_add(long long* s, int a, int b) {\n"
     "  long long r = (long long)a + b;\n"
     "  if (r != (int)r) uopc_ub(s, 1, a, b);\n"
     "  return (int)((unsigned)a + (unsigned)b);\n"
     "}\n"},
    {"uopc_ck_sub", "uopc_ub",
     "static inline int uopc_ck_sub(long long* s, int a, int b) {\n"
     "  long long r = (long long)a - b;\n"
     "  if (r != (int)r) uopc_ub(s, 2, a, b);\n"
     "  return (int)((unsigned)a - (unsigned)b);\n"
     "}\n"},
    {"uopc_ck_mul", "uopc_ub",
     "static inline int uopc_ck_mul(long long* s, int a, int b) {\n"
     "  long long r = (long long)a * b;\n"
     "  if (r != (int)r) uopc_ub(s, 3, a, b);\n"
     "  return (int)((unsigned)a * (unsigned)b);\n"
     "}\n"},
    {"uopc_ck_neg", "uopc_ub",
     "static inline int uopc_ck_neg(long long* s, int a) {\n"
     "  if (a == (-2147483647-1)) uopc_ub(s, 4, a, 0);\n"
     "  return (int)(0u - (unsigned)a);\n"
     "}\n"},
    {"uopc_ck_idiv", "uopc_idiv uopc_ub",
     "static inline int uopc_ck_idiv(long long* s, int a, int b) {\n"
     "  if (b <= 0 || a < 0) uopc_ub(s, 5, a, b);\n"
     "  return uopc_idiv(a, b);\n"
     "}\n"},
    {"uopc_ck_mod", "uopc_mod uopc_ub",
     "static inline int uopc_ck_mod(long long* s, int a, int b) {\n"
     "  if (b <= 0 || a < 0) uopc_ub(s, 6, a, b);\n"
     "  return uopc_mod(a, b);\n"
     "}\n"},
    {"uopc_oob", "",
     "static inline void uopc_oob(long long* s, int param, int offset, int size) {\n"
     "  s[0] = 1; s[1] = param; s[2] = offset; s[3] = size;\n"
     "}\n"},
};

// Helpers as a planted bug writes them.
struct PlantedHelper {
  Plant plant;
  const char* name;
  const char* text;
};

const PlantedHelper kPlantedHelpers[] = {
    {Plant::ModMinusOneTraps, "uopc_mod",  // C's % on -1 too
     "static inline int uopc_mod(int a, int b) {\n"
     "  if (b == 0) return a;\n"
     "  int r = a % b;\n"
     "  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n"
     "}\n"},
    {Plant::MaxHelperTies, "uopc_max_f",  // >= for >
     "static inline float uopc_max_f(float a, float b) { return a >= b ? a : b; }\n"},
};

const char* helper_text(const Helper& h) {
  for (const PlantedHelper& p : kPlantedHelpers)
    if (planted(p.plant) && std::string(p.name) == h.name) return p.text;
  return h.text;
}

// Each helper by name, and for each the helpers it needs, directly or through others. Built
// once: a prelude is rendered for every program a campaign checks.
struct HelperIndex {
  std::unordered_map<std::string_view, size_t> by_name;
  std::vector<std::vector<size_t>> needed;  // needed[i] includes i
};

const HelperIndex& helper_index() {
  static const HelperIndex index = [] {
    HelperIndex x;
    for (size_t i = 0; i < std::size(kHelpers); ++i) x.by_name.emplace(kHelpers[i].name, i);
    // Dependencies come earlier in the list, so their own lists are complete when read.
    for (size_t i = 0; i < std::size(kHelpers); ++i) {
      std::vector<bool> in(std::size(kHelpers), false);
      in[i] = true;
      std::string_view needs = kHelpers[i].needs;
      for (size_t at = 0; at < needs.size();) {
        size_t end = std::min(needs.find(' ', at), needs.size());
        if (end > at)
          for (size_t j : x.needed.at(x.by_name.at(needs.substr(at, end - at)))) in[j] = true;
        at = end + 1;
      }
      x.needed.emplace_back();
      for (size_t j = 0; j < in.size(); ++j)
        if (in[j]) x.needed.back().push_back(j);
    }
    return x;
  }();
  return index;
}

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

}  // namespace

// One pass over the kernels' identifiers: looking each helper's name up in the text instead
// cost a search of the whole text per helper, on every program.
std::string render_prelude(const std::string& kernels) {
  const HelperIndex& index = helper_index();
  std::vector<bool> used(std::size(kHelpers), false);
  for (size_t at = 0; at < kernels.size();) {
    if (!identifier_char(kernels[at])) {
      ++at;
      continue;
    }
    size_t end = at;
    while (end < kernels.size() && identifier_char(kernels[end])) ++end;
    auto it = index.by_name.find(std::string_view(kernels).substr(at, end - at));
    if (it != index.by_name.end())
      for (size_t j : index.needed[it->second]) used[j] = true;
    at = end;
  }
  std::string out = "/* generated by uopc */\n";
  for (size_t i = 0; i < std::size(kHelpers); ++i)
    if (used[i]) out += helper_text(kHelpers[i]);
  return out;
}

std::string render_kernel(const std::string& name, const UOpRef& sink, const RenderOptions& options,
                          bool register_tile) {
  std::string attribute =
      register_tile ? "__attribute__((optimize(\"no-tree-loop-vectorize\")))\n" : "";
  return attribute + KernelRenderer(sink, options).run(name);
}

}  // namespace uopc

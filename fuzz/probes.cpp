#include "fuzz/probes.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "compiler/engine.h"
#include "fuzz/oracles.h"
#include "ir/build.h"
#include "ir/parse.h"

namespace uopc {
namespace {

// Operand intervals whose corners tell interval rules apart: mixed signs, negative, positive,
// and every i32, where a sum or product wraps.
constexpr std::array<std::pair<int64_t, int64_t>, 4> kIntervals = {
    {{-3, 5}, {-7, -2}, {2, 9}, {INT32_MIN, INT32_MAX}}};
// Second operands written as literals, which the renderer may divide by in C.
constexpr std::array<int64_t, 2> kLiterals = {2, -3};
constexpr std::array<const char*, 7> kBinary = {"add", "sub", "mul", "idiv", "mod", "max", "min"};

std::string values(std::initializer_list<int64_t> list) {
  std::string out;
  for (int64_t v : list) out += " " + std::to_string(v);
  return out;
}

}  // namespace

std::vector<std::string> op_probes() {
  std::vector<std::string> two, three;
  for (const auto& [lo, hi] : kIntervals) {
    std::string a = "%a = stack" + values({lo, hi}) + "\n";
    two.push_back(a + "%v = neg %a\n");
    for (const char* op : kBinary)
      for (int64_t k : kLiterals)
        two.push_back(a + "%v = " + op + " %a " + std::to_string(k) + "\n");
  }
  // Every pair of corners: a takes each end of its interval against each end of b's.
  for (const auto& [alo, ahi] : kIntervals)
    for (const auto& [blo, bhi] : kIntervals)
      for (const char* op : kBinary)
        three.push_back("%a = stack" + values({alo, alo, ahi, ahi}) + "\n%b = stack" +
                        values({blo, bhi, blo, bhi}) + "\n%v = " + op + " %a %b\n");
  two.insert(two.end(), three.begin(), three.end());
  return two;
}

namespace {

// Values the probes read, each a buffer of its own (slots differ, so their data do), declared
// only where read: a probe is as small as a program that shows the same failure.
struct Value {
  const char* name;
  const char* text;
};
constexpr std::array<Value, 6> kValues = {{
    {"%i", "%i = buffer 6 dtype=i32 slot=0\n"},
    {"%j", "%j = buffer 6 dtype=i32 slot=1\n"},
    {"%f", "%f = buffer 6 dtype=f32 slot=2\n"},
    {"%g", "%g = buffer 6 dtype=f32 slot=3\n"},
    {"%b", "%b = buffer 6 dtype=bool slot=4\n"},
    {"%c", "%c = buffer 6 dtype=bool slot=5\n"},
}};

bool reads(const std::string& text, const std::string& name) {
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1))
    if (at + name.size() == text.size() ||
        !std::isalnum(static_cast<unsigned char>(text[at + name.size()])))
      return true;
  return false;
}

// The buffers `body` reads, then `body`.
std::string with_values(const std::string& body) {
  std::string out;
  for (const Value& v : kValues)
    if (reads(body, v.name)) out += v.text;
  return out + body;
}

// An op's expressions over the values above, by the dtype they compute.
struct Expressions {
  std::vector<std::string> i32, f32, boolean;
};

Expressions expressions_of(Op op) {
  std::string name(op_name(op));
  Expressions e;
  switch (op) {
    case Op::Neg:
      e.i32 = {"neg %i"}, e.f32 = {"neg %f"};
      break;
    case Op::Not:
      e.boolean = {"not %b"};
      break;
    case Op::Recip:
    case Op::Sqrt:
    case Op::Exp2:
    case Op::Log2:
    case Op::Sin:
      e.f32 = {name + " %f"};
      break;
    case Op::Cast:
      e.i32 = {"cast %f dtype=i32", "cast %b dtype=i32"};
      e.f32 = {"cast %i dtype=f32", "cast %b dtype=f32"};
      e.boolean = {"cast %i dtype=bool", "cast %f dtype=bool"};
      break;
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
      e.i32 = {name + " %i 3", name + " %i %j"}, e.f32 = {name + " %f 2.5", name + " %f %g"};
      break;
    case Op::Div:
      e.f32 = {"div %f 3.0", "div %f %g"};
      break;
    case Op::Idiv:
    case Op::Mod:
      e.i32 = {name + " %i 3", name + " %i %j"};
      break;
    case Op::Max:
    case Op::Min:
      e.i32 = {name + " %i %j"}, e.f32 = {name + " %f %g"}, e.boolean = {name + " %b %c"};
      break;
    case Op::Cmplt:
    case Op::Cmpeq:
    case Op::Cmpne:
      e.boolean = {name + " %i 2", name + " %f 0.5", name + " %b %c"};
      break;
    case Op::And:
    case Op::Or:
    case Op::Xor:
      e.i32 = {name + " %i 6"}, e.boolean = {name + " %b %c"};
      break;
    case Op::Where:
      e.i32 = {"where %b %i 7"}, e.f32 = {"where %b %f 5.0"}, e.boolean = {"where %b %c true"};
      break;
    default:
      break;
  }
  return e;
}

// Readers of %o by its dtype: one of each kind of C operator, on either side of the binary ones
// and on the right of a division, so that a missing parenthesis changes what is computed or
// does not compile.
const std::vector<std::string> kReadI32 = {"neg %o",        "mul %o 3",   "mul 3 %o",
                                           "sub 5 %o",      "cmplt %o 2", "cast %o dtype=f32",
                                           "where %c %o 7", "and 6 %o"};
const std::vector<std::string> kReadF32 = {"neg %o",       "mul %o 3.0",        "mul 3.0 %o",
                                           "sub 5.0 %o",   "div 7.0 %o",        "recip %o",
                                           "cmplt %o 2.0", "cast %o dtype=i32", "where %c %o 7.0"};
const std::vector<std::string> kReadBool = {"not %o",      "and %o %c",    "and %c %o",
                                            "xor true %o", "where %o 1 2", "cast %o dtype=i32",
                                            "cmpeq %c %o"};

std::string read_as(std::string reader, const std::string& name) {
  return reader.replace(reader.find("%o"), 2, name);
}

}  // namespace

std::vector<FusedProbe> fused_probes(Op op) {
  Expressions e = expressions_of(op);
  std::vector<FusedProbe> out;
  for (const auto& [exprs, readers] : {std::pair{&e.i32, &kReadI32}, std::pair{&e.f32, &kReadF32},
                                       std::pair{&e.boolean, &kReadBool}})
    for (const std::string& expr : *exprs)
      for (const std::string& reader : *readers)
        out.push_back(
            {with_values("%o = " + expr + "\n%v = " + read_as(reader, "%o") + "\n"),
             with_values("%o = " + expr + "\n%t = stage %o\n%v = " + read_as(reader, "%t") + "\n"),
             with_values("%v = " + expr + "\n")});
  return out;
}

Program fused_together(const std::vector<FusedProbe>& probes) {
  Program out;
  for (const FusedProbe& probe : probes) {
    Program p = parse_program(probe.fused, "probe.uir");
    for (const Statement* s : p.outputs()) {
      int k = static_cast<int>(out.statements.size());
      out.statements.push_back({"%v" + std::to_string(k), s->node, k + 1, false});
    }
  }
  return out;
}

std::vector<Op> elementwise_ops(const Program& p, const OptsChoice& opts) {
  std::vector<UOpRef> roots = p.roots();
  std::vector<Program> programs{p};
  try {
    Program composites = with_composites(p);
    if (composites.roots() != roots) programs.push_back(composites);
  } catch (const std::exception&) {  // a composite that cannot be built has no kernels to show
  }
  for (const Program& q : programs) {
    try {
      for (const KernelSpec& k : compile_program(q, {}, opts).schedule.kernels)
        roots.push_back(k.sink);
    } catch (const std::exception&) {  // what compiles is enough to look at
    }
  }
  std::vector<Op> ops;
  for (const UOp* n : topo_order(roots))
    if (is_alu(n->op) && std::find(ops.begin(), ops.end(), n->op) == ops.end())
      ops.push_back(n->op);
  return ops;
}

UOpRef read_twice(const UOpRef& n) {
  for (int64_t axis = 0; axis < n->rank(); ++axis)
    if (n->shape[static_cast<size_t>(axis)] >= 2) return alu(Op::Cmpne, {n, flip(n, {axis})});
  return nullptr;
}

const ReadTwiceProbe& read_twice_probe() {
  static const std::string x = "%x = buffer 6 dtype=i32 slot=0\n";
  static const ReadTwiceProbe probe{x + "%f = flip %x axes=[0]\n%v = cmpne %x %f\n",
                                    x + "%v = flip %x axes=[0]\n",
                                    x + "%y = buffer 6 dtype=i32 slot=1\n%v = cmpne %x %y\n"};
  return probe;
}

}  // namespace uopc

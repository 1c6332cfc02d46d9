#include "fuzz/edge_stats.h"

#include <cmath>
#include <cstdio>
#include <unordered_set>

#include "interp/interp.h"

namespace uopc {
namespace {

DType class_dtype(EdgeClass c) {
  return static_cast<int>(c) <= static_cast<int>(EdgeClass::TwoTo31) ? DType::F32 : DType::I32;
}

// The operands whose values reach n's rule: an ALU op's and a reduce's inputs, a pad's data.
std::vector<const UOp*> value_operands(const UOp& n) {
  if (n.op == Op::Pad || n.op == Op::Reduce) return {n.src[0].get()};
  std::vector<const UOp*> out;
  if (!is_alu(n.op)) return out;
  for (const UOpRef& s : n.src) out.push_back(s.get());
  return out;
}

void count_tensor(const Tensor& t, std::array<int64_t, kEdgeClasses>& row) {
  if (t.dtype() == DType::Bool) return;
  for (int64_t i = 0; i < t.size(); ++i) {
    EdgeClass c;
    if (edge_class_of(t.at(i), c)) ++row[static_cast<size_t>(c)];
  }
}

}  // namespace

const char* edge_class_name(EdgeClass c) {
  static const char* names[] = {"-0",     "+0",        "nan",       "+inf", "-inf", "subnormal",
                                "+-2^31", "INT32_MIN", "INT32_MAX", "-1",   "0"};
  return names[static_cast<size_t>(c)];
}

bool edge_class_of(const Scalar& s, EdgeClass& out) {
  if (s.dtype == DType::I32) {
    int32_t v = s.as_i32();
    if (v == INT32_MIN)
      out = EdgeClass::IntMin;
    else if (v == INT32_MAX)
      out = EdgeClass::IntMax;
    else if (v == -1)
      out = EdgeClass::MinusOne;
    else if (v == 0)
      out = EdgeClass::IntZero;
    else
      return false;
    return true;
  }
  if (s.dtype != DType::F32) return false;
  float f = s.as_f32();
  if (std::isnan(f))
    out = EdgeClass::NaN;
  else if (std::isinf(f))
    out = f > 0 ? EdgeClass::PosInf : EdgeClass::NegInf;
  else if (f == 0)
    out = std::signbit(f) ? EdgeClass::NegZero : EdgeClass::PosZero;
  else if (std::fpclassify(f) == FP_SUBNORMAL)
    out = EdgeClass::Subnormal;
  else if (std::fabs(f) == 2147483648.0f)
    out = EdgeClass::TwoTo31;
  else
    return false;
  return true;
}

void EdgeStats::add(const EdgeStats& other) {
  for (size_t o = 0; o < counts.size(); ++o)
    for (size_t c = 0; c < counts[o].size(); ++c) counts[o][c] += other.counts[o][c];
  programs += other.programs;
}

void count_edges(const Program& p, EdgeStats& stats) {
  ++stats.programs;
  // One program whose outputs are all the operands, so the interpreter runs once.
  Program operands;
  operands.file = p.file;
  std::unordered_set<const UOp*> seen;
  std::vector<const UOp*> nodes = topo_order(p.roots());
  for (const UOp* n : nodes)
    for (const UOp* s : value_operands(*n))
      if (seen.insert(s).second)
        operands.statements.push_back(
            {"%o" + std::to_string(operands.statements.size()), shared_from(s), 1, false});
  InterpResult r = interpret(operands, {});
  std::unordered_map<const UOp*, const Tensor*> value;
  for (const auto& [st, t] : r.outputs) value[st->node.get()] = &t;
  for (const UOp* n : nodes) {
    auto& row = stats.counts[static_cast<size_t>(n->op)];
    for (const UOp* s : value_operands(*n)) count_tensor(*value.at(s), row);
    EdgeClass c;
    if (n->op == Op::Pad && edge_class_of(n->value, c))
      row[static_cast<size_t>(c)] += n->numel() - n->src[0]->numel();
  }
}

bool edge_row(Op op) {
  return is_alu(op) || op == Op::Pad || op == Op::Reduce;
}

bool edge_cell_possible(Op op, EdgeClass c) {
  if (!edge_row(op)) return false;
  DType d = class_dtype(c);
  if (op == Op::Pad || op == Op::Reduce || op == Op::Cast || op == Op::Where) return true;
  return contains(op_dtypes(op), d);
}

std::vector<std::string> missed_edge_cells(const EdgeStats& stats) {
  std::vector<std::string> out;
  for (int o = 0; o < kOpCount; ++o)
    for (int c = 0; c < kEdgeClasses; ++c) {
      Op op = static_cast<Op>(o);
      EdgeClass e = static_cast<EdgeClass>(c);
      if (edge_cell_possible(op, e) &&
          stats.counts[static_cast<size_t>(o)][static_cast<size_t>(c)] == 0)
        out.push_back(std::string(op_name(op)) + " x " + edge_class_name(e));
    }
  return out;
}

std::string format_edge_stats(const EdgeStats& stats) {
  char buf[64];
  std::string out = "edge values met, by op (elements; - where the op takes no such value):\n";
  out += "  op      ";
  for (int c = 0; c < kEdgeClasses; ++c) {
    std::snprintf(buf, sizeof buf, " %10s", edge_class_name(static_cast<EdgeClass>(c)));
    out += buf;
  }
  out += "\n";
  int possible = 0, hit = 0;
  for (int o = 0; o < kOpCount; ++o) {
    Op op = static_cast<Op>(o);
    bool any = false;
    for (int c = 0; c < kEdgeClasses; ++c) any |= edge_cell_possible(op, static_cast<EdgeClass>(c));
    if (!any) continue;
    std::snprintf(buf, sizeof buf, "  %-8s", std::string(op_name(op)).c_str());
    out += buf;
    for (int c = 0; c < kEdgeClasses; ++c) {
      int64_t n = stats.counts[static_cast<size_t>(o)][static_cast<size_t>(c)];
      bool can = edge_cell_possible(op, static_cast<EdgeClass>(c));
      possible += can;
      hit += can && n > 0;
      if (can)
        std::snprintf(buf, sizeof buf, " %10lld", static_cast<long long>(n));
      else
        std::snprintf(buf, sizeof buf, " %10s", "-");
      out += buf;
    }
    out += "\n";
  }
  std::snprintf(buf, sizeof buf, "%d of %d possible cells hit in %lld programs\n", hit, possible,
                static_cast<long long>(stats.programs));
  return out + buf;
}

}  // namespace uopc

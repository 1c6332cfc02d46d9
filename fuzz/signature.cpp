#include "fuzz/signature.h"

#include <functional>
#include <optional>
#include <set>

namespace uopc {
namespace {

using Test = std::function<bool(const Program&)>;

// The op of the first node, sources before users, whose value alone fails `fails`. (An op,
// not a node: the program may be a temporary that takes its nodes with it.)
std::optional<Op> localize(const Program& p, const Test& fails) {
  for (const UOp* n : topo_order(p.roots())) {
    if (n->op == Op::Const || n->op == Op::Buffer || n->op == Op::Assert) continue;
    Program alone;
    alone.file = p.file;
    alone.statements.push_back({"%out", shared_from(n), 1, false});
    if (fails(alone)) return n->op;
  }
  return std::nullopt;
}

// The oracle and the ops of the output a failure names, or of every output.
std::string by_outputs(const Failure& f, const Program& p) {
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

std::optional<Op> culprit(const std::string& family, const Program& p, Backend& backend) {
  if (family == "roundtrip")
    return localize(p, [](const Program& q) { return check_roundtrip(q).has_value(); });
  if (family == "cost")
    return localize(p, [&](const Program& q) {
      std::optional<Failure> f = check_engines(q, backend);
      return f && f->oracle == "cost";
    });
  Test wrong = [&](const Program& q) {
    std::optional<Failure> f = check_engines(q, backend);
    return f && f->oracle != "cost";
  };
  if (std::optional<Op> op = localize(p, wrong)) return op;
  return localize(with_composites(p), wrong);
}

}  // namespace

std::string oracle_family(const std::string& oracle) {
  return oracle == "memory" || oracle == "composites" ? "engines" : oracle;
}

std::string failure_signature(const Failure& f, const Program& p, Backend& backend) {
  std::string family = oracle_family(f.oracle);
  if (family != "engines" && family != "cost" && family != "roundtrip") return by_outputs(f, p);
  if (std::optional<Op> op = culprit(family, p, backend))
    return family + "-" + std::string(op_name(*op));
  return by_outputs(f, p);
}

}  // namespace uopc

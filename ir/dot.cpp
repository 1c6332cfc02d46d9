#include "ir/dot.h"

#include <unordered_map>
#include <unordered_set>

#include "ir/print.h"

namespace uopc {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// The statement text with named operands shown as "_" (they are the edges) and literals kept;
// long stacks of literals are cut so the box stays readable.
std::string op_label(const UOp& n) {
  std::string text = print_op(n, [](const UOp*) { return std::string("_"); });
  constexpr size_t kMaxLabel = 72;
  if (text.size() > kMaxLabel) text = text.substr(0, kMaxLabel) + " ...";
  return text;
}

}  // namespace

std::string program_to_dot(const Program& p) {
  std::vector<const UOp*> order = topo_order(p.roots());
  std::unordered_map<const UOp*, std::string> names;
  for (const Statement& s : p.statements) names.emplace(s.node.get(), s.name);
  std::unordered_set<const UOp*> outputs;
  for (const Statement* s : p.outputs()) outputs.insert(s->node.get());

  std::unordered_map<const UOp*, int> id;
  std::string out = "digraph uir {\n  node [shape=box, fontname=\"monospace\"];\n";
  for (const UOp* n : order) {
    if (n->op == Op::Const) continue;  // literals are part of their users' labels
    int k = static_cast<int>(id.size());
    id.emplace(n, k);
    std::string attrs;
    std::string label;
    {
      auto it = names.find(n);
      if (it != names.end()) label = it->second + " = ";
      label = escape(label + op_label(*n));
      if (n->op != Op::Assert)
        label += "\\n" + std::string(dtype_name(n->dtype)) + shape_str(n->shape);
      if (n->op == Op::Assert) attrs = ", shape=diamond";
      if (outputs.count(n)) attrs += ", style=bold";
    }
    out += "  n" + std::to_string(k) + " [label=\"" + label + "\"" + attrs + "];\n";
  }
  for (const UOp* n : order) {
    if (n->op == Op::Const) continue;
    for (size_t i = 0; i < n->src.size(); ++i) {
      if (n->src[i]->op == Op::Const) continue;
      out += "  n" + std::to_string(id.at(n->src[i].get())) + " -> n" + std::to_string(id.at(n));
      if (n->src.size() > 1) out += " [label=\"" + std::to_string(i) + "\"]";
      out += ";\n";
    }
  }
  return out + "}\n";
}

}  // namespace uopc

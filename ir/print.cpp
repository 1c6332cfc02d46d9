#include "ir/print.h"

#include <unordered_map>
#include <unordered_set>

namespace uopc {
namespace {

class Namer {
 public:
  explicit Namer(const Program& p) {
    for (const Statement& s : p.statements) taken_.insert(s.name);
  }
  std::string fresh() {
    std::string name;
    do name = "%t" + std::to_string(next_++);
    while (taken_.count(name));
    return name;
  }

 private:
  std::unordered_set<std::string> taken_;
  int next_ = 0;
};

// A literal the parser would broadcast (to a scalar it stays a bare literal).
bool is_broadcast_literal(const UOp* n) {
  return n->op == Op::Expand && n->src[0]->op == Op::Const && n->rank() > 0;
}

using Users = std::unordered_map<const UOp*, std::vector<const UOp*>>;

// Literals broadcast to the shape of an elementwise op or assert that also reads a value of
// that shape: these print as the literal operand (`max %x 0`), as they are usually written,
// and the parser broadcasts them back to the same node. A root is always a statement.
std::unordered_set<const UOp*> literal_operands(const std::vector<const UOp*>& order,
                                                const Users& users,
                                                const std::unordered_set<const UOp*>& roots) {
  std::unordered_set<const UOp*> out;
  for (const UOp* n : order) {
    auto it = users.find(n);
    if (!is_broadcast_literal(n) || roots.count(n) || it == users.end()) continue;
    bool inline_everywhere = true;
    for (const UOp* u : it->second) {
      bool has_shape_giver = false;
      for (const UOpRef& s : u->src)
        has_shape_giver |=
            s->op != Op::Const && !is_broadcast_literal(s.get()) && s->shape == n->shape;
      inline_everywhere &= (is_alu(u->op) || u->op == Op::Assert) && has_shape_giver;
    }
    if (inline_everywhere) out.insert(n);
  }
  return out;
}

}  // namespace

std::string print_program(const Program& p) {
  std::vector<UOpRef> roots = p.roots();
  std::vector<const UOp*> order = topo_order(roots);

  Users users;
  for (const UOp* n : order)
    for (const UOpRef& s : n->src) users[s.get()].push_back(n);
  // printed_last: the outputs no node uses, and the asserts.
  std::unordered_set<const UOp*> root_set, printed_last;
  for (const UOpRef& r : roots) {
    root_set.insert(r.get());
    if (!users.count(r.get())) printed_last.insert(r.get());
  }

  // Body names: the first statement that is printed in the body under its own name.
  std::unordered_map<const UOp*, std::string> name;
  for (const Statement& s : p.statements)
    if (s.used && !name.count(s.node.get())) name.emplace(s.node.get(), s.name);
  std::unordered_set<const UOp*> literals = literal_operands(order, users, root_set);
  for (const UOp* n : literals) name[n] = format_literal(n->src[0]->value);
  Namer namer(p);
  auto name_of = [&](const UOp* n) -> const std::string& { return name.at(n); };

  std::string out;
  for (const UOp* n : order) {
    if (n->op == Op::Const || printed_last.count(n) || literals.count(n)) continue;
    auto it = name.find(n);
    if (it == name.end()) it = name.emplace(n, namer.fresh()).first;
    out += it->second + " = " + print_op(*n, name_of) + "\n";
  }
  for (const Statement& s : p.statements) {
    if (s.used) continue;
    out += s.name + " = " + print_op(*s.node, name_of) + "\n";
  }
  return out;
}

}  // namespace uopc

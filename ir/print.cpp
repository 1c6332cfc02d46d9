#include "ir/print.h"

#include <memory_resource>
#include <unordered_map>
#include <unordered_set>

#include "ir/arena.h"
#include "ir/plant.h"

namespace uopc {
namespace {

// Fresh names for nodes no statement names; most programs need none, so the names taken are
// only gathered for the first.
class Namer {
 public:
  explicit Namer(const Program& p) : p_(p) {}
  std::string fresh() {
    if (taken_.empty())
      for (const Statement& s : p_.statements) taken_.insert(s.name);
    std::string name;
    do name = "%t" + std::to_string(next_++);
    while (taken_.count(name));
    return name;
  }

 private:
  const Program& p_;
  std::unordered_set<std::string> taken_;
  int next_ = 0;
};

// A literal the parser would broadcast (to a scalar it stays a bare literal).
bool is_broadcast_literal(const UOp* n) {
  return n->op == Op::Expand && n->src[0]->op == Op::Const && n->rank() > 0;
}

using Users = std::pmr::unordered_map<const UOp*, std::pmr::vector<const UOp*>>;
using NodeSet = std::pmr::unordered_set<const UOp*>;

// Literals broadcast to the shape of an elementwise op or assert that also reads a value of
// that shape: these print as the literal operand (`max %x 0`), as they are usually written,
// and the parser broadcasts them back to the same node. A root is always a statement.
NodeSet literal_operands(const std::vector<const UOp*>& order, const Users& users,
                         const NodeSet& roots, Arena& arena) {
  NodeSet out(&arena);
  for (const UOp* n : order) {
    auto it = users.find(n);
    if (!is_broadcast_literal(n) || roots.count(n) || it == users.end()) continue;
    bool inline_everywhere = true;
    for (const UOp* u : it->second) {
      bool has_shape_giver = false;
      for (const UOpRef& s : u->src)
        has_shape_giver |=
            s->op != Op::Const && !is_broadcast_literal(s.get()) && s->shape == n->shape;
      bool broadcasts = is_alu(u->op) || u->op == Op::Assert;
      inline_everywhere &= (broadcasts || planted(Plant::LiteralOperandAnyOp)) && has_shape_giver;
    }
    if (inline_everywhere) out.insert(n);
  }
  return out;
}

template <class NameOf>
void append_statement(std::string& out, const std::string& name, const UOp& n, NameOf& name_of) {
  out.append(name).append(" = ");
  append_op(out, n, name_of);
  out.push_back('\n');
}

}  // namespace

std::string print_program(const Program& p, const PrintOptions& options) {
  std::vector<UOpRef> roots = p.roots();
  std::vector<const UOp*> order = topo_order(roots);

  // The tables live as long as this call: one arena, not an allocation per entry.
  Arena arena;
  Users users(&arena);
  for (const UOp* n : order)
    for (const UOpRef& s : n->src) users[s.get()].push_back(n);
  // printed_last: the outputs no node uses, and the asserts.
  NodeSet root_set(&arena), printed_last(&arena);
  for (const UOpRef& r : roots) {
    root_set.insert(r.get());
    if (!users.count(r.get())) printed_last.insert(r.get());
  }

  // Body names: the first statement that is printed in the body under its own name.
  std::pmr::unordered_map<const UOp*, std::string> name(&arena);
  for (const Statement& s : p.statements)
    if (s.used && !name.count(s.node.get())) name.emplace(s.node.get(), s.name);
  NodeSet literals(&arena);
  if (options.literal_operands) literals = literal_operands(order, users, root_set, arena);
  for (const UOp* n : literals) name[n] = format_literal(n->src[0]->value);
  Namer namer(p);
  auto name_of = [&](const UOp* n) -> const std::string& { return name.at(n); };

  std::string out;
  out.reserve(32 * order.size());
  for (const UOp* n : order) {
    if (n->op == Op::Const || printed_last.count(n) || literals.count(n)) continue;
    auto it = name.find(n);
    if (it == name.end()) it = name.emplace(n, namer.fresh()).first;
    append_statement(out, it->second, *n, name_of);
  }
  for (const Statement& s : p.statements) {
    if (s.used) continue;
    append_statement(out, s.name, *s.node, name_of);
  }
  return out;
}

}  // namespace uopc

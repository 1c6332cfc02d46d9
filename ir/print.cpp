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

}  // namespace

std::string print_program(const Program& p) {
  std::vector<UOpRef> roots = p.roots();
  std::vector<const UOp*> order = topo_order(roots);

  std::unordered_set<const UOp*> has_user;
  for (const UOp* n : order)
    for (const UOpRef& s : n->src) has_user.insert(s.get());
  std::unordered_set<const UOp*> printed_last;  // outputs no node uses, and asserts
  for (const UOpRef& r : roots)
    if (!has_user.count(r.get())) printed_last.insert(r.get());

  // Body names: the first statement that is printed in the body under its own name.
  std::unordered_map<const UOp*, std::string> name;
  for (const Statement& s : p.statements)
    if (s.used && !name.count(s.node.get())) name.emplace(s.node.get(), s.name);
  Namer namer(p);
  auto name_of = [&](const UOp* n) -> const std::string& { return name.at(n); };

  std::string out;
  for (const UOp* n : order) {
    if (n->op == Op::Const || printed_last.count(n)) continue;
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

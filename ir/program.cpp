#include "ir/program.h"

#include <unordered_map>
#include <unordered_set>

#include "ir/arena.h"
#include "ir/build.h"
#include "ir/error.h"

namespace uopc {

std::vector<const Statement*> Program::outputs() const {
  std::vector<const Statement*> out;
  for (const Statement& s : statements)
    if (!s.used && !s.is_assert()) out.push_back(&s);
  return out;
}

std::vector<const Statement*> Program::asserts() const {
  std::vector<const Statement*> out;
  for (const Statement& s : statements)
    if (s.is_assert()) out.push_back(&s);
  return out;
}

std::vector<UOpRef> Program::roots() const {
  std::vector<UOpRef> out;
  for (const Statement& s : statements)
    if (s.is_assert() || !s.used) out.push_back(s.node);
  return out;
}

bool same_graph(const Program& a, const Program& b) {
  auto key = [](const Program& p) {
    std::vector<std::pair<std::string, const UOp*>> k;
    for (const Statement* s : p.outputs()) k.emplace_back(s->name, s->node.get());
    for (const Statement* s : p.asserts()) k.emplace_back("assert", s->node.get());
    return k;
  };
  return key(a) == key(b);
}

std::vector<const UOp*> topo_order(const std::vector<UOpRef>& roots) {
  std::vector<const UOp*> order;
  order.reserve(128);  // most graphs fit: one allocation, not one per doubling
  Arena arena;
  std::pmr::unordered_set<const UOp*> seen(&arena);
  std::pmr::vector<std::pair<const UOp*, size_t>> stack(&arena);  // node, next source to visit
  for (const UOpRef& root : roots) {
    if (!seen.insert(root.get()).second) continue;
    stack.emplace_back(root.get(), 0);
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < node->src.size()) {
        const UOp* s = node->src[next++].get();
        if (seen.insert(s).second) stack.emplace_back(s, 0);
        continue;
      }
      order.push_back(node);
      stack.pop_back();
    }
  }
  return order;
}

// Refuses the first value over the limit, blaming the statement that introduced it.
void check_value_sizes(const Program& p, int64_t limit,
                       const std::function<bool(const UOp*)>& stored) {
  Arena arena;
  std::pmr::unordered_set<const UOp*> seen(&arena);
  std::pmr::vector<const UOp*> work(&arena);
  for (const Statement& s : p.statements) {
    work.push_back(s.node.get());
    while (!work.empty()) {
      const UOp* n = work.back();
      work.pop_back();
      if (!seen.insert(n).second) continue;
      if (n->numel() > limit && (!stored || stored(n)))
        throw UserError(Location{p.file, s.line},
                        s.name + ": " +
                            (n == s.node.get() ? "this value"
                             : stored          ? "a value it computes and stores"
                                               : "a value it broadcasts to") +
                            ", " + std::string(dtype_name(n->dtype)) + shape_str(n->shape) +
                            ", has " + std::to_string(n->numel()) +
                            " elements, more than the limit of " + std::to_string(limit) +
                            "; raise it with --max-elements N");
      for (const UOpRef& src : n->src) work.push_back(src.get());
    }
  }
}

Program replace_node(const Program& p, const UOp* from, const UOpRef& to) {
  return replace_nodes(p, {{from, to}});
}

Program replace_nodes(const Program& p, const std::unordered_map<const UOp*, UOpRef>& to) {
  std::unordered_map<const UOp*, UOpRef> memo;
  std::vector<UOpRef> roots = p.roots();
  for (const UOp* n : topo_order(roots)) {
    if (auto it = to.find(n); it != to.end()) {
      memo.emplace(n, it->second);
      continue;
    }
    std::vector<UOpRef> src;
    bool same = true;
    for (const UOpRef& s : n->src) {
      src.push_back(memo.at(s.get()));
      same &= src.back() == s;
    }
    memo.emplace(n, same ? shared_from(n) : with_sources(*n, src));
  }
  Program q;
  q.file = p.file;
  for (const Statement& s : p.statements)
    if (s.is_assert() || !s.used)
      q.statements.push_back({s.name, memo.at(s.node.get()), s.line, false});
  return q;
}

}  // namespace uopc

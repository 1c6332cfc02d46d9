#include "compiler/linearize.h"

#include <algorithm>
#include <memory_resource>
#include <optional>
#include <queue>
#include <span>
#include <stdexcept>
#include <unordered_map>

#include "ir/arena.h"
#include "ir/loop.h"
#include "ir/program.h"

namespace uopc {
namespace {

// Sorted by id, no duplicates. Kept in the linearizer's arena: there is one for each node.
using Ranges = std::pmr::vector<const UOp*>;

bool by_id(const UOp* a, const UOp* b) {
  return range_id(*a) < range_id(*b);
}

void add_all(Ranges& to, std::span<const UOp* const> from) {
  for (const UOp* r : from)
    if (std::find(to.begin(), to.end(), r) == to.end()) to.push_back(r);
  std::sort(to.begin(), to.end(), by_id);
}

void add_one(Ranges& to, const UOp* r) {
  add_all(to, std::span<const UOp* const>(&r, 1));
}

bool contains(const Ranges& s, const UOp* r) {
  return std::find(s.begin(), s.end(), r) != s.end();
}

// Nodes that are never placed: values available everywhere.
bool is_free(const UOp* n) {
  return n->op == Op::Const || n->op == Op::Param || n->op == Op::Alloc || n->op == Op::Range ||
         n->op == Op::Table;
}

class Linearizer {
 public:
  explicit Linearizer(const UOpRef& sink) : order_(topo_order({sink})) {
    for (size_t i = 0; i < order_.size(); ++i) pos_[order_[i]] = i;
  }

  LoopBlock run() {
    compute_scopes();
    compute_nesting();
    place();
    LoopBlock top;
    build(top, nullptr);
    return top;
  }

 private:
  [[noreturn]] static void fail(const std::string& what) {
    throw std::logic_error("linearize: " + what);
  }

  void compute_scopes() {
    for (const UOp* n : order_) {
      Ranges s(&arena_);
      if (n->op == Op::Range) {
        s.push_back(n);
      } else if (n->op == Op::End) {
        for (const UOp* r : scope_[n->src[0].get()])
          if (std::none_of(n->src.begin() + 1, n->src.end(),
                           [&](const UOpRef& e) { return e.get() == r; }))
            s.push_back(r);
      } else {
        for (const UOpRef& src : n->src) add_all(s, scope_[src.get()]);
      }
      scope_[n] = std::move(s);
    }
  }

  // enclosing_[r]: the ranges whose loops contain r's loop.
  void compute_nesting() {
    for (const UOp* n : order_) {
      if (n->op != Op::End) continue;
      Ranges closed(&arena_);
      for (size_t i = 1; i < n->src.size(); ++i) closed.push_back(n->src[i].get());
      std::sort(closed.begin(), closed.end(), by_id);
      const Ranges& body = scope_[n->src[0].get()];
      for (size_t i = 0; i < closed.size(); ++i) {
        Ranges& enc = enclosing_[closed[i]];
        for (const UOp* r : body)
          if (!contains(closed, r)) add_one(enc, r);
        add_all(enc, std::span<const UOp* const>(closed.data(), i));
      }
    }
    // A loop inside r is inside every loop around r too.
    for (bool grew = true; grew;) {
      grew = false;
      for (auto& [r, enc] : enclosing_) {
        size_t before = enc.size();
        for (size_t i = 0; i < enc.size(); ++i) add_all(enc, Ranges(enclosing_[enc[i]], &arena_));
        grew |= enc.size() != before;
      }
    }
    for (const UOp* n : order_) {
      if (n->op != Op::Range) continue;
      if (!ended(n)) fail("range " + std::to_string(range_id(*n)) + " is never closed by an end");
      // Else it would be its own parent, and walking up from it would never end.
      if (contains(enclosing_[n], n))
        fail("range " + std::to_string(range_id(*n)) + " is inside its own loop");
      const UOp* p = innermost(enclosing_[n]);
      parent_[n] = p;
      Ranges expect = p ? Ranges(enclosing_[p], &arena_) : Ranges(&arena_);
      if (p) add_one(expect, p);
      if (expect != enclosing_[n])
        fail("the loops around range " + std::to_string(range_id(*n)) + " do not nest");
    }
  }

  // Every range closed by some END has an entry in enclosing_, if only an empty one.
  bool ended(const UOp* r) const { return enclosing_.count(r) > 0; }

  size_t depth(const UOp* r) const {
    auto it = enclosing_.find(r);
    return it == enclosing_.end() ? 0 : it->second.size();
  }

  const UOp* innermost(const Ranges& s) const {
    const UOp* best = nullptr;
    for (const UOp* r : s)
      if (!best || depth(r) > depth(best)) best = r;
    return best;
  }

  void place() {
    for (const UOp* n : order_) {
      if (is_free(n)) continue;
      const UOp* in = innermost(scope_[n]);
      Ranges need = in ? Ranges(enclosing_[in], &arena_) : Ranges(&arena_);
      if (in) add_one(need, in);
      for (const UOp* r : scope_[n])
        if (!contains(need, r)) fail(std::string(op_name(n->op)) + " needs loops that do not nest");
      block_[n] = in;
    }
  }

  // The item of block `b` that holds (or is) the place of node block `at`, or null if `at` is
  // not inside b.
  const UOp* child_of(const UOp* b, const UOp* at) const {
    const UOp* prev = nullptr;
    for (const UOp* x = at;; x = parent_.at(x)) {
      if (x == b) return prev ? prev : b;
      if (!x) return nullptr;
      prev = x;
    }
  }

  struct Item {
    const UOp* node;  // a node, or the range of a child loop
    bool loop;
  };

  void build(LoopBlock& block, const UOp* b) {
    block.range = b;
    Arena arena;  // this block's tables
    std::pmr::vector<Item> items(&arena);
    std::pmr::unordered_map<const UOp*, size_t> index(&arena);  // node or loop range -> item
    for (const UOp* n : order_) {
      if (!is_free(n) && block_[n] == b) {
        index[n] = items.size();
        items.push_back({n, false});
      }
      if (n->op == Op::Range && parent_[n] == b) {
        index[n] = items.size();
        items.push_back({n, true});
      }
    }
    // The item of this block that contains node n, if n is in this block's subtree.
    auto item_of = [&](const UOp* n) -> std::optional<size_t> {
      if (is_free(n)) return std::nullopt;
      const UOp* at = block_[n];
      if (at == b) return index.at(n);
      const UOp* c = child_of(b, at);
      if (!c || c == b) return std::nullopt;
      return index.at(c);
    };
    std::pmr::vector<std::pmr::vector<size_t>> users(items.size(), &arena);
    std::pmr::vector<size_t> waiting(items.size(), 0, &arena);
    std::pmr::vector<size_t> first(items.size(), SIZE_MAX, &arena);
    for (const UOp* n : order_) {
      std::optional<size_t> mine = item_of(n);
      if (!mine) continue;
      first[*mine] = std::min(first[*mine], pos_.at(n));
      for (const UOpRef& s : n->src) {
        std::optional<size_t> dep = item_of(s.get());
        if (!dep || *dep == *mine) continue;
        users[*dep].push_back(*mine);
        ++waiting[*mine];
      }
    }
    using Entry = std::pair<size_t, size_t>;  // (first position, item)
    std::priority_queue<Entry, std::pmr::vector<Entry>, std::greater<>> ready{
        std::greater<>(), std::pmr::vector<Entry>(&arena)};
    for (size_t i = 0; i < items.size(); ++i)
      if (waiting[i] == 0) ready.push({first[i], i});
    while (!ready.empty()) {
      size_t i = ready.top().second;
      ready.pop();
      BlockItem out;
      if (items[i].loop) {
        out.loop = std::make_unique<LoopBlock>();
        build(*out.loop, items[i].node);
      } else {
        out.node = items[i].node;
      }
      block.items.push_back(std::move(out));
      for (size_t u : users[i])
        if (--waiting[u] == 0) ready.push({first[u], u});
    }
    if (block.items.size() != items.size()) fail("the kernel's dependencies form a cycle");
  }

  Arena arena_;  // the tables' entries
  std::vector<const UOp*> order_;
  std::pmr::unordered_map<const UOp*, size_t> pos_{&arena_};
  std::pmr::unordered_map<const UOp*, Ranges> scope_{&arena_};
  std::pmr::unordered_map<const UOp*, Ranges> enclosing_{&arena_};
  std::pmr::unordered_map<const UOp*, const UOp*> parent_{&arena_};
  std::pmr::unordered_map<const UOp*, const UOp*> block_{&arena_};
};

}  // namespace

LoopBlock linearize(const UOpRef& sink) {
  return Linearizer(sink).run();
}

}  // namespace uopc

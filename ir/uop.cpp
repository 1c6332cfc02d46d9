#include "ir/uop.h"

#include <mutex>
#include <unordered_map>

namespace uopc {
namespace {

size_t mix(size_t h, size_t v) {
  return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
}

size_t hash_fields(const UOp& n) {
  size_t h = mix(static_cast<size_t>(n.op), static_cast<size_t>(n.dtype));
  for (int64_t d : n.shape) h = mix(h, static_cast<size_t>(d));
  h = mix(h, n.shape.size());
  for (const UOpRef& s : n.src) h = mix(h, reinterpret_cast<size_t>(s.get()));
  for (int64_t a : n.arg) h = mix(h, static_cast<size_t>(a));
  h = mix(h, static_cast<size_t>(n.value.dtype));
  return mix(h, n.value.bits);
}

bool same_fields(const UOp& a, const UOp& b) {
  if (a.op != b.op || a.dtype != b.dtype || a.shape != b.shape || a.arg != b.arg) return false;
  if (!(a.value == b.value) || a.src.size() != b.src.size()) return false;
  for (size_t i = 0; i < a.src.size(); ++i)
    if (a.src[i].get() != b.src[i].get()) return false;
  return true;
}

struct Entry {
  const UOp* node;
  std::weak_ptr<const UOp> ref;
};

// Leaked on purpose: nodes may outlive static destruction order.
struct Table {
  std::mutex mutex;
  std::unordered_multimap<size_t, Entry> entries;
};
Table& table() {
  static Table* t = new Table;
  return *t;
}

void forget(const UOp* node) {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  auto [first, last] = t.entries.equal_range(node->hash);
  for (auto it = first; it != last; ++it) {
    if (it->second.node == node) {
      t.entries.erase(it);
      return;
    }
  }
}

// Deleting a node releases its sources, which may delete them in turn. Those nested deletions
// are queued here and drained by the outermost call, so the stack stays flat.
struct Pending {
  std::vector<const UOp*> nodes;
  bool draining = false;
  ~Pending();
};
// Nodes held by static objects die after this thread's thread_locals; this flag (trivially
// destructible, so still readable then) says the queue is gone.
thread_local bool pending_gone = false;
Pending::~Pending() {
  pending_gone = true;
}
thread_local Pending pending;

void release(const UOp* node) {
  forget(node);
  if (pending_gone) {
    delete node;
    return;
  }
  pending.nodes.push_back(node);
  if (pending.draining) return;
  pending.draining = true;
  while (!pending.nodes.empty()) {
    const UOp* next = pending.nodes.back();
    pending.nodes.pop_back();
    delete next;
  }
  pending.draining = false;
}

}  // namespace

UOpRef make_uop(Op op, DType dtype, Shape shape, std::vector<UOpRef> src, std::vector<int64_t> arg,
                Scalar value, Interval bounds) {
  // Looked up before anything is allocated: most requests find an existing node.
  UOp probe{op, dtype, std::move(shape), std::move(src), std::move(arg), value, bounds, 0};
  probe.hash = hash_fields(probe);
  Table& t = table();
  std::lock_guard lock(t.mutex);
  auto [first, last] = t.entries.equal_range(probe.hash);
  for (auto it = first; it != last; ++it) {
    if (!same_fields(*it->second.node, probe)) continue;
    if (UOpRef existing = it->second.ref.lock()) return existing;
  }
  const UOp* raw = new UOp(std::move(probe));
  UOpRef ref(raw, release);
  t.entries.emplace(raw->hash, Entry{raw, ref});
  return ref;
}

UOpRef shared_from(const UOp* node) {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  auto [first, last] = t.entries.equal_range(node->hash);
  for (auto it = first; it != last; ++it)
    if (it->second.node == node) return it->second.ref.lock();
  return nullptr;
}

size_t live_uop_count() {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  return t.entries.size();
}

}  // namespace uopc

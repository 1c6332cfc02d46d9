#include "ir/uop.h"

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace uopc {
namespace {

size_t mix(size_t h, size_t v) {
  return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
}

size_t hash_fields(const UOpFields& n) {
  size_t h = mix(static_cast<size_t>(n.op), static_cast<size_t>(n.dtype));
  for (int64_t d : n.shape) h = mix(h, static_cast<size_t>(d));
  h = mix(h, n.shape.size());
  for (const UOpRef& s : n.src) h = mix(h, reinterpret_cast<size_t>(s.get()));
  for (int64_t a : n.arg) h = mix(h, static_cast<size_t>(a));
  h = mix(h, static_cast<size_t>(n.value.dtype));
  return mix(h, n.value.bits);
}

bool same_span(std::span<const int64_t> a, std::span<const int64_t> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

bool same_fields(const UOp& a, const UOpFields& b) {
  if (a.op != b.op || a.dtype != b.dtype || !same_span(a.shape, b.shape) ||
      !same_span(a.arg, b.arg))
    return false;
  if (!(a.value == b.value) || a.src.size() != b.src.size()) return false;
  for (size_t i = 0; i < a.src.size(); ++i)
    if (a.src[i].get() != b.src[i].get()) return false;
  return true;
}

// The node's hash is kept beside it: a probe that compares only hashes does not read the node,
// and the table of a long run holds hundreds of thousands of them.
struct Entry {
  const UOp* node = nullptr;
  size_t hash = 0;
  std::weak_ptr<const UOp> ref;
};

// Open addressing with linear probing, at most half full, so a new node costs no allocation
// of its own here (a node-based map allocated one for each). Erasing shifts the probe run
// back instead of leaving markers.
class InternTable {
 public:
  // The live node with these fields, if any.
  UOpRef find_same(const UOpFields& probe, size_t hash) const {
    for (size_t k = start(hash); slots_[k].node; k = next(k))
      if (slots_[k].hash == hash && same_fields(*slots_[k].node, probe))
        if (UOpRef existing = slots_[k].ref.lock()) return existing;
    return nullptr;
  }
  // The entry of a node that is alive or being deleted.
  const Entry* find(const UOp* node) const {
    for (size_t k = start(node->hash); slots_[k].node; k = next(k))
      if (slots_[k].node == node) return &slots_[k];
    return nullptr;
  }
  void insert(const UOp* node, const UOpRef& ref) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    place(Entry{node, node->hash, ref});
    ++size_;
  }
  void erase(const UOp* node) {
    size_t k = start(node->hash);
    while (slots_[k].node != node) {
      if (!slots_[k].node) return;
      k = next(k);
    }
    slots_[k] = Entry{};
    --size_;
    // Moves back each later entry of the run that may no longer be reachable past the hole.
    for (size_t hole = k, j = next(k); slots_[j].node; j = next(j)) {
      size_t home = start(slots_[j].hash);
      bool reachable = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
      if (reachable) continue;
      slots_[hole] = std::move(slots_[j]);
      slots_[j] = Entry{};
      hole = j;
    }
  }
  size_t size() const { return size_; }

 private:
  size_t start(size_t hash) const { return (hash * 0x9e3779b97f4a7c15ull) >> shift_; }
  size_t next(size_t k) const { return (k + 1) & (slots_.size() - 1); }
  void place(Entry e) {
    size_t k = start(e.hash);
    while (slots_[k].node) k = next(k);
    slots_[k] = std::move(e);
  }
  void grow() {
    std::vector<Entry> old(slots_.size() * 2);
    old.swap(slots_);
    --shift_;
    for (Entry& e : old)
      if (e.node) place(std::move(e));
  }

  std::vector<Entry> slots_ = std::vector<Entry>(1024);
  int shift_ = 64 - 10;
  size_t size_ = 0;
};

// Leaked on purpose: nodes may outlive static destruction order.
struct Table {
  std::mutex mutex;
  InternTable entries;
};
Table& table() {
  static Table* t = new Table;
  return *t;
}

void forget(const UOp* node) {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  t.entries.erase(node);
}

// Deleting a node releases its sources, which may delete them in turn. Those nested releases
// are queued here and drained by the outermost deletion, so the stack stays flat.
struct Pending {
  std::vector<UOpRef> refs;
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

// A node as the table makes it: one allocation with its reference count, leaving the table when
// it dies.
struct Interned : UOp {
  explicit Interned(UOp&& fields) : UOp(std::move(fields)) {}
  Interned(const Interned&) = delete;
  Interned& operator=(const Interned&) = delete;
  ~Interned() {
    forget(this);
    if (pending_gone) return;  // the sources are released by the members' destructors
    for (UOpRef& s : src) pending.refs.push_back(std::move(s));
    if (pending.draining) return;
    pending.draining = true;
    while (!pending.refs.empty()) {
      UOpRef next = std::move(pending.refs.back());
      pending.refs.pop_back();
    }
    pending.draining = false;
  }
};

// A literal or a pad's fill holds a value of the node's own dtype. A pass that builds one
// from the wrong dtype's identity or fill would otherwise hand the renderer bits it prints
// as another type's number.
void check_value_dtype(const UOpFields& f) {
  if ((f.op != Op::Const && f.op != Op::Pad) || f.value.dtype == f.dtype) return;
  throw std::logic_error("literal: a " + std::string(op_name(f.op)) + " of dtype " +
                         std::string(dtype_name(f.dtype)) + " made with the " +
                         std::string(dtype_name(f.value.dtype)) + " value " +
                         format_element(f.value));
}

// The node with `fields`, or a new one made of the UOp that `create` returns.
template <class Create>
UOpRef intern(const UOpFields& fields, Create create) {
  size_t hash = hash_fields(fields);
  Table& t = table();
  std::lock_guard lock(t.mutex);
  if (UOpRef existing = t.entries.find_same(fields, hash)) return existing;
  check_value_dtype(fields);
  auto node = std::make_shared<Interned>(create());
  node->hash = hash;
  t.entries.insert(node.get(), node);
  return node;
}

}  // namespace

UOpRef make_uop(Op op, DType dtype, Shape shape, std::vector<UOpRef> src, std::vector<int64_t> arg,
                Scalar value, Interval bounds) {
  return intern({op, dtype, shape, src, arg, value}, [&] {
    return UOp{op, dtype, std::move(shape), std::move(src), std::move(arg), value, bounds, 0};
  });
}

UOpRef make_uop(const UOpFields& f, Interval bounds) {
  return intern(f, [&] {
    return UOp{f.op,
               f.dtype,
               Shape(f.shape.begin(), f.shape.end()),
               std::vector<UOpRef>(f.src.begin(), f.src.end()),
               std::vector<int64_t>(f.arg.begin(), f.arg.end()),
               f.value,
               bounds,
               0};
  });
}

UOpRef shared_from(const UOp* node) {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  const Entry* e = t.entries.find(node);
  return e ? e->ref.lock() : nullptr;
}

size_t live_uop_count() {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  return t.entries.size();
}

}  // namespace uopc

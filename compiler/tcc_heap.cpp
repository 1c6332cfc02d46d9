#include "compiler/tcc_heap.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace uopc {
namespace {

constexpr int kSmallestClassLog = 5;
constexpr int kLargestClassLog = 22;
static_assert(kLargestClass == size_t{1} << kLargestClassLog);
constexpr size_t kDirect = SIZE_MAX;

// In front of every block; 16 bytes, so what follows keeps malloc's alignment.
struct Header {
  size_t class_log;  // kDirect for a block straight from malloc
  union {
    size_t size;   // a direct block's usable size
    Header* next;  // a free block's successor on its list
  };
};
static_assert(sizeof(Header) == 16);

struct Heap {
  std::mutex mutex;
  Header* lists[kLargestClassLog + 1] = {};
  TccHeapStats stats;
};

Heap& heap() {
  // Leaked on purpose: a module may be deleted during static destruction.
  static Heap* h = new Heap;
  return *h;
}

int class_log_for(size_t bytes) {
  int c = kSmallestClassLog;
  while ((size_t{1} << c) < bytes) ++c;
  return c;
}

size_t usable(const Header* h) {
  return h->class_log == kDirect ? h->size : (size_t{1} << h->class_log) - sizeof(Header);
}

Header* take(size_t size) {
  if (size > kLargestClass - sizeof(Header)) {
    auto* h = static_cast<Header*>(std::malloc(sizeof(Header) + size));
    if (!h) return nullptr;
    h->class_log = kDirect;
    h->size = size;
    return h;
  }
  int c = class_log_for(sizeof(Header) + size);
  Heap& hp = heap();
  Header* h = hp.lists[c];
  if (h) {
    hp.lists[c] = h->next;
    hp.stats.cached_bytes -= size_t{1} << c;
    ++hp.stats.reused;
  } else {
    h = static_cast<Header*>(std::malloc(size_t{1} << c));
    if (!h) return nullptr;
  }
  h->class_log = static_cast<size_t>(c);
  return h;
}

void give_back(Header* h) {
  Heap& hp = heap();
  size_t bytes = h->class_log == kDirect ? 0 : size_t{1} << h->class_log;
  if (bytes == 0 || hp.stats.cached_bytes + bytes > kMaxCachedBytes) {
    std::free(h);
    return;
  }
  h->next = hp.lists[h->class_log];
  hp.lists[h->class_log] = h;
  hp.stats.cached_bytes += bytes;
}

void* allocate(size_t size) {
  Heap& hp = heap();
  std::lock_guard lock(hp.mutex);
  Header* h = take(size);
  if (!h) return nullptr;
  ++hp.stats.allocations;
  ++hp.stats.in_use;
  return h + 1;
}

void release(void* p) {
  Heap& hp = heap();
  std::lock_guard lock(hp.mutex);
  --hp.stats.in_use;
  give_back(static_cast<Header*>(p) - 1);
}

}  // namespace

TccHeapStats tcc_heap_stats() {
  Heap& hp = heap();
  std::lock_guard lock(hp.mutex);
  return hp.stats;
}

}  // namespace uopc

extern "C" {

void* uopc_tcc_malloc(size_t size) {
  return uopc::allocate(size);
}

void* uopc_tcc_calloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return nullptr;
  void* p = uopc::allocate(count * size);
  if (p) std::memset(p, 0, count * size);
  return p;
}

void* uopc_tcc_realloc(void* p, size_t size) {
  if (!p) return uopc::allocate(size);
  // As glibc's realloc: size 0 frees.
  if (size == 0) {
    uopc::release(p);
    return nullptr;
  }
  size_t old = uopc::usable(static_cast<uopc::Header*>(p) - 1);
  if (size <= old) return p;
  void* q = uopc::allocate(size);
  if (!q) return nullptr;
  std::memcpy(q, p, old);
  uopc::release(p);
  return q;
}

void uopc_tcc_free(void* p) {
  if (p) uopc::release(p);
}

}  // extern "C"

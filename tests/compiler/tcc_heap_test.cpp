// libtcc's heap (compiler/tcc_heap.h): libtcc allocates through it, and what one compile frees
// the next one reuses.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "compiler/backend.h"
#include "compiler/tcc_heap.h"

namespace uopc {
namespace {

constexpr const char* kSource = "int twice(int x) { return 2 * x; }\n";

TEST(TccHeap, LibtccAllocatesThroughItAndTheNextCompileReuses) {
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  TccHeapStats start = tcc_heap_stats();
  tcc->compile(kSource).reset();
  TccHeapStats first = tcc_heap_stats();
  EXPECT_GT(first.allocations, start.allocations) << "libtcc's malloc does not come here";
  EXPECT_EQ(first.in_use, start.in_use) << "a deleted module left blocks behind";
  tcc->compile(kSource).reset();
  TccHeapStats second = tcc_heap_stats();
  size_t made = second.allocations - first.allocations;
  EXPECT_EQ(second.reused - first.reused, made) << "a second compile should need no new block";
  EXPECT_LE(second.cached_bytes, kMaxCachedBytes);
}

TEST(TccHeap, ReallocKeepsTheBytesAndCallocZeroes) {
  auto* p = static_cast<uint8_t*>(uopc_tcc_malloc(10));
  for (int k = 0; k < 10; ++k) p[k] = static_cast<uint8_t>(k + 1);
  // Through a size class and past the largest one.
  for (size_t size : {size_t{100}, size_t{5000}, kLargestClass + 1}) {
    p = static_cast<uint8_t*>(uopc_tcc_realloc(p, size));
    ASSERT_NE(p, nullptr);
    for (int k = 0; k < 10; ++k) ASSERT_EQ(p[k], k + 1) << "after growing to " << size;
  }
  uopc_tcc_free(p);
  auto* z = static_cast<uint8_t*>(uopc_tcc_malloc(4096));
  std::memset(z, 0xab, 4096);
  uopc_tcc_free(z);
  z = static_cast<uint8_t*>(uopc_tcc_calloc(64, 64));
  for (int k = 0; k < 4096; ++k) ASSERT_EQ(z[k], 0);
  uopc_tcc_free(z);
  EXPECT_EQ(uopc_tcc_calloc(SIZE_MAX / 2, 4), nullptr);
  EXPECT_EQ(uopc_tcc_realloc(uopc_tcc_malloc(8), 0), nullptr);
  uopc_tcc_free(nullptr);
}

TEST(TccHeap, BlocksKeepMallocsAlignment) {
  for (size_t size : {size_t{1}, size_t{24}, size_t{1000}, kLargestClass}) {
    void* p = uopc_tcc_malloc(size);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % alignof(std::max_align_t), 0u) << size;
    uopc_tcc_free(p);
  }
}

}  // namespace
}  // namespace uopc

// libtcc's heap: size classes kept for the next compile instead of going back to malloc.
//
// The build links a copy of libtcc whose calls to malloc, calloc, realloc and free are renamed
// to the functions below (compiler/CMakeLists.txt). Every compile makes a new TCCState, which
// allocates a few megabytes (its token and string arenas, its sections) and frees them again
// in tcc_delete. Under AddressSanitizer each of those blocks took a fresh mapping, page faults
// and a recorded allocation stack: compiling one small kernel cost 2 ms instead of 0.08 ms,
// the largest part of fuzz_diff's time on a new program. libtcc is not instrumented, so ASan
// checked nothing in those blocks; kept here, they are mapped once.
//
// Blocks of up to kLargestClass bytes are rounded up to a power of two and, when freed, kept
// on a list for their size (at most kMaxCachedBytes in all); larger ones go to malloc.
// Thread-safe: modules are deleted on whatever thread drops them.
#pragma once

#include <cstddef>

extern "C" {
void* uopc_tcc_malloc(size_t size);
void* uopc_tcc_calloc(size_t count, size_t size);
void* uopc_tcc_realloc(void* p, size_t size);
void uopc_tcc_free(void* p);
}

namespace uopc {

inline constexpr size_t kLargestClass = size_t{1} << 22;
inline constexpr size_t kMaxCachedBytes = size_t{64} << 20;

struct TccHeapStats {
  size_t allocations = 0;  // blocks handed to libtcc so far
  size_t reused = 0;       // of those, blocks taken from a list
  size_t in_use = 0;       // blocks libtcc holds now
  size_t cached_bytes = 0;
};

TccHeapStats tcc_heap_stats();

}  // namespace uopc

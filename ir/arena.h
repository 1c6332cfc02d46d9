// Scratch memory for one pass's bookkeeping: the visited sets, memo tables and work stacks a
// walk over a graph fills and then drops.
//
// Such tables allocate once per node. Under the fuzz preset's ASan every heap allocation
// records a stack trace, which made them most of what compiling a small program cost. An
// arena hands out memory by bumping a pointer, first from a buffer inside itself (on the
// stack, for a local) and then from blocks of growing size, and frees it all at once.
#pragma once

#include <cstddef>
#include <memory_resource>

namespace uopc {

class Arena : public std::pmr::monotonic_buffer_resource {
 public:
  Arena() : std::pmr::monotonic_buffer_resource(buffer_, sizeof buffer_) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

 private:
  alignas(std::max_align_t) std::byte buffer_[8192];
};

}  // namespace uopc

// The linearizer: a kernel's loop-program graph (a SINK) as nested loops of ordered nodes.
//
// Each node sits in the innermost loop of its scope: the ranges it depends on that no END
// below it has closed. Loop nesting comes from the ENDs: the ranges an END closes sit inside
// every range still open around its body, and of several ranges closed together the lower id
// is outside. Within a loop, nodes and child loops are ordered so that every source comes
// first (a child loop counts as one item), breaking ties by the order of a depth-first walk
// from the SINK, which keeps each value next to its first use. A value needed by a loop is
// computed before it; a value that depends on a loop's END comes after it: that is how a
// reduce loop becomes a sibling of the loops that read its result.
#pragma once

#include <memory>
#include <vector>

#include "ir/uop.h"

namespace uopc {

struct LoopBlock;

struct BlockItem {
  const UOp* node = nullptr;        // a node computed here, or
  std::unique_ptr<LoopBlock> loop;  // a loop nested here
};

struct LoopBlock {
  const UOp* range = nullptr;  // null for the kernel's top level
  std::vector<BlockItem> items;
};

// Throws std::logic_error when the graph has no consistent loop nest (a compiler bug).
LoopBlock linearize(const UOpRef& sink);

}  // namespace uopc

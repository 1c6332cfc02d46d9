// rangeify: a shaped graph to loops over scalars (the book's section 6.6).
//
// rangeify(u, idx) answers "what is the value of node u at index idx?", where idx holds one
// scalar expression per axis of u, usually loop counters. Each op answers by asking its
// sources at a transformed index: movement ops rewrite the index (reshape: ravel then unravel;
// permute: the inverse permutation; expand: 0 on broadcast axes; shrink: + offset; flip:
// size - 1 - i; pad: shifted, clamped into the source and guarded with where), stack selects
// with a where chain, elementwise ops combine their sources' values, buffers load. Reduce is
// the only op that makes loops: fresh RANGEs for its popped (leading) axes and an accumulator
// that lives in exactly the loops its index mentions, folded left in row-major order.
//
// Every new index is simplified at once (compiler/symbolic.h): an index that mentions a loop
// counter it does not depend on would put an accumulator inside that loop. Results are
// memoized per (node, index), so shared subgraphs are lowered once.
#pragma once

#include <functional>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/opts.h"
#include "ir/uop.h"

namespace uopc {

struct LowerContext {
  // The kernel parameter that holds a program buffer or a staged value.
  std::function<UOpRef(const UOp& node)> param_for;
  // The parameter holding `node` computed by a kernel of its own, which runs first.
  std::function<UOpRef(const UOp& node)> materialize;
  // The kernel's output loops, outermost first.
  std::vector<UOpRef> output_loops;
  // How this kernel maps onto the machine (compiler/opts.h), and its thread loop, if any.
  Opts opts;
  UOpRef thread_loop;
  // The unroll factor of every reduce lowered so far, shared by the kernels of a program so
  // that a reduce computed in two kernels folds in one order (the interpreter follows it).
  std::unordered_map<const UOp*, Unroll>* unrolled = nullptr;
  // The kernel's own reduce when it is blocked (Opts::block): the block loop, its size, and
  // the output that keeps the partial fold between blocks.
  const UOp* blocked = nullptr;
  UOpRef block_loop, block_out;
  int64_t block_size = 0;
  // Values read from a kernel of their own rather than computed here (auto_stages).
  std::unordered_set<const UOp*> staged;

  int64_t next_range = 0;
  int64_t next_alloc = 0;
  std::map<std::vector<const UOp*>, UOpRef> memo;                       // {node, idx...} -> value
  std::map<std::vector<const UOp*>, std::vector<UOpRef>> reduce_loops;  // {reduce, open ranges...}
  std::unordered_map<const UOp*, int64_t> reduce_demand;     // elements computed inline so far
  std::unordered_map<const UOp*, std::vector<UOpRef>> open;  // open ranges below a node
  // The loops around each loop this kernel made: where it will sit once linearized.
  std::unordered_map<const UOp*, std::vector<UOpRef>> enclosing;
  std::map<std::vector<const UOp*>, UOpRef> shared_acc;  // only for a planted bug
  std::vector<UOpRef> keep;                              // memo keys' nodes stay alive
};

UOpRef rangeify(const UOpRef& u, const std::vector<UOpRef>& idx, LowerContext& ctx);

// The kernel that stores every element of `root` into `out` (a param of root's size), row
// major, as a SINK, in the loops ctx.opts asks for. A stage root computes its source: the
// stage is this kernel's output.
UOpRef lower_kernel(const UOpRef& root, const UOpRef& out, LowerContext& ctx);

// Row-major position of idx in `shape`, and back.
UOpRef ravel(const std::vector<UOpRef>& idx, const Shape& shape);
std::vector<UOpRef> unravel(const UOpRef& flat, const Shape& shape);

// The loops (RANGE nodes, by id) an expression is inside of: ranges it mentions that no END
// below it has closed.
std::vector<UOpRef> open_ranges(const std::vector<UOpRef>& exprs, LowerContext& ctx);

}  // namespace uopc

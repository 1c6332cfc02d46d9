// The node of every uopc graph: immutable, typed and hash-consed.
//
// A UOp is {op, dtype, shape, src, arg, value}. It is only ever created through make_uop, which
// returns the one existing node with the same fields when there is one, so pointer equality is
// structural equality: identical subgraphs are one node, and memo tables keyed on pointers are
// exact. Type rules are not checked here; ir/build.h checks them before calling make_uop.
//
// The intern table holds its nodes weakly. When the last reference to a graph goes, its nodes
// leave the table and are freed, so a long fuzz campaign does not grow it. Freeing is iterative:
// dropping a chain of 10^6 nodes does not recurse 10^6 deep.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "ir/dtype.h"
#include "ir/interval.h"
#include "ir/ops.h"
#include "ir/scalar.h"
#include "ir/shape.h"

namespace uopc {

struct UOp;
using UOpRef = std::shared_ptr<const UOp>;

struct UOp {
  Op op;
  DType dtype;
  Shape shape;
  std::vector<UOpRef> src;
  // Integers of the op: buffer {slot}; permute order; pad {l0 r0 l1 r1 ...}; flip axes;
  // reduce {fold op, pop}. Shapes of reshape, expand and shrink are the node's own shape.
  std::vector<int64_t> arg;
  Scalar value;  // const: the literal; pad: the fill value
  // For i32 nodes, an interval holding every element (LANGUAGE.md §5); full when unknown.
  Interval bounds;
  size_t hash = 0;

  int64_t numel() const { return element_count(shape); }
  int rank() const { return static_cast<int>(shape.size()); }
  int64_t slot() const { return arg.at(0); }
  Op reduce_op() const { return static_cast<Op>(arg.at(0)); }
  int pop() const { return static_cast<int>(arg.at(1)); }
};

// Interns a node with these fields. `bounds` is only used when a new node is created; it
// must be a function of the other fields (ir/build.h computes it).
UOpRef make_uop(Op op, DType dtype, Shape shape, std::vector<UOpRef> src,
                std::vector<int64_t> arg = {}, Scalar value = {}, Interval bounds = {});

// The fields of a node, borrowed. Most requests find an existing node, and under the fuzz
// preset's ASan each allocation costs more than the lookup: this form copies its lists only
// when it creates a node.
struct UOpFields {
  Op op;
  DType dtype;
  std::span<const int64_t> shape;
  std::span<const UOpRef> src;
  std::span<const int64_t> arg = {};
  Scalar value = {};
};
UOpRef make_uop(const UOpFields& fields, Interval bounds);

// A reference to a live node that one only has a pointer to.
UOpRef shared_from(const UOp* node);

// How many nodes are alive (in the intern table) right now.
size_t live_uop_count();

}  // namespace uopc

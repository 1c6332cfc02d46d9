// The loop program: what rangeify produces and the C renderer consumes (the book's RANGE, END,
// ALLOC, AFTER, INDEX, LOAD, STORE, SINK). Every node is a scalar (shape []); buffers are flat.
//
// The graph has no statement order. AFTER orders effects: after(buf, deps...) is buf once the
// deps have happened, and a dependency on a RANGE means "inside that loop". END closes loops
// around a body; the linearizer (compiler/linearize.h) turns the graph into nested loops.
#pragma once

#include <string>
#include <vector>

#include "ir/uop.h"

namespace uopc {

// A Thread loop is an output loop whose range the runtime splits across threads.
enum class RangeKind : int { Loop = 0, Reduce = 1, Thread = 2 };

UOpRef range(int64_t size, int64_t id, RangeKind kind);
int64_t range_size(const UOp& r);
int64_t range_id(const UOp& r);
RangeKind range_kind(const UOp& r);

// A symbolic i32 scalar that takes every value in `bounds`: the variables of the proofs of
// the rewrite rules and of the symbolic oracle (fuzz/smt.h). Never in a kernel.
UOpRef var(int64_t id, Interval bounds);

// Kernel argument `number`: a flat buffer of `size` elements.
UOpRef param(int64_t number, DType dtype, int64_t size);
// A one-element local accumulator.
UOpRef alloc(int64_t id, DType dtype);
// A constant array in the kernel (a `static const` table), read like a param: what a stack of
// literals becomes, so that each element costs one load whatever the stack's length.
UOpRef table(const std::vector<Scalar>& values);
// Element `offset` of a param or an (after of an) alloc.
UOpRef address(const UOpRef& buffer, const UOpRef& offset);
UOpRef load(const UOpRef& address);
UOpRef store(const UOpRef& address, const UOpRef& value);
UOpRef after(const UOpRef& buffer, const std::vector<UOpRef>& deps);
UOpRef end(const UOpRef& body, const std::vector<UOpRef>& ranges);
UOpRef sink(const std::vector<UOpRef>& effects);

// The loop program in the book's form, one statement per node, sources first.
std::string print_loop_program(const UOpRef& root);

}  // namespace uopc

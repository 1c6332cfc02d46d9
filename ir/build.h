// Builders: the only way to make a well-typed node. Each checks the type rules of LANGUAGE.md §3
// to §5 for its op and throws TypeError with a message naming the op and what is wrong; a node
// that comes out of a builder is well typed, so no later pass checks again.
//
// ALU builders take operands of one shape; `broadcast` makes them so with explicit reshape and
// expand nodes, as the parser does for every ALU statement.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "ir/uop.h"

namespace uopc {

UOpRef buffer(int64_t n, DType dtype, int64_t slot);
UOpRef literal(Scalar value);
UOpRef stack(const std::vector<UOpRef>& parts);
UOpRef index(const UOpRef& x, const std::vector<UOpRef>& indices);
// `shape` may hold one -1, inferred from the element count.
UOpRef reshape(const UOpRef& x, const Shape& shape);
UOpRef permute(const UOpRef& x, const std::vector<int64_t>& order);
UOpRef expand(const UOpRef& x, const Shape& shape);
UOpRef shrink(const UOpRef& x, const std::vector<UOpRef>& offsets, const Shape& shape);
UOpRef pad(const UOpRef& x, const std::vector<int64_t>& pads, Scalar value);
UOpRef pad(const UOpRef& x, const std::vector<int64_t>& pads);  // fill with 0 / false
UOpRef flip(const UOpRef& x, const std::vector<int64_t>& axes);
UOpRef reduce(const UOpRef& x, Op fold, int64_t pop);
UOpRef stage(const UOpRef& x);
UOpRef assert_equal(const UOpRef& x, const UOpRef& y);
UOpRef cast(const UOpRef& x, DType dtype);
// Any Unary, Binary or Ternary op except cast; operands already of one shape.
UOpRef alu(Op op, std::span<const UOpRef> operands);
UOpRef alu(Op op, std::initializer_list<UOpRef> operands);

// `n` with other sources (of the same dtypes and shapes), its bounds recomputed. No type rule is
// checked: rewrites use it to rebuild nodes they have already typed.
UOpRef with_sources(const UOp& n, std::span<const UOpRef> src);

// A node of the loop program (ops of kind Loop, and Index as an address), with its bounds.
// Only compiler/ makes these; ir/loop.h has the typed helpers.
UOpRef loop_node(Op op, DType dtype, Shape shape, std::vector<UOpRef> src,
                 std::vector<int64_t> arg = {});

// NumPy broadcasting made explicit: a rank-0 operand is expanded, a shorter one is first
// reshaped with leading 1s; operands already of the result shape are returned as they are.
std::vector<UOpRef> broadcast(const std::vector<UOpRef>& operands);

// The result dtype of an ALU op over operands of dtype `operand` (bool for comparisons).
DType alu_result_dtype(Op op, DType operand);

}  // namespace uopc

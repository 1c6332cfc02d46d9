// The op enum, its names and its groups, all generated from ir/ops.def.
#pragma once

#include <optional>
#include <string_view>

#include "ir/dtype.h"

namespace uopc {

enum class Op : unsigned char {
#define UOP(name, text, kind, dtypes, arity) name,
#include "ir/ops.def"
#undef UOP
};

enum class OpKind : unsigned char {
  Source,
  Structure,
  Movement,
  Reduction,
  Unary,
  Binary,
  Ternary,
  Loop,
};

inline constexpr int kOpCount = 0
#define UOP(name, text, kind, dtypes, arity) +1
#include "ir/ops.def"
#undef UOP
    ;

std::string_view op_name(Op op);
OpKind op_kind(Op op);
DTypeSet op_dtypes(Op op);  // dtypes its (value) operands may have
int op_arity(Op op);        // -1 when the count varies
std::optional<Op> parse_op(std::string_view text);

bool is_alu(Op op);  // Unary, Binary or Ternary
bool is_movement(Op op);
bool is_comparison(Op op);  // result is bool whatever the operand dtype
// Whether swapping the operands keeps every result bit. f32 max/min are not: with
// `a > b ? a : b`, max(nan, 1) is 1 but max(1, nan) is nan, and max(-0, 0) differs from max(0, -0).
bool is_commutative(Op op, DType operand_dtype);
// The ops a reduce may fold with.
bool is_reduce_op(Op op);

}  // namespace uopc

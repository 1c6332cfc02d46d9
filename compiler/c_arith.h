// The renderer's decisions about i32 arithmetic in C: where C's own operators may be written.
//
// C's signed +, -, * and unary - are undefined on overflow, and its / and % truncate (and are
// undefined for a zero divisor and INT32_MIN / -1), while the language wraps and floors. The
// renderer writes the plain operator only where the operands' bounds prove that C and the language
// agree, and a helper with the language's result everywhere else. These two predicates are that
// proof obligation; tests/compiler/proofs_test.cpp has z3 decide that each "yes" is sound, and
// `--check-ub` re-checks each plain operator at run time.
#pragma once

#include "ir/interval.h"
#include "ir/ops.h"

namespace uopc {

// The exact result of op (add, sub, mul, neg; b unused for neg) on any a in `a` and b in `b`
// lies in i32. Any other op: true (it has no overflow).
bool plain_c_cannot_overflow(Op op, const Interval& a, const Interval& b);

// For every dividend in `a` and the constant divisor `divisor`, C's a / divisor and a % divisor
// are defined and equal the language's floor division and modulo.
bool plain_c_division_is_floor(const Interval& a, int64_t divisor);

}  // namespace uopc

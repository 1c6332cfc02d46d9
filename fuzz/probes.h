// Programs of two or three statements that show one i32 op on literal operands: the op's
// interval rule (LANGUAGE.md §5) and the C the renderer writes for it (its overflow and
// division decisions). A bug in either may show first deep in a program's index arithmetic (a
// mul of a reshape's stride, a floor division of a flipped index), where no statement of the
// program can be taken away; one of these shows the same cause by itself. The reducer tries
// them when what it reduced stays larger (fuzz/reduce.h).
#pragma once

#include <string>
#include <vector>

namespace uopc {

// For add, sub, mul, idiv, mod, max, min and neg: the op on operands that take each corner of
// their intervals (a negative, a positive, a mixed one and the whole of i32), and on a literal
// divisor-like second operand; smallest first.
std::vector<std::string> op_probes();

}  // namespace uopc

// Small programs that show a cause the program at hand met in a larger form, where no
// statement of it can be taken away. The reducer tries them when what it reduced stays larger
// (fuzz/reduce.h); signatures localize with read_twice.
//
// op_probes: programs of two or three statements that show one i32 op on literal operands: the
// op's interval rule (LANGUAGE.md §5) and the C the renderer writes for it (its overflow and
// division decisions). A bug in either may show first deep in a program's index arithmetic (a
// mul of a reshape's stride, a floor division of a flipped index).
#pragma once

#include <string>
#include <vector>

#include "ir/uop.h"

namespace uopc {

// For add, sub, mul, idiv, mod, max, min and neg: the op on operands that take each corner of
// their intervals (a negative, a positive, a mixed one and the whole of i32), and on a literal
// divisor-like second operand; smallest first.
std::vector<std::string> op_probes();

// n read at two indices by one expression (n != its flip along its first axis of two or more),
// which is what an upcast does to a value, without any option: an op whose copies interfere (a
// reduce whose copies share an accumulator) fails this way too, so its rule is wrong, not the
// upcast's. (A stack would not do: it reads its operands at one index it selects.) Null when
// no axis has two elements.
UOpRef read_twice(const UOpRef& n);

}  // namespace uopc

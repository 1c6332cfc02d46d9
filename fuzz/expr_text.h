// The symbolic oracle's expressions as text, and back.
//
// A symbolic reproducer holds its expression the way expr_str prints it, after
// "# expression: ", followed by its simplification and its variables' bounds:
//
//   # expression: max((x0-18), 4)  ->  max((x0+-18), 4)  x0 in [0, 2147483647]
//
// Binary ops are fully parenthesized infix, others read as calls (max(a, b), where(c, a, b),
// neg(a), cast(a, i32)); literals are i32 numbers or true and false; xK is variable K. The line is
// a comment, so the file is a valid (empty) .uir program, and `uopc fuzz --check` reads the
// expression back and runs the symbolic oracle on it.
#pragma once

#include <optional>
#include <string>

#include "fuzz/expr_gen.h"

namespace uopc {

inline constexpr const char* kExpressionLine = "# expression: ";

// "# expression: " and the expression, its simplification and its variables' bounds.
std::string expression_line(const RandomExpr& expr, const std::string& simplified);

// The expression on the "# expression: " line of `text`, or nullopt when it has none. A line
// that does not read as an expression is a UserError naming `file`, the line and the column.
std::optional<RandomExpr> read_expression(const std::string& text, const std::string& file);

}  // namespace uopc

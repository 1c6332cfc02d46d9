// The linearizer on loop programs rangeify never makes: it must refuse them, never hang.
#include "compiler/linearize.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "ir/build.h"
#include "ir/loop.h"

namespace uopc {
namespace {

// Every element of a 2x3 buffer stored to, the loop `inner` closed first, then `outer`.
UOpRef stores_closing(int64_t param_number, const UOpRef& inner, const UOpRef& outer) {
  UOpRef rows = range(2, 0, RangeKind::Loop), cols = range(3, 1, RangeKind::Loop);
  UOpRef offset = alu(Op::Add, {alu(Op::Mul, {rows, literal(Scalar::of_i32(3))}), cols});
  UOpRef body =
      store(address(param(param_number, DType::I32, 6), offset), literal(Scalar::of_i32(1)));
  return end(end(body, {inner}), {outer});
}

// One kernel nests the column loop inside the row loop, the other the rows inside the columns:
// each loop is then around the other, and so around itself.
TEST(Linearize, LoopsNestedBothWaysAreRefused) {
  UOpRef rows = range(2, 0, RangeKind::Loop), cols = range(3, 1, RangeKind::Loop);
  UOpRef both = sink({stores_closing(0, cols, rows), stores_closing(1, rows, cols)});
  try {
    linearize(both);
    FAIL() << "linearized loops nested both ways";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("is inside its own loop"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace uopc

// Every type rule of LANGUAGE.md §3 to §5, as rows: a program and the error it must get, or a
// program and the type its last statement must have.
#include <gtest/gtest.h>

#include "ir/program.h"
#include "tests/support/run.h"

namespace uopc {
namespace {

using testing::parse;
using testing::parse_error;

struct Rejected {
  const char* program;
  const char* message;  // a substring of the error, which also carries t.uir:LINE:COL
};

const Rejected kRejected[] = {
    // buffer
    {"%a = buffer -1", "t.uir:1:6: error: buffer: size -1 is negative"},
    {"%a = buffer 3 dtype=f64", "dtype must be bool, i32 or f32"},
    {"%a = buffer 3 slot=0\n%b = buffer 4 slot=0",
     "t.uir:2:6: error: slot 0 is already a buffer of f32[3]"},
    {"%a = buffer 3 slot=0\n%b = buffer 3 dtype=i32 slot=0",
     "slot 0 is already a buffer of f32[3]"},
    {"%a = buffer 2.5", "buffer takes its size as an integer"},
    {"%a = buffer 2147483648 dtype=bool", "1:13: error: integer literal 2147483648 is outside"},
    // stack
    {"%a = stack", "stack: needs at least one operand"},
    {"%a = stack 1 2\n%b = stack 1.5 2.5\n%c = stack %a %b",
     "operand 1 is f32[2] but operand 0 is i32[2]"},
    {"%a = stack 1 2\n%b = stack 1 2 3\n%c = stack %a %b",
     "operand 1 is i32[3] but operand 0 is i32[2]"},
    {"%a = stack 1 2\n%c = stack %a 3", "operand 1 is i32[] but operand 0 is i32[2]"},
    {"%a = stack 1 true", "operand 1 is bool[] but operand 0 is i32[]"},
    {"%a = stack 1 2\n%b = index %a 0\n%c = stack %b 2.5",
     "t.uir:3:15: error: f32 literal 2.5 where i32 is expected"},
    // index
    {"%a = stack 1 2\n%b = index %a 0 0", "index: 2 indices into a rank-1 value"},
    {"%a = stack 1 2\n%b = index %a 2", "index: index 0 is 2, outside [0, 1]"},
    {"%a = stack 1 2\n%b = index %a -1", "index 0 is -1, outside [0, 1]"},
    {"%a = stack 1 2\n%b = index %a 0.0", "an offset or index must be an i32 integer"},
    {"%a = stack 1 2\n%i = buffer 1 dtype=i32\n%j = index %i 0\n%b = index %a %j",
     "index 0 is unprovable"},
    {"%a = stack 1 2\n%i = stack 0 1\n%b = index %a %i",
     "index 0 must be a rank-0 i32 value, not i32[2]"},
    {"%a = stack 1 2\n%i = stack 0.0\n%j = index %i 0\n%b = index %a %j",
     "index 0 must be a rank-0 i32 value, not f32[]"},
    {"%a = stack 1 2 3\n%i = stack 0 1 2 3\n%j = index %i 3\n%b = index %a %j",
     "index 0 is unprovable: interval analysis bounds it to [0, 3]"},
    {"%a = stack 1 2 3\n%i = buffer 1 dtype=i32\n%j = index %i 0\n%k = mod %j 4\n%b = index %a %k",
     "bounds it to [0, 3]"},
    {"%a = stack 1 2 3\n%i = buffer 1 dtype=i32\n%j = index %i 0\n%k = mod %j -3\n%b = index %a %k",
     "unprovable"},
    {"%a = stack 1 2 3\n%i = buffer 1 dtype=i32\n%j = index %i 0\n%m = stack 3\n%n = index %m "
     "0\n%k = mod %j %n\n%b = index %a %k",
     "unprovable"},
    {"%a = stack 1 2 3\n%i = buffer 1 dtype=f32\n%j = index %i 0\n%c = cast %j dtype=i32\n%b = "
     "index %a %c",
     "unprovable"},
    {"%a = stack 1 2 3\n%i = stack 0 1\n%j = index %i 1\n%k = add %j 2\n%b = index %a %k",
     "bounds it to [2, 3]"},
    {"%a = stack 1 2 3\n%i = stack 2147483647 0\n%j = index %i 0\n%k = add %j 1\n%b = index %a %k",
     "bounds it to [-2147483648, 2147483647]"},
    {"%a = stack 1 2 3\n%i = stack 0 1 2\n%j = reduce %i op=add\n%b = index %a %j",
     "bounds it to [0, 6]"},
    // reshape
    {"%a = stack 1 2 3 4 5 6\n%b = reshape %a shape=[4 2]",
     "reshape: cannot reshape i32[6] (6 elements) into [4 2] (8 elements)"},
    {"%a = stack 1 2 3 4 5 6\n%b = reshape %a shape=[-1 -1]", "more than one -1"},
    {"%a = stack 1 2 3 4 5 6\n%b = reshape %a shape=[-1 4]", "6 is not a multiple of 4"},
    {"%a = buffer 0\n%b = reshape %a shape=[-1 0]", "cannot infer the -1"},
    {"%a = stack 1 2\n%b = reshape %a shape=[2 -2]", "negative size -2"},
    {"%a = stack 1\n%b = reshape %a shape=[1 1 1 1 1 1 1 1 1]",
     "result rank 9 exceeds the maximum of 8"},
    // permute
    {"%a = stack 1 2 3 4 5 6\n%m = reshape %a shape=[2 3]\n%p = permute %m order=[0 0]",
     "order [0 0] is not a permutation"},
    {"%a = stack 1 2 3 4 5 6\n%m = reshape %a shape=[2 3]\n%p = permute %m order=[0]",
     "is not a permutation"},
    {"%a = stack 1 2 3 4 5 6\n%m = reshape %a shape=[2 3]\n%p = permute %m order=[1 2]",
     "is not a permutation"},
    {"%a = stack 1 2\n%p = permute %a", "permute needs order=[...]"},
    // expand
    {"%v = stack 1 2\n%e = expand %v shape=[3]", "cannot expand i32[2] to [3]: axis 0 has size 2"},
    {"%v = stack 1 2\n%e = expand %v shape=[2 2]", "the rank must stay 1"},
    {"%e = expand 1 shape=[65536 65536]", "has more than 2^31 - 1 elements"},
    // shrink
    {"%v = stack 1 2 3 4\n%s = shrink %v 2 shape=[3]",
     "shrink: axis 0 offset is 2, outside [0, 1]"},
    {"%v = stack 1 2 3 4\n%s = shrink %v -1 shape=[3]", "offset is -1, outside [0, 1]"},
    {"%v = stack 1 2 3 4\n%s = shrink %v 0 shape=[5]", "size 5 exceeds the axis size 4"},
    {"%v = stack 1 2 3 4\n%s = shrink %v 0 0 shape=[1]",
     "needs 1 offsets and 1 sizes, got 2 offsets"},
    {"%v = stack 1 2 3 4\n%s = shrink %v 0 shape=[1 1]", "got 1 offsets and shape [1 1]"},
    {"%v = stack 1 2 3 4\n%b = buffer 2 dtype=i32 slot=0\n%o = index %b 0\n%s = shrink %v %o "
     "shape=[2]",
     "axis 0 offset is unprovable"},
    {"%v = stack 1 2 3 4\n%s = shrink %v, ((3, 1),)", "is not a range"},
    // pad
    {"%v = stack 1 2 3\n%p = pad %v pads=[1 1 1]",
     "pad: pads has 3 entries; a rank-1 value needs 2"},
    {"%v = stack 1 2 3\n%p = pad %v pads=[1 -1]", "negative padding"},
    {"%v = stack 1 2 3\n%p = pad %v pads=[1 1] value=2.5", "f32 literal 2.5 where i32 is expected"},
    {"%v = stack 1 2 3\n%p = pad %v pads=[1 1] value=true",
     "bool literal true where i32 is expected"},
    {"%v = stack 1 2 3\n%p = pad %v pads=[2000000000 2000000000]", "too large"},
    // flip
    {"%v = stack 1 2 3\n%f = flip %v axes=[0 0]", "axis 0 appears twice"},
    {"%v = stack 1 2 3\n%f = flip %v axes=[1]", "axis 1 is out of range for rank 1"},
    // reduce
    {"%v = stack 1 2 3\n%r = reduce %v op=add pop=2", "pop=2 is out of range for i32[3]"},
    {"%v = stack 1 2 3\n%r = reduce %v op=sub",
     "reduce op must be add, mul, max or min, not 'sub'"},
    {"%v = stack true false\n%r = reduce %v op=add", "op=add needs i32 or f32, not bool"},
    {"%v = stack true false\n%r = reduce %v op=mul", "op=mul needs i32 or f32, not bool"},
    {"%v = stack 1 2\n%r = reduce %v", "reduce needs op=add|mul|max|min"},
    // assert
    {"%v = stack 1 2\n%w = stack 1.0 2.0\n%ok = assert %v %w",
     "assert: compares i32[2] with f32[2]"},
    {"%v = stack 1 2\n%w = stack 1 2 3\n%ok = assert %v %w", "cannot broadcast shapes [2] and [3]"},
    {"%v = stack 1 2\n%ok = assert %v", "assert is missing its second operand"},
    // elementwise dtypes
    {"%v = stack 1 2\n%d = div %v %v", "div: needs f32 operands, not i32"},
    {"%v = stack 1.0 2.0\n%d = idiv %v %v", "idiv: needs i32 operands, not f32"},
    {"%v = stack 1.0 2.0\n%d = mod %v 2", "mod: needs i32 operands, not f32"},
    {"%v = stack 1.0 2.0\n%d = and %v %v", "and: needs bool or i32 operands, not f32"},
    {"%v = stack 1 2\n%d = not %v", "not: needs bool operands, not i32"},
    {"%v = stack true\n%d = neg %v", "neg: needs i32 or f32 operands, not bool"},
    {"%v = stack true\n%d = add %v %v", "add: needs i32 or f32 operands, not bool"},
    {"%v = stack 1 2\n%d = sqrt %v", "sqrt: needs f32 operands, not i32"},
    {"%v = stack 1 2\n%w = stack 1.0 2.0\n%d = add %v %w",
     "operands have different dtypes: i32[2] and f32[2]"},
    {"%v = stack 1 2\n%d = add %v 1.5", "f32 literal 1.5 where i32 is expected"},
    {"%v = stack 1 2\n%d = where %v %v %v", "where: the condition must be bool, not i32[2]"},
    {"%v = stack 1 2\n%d = add %v", "add takes 2 operands, got 1"},
    {"%v = stack 1 2\n%d = neg %v %v", "neg takes 1 operand, got 2"},
    {"%v = stack 1 2\n%d = cast %v", "cast needs dtype=bool|i32|f32"},
    {"%v = stack 1 2\n%w = stack 1 2 3\n%d = add %v %w", "cannot broadcast shapes [2] and [3]"},
    // names and syntax
    {"%a = stack 1\n%a = stack 2", "t.uir:2:1: error: %a is already defined on line 1"},
    {"%a = neg %b", "t.uir:1:10: error: %b is not defined"},
    {"%a = stack 1\n%ok = assert %a 1\n%b = neg %ok", "%ok is an assert and has no value"},
    {"%a = frobnicate 1", "t.uir:1:6: error: unknown op 'frobnicate'"},
    {"%a = const 1", "unknown op 'const'"},
    {"%a = stack 1 2\n%b = reshape %a shape=[2] color=3",
     "t.uir:2:27: error: reshape has no attribute 'color'"},
    {"%a = stack 1 2\n%b = reshape %a shape=[2] shape=[2]", "attribute 'shape' given twice"},
};

TEST(TypeRules, RejectedPrograms) {
  for (const Rejected& r : kRejected) {
    std::string error = parse_error(r.program);
    if (std::string(r.message).empty()) {
      EXPECT_EQ(error, "") << r.program;
      continue;
    }
    EXPECT_NE(error.find(r.message), std::string::npos)
        << "program:\n"
        << r.program << "\nwant an error containing: " << r.message
        << "\ngot: " << (error.empty() ? "(accepted)" : error);
  }
}

struct Typed {
  const char* program;
  const char* type;  // of the last statement
};

const Typed kTyped[] = {
    {"%a = buffer 12", "f32[12]"},
    {"%a = buffer 0 dtype=bool", "bool[0]"},
    {"%a = buffer 2147483647 dtype=bool", "bool[2147483647]"},  // the largest
    {"%a = stack 1 2", "i32[2]"},
    {"%a = stack 1 2.5", "f32[2]"},
    {"%a = stack true false", "bool[2]"},
    {"%a = stack 1.0\n%b = index %a 0\n%c = stack %b 3", "f32[2]"},
    {"%a = buffer 24\n%b = reshape %a shape=[2 -1 4]", "f32[2 3 4]"},
    {"%a = buffer 0\n%b = reshape %a shape=[-1 3]", "f32[0 3]"},
    {"%a = buffer 24\n%b = reshape %a shape=[2 3 4]\n%c = permute %b order=[2 0 1]", "f32[4 2 3]"},
    {"%a = buffer 1\n%b = index %a 0\n%c = expand %b shape=[2 3]", "f32[2 3]"},
    {"%e = expand 1 shape=[2]", "i32[2]"},
    {"%a = buffer 3\n%b = reshape %a shape=[3 1]\n%c = expand %b shape=[3 0]", "f32[3 0]"},
    {"%a = buffer 12\n%b = reshape %a shape=[3 4]\n%c = shrink %b 1 0 shape=[2 4]", "f32[2 4]"},
    {"%a = buffer 12\n%b = reshape %a shape=[3 4]\n%c = shrink %b, ((1, 3), (0, 2))", "f32[2 2]"},
    {"%a = buffer 6\n%b = reshape %a shape=[2 3]\n%c = pad %b pads=[1 0 2 2]", "f32[3 7]"},
    {"%a = buffer 6\n%b = reshape %a shape=[2 3]\n%c = pad %b, ((1, 0), (2, 2))", "f32[3 7]"},
    {"%a = buffer 6 dtype=bool\n%c = pad %a pads=[1 1] value=true", "bool[8]"},
    {"%a = buffer 6\n%c = pad %a pads=[1 1] value=3", "f32[8]"},
    {"%a = buffer 24\n%b = reshape %a shape=[2 3 4]\n%c = flip %b axes=[2 0]", "f32[2 3 4]"},
    {"%a = buffer 24\n%b = reshape %a shape=[2 3 4]\n%c = reduce %b op=add pop=2", "f32[4]"},
    {"%a = buffer 24\n%b = reshape %a shape=[2 3 4]\n%c = reduce %b : op=add pop=2", "f32[2]"},
    {"%a = buffer 24\n%b = reshape %a shape=[2 3 4]\n%c = reduce %b op=max pop=0", "f32[2 3 4]"},
    {"%a = buffer 2 dtype=bool\n%c = reduce %a op=max", "bool[]"},
    {"%a = buffer 6\n%b = reshape %a shape=[2 3]\n%c = reduce %b op=min", "f32[3]"},
    {"%a = buffer 6\n%c = stage %a", "f32[6]"},
    {"%a = buffer 6\n%c = cast %a dtype=i32", "i32[6]"},
    {"%a = buffer 6\n%c = cmplt %a 0", "bool[6]"},
    {"%a = buffer 6\n%b = reshape %a shape=[6 1]\n%c = add %b %a", "f32[6 6]"},
    {"%a = buffer 6\n%c = where true %a 1", "f32[6]"},
    {"%c = sqrt 2", "f32[]"},
    {"%c = div 1 2", "f32[]"},
    {"%c = add 1 2", "i32[]"},
    {"%c = add 1 2.5", "f32[]"},
    {"%a = buffer 4 dtype=i32\n%b = index %a 2\n%c = mod %b 3\n%d = stack 1 2 3\n%e = index %d %c",
     "i32[]"},
    {"%v = stack 0 1 2 3 4 5\n%a = buffer 4 dtype=i32\n%b = index %a 2\n%c = idiv %b "
     "1000000000\n%d = add %c 3\n%e = index %v %d",
     "i32[]"},
    {"%v = stack 0 1 2 3 4 5\n%a = buffer 4 dtype=i32\n%b = index %a 2\n%c = max %b 0\n%d = min %c "
     "5\n%e = index %v %d",
     "i32[]"},
    {"%v = stack 0 1 2 3 4 5\n%a = buffer 4 dtype=bool\n%b = index %a 2\n%c = cast %b "
     "dtype=i32\n%d = mul %c 5\n%e = index %v %d",
     "i32[]"},
    {"%v = stack 0 1 2 3 4 5\n%a = buffer 4 dtype=bool\n%b = index %a 2\n%d = where %b 1 4\n%e = "
     "neg %d\n%f = add %e 5\n%g = index %v %f",
     "i32[]"},
    {"%v = stack 0 1 2 3 4 5\n%a = stack 1 2\n%b = reduce %a op=mul\n%c = sub %b 1\n%e = index %v "
     "%c",
     "i32[]"},
    {"%v = stack 0 1 2 3 4 5\n%a = buffer 4 dtype=i32\n%b = index %a 2\n%c = mod %b 3\n%s = shrink "
     "%v %c shape=[3]",
     "i32[3]"},
    {"%v = stack 0 1 2 3 4 5\n%a = buffer 0 dtype=i32\n%b = reduce %a op=add\n%s = shrink %v %b "
     "shape=[3]",
     "i32[3]"},
    {"%a = buffer 12\n%b = reshape %a shape=[1 1 1 1 1 1 1 12]", "f32[1 1 1 1 1 1 1 12]"},
};

TEST(TypeRules, AcceptedPrograms) {
  for (const Typed& t : kTyped) {
    std::string error = parse_error(t.program);
    ASSERT_EQ(error, "") << t.program;
    Program p = parse(t.program);
    const UOp& n = *p.statements.back().node;
    std::string type = std::string(dtype_name(n.dtype)) + shape_str(n.shape);
    EXPECT_EQ(type, t.type) << t.program;
  }
}

}  // namespace
}  // namespace uopc

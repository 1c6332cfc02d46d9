// The reference interpreter, op by op: each row is a program and the exact lines `uopc interp`
// prints for it. Expected values are worked out by hand from the language (and checked with NumPy).
#include <gtest/gtest.h>

#include "interp/movement.h"
#include "ir/error.h"
#include "tests/support/run.h"

namespace uopc {
namespace {

using testing::interp_lines;
using Lines = std::vector<std::string>;

struct Row {
  const char* what;
  const char* program;
  Lines want;
};

const Row kRows[] = {
    // default inputs: v = ((37 i + 11 K) mod 23) - 11
    {"default i32 slot 0", "%a = buffer 5 dtype=i32 slot=0", {"%a i32[5] = [-11 3 -6 8 -1]"}},
    {"default i32 slot 1", "%a = buffer 3 dtype=i32 slot=1", {"%a i32[3] = [0 -9 5]"}},
    {"default f32 is v/4", "%a = buffer 5", {"%a f32[5] = [-2.75 0.75 -1.5 2 -0.25]"}},
    {"default bool is v>0",
     "%a = buffer 5 dtype=bool",
     {"%a bool[5] = [false true false true false]"}},
    {"empty buffer", "%a = buffer 0 dtype=i32", {"%a i32[0] = []"}},
    // structure
    {"scalar index", "%a = stack 1 2 3\n%b = index %a 1", {"%b i32[] = 2"}},
    {"index of rank 2",
     "%a = stack 0 1 2 3 4 5\n%m = reshape %a shape=[2 3]\n%b = index %m 1",
     {"%b i32[3] = [3 4 5]"}},
    {"stack of stacks",
     "%a = stack 1 2\n%b = neg %a\n%c = stack %a %b %a",
     {"%c i32[3 2] = [[1 2] [-1 -2] [1 2]]"}},
    {"stage is the identity", "%a = stack 1.5 2\n%b = stage %a", {"%b f32[2] = [1.5 2]"}},
    // movement
    {"zero-size shape",
     "%a = buffer 0\n%b = reshape %a shape=[2 0 3]",
     {"%b f32[2 0 3] = [[] []]"}},
    {"reshape keeps row-major order",
     "%a = stack 0 1 2 3 4 5\n%m = reshape %a shape=[2 3]\n%b = reshape %m shape=[3 2]",
     {"%b i32[3 2] = [[0 1] [2 3] [4 5]]"}},
    {"reshape to scalar", "%a = stack 7\n%b = reshape %a shape=[]", {"%b i32[] = 7"}},
    {"permute rank-3 rotation",
     "%a = stack 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n"
     "%m = reshape %a shape=[2 3 4]\n%p = permute %m order=[1 2 0]",
     {"%p i32[3 4 2] = [[[0 12] [1 13] [2 14] [3 15]] [[4 16] [5 17] [6 18] [7 19]] [[8 20] [9 21] "
      "[10 22] [11 23]]]"}},
    {"expand a scalar", "%a = expand 7 shape=[2 2]", {"%a i32[2 2] = [[7 7] [7 7]]"}},
    {"expand a size-1 axis",
     "%a = stack 1 2\n%b = reshape %a shape=[2 1]\n%c = expand %b shape=[2 3]",
     {"%c i32[2 3] = [[1 1 1] [2 2 2]]"}},
    {"expand to zero", "%a = stack 1\n%c = expand %a shape=[0]", {"%c i32[0] = []"}},
    {"shrink a window",
     "%a = stack 0 1 2 3 4 5 6 7 8 9 10 11\n%m = reshape %a shape=[3 4]\n%s = shrink %m 1 2 "
     "shape=[2 2]",
     {"%s i32[2 2] = [[6 7] [10 11]]"}},
    {"shrink to nothing", "%a = stack 1 2 3\n%s = shrink %a 3 shape=[0]", {"%s i32[0] = []"}},
    {"pad with a value",
     "%a = stack 1 2\n%p = pad %a pads=[1 2] value=9",
     {"%p i32[5] = [9 1 2 9 9]"}},
    {"pad f32 with -0",
     "%a = stack 1.5\n%p = pad %a pads=[1 0] value=-0.0",
     {"%p f32[2] = [-0 1.5]"}},
    {"pad an empty axis", "%a = buffer 0\n%p = pad %a pads=[1 1]", {"%p f32[2] = [0 0]"}},
    {"pad a scalar",
     "%a = stack 5\n%b = reshape %a shape=[]\n%p = pad %b pads=[]",
     {"%p i32[] = 5"}},
    {"pad 2d",
     "%a = stack 1 2 3 4\n%m = reshape %a shape=[2 2]\n%p = pad %m pads=[0 1 2 0]",
     {"%p i32[3 4] = [[0 0 1 2] [0 0 3 4] [0 0 0 0]]"}},
    {"flip", "%a = stack 0 1 2\n%f = flip %a axes=[0]", {"%f i32[3] = [2 1 0]"}},
    {"flip no axes", "%a = stack 0 1 2\n%f = flip %a axes=[]", {"%f i32[3] = [0 1 2]"}},
    {"flip 2d inner",
     "%a = stack 0 1 2 3 4 5\n%m = reshape %a shape=[2 3]\n%f = flip %m axes=[1]",
     {"%f i32[2 3] = [[2 1 0] [5 4 3]]"}},
    // reduce
    {"reduce mul", "%a = stack 1 2 3 4\n%r = reduce %a op=mul", {"%r i32[] = 24"}},
    {"reduce min", "%a = stack 3 -1 2\n%r = reduce %a op=min", {"%r i32[] = -1"}},
    {"reduce bool max is any",
     "%a = stack false true\n%r = reduce %a op=max",
     {"%r bool[] = true"}},
    {"reduce bool min is all",
     "%a = stack false true\n%r = reduce %a op=min",
     {"%r bool[] = false"}},
    {"empty reduce identities",
     "%a = buffer 0 dtype=i32\n%b = reduce %a op=min\n%c = reduce %a op=mul\n%d = reduce %a "
     "op=add\n%e = reduce %a op=max\n"
     "%f = buffer 0\n%g = reduce %f op=min\n%h = reduce %f op=add\n%i = buffer 0 dtype=bool\n%j = "
     "reduce %i op=max\n%k = reduce %i op=min",
     {"%b i32[] = 2147483647", "%c i32[] = 1", "%d i32[] = 0", "%e i32[] = -2147483648",
      "%g f32[] = inf", "%h f32[] = -0", "%j bool[] = false", "%k bool[] = true"}},
    {"reduce pop=0 is the identity",
     "%a = stack 1 2\n%r = reduce %a op=add pop=0",
     {"%r i32[2] = [1 2]"}},
    {"reduce max folds left: nan then 1",
     "%a = stack nan 1.0\n%r = reduce %a op=max",
     {"%r f32[] = 1"}},
    {"reduce max folds left: 1 then nan",
     "%a = stack 1.0 nan\n%r = reduce %a op=max",
     {"%r f32[] = nan"}},
    {"reduce add keeps -0", "%a = stack -0.0 -0.0\n%r = reduce %a op=add", {"%r f32[] = -0"}},
    {"reduce add of 0 and -0", "%a = stack 0.0 -0.0\n%r = reduce %a op=add", {"%r f32[] = 0"}},
    {"reduce wraps", "%a = stack 2147483647 1\n%r = reduce %a op=add", {"%r i32[] = -2147483648"}},
    {"book reduce folds trailing axes",
     "%a = stack 0 1 2 3 4 5\n%m = reshape %a, (2, 3)\n%r = reduce %m : op=add pop=1",
     {"%r i32[2] = [3 12]"}},
    {"canonical reduce folds leading axes",
     "%a = stack 0 1 2 3 4 5\n%m = reshape %a shape=[2 3]\n%r = reduce %m op=add pop=1",
     {"%r i32[3] = [3 5 7]"}},
    // elementwise
    {"broadcast both ways",
     "%a = stack 1 2 3\n%b = reshape %a shape=[3 1]\n%c = sub %b %a",
     {"%c i32[3 3] = [[0 -1 -2] [1 0 -1] [2 1 0]]"}},
    {"int literal becomes f32", "%a = stack 1.5 2.5\n%b = mul %a 2", {"%b f32[2] = [3 5]"}},
    {"f32 arithmetic", "%a = stack 1.0 -1.0 0.0\n%b = div %a 0", {"%b f32[3] = [inf -inf nan]"}},
    {"neg f32 zero", "%a = stack 0.0\n%b = neg %a", {"%b f32[1] = [-0]"}},
    {"neg i32 wraps", "%a = stack -2147483648 5\n%b = neg %a", {"%b i32[2] = [-2147483648 -5]"}},
    {"max with nan",
     "%a = stack nan 1.0\n%b = stack 1.0 nan\n%c = max %a %b",
     {"%c f32[2] = [1 nan]"}},
    {"min of zeros",
     "%a = stack -0.0 0.0\n%b = stack 0.0 -0.0\n%c = min %a %b",
     {"%c f32[2] = [0 -0]"}},
    {"bool max and min",
     "%a = stack false false true true\n%b = stack false true false true\n%c = max %a %b\n%d = min "
     "%a %b",
     {"%c bool[4] = [false true true true]", "%d bool[4] = [false false false true]"}},
    {"comparisons",
     "%a = stack 1.0 nan 2.0\n%b = stack 2.0 nan 2.0\n%lt = cmplt %a %b\n%eq = cmpeq %a %b\n%ne = "
     "cmpne %a %b",
     {"%lt bool[3] = [true false false]", "%eq bool[3] = [false false true]",
      "%ne bool[3] = [true true false]"}},
    {"bitwise",
     "%a = stack 12 -1\n%b = stack 10 5\n%x = and %a %b\n%y = or %a %b\n%z = xor %a %b",
     {"%x i32[2] = [8 5]", "%y i32[2] = [14 -1]", "%z i32[2] = [6 -6]"}},
    {"logic",
     "%a = stack true true false\n%b = stack true false false\n%x = and %a %b\n%y = xor %a %b\n%n "
     "= not %a",
     {"%x bool[3] = [true false false]", "%y bool[3] = [false true false]",
      "%n bool[3] = [false false true]"}},
    {"float unaries",
     "%a = stack 4.0 0.25 -0.0\n%s = sqrt %a\n%r = recip %a\n%l = log2 %a\n%e = exp2 %a",
     {"%s f32[3] = [2 0.5 -0]", "%r f32[3] = [0.25 4 -inf]", "%l f32[3] = [2 -2 -inf]",
      "%e f32[3] = [16 1.1892071 1]"}},
    {"sin", "%a = stack 0.0 -0.0\n%s = sin %a", {"%s f32[2] = [0 -0]"}},
    {"where", "%a = stack 1 5 3\n%c = cmplt %a 3\n%w = where %c %a 0", {"%w i32[3] = [1 0 0]"}},
    {"where broadcasts its condition",
     "%a = stack 1.5 2.5\n%w = where false %a -1",
     {"%w f32[2] = [-1 -1]"}},
    {"cast f32 to bool",
     "%a = stack 0.0 -0.0 nan 2.5\n%b = cast %a dtype=bool",
     {"%b bool[4] = [false false true true]"}},
    {"cast bool",
     "%a = stack true false\n%b = cast %a dtype=f32\n%c = cast %a dtype=i32",
     {"%b f32[2] = [1 0]", "%c i32[2] = [1 0]"}},
    {"cast i32",
     "%a = stack 16777217 -3 0\n%b = cast %a dtype=f32\n%c = cast %a dtype=bool",
     {"%b f32[3] = [16777216 -3 0]", "%c bool[3] = [true true false]"}},
    {"cast to the same dtype", "%a = stack 1.5\n%b = cast %a dtype=f32", {"%b f32[1] = [1.5]"}},
    {"float formats",
     "%a = stack 0.1 1e10 1e-40 3.4028235e38 -1.5e-7",
     {"%a f32[5] = [0.1 1e+10 1e-40 3.4028235e+38 -1.5e-07]"}},
    {"rank 8",
     "%a = stack 1 2\n%b = reshape %a shape=[1 1 1 1 1 1 1 2]\n%c = permute %b order=[7 0 1 2 3 4 "
     "5 6]",
     {"%c i32[2 1 1 1 1 1 1 1] = [[[[[[[[1]]]]]]] [[[[[[[2]]]]]]]]"}},
    // outputs and asserts
    {"duplicate statements are both outputs",
     "%x = stack 1 2\n%a = neg %x\n%b = neg %x",
     {"%a i32[2] = [-1 -2]", "%b i32[2] = [-1 -2]"}},
    {"a failed assert",
     "%a = stack 1 2 3\n%ok = assert %a 2",
     {"assert %ok failed: first difference at [0]: 1 vs 2"}},
    {"nan equals nan in asserts", "%a = stack nan\n%ok = assert %a nan", {}},
    {"-0 is not 0 in asserts",
     "%a = stack -0.0\n%ok = assert %a 0.0",
     {"assert %ok failed: first difference at [0]: -0 vs 0"}},
    {"assert reports the multi-index",
     "%a = stack 1 2 3 4\n%m = reshape %a shape=[2 2]\n%b = stack 1 2 3 5\n%n = reshape %b "
     "shape=[2 2]\n%ok = assert %m %n",
     {"assert %ok failed: first difference at [1 1]: 4 vs 5"}},
};

TEST(Interp, Ops) {
  for (const Row& r : kRows)
    EXPECT_EQ(interp_lines(r.program), r.want) << r.what << ":\n" << r.program;
}

TEST(Interp, LongChainsRunInBoundedMemory) {
  std::string text = "%v0 = buffer 65536\n";
  for (int i = 1; i < 20000; ++i)
    text += "%v" + std::to_string(i) + " = add %v" + std::to_string(i - 1) + " 1\n";
  text += "%r = reduce %v19999 op=max\n";
  EXPECT_EQ(interp_lines(text), Lines{"%r f32[] = 20001.75"});  // the largest default is 2.75
}

TEST(Interp, MaxElementsRefusesLargeValues) {
  Program p = testing::parse("%a = stack 1\n%b = expand %a shape=[1000]\n%c = reduce %b op=add");
  InterpOptions o;
  o.max_elements = 999;
  try {
    interpret(p, o);
    FAIL() << "a 1000-element value passed a limit of 999";
  } catch (const UserError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "t.uir:2: error: %b: this value, i32[1000], has 1000 elements, more than the limit of "
        "999; raise it with --max-elements N");
  }
  o.max_elements = 1000;
  EXPECT_EQ(interpret(p, o).outputs.size(), 1u);
}

TEST(Interp, ImplicitBroadcastsCountTowardsTheLimit) {
  Program p = testing::parse("%a = stack 1 2\n%b = reshape %a shape=[2 1]\n%c = add %b %a");
  InterpOptions o;
  o.max_elements = 3;
  EXPECT_THROW(interpret(p, o), UserError);
}

// The type rules prove every index and shrink offset in range; one computed wrong (by a bug in
// the interpreter's own arithmetic) is refused, never read: reading it is undefined behaviour,
// which once killed a campaign's driver with SIGSEGV.
TEST(Interp, AnIndexOrOffsetOutOfRangeIsRefusedNotRead) {
  Tensor x = make_tensor(Array<int32_t>{{1, 2, 3}, {4, 5, 6}});
  EXPECT_EQ(interp::eval_index(x, {1}).at(2).as_i32(), 6);
  for (int64_t bad : {-1, 2, 1000})
    EXPECT_THROW(interp::eval_index(x, {bad}), std::logic_error) << bad;
  EXPECT_EQ(interp::eval_shrink(x, {1, 1}, {1, 2}).at(1).as_i32(), 6);
  EXPECT_THROW(interp::eval_shrink(x, {1, 2}, {1, 2}), std::logic_error);
  EXPECT_THROW(interp::eval_shrink(x, {-1, 0}, {1, 3}), std::logic_error);
}

}  // namespace
}  // namespace uopc

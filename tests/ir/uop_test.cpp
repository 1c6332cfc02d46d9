// The interned node: structural equality is pointer equality, and dropping a graph frees it.
#include <gtest/gtest.h>

#include <stdexcept>

#include "ir/build.h"
#include "ir/parse.h"
#include "ir/uop.h"

namespace uopc {
namespace {

TEST(UOp, EqualStructureIsOneNode) {
  UOpRef a = buffer(12, DType::F32, 0);
  UOpRef b = buffer(12, DType::F32, 0);
  EXPECT_EQ(a.get(), b.get());
  EXPECT_EQ(reshape(a, {3, 4}).get(), reshape(b, {3, -1}).get());
  EXPECT_NE(reshape(a, {3, 4}).get(), reshape(a, {4, 3}).get());
  EXPECT_NE(buffer(12, DType::F32, 1).get(), a.get());
  EXPECT_NE(buffer(12, DType::I32, 0).get(), a.get());
}

TEST(UOp, LiteralsCompareByBits) {
  EXPECT_EQ(literal(Scalar::of_f32(1.5f)).get(), literal(Scalar::of_f32(1.5f)).get());
  EXPECT_NE(literal(Scalar::of_f32(0.0f)).get(), literal(Scalar::of_f32(-0.0f)).get());
  EXPECT_NE(literal(Scalar::of_i32(1)).get(), literal(Scalar::of_f32(1.0f)).get());
}

// A literal of one dtype used as another is a caller's bug (an identity or a fill of the
// wrong dtype): reading it, or making a node of another dtype hold it, throws, naming both.
TEST(UOp, ALiteralIsOnlyEverItsOwnDtype) {
  Scalar inf = Scalar::of_f32(1.0f / 0.0f);
  EXPECT_THROW(
      {
        try {
          (void)inf.as_i32();
        } catch (const std::logic_error& e) {
          EXPECT_STREQ(e.what(), "literal: f32 bits 0x7f800000 read as i32");
          throw;
        }
      },
      std::logic_error);
  EXPECT_THROW((void)Scalar::of_i32(1).as_bool(), std::logic_error);
  EXPECT_THROW((void)Scalar::of_bool(true).as_f32(), std::logic_error);
  EXPECT_EQ(Scalar::of_i32(-7).as_i32(), -7);
  EXPECT_THROW(
      {
        try {
          make_uop(Op::Const, DType::I32, {}, {}, {}, inf);
        } catch (const std::logic_error& e) {
          EXPECT_STREQ(e.what(), "literal: a const of dtype i32 made with the f32 value inf");
          throw;
        }
      },
      std::logic_error);
  UOpRef x = buffer(4, DType::Bool, 0);
  EXPECT_THROW(make_uop(Op::Pad, DType::Bool, {6}, {x}, {1, 1}, Scalar::of_i32(0)),
               std::logic_error);
  EXPECT_EQ(make_uop(Op::Pad, DType::Bool, {6}, {x}, {1, 1}, Scalar::of_bool(true))->value,
            Scalar::of_bool(true));
}

TEST(UOp, DroppingAGraphFreesItsNodes) {
  size_t before = live_uop_count();
  {
    Program p = parse_program(
        "%a = buffer 64 dtype=i32 slot=7\n%b = reshape %a shape=[8 8]\n"
        "%c = permute %b order=[1 0]\n%d = add %c 12345\n%e = reduce %d op=max\n",
        "t.uir");
    EXPECT_GT(live_uop_count(), before + 5);
  }
  EXPECT_EQ(live_uop_count(), before);
}

TEST(UOp, ManyGraphsDoNotGrowTheTable) {
  size_t before = live_uop_count();
  for (int i = 0; i < 1000; ++i) {
    UOpRef x = buffer(i + 1, DType::F32, 3);
    UOpRef y = alu(Op::Add, broadcast({x, literal(Scalar::of_f32(static_cast<float>(i)))}));
    EXPECT_EQ(y->shape, Shape{i + 1});
  }
  EXPECT_EQ(live_uop_count(), before);
}

// Nodes freed in any order, while the table grows and its probe runs collide, leave every
// other node findable: asking for it again gives the same node, not a duplicate.
TEST(UOp, FreeingNodesInAnyOrderKeepsTheOthersInterned) {
  size_t before = live_uop_count();
  std::vector<UOpRef> nodes;
  for (int i = 0; i < 20000; ++i) nodes.push_back(literal(Scalar::of_i32(i * 7919)));
  for (size_t k = 0; k < nodes.size(); k += 1 + k % 3) nodes[k] = nullptr;
  for (int i = 0; i < 20000; ++i) {
    if (!nodes[static_cast<size_t>(i)]) continue;
    const UOp* kept = nodes[static_cast<size_t>(i)].get();
    EXPECT_EQ(literal(Scalar::of_i32(i * 7919)).get(), kept) << "literal " << i * 7919;
    EXPECT_EQ(shared_from(kept).get(), kept);
  }
  nodes.clear();
  EXPECT_EQ(live_uop_count(), before);
}

TEST(UOp, DeepChainsAreFreedWithoutRecursion) {
  size_t before = live_uop_count();
  {
    UOpRef x = buffer(4, DType::I32, 0);
    UOpRef one = literal(Scalar::of_i32(1));
    UOpRef ones = expand(one, {4});
    for (int i = 0; i < 1000000; ++i) x = alu(Op::Add, {x, ones});
  }  // a recursive destructor would overflow the stack here
  EXPECT_EQ(live_uop_count(), before);
}

}  // namespace
}  // namespace uopc

#include "cli/shrink_memo.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace uopc::cli {
namespace {

// A signature counts as shrunk enough after kEnough shrinks, and leads to where the first went.
TEST(ShrinkMemo, ASignatureShrunkEnoughTimesLeadsToWhereItsFirstShrinkEnded) {
  auto memo = std::make_unique<ShrinkMemo>();
  for (int i = 0; i < ShrinkMemo::kEnough; ++i) {
    EXPECT_FALSE(memo->shrunk_enough("engines-add")) << i;
    memo->record("engines-add", i == 0 ? "engines-upcast" : "engines-add");
  }
  EXPECT_EQ(memo->shrunk_enough("engines-add"), "engines-upcast");
  EXPECT_FALSE(memo->shrunk_enough("engines-mul"));
  EXPECT_FALSE(memo->shrunk_enough("engines-upcast"));
}

// What it cannot hold it does not remember: a failure it has no room for is shrunk as before.
TEST(ShrinkMemo, WhatDoesNotFitIsNeverShrunkEnough) {
  auto memo = std::make_unique<ShrinkMemo>();
  std::string longer(400, 'x');
  for (int i = 0; i < ShrinkMemo::kEnough; ++i) {
    memo->record(longer, "engines-add");
    memo->record("", "engines-add");
  }
  EXPECT_FALSE(memo->shrunk_enough(longer));
  EXPECT_FALSE(memo->shrunk_enough(""));
  for (int n = 0; n < 1000; ++n)
    for (int i = 0; i < ShrinkMemo::kEnough; ++i)
      memo->record("s" + std::to_string(n), "engines-add");
  EXPECT_TRUE(memo->shrunk_enough("s0"));
  EXPECT_FALSE(memo->shrunk_enough("s999"));
}

}  // namespace
}  // namespace uopc::cli

// The scalar semantics of LANGUAGE.md §4, one row per edge case.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "ir/semantics.h"

namespace uopc {
namespace {

using namespace sem;

struct IntRow {
  const char* what;
  int32_t got, want;
};

TEST(Semantics, Integers) {
  const IntRow rows[] = {
      {"idiv floors -7/2", idiv(-7, 2), -4},
      {"idiv 7/2", idiv(7, 2), 3},
      {"idiv -7/-2", idiv(-7, -2), 3},
      {"idiv 7/-2", idiv(7, -2), -4},
      {"idiv exact -6/2", idiv(-6, 2), -3},
      {"idiv by zero", idiv(5, 0), 0},
      {"idiv INT32_MIN/-1 wraps", idiv(kI32Min, -1), kI32Min},
      {"idiv INT32_MIN/1", idiv(kI32Min, 1), kI32Min},
      {"mod -7%2", mod(-7, 2), 1},
      {"mod 7%-2", mod(7, -2), -1},
      {"mod -7%-2", mod(-7, -2), -1},
      {"mod by zero", mod(5, 0), 5},
      {"mod INT32_MIN%-1", mod(kI32Min, -1), 0},
      {"mod INT32_MIN%3", mod(kI32Min, 3), 1},
      {"add wraps", add(kI32Max, 1), kI32Min},
      {"sub wraps", sub(kI32Min, 1), kI32Max},
      {"mul wraps", mul(65536, 65536), 0},
      {"mul wraps negative", mul(kI32Min, -1), kI32Min},
      {"neg INT32_MIN", neg(kI32Min), kI32Min},
      {"max", max(-3, 2), 2},
      {"min", min(-3, 2), -3},
      {"and", logic_and(12, 10), 8},
      {"or", logic_or(12, 10), 14},
      {"xor", logic_xor(12, 10), 6},
      {"cast 1.9", f32_to_i32(1.9f), 1},
      {"cast -1.9", f32_to_i32(-1.9f), -1},
      {"cast nan", f32_to_i32(NAN), 0},
      {"cast 3e9 saturates", f32_to_i32(3e9f), kI32Max},
      {"cast -3e9 saturates", f32_to_i32(-3e9f), kI32Min},
      {"cast inf", f32_to_i32(INFINITY), kI32Max},
      {"cast -inf", f32_to_i32(-INFINITY), kI32Min},
      {"cast 2^31 exactly", f32_to_i32(2147483648.0f), kI32Max},
      {"cast -2^31 exactly", f32_to_i32(-2147483648.0f), kI32Min},
      {"cast largest below 2^31", f32_to_i32(2147483520.0f), 2147483520},
  };
  for (const IntRow& r : rows) EXPECT_EQ(r.got, r.want) << r.what;
}

// Floor division and modulo agree: a == idiv(a, b) * b + mod(a, b) (with wrap-around).
TEST(Semantics, DivModIdentity) {
  const int32_t values[] = {kI32Min, kI32Min + 1, -7, -2, -1, 0, 1, 2, 7, kI32Max - 1, kI32Max};
  for (int32_t a : values)
    for (int32_t b : values) EXPECT_EQ(add(mul(idiv(a, b), b), mod(a, b)), a) << a << " " << b;
}

uint32_t bits(float f) {
  return std::bit_cast<uint32_t>(f);
}

struct FloatRow {
  const char* what;
  float got, want;
};

TEST(Semantics, FloatsBitForBit) {
  const FloatRow rows[] = {
      {"max(nan, 1) is 1: nan > 1 is false", max(NAN, 1.0f), 1.0f},
      {"max(-0, 0) is 0: -0 > 0 is false", max(-0.0f, 0.0f), 0.0f},
      {"max(0, -0) is -0", max(0.0f, -0.0f), -0.0f},
      {"min(1, nan) is nan", min(1.0f, NAN), NAN},
      {"min(nan, 1) is 1", min(NAN, 1.0f), 1.0f},
      {"div by zero", div(1.0f, 0.0f), INFINITY},
      {"div -1 by zero", div(-1.0f, 0.0f), -INFINITY},
      {"div 0 by 0", div(0.0f, 0.0f), NAN},
      {"recip -0", recip(-0.0f), -INFINITY},
      {"sqrt -1", sqrt(-1.0f), NAN},
      {"sqrt 2 is correctly rounded", sqrt(2.0f), 1.41421354f},
      {"exp2 10", exp2(10.0f), 1024.0f},
      {"log2 0", log2(0.0f), -INFINITY},
      {"add -0 + -0", add(-0.0f, -0.0f), -0.0f},
      {"add -0 + 0", add(-0.0f, 0.0f), 0.0f},
      {"neg 0", neg(0.0f), -0.0f},
      {"i32 to f32 rounds to nearest even", i32_to_f32(16777217), 16777216.0f},
  };
  for (const FloatRow& r : rows) {
    if (std::isnan(r.want))
      EXPECT_TRUE(std::isnan(r.got)) << r.what;
    else
      EXPECT_EQ(bits(r.got), bits(r.want)) << r.what << ": " << r.got;
  }
}

TEST(Semantics, Comparisons) {
  EXPECT_FALSE(cmplt(NAN, 1.0f));
  EXPECT_FALSE(cmpeq(NAN, NAN));
  EXPECT_TRUE(cmpne(NAN, NAN));
  EXPECT_TRUE(cmpeq(-0.0f, 0.0f));
  EXPECT_TRUE(cmplt(false, true));
  EXPECT_TRUE(f32_to_bool(NAN));
  EXPECT_FALSE(f32_to_bool(-0.0f));
  EXPECT_TRUE(max(false, true));
  EXPECT_FALSE(min(false, true));
}

}  // namespace
}  // namespace uopc

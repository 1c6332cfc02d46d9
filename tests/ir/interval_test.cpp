// Transfer functions of the bounds lattice, one row per case.
#include <gtest/gtest.h>

#include "ir/interval.h"

namespace uopc {
namespace {

constexpr int64_t kMin = INT32_MIN, kMax = INT32_MAX;

struct Row {
  const char* what;
  Interval got, want;
};

TEST(Interval, TransferFunctions) {
  const Row rows[] = {
      {"add", interval_add({0, 3}, {10, 20}), {10, 23}},
      {"add overflow wraps to full", interval_add({0, kMax}, {1, 1}), Interval::full()},
      {"sub", interval_sub({0, 3}, {10, 20}), {-20, -7}},
      {"sub underflow", interval_sub({kMin, 0}, {1, 1}), Interval::full()},
      {"mul corners", interval_mul({-2, 3}, {-5, 4}), {-15, 12}},
      {"mul overflow", interval_mul({0, 65536}, {0, 65536}), Interval::full()},
      {"neg", interval_neg({-3, 7}), {-7, 3}},
      {"neg INT32_MIN wraps", interval_neg({kMin, 0}), Interval::full()},
      {"max", interval_max({-5, 2}, {0, 1}), {0, 2}},
      {"min", interval_min({-5, 2}, {0, 1}), {-5, 1}},
      {"idiv floors", interval_idiv({-7, 7}, 2), {-4, 3}},
      {"idiv positive", interval_idiv({0, 11}, 4), {0, 2}},
      {"mod within one period shifts", interval_mod({5, 7}, 4), {1, 3}},
      {"mod negative within one period", interval_mod({-3, -1}, 4), {1, 3}},
      {"mod across periods", interval_mod({3, 5}, 4), {0, 3}},
      {"mod full", interval_mod(Interval::full(), 3), {0, 2}},
      {"hull", hull({0, 1}, {5, 6}), {0, 6}},
  };
  for (const Row& r : rows)
    EXPECT_EQ(r.got, r.want) << r.what << ": got " << interval_str(r.got) << ", want "
                             << interval_str(r.want);
}

}  // namespace
}  // namespace uopc

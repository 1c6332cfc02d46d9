// interp/xtensor_fix.h is force-included here as everywhere: without it, g++ in C++20 mode
// builds strided-view assignments that write nothing, and both checks below fail.
#include <gtest/gtest.h>

#include <xtensor/xarray.hpp>
#include <xtensor/xpad.hpp>
#include <xtensor/xstrided_view.hpp>

namespace {

TEST(XtensorFix, PadKeepsTheData) {
  xt::xarray<int> a = {{1, 2}, {3, 4}};
  xt::xarray<int> p = xt::pad(a, {{1, 0}, {0, 1}}, xt::pad_mode::constant, 0);
  xt::xarray<int> want = {{0, 0, 0}, {1, 2, 0}, {3, 4, 0}};
  EXPECT_EQ(p, want);
}

TEST(XtensorFix, AssignmentIntoAStridedViewWrites) {
  xt::xarray<int> out = xt::zeros<int>({2, 3});
  xt::xstrided_slice_vector row{1, xt::ellipsis()};
  xt::strided_view(out, row) = xt::xarray<int>{7, 8, 9};
  xt::xarray<int> want = {{0, 0, 0}, {7, 8, 9}};
  EXPECT_EQ(out, want);
}

}  // namespace

// Force-included before every translation unit that uses xtensor (see interp/CMakeLists.txt).
//
// xtensor 0.24.3 picks the temporary type of a dynamic-shape view with a partial
// specialization of xt::detail::xtype_for_shape that it only declares when __cplusplus is
// exactly 201703L. Under C++20, g++ instead matches svector<size_t, 4, ...> against the
// fixed-rank `S<X, N>` pattern and treats every such shape as rank 4, so assigning into a
// strided view writes nothing and xt::pad returns only its fill value (xtensor issue 2701).
// Explicit specializations restore xarray as the temporary type for both shape flavours; an
// explicit specialization beats every partial one, so g++ and clang agree.
// tests/interp/xtensor_fix_test.cpp fails without this file.
#pragma once

#include <cstddef>
#include <memory>
#include <xtensor/xexpression_traits.hpp>
#include <xtensor/xstorage.hpp>

namespace xt::detail {

template <>
struct xtype_for_shape<xt::svector<std::size_t, 4, std::allocator<std::size_t>, true>> {
  template <class T, layout_type L>
  using type = xarray<T, L>;
};

template <>
struct xtype_for_shape<xt::svector<std::ptrdiff_t, 4, std::allocator<std::ptrdiff_t>, true>> {
  template <class T, layout_type L>
  using type = xarray<T, L>;
};

}  // namespace xt::detail

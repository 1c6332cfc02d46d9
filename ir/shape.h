// Shapes: a list of axis sizes, row-major. LANGUAGE.md §1 bounds the rank by 8 and the element
// count by 2^31 - 1; these helpers compute counts without overflow so that hostile shapes are
// reported, not wrapped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace uopc {

using Shape = std::vector<int64_t>;

inline constexpr int kMaxRank = 8;
inline constexpr int64_t kMaxElements = 2147483647;  // 2^31 - 1

// The element count, or -1 when it exceeds kMaxElements (or a size is negative).
int64_t element_count(const Shape& shape);

// "[3 4]"; "[]" for a scalar.
std::string shape_str(const Shape& shape);

}  // namespace uopc

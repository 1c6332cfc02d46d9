// The three element types of .uir (LANGUAGE.md §1) and the sets of them that ops accept.
#pragma once

#include <optional>
#include <string_view>

namespace uopc {

enum class DType : unsigned char { Bool, I32, F32 };

std::string_view dtype_name(DType d);
std::optional<DType> parse_dtype(std::string_view text);

// A set of dtypes, as a bit mask; an op's X-macro entry names the set it accepts.
enum class DTypeSet : unsigned char {
  Bool = 1,
  I32 = 2,
  F32 = 4,
  Numeric = 2 | 4,
  Int = 2,
  Float = 4,
  Logic = 1 | 2,
  Any = 1 | 2 | 4,
};

bool contains(DTypeSet set, DType d);
std::string set_description(DTypeSet set);

}  // namespace uopc

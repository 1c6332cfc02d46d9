#include "ir/dtype.h"

#include <string>

namespace uopc {

std::string_view dtype_name(DType d) {
  switch (d) {
    case DType::Bool:
      return "bool";
    case DType::I32:
      return "i32";
    case DType::F32:
      return "f32";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view text) {
  for (DType d : {DType::Bool, DType::I32, DType::F32})
    if (dtype_name(d) == text) return d;
  return std::nullopt;
}

bool contains(DTypeSet set, DType d) {
  return (static_cast<unsigned>(set) >> static_cast<unsigned>(d)) & 1u;
}

std::string set_description(DTypeSet set) {
  std::string out;
  for (DType d : {DType::Bool, DType::I32, DType::F32}) {
    if (!contains(set, d)) continue;
    if (!out.empty()) out += " or ";
    out += dtype_name(d);
  }
  return out;
}

}  // namespace uopc

#include "ir/shape.h"

namespace uopc {

int64_t element_count(const Shape& shape) {
  int64_t n = 1;
  bool zero = false;
  for (int64_t d : shape) {
    if (d < 0) return -1;
    if (d == 0) zero = true;
  }
  if (zero) return 0;
  for (int64_t d : shape) {
    if (d > kMaxElements / n) return -1;
    n *= d;
  }
  return n;
}

std::string shape_str(const Shape& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ' ';
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

}  // namespace uopc

#include "interp/npy.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <xtensor/xnpy.hpp>

#include "ir/error.h"

namespace uopc {
namespace {

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw UserError(Location{path}, "not a usable .npy file: " + what);
}

// The value of 'key': ... in the header dict, up to the next ',' at depth 0 or the closing '}'.
std::string header_field(const std::string& header, const std::string& key,
                         const std::string& path) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) bad(path, "the header has no '" + key + "'");
  at = header.find(':', at);
  if (at == std::string::npos) bad(path, "malformed header");
  size_t end = at + 1;
  int depth = 0;
  for (; end < header.size(); ++end) {
    char c = header[end];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if ((c == ',' && depth == 0) || c == '}') break;
  }
  std::string value = header.substr(at + 1, end - at - 1);
  size_t first = value.find_first_not_of(" ");
  size_t last = value.find_last_not_of(" ");
  return first == std::string::npos ? "" : value.substr(first, last - first + 1);
}

Shape parse_shape(const std::string& text, const std::string& path) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    bad(path, "malformed shape " + text);
  Shape shape;
  size_t i = 1;
  while (i + 1 < text.size()) {
    while (i + 1 < text.size() && (text[i] == ' ' || text[i] == ',')) ++i;
    if (i + 1 >= text.size()) break;
    size_t j = i;
    int64_t v = 0;
    while (j < text.size() && text[j] >= '0' && text[j] <= '9') {
      if (v > kMaxElements) bad(path, "shape " + text + " is too large");
      v = v * 10 + (text[j++] - '0');
    }
    if (j == i) bad(path, "malformed shape " + text);
    shape.push_back(v);
    i = j;
  }
  return shape;
}

template <class T>
Tensor from_bytes(const char* data, const Shape& shape) {
  Array<T> a = Array<T>::from_shape(std::vector<size_t>(shape.begin(), shape.end()));
  if constexpr (std::is_same_v<T, bool>) {
    for (size_t i = 0; i < a.size(); ++i) a.data()[i] = data[i] != 0;
  } else {
    std::memcpy(a.data(), data, a.size() * sizeof(T));
  }
  return make_tensor(std::move(a));
}

}  // namespace

Tensor read_npy(const std::string& path, int64_t max_elements) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) bad(path, "it is a folder");
  std::ifstream in(path, std::ios::binary);
  if (!in) bad(path, "cannot open it");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) bad(path, "no .npy magic");
  unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t header_len = 0, header_at = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    header_at = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) bad(path, "truncated header");
    for (int k = 3; k >= 0; --k)
      header_len = header_len << 8 | static_cast<unsigned char>(bytes[8 + k]);
    header_at = 12;
  } else {
    bad(path, "unsupported version " + std::to_string(major));
  }
  if (header_at + header_len > bytes.size()) bad(path, "truncated header");
  std::string header = bytes.substr(header_at, header_len);
  std::string descr = header_field(header, "descr", path);
  if (header_field(header, "fortran_order", path) != "False")
    bad(path, "Fortran-ordered data; save it in C order");
  Shape shape = parse_shape(header_field(header, "shape", path), path);
  int64_t count = element_count(shape);
  if (count < 0 || count > max_elements)
    bad(path, "shape " + shape_str(shape) + " exceeds the element limit");
  size_t width = descr == "'<f4'" || descr == "'<i4'" ? 4 : descr == "'|b1'" ? 1 : 0;
  if (width == 0)
    bad(path, "dtype " + descr + "; uopc reads '<f4' (f32), '<i4' (i32) and '|b1' (bool)");
  size_t data_at = header_at + header_len;
  if (bytes.size() - data_at != static_cast<size_t>(count) * width)
    bad(path, "holds " + std::to_string(bytes.size() - data_at) + " data bytes, but shape " +
                  shape_str(shape) + " of " + descr + " needs " + std::to_string(count * width));
  const char* data = bytes.data() + data_at;
  if (descr == "'<f4'") return from_bytes<float>(data, shape);
  if (descr == "'<i4'") return from_bytes<int32_t>(data, shape);
  return from_bytes<bool>(data, shape);
}

void write_npy(const std::string& path, const Tensor& t) {
  std::visit([&](const auto& a) { xt::dump_npy(path, a); }, t.data);
}

}  // namespace uopc

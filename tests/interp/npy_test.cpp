// .npy input and output: round trips, and a clear refusal of every file uopc cannot use.
#include <gtest/gtest.h>

#include <fstream>

#include "interp/npy.h"
#include "ir/error.h"

namespace uopc {
namespace {

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "/" + name;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A version 1.0 header padded to a multiple of 64 bytes, as NumPy writes it.
std::string npy_header(const std::string& descr, const std::string& shape, bool fortran = false) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                     ", 'shape': " + shape + ", }";
  size_t total = 10 + dict.size() + 1;
  dict += std::string((64 - total % 64) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict;
}

TEST(Npy, RoundTripsEveryDtype) {
  Tensor f = make_tensor(Array<float>{{1.5f, -0.0f, 3.0f}, {4.0f, 5.0f, 6.0f}});
  Tensor i = make_tensor(Array<int32_t>{INT32_MIN, 0, 7});
  Tensor b = make_tensor(Array<bool>{true, false, true});
  for (const Tensor* t : {&f, &i, &b}) {
    std::string path = temp_path("rt.npy");
    write_npy(path, *t);
    Tensor back = read_npy(path, 1 << 20);
    EXPECT_EQ(type_string(back), type_string(*t));
    EXPECT_EQ(first_difference(back, *t), -1);
  }
}

TEST(Npy, ReadsAHandWrittenFile) {
  std::string path = temp_path("hand.npy");
  std::string data(12, '\0');
  int32_t values[3] = {1, -2, 3};
  std::memcpy(data.data(), values, 12);
  write_bytes(path, npy_header("<i4", "(3,)") + data);
  EXPECT_EQ(format_value(read_npy(path, 100)), "[1 -2 3]");
}

struct BadFile {
  std::string bytes;
  const char* error;
};

TEST(Npy, RefusesUnusableFiles) {
  const BadFile rows[] = {
      {"", "no .npy magic"},
      {"hello world, not numpy", "no .npy magic"},
      {npy_header("<f8", "(2,)") + std::string(16, '\0'),
       "dtype '<f8'; uopc reads '<f4' (f32), '<i4' (i32) and '|b1' (bool)"},
      {npy_header(">f4", "(2,)") + std::string(8, '\0'), "dtype '>f4'"},
      {npy_header("<f4", "(2,)") + std::string(4, '\0'),
       "holds 4 data bytes, but shape [2] of '<f4' needs 8"},
      {npy_header("<f4", "(2,)") + std::string(12, '\0'), "holds 12 data bytes"},
      {npy_header("<f4", "(2, 2)", true) + std::string(16, '\0'), "Fortran-ordered data"},
      {npy_header("<f4", "(100000000000,)"), "is too large"},
      {npy_header("<f4", "(2000, 2000)"), "shape [2000 2000] exceeds the element limit"},
      {npy_header("<f4", "(99999999999999999999999,)"), "is too large"},
      {npy_header("<f4", "(2, x)"), "malformed shape"},
      {npy_header("<f4", "(2,)").substr(0, 20), "truncated header"},
  };
  for (const BadFile& row : rows) {
    std::string path = temp_path("bad.npy");
    write_bytes(path, row.bytes);
    try {
      read_npy(path, 1 << 20);
      ADD_FAILURE() << "accepted a file that should fail with: " << row.error;
    } catch (const UserError& e) {
      EXPECT_NE(std::string(e.what()).find(row.error), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind(path + ": error: not a usable .npy file", 0), 0u)
          << e.what();
    }
  }
}

TEST(Npy, MissingFile) {
  EXPECT_THROW(read_npy(temp_path("does-not-exist.npy"), 10), UserError);
}

}  // namespace
}  // namespace uopc

// .npy files for --input and --out.
//
// Writing uses xt::dump_npy. Reading checks the file before trusting it: xt::load_npy
// allocates whatever size the header claims, does not notice a short file and does not
// convert dtypes, so a wrong or hostile file would crash or give garbage. read_npy accepts
// little-endian f4, i4 and b1 data in C order and says exactly what is wrong otherwise.
#pragma once

#include <string>

#include "interp/tensor.h"

namespace uopc {

// Throws UserError naming `path` when the file is unreadable or not one of the three dtypes.
Tensor read_npy(const std::string& path, int64_t max_elements);
void write_npy(const std::string& path, const Tensor& t);

}  // namespace uopc

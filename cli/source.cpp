#include "cli/source.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "ir/error.h"
#include "ir/parse.h"

namespace uopc::cli {

std::string read_source(const std::string& path) {
  if (path == "-") {
    std::ostringstream text;
    text << std::cin.rdbuf();
    return text.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw UserError(Location{path, 0, 0}, std::string("cannot read: ") + std::strerror(errno));
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

Program load_program(const std::string& path) {
  return parse_program(read_source(path), path == "-" ? "<stdin>" : path);
}

}  // namespace uopc::cli

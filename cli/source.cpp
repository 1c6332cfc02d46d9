#include "cli/source.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
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
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw UserError(Location{path}, "is a folder, not a program file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(Location{path}, std::string("cannot read: ") + std::strerror(errno));
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void make_directory(const std::string& path, const std::string& flag) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_directory(path, ec))
    throw UserError(Location{path}, flag + " takes a folder, and this is a file");
  std::filesystem::create_directories(path, ec);
  if (ec) throw UserError(Location{path}, flag + ": cannot create the folder: " + ec.message());
}

Program load_program(const std::string& path) {
  return parse_program(read_source(path), path == "-" ? "<stdin>" : path);
}

// Each line of `text` as a .uir comment.
std::string as_comment(const std::string& lines) {
  std::string text = lines;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  std::string out;
  for (size_t at = 0; at <= text.size();) {
    size_t end = std::min(text.find('\n', at), text.size());
    out += "# " + text.substr(at, end - at) + "\n";
    at = end + 1;
  }
  return out;
}

}  // namespace uopc::cli

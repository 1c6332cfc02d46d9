#include "fuzz/triage.h"

namespace uopc {

std::string program_key(const std::string& text) {
  std::string out;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos && line[first] != '#') out += line + "\n";
    at = end + 1;
  }
  return out;
}

std::string Triage::group_of(const std::string& signature, const std::string& program) {
  std::string key = program_key(program);
  if (key.empty()) return signature;
  return group_by_program_.emplace(key, signature).first->second;
}

}  // namespace uopc

#include "ir/error.h"

namespace uopc {

std::string format_error(const Location& loc, const std::string& message) {
  std::string out;
  if (!loc.file.empty()) out += loc.file + ":";
  if (loc.line > 0) out += std::to_string(loc.line) + ":";
  if (loc.line > 0 && loc.col > 0) out += std::to_string(loc.col) + ":";
  if (!out.empty()) out += " ";
  return out + "error: " + message;
}

UserError::UserError(Location loc, const std::string& message)
    : std::runtime_error(format_error(loc, message)), loc_(std::move(loc)), message_(message) {}

}  // namespace uopc

#include "ir/error.h"

#include <algorithm>

namespace uopc {

namespace {

std::string place(const Location& loc) {
  std::string out;
  if (!loc.file.empty()) out += loc.file + ":";
  if (loc.line > 0) out += std::to_string(loc.line) + ":";
  if (loc.line > 0 && loc.col > 0) out += std::to_string(loc.col) + ":";
  if (!out.empty()) out += " ";
  return out;
}

// "  12 | text" and "     |    ^~~~", tabs shown as single spaces so the caret lines up.
std::string snippet(const Location& loc) {
  if (loc.source.empty() || loc.line <= 0) return "";
  std::string text = loc.source;
  std::replace(text.begin(), text.end(), '\t', ' ');
  std::string number = std::to_string(loc.line);
  std::string gutter(number.size() + 1, ' ');
  std::string out = " " + number + " | " + text + "\n";
  if (loc.col <= 0) return out;
  size_t col = static_cast<size_t>(loc.col);
  size_t length = std::max(1, loc.length);
  length = std::min(length, text.size() + 1 > col ? text.size() + 1 - col : size_t{1});
  return out + gutter + " | " + std::string(col - 1, ' ') + "^" + std::string(length - 1, '~') +
         "\n";
}

}  // namespace

std::string format_error(const Location& loc, const std::string& message) {
  return place(loc) + "error: " + message;
}

std::string format_diagnostic(const UserError& e) {
  std::string out = format_error(e.location(), e.message()) + "\n" + snippet(e.location());
  for (const Note& n : e.notes())
    out += place(n.loc) + "note: " + n.message + "\n" + snippet(n.loc);
  return out;
}

UserError::UserError(Location loc, const std::string& message, std::vector<Note> notes)
    : std::runtime_error(format_error(loc, message)),
      loc_(std::move(loc)),
      message_(message),
      notes_(std::move(notes)) {}

}  // namespace uopc

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

// How much of a long line the snippet shows around the caret.
constexpr size_t kShownColumns = 100;

// "  12 | text" and "     |    ^~~~". Bytes that are not printable ASCII show as '?' (a
// binary file must not reach the terminal), tabs as one space, so the caret lines up; a long
// line shows only the part around the caret, with "..." where it is cut.
std::string snippet(const Location& loc) {
  if (loc.source.empty() || loc.line <= 0) return "";
  std::string text = loc.source;
  for (char& c : text) {
    auto u = static_cast<unsigned char>(c);
    if (c == '\t')
      c = ' ';
    else if (u < 0x20 || u >= 0x7f)
      c = '?';
  }
  size_t col = loc.col > 0 ? static_cast<size_t>(loc.col) : 1;
  size_t length = std::max(1, loc.length);
  size_t from = 0;
  std::string before, after;
  if (text.size() > kShownColumns) {
    from = col > kShownColumns / 2 ? col - kShownColumns / 2 : 0;
    if (from > 0) before = "...";
    if (from + kShownColumns < text.size()) after = "...";
    text = text.substr(from, kShownColumns);
    length = std::min(length, kShownColumns / 2);
  }
  std::string number = std::to_string(loc.line);
  std::string gutter(number.size() + 1, ' ');
  std::string out = " " + number + " | " + before + text + after + "\n";
  if (loc.col <= 0) return out;
  size_t at = col - 1 - from + before.size();
  size_t room = before.size() + text.size() + 1 > at ? before.size() + text.size() + 1 - at : 1;
  length = std::min(length, room);
  return out + gutter + " | " + std::string(at, ' ') + "^" + std::string(length - 1, '~') + "\n";
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

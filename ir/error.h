// The two error channels of uopc.
//
// A UserError is the user's fault: a program that does not parse or type-check, a bad input
// file, a value over the size limit. It carries the place (file, line, column) when one is
// known and maps to exit code 2. A TypeError is what a builder throws when a type rule fails;
// it knows the op but not the place, and the parser turns it into a located UserError.
// Anything else that escapes is an internal failure (exit code 3).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace uopc {

struct Location {
  Location() = default;
  explicit Location(std::string file, int line = 0, int col = 0)
      : file(std::move(file)), line(line), col(col) {}

  std::string file;
  int line = 0;        // 1-based; 0 when unknown
  int col = 0;         // 1-based; 0 when unknown
  int length = 0;      // characters of the token at col, for the ~~~ under it
  std::string source;  // the text of the line, when known, shown under the message
};

// A place related to an error: where a value was defined, the shape it had.
struct Note {
  Location loc;
  std::string message;
};

class UserError : public std::runtime_error {
 public:
  UserError(Location loc, const std::string& message, std::vector<Note> notes = {});
  explicit UserError(const std::string& message) : UserError(Location{}, message) {}
  const Location& location() const { return loc_; }
  const std::string& message() const { return message_; }
  const std::vector<Note>& notes() const { return notes_; }

 private:
  Location loc_;
  std::string message_;
  std::vector<Note> notes_;
};

// What a type rule blames, so that the parser can point at it: one of the op's operands (by
// position) or one of its attributes (by key); neither blames the op.
struct Blame {
  int operand = -1;
  const char* attribute = nullptr;
};

class TypeError : public std::runtime_error {
 public:
  explicit TypeError(const std::string& message, Blame blame = {})
      : std::runtime_error(message), blame_(blame) {}
  const Blame& blame() const { return blame_; }

 private:
  Blame blame_;
};

// Formats "file:line:col: error: message", leaving out the parts that are unknown.
std::string format_error(const Location& loc, const std::string& message);

// The error as clang shows one: the message, then the source line with a caret under the
// token (^~~~), then each note the same way ("file:line:col: note: ...").
std::string format_diagnostic(const UserError& e);

}  // namespace uopc

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

namespace uopc {

struct Location {
  std::string file;
  int line = 0;  // 1-based; 0 when unknown
  int col = 0;   // 1-based; 0 when unknown
};

class UserError : public std::runtime_error {
 public:
  UserError(Location loc, const std::string& message);
  explicit UserError(const std::string& message) : UserError(Location{}, message) {}
  const Location& location() const { return loc_; }
  const std::string& message() const { return message_; }

 private:
  Location loc_;
  std::string message_;
};

class TypeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Formats "file:line:col: error: message", leaving out the parts that are unknown.
std::string format_error(const Location& loc, const std::string& message);

}  // namespace uopc

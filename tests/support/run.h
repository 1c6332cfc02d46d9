// Helpers shared by the tests: parse program text, run it, and run the uopc binary.
#pragma once

#include <string>
#include <vector>

#include "interp/interp.h"
#include "ir/program.h"

namespace uopc::testing {

Program parse(const std::string& text);

// The output lines of `uopc interp`, and "assert NAME failed: DETAIL" for each failed assert.
std::vector<std::string> interp_lines(const std::string& text);

// The error message of parsing `text` as "t.uir" ("" when it parses).
std::string parse_error(const std::string& text);

struct Command {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs the uopc binary with `args` (a shell-quoted string), feeding `input` on stdin.
Command run_uopc(const std::string& args, const std::string& input = "");
// Runs a /bin/sh command the same way.
Command run_shell(const std::string& command, const std::string& input = "");

std::string read_file(const std::string& path);

}  // namespace uopc::testing

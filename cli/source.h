// Reading a program for a command: a path, or "-" for standard input.
#pragma once

#include <string>

#include "ir/program.h"

namespace uopc::cli {

// The text of `path` ("-" reads standard input); throws UserError when it cannot be read.
std::string read_source(const std::string& path);

// Creates the folder `path` (and its parents) unless it exists; throws UserError naming `flag`
// when it is a file or cannot be created.
void make_directory(const std::string& path, const std::string& flag);

// read_source + parse_program, with "<stdin>" as the file name for "-".
Program load_program(const std::string& path);

// Each line of `text` as a .uir comment, "# " and the line, trailing newlines dropped: a
// header stays comments whatever a failure's detail holds (a C compiler's message spans lines).
std::string as_comment(const std::string& text);

}  // namespace uopc::cli

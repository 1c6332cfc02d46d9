// The .uir parser: text to a typed Program (LANGUAGE.md §2).
//
// It reads the canonical form (`%y = reshape %x shape=[3 4]`) and the book form
// (`%y = reshape %x, (3, 4)`, attributes after ` : `), one statement per line, with CRLF or LF
// line ends. Every statement is type-checked as it is built (ir/build.h), so a program that
// parses is well typed. Any problem throws UserError at file:line:col; nothing recurses on the
// input, so hostile files cannot exhaust the stack.
//
// Broadcasting and literal typing happen here: ALU, stack and assert operands are broadcast
// with explicit reshape/expand nodes, and an integer literal where f32 is expected becomes f32.
// A book-form `reduce ... pop=n` folds the trailing n axes: it becomes a permute moving them to
// the front, then a canonical reduce.
#pragma once

#include <string>
#include <string_view>

#include "ir/program.h"

namespace uopc {

Program parse_program(std::string_view text, const std::string& file);

}  // namespace uopc

// A Program as a Graphviz DOT digraph: one box per node with its op, attributes, dtype and
// shape, named after its statement when it has one; edges run from sources to users, labelled
// with the operand position when an op has several. Outputs are drawn bold, asserts as
// diamonds, literals as plain text.
#pragma once

#include <string>

#include "ir/program.h"

namespace uopc {

std::string program_to_dot(const Program& p);

}  // namespace uopc

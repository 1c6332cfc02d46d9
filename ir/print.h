// The printer: a Program as canonical .uir text, with parse_program(print_program(p)) the same
// graph as p (ir/program.h's same_graph).
//
// Every node is printed once, sources first; literals are printed inline as operands. Nodes the
// parser added (broadcast expands, book-form permutes) get fresh names. Outputs and asserts
// come last, in their original order, so the reparsed program lists them the same way; an
// output whose node another statement also uses is printed twice, once under an internal name
// for its users and once under its own name, which interning turns back into one node.
#pragma once

#include <string>

#include "ir/program.h"

namespace uopc {

struct PrintOptions {
  // Broadcast literals as bare operands (`max %x 0`) where the parser broadcasts them back to
  // the same node; false prints each as a statement of its own (`%t = expand 0 shape=[4]`).
  bool literal_operands = true;
};

std::string print_program(const Program& p, const PrintOptions& options = {});

// The right-hand side of one node's statement, naming sources through `name_of`.
template <class NameOf>
std::string print_op(const UOp& node, NameOf&& name_of);

}  // namespace uopc

#include "ir/print_op.h"

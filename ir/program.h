// A .uir program: its named statements in file order, each bound to a node of the graph.
//
// The graph itself is the nodes; names and lines are kept for what users see: outputs are
// printed under their statement names and errors point at lines. Outputs are the statements no
// other statement uses, in file order (LANGUAGE.md §6); asserts are checks, never outputs.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/uop.h"

namespace uopc {

struct Statement {
  std::string name;  // with its '%'
  UOpRef node;
  int line = 0;
  bool used = false;  // named as an operand by a later statement
  bool is_assert() const { return node->op == Op::Assert; }
};

struct Program {
  std::string file;  // for messages; "<stdin>" when read from standard input
  std::vector<Statement> statements;

  std::vector<const Statement*> outputs() const;
  std::vector<const Statement*> asserts() const;
  // Output and assert nodes: everything the program computes is reachable from them.
  std::vector<UOpRef> roots() const;
};

// The same graph: the same outputs under the same names, in the same order, with the same
// nodes, and the same asserts on the same nodes. Names of intermediate statements do not count.
bool same_graph(const Program& a, const Program& b);

// All nodes reachable from `roots`, each once, sources before users. Iterative, so a chain of
// 10^5 statements does not exhaust the stack.
std::vector<const UOp*> topo_order(const std::vector<UOpRef>& roots);

// p with node `from` replaced by `to` wherever it is used, keeping only p's outputs and asserts
// (under their names). The nodes on the way get the new sources by with_sources, which checks no
// type rule: for a `to` of another type, print the result and parse it again.
Program replace_node(const Program& p, const UOp* from, const UOpRef& to);

// The same for several nodes at once: each key of `to` by its value.
Program replace_nodes(const Program& p, const std::unordered_map<const UOp*, UOpRef>& to);

// Throws UserError for the first value (in statement order, including values the parser added
// by broadcasting) with more than `limit` elements, naming the statement and --max-elements.
// Only values for which `stored` holds count; without it every value does, as the interpreter
// stores every value, while a compiled program stores only its buffers (a fused product that a
// reduce folds is never held).
void check_value_sizes(const Program& p, int64_t limit,
                       const std::function<bool(const UOp*)>& stored = {});

}  // namespace uopc

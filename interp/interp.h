// The reference interpreter: evaluates a Program op by op, each op on whole tensors
// (interp/movement.h, interp/elementwise.h). It is the oracle every other engine is diffed
// against, so it is written for obviousness, not speed.
//
// Values are freed as soon as their last user has run, so a long chain needs memory for a few
// values, not all of them. Before anything runs, every value is checked against
// `max_elements`; a larger one is refused with a UserError naming it and the flag to raise.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "interp/tensor.h"
#include "ir/program.h"

namespace uopc {

struct Input {
  std::string source;  // where it came from, for messages ("x.npy")
  Tensor value;
};

struct InterpOptions {
  int64_t max_elements = int64_t{1} << 28;
  std::map<int64_t, Input> inputs;  // by slot; other slots hold the default data
  // Reduces whose innermost popped axis is folded f elements at a time, as a balanced tree
  // (compiler/opts.h's unroll): acc = op(acc, tree(x[f*q], ..., x[f*q + f - 1])).
  std::unordered_map<const UOp*, int64_t> unrolled;
};

struct AssertFailure {
  const Statement* statement;
  std::string detail;  // "first difference at [1 2]: 1.5 vs 2"
};

struct InterpResult {
  std::vector<std::pair<const Statement*, Tensor>> outputs;  // in file order
  std::vector<AssertFailure> failures;                       // in file order
};

InterpResult interpret(const Program& p, const InterpOptions& options);

// The verdict on the assert named `name`: "holds", or "fails, " and where and with which
// values (AssertFailure::detail), which shows its operands.
std::string assert_verdict(const InterpResult& r, const std::string& name);

// `options` with each buffer slot it leaves to the default data given scrambled_input instead,
// or nullopt when none of those buffers is longer than kDefaultPeriod: shorter, the default
// data holds distinct values, and no wrong index reads what the right one would.
std::optional<InterpOptions> scrambled_options(const Program& p, InterpOptions options = {});

// The value of every node under `roots` (literals included, asserts have none), from one run
// that keeps them all: for analyses that look at intermediate values.
std::unordered_map<const UOp*, Tensor> node_values(const std::vector<UOpRef>& roots,
                                                   const InterpOptions& options = {});

// "%name f32[2 3] = [[1 2 3] [4 5 6]]"
std::string format_output(const std::string& name, const Tensor& t, int64_t limit = 0);

}  // namespace uopc

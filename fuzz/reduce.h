// The minimizer: graph-level delta debugging of a failing program to a small one that fails
// the same way (the C-Reduce idea on a typed graph).
//
// Candidates, tried repeatedly until none is accepted: drop an output or an assert; make an
// output one of its sources; bypass a node for a source of the same dtype and shape; replace
// a node by a fresh input buffer or by a constant of its shape; turn a literal into zero.
// Shapes and ranks are not shrunk: a smaller shape would have to be carried through every
// user of the value. Every candidate is printed and
// parsed again, so it is well typed (a replaced offset that is no longer provable is simply
// not a candidate), and it is kept only if the failure is still the same: the same oracle
// fails (with the same planted bug, if one is on), or the external test still says so.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "compiler/backend.h"
#include "fuzz/oracles.h"
#include "ir/program.h"

namespace uopc {

// Whether a candidate (as .uir text) still fails the way the original does.
using Interesting = std::function<bool(const std::string& text)>;

// Fails the named oracle ("engines", "memory", "cost", "composites", "roundtrip", or
// "rejection": the text parses as it is, but not with the active planted bug switched off).
Interesting fails_oracle(const std::string& oracle, Backend& backend);

// Still fails against an external engine (check_target), run in `dir`.
Interesting fails_target(const std::string& command, const std::string& dir);

// The oracle a program fails first (engines/memory/cost, roundtrip, composites), if any.
std::optional<Failure> first_failure(const Program& p, Backend& backend);

struct Reduced {
  std::string text;  // the smallest failing program found
  int statements = 0;
  int candidates_tried = 0;
};

Reduced reduce_program(const Program& p, const Interesting& interesting);

// Delta debugging on lines, for texts that are not well typed (the rejection oracle): drops
// lines while the text stays interesting.
Reduced reduce_lines(const std::string& text, const Interesting& interesting);

// Statements of a printed program (lines that are not blank or comments).
int count_statements(const std::string& text);

// A short stable name for a failure, for grouping: the oracle and the kind of op where it
// shows, e.g. "engines-permute" (the op of the first output that differs) or
// "cost-expand-reduce" (the ops of the outputs, when no single output is named).
std::string failure_signature(const Failure& f, const Program& p);

}  // namespace uopc

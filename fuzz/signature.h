// Failure signatures: how a campaign tells one bug from another, and how the minimizer knows a
// smaller program still fails *the same way*.
//
// A signature is a family of oracles and the kind of op where the failure first shows, e.g.
// "engines-permute". The op is found by localization: each node of the program, in
// topological order, is computed alone on fresh input buffers, and the first one that fails
// names the op; when no node fails in isolation (a bug that needs ops together), each node is
// computed with its whole subgraph instead. So a wrong permute rule is "engines-permute"
// whether the permute feeds an add, a reduce or a pad's composite, whether its own input
// happens to hide the mistake (all zeros, say), and whether the wrong index reads a wrong
// element or leaves the buffer.
//
// Families: "engines" (the engines, memory and composites oracles: the compiled engine
// computes a value the interpreter does not), "cost", "ub" (a plain C op that overflows),
// "roundtrip". Some causes are named without localizing: a wrongly accepted program by the
// type rule it breaks ("rejection-pad_length"); a ub failure by the C operator whose decision
// broke ("ub-sub", "ub-division"); and a failure that goes away without kernel options and on
// one thread by the options it still needs once each one it shows without is dropped
// (reduce_config in fuzz/reduce.h: "engines-upcast", "engines-thread+threads"), whichever op the
// options happened to reach. A failure of an external engine is localized through that engine
// (target_signature). Other failures (crash, timeout), and failures no single node shows, are
// named by their oracle and the ops of the outputs involved.
#pragma once

#include <string>

#include "compiler/backend.h"
#include "fuzz/oracles.h"
#include "ir/program.h"

namespace uopc {

// `config`: how the compiled engine ran when `f` happened.
std::string failure_signature(const Failure& f, const Program& p, Backend& backend,
                              const EngineConfig& config = {});

// A failure of an external engine (check_target), localized the same way through the engine:
// each node computed alone by it. "target-reshape" for a wrong value, "target-exit3-pad" for a
// wrong exit status, as target_kind says.
std::string target_signature(const Failure& f, const Program& p, const std::string& command,
                             const std::string& dir);

// What went wrong with an external engine: "value" (it printed another value) or "exitN" (it
// exited with status N instead of the interpreter's).
std::string target_kind(const Failure& f);

// The family an oracle belongs to ("memory" -> "engines"), or the oracle itself.
std::string oracle_family(const std::string& oracle);

}  // namespace uopc

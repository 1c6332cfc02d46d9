// The minimizer: graph-level delta debugging of a failing program to a small one that fails
// the same way (the C-Reduce idea on a typed graph).
//
// Candidates, tried repeatedly until none is accepted: drop an output or an assert; make an
// assert one of its operands, as an output (a test's "assert x against the literals it should
// equal" becomes x, so the literals can go); make an output one of its sources; bypass a node
// for a source, or a source's source, of its type; bypass it for a source of the same dtype,
// fitted to its shape by a reshape (as many elements), a shrink
// (a longer axis) or an expand (a size-1 axis); make a literal tensor one of its values,
// expanded; replace a node by a fresh input buffer, by a constant of its shape, or by its own
// value written as literals (a stack, reshaped; up to 256 elements), which lets the whole
// subgraph behind it go while the values, and so the bounds, that show the failure stay; turn
// a literal into zero. Then shapes and ranks shrink: a size made smaller wherever it occurs or
// at one place, an axis dropped from a list. When none of these is accepted, a last pass tries
// every single-statement removal (single_removals), and the others again if one was, so the
// result is 1-minimal; when asked (Probes::Yes), then a probe of one op on literals
// (fuzz/probes.h), which shows a cause the program met only in its index arithmetic, and is
// reduced in its turn. Every candidate is parsed again, so it is well typed (an edit that
// breaks a type rule, or a replaced offset that is no longer provable, is simply not a
// candidate), and it is kept only if it is smaller (statements, then elements of all values,
// then characters) and the failure is still the same: the same signature (fuzz/signature.h),
// or the external test still says so. The engine settings a failure needs shrink as well
// (reduce_config, minimize).
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

// Fails an oracle of the named one's family (fuzz/signature.h: "engines", "memory", "cost" and
// "composites" are one family; "roundtrip"), with the given signature unless it is
// empty. "rejection": the text parses as it is, but not with the active planted bug off.
// `config`: how the compiled engine runs each candidate. With `original`, a candidate must also
// keep every op the signature names that `original` has, so that the reproducer shows the op its
// name speaks of (a flip whose composite's reduce fails stays a reduce, not a bare flip).
Interesting fails_oracle(const std::string& oracle, Backend& backend,
                         const std::string& signature = "", const EngineConfig& config = {},
                         const Program* original = nullptr);

// Still fails against an external engine (check_target), asked for `config`, in the same way:
// the same target_kind (fuzz/signature.h) as `failure`.
Interesting fails_target(Target& target, const Failure& failure, const EngineConfig& config);

// Still breaks a type rule as `failure`'s program does (uopc refuses it with the same message,
// wherever it points) and the external engine still does not refuse it in the same way: it runs
// it (0 or 1), or it answers the same other status.
Interesting fails_target_rejection(Target& target, const Failure& failure);

// The oracle a program fails first (engines/memory/cost, roundtrip, composites), if any.
std::optional<Failure> first_failure(const Program& p, Backend& backend,
                                     const EngineConfig& config = {});

// The failure a program shows in one family of oracles (fuzz/signature.h), if any.
std::optional<Failure> failure_in_family(const std::string& family, const Program& p,
                                         Backend& backend, const EngineConfig& config = {});

// failure_in_family, or for an interval's signature ("bounds-mul") the bounds oracle's failure
// too: a wrong interval is the cause of whatever trusted it, and a program whose own values
// leave it shows that cause itself. What fails_oracle judges a candidate by.
std::optional<Failure> failure_for_signature(const std::string& family,
                                             const std::string& signature, const Program& p,
                                             Backend& backend, const EngineConfig& config = {});

struct Reduced {
  std::string text;  // the smallest failing program found
  int statements = 0;
  int candidates_tried = 0;
  bool one_minimal = false;  // no single statement of `text` can be removed
};

// Called after each accepted candidate with the size so far.
using ReduceProgress = std::function<void(const Reduced& so_far)>;

// Whether the reducer may end by replacing the program with one of op_probes (fuzz/probes.h):
// only where `interesting` asks for the same signature, since a probe shares nothing with the
// program but the cause the signature names (an engine with two bugs fails a probe of either).
enum class Probes { No, Yes };

// Called with each candidate before the reducer parses or judges it (its text; for other engine
// settings, its text and the settings' flags): false sets it aside. A shrink in a child process
// reports through it what it is about to try, and passes over a candidate that killed the
// process before (a compiler crashing on it, in the type rules or in the lowering).
using Screen = std::function<bool(const std::string& candidate)>;

Reduced reduce_program(const Program& p, const Interesting& interesting,
                       const ReduceProgress& progress = {}, Probes probes = Probes::No,
                       const Screen& screen = {});

// Whether a program still fails under the given engine settings.
using FailsUnder = std::function<bool(const EngineConfig& config)>;

// The smallest engine settings under which `fails` still holds, a candidate at a time until none
// is accepted: one thread; --opts auto replaced by none, or by the options auto gives one of p's
// outputs, written out (so they can shrink like any others); each option dropped, one upcast or
// tile axis at a time; an unrolled tree folded in order instead; each factor halved.
EngineConfig reduce_config(const Program& p, const EngineConfig& config, const FailsUnder& fails);

// A failing program and the engine settings it fails under, both reduced.
struct Minimized {
  Reduced reduced;
  EngineConfig config;
};

// What a candidate must do to count as the same failure, under given engine settings.
using InterestingUnder = std::function<Interesting(const EngineConfig& config)>;

// The program reduced, then its engine settings (reduce_config), then the program again under
// the smaller settings when they changed.
Minimized minimize(const Program& p, const EngineConfig& config,
                   const InterestingUnder& interesting, const ReduceProgress& progress = {},
                   Probes probes = Probes::No, const Screen& screen = {});

// Delta debugging on lines, for texts that are not well typed (the rejection oracle): drops
// lines while the text stays interesting.
Reduced reduce_lines(const std::string& text, const Interesting& interesting,
                     const ReduceProgress& progress = {});

// Every way of taking one statement out of a program's text: its line deleted, or deleted with
// its users reading one of its operands instead. reduce_program's last pass tries each, so what
// it returns is 1-minimal: none of these is still interesting.
std::vector<std::string> single_removals(const std::string& text);

// n's value written as literals: reshape(stack(v0 v1 ...), n's shape), or the literal itself
// for a scalar; null for a value of more than `max_elements` (or none). Whatever reads it reads
// what it read from n, while n's subgraph is gone.
UOpRef as_literals(const UOp* n, int64_t max_elements);

// Statements of a printed program (lines that are not blank or comments).
int count_statements(const std::string& text);

}  // namespace uopc

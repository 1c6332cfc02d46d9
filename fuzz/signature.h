// Failure signatures: how a campaign tells one bug from another, and how the minimizer knows a
// smaller program still fails *the same way*.
//
// A signature is a family of oracles and the smallest cause found, e.g. "engines-permute".
// Families: "engines" (the engines, memory, cost and composites oracles: the compiled engine
// computes a value the interpreter does not, strays outside a buffer or loops too much; one
// wrong rule often does each in some program), "ub" (a plain C op that overflows),
// "roundtrip" (a literal that does not print back to itself is "roundtrip-const", a node that
// does not alone "roundtrip-pad": check_roundtrip). Causes, in the order they are looked for:
//
// - a wrong interval ("bounds-max"), which the type rules, the simplifier and the renderer's
//   overflow decisions trust, so that it shows at whatever op relied on it: a value of p's
//   nodes outside its node's interval (check_bounds), an i32 value p's kernels compute outside
//   it (RenderOptions::check_intervals), or a node a simplifier rule looked at whose values
//   over its loop counters leave it (the rule may have rewritten the node away);
// - an engine that cannot copy an input buffer of one of p's dtypes in a kernel of its own,
//   nothing computed: it hands its kernels the wrong data, which every op that reads memory
//   shows ("engines-buffer", as when a bare input fails in localizing);
// - an engine that fails read_twice_probe (fuzz/probes.h), a buffer compared with its flip,
//   where the flip alone and a compare of two buffers pass: it remembers a value by its node
//   and not by its index, which every op that reads a value twice in one kernel shows
//   ("engines-read_twice"; "target-read_twice" through an external engine);
// - a pad or a flip the interpreter computes otherwise than its composite (ir/composite.h) on
//   probes: "composites-pad" (pad first: an i32 flip's composite is built from pads), or
//   "engines-pad" when the compiled engine disagrees with the interpreter there too (the
//   interpreter's own pad is wrong), whichever op of p the difference reached;
// - an elementwise op uopc's renderer writes wrong into the expressions of the ops that read it
//   (its C without the parentheses a reader needs, say), shown by fused probes (fuzz/probes.h)
//   with every rule set aside, one of p's ops or one its lowering makes (a pad's mask is a
//   where): "engines-render_where", whichever reader showed it (a compare's bool that is
//   neither 0 nor 1, an i32 outside a reader's interval, an overflow, C that does not compile);
//   of several such ops (C they share), the first in the language's order. C the compiler
//   refuses otherwise is localized as a wrong value is, not named by the compiler;
// - a failure that goes away once one simplifier rule is set aside (WithoutRule) where that
//   rule made a rewrite step z3 refutes on its own: the rule, wherever its wrong decision
//   landed ("symbolic-compare_by_bounds" for a pad's mask or a stack's select alike); when no
//   one rule set aside does but all that fired do, the rules z3 refutes set aside together,
//   round by round, until the failure goes away (rules wrong through a helper they share): the
//   first refuted;
// - a wrongly accepted program: the type rules the parser does not check ("rejection-pad_length",
//   "rejection-expand+pad_length" when it skips two);
// - a ub failure, in the kernels or the compiled composites: the C operator whose decision
//   broke ("ub-sub", "ub-division");
// - a failure that goes away once the renderer writes an op through its helper function
//   (RenderOptions::by_helper): that decision ("engines-render_minmax");
// - a wrong value shown at an arithmetic op on the plain lowering, that goes away once one
//   simplifier rule is set aside though no step of it is refuted alone: that rule
//   ("symbolic-divmod_split"), of several the one that fired last. Not for other ops, memory
//   or cost: a rule set aside also changes which indices wrap and what options apply;
// - a failure that goes away without kernel options on one thread: the options it still needs
//   (reduce_config in fuzz/reduce.h: "engines-upcast", "engines-thread+threads"), whichever op
//   the options happened to reach, as that op needs them computed alone; unless the op also
//   fails alone without options (on inputs with size-1 axes widened, or one more axis, or on the
//   values its operands had in p, each way also read at two indices as an upcast reads it),
//   which names the op;
// - else the op, by localization: each node, in topological order, computed alone on fresh
//   input buffers (then, if none fails, on literals that tell elements apart), the first that
//   fails naming the op. So a wrong permute rule is
//   "engines-permute" whether the permute feeds an add, a reduce or a pad's composite, whether
//   its own input happens to hide the mistake (all zeros, say), and whether the wrong index
//   reads a wrong element or leaves the buffer. When no node fails alone (a bug that needs
//   ops together), the first node whose whole subgraph fails is taken, and within it the node
//   furthest back whose value, given as literals, makes the failure go away.
//
// A failure of an external engine is localized through that engine (target_signature). Other
// failures (crash, timeout), and failures nothing localizes, are named by their oracle and the
// ops of the outputs involved.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "compiler/backend.h"
#include "fuzz/oracles.h"
#include "fuzz/reduce.h"
#include "ir/program.h"

namespace uopc {

// `config`: how the compiled engine ran when `f` happened.
std::string failure_signature(const Failure& f, const Program& p, Backend& backend,
                              const EngineConfig& config = {});

// A failure of an external engine (check_target), localized the same way through the engine:
// each node computed alone by it, under the least settings (EngineConfig) the failure needs.
// "target-reshape" for a wrong value (or an error status: the engine's own checks caught it),
// "target-exit2-pad" for a valid program refused, "target-SIGSEGV-pad" for a crash by a signal
// ("target-SIGSEGV-in-bounds_of", the whole name, when the engine names where it crashed),
// "target-timeout-reduce", as target_kind says; idiv and mod are one way of dividing,
// "target-division". A failure that needs kernel options and that no node shows alone without
// them is named by the options' kinds: "target-tile", "target-thread+threads" (those the node
// where it shows needs computed alone, when one fails alone). An engine that
// cannot echo the expected values given as one-literal stacks is "target-const": it reads or
// prints values wrong, whichever op made them. A failure no node shows alone, when one of the
// engine's i32 arithmetic ops fails alone on edge values, is that op's; one that needs the
// ops fused, or shows at an elementwise op, when an op of the failing value fails in its fused
// probes (fused_probes) where it passes staged and alone, is the first such op in the
// language's order: "target-render_add" for an engine that writes every binary op's value
// into its reader without parentheses, whichever reader showed it (a where's probes are asked
// too when p holds a stack or a pad, whose select it is, and when the arithmetic probes fail,
// as they read stacks: "target-render_where"); in an engine whose
// checker narrows an op's interval, it is that interval's ("target-interval_max"), and so is a
// failure a node shows alone only on literals it is not handed in memory. `witness`, when
// given, is set to a failure that shows the cause in a program holding the op it names, when
// p does not: that op alone (a value failure), or the offset the checker lets through (a
// target-rejection failure).
std::string target_signature(const Failure& f, const Program& p, Target& target,
                             Failure* witness = nullptr);

// A malformed program an external engine did not refuse (check_target_rejects), named by the
// type rules it lets through, probed through the engine:
// "target-rejection-pad_length+shrink_bounds". An engine that lets none of them through but
// accepts an offset outside the interval LANGUAGE.md §5 gives it is named by the op whose
// interval rule it narrows: "target-interval_pad". A value failure no node shows alone, in a
// program that holds an op whose interval the engine's checker narrows, has the same name.
std::string target_rejection_signature(const Failure& f, Target& target);

// How a shrink bounds what judges its candidates (by time, say).
using Bounded = std::function<Interesting(Interesting)>;

// For a failure that target_rejection_signature names by a narrowed interval: the breaker of
// the smallest program found whose value the engine's checker narrows by the same op's rule.
// A breaker's offset sums the value's elements, so it cannot shrink line by line; the valid
// program it was built on is shrunk instead (reduce_program), and the breaker built anew.
std::optional<Failure> smaller_interval_breaker(const Failure& f, Target& target,
                                                const Bounded& bounded);

// What went wrong with an external engine: "value" (it printed another value, an assert's
// verdict differs, or it answered an error status where values were due), "exit2" (it refused
// a valid program), "SIGSEGV" (a signal ended it), "timeout". A signal with a crash site on the
// engine's stderr (crash_site) is "SIGSEGV-in-bounds_of": one bug wherever it crashed from.
std::string target_kind(const Failure& f);

// The function an engine's stderr names as where it crashed, by its plain name: a line ending
// "crash site: SYMBOL" (docs/ENGINES.md; uopc prints one, cli/crash_site.h), the symbol mangled
// or not: "_ZN4uopc12_GLOBAL__N_19bounds_ofENS_2OpE...isra.0" is "bounds_of", and a lambda is
// named by the function it is in. "" when the log names none.
std::string crash_site(const std::string& log);

// A function's plain name from its symbol, mangled or not, as crash_site gives it; "" for none.
std::string function_name(std::string symbol);

// Where an exception a failure reports was raised: the first word of its message ("threw:
// permute: order [0 2 1] is not ..." gives "permute"), "exception" for a message without one;
// none for a failure that is not a throw.
std::optional<std::string> throw_site(const Failure& f);

// The name of a failure nothing localizes: a throw's oracle and site ("composites-threw-permute":
// a program's outputs say nothing of a harness step every program with a flip takes), else the
// oracle and the ops of the output it names ("%x: ..."), or of every output ("crash-pad-reduce").
std::string by_outputs(const Failure& f, const Program& p);

// Whether a program fails under engine settings.
using FailsWith = std::function<bool(const Program&, const EngineConfig&)>;

// The kernel option kinds a failure needs, from the least settings it fails under
// ("upcast+thread+threads"), fewest first: a failure that needs several kinds in one program
// (a tile that leaves a thread range odd) may be one kind's bug, which probe programs of odd
// and uneven shapes show under that kind alone ("thread+threads"). A smaller set is taken only
// when some probe fails under it and not without options.
std::string fewest_option_kinds(const EngineConfig& least, const FailsWith& fails);

// Whether uopc's compiled engine (the composites left out) gets `op` wrong on probe programs
// that end in it, where the values it reads come out right: then `op`'s own rule is wrong,
// whichever node a program's failure needed. For the movement ops, stack, reduce and add.
bool fails_own_probes(Op op, Backend& backend);

// The ops a signature names: "engines-reduce" names reduce, "engines-upcast" names none.
std::vector<Op> signature_ops(const std::string& signature);

// The family an oracle belongs to ("memory" -> "engines"), or the oracle itself.
std::string oracle_family(const std::string& oracle);

}  // namespace uopc

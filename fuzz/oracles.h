// The oracles: each says whether one program (or expression) is handled correctly, as a plain
// function returning the failure it found, if any. Tests, campaigns and the command line all
// call these.
//
//   engines     interpreter and compiled engine agree bit for bit on every output and assert
//               (all NaNs equal), with every load and store bounds-checked (memory safety)
//   ub          every i32 op the renderer wrote as plain C (its bounds decided that it cannot
//               overflow, or that C's / and % floor) keeps that promise at run time
//   cost        the compiled kernels run at most a small multiple of the loop iterations the
//               work needs, so a reduce recomputed inside an unrelated loop is a failure
//   composites  pad and flip rebuilt from stack, reshape, shrink (ir/composite.h) equal the
//               primitive ops, in both engines
//   bounds      every i32 value lies in the interval its node carries (LANGUAGE.md §5), which
//               type rules and rewrites trust; the first node whose value leaves it is named
//   roundtrip   parse(print(p)) is p
//   rejection   a program breaking one type rule is refused with a located error
//   target      an external engine prints what the interpreter prints; with rejection on, it
//               also refuses (status 2) what uopc's type rules refuse (target-rejection)
//   symbolic    a random integer expression over variables of random bounds keeps its value
//               after simplification, and its value and the simplified one's lie in their
//               interval bounds, for every value of the variables: decided by z3 (fuzz/smt.h),
//               or by evaluating every point of a small domain
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>

#include "compiler/backend.h"
#include "compiler/opts.h"
#include "compiler/rewrite.h"
#include "fuzz/choices.h"
#include "fuzz/expr_gen.h"
#include "fuzz/smt.h"
#include "fuzz/target.h"
#include "ir/program.h"

namespace uopc {

// How the compiled engine runs a program: kernel options and threads. An unrolled reduce is
// compared bit for bit too: the interpreter folds it in the same tree (compiler/engine.h).
struct EngineConfig {
  OptsChoice opts;
  int threads = 1;
  // The renderer's decisions set aside for these ops (RenderOptions::by_helper); only naming a
  // failure sets any, so no flag selects them.
  std::vector<Op> by_helper = {};
  // The command-line flags that select it, for replay commands.
  std::string flags() const;
};

struct Failure {
  Failure() = default;
  Failure(std::string oracle_, std::string detail_, std::string program_, EngineConfig config_ = {})
      : oracle(std::move(oracle_)),
        detail(std::move(detail_)),
        program(std::move(program_)),
        config(std::move(config_)) {}

  std::string oracle;
  std::string detail;
  std::string program;  // the program, printed (or the expression)
  EngineConfig config;  // how the compiled engine ran
  std::string log;      // an external engine's last lines on stderr
};

std::optional<Failure> check_engines(const Program& p, Backend& backend,
                                     const EngineConfig& config = {});
// `compiled`: also run the composite program through the compiled engine (the costlier half).
// `by_helper`: as EngineConfig::by_helper, for the compiled run.
std::optional<Failure> check_composites(const Program& p, Backend& backend, bool compiled = true,
                                        const std::vector<Op>& by_helper = {});
// A literal that does not print back to itself is named first: the detail begins with
// kLiteralRoundtrip. Else a program that prints back to itself with its broadcast literals as
// statements, and not with them as bare operands: the printer's choice of which literals to
// inline, kLiteralOperands, with the program printed that way. Else a node that does not alone,
// on buffers (a field the printer leaves out, a pad's bool fill): kNodeRoundtrip, then the op.
// The program's text may then no longer hold the failure (lost_in_text); its seed does.
std::optional<Failure> check_roundtrip(const Program& p);
// The same, given print_program(p).
std::optional<Failure> check_roundtrip(const Program& p, const std::string& printed);
inline constexpr const char* kLiteralRoundtrip = "literal: ";
inline constexpr const char* kNodeRoundtrip = "node: ";
inline constexpr const char* kLiteralOperands = "literal operands: ";

// Whether a failure is one the printed program may have lost: a literal or a node that does not
// print back to itself, whose reproducer replays by seed.
inline bool lost_in_text(const Failure& f) {
  return f.oracle == "roundtrip" &&
         (f.detail.rfind(kLiteralRoundtrip, 0) == 0 || f.detail.rfind(kNodeRoundtrip, 0) == 0);
}
std::optional<Failure> check_bounds(const Program& p);
std::optional<Failure> check_rejected(const std::string& text, const std::string& rule);
// z3's time for one claim of the symbolic oracle; the domains evaluated point by point
// instead of asking z3 (small ones, where that is faster), and when z3 gives up. Under the
// fuzz preset's sanitizers, 8192 points take 0.4 ms on average, a proof by z3 5 ms, and an
// answer z3 gives up on about 50 ms; a bigger first domain decides more claims exactly.
constexpr unsigned kSymbolicTimeoutMs = 12;
constexpr int64_t kSymbolicEnumerationFirst = 8192;
constexpr int64_t kSymbolicEnumerationLimit = 1 << 16;

// How the symbolic oracle's claims were settled.
struct SymbolicStats {
  int64_t proved = 0, refuted = 0, undecided = 0;
  void count(const Verdict& v) { (v.proved() ? proved : v.refuted() ? refuted : undecided)++; }
};

std::optional<Failure> check_symbolic(Choices& choices, SymbolicStats* stats = nullptr);
// One z3 context per thread, with the symbolic oracle's time limit (or a SymbolicBudget's):
// campaigns run oracles on several threads.
Smt& thread_smt();

// While it lives, thread_smt gives z3 `ms` per claim on this thread. Triage asks z3 about a
// failure's steps once, and a name must not depend on how loaded the machine was: at the
// oracle's 12 ms, one step of a NaN's exp2 was refuted on one run and given up on the next.
class SymbolicBudget {
 public:
  explicit SymbolicBudget(unsigned ms);
  ~SymbolicBudget();
  SymbolicBudget(const SymbolicBudget&) = delete;
  SymbolicBudget& operator=(const SymbolicBudget&) = delete;

 private:
  Smt* previous_;
};
// z3's time for one claim in triage (failure_signature): decided claims take a few ms.
constexpr unsigned kTriageTimeoutMs = 250;
// The same on a drawn expression, and the text that identifies it (the expression and its
// variables' bounds).
std::optional<Failure> check_expression(const RandomExpr& expr, SymbolicStats* stats = nullptr);

// Why a simplifier rewrite step is unsound, over its leaves' bounds (`vars`, the variables to
// enumerate, or none: z3 alone, loads and loop counters symbolic): "interval of OP" when a value
// of a node in it leaves that node's interval (the innermost such node: a rule that trusted the
// interval was misled), "semantics of OP" for a wrong fold of literals, else the step's rule
// when the two sides differ; "" when it is sound. z3 models no f32: an f32 where rewritten to
// one of its branches is checked as the choice it is, the branches standing for 0 and 1.
std::string rewrite_cause(const RewriteStep& step, const std::vector<UOpRef>& vars = {});
inline constexpr const char* kIntervalOf = "interval of ";
// A refuted fold of literals: "semantics of mod", the op's scalar semantics.
inline constexpr const char* kSemanticsOf = "semantics of ";
// kIntervalOf and the op of the innermost elementwise i32 or bool node of the expressions
// `roots` (sources first, loads and loop counters as leaves) that `leaves_interval` says takes
// a value outside its own interval, or "".
std::string interval_outside(const std::vector<UOpRef>& roots,
                             const std::function<bool(const UOpRef&)>& leaves_interval);
// Whether the i32 expression n stays inside its own interval for every value of its loop
// counters: enumerated when its only other leaves are literals and it has at most max_points
// points; Unknown otherwise.
Verdict interval_holds(const UOpRef& n, int64_t max_points);
// The i32 elementwise nodes n of the expression `root` for which
// interval_holds(n, max_points) is refuted, among those not in `checked`, which gets them all.
// Found together: checking each node of a large expression on its own evaluates its sources
// again for each of them.
std::unordered_set<const UOp*> intervals_left(const UOpRef& root, int64_t max_points,
                                              std::unordered_set<const UOp*>* checked);

std::string expression_text(const RandomExpr& expr);

// An external engine under test (fuzz/target.h) must print exactly what the interpreter prints
// (LANGUAGE.md §6's output lines) and answer 0 when the asserts hold, 1 when one fails. An
// answer of 77 (unsupported) is no failure: `skipped` is set instead. The engine is asked for
// `config` and every run-time check through its environment (compiler/engine_env.h); the
// failure keeps it.
std::optional<Failure> check_target(const Program& p, Target& target, bool* skipped = nullptr,
                                    const EngineConfig& config = {});
// The environment that asks an engine for `config`.
Environment target_environment(const EngineConfig& config);
// It must also refuse a program uopc refuses, with status 2 (LANGUAGE.md §6): `text` breaks a
// type rule, as `why` says ("breaks the shrink bounds rule"). 77 is no failure here either;
// running the program (0, 1) or any other answer is a "target-rejection" failure.
std::optional<Failure> check_target_rejects(const std::string& text, const std::string& why,
                                            Target& target, bool* skipped = nullptr);
// The `why` a target-rejection failure was made with.
std::string rejection_reason(const Failure& f);

// p with every pad and flip replaced by its composite, same statements and names.
Program with_composites(const Program& p);

// engines (with cost and memory), roundtrip, bounds and composites, in that order; the
// composites through the compiled engine only when `compiled_composites`. `printed`, when
// given, is print_program(p).
std::optional<Failure> check_program(const Program& p, Backend& backend,
                                     bool compiled_composites = true,
                                     const EngineConfig& config = {},
                                     const std::string* printed = nullptr);
// The same without engines: the oracles that the engine's settings do not change.
std::optional<Failure> check_independent_of_settings(const Program& p, Backend& backend,
                                                     bool compiled_composites,
                                                     const std::string* printed = nullptr);

// The interpreter's work for p: elements of every value plus every reduce's input elements.
int64_t interpreter_work(const Program& p);

}  // namespace uopc

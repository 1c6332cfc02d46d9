// A scope in which the compiled engine does no work twice.
//
// The reducer and a failure's signature compile the same program again and again: a candidate
// is checked, then its signature probes it under several settings, and one candidate is met by
// several paths (three compiles in four while reducing a course case). While a CompileMemo is
// alive on this thread, compile_program remembers its most recent results and Executable its
// most recent modules, and the same program compiled or built again is the first one's. A
// campaign, whose programs are all new, would only pay to keep them, so nothing is remembered
// outside one.
//
// Programs that differ a little (a reducer's candidates, the inputs libFuzzer mutates from one
// another) differ in a kernel or two: the scheduler and the renderer also remember each
// kernel's lowering and C, so the kernels such a program shares with one compiled before are
// not lowered or rendered again, and the simplifier keeps its results (KeptSimplifications in
// compiler/symbolic.h) for the kernels it does lower.
//
// A compile depends on the nodes of the program's outputs and asserts, in order (nodes are
// hash-consed, so these name the graph exactly), the render options, the kernel options, the
// active plant and the rules WithoutRules leave out; a build on the backend and the C source.
// An entry keeps its nodes alive, so no other node can take their addresses. While a
// RewriteLog is alive, compiles are made anew: it must see the rewrites happen. Built modules
// have no state of their own (their only statics are constant tables), so one serves every
// user.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compiler/backend.h"
#include "compiler/engine.h"

namespace uopc {

class CompileMemo {
 public:
  // Uses the memo already alive on this thread, if there is one.
  CompileMemo();
  ~CompileMemo();
  CompileMemo(const CompileMemo&) = delete;
  CompileMemo& operator=(const CompileMemo&) = delete;

  // How many compiles and builds the memo in use answered from what it remembered.
  size_t hits() const;
  // How many kernel lowerings and renderings it answered so.
  size_t kernel_hits() const;

  struct State;

 private:
  std::unique_ptr<State> own_;  // null when an outer memo is in use
};

// For compile_program: the remembered compile of p with these settings, or nullopt (always
// when no memo is alive); and remembering c as that compile.
std::optional<CompiledProgram> recall_compile(const Program& p, const RenderOptions& options,
                                              const OptsChoice& opts);
void keep_compile(const Program& p, const RenderOptions& options, const OptsChoice& opts,
                  const CompiledProgram& c);

// For Executable: backend.compile(source), or the module built for that source before.
std::shared_ptr<Module> build_module(Backend& backend, const std::string& source);

// For the scheduler. A kernel's lowering depends on the nodes of its value, the kernel options,
// the unroll already decided for each reduce among them (a program decides a reduce's unroll
// once, in the first kernel that lowers it), the plant and the rules left out. Its effects on the
// schedule are the parameters it asks for, in order, and the unrolls it decides. A kernel that
// materializes another is not remembered: lowering it schedules that one.
struct LoweringKey {
  std::string text;
  UOpRef root;
  std::vector<const UOp*> undecided;  // reduces among root's nodes without an unroll yet
};
struct LoweredKernel {
  UOpRef sink;
  std::vector<UOpRef> params;                      // parameters 1, 2, ... in order
  std::vector<std::pair<UOpRef, Unroll>> decided;  // of key.undecided, the unrolls it decided
  int64_t thread_size = 0;
  int64_t reduced_here = 0;
};
// nullopt when no memo is in use (lowering_key costs a walk over root's nodes).
std::optional<LoweringKey> lowering_key(const UOp& root, const OptsChoice& opts,
                                        const std::unordered_map<const UOp*, Unroll>& unrolled);
std::shared_ptr<const LoweredKernel> recall_lowering(const LoweringKey& key);
void keep_lowering(const LoweringKey& key, LoweredKernel lowered);

// render_kernel's C, or what it gave for the same kernel before.
std::string rendered_kernel(const KernelSpec& k, const RenderOptions& options);

}  // namespace uopc

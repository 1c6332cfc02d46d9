// The compiled engine: a program lowered to C kernels, built by a backend, and run.
//
// compile_program schedules and lowers every kernel and renders one C translation unit;
// run_compiled builds it, fills the input buffers (from --input files or the language's default
// data), runs the kernels in order, and reads outputs and assert operands back, giving the same
// InterpResult as the interpreter so the two print identically.
#pragma once

#include <string>
#include <vector>

#include "compiler/backend.h"
#include "compiler/render_c.h"
#include "compiler/schedule.h"
#include "interp/interp.h"

namespace uopc {

struct CompiledProgram {
  Schedule schedule;
  std::string source;  // prelude and every kernel
  RenderOptions options;
};

// With options.check_bounds, every load and store is checked against its buffer at run time,
// and running throws BoundsError naming the first bad access (a compiler bug); with
// options.check_ub, running throws UndefinedBehaviorError at the first plain C op that would
// overflow; with
// options.count_iterations, Executable::iterations() counts loop iterations.
// `opts` decides each kernel's loops (compiler/opts.h).
// Within a CompileMemo (compiler/compile_memo.h), the same compile again is the first one's.
CompiledProgram compile_program(const Program& p, const RenderOptions& options = {},
                                const OptsChoice& opts = {});

// Refuses, before anything is allocated, a program whose compiled form stores a value (an
// input, a kernel's output or a stage) of more than `limit` elements, naming its statement.
// Fused values are not counted: GEMM's n^3 product, folded as it is computed, is never held.
void check_stored_sizes(const Program& p, const CompiledProgram& c, int64_t limit);

// Interpreter options that fold every reduce in the order the compiled program does (a
// reduce unrolled as a tree, not in order, folds differently).
InterpOptions matching(const CompiledProgram& c, InterpOptions options = {});

// Loop iterations a run of kernels compiled with count_iterations made: of every loop, and of
// each kernel's reduce loops.
struct Iterations {
  int64_t loops = 0;
  std::vector<int64_t> reduce_loops;  // by kernel
};

// The loop iterations `c`'s kernels need at most for `p`: each kernel computes its value once
// and may recompute the reduces it reads. A loop nest that redoes a reduce per element of an
// unrelated loop, or a loop left unsimplified, runs past it. Executable::iterations() of a
// program compiled with count_iterations is compared with it (`uopc run --check-cost`).
// `loops` bounds every loop, `reduce_loops` each kernel's reduce loops by the reduces it
// computes (KernelSpec::reduced_here): a small program's output loops leave room under the
// first for a reduce redone a dozen times, which the second sees, and so do the reduces other
// kernels compute, or this one loads.
Iterations iteration_bound(const Program& p, const CompiledProgram& c);
// "kernel1's reduce loops ran N iterations; its reduces need at most M" or "the kernels ran N
// loop iterations; the work needs at most M" when `ran` is past a bound, else "".
std::string excess_iterations(const Program& p, const CompiledProgram& c, const Iterations& ran);

// The loop program of every kernel, in the book's form, with a header per kernel.
std::string lowered_text(const CompiledProgram& c);

// A load or store outside its buffer, reported by a kernel built with check_bounds; or an element
// of a computed value that no kernel wrote (Executable::run).
class BoundsError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// An i32 op written as plain C whose operands broke the renderer's decision, reported by a
// kernel built with check_ub: in plain C it would have been undefined behaviour (or a
// truncating division where the language floors).
class UndefinedBehaviorError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// A check_intervals kernel computed an i32 value outside its node's interval, or computed or
// loaded a bool that is neither 0 nor 1 (RenderOptions::check_intervals): "kernel0: max is 5,
// outside its interval [0, 0]"; op() is the node's op, and is_bool() whether its value is a bool,
// which no interval rule decides.
class IntervalError : public std::logic_error {
 public:
  IntervalError(Op op, bool is_bool, const std::string& what)
      : std::logic_error(what), op_(op), is_bool_(is_bool) {}
  Op op() const { return op_; }
  bool is_bool() const { return is_bool_; }

 private:
  Op op_;
  bool is_bool_;
};

// Whether this thread is running a compiled kernel now: a fatal signal there is the kernel's,
// not uopc's own code's (cli/crash_site.h).
bool in_compiled_kernel();

// A built program with its buffers: inputs filled, kernels loaded. run() executes every
// kernel once, in order, a kernel with a thread loop split into `threads` parts run on a
// thread pool; results() reads outputs and assert operands back. A computed value's buffer
// starts filled with a pattern that is not 0, so an element no kernel writes shows as a wrong
// value, or (a bool, with bounds checked) makes run() throw BoundsError.
class Executable {
 public:
  Executable(const Program& p, const CompiledProgram& c, Backend& backend,
             const InterpOptions& options, int threads = 1);
  void run();
  // Fills the buffers afresh, the inputs from `options`: the same kernels, other data.
  void refill(const InterpOptions& options);
  InterpResult results() const;
  const Iterations& iterations() const { return iterations_; }

 private:
  Tensor value(const UOp* node) const;
  void run_kernel(size_t k, void** args);
  void check_written() const;
  void check_parameters() const;

  const Program& program_;
  const CompiledProgram& compiled_;
  std::vector<std::vector<unsigned char>> buffers_;
  std::shared_ptr<Module> module_;  // shared within a CompileMemo
  std::vector<KernelFn> kernels_;
  int threads_ = 1;
  bool parameters_checked_ = false;
  Iterations iterations_;
};

InterpResult run_compiled(const Program& p, const CompiledProgram& c, Backend& backend,
                          const InterpOptions& options, int threads = 1);

}  // namespace uopc

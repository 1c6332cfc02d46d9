// The compiled engine: a program lowered to C kernels, built by a backend, and run.
//
// compile_program schedules and lowers every kernel and renders one C translation unit;
// run_compiled builds it, fills the input buffers (from --input files or SPEC's default data),
// runs the kernels in order, and reads outputs and assert operands back, giving the same
// InterpResult as the interpreter so the two print identically.
#pragma once

#include <string>

#include "compiler/backend.h"
#include "compiler/schedule.h"
#include "interp/interp.h"

namespace uopc {

struct CompiledProgram {
  Schedule schedule;
  std::string source;  // prelude and every kernel
  bool check_bounds = false;
};

// With check_bounds, every load and store is checked against its buffer at run time, and
// run_compiled throws std::logic_error naming the first bad access (a compiler bug).
CompiledProgram compile_program(const Program& p, bool check_bounds = false);

// The loop program of every kernel, in the book's form, with a header per kernel.
std::string lowered_text(const CompiledProgram& c);

// A built program with its buffers: inputs filled, kernels loaded. run() executes every
// kernel once, in order; results() reads outputs and assert operands back.
class Executable {
 public:
  Executable(const Program& p, const CompiledProgram& c, Backend& backend,
             const InterpOptions& options);
  void run();
  InterpResult results() const;

 private:
  Tensor value(const UOp* node) const;

  const Program& program_;
  const CompiledProgram& compiled_;
  std::vector<std::vector<unsigned char>> buffers_;
  std::unique_ptr<Module> module_;
  std::vector<KernelFn> kernels_;
};

InterpResult run_compiled(const Program& p, const CompiledProgram& c, Backend& backend,
                          const InterpOptions& options);

}  // namespace uopc

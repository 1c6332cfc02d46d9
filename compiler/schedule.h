// The schedule: which kernels a program needs, in which order, and the buffers between them.
//
// Every output and every operand of an assert is computed by a kernel into its own buffer;
// so is every `stage x`, whose kernel runs before the kernels that read it. Program buffers
// are inputs. Identical values (one node) share one kernel. Each kernel is lowered here
// (compiler/rangeify.h), so a Schedule holds the loop program of every kernel.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/opts.h"
#include "ir/program.h"

namespace uopc {

struct BufferSpec {
  DType dtype;
  int64_t size;     // elements
  const UOp* node;  // the buffer node (an input) or the value it holds
  bool input() const { return node->op == Op::Buffer; }
};

struct KernelSpec {
  std::string name;         // the C function
  UOpRef root;              // the value it computes
  std::vector<int> args;    // buffer of each parameter; args[0] is the output
  UOpRef sink;              // its loop program
  Opts opts;                // the options it was lowered with
  int64_t thread_size = 0;  // the trip count of its thread loop, 0 without one
  // The elements the reduces it computes (rather than loads) fold, each reduce counted once.
  int64_t reduced_here = 0;
};

struct Schedule {
  std::vector<BufferSpec> buffers;
  std::vector<KernelSpec> kernels;
  std::unordered_map<const UOp*, int> buffer_of;  // value or input node -> buffer
  // Each reduce's unroll factor, for an interpreter that must fold in the same order.
  std::unordered_map<const UOp*, Unroll> unrolled;
};

// The values a schedule computes into buffers, in order: each output, then each assert's
// operands. A schedule depends on a program through these nodes alone.
std::vector<UOpRef> scheduled_values(const Program& p);

Schedule make_schedule(const Program& p, const OptsChoice& opts = {});

}  // namespace uopc

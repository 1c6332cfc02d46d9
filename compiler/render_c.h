// The C renderer: a linearized kernel as a C function
// `void NAME(void** args, long long* status, int lo, int hi)`, where args[k] points to kernel
// parameter k (a flat array of float, int or unsigned char for bool), status to a long long[8]
// block that checks and counters write, and [lo, hi) is the part of the thread loop to run
// (ignored by a kernel without one).
//
// The C is free of undefined behaviour for every input: i32 add, sub, mul and neg go through
// unsigned arithmetic unless bounds prove they cannot overflow; floor division and modulo use
// helpers with the language's results for a zero divisor and INT32_MIN / -1, unless the divisor is
// a positive constant and the dividend provably non-negative (then C's / and % agree); f32 to i32
// casts saturate. f32 constants other than small integers are written as hexadecimal literals
// (NaNs as their bits), so no C compiler's decimal rounding is involved. The code declares the few
// libm functions it calls instead of including headers, which keeps it compilable by libtcc in
// memory.
#pragma once

#include <string>
#include <vector>

#include "ir/uop.h"

namespace uopc {

// The helpers and declarations `kernels` (rendered C) use, to put before them.
std::string render_prelude(const std::string& kernels);

// compile_program remembers compiles by every field (compiler/engine.cpp).
struct RenderOptions {
  // Check every load and store offset against its buffer's size first: on a bad offset the
  // kernel writes {1, param, offset, size} into its status block and returns.
  bool check_bounds = false;
  // Count loop iterations into status[4] (the same status block).
  bool count_iterations = false;
  // Write every i32 add, sub, mul, neg, idiv and mod that bounds decided may be plain C as a
  // helper that checks the decision: when the operands break it (an overflow, a dividend that
  // is negative after all), the first such op writes {op, a, b} into status[5..7] and the
  // kernel goes on with the language's result.
  bool check_ub = false;
  // ALU ops written through their helper functions whatever bounds and operands decide: i32
  // add, sub, mul and neg wrapping, idiv and mod as floor division, max and min as functions.
  // A failure that goes away with an op here is the renderer's decision for it, not a rule's
  // (fuzz/signature.h).
  std::vector<Op> by_helper = {};
  // Check every i32 value an ALU op or cast computes against its node's interval: the first
  // one outside writes {op + 1, value, lo, hi} into status[8..11] and the kernel goes on. The
  // simplifier's side conditions and the renderer's overflow decisions trust these intervals,
  // so a wrong interval rule shows as a wrong value or an overflow at whatever op relied on
  // it; this names the op whose interval is wrong (fuzz/signature.h).
  bool check_intervals = false;
};

// `register_tile`: the kernel's options write a register tile over two axes (compiler/opts.h).
// Its loops are then already shaped for the machine, and gcc's loop vectorizer, which would
// vectorize across the tile's loops instead, is switched off for that function (GEMM 512 runs
// 40 times slower with it); the SLP vectorizer still packs the tile. Other C compilers ignore
// the attribute.
std::string render_kernel(const std::string& name, const UOpRef& sink,
                          const RenderOptions& options = {}, bool register_tile = false);

}  // namespace uopc

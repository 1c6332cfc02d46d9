// The C renderer: a linearized kernel as a C function `void NAME(void** args)`, where args[k]
// points to kernel parameter k (a flat array of float, int or unsigned char for bool).
//
// The C is free of undefined behaviour for every input: i32 add, sub, mul and neg go through
// unsigned arithmetic unless bounds prove they cannot overflow; floor division and modulo use
// helpers with SPEC's results for a zero divisor and INT32_MIN / -1, unless the divisor is a
// positive constant and the dividend provably non-negative (then C's / and % agree); f32 to i32
// casts saturate. f32 constants other than small integers are written as hexadecimal literals
// (NaNs as their bits), so no C compiler's decimal rounding is involved. The code declares the few
// libm functions it calls instead of including headers, which keeps it compilable by libtcc in
// memory.
#pragma once

#include <string>

#include "ir/uop.h"

namespace uopc {

// Helpers and declarations every kernel uses; emitted once per translation unit.
std::string render_prelude();

struct RenderOptions {
  // Check every load and store offset against its buffer's size first. The kernel then takes
  // one more argument, an int[4] status block: on a bad offset it writes {1, param, offset,
  // size} there and returns.
  bool check_bounds = false;
};

std::string render_kernel(const std::string& name, const UOpRef& sink,
                          const RenderOptions& options = {});

}  // namespace uopc

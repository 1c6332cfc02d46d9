// A simple random generator of well-typed programs for properties of the front end (printer,
// parser). Called inside a RapidCheck property, it draws every choice from RapidCheck, so a
// failing program shrinks. Values stay small (at most kMaxNumel elements, rank at most 4).
#pragma once

#include "ir/program.h"

namespace uopc::testing {

inline constexpr int64_t kMaxNumel = 256;

Program random_program(int max_statements = 16);

}  // namespace uopc::testing

// The z3 side of fuzz/smt.h, behind an interface, so that a program loads libz3 only when it
// first asks z3 something. Loading and binding libz3 took a third of every uopc process's
// start (docs/BENCHMARKS.md), and most uopc commands (run, interp, diff, lower, render, and so
// every engine run of a campaign through --target "uopc run") never ask it anything.
//
// The implementation (fuzz/smt_z3.cpp) is built twice: into libuopc_smt_z3.so, which the uopc
// command and the libFuzzer targets load on their first Smt (fuzz/smt_load.cpp), and into a
// static library that tests and benchmarks link directly (fuzz/smt_link.cpp); each program
// links one of the two. The implementation calls back into uopc only through SmtHost, so a
// loaded copy uses its host's intern table, not one of its own.
//
// A loaded copy lives in a link namespace of its own, with its own C library and allocator:
// under AddressSanitizer, z3's allocations went through the sanitizer's allocator and its
// quarantine, which doubled the time of every query (docs/BENCHMARKS.md). So nothing that one
// side allocates is freed by the other: the host's text reaches the solver as a pointer it
// copies at once, and an answer's text stays the solver's until its next call.
#pragma once

#include <memory>
#include <string>

#include "fuzz/smt.h"
#include "ir/scalar.h"

namespace uopc {

// Each text is the host's, valid until the calling thread's next call of the same function.
struct SmtHost {
  const char* (*leaf_name)(const UOp* leaf);  // the node as an expression, for counterexamples
  const char* (*format_element)(const Scalar& s);
  Scalar (*reduce_identity)(Op op, DType dtype);
  bool (*is_alu)(Op op);
};

// A Verdict as it crosses the boundary. Its texts are the solver's, valid until its next call.
struct SmtAnswer {
  Verdict::Kind kind = Verdict::Kind::Unknown;
  const char* counterexample = "";
  const char* error = nullptr;  // z3 failed (threw) with this message; kind is Unknown
};

// uopc's side of the boundary (fuzz/smt.cpp).
const SmtHost& smt_host();

class SmtSolver {
 public:
  virtual ~SmtSolver() = default;
  virtual SmtAnswer equal(const UOpRef& a, const UOpRef& b) = 0;
  virtual SmtAnswer equal_and_bounded(const UOpRef& a, const UOpRef& b) = 0;
  virtual SmtAnswer within(const UOpRef& e, const Interval& claimed) = 0;
  virtual SmtAnswer exact_fits_i32(Op op, const UOpRef& a, const UOpRef& b) = 0;
  virtual SmtAnswer c_division_agrees(Op op, const UOpRef& a, const UOpRef& b) = 0;
};

// A solver from the implementation this program links or loads; throws std::runtime_error
// when a loaded one cannot be loaded.
std::unique_ptr<SmtSolver> make_z3_solver(unsigned timeout_ms);

}  // namespace uopc

// The implementation's one entry point, under this name in both builds.
extern "C" uopc::SmtSolver* uopc_make_z3_solver(unsigned timeout_ms, const uopc::SmtHost* host);

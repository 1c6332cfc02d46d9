// The z3 side of fuzz/smt.h, behind an interface, so that a program loads libz3 only when it
// first asks z3 something. Loading and binding libz3 took a third of every uopc process's
// start (docs/BENCHMARKS.md), and most uopc commands (run, interp, diff, lower, render, and so
// every engine run of a campaign through --target "uopc run") never ask it anything.
//
// The implementation (fuzz/smt_z3.cpp) is built twice: into libuopc_smt_z3.so, which the uopc
// command loads on its first Smt (fuzz/smt_load.cpp), and into a static library that tests,
// benchmarks and the libFuzzer targets link directly (fuzz/smt_link.cpp); each program links
// one of the two. The implementation calls back into uopc only through SmtHost, so a loaded
// copy uses its host's intern table, not one of its own.
#pragma once

#include <memory>
#include <string>

#include "fuzz/smt.h"
#include "ir/scalar.h"

namespace uopc {

struct SmtHost {
  std::string (*leaf_name)(const UOp* leaf);  // the node as an expression, for counterexamples
  std::string (*format_element)(const Scalar& s);
  Scalar (*reduce_identity)(Op op, DType dtype);
  bool (*is_alu)(Op op);
};

// uopc's side of the boundary (fuzz/smt.cpp).
const SmtHost& smt_host();

class SmtSolver {
 public:
  virtual ~SmtSolver() = default;
  virtual Verdict equal(const UOpRef& a, const UOpRef& b) = 0;
  virtual Verdict equal_and_bounded(const UOpRef& a, const UOpRef& b) = 0;
  virtual Verdict within(const UOpRef& e, const Interval& claimed) = 0;
  virtual Verdict exact_fits_i32(Op op, const UOpRef& a, const UOpRef& b) = 0;
  virtual Verdict c_division_agrees(Op op, const UOpRef& a, const UOpRef& b) = 0;
};

// A solver from the implementation this program links or loads; throws std::runtime_error
// when a loaded one cannot be loaded.
std::unique_ptr<SmtSolver> make_z3_solver(unsigned timeout_ms);

}  // namespace uopc

// The implementation's one entry point, under this name in both builds.
extern "C" uopc::SmtSolver* uopc_make_z3_solver(unsigned timeout_ms, const uopc::SmtHost* host);

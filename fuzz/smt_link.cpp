// fuzz/smt_solver.h's implementation, linked into the program.
#include "fuzz/smt_solver.h"

namespace uopc {

void load_smt() {}

std::unique_ptr<SmtSolver> make_z3_solver(unsigned timeout_ms) {
  return std::unique_ptr<SmtSolver>(uopc_make_z3_solver(timeout_ms, &smt_host()));
}

}  // namespace uopc

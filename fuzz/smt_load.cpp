// fuzz/smt_solver.h's implementation, loaded from UOPC_SMT_LIBRARY (the build's
// libuopc_smt_z3.so) when the first solver is made.
#include <dlfcn.h>

#include <stdexcept>

#include "fuzz/smt_solver.h"

namespace uopc {
namespace {

using MakeSolver = SmtSolver* (*)(unsigned, const SmtHost*);

MakeSolver load() {
  void* library = dlopen(UOPC_SMT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!library) throw std::runtime_error(std::string("cannot load the z3 solver: ") + dlerror());
  void* make = dlsym(library, "uopc_make_z3_solver");
  if (!make)
    throw std::runtime_error(std::string("no solver in ") + UOPC_SMT_LIBRARY + ": " + dlerror());
  return reinterpret_cast<MakeSolver>(make);
}

MakeSolver loaded() {
  static const MakeSolver make = load();  // loaded once; a failure is retried next time
  return make;
}

}  // namespace

void load_smt() {
  loaded();
}

std::unique_ptr<SmtSolver> make_z3_solver(unsigned timeout_ms) {
  return std::unique_ptr<SmtSolver>(loaded()(timeout_ms, &smt_host()));
}

}  // namespace uopc

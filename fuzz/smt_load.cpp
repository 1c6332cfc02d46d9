// fuzz/smt_solver.h's implementation, loaded when the first solver is made: from
// libuopc_smt_z3.so next to the running program (where .clusterfuzzlite/build.sh puts it with
// the libFuzzer targets), else from UOPC_SMT_LIBRARY (the build's own).
//
// It is loaded into a link namespace of its own (dlmopen), so that libz3 gets its own C
// library and allocator: under AddressSanitizer, z3 otherwise allocates through the
// sanitizer's allocator. Where a new namespace cannot be made, it is loaded as usual; the
// boundary (fuzz/smt_solver.h) works either way.
#include <dlfcn.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

#include "fuzz/smt_solver.h"

namespace uopc {
namespace {

using MakeSolver = SmtSolver* (*)(unsigned, const SmtHost*);

constexpr const char* kModule = "libuopc_smt_z3.so";

// The directory of the running program, with its slash ("" if unknown).
std::string program_directory() {
  std::string path(4096, '\0');
  ssize_t n = readlink("/proc/self/exe", path.data(), path.size());
  if (n <= 0) return "";
  path.resize(static_cast<size_t>(n));
  return path.substr(0, path.rfind('/') + 1);
}

std::string module_path() {
  std::string beside = program_directory() + kModule;
  if (access(beside.c_str(), R_OK) == 0) return beside;
  if (access(UOPC_SMT_LIBRARY, R_OK) == 0) return UOPC_SMT_LIBRARY;
  throw std::runtime_error("cannot load the z3 solver: neither " + beside + " nor " +
                           UOPC_SMT_LIBRARY + " can be read");
}

void* open_module(const std::string& path) {
  if (void* own = dlmopen(LM_ID_NEWLM, path.c_str(), RTLD_NOW | RTLD_LOCAL)) return own;
  std::string why = dlerror();
  if (void* shared = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return shared;
  throw std::runtime_error("cannot load the z3 solver: " + why + "; " + dlerror());
}

MakeSolver load() {
  std::string path = module_path();
  void* module = open_module(path);
  void* make = dlsym(module, "uopc_make_z3_solver");
  if (!make) throw std::runtime_error("no solver in " + path + ": " + dlerror());
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

// Build backends: C source in, callable kernels out, behind one interface.
//
//   cc   the system C compiler (`$CC`, else `cc`) builds a shared object, loaded with dlopen.
//        Objects are cached by a content hash of compiler, flags and source, in a private
//        directory ($UOPC_CACHE_DIR, else $XDG_CACHE_HOME/uopc, else ~/.cache/uopc), created
//        0700 and refused if anyone else could write to it.
//   tcc  libtcc compiles in memory, in about a millisecond. libtcc is not thread-safe, so
//        every use of it holds one process-wide lock.
//
// cc compiles with -O3 -march=native. Both compile without fast-math and without FMA contraction,
// so kernels round every f32 operation once, as the interpreter does. A compiler failure throws
// ToolchainError carrying the compiler's own message.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

namespace uopc {

// args[k] is kernel parameter k; status is a long long[8] block for checks and counters;
// [lo, hi) the part of the thread loop to run (compiler/render_c.h).
using KernelFn = void (*)(void** args, long long* status, int lo, int hi);

class ToolchainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Module {
 public:
  virtual ~Module() = default;
  // Throws ToolchainError when the symbol is missing.
  virtual KernelFn get(const std::string& name) = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::unique_ptr<Module> compile(const std::string& source) = 0;
};

// "cc" or "tcc"; nullptr for another name.
std::unique_ptr<Backend> make_backend(const std::string& name);

std::unique_ptr<Backend> make_cc_backend();
std::unique_ptr<Backend> make_tcc_backend();

}  // namespace uopc

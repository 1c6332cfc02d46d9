#include <libtcc.h>

#include <cmath>
#include <mutex>

#include "compiler/backend.h"

namespace uopc {
namespace {

std::mutex& tcc_lock() {
  static std::mutex m;
  return m;
}

// Where the tcc package keeps libtcc1.a, which compiled code may call into.
constexpr const char* kTccLibPath = "/usr/lib/x86_64-linux-gnu/tcc";

void collect_error(void* opaque, const char* message) {
  auto* errors = static_cast<std::string*>(opaque);
  *errors += message;
  *errors += "\n";
}

// The libm functions kernels declare; given to tcc directly so nothing is searched on disk.
float f_exp2(float x) {
  return std::exp2(x);
}
float f_log2(float x) {
  return std::log2(x);
}
float f_sin(float x) {
  return std::sin(x);
}
float f_sqrt(float x) {
  return std::sqrt(x);
}

class TccModule : public Module {
 public:
  explicit TccModule(TCCState* s) : s_(s) {}
  ~TccModule() override {
    std::lock_guard lock(tcc_lock());
    tcc_delete(s_);
  }
  KernelFn get(const std::string& name) override {
    std::lock_guard lock(tcc_lock());
    void* f = tcc_get_symbol(s_, name.c_str());
    if (!f) throw ToolchainError("tcc backend: no kernel " + name);
    return reinterpret_cast<KernelFn>(f);
  }

 private:
  TCCState* s_;
};

class TccBackend : public Backend {
 public:
  std::unique_ptr<Module> compile(const std::string& source) override {
    std::lock_guard lock(tcc_lock());
    TCCState* s = tcc_new();
    if (!s) throw ToolchainError("tcc backend: tcc_new failed");
    std::string errors;
    tcc_set_error_func(s, &errors, collect_error);
    tcc_set_lib_path(s, kTccLibPath);
    tcc_set_output_type(s, TCC_OUTPUT_MEMORY);
    tcc_set_options(s, "-nostdlib");
    tcc_add_symbol(s, "exp2f", reinterpret_cast<const void*>(&f_exp2));
    tcc_add_symbol(s, "log2f", reinterpret_cast<const void*>(&f_log2));
    tcc_add_symbol(s, "sinf", reinterpret_cast<const void*>(&f_sin));
    tcc_add_symbol(s, "sqrtf", reinterpret_cast<const void*>(&f_sqrt));
    if (tcc_compile_string(s, source.c_str()) != 0 || tcc_relocate(s, TCC_RELOCATE_AUTO) < 0) {
      tcc_delete(s);
      throw ToolchainError("tcc failed:\n" + errors);
    }
    return std::make_unique<TccModule>(s);
  }
};

}  // namespace

std::unique_ptr<Backend> make_tcc_backend() {
  return std::make_unique<TccBackend>();
}

}  // namespace uopc

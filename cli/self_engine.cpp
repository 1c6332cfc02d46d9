#include "cli/self_engine.h"

#include <unistd.h>

#include "fuzz/oracles.h"
#include "fuzz/signature.h"

namespace uopc::cli {

std::string uopc_run_command(const std::string& backend, const std::string& plant) {
  char path[4096];
  ssize_t n = ::readlink("/proc/self/exe", path, sizeof path);
  if (n <= 0 || n == static_cast<ssize_t>(sizeof path)) return "";
  return shell_quote(std::string(path, static_cast<size_t>(n))) + " run --backend " + backend +
         (plant.empty() ? "" : " --plant " + plant);
}

std::unique_ptr<Target> uopc_run_engine(const std::string& backend, const std::string& plant,
                                        double time_limit) {
  std::string command = uopc_run_command(backend, plant);
  if (command.empty()) return nullptr;
  return std::make_unique<Target>(command, false, time_limit);
}

std::optional<Failure> crash_of(const Program& p, Target& engine, const EngineConfig& config) {
  std::optional<Failure> f = check_target(p, engine, nullptr, config);
  if (!f || target_kind(*f).rfind("SIG", 0) != 0) return std::nullopt;
  return f;
}

std::string as_crash_signature(const std::string& target_signature) {
  const std::string prefix = "target";
  if (target_signature.rfind(prefix, 0) != 0) return target_signature;
  return "crash" + target_signature.substr(prefix.size());
}

}  // namespace uopc::cli

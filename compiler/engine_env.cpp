#include "compiler/engine_env.h"

#include <cstdlib>

#include "compiler/opts.h"
#include "ir/error.h"

namespace uopc {
namespace {

constexpr const char* kOpts = "UOPC_OPTS";
constexpr const char* kThreads = "UOPC_THREADS";
constexpr const char* kCheck = "UOPC_CHECK";
constexpr const char* kPrintLimit = "UOPC_PRINT_LIMIT";

std::optional<std::string> variable(const char* name) {
  const char* v = std::getenv(name);
  if (!v) return std::nullopt;
  return std::string(v);
}

int threads_from(const std::string& text) {
  char* end = nullptr;
  long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || n < 1 || n > 1024)
    throw UserError(std::string(kThreads) + " takes a number of threads from 1 to 1024, not '" +
                    text + "'");
  return static_cast<int>(n);
}

int64_t print_limit_from(const std::string& text) {
  char* end = nullptr;
  long long n = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || n < 0)
    throw UserError(std::string(kPrintLimit) + " takes a number of elements, 0 or more, not '" +
                    text + "'");
  return n;
}

void read_checks(const std::string& text, EngineEnvironment& e) {
  for (size_t at = 0; at <= text.size();) {
    size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(at, end - at);
    if (word == "bounds")
      e.check_bounds = true;
    else if (word == "ub")
      e.check_ub = true;
    else if (word == "cost")
      e.check_cost = true;
    else if (!word.empty())
      throw UserError(std::string(kCheck) + " takes a comma list of bounds, ub and cost, not '" +
                      text + "'");
    at = end + 1;
  }
}

}  // namespace

EngineEnvironment read_engine_environment() {
  EngineEnvironment e;
  e.opts = variable(kOpts);
  if (e.opts) parse_opts_choice(*e.opts, kOpts);  // refused here, naming the variable
  if (std::optional<std::string> t = variable(kThreads)) e.threads = threads_from(*t);
  if (std::optional<std::string> c = variable(kCheck)) read_checks(*c, e);
  if (std::optional<std::string> l = variable(kPrintLimit)) e.print_limit = print_limit_from(*l);
  return e;
}

Environment engine_environment(const std::string& opts, int threads) {
  return {{kOpts, opts},
          {kThreads, std::to_string(threads)},
          {kCheck, "bounds,ub,cost"},
          {kPrintLimit, "0"}};
}

}  // namespace uopc

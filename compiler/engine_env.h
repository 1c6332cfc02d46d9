// Engine settings in the environment: what a campaign asks of the engine it runs as a target
// (docs/ENGINES.md, "Engine settings"), beyond the program itself.
//
//   UOPC_OPTS     kernel options, as --opts takes them ("none", "auto", "tile=0:4 thread=0")
//   UOPC_THREADS  threads for kernels with a thread loop, as --threads
//   UOPC_CHECK    run-time checks, a comma list of bounds, ub and cost (as --check-bounds,
//                 --check-ub, --check-cost)
//   UOPC_PRINT_LIMIT  values of more elements print summarized, as --print-limit; a campaign
//                 sets 0, since it compares every element
//
// `uopc run` and `uopc diff` take them as the defaults of those flags, `lower` and `render` take
// UOPC_OPTS, `interp` UOPC_PRINT_LIMIT; a flag given on the command line wins. An engine with no
// such settings ignores them (and prints every element).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace uopc {

struct EngineEnvironment {
  std::optional<std::string> opts;  // unset when UOPC_OPTS is
  std::optional<int> threads;
  bool check_bounds = false, check_ub = false, check_cost = false;
  std::optional<int64_t> print_limit;
};

// The process's settings; throws UserError naming the variable when one is malformed.
EngineEnvironment read_engine_environment();

using Environment = std::vector<std::pair<std::string, std::string>>;

// The variables that ask an engine for `opts` (format_opts_choice's text) on `threads`
// threads, with every run-time check on and every element printed: what a campaign sets for
// its target.
Environment engine_environment(const std::string& opts, int threads);

}  // namespace uopc

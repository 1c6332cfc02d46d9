// This uopc as an external engine (fuzz/target.h): `uopc run` in a process of its own. A
// kernel that kills its process (a planted or real mistake that divides INT32_MIN by -1, say)
// can then be run again and again, so that a crash is shrunk and localized as an external
// engine's crash is, instead of taking the shrinker down with it.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "fuzz/oracles.h"
#include "fuzz/target.h"
#include "ir/program.h"

namespace uopc::cli {

// `'/path/to/uopc' run --backend BACKEND [--plant PLANT]`, or "" when the running binary's
// path cannot be read.
std::string uopc_run_command(const std::string& backend, const std::string& plant);

// That command as a Target of `time_limit` seconds per program, or null.
std::unique_ptr<Target> uopc_run_engine(const std::string& backend, const std::string& plant,
                                        double time_limit);

// The failure `uopc run` shows on p when a signal ends it ("SIGFPE" by target_kind), if any.
std::optional<Failure> crash_of(const Program& p, Target& engine, const EngineConfig& config);

// A target signature of such a crash ("target-SIGFPE-division") as uopc's own:
// "crash-SIGFPE-division".
std::string as_crash_signature(const std::string& target_signature);

}  // namespace uopc::cli

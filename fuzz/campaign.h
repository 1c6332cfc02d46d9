// A campaign: generate programs from consecutive seeds and run every oracle on each, until
// the time or program budget runs out or an oracle fails. Program k of a campaign with seed S
// is generated from seed S + k alone, so any failure is replayed with check_seed(S + k).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "fuzz/edge_stats.h"
#include "fuzz/gen.h"
#include "fuzz/oracles.h"
#include "fuzz/seen.h"

namespace uopc {

struct CampaignOptions {
  double seconds = 10;
  int64_t max_programs = -1;  // no limit
  uint64_t seed = 1;
  std::string backend = "tcc";
  GenOptions gen;
  std::function<void(int64_t programs)> progress;  // called every 256 programs
  std::function<void(uint64_t seed)> on_program;   // called before each program
};

struct CampaignResult {
  int64_t programs = 0;
  double seconds = 0;
  std::optional<Failure> failure;
  uint64_t failing_seed = 0;
};

CampaignResult run_campaign(const CampaignOptions& options);

// How the compiled engine runs a generated program: the plain lowering, --opts auto, or
// random options (upcast, unroll, tile, thread and block of small factors, half of them chosen
// among those that divide a size of `p` they apply to, so that they take effect), on 3
// threads, which split small thread loops unevenly.
EngineConfig draw_engine_config(Choices& choices, const Program& p);

// The oracles on the program of one seed, run as draw_engine_config says: engines (with
// memory and cost) and round trip
// always; for every fourth seed also the composites (through the compiled engine for every
// sixteenth) and a rule-breaking variant; for every 32nd a symbolic expression.
// What `uopc fuzz --stats` reports: the edge values each op met, and how the symbolic
// oracle's claims were settled.
struct SeedStats {
  EdgeStats edges;
  SymbolicStats symbolic;
};

// A steered program is first checked against its steering (the "steering" oracle), in every
// driver: the generator must keep to it.
std::optional<Failure> check_seed(uint64_t seed, Backend& backend, const GenOptions& gen,
                                  SeedStats* stats = nullptr);

// What fuzz_diff runs on one input, from any choice source: a small program (64 elements at
// most) with drawn kernel options through the engines and round trip oracles and the
// composites through the interpreter, a rule-breaking variant, and on one input in four a
// symbolic expression. The program keeps to `steering`. With `seen`, a check that passed on
// the same content before (fuzz/seen.h) is not run again.
std::optional<Failure> check_input(Choices& choices, Backend& backend,
                                   const Steering& steering = {}, Seen* seen = nullptr);

// The program a campaign against an external engine checks for `seed`, drawn from `choices`
// (made from the seed): generate()'s, or on every eighth seed expressions_program()'s.
Program target_program(uint64_t seed, Choices& choices, const GenOptions& gen);

// The program of one seed against an external engine (check_target), under the settings
// draw_engine_config draws (the plain ones for a persistent engine); with `rejection`, on
// every fourth seed also a variant of it that breaks one type rule (check_target_rejects), and
// on every eighth a program of literals that tests the interval rules.
std::optional<Failure> check_seed_target(uint64_t seed, const GenOptions& gen, Target& target,
                                         bool rejection = false, bool* skipped = nullptr);

}  // namespace uopc

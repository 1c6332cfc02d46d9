// What one libFuzzer input costs fuzz_diff (check_input), on inputs it has not seen: a fixed
// set of random byte strings, each checked from scratch. Run under heaptrack or perf to see
// where a new program's time and allocations go; fuzz_diff itself runs under ASan, where
// each allocation costs several times what it costs here.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "compiler/backend.h"
#include "compiler/engine.h"
#include "fuzz/campaign.h"
#include "fuzz/choices.h"
#include "fuzz/expr_gen.h"
#include "fuzz/gen.h"
#include "fuzz/oracles.h"

namespace {

std::vector<std::vector<uint8_t>> random_inputs(size_t count) {
  std::mt19937_64 rng(1);
  std::vector<std::vector<uint8_t>> inputs(count);
  for (auto& bytes : inputs) {
    bytes.resize(64 + rng() % 449);
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  }
  return inputs;
}

const std::vector<std::vector<uint8_t>>& inputs() {
  static const auto all = random_inputs(256);
  return all;
}

void BM_CheckInput(benchmark::State& state) {
  std::unique_ptr<uopc::Backend> tcc = uopc::make_tcc_backend();
  size_t k = 0;
  for (auto _ : state) {
    const auto& bytes = inputs()[k++ % inputs().size()];
    uopc::BytesChoices choices(bytes.data(), bytes.size());
    benchmark::DoNotOptimize(uopc::check_input(choices, *tcc, {}, nullptr));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_CheckInput)->Unit(benchmark::kMillisecond);

const std::vector<uopc::Program>& input_programs() {
  static const std::vector<uopc::Program> programs = [] {
    std::vector<uopc::Program> out;
    for (const auto& bytes : inputs()) {
      uopc::BytesChoices choices(bytes.data(), bytes.size());
      uopc::GenOptions gen;
      gen.max_numel = 64;
      out.push_back(uopc::generate(choices, gen));
    }
    return out;
  }();
  return programs;
}

// The lowering and rendering of the same inputs' programs alone.
void BM_CompileInputProgram(benchmark::State& state) {
  const auto& programs = input_programs();
  size_t k = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(uopc::compile_program(programs[k++ % programs.size()]));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_CompileInputProgram)->Unit(benchmark::kMillisecond);

// Every oracle of a new program (engines, round trip, bounds, composites) on the same
// programs, under the default engine settings.
void BM_CheckInputProgram(benchmark::State& state) {
  std::unique_ptr<uopc::Backend> tcc = uopc::make_tcc_backend();
  const auto& programs = input_programs();
  size_t k = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(uopc::check_program(programs[k++ % programs.size()], *tcc, false, {}));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_CheckInputProgram)->Unit(benchmark::kMillisecond);

}  // namespace

// The symbolic oracle on drawn expressions, each checked from scratch: enumeration where the
// domain is small, z3 where it is not.
void BM_CheckExpression(benchmark::State& state) {
  std::vector<uopc::RandomExpr> exprs;
  for (uint64_t seed = 0; seed < 256; ++seed) {
    uopc::RandomChoices choices(seed);
    exprs.push_back(uopc::random_expr(choices));
  }
  uopc::SymbolicStats stats;
  size_t k = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(uopc::check_expression(exprs[k++ % exprs.size()], &stats));
  state.counters["undecided"] = static_cast<double>(stats.undecided) / k;
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_CheckExpression)->Unit(benchmark::kMillisecond);

// The interpreter on a 1024x1024 transpose + pad + reduce chain, next to a hand-written loop
// computing the same numbers (the baseline the ratio in docs/BENCHMARKS.md is taken against).
#include <benchmark/benchmark.h>

#include <vector>

#include "interp/interp.h"
#include "ir/parse.h"
#include "ir/semantics.h"

namespace {

constexpr int kN = 1024;

const char* kChain =
    "%x = buffer 1048576\n"
    "%m = reshape %x shape=[1024 1024]\n"
    "%t = permute %m order=[1 0]\n"
    "%p = pad %t pads=[1 1 2 2] value=-1.0\n"
    "%r = reduce %p op=add pop=1\n";

void BM_InterpTransposePadReduce(benchmark::State& state) {
  uopc::Program p = uopc::parse_program(kChain, "bench.uir");
  for (auto _ : state) benchmark::DoNotOptimize(uopc::interpret(p, {}));
  state.SetItemsProcessed(state.iterations() * kN * kN);
}
BENCHMARK(BM_InterpTransposePadReduce)->Unit(benchmark::kMillisecond);

// The same result with loops: out[j] = fold over i of padded transpose, default data included.
void BM_BaselineLoops(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<float> x(static_cast<size_t>(kN) * kN);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] =
          static_cast<float>(static_cast<int32_t>((37 * static_cast<int64_t>(i)) % 23 - 11)) / 4.0f;
    const int rows = kN + 2, cols = kN + 4;
    std::vector<float> acc(cols, -0.0f);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        bool inside = i >= 1 && i < kN + 1 && j >= 2 && j < kN + 2;
        float v = inside ? x[static_cast<size_t>(j - 2) * kN + (i - 1)] : -1.0f;
        acc[j] = uopc::sem::add(acc[j], v);
      }
    benchmark::DoNotOptimize(acc.data());
  }
  state.SetItemsProcessed(state.iterations() * kN * kN);
}
BENCHMARK(BM_BaselineLoops)->Unit(benchmark::kMillisecond);

}  // namespace

// Parse + type check of large programs, and printing them back.
#include <benchmark/benchmark.h>

#include <string>

#include "ir/parse.h"
#include "ir/print.h"

namespace {

// A chain where each statement uses the previous one: deep graphs.
std::string chain_program(int n) {
  std::string text = "%v0 = buffer 12 dtype=f32 slot=0\n";
  const char* ops[] = {" shape=[3 4]", " shape=[12]"};
  for (int i = 1; i < n; ++i) {
    std::string prev = "%v" + std::to_string(i - 1), name = "%v" + std::to_string(i);
    switch (i % 4) {
      case 0:
        text += name + " = add " + prev + " 1.5\n";
        break;
      case 1:
        text += name + " = reshape " + prev + ops[0] + "\n";
        break;
      case 2:
        text += name + " = permute " + prev + " order=[1 0]\n";
        break;
      default:
        text += name + " = reshape " + prev + ops[1] + "\n";
        break;
    }
  }
  return text;
}

// Independent statements over a few sources: wide graphs, heavy on interning.
std::string wide_program(int n) {
  std::string text = "%x = buffer 64 dtype=i32 slot=0\n%m = reshape %x shape=[8 8]\n";
  for (int i = 0; i < n; ++i)
    text += "%w" + std::to_string(i) + " = shrink %m " + std::to_string(i % 5) + " " +
            std::to_string(i % 3) + " shape=[3 4]\n";
  return text;
}

void BM_ParseChain(benchmark::State& state) {
  std::string text = chain_program(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(uopc::parse_program(text, "bench.uir"));
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_ParseChain)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_ParseWide(benchmark::State& state) {
  std::string text = wide_program(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(uopc::parse_program(text, "bench.uir"));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ParseWide)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_PrintChain(benchmark::State& state) {
  uopc::Program p = uopc::parse_program(chain_program(static_cast<int>(state.range(0))), "b.uir");
  for (auto _ : state) benchmark::DoNotOptimize(uopc::print_program(p));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_PrintChain)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

// Generated code against hand-written loops computing the same thing, in the same process,
// and the cost of building kernels with each backend.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "compiler/engine.h"
#include "ir/parse.h"
#include "ir/semantics.h"

namespace {

using namespace uopc;

std::string gemm_program(int n) {
  std::string s = std::to_string(n), nn = std::to_string(n * n);
  return "%a = buffer " + nn + "\n%b = buffer " + nn + " slot=1\n" + "%am = reshape %a shape=[" +
         s + " " + s + " 1]\n%ap = permute %am order=[1 0 2]\n" + "%ae = expand %ap shape=[" + s +
         " " + s + " " + s + "]\n" + "%bm = reshape %b shape=[" + s + " 1 " + s +
         "]\n%be = expand %bm shape=[" + s + " " + s + " " + s +
         "]\n%p = mul %ae %be\n%c = reduce %p op=add pop=1\n";
}

// Softmax over the rows (the trailing axis) of an n x n matrix, with exp2.
std::string softmax_program(int n) {
  std::string s = std::to_string(n);
  return "%x0 = buffer " + std::to_string(n * n) + "\n%x = reshape %x0 shape=[" + s + " " + s +
         "]\n%xt = permute %x order=[1 0]\n%m = reduce %xt op=max pop=1\n%m1 = reshape %m shape=[" +
         s + " 1]\n%d = sub %x %m1\n%e = exp2 %d\n%et = permute %e order=[1 0]\n" +
         "%z = reduce %et op=add pop=1\n%z1 = reshape %z shape=[" + s + " 1]\n%y = div %e %z1\n";
}

// A valid 3x3 cross-correlation of an n x n image: nine shifted windows, stacked, weighted,
// reduced.
std::string conv_program(int n) {
  int o = n - 2;
  std::string text = "%x0 = buffer " + std::to_string(n * n) + "\n%x = reshape %x0 shape=[" +
                     std::to_string(n) + " " + std::to_string(n) + "]\n%w0 = buffer 9 slot=1\n" +
                     "%w = reshape %w0 shape=[9 1 1]\n";
  std::string stack = "%s = stack";
  for (int k = 0; k < 9; ++k) {
    std::string name = "%p" + std::to_string(k);
    text += name + " = shrink %x " + std::to_string(k / 3) + " " + std::to_string(k % 3) +
            " shape=[" + std::to_string(o) + " " + std::to_string(o) + "]\n";
    stack += " " + name;
  }
  return text + stack + "\n%m = mul %s %w\n%r = reduce %m op=add pop=1\n";
}

// Builds the program once and times only its kernels.
void time_kernels(benchmark::State& state, const std::string& text, const char* backend) {
  Program p = parse_program(text, "bench.uir");
  CompiledProgram c = compile_program(p);
  std::unique_ptr<Backend> b = make_backend(backend);
  Executable e(p, c, *b, {});
  for (auto _ : state) e.run();
}

std::vector<float> data(size_t n, int slot) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = static_cast<float>((37 * static_cast<int64_t>(i) + 11 * slot) % 23 - 11) / 4.0f;
  return v;
}

void BM_Gemm512_Generated(benchmark::State& state) {
  time_kernels(state, gemm_program(512), state.range(0) ? "tcc" : "cc");
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * 512 * 512 * 512, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Gemm512_Generated)->Arg(0)->Arg(1)->ArgName("tcc")->Unit(benchmark::kMillisecond);

// The textbook i-j-k loop with B read down a column, as the generated kernel does.
void BM_Gemm512_HandWritten(benchmark::State& state) {
  const int n = 512;
  std::vector<float> a = data(n * n, 0), b = data(n * n, 1), c(n * n);
  for (auto _ : state) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        float acc = -0.0f;
        for (int k = 0; k < n; ++k) acc += a[i * n + k] * b[k * n + j];
        c[i * n + j] = acc;
      }
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Gemm512_HandWritten)->Unit(benchmark::kMillisecond);

void BM_Softmax1024_Generated(benchmark::State& state) {
  time_kernels(state, softmax_program(1024), state.range(0) ? "tcc" : "cc");
}
BENCHMARK(BM_Softmax1024_Generated)->Arg(0)->Arg(1)->ArgName("tcc")->Unit(benchmark::kMillisecond);

void BM_Softmax1024_HandWritten(benchmark::State& state) {
  const int n = 1024;
  std::vector<float> x = data(n * n, 0), y(n * n);
  for (auto _ : state) {
    for (int i = 0; i < n; ++i) {
      const float* row = &x[static_cast<size_t>(i) * n];
      float m = -INFINITY, z = -0.0f;
      for (int j = 0; j < n; ++j) m = sem::max(m, row[j]);
      for (int j = 0; j < n; ++j) z += std::exp2(row[j] - m);
      for (int j = 0; j < n; ++j) y[static_cast<size_t>(i) * n + j] = std::exp2(row[j] - m) / z;
    }
    benchmark::DoNotOptimize(y.data());
  }
}
BENCHMARK(BM_Softmax1024_HandWritten)->Unit(benchmark::kMillisecond);

void BM_Conv3x3_256_Generated(benchmark::State& state) {
  time_kernels(state, conv_program(256), state.range(0) ? "tcc" : "cc");
}
BENCHMARK(BM_Conv3x3_256_Generated)->Arg(0)->Arg(1)->ArgName("tcc")->Unit(benchmark::kMillisecond);

void BM_Conv3x3_256_HandWritten(benchmark::State& state) {
  const int n = 256, o = n - 2;
  std::vector<float> x = data(n * n, 0), w = data(9, 1), y(o * o);
  for (auto _ : state) {
    for (int i = 0; i < o; ++i)
      for (int j = 0; j < o; ++j) {
        float acc = -0.0f;
        for (int k = 0; k < 9; ++k) acc += x[(i + k / 3) * n + j + k % 3] * w[k];
        y[i * o + j] = acc;
      }
    benchmark::DoNotOptimize(y.data());
  }
}
BENCHMARK(BM_Conv3x3_256_HandWritten)->Unit(benchmark::kMillisecond);

// Compiling the softmax kernels, uncached: a comment makes every source new to the cc cache.
void BM_CompileLatency(benchmark::State& state) {
  Program p = parse_program(softmax_program(64), "bench.uir");
  CompiledProgram c = compile_program(p);
  std::unique_ptr<Backend> b = make_backend(state.range(0) ? "tcc" : "cc");
  int salt = 0;
  for (auto _ : state) {
    std::string source = c.source + "/* " + std::to_string(salt++) + " " +
                         std::to_string(reinterpret_cast<uintptr_t>(&state)) + " */\n";
    benchmark::DoNotOptimize(b->compile(source));
  }
  state.counters["kernels"] = static_cast<double>(c.schedule.kernels.size());
}
BENCHMARK(BM_CompileLatency)->Arg(0)->Arg(1)->ArgName("tcc")->Unit(benchmark::kMillisecond);

// Parse, schedule, lower and render the softmax program: the compiler's own time.
void BM_LowerAndRender(benchmark::State& state) {
  std::string text = softmax_program(1024);
  for (auto _ : state) benchmark::DoNotOptimize(compile_program(parse_program(text, "bench.uir")));
}
BENCHMARK(BM_LowerAndRender)->Unit(benchmark::kMillisecond);

}  // namespace

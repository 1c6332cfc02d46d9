// `uopc reduce`: shrink a failing program (fuzz/reduce.h) and write the reproducer.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace uopc::cli {

struct ReduceArgs {
  std::string path;
  std::string oracle;  // default: the first oracle the program fails
  std::string plant;
  std::string test;    // external interestingness command: `CMD FILE` exits 0 while failing
  std::string target;  // an external engine (docs/ENGINES.md) that disagrees with uopc interp
  std::string compare = "exact";  // how --target's outputs are judged (fuzz/compare.h)
  std::string out;                // default: corpus/SIGNATURE.uir
  std::string backend = "tcc";
  std::string opts = "none";  // how the compiled engine runs the program (--check, reduce)
  int threads = 1;
  // When neither --opts nor --threads was given: the settings `uopc run` uses by default,
  // under which a program that fails only there is reduced.
  std::optional<std::pair<std::string, int>> run_defaults;
  double timeout = 60;  // seconds one run of --test or --target may take
};

int run_reduce(const ReduceArgs& args);

}  // namespace uopc::cli

// `uopc fuzz`: the campaign driver. Worker processes check programs from interleaved seeds
// (worker j of J takes seeds S + j, S + j + J, ...), so a kernel that crashes takes down one
// worker, not the campaign: the driver records the crash, restarts the worker after that seed,
// and kills a worker whose program runs past --time-limit. Failures are grouped by signature
// (oracle and the kind of op where it shows); each signature is reported once with a count,
// and with --corpus its smallest reproducer is kept there, written atomically, shrunk first
// with --minimize. The driver shows a live status line and ends with a summary.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace uopc::cli {

struct FuzzArgs {
  double seconds = 10;
  uint64_t seed = 0;  // 0: from the clock
  int jobs = 1;
  std::string plant;
  std::string backend = "tcc";
  int64_t max_programs = -1;
  int64_t max_elements = 256;  // the generator's largest value
  bool list_plants = false;
  int64_t replay = -1;  // check only this seed, printing its program
  std::string check;    // check only this file with every oracle
  std::string target;   // an external engine (fuzz/target.h): `CMD FILE` prints what interp does
  bool target_persistent = false;  // CMD is started once per worker and reads paths on stdin
  bool with_engines = false;       // with a target: uopc's own oracles on each program too
  bool rejection = false;  // with a target: it must also refuse programs that break a type rule
  std::string compare = "exact";  // how CMD's outputs are judged (fuzz/compare.h): or spec
  bool nan_equal = false;
  bool signed_zero_equal = false;
  std::string corpus;  // keep the smallest reproducer of each signature here; implies keep_going
  std::string artifacts = ".";  // without a corpus: where each failure's reproducer is written
  bool minimize = false;
  bool keep_going = false;        // go on after a failure (default: stop at the first)
  double time_limit = 10;         // seconds one program may take before its worker is killed
  double shrink_time_limit = -1;  // seconds shrinking one failure may take; < 0: 30 * time_limit
  std::string opts = "none";      // how the compiled engine runs the program (--check, reduce)
  int threads = 1;
  // With --check, when neither --opts nor --threads was given: the settings `uopc run` uses by
  // default, checked too.
  std::optional<std::pair<std::string, int>> run_defaults;
  bool stats = false;        // print the edge values each op met and the symbolic verdicts
  double status_every = 10;  // seconds between status lines when stderr is not a terminal
  std::vector<std::string> steering_words;  // --ops, --no-nan, ... (fuzz/steering.h)
};

// 0 when every oracle agreed, 1 when one did not (the program is printed), 2 on bad arguments.
int run_fuzz(const FuzzArgs& args);

}  // namespace uopc::cli

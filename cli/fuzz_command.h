// `uopc fuzz`: the simplest campaign driver. Worker processes run fuzz/campaign.h from
// different seeds, so a kernel that crashes takes down one worker, not the driver; the driver
// shows a live status line and ends with a summary.
#pragma once

#include <cstdint>
#include <string>

namespace uopc::cli {

struct FuzzArgs {
  double seconds = 10;
  uint64_t seed = 0;  // 0: from the clock
  int jobs = 1;
  std::string plant;
  std::string backend = "tcc";
  int64_t max_programs = -1;
  int64_t max_numel = 256;
  bool list_plants = false;
  int64_t replay = -1;  // check only this seed, printing its program
};

// 0 when every oracle agreed, 1 when one did not (the program is printed), 2 on bad arguments.
int run_fuzz(const FuzzArgs& args);

}  // namespace uopc::cli

// Planted bugs: one known mistake, switched on at run time, for proving that the property
// suite catches it. The list is ir/plants.def; `uopc fuzz --list-plants` prints it.
//
// At most one plant is active in a process. It is set with set_plant (`--plant NAME`) or, if
// never set, read once from the environment variable UOPC_PLANT. Outside tests and campaigns
// nothing sets it, and every planted() check is false.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace uopc {

enum class Plant : unsigned char {
  None,
#define PLANT(name, text, description) name,
#include "ir/plants.def"
#undef PLANT
};

struct PlantInfo {
  Plant plant;
  std::string_view name;
  std::string_view description;
};

const std::vector<PlantInfo>& plant_list();
std::optional<Plant> parse_plant(std::string_view name);  // "" and "none" are Plant::None
std::string_view plant_name(Plant p);

// UOPC_PLANT's value, or "" when it is not set.
std::string plant_from_environment();

// Whether the plant's mistake kills the process that runs the kernel (SIGFPE), so that it is
// found as a crash: by a campaign's worker dying, by a test only in a child process.
bool kills_process(Plant p);

void set_plant(Plant p);
Plant active_plant();
inline bool planted(Plant p) {
  return active_plant() == p;
}

}  // namespace uopc

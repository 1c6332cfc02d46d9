#include "ir/plant.h"

#include <atomic>
#include <cstdlib>

namespace uopc {
namespace {

std::atomic<int> current{-1};  // -1: not read from the environment yet

}  // namespace

const std::vector<PlantInfo>& plant_list() {
  static const std::vector<PlantInfo> list = {
#define PLANT(name, text, description) {Plant::name, text, description},
#include "ir/plants.def"
#undef PLANT
  };
  return list;
}

std::optional<Plant> parse_plant(std::string_view name) {
  if (name.empty() || name == "none") return Plant::None;
  for (const PlantInfo& p : plant_list())
    if (p.name == name) return p.plant;
  return std::nullopt;
}

std::string_view plant_name(Plant p) {
  for (const PlantInfo& info : plant_list())
    if (info.plant == p) return info.name;
  return "none";
}

bool kills_process(Plant p) {
  return p == Plant::ModMinusOneTraps;
}

std::string plant_from_environment() {
  const char* env = std::getenv("UOPC_PLANT");
  return env ? env : "";
}

void set_plant(Plant p) {
  current = static_cast<int>(p);
}

Plant active_plant() {
  int v = current.load(std::memory_order_relaxed);
  if (v >= 0) return static_cast<Plant>(v);
  std::optional<Plant> p = parse_plant(plant_from_environment());
  set_plant(p.value_or(Plant::None));
  return active_plant();
}

}  // namespace uopc

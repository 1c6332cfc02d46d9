// Engine settings in the environment (compiler/engine_env.h).
#include "compiler/engine_env.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "ir/error.h"

namespace uopc {
namespace {

// Sets the variables for one test and clears them after it.
struct Variables {
  explicit Variables(const Environment& env) : env_(env) {
    for (const auto& [name, value] : env_) ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~Variables() {
    for (const auto& [name, value] : env_) ::unsetenv(name.c_str());
  }
  Environment env_;
};

TEST(EngineEnvironment, UnsetIsNoSetting) {
  EngineEnvironment e = read_engine_environment();
  EXPECT_FALSE(e.opts);
  EXPECT_FALSE(e.threads);
  EXPECT_FALSE(e.check_bounds || e.check_ub || e.check_cost);
  EXPECT_FALSE(e.print_limit);
}

TEST(EngineEnvironment, ReadsWhatACampaignSets) {
  Variables v(engine_environment("tile=0:4 thread=0", 3));
  EngineEnvironment e = read_engine_environment();
  EXPECT_EQ(e.opts.value_or(""), "tile=0:4 thread=0");
  EXPECT_EQ(e.threads.value_or(0), 3);
  EXPECT_TRUE(e.check_bounds && e.check_ub && e.check_cost);
  // a campaign compares every element, so it asks for all of them
  EXPECT_EQ(e.print_limit.value_or(-1), 0);
}

TEST(EngineEnvironment, ChecksAreChosenOneByOne) {
  Variables v(Environment{{"UOPC_CHECK", "ub"}});
  EngineEnvironment e = read_engine_environment();
  EXPECT_TRUE(e.check_ub);
  EXPECT_FALSE(e.check_bounds || e.check_cost);
}

// A malformed value is refused with the variable's name.
TEST(EngineEnvironment, AMalformedValueNamesItsVariable) {
  const std::pair<const char*, const char*> bad[] = {
      {"UOPC_OPTS", "tile=x"},    {"UOPC_THREADS", "0"},        {"UOPC_THREADS", "3x"},
      {"UOPC_CHECK", "bonds"},    {"UOPC_CHECK", "bounds,all"}, {"UOPC_PRINT_LIMIT", "-1"},
      {"UOPC_PRINT_LIMIT", "all"}};
  for (const auto& [name, value] : bad) {
    Variables v(Environment{{name, value}});
    try {
      read_engine_environment();
      ADD_FAILURE() << name << "=" << value << " was taken";
    } catch (const UserError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace uopc
